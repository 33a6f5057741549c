"""Charges: valid targets and the charge move (rulebook "Charging", "Melee: Picking Targets", "Charge Moves").

The engine computes the charge move: the charger contacts the target on the side where the majority of its
front row stands when the charge is declared, pivoting at most once by up to 90 degrees on the way, then closes
the gap (aligns flush) and shuffles sideways to maximise frontage (``geometry.contact.best_flush_pose``),
keeping 1" from other enemy units where it can (else in base contact with them, and they join the combat).
Interpretations are in docs/rulings.md ("Charge distance", "Charge path", "Contact position", "Running down").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString

from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.movement import (
    DIFFICULT_CAP,
    crosses_difficult,
    dangerous_terrain_tests,
    elevation_climb,
    ignores_difficult,
    move_allowance,
    stands_on_hill,
)
from game.engine.random_charge import charge_allowance, measured_distance, roll_charge_distance
from game.engine.special_rules import flying, immobile
from game.engine.state import GameState, MoveAction, Removal, Unit
from geometry.arcs import Arc, arc_of_point, majority_arc, side_segment
from geometry.charge_path import charge_reach, find_charge_path
from geometry.contact import best_flush_pose, shuffle_target, touching_sides
from geometry.formation import model_centres, model_rows
from geometry.pose import Pose, bearing_difference, bearing_to
from geometry.shapes import footprint_polygon

FRIEND_SIGHT_RANGE = 6.0
"""A friendly unit within this distance may provide line of sight for a charge (rulebook "Picking Targets")."""
MAX_CHARGE_TURN = 135.0
"""Most a charger's facing may change: one pivot of up to 90 degrees plus closing the gap (docs/rulings.md)."""
MAX_PIVOT = 90.0
"""A charge pivots once by up to this many degrees before contact (rulebook "Charging")."""
CHARGE_CLEARANCE = 1.0
"""Inches a charger in contact keeps from enemy units other than its target, where it can (docs/rulings.md)."""
CONTACT = 0.05
"""Inches: base contact (``geometry.contact.in_base_contact``)."""


@dataclass(frozen=True, slots=True)
class ChargePlan:
    """How a charge would go: the side of the target contacted, the final pose and the distance needed."""

    target: str
    """Target unit id."""
    side: Arc
    """Arc (side) of the target the charger contacts."""
    end: Pose
    """The charger's pose in contact."""
    path: tuple[Pose, ...]
    """Path of poses the charger follows (for the window and the record of events)."""
    distance: float
    """Distance from the charger to the contacted side, inches."""
    allowance: float
    """How far this charger may charge over this path, inches."""
    traits_crossed: frozenset[str] = frozenset()
    """Terrain traits the path crosses (difficult, dangerous...)."""
    also_contacts: tuple[str, ...] = ()
    """Other enemy units the charger ends in base contact with (no room elsewhere); they join the combat."""
    travel: float = 0.0
    """Straight travel of the charger's centre along the path up to contact, inches (``path`` then closes the
    gap and shuffles, which is not counted; docs/rulings.md "Charge path")."""
    climb: float = 0.0
    """AoF:R 2.16 "Elevation": inches of climb onto elevation the path counts on top of ``travel``."""


def can_charge(unit: Unit) -> str | None:
    """Why ``unit`` may not take a Charge action now, or None (rulebook "Charging", "Shaken Units", "Immobile")."""
    if not unit.on_table:
        return "the unit is not on the table"
    if unit.engaged:
        return "the unit is already locked in melee"
    return charge_action_refusal(unit)


def charge_action_refusal(unit: Unit) -> str | None:
    """Why ``unit``, wherever it stands, may not take a Charge action now, or None: Shaken units stay idle
    (rulebook "Shaken Units"), Immobile ones only Hold ("Immobile"), one action a turn ("Movement Phase")."""
    if unit.shaken:
        return "Shaken units must stay idle"
    if immobile(unit):
        return "Immobile units may only Hold"
    if unit.move_action is not None:
        return "the unit has already taken its action this turn"
    return None


