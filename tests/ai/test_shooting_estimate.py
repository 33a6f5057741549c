"""The computer opponent's estimate of shooting (``game.ai.evaluate.volley_stake`` and its term in ``evaluate``):
a volley's expected cost in the evaluation's points (``game.ai.stakes``: the target's standing and the Victory
Points it gives up at half strength, destroyed, as the General), from the models that may fire (AoWFBR 1.4 "Who
Can Shoot": two front rows after a Hold, one after an Advance, none after a Rush; AoF:R 2.16: every model), hits on
the firers' Quality and the target's Defense worsened by AP (rulebook "Shooting")."""

from __future__ import annotations

import pytest

from game.ai.evaluate import LATER, VOLLEYS_TO_COME, evaluate, evaluate_terms, still_to_move_caps, volley_stake
from game.ai.stakes import MATERIAL, stake_table, wounds_law
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.state import GameState, MoveAction, Phase, Step
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import ARCHERS, FRONT_Y, HAND_WEAPON, face_off, forest, profile, wall_between

CROSSBOWS = profile("Crossbows", quality=4, defense=5, weapons=(Weapon("Crossbow", attacks=1, range=24.0,
                                                                          rules=("AP(1)",)), HAND_WEAPON),
                    size=10, cost=100)


def _game(state: GameState) -> Game:
    return Game.start(state, Dice(seed=1))


def _standing_of_models(wounds: float, cost_per_model: float) -> float:
    return MATERIAL * wounds * cost_per_model


def test_a_volley_costs_the_models_it_removes_and_the_points_they_give_up() -> None:
    """10 archers holding (two rows of 5 fire: rulebook "Who Can Shoot") at Defense 5+ orcs: 10 attacks x 1/2 to
    hit (Quality 4+) x 2/3 failed Defense = 3.33 wounds expected, models of 10 points each. The volley costs at
    least the standing of the models removed (``MATERIAL`` of their cost), more for the chance it leaves the orcs at
    half strength (50% of their cost in Victory Points) and to a morale test; an Advance leaves one row to fire;
    out of the Longbow's 24" nothing."""
    game = _game(face_off(12.0))
    archers, orcs = game.state.units["archers-1"], game.state.units["orcs-1"]
    assert archers.per_row == 5
    held = volley_stake(game, archers, orcs, 12.0, rows=2)
    assert held > _standing_of_models(10 * 0.5 * (2 / 3), 10.0)
    law = wounds_law(((10, 0.5 * (2 / 3)),), 10)
    table = stake_table(game.state, orcs, True)
    assert table[5] == pytest.approx(5 * MATERIAL * 10.0 + 50)        # half strength: 50% of its 100 points
    assert held >= sum(p * table[w] for w, p in enumerate(law)) - 1e-9
    advanced = volley_stake(game, archers, orcs, 12.0, rows=1)
    assert 0.0 < advanced < held
    assert volley_stake(game, archers, orcs, 24.5, rows=2) == 0.0


def test_ap_worsens_the_targets_defense() -> None:
    """AP(1) makes the Defense 5+ a 6+: 5/6 of the hits get through instead of 2/3."""
    plain = _game(face_off(12.0))
    game = _game(face_off(12.0, shooter=CROSSBOWS))
    assert volley_stake(game, game.state.units["archers-1"], game.state.units["orcs-1"], 12.0, rows=2) > \
        volley_stake(plain, plain.state.units["archers-1"], plain.state.units["orcs-1"], 12.0, rows=2)


def test_a_volley_that_kills_the_general_counts_its_cost_and_the_bonus() -> None:
    """Rulebook "Victory Conditions": a hero shot dead gives up its whole cost, and +100 as the enemy's General;
    a crossbow volley that surely kills a lone Tough(1) General is worth that and its standing."""
    hero = profile("Lord", quality=3, defense=6, weapons=(HAND_WEAPON,), rules=("Hero",), size=1, cost=90)
    state = face_off(12.0, shooter=CROSSBOWS, target=hero, target_models=1)
    state.generals = {1: "archers-1", 2: "orcs-1"}
    game = _game(state)
    lord = game.state.units["orcs-1"]
    assert stake_table(game.state, lord, True) == pytest.approx((0.0, MATERIAL * 90 + 90 + 100))
    got = volley_stake(game, game.state.units["archers-1"], lord, 12.0, rows=2)
    # 10 shots, 1/2 hit, 5/6 through: at least one wound all but surely
    assert got == pytest.approx((1 - (1 - 0.5 * 5 / 6) ** 10) * (MATERIAL * 90 + 190), rel=1e-3)


