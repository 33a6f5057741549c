"""Charges: valid targets and the engine-computed charge move (rulebook "Charging", "Melee: Picking Targets",
"Charge Moves")."""

from __future__ import annotations

import pytest

from game.engine.charge import charge_targets, failed_charge, make_charge_move, plan_charge, run_down
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.state import GameState, Removal, Table, make_unit
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
    """Rulebook: General Movement: models may never move through other units, even when charging. A wide unit
    in the way leaves no path of 12" around it."""
    blocker = make_unit("b", 1, SPEARS, 20, Pose(36, 15.5, 0), per_row=10)
    s = two(Pose(36, 10, 0), Pose(36, 21, 180), extra=[blocker])
    assert "t" not in charge_targets(s, s.units["c"])
    with pytest.raises(IllegalAction, match="no clear path"):
        plan_charge(s, s.units["c"], s.units["t"])


def test_charge_goes_around_a_narrow_unit_in_the_way():
    """Rulebook: Charging ("Charge moves don't have to be in a straight line"; one pivot of up to 90° at any
    point), Picking Targets (a clear path to reach it): a charger goes around a unit in the way when the way
    round is within its charge distance; the path never crosses the unit."""
    blocker = make_unit("b", 1, SPEARS, 10, Pose(36, 15.5, 0))
    s = two(Pose(36, 10, 0), Pose(36, 21, 180), extra=[blocker])
    assert charge_targets(s, s.units["c"]) == ["t"]
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.travel <= 12 + 1e-9 and len(plan.path) >= 2
    assert s.scene.check_path("c", s.units["c"].pose, list(plan.path), exclusion=0.0, ignore_units=["t"]).ok
    make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    assert s.scene.distance("c", "t") < 0.01 and s.units["c"].pose.x == pytest.approx(36, abs=1e-6)


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


# --- keeping 1" from other enemy units (docs/rulings.md "Contact position") ------------------------------------

ORC_W = 5 * 20 / 25.4
"""Width of a 10-Orc unit (5 per row), inches."""
ORC_FRONT = 16 - 20 / 25.4
"""y of the front edge of an Orc unit centred at y = 16 facing 180."""


def beside(uid: str, gap: float, right: bool, behind: float = 0.0):  # type: ignore[no-untyped-def]
    """An Orc unit (player 2) beside ``t`` at (36, 16), ``gap``" from its side, ``behind``" back from its front."""
    x = 36 + (ORC_W + gap if right else -ORC_W - gap)
    return make_unit(uid, 2, ORCS, 10, Pose(x, 16 + behind, 180))


def test_charger_shuffles_to_stay_one_inch_from_another_enemy():
    """Rulebook: Charge Moves (shuffle sideways to try and maximise frontage), General Movement (never within 1" of
    other units): the charger takes the contact position with the most frontage that is 1" from other enemy
    units."""
    s = two(Pose(36, 8, 0), Pose(36, 16, 180), extra=[beside("u", 0.5, right=True)])
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.end.x == pytest.approx(35.5, abs=1e-3)
    assert plan.also_contacts == ()
    make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    assert s.scene.distance("c", "u") >= 1 - 1e-3
    assert s.units["c"].engaged_with == {"t"}


def test_charger_with_no_room_clear_of_other_enemies_joins_them_in_base_contact():
    """Rulebook: Charge Moves, Multiple Units in Combat (each continuous group of units in base contact is one
    combat): with no contact position 1" from the other enemies, the charger takes one in base contact with
    them, and they are locked in the same combat."""
    extra = [beside("u", 0.5, right=True), beside("w", 0.5, right=False)]
    s = two(Pose(37, 8, 0), Pose(36, 16, 180), extra=extra)
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.also_contacts == ("u",)
    events = make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    c = s.units["c"]
    assert c.engaged_with == {"t", "u"} and "c" in s.units["u"].engaged_with
    assert s.scene.distance("c", "w") >= 1 - 1e-3
    assert [e.data["target"] for e in events if e.data.get("contact")] == ["u"]


def test_target_without_room_to_contact_away_from_other_enemies_is_not_valid():
    """Rulebook: Picking Targets (the charger needs room to reach its target), General Movement: if every contact
    position ends within 1" of another enemy unit without base contact, the target is not a valid one."""
    extra = [beside("u", 0.5, right=True, behind=0.3), beside("w", 0.5, right=False, behind=0.3)]
    s = two(Pose(36, 8, 0), Pose(36, 16, 180), extra=extra)
    with pytest.raises(IllegalAction, match="within 1"):
        plan_charge(s, s.units["c"], s.units["t"])
    assert "t" not in charge_targets(s, s.units["c"])


