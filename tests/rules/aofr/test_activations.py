"""AoF:R 2.16 "Playing the Game" and "Activating Units", "Movement", "Shooting": alternating activations, one action
per activation, shooting after Hold/Advance (every model), cover -1 to hit
(../shared/rules/aofr-2.16-full-rulebook.txt)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, Done, Move, Shoot
from game.engine.errors import IllegalAction
from game.engine.state import MoveAction
from geometry.pose import Pose
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import ARCHERS, FRONT_Y, forest


def test_players_alternate_and_the_one_who_finished_first_starts_the_next_round():
    """"Game Structure": the players alternate activating a unit that has not been activated; "On each new round
    the player that finished activating first on the last round gets to activate first"."""
    game = aofr_game([unit("a1", 1, x=15), unit("a2", 1, x=55), unit("b1", 2, front_y=40)])
    p = game.pending
    assert p is not None and (p.player, p.decision, p.options) == (1, "activate", ("a1", "a2"))
    with pytest.raises(IllegalAction, match="belongs to player 2"):
        game.apply(Activate(1, "b1"))
    game.apply(Activate(1, "a1"))
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("action", "a1")
    game.apply(Done(1))                       # stays idle
    assert game.pending is not None and (game.pending.player, game.pending.options) == (2, ("b1",))
    game.apply(Activate(2, "b1"))
    game.apply(Done(2))
    # player 2 has no unit left: player 1 activates its last one, then round 2 begins with player 2
    assert game.pending is not None and (game.pending.player, game.pending.options) == (1, ("a2",))
    with pytest.raises(IllegalAction, match="already been activated"):
        game.apply(Activate(1, "a1"))
    game.apply(Activate(1, "a2"))
    game.apply(Done(1))
    assert game.state.round == 2
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "activate")
    assert game.pending.options == ("b1",)


def test_hold_then_every_model_shoots_and_the_activation_ends():
    """"Activating Units": Hold, then shoot; "Who Can Shoot": all models with line of sight and range fire (three
    rows of five archers: 15 attacks, where AoWFBR fires two rows)."""
    archers = unit("archers", 1, ARCHERS, models=15)
    game = aofr_game([archers, unit("orcs", 2, front_y=FRONT_Y + 12)], dice=[4] * 15 + [6] * 15)
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("shoot", "archers")
    assert game.shooting_targets("archers") == ["orcs"]
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    shot = next(e for e in events if e.kind == "shoot")
    assert shot.data["attacks"] == 15
    assert game.dice.consumed == 30           # 15 hits on 4+, 15 Defense rolls of 6: all blocked
    assert game.state.units["orcs"].models == 10
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "activate")


def test_cover_gives_the_shooters_minus_one_to_hit():
    """"Cover Terrain": "If the majority of models in a unit are in or behind a piece of cover terrain, enemy units
    shooting at it get -1 to their hit rolls" (not +1 Defense): 4s on Quality 4+ miss."""
    archers = unit("archers", 1, ARCHERS, models=10)
    wood = forest(36.0, FRONT_Y + 14, 20.0, 8.0)
    game = aofr_game([archers, unit("orcs", 2, front_y=FRONT_Y + 12)], dice=[4] * 10, terrain=[wood])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    roll = next(e for e in events if e.kind == "roll")
    assert any("Cover" in d and "-1" in d for d in roll.data["details"])
    assert next(e for e in events if e.kind == "hits").data["hits"] == 0 and game.dice.consumed == 10


def test_rush_may_end_near_an_enemy_and_never_shoots():
    """"Rushing": pivot first, then up to 12" straight; the unit may not shoot. AoF:R has no AoWFBR "no Rush
    within 6" of an enemy"."""
    archers = unit("archers", 1, ARCHERS, models=10)
    game = aofr_game([archers, unit("orcs", 2, front_y=FRONT_Y + 8)])
    start = archers.pose
    assert start is not None
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "rush", (Pose(start.x, start.y + 4.0, 0.0),)))
    assert archers.move_action is MoveAction.RUSH
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "activate")


def test_advance_pivots_once_and_rush_pivots_first():
    """"Advancing": "may pivot once by up to 90° at any point"; "Rushing": "may first pivot by up to 90°, and
    then move ... in a straight line"."""
    archers = unit("archers", 1, ARCHERS, models=10)
    game = aofr_game([archers, unit("orcs", 2, front_y=40)])
    s = archers.pose
    assert s is not None
    game.apply(Activate(1, "archers"))
    two = Move(1, "archers", "advance", (s.facing_to(30.0), Pose(s.x + 1.0, s.y + 2.0, 30.0),
                                         Pose(s.x + 1.0, s.y + 2.0, 0.0)))
    err = game.check_move(two)
    assert err is not None and err.rule == "Advancing"
    late = Move(1, "archers", "rush", (Pose(s.x, s.y + 3.0, 0.0), Pose(s.x, s.y + 3.0, 20.0)))
    err = game.check_move(late)
    assert err is not None and err.rule == "Rushing"
    ok = Move(1, "archers", "advance", (Pose(s.x, s.y + 2.0, 0.0), Pose(s.x, s.y + 2.0, 45.0),
                                        Pose(s.x + 1.0, s.y + 3.0, 45.0)))
    assert game.check_move(ok) is None


def test_a_wavering_unit_idles_pivots_up_to_90_and_recovers():
    """"Wavering Units": "When a Wavering unit is activated it must spend its activation being idle and may only
    pivot by up to 90°, which stops it from being Wavering at the end of its activation"."""
    from game.engine.actions import RallyPivot
    orcs = unit("orcs", 2, front_y=40)
    orcs.shaken = True
    game = aofr_game([orcs, unit("archers", 1, ARCHERS, x=10)], first=2)
    game.apply(Activate(2, "orcs"))
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("wavering", "orcs")
    assert game.units_to_move(2) == [] and game.charge_targets("orcs") == []
    with pytest.raises(IllegalAction, match="up to 90"):
        game.apply(RallyPivot(2, "orcs", 300.0))
    game.apply(RallyPivot(2, "orcs", 270.0))
    assert not orcs.shaken and orcs.pose is not None and orcs.pose.facing == pytest.approx(270.0)
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (1, "activate")
