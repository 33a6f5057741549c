"""Step 2.4 Remaining moves: Hold, Advance and Rush (rulebook "Movement", "Terrain").

A move is a path of poses (../shared/spec.md ``move``): from its pose the unit moves in a straight line to
each pose's (x, y) keeping its facing, then pivots to that pose's facing. Pivots turn about the centre and are
free (rulebook "Pivoting"); the distance moved is the travel of the centre, which for straight moves is the
travel of every point of the base (rulebook "Measuring Movement").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from shapely.geometry.base import BaseGeometry

from game.engine.casualties import dangerous_terrain_test
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.special_rules import fast_modifier, flying, immobile, musician_modifier, slow_modifier, strider
from game.engine.spell_effects import move_bonus
from game.engine.state import GameState, MoveAction, Unit
from geometry.motion import MoveCheck
from geometry.pose import Pose, bearing_difference, bearing_to
from geometry.shapes import footprint_polygon, model_corner_array, overlap_area, swept_overlapping
from geometry.terrain import DIFFICULT, ELEVATED

EPS = 1e-6
ADVANCE = 6.0
"""Advance distance, inches (rulebook "Advancing")."""
RUSH = 12.0
"""Rush and Charge distance, inches (rulebook "Rushing", "Charging")."""
DIFFICULT_CAP = 6.0
"""Most a unit may move if any model moves in or through difficult terrain (rulebook "Difficult Terrain")."""
RUSH_ENEMY_DISTANCE = 6.0
"""No Rush with an enemy unit within this distance (rulebook "Rushing")."""


GEOMETRY_SECTIONS = {
    "table edge": "General Movement",
    "impassable terrain": "Impassable Terrain",
    "through a unit": "General Movement",
    '1" from a unit': "General Movement",
}
"""Rulebook section of each geometry rule a path can break."""


def path_problem(check: MoveCheck, state: GameState | None = None) -> IllegalAction:
    """The ``IllegalAction`` for a path the geometry refused, naming the rulebook section and the broken rule.

    With ``state``, a unit in the way is named by its profile name rather than its id.
    """
    rule = check.rule or "movement"
    section = GEOMETRY_SECTIONS.get(rule, "General Movement")
    message = check.message or "illegal path"
    if state is not None and check.blocker in state.units:
        message = message.replace(f"unit '{check.blocker}'", state.units[check.blocker].name)
    # the rule named once: "Impassable Terrain: leg 1 of the move crosses impassable terrain 'Ford Chapel'"
    text = message if rule.lower() == section.lower() else f"{rule}: {message}"
    return IllegalAction(section, text, lambda: check.where)   # worked out when read


def move_allowance(unit: Unit, action: MoveAction) -> float:
    """Inches ``unit`` may move with ``action``: 6 Advance, 12 Rush/Charge, 0 Hold.

    Fast +2"/+4", Slow -2"/-4" (rulebook "Fast", "Slow"), Musician +1" (rulebook "Command Groups"), through
    ``special_rules``.
    """
    if action is MoveAction.HOLD:
        return 0.0
    base = ADVANCE if action is MoveAction.ADVANCE else RUSH
    for mod in (fast_modifier(unit, action), slow_modifier(unit, action), musician_modifier(unit)):
        if mod is not None:
            base += mod.value
    base += move_bonus(unit, action is MoveAction.ADVANCE)  # spells (game.engine.magic)
    return max(base, 0.0)


def ignores_difficult(unit: Unit) -> bool:
    """Strider and Flying units ignore difficult terrain (rulebook "Strider", "Flying")."""
    return strider(unit) or flying(unit)


@dataclass(frozen=True, slots=True)
class PathShape:
    """What a path does: its pivots (degrees, signed) and straight legs (start, end, facing while moving)."""

    pivots: tuple[float, ...]
    """Each pivot's signed turn in degrees, in order."""
    legs: tuple[tuple[Pose, Pose], ...]
    """Each straight leg as (start pose, end pose) with the facing held during the leg."""
    end: Pose
    """Final pose."""

    @property
    def distance(self) -> float:
        """Total straight travel of the centre, inches."""
        return sum(a.distance_to(b) for a, b in self.legs)


def path_shape(start: Pose, path: Sequence[Pose]) -> PathShape:
    """Split ``path`` into straight legs and pivots (../shared/spec.md ``move``)."""
    pivots: list[float] = []
    legs: list[tuple[Pose, Pose]] = []
    cur = start
    for p in path:
        if abs(p.x - cur.x) > EPS or abs(p.y - cur.y) > EPS:
            moved = Pose(p.x, p.y, cur.facing)
            legs.append((cur, moved))
            cur = moved
        turn = bearing_difference(cur.facing, p.facing)
        if abs(turn) > EPS:
            pivots.append(turn)
            cur = Pose(cur.x, cur.y, p.facing)
    return PathShape(tuple(pivots), tuple(legs), cur)


