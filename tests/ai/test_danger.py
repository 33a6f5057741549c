"""The computer opponent prices a move's dangerous terrain at its expectation (game/ai/danger.py, issue 13).

Rulebook AoWFBR 1.4 "Dangerous Terrain": each model moving in or through it rolls one die (as many as its Tough),
and each 1 is a wound. Judged on one sample of its own dice, a move through it looked free whenever no 1 came up,
and the search crossed ruins and rivers turn after turn."""

from __future__ import annotations

import pytest

from game.ai import SearchPlayer
from game.ai.danger import WOUND_WORTH, PricedDangerDice, expected_cost, priced_dice
from game.engine.actions import Done, Move
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.movement import apply_move
from game.engine.state import GameState, MoveAction, Table, make_unit
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules.builders import ORCS, profile

SPEARMEN = profile("Spearmen", weapons=(), cost=120)


def _state(lava: bool) -> GameState:
    """Spearmen (player 1, 6 models) at (36, 10) facing up the table, Orcs far away; with ``lava``, a strip of
    dangerous terrain (nothing else: not difficult, no cover) across the way at y 13-14."""
    terrain = [TerrainShape(0, "Lava", rect_to_polygon(36, 13.5, 30, 1, 0), frozenset({"dangerous"}))] if lava else []
    units = {"u": make_unit("u", 1, SPEARMEN, 6, Pose(36, 10, 0)), "e": make_unit("e", 2, ORCS, 10, Pose(36, 40, 180))}
    return GameState("danger", Table(), terrain, units, {1: None, 2: None})


def test_the_tests_are_tallied_not_rolled_and_other_rolls_are_untouched() -> None:
    """While a move is judged no dangerous terrain test wounds: the dice each unit would roll are tallied, and the
    rolls after it are those a fresh seeded ``Dice`` would make (the tests draw nothing from its generator)."""
    s = _state(lava=True)
    dice = priced_dice(Game.start(s, Dice(seed=1)), 7)
    apply_move(s, dice, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])
    assert s.units["u"].models == 6
    assert dice.tallied == {"u": 6}
    assert dice.d6(5, "hit rolls") == Dice(seed=7).d6(5, "hit rolls")


def test_expected_cost_is_a_sixth_of_the_dice_as_wounds_and_a_gain_on_the_enemy() -> None:
    game = Game.start(_state(lava=False), Dice(seed=1))
    dice = PricedDangerDice(seed=1, tallied={"u": 6})
    per_wound = WOUND_WORTH * 120 / 6
    assert expected_cost(game, dice, 1) == pytest.approx(per_wound)
    assert expected_cost(game, dice, 2) == pytest.approx(-per_wound)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_move_through_dangerous_terrain_is_judged_alike_whatever_the_search_rolls(seed: int) -> None:
    """The same move judged with different dice of the search's own gets the same value: the value of that move
    over open ground less the expected wounds (6 dice: one wound), never one sample's luck."""
    values = []
    for lava in (False, True):
        game = Game.start(_state(lava), Dice(seed=1))
        while game.pending is not None and game.pending.decision != "move":
            game.apply(Done(game.pending.player))
        move = Move(1, "u", "advance", (Pose(36, 16, 0),))
        assert game.check_move(move) is None
        values.append(SearchPlayer(seed)._judge(game, move, 1, [seed, seed + 100], 0))
    clear, through = values
    assert clear is not None and through is not None
    assert through == pytest.approx(clear - WOUND_WORTH * 120 / 6)
