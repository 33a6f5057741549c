"""Flight moves with fixed dice (rulebook "Flight Moves", "Immobile", "Fast", "Slow").

The fleeing unit ``t`` (player 2, 10 models, 2 rows of 5 on 20 mm bases: 3.94" x 1.57") stands at (36, 24)
facing 180 (toward player 1); ``a`` (player 1) touches one of its sides.
"""

from __future__ import annotations

import pytest

from game.engine.charge import run_down
from game.engine.flight import flee, flight_facing, flight_move
from game.engine.state import Removal
from geometry.arcs import Arc
from geometry.pose import Pose
from tests.rules.melee_builders import WARRIORS, charge_setup, dice, kinds, profile, unit, wall

DEPTH = 2 * 20 / 25.4
"""Depth of a 10-model unit (2 rows of 20 mm), inches."""


@pytest.mark.parametrize(("arcs", "facing"), [
    ([Arc.FRONT], 0.0), ([Arc.LEFT], 270.0), ([Arc.RIGHT], 90.0), ([Arc.REAR], 180.0),
    ([Arc.FRONT, Arc.RIGHT], 45.0), ([Arc.LEFT, Arc.FRONT], 315.0),
])
def test_flight_facing(arcs, facing):
    """Rulebook: Flight Moves: pivot away from the attacker, 180 degrees front, 90 flank, 0 rear; split the
    difference if attacked from several directions."""
    assert flight_facing(180.0, arcs) == pytest.approx(facing)


def test_flight_moves_full_range_straight_away():
    """Rulebook: Flight Moves: 2D6 flight range, pivot away from the attacker and move in a straight line; the
    fleeing unit is Shaken and leaves the melee."""
    s = charge_setup()
    t = s.units["t"]
    events = flight_move(s, dice(3, 4), t, [("a", Arc.FRONT)])
    assert t.pose.facing == pytest.approx(0.0)
    assert t.pose.y == pytest.approx(24.0 + 7.0)
    assert t.pose.x == pytest.approx(36.0)
    assert t.shaken and t.fleeing and not t.engaged and not s.units["a"].engaged
    flee_ev = kinds(events, "flee")[0]
    assert flee_ev.data["from"] == {"x": 36.0, "y": 24.0, "facing": 180.0}
    assert flee_ev.data["to"]["y"] == pytest.approx(31.0)
    assert flee_ev.data["range"] == 7
    assert kinds(events, "shaken")


def test_flight_from_the_flank_turns_90_degrees():
    """Rulebook: Flight Moves: 90 degrees if attacked in the flank, away from the attacker."""
    s = charge_setup(side=Arc.LEFT)  # t faces 180, its left side is toward +x
    t = s.units["t"]
    flight_move(s, dice(2, 2), t, [("a", Arc.LEFT)])
    assert t.pose.facing == pytest.approx(270.0)
    assert t.pose.x == pytest.approx(36.0 - 4.0)


def test_fast_and_slow_change_the_flight_range():
    """Rulebook: Flight Moves: add the Advance bonus or malus of Fast (+2") and Slow (-2"); Musician does not
    count."""
    fast = charge_setup(target_prof=profile(rules=("Fast",)), target_upgrades=("musician",))
    flight_move(fast, dice(3, 4), fast.units["t"], [("a", Arc.FRONT)])
    assert fast.units["t"].pose.y == pytest.approx(24.0 + 9.0)
    slow = charge_setup(target_prof=profile(rules=("Slow",)))
    flight_move(slow, dice(3, 4), slow.units["t"], [("a", Arc.FRONT)])
    assert slow.units["t"].pose.y == pytest.approx(24.0 + 5.0)


def test_flight_off_the_table_edge():
    """Rulebook: Flight Moves: if the fleeing unit crosses or makes contact with the table edge it flees the
    battlefield and is routed."""
    s = charge_setup(target_pose=Pose(36.0, 44.0, 180.0))
    t = s.units["t"]
    events = flight_move(s, dice(3, 3), t, [("a", Arc.FRONT)])
    assert t.removed is Removal.FLED
    assert not s.scene.has_unit("t")
    ev = kinds(events, "flee")[0]
    assert ev.data["off_table"] is True
    assert ev.data["to"]["y"] == pytest.approx(48.0 - DEPTH / 2)
    assert kinds(events, "rout")