def leg_is_forward(leg: tuple[Pose, Pose]) -> bool:
    """True when a straight leg heads into the unit's front quadrant (within 45 degrees of its facing)."""
    a, b = leg
    return abs(bearing_difference(a.facing, bearing_to(a.xy, b.xy))) <= 45.0 + EPS


def pivot_text(turn: float) -> str:
    """A pivot in words, as the log and the window both say it: ``-45`` -> "45° left", ``30`` -> "30° right"
    (degrees, positive clockwise seen from above)."""
    if abs(turn) < 0.5:
        return "0°"
    return f"{abs(turn):.0f}° {'right' if turn > 0 else 'left'}"


def check_pivots(action: MoveAction, pivots: tuple[float, ...]) -> None:
    """Pivot limits: Hold up to 180 degrees; Advance and Rush one pivot up to 90 or two up to 45.

    Raises ``IllegalAction`` ("Holding" / "Advancing" / "Rushing").
    """
    if action is MoveAction.HOLD:
        if sum(abs(p) for p in pivots) > 180.0 + EPS:
            raise IllegalAction("Holding", "a unit that Holds may pivot by up to 180° in all")
        return
    rule = "Advancing" if action is MoveAction.ADVANCE else "Rushing"
    if len(pivots) > 2:
        raise IllegalAction(rule, f"may pivot once by up to 90° or twice by up to 45°, not {len(pivots)} times")
    if len(pivots) == 1 and abs(pivots[0]) > 90.0 + EPS:
        raise IllegalAction(rule, f"a single pivot may be at most 90°, this one is {abs(pivots[0]):.0f}°")
    if len(pivots) == 2 and max(abs(p) for p in pivots) > 45.0 + EPS:
        raise IllegalAction(rule, "with two pivots each may be at most 45°")


def can_move(state: GameState, unit: Unit) -> str | None:
    """Why ``unit`` may not take a move action now, or None (rulebook "Shaken Units", "Movement Phase")."""
    if not unit.on_table:
        return "the unit is not on the table"
    if unit.engaged:
        return "the unit is locked in melee"
    if unit.shaken:
        return "Shaken units must stay idle"
    if unit.move_action is not None:
        return "the unit has already taken its action this turn"
    return None


def _swept_legs(unit: Unit, path: Sequence[Pose]) -> list[BaseGeometry]:
    """The area the unit's footprint sweeps along each straight leg of ``path`` (pivots ignore terrain: AoF:R 2.16
    "Pivoting")."""
    assert unit.pose is not None
    shape = path_shape(unit.pose, path)
    poses = [unit.pose] + [b for _, b in shape.legs]
    return [footprint_polygon(a, unit.formation).union(footprint_polygon(b, unit.formation)).convex_hull
            for a, b in zip(poses, poses[1:], strict=False)]


def stands_on_hill(state: GameState, unit: Unit) -> list[int]:
    """Indices (``state.terrain``) of the hills (``elevated`` and ``difficult`` pieces) more than half of the unit's
    footprint stands on."""
    if unit.pose is None:
        return []
    fp = footprint_polygon(unit.pose, unit.formation)
    return [i for i, t in enumerate(state.terrain) if ELEVATED in t.traits and DIFFICULT in t.traits
            and overlap_area(fp, t.shape) > 0.5 * fp.area]


def crosses_difficult(state: GameState, unit: Unit, path: Sequence[Pose]) -> bool:
    """AoF:R 2.16 "Difficult Terrain" with its "Terrain Guidelines" ("Hills - difficult terrain when going up"):
    whether ``unit`` moving along ``path`` moves in or through difficult terrain: a piece that is not a hill, or a
    hill the unit did not stand on when the move began (going up); along or down the hill it stands on is not
    (docs/rulings.md "AoF:R 2.16", Hills)."""
    on = set(stands_on_hill(state, unit))
    pieces = [t for i, t in enumerate(state.terrain) if DIFFICULT in t.traits and i not in on]
    if not pieces or unit.pose is None:
        return False
    return any(overlap_area(swept, t.shape) > 1e-9 for swept in _swept_legs(unit, path) for t in pieces)


@dataclass(frozen=True, slots=True)
class Climb:
    """AoF:R 2.16 "Elevation": the vertical inches a move spends climbing onto elevation, and onto what."""

    inches: float = 0.0
    """The climb, inches: the height of each piece climbed onto."""
    pieces: tuple[str, ...] = ()
    """Names of the pieces climbed onto, in terrain order."""

    def words(self) -> str:
        """The climb in words ("climbs 3\" onto Tall Hill"), empty without one."""
        if self.inches <= 0:
            return ""
        return f"climbs {self.inches:g}\" onto {', '.join(self.pieces)}"


