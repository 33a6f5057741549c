"""Charges: valid targets and the engine-computed charge move (rulebook "Charging", "Melee: Picking Targets",
"Charge Moves")."""

from __future__ import annotations

import pytest

from game.engine.charge import charge_targets, make_charge_move, plan_charge
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.state import GameState, Table, make_unit
from geometry.arcs import Arc
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules.builders import ORCS, profile

KNIGHTS = profile("Knights", weapons=(), rules=("Fast",), size=5, base=(25.0, 50.0))
SPEARS = profile("Spearmen", weapons=())


def two(charger: Pose, target: Pose, prof=SPEARS, terrain=(), extra=()) -> GameState:
    """``c`` (player 1, 10 models) and ``t`` (player 2, 10 Orcs) at the given poses."""
    units = {"c": make_unit("c", 1, prof, 10 if prof is SPEARS else 5, charger),
             "t": make_unit("t", 2, ORCS, 10, target)}
    for u in extra:
        units[u.id] = u
    return GameState("t", Table(), list(terrain), units, {1: None, 2: None})


def test_target_within_twelve_inches_in_front_is_valid():
    """Rulebook: Melee, Picking Targets: within charge distance, clear path, line of sight."""
    s = two(Pose(36, 10, 0), Pose(36, 10 + 0.79 + 10 + 0.79, 180))
    assert charge_targets(s, s.units["c"]) == ["t"]
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.side is Arc.FRONT
    assert plan.distance == pytest.approx(10, abs=0.05)


def test_target_beyond_twelve_inches_is_not_valid():
    """Rulebook: Charging: the unit may move by up to 12"."""
    s = two(Pose(36, 10, 0), Pose(36, 10 + 0.79 + 12.5 + 0.79, 180))
    assert charge_targets(s, s.units["c"]) == []
    with pytest.raises(IllegalAction) as e:
        plan_charge(s, s.units["c"], s.units["t"])
    assert e.value.rule == "Charging"


def test_fast_units_charge_sixteen_inches():
    """Rulebook: Fast: +4" when using Rush/Charge."""
    s = two(Pose(36, 10, 0), Pose(36, 10 + 1 + 15 + 0.79, 180), prof=KNIGHTS)
    assert charge_targets(s, s.units["c"]) == ["t"]


def test_charge_contacts_the_flank_where_the_front_row_stands():
    """Rulebook: Charge Moves: charge in the facing where the majority of the front row is at declaration."""
    # Target faces +x (90); the charger stands to its left side (-y side is its right... ) below it, facing +y.
    s = two(Pose(36, 10, 0), Pose(36, 20, 90))
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.side is Arc.RIGHT
    events = make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    c, t = s.units["c"], s.units["t"]
    assert "t" in c.engaged_with and t.contact_arcs["c"] is Arc.RIGHT
    assert s.scene.distance("c", "t") < 0.01
    assert c.fights_as_charger and events[0].kind == "charge"


def test_no_line_of_sight_means_no_charge():
    """Rulebook: Melee, Picking Targets: a model of the unit or a friend within 6" must see the target."""
    wall = TerrainShape(0, "Tower", rect_to_polygon(36, 15.5, 12, 2, 0), frozenset({"blocking"}))
    s = two(Pose(36, 10, 0), Pose(36, 21, 180), terrain=[wall])
    with pytest.raises(IllegalAction):
        plan_charge(s, s.units["c"], s.units["t"])


def test_units_in_the_way_block_the_path():
    """Rulebook: General Movement: models may never move through other units, even when charging."""
    blocker = make_unit("b", 1, SPEARS, 10, Pose(36, 15.5, 0))
    s = two(Pose(36, 10, 0), Pose(36, 21, 180), extra=[blocker])
    assert "t" not in charge_targets(s, s.units["c"])


def test_shaken_units_cannot_charge():
    """Rulebook: Shaken Units: must stay idle."""
    s = two(Pose(36, 10, 0), Pose(36, 15, 180))
    s.units["c"].shaken = True
    assert charge_targets(s, s.units["c"]) == []


def test_second_charger_lines_up_beside_the_first():
    """Rulebook: Multiple Units in Combat: several units may charge one target on one facing."""
    second = make_unit("c2", 1, SPEARS, 10, Pose(48, 10, 0))
    s = two(Pose(30, 10, 0), Pose(39, 16, 180), extra=[second])
    s.units["t"] = make_unit("t", 2, profile("Horde", weapons=(), size=20), 20, Pose(39, 16, 180), per_row=10)
    s.__post_init__()
    make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    make_charge_move(s, Dice(sequence=[]), s.units["c2"], s.units["t"])
    fc, fc2 = s.scene.footprint("c"), s.scene.footprint("c2")
    assert fc.intersection(fc2).area < 1e-6
    assert s.scene.distance("c2", "t") < 0.01