def test_flight_stops_one_inch_short_of_a_unit():
    """Rulebook: Flight Moves: if another unit blocks the movement the fleeing unit stops in 1" distance."""
    blocker = unit("b", 2, WARRIORS, 5, Pose(36.0, 30.0 + 0.5 * 20 / 25.4, 0.0))
    s = charge_setup(extra=[blocker])
    t = s.units["t"]
    events = flight_move(s, dice(6, 6), t, [("a", Arc.FRONT)])
    assert s.scene.distance("t", "b") == pytest.approx(1.0, abs=1e-3)
    ev = kinds(events, "flee")[0]
    assert ev.data["blocked_by"] == "b"
    assert ev.data["travelled"] == pytest.approx(29.0 - (24.0 + DEPTH / 2), abs=1e-3)
    assert t.on_table and t.fleeing


def test_flight_stops_one_inch_short_of_impassable_terrain():
    """Rulebook: Flight Moves: impassable terrain blocks the movement 1" short."""
    s = charge_setup(terrain=[wall(36.0, 35.0, 10.0, 2.0)])
    t = s.units["t"]
    flight_move(s, dice(6, 6), t, [("a", Arc.FRONT)])
    assert t.pose.y + DEPTH / 2 == pytest.approx(34.0 - 1.0, abs=1e-3)


def test_immobile_unit_routs_instead_of_fleeing():
    """Rulebook: Immobile: if a model with this special rule would have to flee it routs instead."""
    s = charge_setup(target_prof=profile(rules=("Immobile",)))
    t = s.units["t"]
    d = dice()
    events = flight_move(s, d, t, [("a", Arc.FRONT)])
    assert t.removed is Removal.ROUTED
    assert d.consumed == 0
    assert kinds(events, "rout")


def test_flee_outcome_keeps_the_flight_line():
    """Rulebook: Pursuit Moves: the pursuer moves on the same straight line as the fleeing unit."""
    s = charge_setup()
    out = flee(s, dice(1, 2), s.units["t"], [("a", Arc.FRONT)])
    assert out.bearing == pytest.approx(0.0)
    assert out.distance == 3
    assert out.end.y - out.start.y == pytest.approx(3.0)


def test_flight_through_dangerous_terrain():
    """Rulebook: Flight Moves: difficult terrain does not reduce the flight range but dangerous terrain takes
    full effect (Dangerous Terrain: one die per model, each 1 is a wound)."""
    lava = wall(36.0, 28.0, 10.0, 1.0, name="Lava", traits=("dangerous", "difficult"))
    s = charge_setup(terrain=[lava])
    t = s.units["t"]
    d = dice(5, 5, 1, *[6] * 9)
    events = flight_move(s, d, t, [("a", Arc.FRONT)])
    assert t.pose.y == pytest.approx(34.0)  # the full 10", difficult terrain does not slow it
    assert t.models == 9
    assert kinds(events, "wounds")
    assert d.consumed == 12


def test_flee_reaction_that_cannot_get_away_is_caught():
    """Rulebook: Charge Reactions, Flee: the charged unit flees before the charge move and the charger may run it
    down (contact routs it); Flight Moves: a unit blocked stops 1" short; General Movement: never within 1" of
    an enemy outside melee. A unit whose flight leaves it within 1" of the charger could not get away: it is
    caught and routed at once, and the charger's run down needs no move (docs/rulings.md)."""
    s = charge_setup(terrain=[wall(36.0, 24.0 + DEPTH / 2 + 0.5 + 0.5, 20.0, 1.0)])  # 0.5" behind t
    t, a = s.units["t"], s.units["a"]
    s.disengage(a, t)  # as when the charge is declared: a stands in front of t, not yet in melee
    events = flight_move(s, dice(3, 3), t, [("a", Arc.FRONT)])
    assert [e.kind for e in events][-2:] == ["flee", "rout"]
    assert events[-1].data == {"unit": "t", "by": "a", "reason": "cornered"}
    assert t.removed is Removal.ROUTED
    start = a.pose
    ran = run_down(s, dice(), a, t)
    assert [e.kind for e in ran] == ["charge"] and ran[0].data["caught"] is True
    assert a.pose == start