def test_every_model_fires_under_aofr() -> None:
    """AoF:R 2.16 "Who Can Shoot": all models of the unit fire, whatever its rows."""
    archers = unit("a", 1, ARCHERS, models=20, front_y=10.0)
    target = unit("t", 2, ARCHERS, models=10, front_y=22.0)
    game = aofr_game([archers, target])
    assert volley_stake(game, archers, target, 12.0, rows=1) == volley_stake(game, archers, target, 12.0, rows=4)
    assert volley_stake(game, archers, target, 12.0, rows=1) > 0.0


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
    by the volley's stake when the archers shoot next (their own turn, before its Shooting Phase), by ``LATER``
    of it when the orcs' side moves first (and by the volleys to come, the test below)."""
    game = _turn(face_off(gap), 1)
    volley = volley_stake(game, game.state.units["archers-1"], game.state.units["orcs-1"], gap, rows=2)
    shot = evaluate_terms(game, 2, 2)
    unshot = evaluate_terms(_turn(face_off(gap, shooter=UNARMED), 1), 2, 2)
    assert sum(unshot.values()) - sum(shot.values()) + shot["volleys"] == pytest.approx(volley)
    assert shot["shooting"] == pytest.approx(-volley)
    later = evaluate_terms(_turn(face_off(gap), 2), 2, 2)
    unshot_later = evaluate_terms(_turn(face_off(gap, shooter=UNARMED), 2), 2, 2)
    assert sum(unshot_later.values()) - sum(later.values()) + later["volleys"] == pytest.approx(LATER * volley)


@pytest.mark.parametrize("gap", [14.0, 20.0])
def test_a_shooter_counts_its_volleys_until_the_enemy_could_charge_it(gap: float) -> None:
    """The volleys to come: the archers shoot again each later turn before the orcs (charge reach 12", a Rush of
    12" a turn, rulebook "Charge Moves", "Rush") could charge them, ``VOLLEYS_TO_COME`` of the volley each, in turns
    not whole (the orcs 20" away: 8" / 12" = 2/3 of a turn). Orcs in the last round, or within their charge reach,
    face none."""
    game = _turn(face_off(gap), 1)
    volley = volley_stake(game, game.state.units["archers-1"], game.state.units["orcs-1"], gap, rows=2)
    assert game.state.round < game.state.rounds - 1
    terms = evaluate_terms(game, 2, 2)
    assert terms["volleys"] == pytest.approx(-VOLLEYS_TO_COME * volley * (gap - 12.0) / 12.0)
    last = _turn(face_off(gap), 1)
    last.state.round = last.state.rounds
    assert evaluate_terms(last, 2, 2)["volleys"] == 0.0
    assert evaluate_terms(_turn(face_off(11.0), 1), 2, 2)["volleys"] == 0.0


def test_past_its_shooting_phase_a_shooter_fires_again_only_next_round() -> None:
    """AoWFBR 1.4 "Turn Sequence": the archers' side is active in the round before the last. Before their Shooting
    Phase the volley counted falls this round, and the last round gives one more to come; past it (the Close Combat
    Phase) the volley counted is the last round's, and none comes after it."""
    def volleys(phase: Phase) -> float:
        game = _turn(face_off(20.0), 1)
        game.state.round = game.state.rounds - 1
        game.state.phase = phase
        return evaluate_terms(game, 2, 2)["volleys"]

    assert volleys(Phase.MOVEMENT) < 0.0
    assert volleys(Phase.CLOSE_COMBAT) == 0.0


def test_closing_in_on_the_shooters_saves_volleys() -> None:
    """A side outshot loses a volley a turn while it keeps its distance: the orcs 16" from the archers face fewer
    volleys to come than 22" away (the volley itself the same, both within the crossbows' 24")."""
    near, far = _turn(face_off(16.0, shooter=CROSSBOWS), 1), _turn(face_off(22.0, shooter=CROSSBOWS), 1)
    assert evaluate_terms(near, 2, 2)["volleys"] > evaluate_terms(far, 2, 2)["volleys"]