def elevation_climb(state: GameState, unit: Unit, path: Sequence[Pose]) -> Climb:
    """AoF:R 2.16 "Elevation": "Any terrain piece that is at least 3\" taller than the surface of the table counts as
    elevation. When moving onto elevation, simply count the vertical movement as part of the unit's regular
    movement." The ``elevated`` pieces at least ``GameState.elevation_height`` tall that a base sweeps along
    ``path`` and that the unit did not stand on (more than half its footprint) when the move began: each adds its
    ``height`` once. Moving along or down the piece it stands on climbs nothing; Flying units ignore terrain
    ("Flying"). docs/rulings.md "AoF:R 2.16", Elevation. No climb when the state plays no elevation."""
    tall = state.elevation_height
    if tall is None or unit.pose is None or flying(unit):
        return Climb()
    fp = footprint_polygon(unit.pose, unit.formation)
    pieces = [t for t in state.terrain if ELEVATED in t.traits and t.height >= tall - EPS
              and overlap_area(fp, t.shape) <= 0.5 * fp.area]
    if not pieces:
        return Climb()
    swept = _swept_legs(unit, path)
    onto = [t for t in pieces if any(overlap_area(s, t.shape) > 1e-9 for s in swept)]
    return Climb(sum(t.height for t in onto), tuple(t.name for t in onto))


def validate_move(state: GameState, unit: Unit, action: MoveAction, path: Sequence[Pose], *,
                  rush_near_enemy: bool = False, difficult: bool | None = None) -> MoveCheck:
    """Check a Hold, Advance or Rush along ``path``; returns the geometry check of the legal path.

    Raises ``IllegalAction`` naming the rule broken: Shaken/melee units stay idle, Immobile units only Hold,
    Rush with an enemy within 6", pivot limits, distance (with Fast/Slow/Musician and the difficult terrain
    cap), sideways/backward moves up to half an Advance, Rush forward only, and the geometry of the path
    (table edge, impassable terrain, through units, within 1" of another unit). ``rush_near_enemy`` True lifts
    AoWFBR's "no Rush with an enemy within 6\"" (AoF:R 2.16 has no such rule). With ``GameState.elevation_height``
    (AoF:R 2.16 "Elevation") the climb onto elevation counts toward the distance (``elevation_climb``).
    """
    why = can_move(state, unit)
    if why:
        raise IllegalAction("Movement", why)
    assert unit.pose is not None
    if action is not MoveAction.HOLD and immobile(unit):
        raise IllegalAction("Immobile", f"{unit.name} may only take Hold actions")
    shape = path_shape(unit.pose, path)
    check_pivots(action, shape.pivots)
    if action is MoveAction.HOLD and shape.legs:
        raise IllegalAction("Holding", "a unit that Holds does not move; it may only pivot", shape.legs[0][1].xy)
    if action is MoveAction.RUSH and not rush_near_enemy:
        close = state.scene.units_within(unit.id, RUSH_ENEMY_DISTANCE, players=[3 - unit.player])
        if close:
            raise IllegalAction("Rushing", f"may not Rush with an enemy unit within 6\" ({state.units[close[0]].name})")
    allowance = move_allowance(unit, action)
    backward = [leg for leg in shape.legs if not leg_is_forward(leg)]
    if backward and action is MoveAction.RUSH:
        raise IllegalAction("Rushing", "a Rush moves forward; only an Advance may move sideways or backward",
                            backward[0][1].xy)
    if backward:
        allowance /= 2
    check = state.scene.check_path(unit.id, unit.pose, list(path), fly_over=flying(unit))
    if not check.ok:
        raise path_problem(check, state)

    def going_difficult() -> bool:
        if difficult is None and state.hills_going_up and "difficult" in check.traits_crossed:
            return crosses_difficult(state, unit, path)
        return "difficult" in check.traits_crossed if difficult is None else difficult

    # the terrain crossed is asked only where it can change the answer (it is the dearest part of a legal check):
    # the cap lowers no allowance of 6" or less, and a move within its allowance is legal either way
    in_difficult: bool | None = None
    if allowance > DIFFICULT_CAP:
        in_difficult = going_difficult()
        if in_difficult and not ignores_difficult(unit):
            allowance = DIFFICULT_CAP
    climb = elevation_climb(state, unit, path) if shape.legs else Climb()   # AoF:R 2.16 "Elevation"
    if shape.distance + climb.inches > allowance + 1e-4:
        if in_difficult is None:
            in_difficult = going_difficult()
        limit = "6\" in difficult terrain" if allowance == DIFFICULT_CAP and in_difficult else f"{allowance:g}\""
        if backward:
            limit += " (half, moving sideways or backward)"
        moved = f"{shape.distance:.2f}\""
        if climb.inches:
            moved = f"{shape.distance + climb.inches:.2f}\" ({shape.distance:.2f}\" and {climb.words()})"
        raise IllegalAction(
            "Elevation" if climb.inches and shape.distance <= allowance + 1e-4 else
            "Difficult Terrain" if in_difficult and allowance <= DIFFICULT_CAP else
            {MoveAction.ADVANCE: "Advancing", MoveAction.RUSH: "Rushing"}.get(action, "Movement"),
            f"moves {moved} but may move at most {limit}",
            shape.end.xy,
        )
    return check


