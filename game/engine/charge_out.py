"""Charging out of a Transport (rulebook "Special Rules Reference": Transport(X): "Units may use Charge actions to
disembark", "must stay fully within 6" of it when exiting"; "Charging", "Melee: Picking Targets", "Charge
Moves").

A unit inside a Transport declares a charge like any other (step 2.1); everything is measured from the
Transport, because the unit inside has no place on the table. Rulings (docs/rulings.md, "Charging out of a
Transport"):

* **Who**: a unit inside, not Shaken, not Immobile, that has taken no action this turn and did not get in this
  turn (units can't both embark and disembark in the same turn); its Transport is on the table.
* **Sight**: units inside have no line of sight to the outside, so the charge needs "another friendly unit within
  6"" that sees the target: the Transport itself (it is within 6" of the unit inside it) or a friendly unit within
  6" of the Transport (``charge.has_charge_sight`` from the Transport).
* **Side**: the side of the target where the majority of the Transport's front row stands.
* **Where it ends**: the exit is the charge move: the unit is placed in base contact with that side, flush, in the
  position with the most frontage nearest the Transport that overlaps no unit and keeps 1" from other enemy units
  (or touches them: they join the combat), as an ordinary charge (``geometry.contact.best_flush_pose``). That
  position must lie fully within 6" of the Transport (every corner of the unit's footprint) and on the table; no
  path is checked (a disembark is a placement) and the charge allowance is not otherwise measured (6" is less).
  If the best position is not fully within 6", the charge is not possible.
* **Reactions**: the target cannot Stand and Shoot (units outside have no line of sight to units inside); it may
  Hold or Flee (it flees away from the Transport).
* **The move**: as declared, measured again when it is made. If contact has become impossible (or the target fled
  out of reach and is not run down), the unit stays inside: the charge ends and its action is spent.
* **Random Charge Distances**: not supported yet for units inside; such a charge is refused.
"""

from __future__ import annotations

from shapely.geometry import LineString

from game.engine import random_charge
from game.engine.charge import (
    CHARGE_CLEARANCE,
    CONTACT,
    ChargePlan,
    charge_action_refusal,
    engage_contacts,
    front_row_points,
    has_charge_sight,
    target_shuffle,
)
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.movement import dangerous_terrain_tests
from game.engine.random_charge import charge_allowance
from game.engine.special_rules import TRANSPORT_EXIT
from game.engine.state import GameState, MoveAction, Removal, Unit
from game.engine.transport_placement import fully_within
from geometry.arcs import Arc, majority_arc, side_segment
from geometry.contact import best_flush_pose
from geometry.pose import Pose
from geometry.shapes import footprint_polygon


def inside(unit: Unit) -> bool:
    """True if ``unit`` is inside a Transport (and not removed)."""
    return unit.embarked_in is not None and unit.removed is None


def transport_of(state: GameState, unit: Unit) -> Unit:
    """The Transport ``unit`` is inside, on the table; raises ``IllegalAction`` otherwise."""
    transport = state.units.get(unit.embarked_in or "")
    if transport is None or not transport.on_table:
        raise IllegalAction("Transport", f"{unit.name} is not inside a Transport on the table")
    return transport


def can_charge_out(unit: Unit) -> str | None:
    """Why ``unit`` (inside a Transport) may not charge out now, or None (rulebook "Charging", "Shaken Units",
    "Immobile", "Transport(X)")."""
    if not inside(unit):
        return "the unit is not inside a Transport"
    why = charge_action_refusal(unit)
    if why:
        return why
    if unit.embarked_this_turn:
        return "the unit got into its Transport this turn and cannot get out again"
    return None


