"""The computer opponent's estimate of shooting (``game.ai.evaluate.volley_loss`` and its term in ``evaluate``):
a volley's expected cost in the target's worth, from the models that may fire (AoWFBR 1.4 "Who Can Shoot": two
front rows after a Hold, one after an Advance, none after a Rush; AoF:R 2.16: every model), hits on the firers'
Quality and the target's Defense worsened by AP (rulebook "Shooting")."""

from __future__ import annotations

import pytest

from game.ai.evaluate import evaluate, volley_loss
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.state import GameState, MoveAction, Phase
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import ARCHERS, HAND_WEAPON, face_off, profile

CROSSBOWS = profile("Crossbows", quality=4, defense=5, weapons=(Weapon("Crossbow", attacks=1, range=24.0,
                                                                          rules=("AP(1)",)), HAND_WEAPON),
                    size=10, cost=100)


def _game(state: GameState) -> Game:
    return Game.start(state, Dice(seed=1))


def test_a_volley_costs_the_hits_that_get_through_in_models_worth() -> None:
    """10 archers holding (two rows of 5 fire: rulebook "Who Can Shoot") at Defense 5+ orcs: 10 attacks x 1/2 to
    hit (Quality 4+) x 2/3 failed Defense = 3.33 wounds, 3.33 models of 10 points each."""
    game = _game(face_off(12.0))
    archers, orcs = game.state.units["archers-1"], game.state.units["orcs-1"]
    assert archers.per_row == 5
    assert volley_loss(game, archers, orcs, 12.0, rows=2) == pytest.approx(10 * 0.5 * (2 / 3) * 10.0)
    # an Advance leaves one row to fire; out of the Longbow's 24" nothing
    assert volley_loss(game, archers, orcs, 12.0, rows=1) == pytest.approx(5 * 0.5 * (2 / 3) * 10.0)
    assert volley_loss(game, archers, orcs, 24.5, rows=2) == 0.0


def test_ap_worsens_the_targets_defense() -> None:
    """AP(1) makes the Defense 5+ a 6+: 5/6 of the hits get through instead of 2/3."""
    game = _game(face_off(12.0, shooter=CROSSBOWS))
    shooter, orcs = game.state.units["archers-1"], game.state.units["orcs-1"]
    assert volley_loss(game, shooter, orcs, 12.0, rows=2) == pytest.approx(10 * 0.5 * (5 / 6) * 10.0)


def test_every_model_fires_under_aofr() -> None:
    """AoF:R 2.16 "Who Can Shoot": all models of the unit fire, whatever its rows."""
    archers = unit("a", 1, ARCHERS, models=20, front_y=10.0)
    target = unit("t", 2, ARCHERS, models=10, front_y=22.0)
    game = aofr_game([archers, target])
    assert volley_loss(game, archers, target, 12.0, rows=1) == pytest.approx(20 * 0.5 * (2 / 3) * 10.0)


UNARMED = profile("Archers", weapons=(HAND_WEAPON,))
"""The archers without their bows: the same unit in every other term of the evaluation."""


def _turn(state: GameState, active: int, move_action: MoveAction | None = None) -> Game:
    game = _game(state)
    game.state.active_player, game.state.phase = active, Phase.MOVEMENT
    game.state.units["archers-1"].move_action = move_action
    return game


@pytest.mark.parametrize("gap", [12.0, 20.0])
def test_a_unit_within_reach_of_enemy_shooters_is_worth_less(gap: float) -> None:
    """Orcs within the archers' 24": player 2's position is worth less than against the same unit without bows,
    by half the volley's expected cost (``SHOOTING``) when the archers shoot next (their own turn, before its
    Shooting Phase), by ``LATER`` of that when the orcs' side moves first."""
    volley = 10 * 0.5 * (2 / 3) * 10.0
    shot = evaluate(_turn(face_off(gap), 1), 2, 2)
    unshot = evaluate(_turn(face_off(gap, shooter=UNARMED), 1), 2, 2)
    assert unshot - shot == pytest.approx(0.5 * volley)
    later = evaluate(_turn(face_off(gap), 2), 2, 2)
    unshot_later = evaluate(_turn(face_off(gap, shooter=UNARMED), 2), 2, 2)
    assert unshot_later - later == pytest.approx(0.5 * 0.3 * volley)


def test_archers_that_rushed_or_advanced_count_on_fewer_shots_this_turn() -> None:
    """Rulebook "Who Can Shoot": after a Hold two rows fire, after an Advance one, after a Rush none, so player 1's
    position before its Shooting Phase is worth the less the more its archers moved."""
    held = evaluate(_turn(face_off(12.0), 1, MoveAction.HOLD), 1, 2)
    advanced = evaluate(_turn(face_off(12.0), 1, MoveAction.ADVANCE), 1, 2)
    rushed = evaluate(_turn(face_off(12.0), 1, MoveAction.RUSH), 1, 2)
    assert held > advanced > rushed


def test_a_natural_six_still_blocks_a_defense_worsened_past_6() -> None:
    """AP(1) against Defense 6+: the engine still blocks on a natural 6 (``attacks.succeeds``), so 5/6 of the hits
    get through, not all of them (the estimate uses the engine's own die rule, ``odds.exact.die_success``)."""
    armoured = profile("Armoured", quality=4, defense=6, weapons=(HAND_WEAPON,))
    game = _game(face_off(12.0, shooter=CROSSBOWS, target=armoured))
    shooter, target = game.state.units["archers-1"], game.state.units["orcs-1"]
    assert volley_loss(game, shooter, target, 12.0, rows=2) == pytest.approx(10 * 0.5 * (5 / 6) * 10.0)