def has_charge_sight(state: GameState, unit: Unit, target: Unit) -> bool:
    """Line of sight from the charger or a friendly unit within 6" of it (rulebook "Melee: Picking Targets")."""
    scene = state.scene
    if scene.unit_has_sight(unit.id, target.id):
        return True
    friends = scene.units_within(unit.id, FRIEND_SIGHT_RANGE, players=[unit.player])
    return any(scene.unit_has_sight(f, target.id) for f in friends)


def front_row_points(unit: Unit, state: GameState | None = None) -> list[tuple[float, float]]:
    """Centres of the models in the front row (read from the scene's cached arrays when ``state`` is given and the
    unit is on the table: the same values)."""
    assert unit.pose is not None
    if state is not None and unit.on_table:
        scene = state.scene
        return [(float(x), float(y)) for (x, y), r in zip(scene.model_centres(unit.id).tolist(),
                                                          scene.model_rows(unit.id).tolist(), strict=True) if r == 0]
    f = unit.formation
    return [c for c, r in zip(model_centres(unit.pose, f), model_rows(f), strict=True) if r == 0]


def plan_charge(state: GameState, unit: Unit, target: Unit, *, need_sight: bool = True,
                explain: bool = True) -> ChargePlan:
    """Work out the charge of ``unit`` at ``target``; raises ``IllegalAction`` if it is not a valid charge.

    Checks (rulebook "Charging", "Picking Targets", "Charge Moves"): the charger may charge; the target is an
    enemy on the table; line of sight from the charger or a friend within 6"; room to contact the side where
    the majority of the charger's front row is, at a position at least 1" from every other enemy unit or else
    in base contact with those it is nearer (``plan.also_contacts``); the facing change within one 90 degree
    pivot plus closing the gap; a clear path with at most one pivot (``geometry.charge_path``: no units or
    impassable terrain; the 1" rule does not apply) whose travel up to contact, like the distance to that side,
    is within 12" (Fast, Slow, Musician; 6" if the path crosses difficult terrain; with ``GameState.hills_going_up``,
    AoF:R 2.16, a hill the charger stands on is not difficult on the way down or along it; with
    ``GameState.elevation_height``, AoF:R 2.16 "Elevation", the climb onto elevation counts toward the charge).

    ``explain`` False spares the work of naming what blocks the path when there is none, and rejects charges no
    path can reach early (``geometry.charge_path.charge_reach``): the verdict is the same, the message may name
    another of the reasons (``charge_targets`` only needs the verdict).
    """
    why = can_charge(unit)
    if why:
        raise IllegalAction("Charging", why)
    if target.player == unit.player or not target.on_table:
        raise IllegalAction("Picking Targets", f"{target.name} is not an enemy unit on the table")
    assert unit.pose is not None and target.pose is not None
    if need_sight and not has_charge_sight(state, unit, target):
        raise IllegalAction("Picking Targets",
                            f"neither {unit.name} nor a friend within 6\" has line of sight to {target.name}",
                            target.pose.xy)
    tf = target.formation
    side = majority_arc(target.pose, tf.width, tf.depth, front_row_points(unit, state))
    seg = side_segment(target.pose, tf.width, tf.depth, side)
    scene = state.scene
    distance = scene.footprint(unit.id).distance(LineString(seg))
    allowance = charge_allowance(state, unit)
    if distance > allowance + 1e-6:
        raise IllegalAction("Charging", f"{target.name}'s {side.value} is {distance:.1f}\" away; "
                            f"{unit.name} charges at most {allowance:g}\"", target.pose.xy)
    if not explain and charge_reach(scene, unit.id, unit.pose, target.id, side, MAX_PIVOT,
                                    MAX_CHARGE_TURN - MAX_PIVOT) > allowance + 1e-6:
        # cheap lower bound of the path search: no path can be short enough (the verdict is the search's)
        raise IllegalAction("Charging", f"no clear path of at most {allowance:g}\" reaches the {side.value} of "
                            f"{target.name} with one pivot", target.pose.xy)
    uf = unit.formation
    others = [e.id for e in state.enemies_of(unit.player) if e.id != target.id and e.on_table]
    end = best_flush_pose(scene, unit.id, target.id, side, uf.width, uf.depth, unit.pose.xy,
                          keep_clear=others, clearance=CHARGE_CLEARANCE, touching=True)
    if end is None:
        if best_flush_pose(scene, unit.id, target.id, side, uf.width, uf.depth, unit.pose.xy) is not None:
            raise IllegalAction("Picking Targets", f"no room to contact the {side.value} of {target.name} without "
                                "ending within 1\" of another enemy unit", seg[0])
        raise IllegalAction("Charge Moves", f"no room to reach the {side.value} of {target.name}", seg[0])
    turn = abs(bearing_difference(unit.pose.facing, end.facing))
    if turn > MAX_CHARGE_TURN + 1e-6:
        raise IllegalAction("Charge Moves", f"{unit.name} would have to turn {turn:.0f}° to contact "
                            f"the {side.value} of {target.name}; a charge pivots once by up to 90°", end.xy)
    free = ignores_difficult(unit)
    search = None
    if not free and state.hills_going_up and stands_on_hill(state, unit):
        # AoF:R 2.16 "Hills - difficult terrain when going up": down or along the hill it stands on is not
        # difficult; the path search caps by trait, so search uncapped and keep the path if it goes up nothing
        trial = find_charge_path(scene, unit.id, unit.pose, target.id, side, end, allowance,
                                 max_pivot=MAX_PIVOT, max_closing=MAX_CHARGE_TURN - MAX_PIVOT,
                                 fly_over=flying(unit), capped_traits=(), capped_allowance=-1.0, explain=explain)
        if trial.found is not None and (trial.found.travel <= DIFFICULT_CAP + 1e-6
                                        or not crosses_difficult(state, unit, list(trial.found.path))):
            search, free = trial, trial.found.travel > DIFFICULT_CAP + 1e-6
    if search is None:
        cap = DIFFICULT_CAP if not free and distance <= DIFFICULT_CAP + 1e-6 else -1.0
        search = find_charge_path(scene, unit.id, unit.pose, target.id, side, end, allowance,
                                  max_pivot=MAX_PIVOT, max_closing=MAX_CHARGE_TURN - MAX_PIVOT,
                                  fly_over=flying(unit),  # rulebook "Flying": over units and terrain
                                  capped_traits=() if free else ("difficult",), capped_allowance=cap,
                                  explain=explain)
    found = search.found
    if found is None:
        if search.capped:
            raise IllegalAction("Difficult Terrain", f"the charge crosses difficult terrain, so it may move at "
                                f"most 6\" and {target.name} is {distance:.1f}\" away", target.pose.xy)
        blocked = search.blocked
        if blocked is not None and not blocked.ok:
            raise IllegalAction("Picking Targets", f"no clear path to {target.name}: {blocked.message}",
                                blocked.where)
        raise IllegalAction("Charging", f"no clear path of at most {allowance:g}\" reaches the {side.value} of "
                            f"{target.name} with one pivot", target.pose.xy)
    if "difficult" in found.check.traits_crossed and not free and \
            (not state.hills_going_up or crosses_difficult(state, unit, list(found.path))):
        allowance = min(allowance, DIFFICULT_CAP)
    climb = elevation_climb(state, unit, list(found.path))    # AoF:R 2.16 "Elevation": the climb is movement
    if climb.inches and found.travel + climb.inches > allowance + 1e-6:
        raise IllegalAction("Elevation", f"the charge {climb.words()}: {found.travel:.1f}\" and the climb make "
                            f"{found.travel + climb.inches:.1f}\", over the {allowance:g}\" {unit.name} charges",
                            target.pose.xy)
    end_fp = footprint_polygon(end, uf)
    contacts = tuple(e for e in others if float(end_fp.distance(scene.footprint(e))) <= CONTACT)
    return ChargePlan(target.id, side, end, found.path, distance, allowance, found.check.traits_crossed, contacts,
                      found.travel, climb.inches)