def plan_charge_out(state: GameState, unit: Unit, target: Unit, *, need_sight: bool = True) -> ChargePlan:
    """Work out the charge of ``unit``, inside a Transport, at ``target`` (see the module rulings); raises
    ``IllegalAction`` naming the rule when it is not a valid charge. ``plan.path`` is the one placement pose,
    ``plan.distance`` the distance from the Transport to the side contacted (inches)."""
    why = can_charge_out(unit)
    if why:
        raise IllegalAction("Charging", why)
    transport = transport_of(state, unit)
    if random_charge.active(state):
        raise IllegalAction("Transport", "charging out of a Transport with Random Charge Distances is not "
                                         "supported yet")
    if target.player == unit.player or not target.on_table:
        raise IllegalAction("Picking Targets", f"{target.name} is not an enemy unit on the table")
    assert transport.pose is not None and target.pose is not None
    tf = target.formation
    side = majority_arc(target.pose, tf.width, tf.depth, front_row_points(transport, state))
    seg = side_segment(target.pose, tf.width, tf.depth, side)
    scene = state.scene
    distance = float(scene.footprint(transport.id).distance(LineString(seg)))
    if distance > TRANSPORT_EXIT + 1e-6:
        raise IllegalAction("Transport", f"{target.name}'s {side.value} is {distance:.1f}\" from {transport.name}; "
                            f"a unit charging out must end fully within {TRANSPORT_EXIT:g}\" of it", target.pose.xy)
    if need_sight and not has_charge_sight(state, transport, target):
        raise IllegalAction("Picking Targets", f"units inside {transport.name} cannot see out, and neither "
                            f"{transport.name} nor a friend within 6\" of it has line of sight to {target.name}",
                            target.pose.xy)
    uf = unit.formation
    others = [e.id for e in state.enemies_of(unit.player) if e.id != target.id]
    end = best_flush_pose(scene, unit.id, target.id, side, uf.width, uf.depth, transport.pose.xy,
                          keep_clear=others, clearance=CHARGE_CLEARANCE, touching=True)
    if end is None:
        raise IllegalAction("Charge Moves", f"no room to reach the {side.value} of {target.name}", seg[0])
    if not fully_within(state, unit, end, transport):
        raise IllegalAction("Transport", f"{unit.name} in contact with the {side.value} of {target.name} would "
                            f"not be fully within {TRANSPORT_EXIT:g}\" of {transport.name}", end.xy)
    end_fp = footprint_polygon(end, uf)
    contacts = tuple(e for e in others if float(end_fp.distance(scene.footprint(e))) <= CONTACT)
    traits = frozenset(t for piece in scene.terrain_at(end_fp) for t in piece.traits)
    return ChargePlan(target.id, side, end, (end,), distance, charge_allowance(state, unit), traits, contacts,
                      distance)


def charge_out_targets(state: GameState, unit: Unit) -> list[str]:
    """Ids of the enemy units ``unit`` (inside a Transport) may declare a charge against now, in unit order."""
    if can_charge_out(unit):
        return []
    transport = state.units.get(unit.embarked_in or "")
    if transport is None or not transport.on_table:
        return []
    near = state.scene.units_within(transport.id, TRANSPORT_EXIT, players=[3 - unit.player])
    out = []
    for enemy_id in near:
        try:
            plan_charge_out(state, unit, state.units[enemy_id])
        except IllegalAction:
            continue
        out.append(enemy_id)
    return [u for u in state.units if u in out]


def _replan(state: GameState, unit: Unit, target: Unit) -> ChargePlan:
    saved = unit.move_action
    unit.move_action = None
    try:
        return plan_charge_out(state, unit, target, need_sight=False)
    finally:
        unit.move_action = saved


def _get_out(state: GameState, unit: Unit, plan: ChargePlan) -> Unit:
    transport = transport_of(state, unit)
    unit.embarked_in = None
    unit.pose = None  # a placement, not a move from the stale marker pose
    state.place(unit, plan.end)
    unit.move_action = MoveAction.CHARGE
    unit.embarked_this_turn = True
    unit.moved_since_activation = True
    return transport