def dangerous_terrain_tests(state: GameState, dice: Dice, unit: Unit, start: Pose, path: Sequence[Pose],
                            rushing: bool, traits_crossed: frozenset[str] | None = None) -> list[Event]:
    """Dangerous terrain tests for the models that moved in or through dangerous terrain.

    Rulebook "Dangerous Terrain": one die per model (as many as its Tough value), each 1 is a wound. Terrain
    "dangerous when using rush/charge" (rivers, ruins) counts only when ``rushing``. Models are counted by their
    bases swept along each straight leg (docs/rulings.md). Flying units ignore terrain while moving (rulebook
    "Flying").
    """
    if flying(unit):
        return []
    wanted = {"dangerous", "dangerous_when_rushing"} if rushing else {"dangerous"}
    if traits_crossed is not None and not wanted & traits_crossed:
        return []  # the whole swept path misses every dangerous piece
    pieces = [t for t in state.terrain if wanted & t.traits]
    if not pieces:
        return []
    shape = path_shape(start, path)
    formation = unit.formation
    touched: set[int] = set()
    poses = [start] + [b for _, b in shape.legs] + [shape.end]
    boxes = np.array([t.shape.bounds for t in pieces])  # (pieces, 4)
    for i in range(len(poses) - 1):
        # a base whose swept bounding box meets no piece's cannot overlap one: only the others are measured
        ends = np.concatenate([model_corner_array(poses[i], formation), model_corner_array(poses[i + 1], formation)],
                              axis=1)  # (models, 8, 2)
        lo, hi = ends.min(axis=1), ends.max(axis=1)
        meets = ((boxes[None, :, 0] <= hi[:, None, 0]) & (boxes[None, :, 2] >= lo[:, None, 0])
                 & (boxes[None, :, 1] <= hi[:, None, 1]) & (boxes[None, :, 3] >= lo[:, None, 1])).any(axis=1)
        candidates = [m for m in np.flatnonzero(meets).tolist() if m not in touched]
        if not candidates:
            continue
        hit = swept_overlapping(ends[candidates, :4], ends[candidates, 4:], [t.shape for t in pieces], 1e-9)
        touched.update(m for m, h in zip(candidates, hit, strict=True) if h)
    if not touched:
        return []
    return dangerous_terrain_test(state, dice, unit, sorted(touched))


def apply_move(state: GameState, dice: Dice, unit: Unit, action: MoveAction, path: Sequence[Pose],
               checked: MoveCheck | None = None) -> list[Event]:
    """Validate and make a Hold, Advance or Rush; returns the events. Raises ``IllegalAction`` (state unchanged).

    ``checked``: the result of ``validate_move`` for this very move in this very state, to skip re-validating.
    """
    check = checked if checked is not None else validate_move(state, unit, action, path)
    assert unit.pose is not None
    start = unit.pose
    shape = path_shape(start, path)
    climb = elevation_climb(state, unit, path) if shape.legs else Climb()   # measured from where it stood
    state.place(unit, shape.end)
    unit.move_action = action
    unit.pivoted = bool(shape.pivots)
    verb = {MoveAction.HOLD: "holds", MoveAction.ADVANCE: "advances", MoveAction.RUSH: "rushes"}[action]
    text = f"{unit.name} {verb}"
    if shape.distance > EPS:
        text += f" {shape.distance:.1f}\""
    if climb.inches:
        text += f" and {climb.words()}"
    if shape.pivots:
        text += " and pivots " + ", ".join(pivot_text(p) for p in shape.pivots)
    if check.terrain_crossed:
        text += f" (through {', '.join(check.terrain_crossed)})"
    data: dict[str, object] = {"unit": unit.id, "action": action.value, "from": _pose_data(start),
                               "to": _pose_data(shape.end), "distance": shape.distance}
    if climb.inches:
        data["climb"] = climb.inches        # AoF:R 2.16 "Elevation"
    events = [Event("move", text, data)]
    events += dangerous_terrain_tests(state, dice, unit, start, path, action is MoveAction.RUSH,
                                      check.traits_crossed)
    return events


def _pose_data(p: Pose) -> dict[str, float]:
    return {"x": p.x, "y": p.y, "facing": p.facing}