def charge_targets(state: GameState, unit: Unit) -> list[str]:
    """Ids of the enemy units ``unit`` may declare a charge against now, in unit order."""
    if can_charge(unit):
        return []
    allowance = charge_allowance(state, unit)
    reachable = []
    near = state.scene.units_within(unit.id, allowance, players=[3 - unit.player])
    for enemy_id in near:
        try:  # the charge move first: most enemies near a crowded line fail it, and sight costs more
            plan_charge(state, unit, state.units[enemy_id], need_sight=False, explain=False)
        except IllegalAction:
            continue
        reachable.append(enemy_id)
    if reachable:
        state.scene.visible_units(unit.id, reachable)  # one batched sight query; has_charge_sight reads the answers
    out = [e for e in reachable if has_charge_sight(state, unit, state.units[e])]
    return [u for u in state.units if u in out]


def make_charge_move(state: GameState, dice: Dice, unit: Unit, target: Unit) -> list[Event]:
    """Move a declared charger into contact and lock both units in melee (rulebook "Charge Moves").

    If contact has become impossible, the unit moves its full charge distance toward the target and the charge
    ends there (rulebook "Charging", note). Returns the events.
    """
    assert unit.pose is not None
    start = unit.pose
    unit.move_action = MoveAction.CHARGE
    try:
        # Line of sight was checked at the declaration; the target cannot hide since.
        plan = plan_charge_for_move(state, unit, target)
    except IllegalAction as why:
        return failed_charge(state, unit, target, why.message)
    state.place(unit, plan.end)
    unit.pivoted = abs(bearing_difference(start.facing, plan.end.facing)) > 1e-6
    alone = not target.engaged_with
    state.engage(unit, target, Arc.FRONT, plan.side)
    unit.fights_as_charger = True
    unit.first_round_with.add(target.id)
    target.first_round_with.add(unit.id)
    climb = f", climbing {plan.climb:g}\" onto elevation" if plan.climb else ""     # AoF:R 2.16 "Elevation"
    events = [Event("charge", f"{unit.name} charges into the {plan.side.value} of {target.name} "
                    f"({plan.distance:.1f}\"{climb})",
                    {"unit": unit.id, "target": target.id, "side": plan.side.value,
                     "from": _pose(start), "to": _pose(plan.end)})]
    if alone:
        events += target_shuffle(state, unit, target, plan.side)
    events += engage_contacts(state, unit, plan.also_contacts)
    events += dangerous_terrain_tests(state, dice, unit, start, list(plan.path), True, plan.traits_crossed)
    return events


