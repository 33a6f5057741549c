"""The computer opponent's candidate moves (``game.ai.candidates``) under AoWFBR 1.4: how far a unit goes
(rulebook "Advance", "Rush", "Fast", "Slow")."""

from __future__ import annotations

import math

import pytest

from game.ai.candidates import allowances, move_candidates
from game.engine.actions import Done
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import GameState, Phase, Table, Unit
from tests.rules.aofr.helpers import unit
from tests.rules.builders import HAND_WEAPON, ORCS, profile

RIDERS = profile("Riders", quality=4, defense=4, weapons=(HAND_WEAPON,), rules=("Fast",), size=5, cost=160,
                 base=(25.0, 50.0))
SLOWPOKES = profile("Ogres", quality=4, defense=4, weapons=(HAND_WEAPON,), rules=("Slow",), size=5, cost=160,
                    base=(40.0, 40.0))


def _movement(*units: Unit) -> Game:
    """An AoWFBR 1.4 game holding ``units`` at step 2.4 (moves) of player 1's Movement Phase."""
    s = GameState("candidates", Table(), [], {u.id: u for u in units}, {1: None, 2: None})
    s.phase = Phase.MOVEMENT
    game = Game.start(s, Dice(seed=1))
    game.apply(Done(1))     # no charges
    assert game.pending is not None and game.pending.decision == "move"
    return game


def _gone(game: Game, uid: str, path: tuple) -> float:  # type: ignore[type-arg]
    start = game.state.units[uid].pose
    assert start is not None
    return math.dist(start.xy, path[-1].xy) if path else 0.0


def test_a_fast_unit_goes_its_whole_move_and_a_slow_one_its_own() -> None:
    """Rulebook "Fast": +2" Advance, +4" Rush; "Slow": -2"/-4". The candidates use the unit's own allowance: the
    riders close in by 8" and 16", the ogres by 4" and 8" (not the 6"/12" of an ordinary unit, nor a fraction)."""
    for prof, advance, rush in ((RIDERS, 8.0, 16.0), (SLOWPOKES, 4.0, 8.0)):
        mover = unit("m", 1, prof, models=5, front_y=5.0)
        foe = unit("f", 2, ORCS, models=10, front_y=45.0)
        game = _movement(mover, foe)
        assert allowances(mover) == pytest.approx((advance, rush), abs=0.01)
        moves = move_candidates(game, mover, 7)
        gone = {m.action: max(_gone(game, "m", n.path) for n in moves if n.action == m.action) for m in moves}
        assert gone["advance"] == pytest.approx(advance, abs=0.01)
        assert gone["rush"] == pytest.approx(rush, abs=0.01)


def test_a_unit_caught_with_its_rear_to_an_enemy_may_turn_round_where_it_stands() -> None:
    """Rulebook "Holding": a unit that Holds may pivot by up to 180 degrees. A unit whose centre is not on the
    thousandths of an inch (as a pursuit or a charge leaves it) is offered the Hold that turns it to face the enemy
    at its rear, its centre exactly where it was (a rounded centre would be a move, which a Hold may not make)."""
    mover = unit("m", 1, ORCS, models=10, front_y=20.0)
    assert mover.pose is not None
    mover.pose = type(mover.pose)(mover.pose.x + 0.0001234, mover.pose.y - 0.0004321, 0.0)
    behind = unit("f", 2, RIDERS, models=5, front_y=10.0)       # 4" or so behind it, facing it
    game = _movement(mover, behind)
    game.state.place(mover, mover.pose)
    turns = [m for m in move_candidates(game, mover, 7) if m.action == "hold" and m.path]
    assert turns, "a pivot to face the enemy behind it"
    end = turns[0].path[-1]
    assert (end.x, end.y) == (mover.pose.x, mover.pose.y)
    assert abs(((end.facing - 180.0) + 180.0) % 360.0 - 180.0) < 15.0
    assert game.check_move(turns[0]) is None
