"""Flight moves and pursuit moves (rulebook "Flight Moves", "Pursuit Moves", "Dangerous Terrain", "Immobile").

Used by the close combat phase (a loser that is Shaken and Flees, a winner that pursues) and by the movement
phase (the Flee charge reaction). All distances are inches, bearings are compass degrees (0 = +y, clockwise).

Rulings made here (for docs/rulings.md):

* Fleeing pivot with several attackers: the fleeing unit turns to the circular mean of the facings it would
  take for each attacker alone (180 degrees front, 90 degrees away from a flank, 0 rear). When they cancel
  out exactly (front and rear, or both flanks) it turns as for the first attacker in the order
  front, left, right, rear.
* The flight and pursuit moves are straight lines along the unit's new facing. A unit it starts in base contact
  with (its attackers) does not stop it while it moves away or along, but blocks it if it would move toward it
  (a unit attacked on both flanks that turns toward one of them cannot move).
* Dangerous terrain crossed by a flight or pursuit move: the movement phase's tests
  (``movement.dangerous_terrain_tests``: one die per model whose base swept through it, X dice with Tough(X)).
* A fleeing unit touching or crossing the table edge is removed as ``Removal.FLED`` (it "flees the battlefield
  and is routed"); the flight line recorded ends where it met the edge.
* An Immobile unit that would flee routs instead, without rolling (rulebook "Immobile").
* Pursuit: the pursuer pivots in place to the fleeing unit's flight bearing, is re-centred sideways onto the
  flight line (the line of the fleeing unit's centre; free, like a pivot, and only where it can stand), and moves
  straight along it. Contact with the fleeing unit, or any other fleeing enemy unit, ends the move and routs that
  unit; the table edge stops the pursuer 1" short (impassable). A pursuit that falls short stops 1" short of the
  unit it pursued (``scene.slide`` with ``stop_at``).
* The pursuer's pivot and sideways shift onto the flight line are checked with ``scene.check_path`` (no overlap,
  1" from every unit but the one pursued); if that fails it pivots in place (same check); if that fails too it
  does not move at all. A fleeing unit that cannot turn away without overlapping a unit or impassable terrain,
  or coming within 1" of a unit other than its attackers, does not move at all; nor does a unit whose move
  would be shorter than 0.01" (blocked at once).
* A fleeing unit whose flight leaves it within 1" of an enemy unit could not break away: it is caught and routed
  (``catch_cornered``) -- at once after a Flee charge reaction (``flight_move``), after the pursuit moves of its
  combat in the close combat phase (a pursuit that contacts it still catches it first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import shapely

from game.engine.actions import pose_to_dict
from game.engine.attacks import Modifier
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.morale import make_shaken
from game.engine.movement import dangerous_terrain_tests
from game.engine.special_rules import fast_modifier, immobile, musician_modifier, slow_modifier
from game.engine.state import GameState, MoveAction, Removal, Unit
from geometry.arcs import Arc
from geometry.motion import SlideResult
from geometry.pose import Point, Pose, normalise_bearing, right_vector
from geometry.shapes import CONTACT_TOL, footprint_polygon, overlap_area

FLEE_TURN: dict[Arc, float] = {Arc.FRONT: 180.0, Arc.LEFT: 90.0, Arc.RIGHT: 270.0, Arc.REAR: 0.0}
"""Turn (degrees clockwise from the unit's facing) that points a unit away from an attacker in each arc.

Attacked on the left flank the unit turns to face right (+90); on the right flank it turns to face left (-90).
"""

_ARC_ORDER = (Arc.FRONT, Arc.LEFT, Arc.RIGHT, Arc.REAR)


CONTACT = 0.05
"""Inches: base contact (``geometry.contact.in_base_contact``)."""
NEAR = 1.0 - 1e-3
"""Inches: closer than this to an enemy unit is within 1" of it (rulebook "General Movement")."""

MIN_MOVE = 0.01
"""Inches: a flight, pursuit or retreat that would move less than this does not move at all (it was blocked at
once; the slide may otherwise creep a rounding tolerance closer to the unit in contact)."""


def blocked_at(state: GameState, unit: Unit, pose: Pose, exclude: Sequence[str] = ()) -> list[str]:
    """What the footprint of ``unit`` at ``pose`` would overlap: ids of other units on the table (not in
    ``exclude``), names of impassable terrain pieces, and "table edge" if it is not fully on the table.

    Rulebook "Pivoting": a pivot ignores units and terrain on the way, but the unit cannot end in a physically
    impossible place.
    """
    poly = footprint_polygon(pose, unit.formation)
    core = shapely.buffer(poly, -2 * CONTACT_TOL, join_style="mitre")  # touching is not overlapping
    out: list[str] = []
    for other in state.units.values():
        if other.id == unit.id or not other.on_table or other.id in exclude:
            continue
        if overlap_area(core, state.scene.footprint(other.id)) > 1e-9:
            out.append(other.id)
    for piece in state.scene.terrain_at(core):
        if "impassable" in piece.traits and overlap_area(core, piece.shape) > 1e-9:
            out.append(piece.name)
    if not state.scene.on_table(poly):
        out.append("table edge")
    return out


def friends_beside(state: GameState, unit: Unit, start: Pose, bearing: float, distance: float) -> list[str]:
    """Friendly units on the table that are not in the way of ``unit`` moving straight from ``start`` along
    ``bearing`` for ``distance`` inches: their footprint does not cross the lane the move sweeps. They do not stop a
    flight, pursuit or retreat (rulebook "Flight Moves": it stops when "another unit blocks the movement"), so
    units that stood side by side can flee or retreat side by side (docs/rulings.md)."""
    start_fp = footprint_polygon(start, unit.formation)
    end_fp = footprint_polygon(start.moved(*_step(bearing, distance)), unit.formation)
    lane = shapely.buffer(start_fp.union(end_fp).convex_hull, -2 * CONTACT_TOL, join_style="mitre")
    return [f.id for f in state.units_of(unit.player) if f.id != unit.id
            and overlap_area(lane, state.scene.footprint(f.id)) <= 1e-9]


def _step(bearing: float, distance: float) -> tuple[float, float]:
    r = math.radians(bearing)
    return distance * math.sin(r), distance * math.cos(r)


def comes_near(state: GameState, unit: Unit, pose: Pose, exclude: Sequence[str] = (), limit: float = 1.0) -> str | None:
    """The first other unit on the table (not in ``exclude``) that ``unit`` at ``pose`` would be within ``limit``
    inches of while being farther from it now; None if there is none (rulebook "General Movement": models may
    never be within 1" of models from other units)."""
    new = footprint_polygon(pose, unit.formation)
    old = state.scene.footprint(unit.id) if state.scene.has_unit(unit.id) else new
    for other in state.units.values():
        if other.id == unit.id or not other.on_table or other.id in exclude:
            continue
        fp = state.scene.footprint(other.id)
        d_new = float(new.distance(fp))
        if d_new < limit - 1e-3 and d_new < float(old.distance(fp)) - 1e-3:
            return other.id
    return None


def advance_bonus(unit: Unit) -> int:
    """Bonus to the Advance range from Fast (+2") and Slow (-2") (rulebook "Fast", "Slow"), inches."""
    return int(sum(m.value for m in _speed_mods(unit)))


def _speed_mods(unit: Unit) -> list[Modifier]:
    """Fast and Slow as they change the Advance range (``special_rules.fast_modifier``, ``slow_modifier``)."""
    mods = (fast_modifier(unit, MoveAction.ADVANCE), slow_modifier(unit, MoveAction.ADVANCE))
    return [m for m in mods if m is not None]


def flight_facing(facing: float, arcs: Sequence[Arc]) -> float:
    """The facing (degrees) a unit with ``facing`` takes to flee from attackers in ``arcs`` of it.

    Rulebook "Flight Moves": "Pivot the unit away from the attacker (by 180 degrees if attacked in the front,
    90 degrees if attacked in the flank, 0 degrees if attacked in the rear; split the difference if attacked from
    multiple directions)". Several arcs: circular mean of the single-arc facings (see module rulings).
    Raises ``ValueError`` for an empty ``arcs``.
    """
    if not arcs:
        raise ValueError("flight_facing needs at least one attacker arc")
    distinct = sorted(set(arcs), key=_ARC_ORDER.index)
    sx = sum(math.sin(math.radians(FLEE_TURN[a])) for a in distinct)
    sy = sum(math.cos(math.radians(FLEE_TURN[a])) for a in distinct)
    if math.hypot(sx, sy) < 1e-9:
        turn = FLEE_TURN[distinct[0]]
    else:
        turn = math.degrees(math.atan2(sx, sy))
    return normalise_bearing(facing + turn)


@dataclass
class FlightOutcome:
    """What a flight or pursuit move did (also kept by the close combat phase)."""

    unit: str
    """The unit that moved."""
    start: Pose
    """Pose before the move (before the pivot)."""
    end: Pose
    """Pose after the move."""
    bearing: float
    """Direction of travel, compass degrees."""
    distance: int
    """The rolled range (2D6 plus modifiers), inches."""
    travelled: float
    """How far it actually moved, inches."""
    off_table: bool = False
    """A fleeing unit that reached the table edge (it has fled the battlefield)."""
    caught: str | None = None
    """Pursuit only: the fleeing unit it contacted and routed."""
    events: list[Event] = field(default_factory=list)
    """Everything that happened."""


def _pose_dict(pose: Pose) -> dict[str, float]:
    return pose_to_dict(pose)


def flight_move(state: GameState, dice: Dice, unit: Unit, attackers: list[tuple[str, Arc]]) -> list[Event]:
    """Make ``unit`` flee (rulebook "Flight Moves"), as the Flee charge reaction; returns the events. See ``flee``
    for the details. A unit whose flight ends within 1" of an enemy unit could not get away and is caught and
    routed at once (``catch_cornered``)."""
    events = flee(state, dice, unit, attackers).events
    return events + catch_cornered(state, unit, [a for a, _ in attackers])


def cornering_enemy(state: GameState, unit: Unit, prefer: Sequence[str] = ()) -> str | None:
    """The enemy unit on the table that ``unit`` is within 1" of (those in ``prefer`` first, then the nearest,
    then in id order), or None (rulebook "General Movement")."""
    if not unit.on_table:
        return None
    scene = state.scene
    near = [(e.id not in prefer, round(scene.distance(unit.id, e.id), 6), e.id)
            for e in state.enemies_of(unit.player) if e.on_table and scene.distance(unit.id, e.id) < NEAR]
    return min(near)[2] if near else None


def catch_cornered(state: GameState, unit: Unit, prefer: Sequence[str] = ()) -> list[Event]:
    """A fleeing unit that ended its flight within 1" of an enemy unit could not break away: it is caught and
    Routed (rulebook "Flight Moves", "Pursuit Moves": contact routs the fleeing unit; docs/rulings.md). Returns the
    ``rout`` event (data ``{unit, by, reason: "cornered"}``), or nothing if it got away or is gone."""
    by = cornering_enemy(state, unit, prefer)
    if by is None or unit.removed is not None:
        return []
    state.remove(unit, Removal.ROUTED)
    return [Event("rout", f"{unit.name} could not get away from {state.unit(by).name}: it is caught and routed",
                  {"unit": unit.id, "by": by, "reason": "cornered"})]


def flee(state: GameState, dice: Dice, unit: Unit, attackers: list[tuple[str, Arc]]) -> FlightOutcome:
    """Make ``unit`` flee from ``attackers`` and return what happened (rulebook "Flight Moves").

    ``attackers``: (enemy unit id, arc of ``unit`` that enemy attacked or charged it in), at least one.
    Sequence: the unit becomes Shaken (if not already) and fleeing; 2D6 flight range +2" Fast / -2" Slow (no
    Musician); pivot away from the attackers (``flight_facing``); straight move along the new facing for the
    full range, stopping 1" short of units and impassable terrain (via ``scene.slide``); contact with the table
    edge removes the unit as ``Removal.FLED``; crossing dangerous terrain forces a dangerous terrain test. The
    unit leaves every melee it was in. An Immobile unit routs instead (``Removal.ROUTED``).

    Events: ``shaken``, ``roll`` (flight range), ``flee`` with data ``{unit, from, to, bearing, range,
    travelled, off_table, blocked_by}`` (poses as ``{x, y, facing}``), then possibly ``roll``/``wounds`` for
    dangerous terrain and ``rout``. Raises ``ValueError`` if ``unit`` is not on the table or ``attackers`` is
    empty.
    """
    if not unit.on_table or unit.pose is None:
        raise ValueError(f"{unit.id} is not on the table and cannot flee")
    if not attackers:
        raise ValueError("a flight move needs at least one attacker")
    events: list[Event] = []
    start = unit.pose
    if not unit.shaken:
        events.append(make_shaken(unit))
    for enemy_id in sorted(unit.engaged_with):
        state.disengage(unit, state.unit(enemy_id))
    if immobile(unit):
        state.remove(unit, Removal.ROUTED)
        events.append(Event("rout", f"{unit.name} is Immobile and cannot flee: it is routed",
                            {"unit": unit.id, "reason": "immobile"}))
        return FlightOutcome(unit.id, start, start, start.facing, 0, 0.0, False, None, events)
    unit.fleeing = True
    bonus = advance_bonus(unit)
    purpose = f"Flight range of {unit.name} (2D6{f'{bonus:+d}' if bonus else ''})"
    rolled = dice.d6(2, purpose)
    distance = max(0, sum(rolled) + bonus)
    details = [f"{m.reason} {m.value:+d}" for m in _speed_mods(unit)]
    events.append(roll_event(purpose, rolled, None, bonus, None, details, unit=unit.id, range=distance))
    facing = flight_facing(start.facing, [arc for _, arc in attackers])
    pivoted = start.facing_to(facing)
    attacker_ids = [a for a, _ in attackers]
    in_the_way = [b for b in blocked_at(state, unit, pivoted, attacker_ids) if b != "table edge"]
    near = comes_near(state, unit, pivoted, attacker_ids)
    if near is not None and not in_the_way:
        in_the_way = [near]
    if in_the_way:  # it cannot even turn around: the flight move ends at once
        result = SlideResult(start, 0.0, in_the_way[0], None, False, frozenset())
        pivoted = start
    else:
        state.place(unit, pivoted)
        result = state.scene.slide(unit.id, pivoted, facing, float(distance), gap=1.0, edge_exits=True,
                                   ignore_units=friends_beside(state, unit, pivoted, facing, float(distance)))
        if not result.off_table and (result.travelled < MIN_MOVE or blocked_at(state, unit, result.pose)):
            result = SlideResult(pivoted, 0.0, result.blocked_by, None, False, frozenset())
            if blocked_at(state, unit, pivoted):
                result = SlideResult(start, 0.0, result.blocked_by, None, False, frozenset())
                pivoted = start
    end = result.pose
    state.place(unit, end)
    blocked = result.blocked_by
    text = (f"{unit.name} flees {distance}\" from "
            f"{', '.join(state.unit(a).name if a in state.units else a for a, _ in attackers)}")
    if result.off_table:
        text += " and leaves the battlefield"
    elif result.travelled + 1e-6 < distance:
        text += f", stopped after {result.travelled:.1f}\"" + (f" by {blocked}" if blocked else "")
    events.append(Event("flee", text, {
        "unit": unit.id, "from": _pose_dict(start), "to": _pose_dict(end), "bearing": round(facing, 4),
        "range": distance, "travelled": round(result.travelled, 4), "off_table": bool(result.off_table),
        "blocked_by": blocked, "attackers": [a for a, _ in attackers],
    }))
    outcome = FlightOutcome(unit.id, start, end, facing, distance, float(result.travelled),
                            bool(result.off_table), None, events)
    if unit.on_table:
        events += dangerous_terrain_tests(state, dice, unit, pivoted, [end], False)
    if result.off_table and unit.removed is None:
        state.remove(unit, Removal.FLED)
        events.append(Event("rout", f"{unit.name} has fled the battlefield and is routed",
                            {"unit": unit.id, "reason": "fled", "removed": Removal.FLED.value}))
    return outcome


def pursuit_range_bonus(unit: Unit) -> int:
    """Bonus to the pursuit range: Fast +2", Slow -2", Musician +1" (rulebook "Pursuit Moves")."""
    musician = musician_modifier(unit)
    return advance_bonus(unit) + (musician.value if musician is not None else 0)


def pursue(state: GameState, dice: Dice, pursuer: Unit, fleeing_id: str, bearing: float,
           line_point: Point | None = None) -> FlightOutcome:
    """Make ``pursuer`` pursue the unit ``fleeing_id`` along ``bearing`` (rulebook "Pursuit Moves").

    2D6 pursuit range +2" Fast / -2" Slow / +1" Musician; the pursuer pivots in place to ``bearing`` (the fleeing
    unit's flight bearing), is put with its centre on the flight line (through ``line_point``, e.g. the fleeing
    unit's centre before its flight; not counted in the range, and only if it can stand there) and moves
    straight along it until it has moved the full range, contacts a fleeing
    enemy unit (that unit is Routed: ``Removal.ROUTED``), or is blocked (stops 1" short of units, impassable
    terrain and the table edge). Dangerous terrain crossed forces a test. ``fleeing_id`` may already be off the
    table (the pursuit move is still made). Returns the outcome; ``outcome.caught`` names the routed unit.
    Events: ``roll`` (pursuit range), ``pursuit`` ``{unit, target, from, to, bearing, range, travelled,
    caught}``, ``rout``. Raises ``ValueError`` if the pursuer is not on the table.
    """
    if not pursuer.on_table or pursuer.pose is None:
        raise ValueError(f"{pursuer.id} is not on the table and cannot pursue")
    events: list[Event] = []
    start = pursuer.pose
    bonus = pursuit_range_bonus(pursuer)
    purpose = f"Pursuit range of {pursuer.name} (2D6{f'{bonus:+d}' if bonus else ''})"
    rolled = dice.d6(2, purpose)
    distance = max(0, sum(rolled) + bonus)
    musician = musician_modifier(pursuer)
    details = [f"{m.reason} {m.value:+d}" for m in _speed_mods(pursuer) + ([musician] if musician else [])]
    events.append(roll_event(purpose, rolled, None, bonus, None, details, unit=pursuer.id, range=distance))
    pivoted = start.facing_to(bearing)
    fleeing_enemies = tuple(sorted(u.id for u in state.enemies_of(pursuer.player) if u.fleeing))
    # The pivot onto the flight line (and the sideways shift onto it) must leave the pursuer where it can stand:
    # no overlap, 1" from every unit but the one it pursues (``check_path``). Failing that it pivots in place;
    # failing that too it cannot pursue along the line and stays where it is.
    paths: list[list[Pose]] = []
    if line_point is not None:
        rx, ry = right_vector(bearing)
        offset = (start.x - line_point[0]) * rx + (start.y - line_point[1]) * ry
        if abs(offset) > 1e-9:
            paths.append([pivoted, Pose(start.x - offset * rx, start.y - offset * ry, pivoted.facing)])
    paths.append([pivoted])
    ignore = (fleeing_id,)
    chosen: Pose | None = None
    first_problem: str | None = None
    for path in paths:
        check = state.scene.check_path(pursuer.id, start, path, exclusion=1.0, ignore_units=ignore)
        if check.ok:
            chosen = path[-1]
            break
        first_problem = first_problem or check.blocker
    touching = []
    if chosen is not None and fleeing_id in state.units and state.units[fleeing_id].on_table:
        fp = footprint_polygon(chosen, pursuer.formation)
        if float(fp.distance(state.scene.footprint(fleeing_id))) <= CONTACT:
            touching = [fleeing_id]
    if chosen is None:  # it cannot turn onto the flight line: the pursuit move ends at once
        result = SlideResult(start, 0.0, first_problem, None, False, frozenset())
        pivoted = start
    elif touching:  # turning onto the line already brings it into contact
        result = SlideResult(start, 0.0, None, touching[0], False, frozenset())
        pivoted = start
    else:
        pivoted = chosen
        state.place(pursuer, pivoted)
        result = state.scene.slide(pursuer.id, pivoted, bearing, float(distance), gap=1.0,
                                   stop_at=fleeing_enemies, edge_exits=False,
                                   ignore_units=friends_beside(state, pursuer, pivoted, bearing, float(distance)))
        if result.contacted is None and (result.travelled < MIN_MOVE or blocked_at(state, pursuer, result.pose)):
            result = SlideResult(pivoted, 0.0, result.blocked_by, None, False, frozenset())
    state.place(pursuer, result.pose)
    caught = result.contacted
    target = state.units.get(fleeing_id)
    tname = target.name if target is not None else fleeing_id
    text = f"{pursuer.name} pursues {tname} {distance}\""
    if caught:
        text += f" and catches {state.unit(caught).name}"
    events.append(Event("pursuit", text, {
        "unit": pursuer.id, "target": fleeing_id, "from": _pose_dict(start), "to": _pose_dict(result.pose),
        "bearing": round(bearing, 4), "range": distance, "travelled": round(result.travelled, 4),
        "caught": caught, "blocked_by": result.blocked_by,
    }))
    outcome = FlightOutcome(pursuer.id, start, result.pose, bearing, distance, float(result.travelled), False,
                            caught, events)
    if pursuer.on_table:
        events += dangerous_terrain_tests(state, dice, pursuer, pivoted, [result.pose], False)
    if caught:
        victim = state.unit(caught)
        if victim.removed is None:
            state.remove(victim, Removal.ROUTED)
            events.append(Event("rout", f"{victim.name} is caught by {pursuer.name} and routed",
                                {"unit": victim.id, "by": pursuer.id, "reason": "caught"}))
    return outcome