def target_shuffle(state: GameState, charger: Unit, target: Unit, side: Arc) -> list[Event]:
    """The charged unit shuffles sideways to maximise frontage if necessary (rulebook "Charge Moves": "and then
    the target unit must do the same if necessary"; docs/rulings.md "Contact position").

    Only a target not in melee with another unit and not Immobile moves, along its contacted side, where it can
    go without passing through anything, staying 1" from every other unit (``geometry.contact.shuffle_target``).
    It does not count as the target having moved. Returns an ``info`` event if it moved."""
    assert target.pose is not None
    if immobile(target):
        return []
    others = [u.id for u in state.units.values() if u.on_table and u.id not in (charger.id, target.id)]
    new = shuffle_target(state.scene, charger.id, target.id, side, keep_clear=others, clearance=1.0)
    if new is None:
        return []
    old = target.pose
    moved = target.moved_since_activation
    state.place(target, new)
    target.moved_since_activation = moved
    return [Event("info", f"{target.name} shuffles {old.distance_to(new):.1f}\" sideways to meet {charger.name} "
                  "(maximising frontage)",
                  {"unit": target.id, "target": charger.id, "shuffle": True, "from": _pose(old), "to": _pose(new)})]


def engage_contacts(state: GameState, unit: Unit, others: tuple[str, ...]) -> list[Event]:
    """Lock ``unit`` in melee with the enemy units ``others`` it ended its charge in base contact with (rulebook
    "Multiple Units in Combat": each continuous group of units in base contact is one combat). Returns ``info``
    events."""
    events = []
    for other_id in others:
        other = state.units[other_id]
        if not other.on_table or other_id in unit.engaged_with:
            continue
        sides = touching_sides(state.scene, unit.id, other_id)
        if sides:
            arc_u, arc_o = sides[0][0], sides[0][1]
        else:
            assert unit.pose is not None and other.pose is not None
            uf, of = unit.formation, other.formation
            arc_u = arc_of_point(unit.pose, uf.width, uf.depth, other.pose.xy)
            arc_o = arc_of_point(other.pose, of.width, of.depth, unit.pose.xy)
        state.engage(unit, other, arc_u, arc_o)
        events.append(Event("info", f"{unit.name} ends its charge in base contact with {other.name} too: they are "
                            "locked in the same combat", {"unit": unit.id, "target": other_id, "contact": True}))
    return events