def test_run_down_keeps_one_inch_from_other_enemies():
    """Rulebook: Flee (the charger runs the fleeing unit down with the usual charge move; contact routs it),
    General Movement: the charger's position keeps 1" from other enemy units."""
    s = two(Pose(36, 8, 0), Pose(36, 16, 180), extra=[beside("u", 0.5, right=True)])
    t = s.units["t"]
    t.shaken = t.fleeing = True
    events = run_down(s, Dice(sequence=[]), s.units["c"], t)
    assert t.removed is Removal.ROUTED
    assert [e.kind for e in events] == ["charge", "rout"]
    assert s.scene.distance("c", "u") >= 1 - 1e-3


def test_failed_charge_does_not_pivot_within_one_inch_of_a_unit():
    """Rulebook: Charging (if contact becomes impossible the unit completes its move toward the target),
    Pivoting (never into a physically impossible place), General Movement: the pivot toward the target is
    not made where it would end within 1" of another unit."""
    s = two(Pose(36, 8, 0), Pose(60, 8, 270),
            extra=[make_unit("b", 1, SPEARS, 5, Pose(36, 8 + 20 / 25.4 + 1.5 + 10 / 25.4, 0))])
    c = s.units["c"]
    failed_charge(s, c, s.units["t"], "test")
    assert c.pose.facing == pytest.approx(0.0)
    assert s.scene.distance("c", "b") >= 1 - 1e-3
    assert c.pose.x > 36


# --- closing the gap, shuffling, several chargers (rulebook "Charge Moves", "Multiple Units in Combat") ---------


def test_target_shuffles_to_meet_a_charger_held_off_by_terrain():
    """Rulebook "Charge Moves": the charger shuffles sideways to maximise frontage, "and then the target unit must
    do the same if necessary": a rock in front of the target's right half leaves the charger only part of the
    front; the target slides along its front to meet it fully."""
    rock = TerrainShape(0, "Rock", rect_to_polygon(37.5, 14.3, 5, 1.6, 0), frozenset({"impassable"}))
    s = two(Pose(32, 8, 0), Pose(36, 16, 180), terrain=[rock])
    plan = plan_charge(s, s.units["c"], s.units["t"])
    assert plan.end.x == pytest.approx(35 - ORC_W / 2, abs=1e-3)  # as far right as the rock lets it
    events = make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    t = s.units["t"]
    assert t.pose.x == pytest.approx(plan.end.x, abs=1e-3) and t.pose.y == pytest.approx(16)
    assert t.pose.facing == pytest.approx(180)
    assert not t.moved_since_activation
    assert any(e.data.get("shuffle") for e in events)
    from geometry.contact import touching_sides
    assert touching_sides(s.scene, "c", "t")[0][2] == pytest.approx(ORC_W, abs=1e-3)


def test_target_in_another_melee_does_not_shuffle():
    """Rulebook "Charge Moves": only a target free to move shuffles (one already locked in melee stays)."""
    rock = TerrainShape(0, "Rock", rect_to_polygon(37.5, 14.3, 5, 1.6, 0), frozenset({"impassable"}))
    s = two(Pose(32, 8, 0), Pose(36, 16, 180), terrain=[rock])
    s.units["c"].engaged_with.clear()
    other = make_unit("o", 1, SPEARS, 10, Pose(36 + ORC_W / 2 + 0.79, 16, 270))
    s.units["o"] = other
    s.__post_init__()
    s.engage(other, s.units["t"], Arc.FRONT, Arc.RIGHT)
    make_charge_move(s, Dice(sequence=[]), s.units["c"], s.units["t"])
    assert s.units["t"].pose.x == pytest.approx(36)


def test_three_chargers_line_up_side_by_side():
    """Rulebook "Multiple Units in Combat": three units charge one wide target on one facing; each takes its place
    beside the others, in base contact, with no overlaps, filling the whole front."""
    horde = make_unit("t", 2, profile("Horde", weapons=(), size=30), 30, Pose(36, 20, 180), per_row=15)
    chargers = [make_unit(f"c{i}", 1, SPEARS, 5, Pose(x, 10, 0)) for i, x in enumerate((30.0, 36.0, 42.0))]
    s = GameState("t", Table(), [], {u.id: u for u in [horde, *chargers]}, {1: None, 2: None})
    for c in chargers:
        assert "t" in charge_targets(s, c)
        make_charge_move(s, Dice(sequence=[]), c, s.units["t"])
    from geometry.contact import touching_sides
    ids = [c.id for c in chargers]
    for i, a in enumerate(ids):
        assert s.scene.distance(a, "t") < 0.01 and "t" in s.units[a].engaged_with
        for b in ids[i + 1:]:
            assert s.scene.footprint(a).intersection(s.scene.footprint(b)).area < 1e-6
    total = sum(touching_sides(s.scene, a, "t")[0][2] for a in ids)
    assert total == pytest.approx(15 * 20 / 25.4, abs=0.01)
    assert s.units["t"].pose == Pose(36, 20, 180)  # the target never moved: each charger had full frontage