def test_a_shooter_about_to_act_may_advance_before_it_fires() -> None:
    """AoWFBR 1.4 "Who Can Shoot": before its own turn a shooter may Advance 6" and fire its front row, so orcs 28"
    away (beyond the Longbow's 24") are within its reach then (``LATER`` of it while the orcs' side acts first)."""
    game = _turn(face_off(28.0), 2)
    game.state.units["archers-1"].move_action = None
    threatened = evaluate(game, 2, 1)
    unshot = evaluate(_turn(face_off(28.0, shooter=UNARMED), 2), 2, 1)
    assert threatened < unshot
    later = evaluate(game, 2, 2)
    unshot_later = evaluate(_turn(face_off(28.0, shooter=UNARMED), 2), 2, 2)
    assert unshot_later - later == pytest.approx(LATER * (unshot - threatened))


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
    law = wounds_law(((10, 0.5 * 5 / 6),), 10)
    table = stake_table(game.state, target, True)
    assert volley_stake(game, shooter, target, 12.0, rows=2) >= sum(p * table[w] for w, p in enumerate(law)) - 1e-9
    assert law[10] < 0.01            # not every hit gets through


def test_a_target_behind_a_building_is_not_counted_as_shot_at() -> None:
    """Rulebook "Line of Sight", "Blocking Terrain": models cannot see through a building. Orcs 12" from the archers
    with a building between them are worth as much as against archers without bows; moved aside, they are not."""
    wall = forest(36.0, 16.0, 8.0, 2.0, traits=("blocking", "impassable"))
    hidden = evaluate(_turn(face_off(12.0, terrain=[wall]), 1), 2, 2)
    unshot = evaluate(_turn(face_off(12.0, shooter=UNARMED, terrain=[wall]), 1), 2, 2)
    assert hidden == pytest.approx(unshot)
    aside = evaluate(_turn(face_off(12.0, terrain=[wall], target_x=47.0), 1), 2, 2)
    unshot_aside = evaluate(_turn(face_off(12.0, shooter=UNARMED, terrain=[wall], target_x=47.0), 1), 2, 2)
    assert aside < unshot_aside


def test_only_the_enemys_volleys_to_come_are_counted() -> None:
    """The archers' own side does not count its volleys to come (like closing in, it is the side outshot that
    must act): for player 1 the term is nothing, whatever the gap."""
    assert evaluate_terms(_turn(face_off(20.0), 1), 1, 1)["volleys"] == 0.0


def _screened(wall_y: float, hero_moved: bool = False) -> Game:
    """Player 2 moving: the orcs' lone General 20" from the archers' 24" bows, the wide
    ``wall-1`` (player 2, moved) across the line at ``wall_y``; the General has still to move unless
    ``hero_moved``. The archers shoot next."""
    hero = profile("Lord", quality=3, defense=6, weapons=(HAND_WEAPON,), rules=("Hero",), size=1, cost=90)
    state = face_off(20.0, target=hero, target_models=1, extra=[wall_between(front_y=wall_y)])
    state.generals = {1: None, 2: "orcs-1"}
    game = _game(state)
    s = game.state
    s.active_player, s.phase, s.step = 2, Phase.MOVEMENT, Step.REMAINING_MOVES
    s.units["wall-1"].move_action = MoveAction.ADVANCE
    s.units["orcs-1"].move_action = MoveAction.HOLD if hero_moved else None
    return game


def test_a_unit_still_to_move_answers_its_own_exposure() -> None:
    """AoWFBR 1.4 "Remaining Moves": the General standing behind the wall has still to move, so the wall's move
    that uncovers him (out of the archers' sight and range at 32", rulebook "Line of Sight") is judged by the
    General's exposure before it (``still_to_move_caps``: none, he was hidden), not by the volley he would take
    standing there; he will step aside himself. Once he has moved, the caps no longer hold him."""
    before = _screened(FRONT_Y + 6.0)
    caps = still_to_move_caps(before, 2)
    assert caps == {("archers-1", "orcs-1"): 0.0}
    assert evaluate_terms(before, 2, 1)["shooting"] < 0.0         # the archers shoot the wall 6" away
    uncovered = _screened(FRONT_Y + 32.0)
    lord = uncovered.state.units["orcs-1"]
    volley = volley_stake(uncovered, uncovered.state.units["archers-1"], lord, 20.0, rows=2)
    assert volley > 100.0                                           # a lone General shot at: his cost and the 100
    assert evaluate_terms(uncovered, 2, 1)["shooting"] == pytest.approx(-volley)
    assert evaluate_terms(uncovered, 2, 1, caps)["shooting"] == 0.0
    assert evaluate_terms(_screened(FRONT_Y + 32.0, hero_moved=True), 2, 1, caps)["shooting"] == \
        pytest.approx(-volley)


def test_no_caps_outside_the_moving_sides_movement_phase() -> None:
    """The caps belong to the moving side's Movement Phase: for the other side, or in another phase, none."""
    game = _screened(FRONT_Y + 6.0)
    assert still_to_move_caps(game, 1) == {}
    game.state.phase = Phase.SHOOTING
    assert still_to_move_caps(game, 2) == {}