def plan_charge_for_move(state: GameState, unit: Unit, target: Unit) -> ChargePlan:
    """``plan_charge`` for the move itself: the unit's own declared action does not stop it."""
    saved = unit.move_action
    unit.move_action = None
    try:
        return plan_charge(state, unit, target, need_sight=False)
    finally:
        unit.move_action = saved


def run_down(state: GameState, dice: Dice, unit: Unit, fled: Unit) -> list[Event]:
    """The charger attempts to run down ``fled``, which fled from its charge (rulebook "Flee", docs/rulings.md).

    It charges the fleeing unit with its normal charge distance and the usual charge geometry
    (``plan_charge``); contact routs the fleeing unit. A fleeing unit already caught at the end of its flight
    (it could not get 1" away: ``flight.catch_cornered``) is run down without a move. If contact is impossible
    the charger moves its full charge distance toward it (``failed_charge``), also toward where a unit that fled
    the battlefield left it ("Else it has to move its full pursuit-range/charge distance"). Enemy units the
    charger ends in base contact with are locked in combat with it (``engage_contacts``). Returns the events; the
    event of a run down that routs the fleeing unit has ``ran_down: True`` in its data (the charger may then
    pivot or move 3": the caller's decision).
    """
    if not fled.on_table:
        if fled.removed is Removal.ROUTED:
            return [Event("charge", f"{unit.name} runs down {fled.name}, which could not get away",
                          {"unit": unit.id, "target": fled.id, "caught": True, "ran_down": True})]
        if fled.pose is not None and unit.on_table:
            return failed_charge(state, unit, fled, "it fled the battlefield")
        return [Event("charge", f"{unit.name}'s target fled the table; the charge ends", {"unit": unit.id})]
    assert unit.pose is not None
    try:
        plan = plan_charge_for_move(state, unit, fled)
    except IllegalAction as why:
        return failed_charge(state, unit, fled, why.message)
    start = unit.pose
    unit.move_action = MoveAction.CHARGE
    state.place(unit, plan.end)
    unit.pivoted = abs(bearing_difference(start.facing, plan.end.facing)) > 1e-6
    state.remove(fled, Removal.ROUTED)
    events = [Event("charge", f"{unit.name} runs down {fled.name}",
                    {"unit": unit.id, "target": fled.id, "from": _pose(start), "to": _pose(plan.end),
                     "ran_down": True}),
              Event("rout", f"{fled.name} is caught and routed", {"unit": fled.id, "by": unit.id})]
    events += engage_contacts(state, unit, plan.also_contacts)
    events += dangerous_terrain_tests(state, dice, unit, start, list(plan.path), True, plan.traits_crossed)
    return events


