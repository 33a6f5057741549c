"""Flight moves and pursuit moves (rulebook "Flight Moves", "Pursuit Moves", "Dangerous Terrain", "Immobile").

Used by the close combat phase (a loser that is Shaken and Flees, a winner that pursues) and by the movement
phase (the Flee charge reaction). All distances are inches, bearings are compass degrees (0 = +y, clockwise).

Rulings made here (for docs/rulings.md):

* Fleeing pivot with several attackers: the fleeing unit turns to the circular mean of the facings it would
  take for each attacker alone (180 degrees front, 90 degrees away from a flank, 0 rear). When they cancel
  out exactly (front and rear, or both flanks) it turns as for the first attacker in the order
  front, left, right, rear.
* The flight and pursuit moves are straight lines along the unit's new facing; the fleeing unit ignores the
  units it flees from while moving away from them (it starts in base contact with them).
* Dangerous terrain crossed by a flight or pursuit move: the movement phase's tests
  (``movement.dangerous_terrain_tests``: one die per model whose base swept through it, X dice with Tough(X)).
* A fleeing unit touching or crossing the table edge is removed as ``Removal.FLED`` (it "flees the battlefield
  and is routed"); the flight line recorded ends where it met the edge.
* An Immobile unit that would flee routs instead, without rolling (rulebook "Immobile").
* Pursuit: the pursuer pivots in place to the fleeing unit's flight bearing and moves straight along it (parallel
  to the flight line through its own centre); contact with the fleeing unit, or any other fleeing enemy
  unit, ends the move and routs that unit. The table edge stops the pursuer 1" short (impassable).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from game.engine.actions import pose_to_dict
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.morale import make_shaken
from game.engine.movement import dangerous_terrain_tests
from game.engine.state import GameState, Removal, Unit
from geometry.arcs import Arc
from geometry.pose import Pose, normalise_bearing

FLEE_TURN: dict[Arc, float] = {Arc.FRONT: 180.0, Arc.LEFT: 90.0, Arc.RIGHT: 270.0, Arc.REAR: 0.0}
"""Turn (degrees clockwise from the unit's facing) that points a unit away from an attacker in each arc.

Attacked on the left flank the unit turns to face right (+90); on the right flank it turns to face left (-90).
"""

_ARC_ORDER = (Arc.FRONT, Arc.LEFT, Arc.RIGHT, Arc.REAR)


def advance_bonus(unit: Unit) -> int:
    """Bonus to the Advance range from Fast (+2") and Slow (-2") (rulebook "Fast", "Slow"), inches."""
    return (2 if unit.has("Fast") else 0) - (2 if unit.has("Slow") else 0)


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
    """Make ``unit`` flee (rulebook "Flight Moves"); returns the events. See ``flee`` for the details."""
    return flee(state, dice, unit, attackers).events


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
    if unit.has("Immobile"):
        state.remove(unit, Removal.ROUTED)
        events.append(Event("rout", f"{unit.name} is Immobile and cannot flee: it is routed",
                            {"unit": unit.id, "reason": "immobile"}))
        return FlightOutcome(unit.id, start, start, start.facing, 0, 0.0, False, None, events)
    unit.fleeing = True
    bonus = advance_bonus(unit)
    purpose = f"Flight range of {unit.name} (2D6{f'{bonus:+d}' if bonus else ''})"
    rolled = dice.d6(2, purpose)
    distance = max(0, sum(rolled) + bonus)
    details = (["Fast +2"] if unit.has("Fast") else []) + (["Slow -2"] if unit.has("Slow") else [])
    events.append(roll_event(purpose, rolled, None, bonus, None, details, unit=unit.id, range=distance))
    facing = flight_facing(start.facing, [arc for _, arc in attackers])
    pivoted = start.facing_to(facing)
    state.place(unit, pivoted)
    ignore = tuple(sorted({a for a, _ in attackers if a in state.units}))
    result = state.scene.slide(unit.id, pivoted, facing, float(distance), gap=1.0, ignore_units=ignore,
                               edge_exits=True)
    end = result.pose
    state.place(unit, end)
    blocked = getattr(result, "blocked_by", None)
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
    return advance_bonus(unit) + (1 if "musician" in unit.upgrades else 0)


def pursue(state: GameState, dice: Dice, pursuer: Unit, fleeing_id: str, bearing: float) -> FlightOutcome:
    """Make ``pursuer`` pursue the unit ``fleeing_id`` along ``bearing`` (rulebook "Pursuit Moves").

    2D6 pursuit range +2" Fast / -2" Slow / +1" Musician; the pursuer pivots in place to ``bearing`` (the fleeing
    unit's flight bearing) and moves straight along it until it has moved the full range, contacts a fleeing
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
    details = ((["Fast +2"] if pursuer.has("Fast") else []) + (["Slow -2"] if pursuer.has("Slow") else [])
               + (["Musician +1"] if "musician" in pursuer.upgrades else []))
    events.append(roll_event(purpose, rolled, None, bonus, None, details, unit=pursuer.id, range=distance))
    pivoted = start.facing_to(bearing)
    state.place(pursuer, pivoted)
    fleeing_enemies = tuple(sorted(u.id for u in state.enemies_of(pursuer.player) if u.fleeing))
    result = state.scene.slide(pursuer.id, pivoted, bearing, float(distance), gap=1.0, stop_at=fleeing_enemies,
                               edge_exits=False)
    state.place(pursuer, result.pose)
    caught = getattr(result, "contacted", None)
    if isinstance(caught, (list, tuple, set, frozenset)):
        caught = sorted(caught)[0] if caught else None
    target = state.units.get(fleeing_id)
    tname = target.name if target is not None else fleeing_id
    text = f"{pursuer.name} pursues {tname} {distance}\""
    if caught:
        text += f" and catches {state.unit(caught).name}"
    events.append(Event("pursuit", text, {
        "unit": pursuer.id, "target": fleeing_id, "from": _pose_dict(start), "to": _pose_dict(result.pose),
        "bearing": round(bearing, 4), "range": distance, "travelled": round(result.travelled, 4),
        "caught": caught, "blocked_by": getattr(result, "blocked_by", None),
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