def _stays_inside(unit: Unit, target: Unit, reason: str) -> list[Event]:
    unit.move_action = MoveAction.CHARGE
    return [Event("charge", f"{unit.name} cannot get out to reach {target.name} ({reason}) and stays inside; the "
                  "charge ends", {"unit": unit.id, "target": target.id, "failed": True, "inside": True})]


def make_charge_out(state: GameState, dice: Dice, unit: Unit, target: Unit) -> list[Event]:
    """The declared charge of ``unit`` out of its Transport into ``target`` (rulebook "Transport(X)", "Charge
    Moves"): it is placed in contact (``plan_charge_out``, measured again), locked in melee as a charger, the
    target shuffles if it is alone, enemies it touches join the combat, then dangerous terrain tests where it
    stands. If contact has become impossible it stays inside (the module rulings). Returns the events."""
    try:
        plan = _replan(state, unit, target)
    except IllegalAction as why:
        return _stays_inside(unit, target, why.message)
    transport = _get_out(state, unit, plan)
    alone = not target.engaged_with
    state.engage(unit, target, Arc.FRONT, plan.side)
    unit.fights_as_charger = True
    unit.first_round_with.add(target.id)
    target.first_round_with.add(unit.id)
    end = plan.end
    events = [Event("charge", f"{unit.name} charges out of {transport.name} into the {plan.side.value} of "
                    f"{target.name}", {"unit": unit.id, "target": target.id, "side": plan.side.value,
                                       "transport": transport.id, "disembark": True, "to": _pose(end)})]
    if alone:
        events += target_shuffle(state, unit, target, plan.side)
    events += engage_contacts(state, unit, plan.also_contacts)
    events += dangerous_terrain_tests(state, dice, unit, end, [end], True, plan.traits_crossed)
    return events


def run_down_out(state: GameState, dice: Dice, unit: Unit, fled: Unit) -> list[Event]:
    """``unit``, inside a Transport, charged ``fled``, which fled: it runs it down if it can still be placed in
    contact with it fully within 6" of the Transport (the fleeing unit is routed), else it stays inside (the
    module rulings). A fleeing unit already caught at the end of its flight is run down without getting out. The
    event of a run down has ``ran_down: True`` in its data (the charger may then pivot or move 3")."""
    if not fled.on_table:
        unit.move_action = MoveAction.CHARGE
        if fled.removed is Removal.ROUTED:
            return [Event("charge", f"{unit.name} runs down {fled.name}, which could not get away",
                          {"unit": unit.id, "target": fled.id, "caught": True, "ran_down": True})]
        return _stays_inside(unit, fled, "it fled the battlefield")
    try:
        plan = _replan(state, unit, fled)
    except IllegalAction as why:
        return _stays_inside(unit, fled, why.message)
    transport = _get_out(state, unit, plan)
    state.remove(fled, Removal.ROUTED)
    events = [Event("charge", f"{unit.name} charges out of {transport.name} and runs down {fled.name}",
                    {"unit": unit.id, "target": fled.id, "transport": transport.id, "disembark": True,
                     "to": _pose(plan.end), "ran_down": True}),
              Event("rout", f"{fled.name} is caught and routed", {"unit": fled.id, "by": unit.id})]
    events += engage_contacts(state, unit, plan.also_contacts)
    events += dangerous_terrain_tests(state, dice, unit, plan.end, [plan.end], True, plan.traits_crossed)
    return events


def charger_position(state: GameState, unit: Unit) -> Pose | None:
    """Where a charger is measured from: its own pose on the table, its Transport's for a unit inside one, None if
    neither is on the table."""
    if unit.on_table:
        return unit.pose
    if inside(unit):
        transport = state.units.get(unit.embarked_in or "")
        if transport is not None and transport.on_table:
            return transport.pose
    return None


def _pose(p: Pose) -> dict[str, float]:
    return {"x": p.x, "y": p.y, "facing": p.facing}