def failed_charge(state: GameState, unit: Unit, target: Unit, reason: str, distance: float | None = None
                  ) -> list[Event]:
    """The charger moves its full charge distance (or ``distance`` inches: the highest die of a failed Random
    Charge Distance) straight toward ``target``, stopping 1" short of anything.

    It first pivots to face the target if that is within 90 degrees and the pivoted footprint overlaps nothing
    and keeps 1" from other units (``scene.check_path``); otherwise it keeps its facing."""
    assert unit.pose is not None and target.pose is not None
    start = unit.pose
    bearing = bearing_to(start.xy, target.pose.xy)
    allowance = move_allowance(unit, MoveAction.CHARGE) if distance is None else distance
    facing = start.facing
    turn = bearing_difference(facing, bearing)
    if abs(turn) <= 90.0:
        # the pivot toward the target, only where the unit can stand (no overlap, 1" from other units)
        if state.scene.check_path(unit.id, start, [Pose(start.x, start.y, bearing)], exclusion=1.0).ok:
            facing = bearing
    result = state.scene.slide(unit.id, Pose(start.x, start.y, facing), bearing, allowance, gap=1.0)
    state.place(unit, result.pose)
    return [Event("charge", f"{unit.name} cannot reach {target.name} ({reason}) and moves "
                  f"{result.travelled:.1f}\" toward it",
                  {"unit": unit.id, "target": target.id, "failed": True, "from": _pose(start),
                   "to": _pose(result.pose)})]


def random_charge_move(state: GameState, dice: Dice, unit: Unit, target: Unit, running_down: bool = False
                       ) -> list[Event]:
    """Random Charge Distances, steps 5-6 (``game.engine.random_charge``): measure the charge of ``unit`` at
    ``target`` again, roll 2D6 (highest + Advance); if it reaches the distance measured, the ordinary charge move
    (``make_charge_move``, or ``run_down`` when ``running_down`` a unit that fled from it); otherwise the unit moves
    the highest die toward its target, stopping 1" short of other units (``failed_charge``). A target out of reach
    (no path within the charge range, or gone from the table) is still rolled for, and the charge fails. A fleeing
    unit caught at the end of its flight is run down without a roll."""
    if running_down and not target.on_table and target.removed is Removal.ROUTED:
        return run_down(state, dice, unit, target)
    if not target.on_table:
        roll, events = roll_charge_distance(dice, unit, math.inf)
        if target.pose is None or not unit.on_table:
            return events + [Event("charge", f"{unit.name}'s target left the table; the charge ends",
                                   {"unit": unit.id})]
        return events + failed_charge(state, unit, target, "it fled the battlefield", roll.highest)
    try:
        plan = plan_charge_for_move(state, unit, target)
    except IllegalAction as why:
        roll, events = roll_charge_distance(dice, unit, math.inf)
        return events + failed_charge(state, unit, target, f"out of charge range: {why.message}", roll.highest)
    needed = measured_distance(plan.distance, plan.travel)
    roll, events = roll_charge_distance(dice, unit, needed)
    if roll.total + 1e-6 >= needed:
        return events + (run_down(state, dice, unit, target) if running_down
                         else make_charge_move(state, dice, unit, target))
    unit.move_action = MoveAction.CHARGE
    return events + failed_charge(state, unit, target, f"rolled {roll.total:g}\" of the {needed:.1f}\" needed",
                                  roll.highest)


def _pose(p: Pose) -> dict[str, float]:
    return {"x": p.x, "y": p.y, "facing": p.facing}
