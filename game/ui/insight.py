"""What the table's geometry says about the selected unit, for the player's eyes: distances, arcs, sight, who can
shoot, charge reach and targets, exclusion zones. No pygame here.

Everything is asked of the engine and the geometry (``Scene``, ``charge.plan_charge``, ``shooting``), never
worked out anew, so what the window shows is what the rules will apply. Answers are cached per game position
(``Insight.stamp``: the game, the number of actions and the last one) and per unit, so a frame in which nothing
changed computes no geometry at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from game.engine import charge as charging
from game.engine import charge_out, random_charge, shooting
from game.engine.errors import IllegalAction
from game.engine.movement import move_allowance
from game.engine.special_rules import TRANSPORT_EXIT, attack_quality, indirect
from game.engine.state import GameState, MoveAction, Unit
from geometry.arcs import Arc, arc_of_point, side_segment
from geometry.formation import footprint_corners, hero_index
from geometry.pose import Point, Pose, forward_vector, right_vector

ARC_REACH = 10.0
"""Inches the arc boundaries are drawn out from a unit's corners."""
EXCLUSION = 1.0
"""Inches a move must keep from other units (rulebook "General Movement")."""
ZONE_NEAR = 4.0
"""Exclusion zones are drawn for units within the move allowance plus this many inches of the moving unit."""
MAX_SIGHT_TESTS = 60
"""Sight lines tried per enemy when looking for one to draw (the answer itself comes from the geometry)."""


@dataclass(frozen=True)
class Measurement:
    """A tape from a unit to a point or to another unit (closest points, rulebook "Measuring Distances")."""

    origin: str
    """Unit measured from."""
    a: Point
    """Closest point on the origin unit."""
    b: Point
    """The point measured to (closest point of ``target`` when there is one)."""
    distance: float
    """Inches, as the geometry measures it."""
    target: str | None = None
    """Unit measured to, or None for a point."""


@dataclass
class ChargePreview:
    """Where a unit could charge now (step 2.1), before declaring."""

    unit: str
    """The charger."""
    allowance: float
    """Its charge distance, inches (12" with Fast, Slow, Musician, spells)."""
    reach: list[list[Point]]
    """Outlines of the footprint grown by the allowance (the exterior first)."""
    plans: dict[str, charging.ChargePlan] = field(default_factory=dict)
    """Each valid target's plan: side contacted, final pose, path."""
    cannot: str | None = None
    """Why the unit may not charge at all, or None."""
    random: bool = False
    """Random Charge Distances is played: ``allowance`` is the charge range (Advance + 6") and each target has a
    measured distance and a chance (``game.engine.random_charge``)."""
    advance: float = 0.0
    """The unit's Advance distance, inches (what a charge roll adds to its highest die)."""
    measured: dict[str, float] = field(default_factory=dict)
    """Random Charge Distances: each valid target's measured distance, inches (what the roll must reach)."""
    transport: str | None = None
    """Name of the Transport the unit charges out of (``reach`` is then the 6" around it it must end within)."""

    def chance(self, target: str) -> float | None:
        """Random Charge Distances: the probability, 0 to 1, that the charge at ``target`` is made; else None."""
        if not self.random or target not in self.measured:
            return None
        return random_charge.chance(self.advance, self.measured[target])


@dataclass
class SightPreview:
    """Which enemies a unit sees, with one clear sight line to each."""

    unit: str
    """The looker."""
    seen: dict[str, tuple[Point, Point]]
    """Enemy id -> a sight line (looker model centre, point of the target base) the geometry finds clear."""
    unseen: list[str]
    """Enemies on the table it does not see."""


@dataclass
class ShotPreview:
    """A shooter and a target under the mouse in step 4.2."""

    unit: str
    """The shooter."""
    target: str
    """The unit under the mouse."""
    models: list[int]
    """Indices of the shooter's models that may fire at it (``model_centres`` order)."""
    weapons: list[tuple[str, int]]
    """(weapon name, models that may fire it)."""
    reason: str | None = None
    """Why the target may not be shot at, or None."""
    to_hit: list[str] = field(default_factory=list)
    """Modifiers to the hit rolls in words (the first weapon that can fire)."""
    defense: list[str] = field(default_factory=list)
    """Modifiers to the target's Defense rolls in words."""
    distance: float = 0.0
    """Closest distance between the units, inches."""
    quality: str = ""
    """What the hit rolls need, in words ("Quality 4+", "Quality 2+ (Reliable)")."""
    weapon: str = ""
    """The weapon the modifiers are given for (the first of the group that can fire)."""


def stamp_of(game: Any) -> tuple[Any, ...]:
    """Identifies a game position: the state changes only through ``apply`` (and undo replays a new game)."""
    history = game.history
    return (id(game), id(game.state), len(history), history[-1] if history else None, len(game.log))


class Insight:
    """Cached geometry queries for the window (one per battle scene)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        """A ``Game``, or an object whose ``game`` attribute is the game (the battle scene: undo may replace it)."""
        self._stamp: tuple[Any, ...] | None = None
        self._cache: dict[tuple[Any, ...], Any] = {}
        self.computed = 0
        """Number of answers computed (not served from the cache): tests check frames compute nothing new."""

    @property
    def game(self) -> Any:
        """The game asked about."""
        return self.source.game if hasattr(self.source, "game") else self.source

    @property
    def stamp(self) -> tuple[Any, ...]:
        """The game position the cached answers belong to."""
        return stamp_of(self.game)

    # --- the cache ----------------------------------------------------------------------------------------------
    def _get(self, key: tuple[Any, ...], make: Any) -> Any:
        stamp = stamp_of(self.game)
        if stamp != self._stamp:
            self._stamp = stamp
            self._cache.clear()
        if key in self._cache:
            return self._cache[key]
        self.computed += 1
        value = make()
        self._cache[key] = value
        return value

    @property
    def state(self) -> GameState:
        """The game state."""
        return self.game.state  # type: ignore[no-any-return]

    def _unit(self, uid: str | None) -> Unit | None:
        unit = self.state.units.get(uid) if uid else None
        return unit if unit is not None and unit.on_table else None

    def _actor(self, uid: str | None) -> Unit | None:
        """A unit on the table, or inside a Transport on the table (it charges out; it cannot shoot out)."""
        unit = self.state.units.get(uid) if uid else None
        if unit is not None and charge_out.inside(unit) and charge_out.charger_position(self.state, unit):
            return unit
        return self._unit(uid)

    # --- measuring ------------------------------------------------------------------------------------------------
    def measure(self, origin: str, point: Point, target: str | None = None) -> Measurement | None:
        """Tape from ``origin`` to ``target`` (closest points) or else to ``point``; None if off the table."""
        unit = self._unit(origin)
        if unit is None:
            return None
        other = self._unit(target) if target != origin else None
        scene = self.state.scene
        if other is not None:
            key = ("measure", origin, other.id)
            return self._get(key, lambda: self._measure_units(unit, other))  # type: ignore[no-any-return]
        a = closest_point_on(scene.footprint(origin), point)
        return Measurement(origin, a, point, scene.distance_to_point(origin, point))

    def _measure_units(self, unit: Unit, other: Unit) -> Measurement:
        scene = self.state.scene
        a, b = closest_points(scene.footprint(unit.id), scene.footprint(other.id))
        return Measurement(unit.id, a, b, scene.distance(unit.id, other.id), other.id)

    # --- arcs -----------------------------------------------------------------------------------------------------
    def arcs(self, uid: str) -> dict[Arc, list[Point]] | None:
        """The four facing arcs of ``uid`` as quadrilaterals reaching ``ARC_REACH`` from its sides."""
        unit = self._unit(uid)
        if unit is None:
            return None
        pose = unit.pose
        assert pose is not None
        wedges: dict[Arc, list[Point]] = self._get(
            ("arcs", uid), lambda: arc_wedges(pose, unit.formation.width, unit.formation.depth))
        return wedges

    # --- sight ------------------------------------------------------------------------------------------------
    def sight(self, uid: str) -> SightPreview | None:
        """The enemies ``uid`` sees now, each with a clear sight line."""
        unit = self._unit(uid)
        if unit is None:
            return None
        return self._get(("sight", uid), lambda: self._sight(unit))  # type: ignore[no-any-return]

    def _sight(self, unit: Unit) -> SightPreview:
        s = self.state
        scene = s.scene
        enemies = [e.id for e in s.enemies_of(unit.player) if e.on_table]
        seen_ids = set(scene.visible_units(unit.id, enemies)) if enemies else set()
        seen: dict[str, tuple[Point, Point]] = {}
        for eid in enemies:
            if eid in seen_ids:
                seen[eid] = self._sight_line(unit, eid)
        return SightPreview(unit.id, seen, [e for e in enemies if e not in seen_ids])

    def _sight_line(self, unit: Unit, target: str) -> tuple[Point, Point]:
        """One clear sight line from a model of ``unit`` that sees ``target`` (the shortest one tried)."""
        scene = self.state.scene
        models = scene.models_with_sight(unit.id, target)
        centres = scene.model_centres(unit.id)
        tc = scene.model_centres(target)
        fallback = (scene_centre(scene, unit.id), scene_centre(scene, target))
        if not models or len(tc) == 0:
            return fallback
        points = [tuple(p) for p in scene.sight_samples(target)[0]]
        assert unit.pose is not None
        f = unit.formation
        tried = 0
        best: tuple[float, Point, Point] | None = None
        # the seeing models nearest the target first
        tx, ty = float(tc[:, 0].mean()), float(tc[:, 1].mean())
        for m in sorted(models, key=lambda k: math.dist(tuple(centres[k]), (tx, ty)))[:4]:
            c = (float(centres[m][0]), float(centres[m][1]))
            base = Pose(c[0], c[1], unit.pose.facing)
            for p in sorted(points, key=lambda q: math.dist(q, c)):
                if tried >= MAX_SIGHT_TESTS:
                    break
                q = (float(p[0]), float(p[1]))
                if arc_of_point(base, f.base_width, f.base_depth, q) is not Arc.FRONT:
                    continue
                tried += 1
                if scene.line_clear(c, q, ignore_units=(target,), looker_id=unit.id):
                    d = math.dist(c, q)
                    if best is None or d < best[0]:
                        best = (d, c, q)
                    break
        return (best[1], best[2]) if best is not None else fallback

    # --- charges ----------------------------------------------------------------------------------------------
    def charge(self, uid: str) -> ChargePreview | None:
        """Charge reach and valid targets of ``uid`` (step 2.1, or 2.3 when redirecting); for a unit inside a
        Transport the reach is the 6" around the Transport it must end within (``charge_out``)."""
        unit = self._actor(uid)
        if unit is None:
            return None
        return self._get(("charge", uid), lambda: self._charge(unit))  # type: ignore[no-any-return]

    def _charge(self, unit: Unit) -> ChargePreview:
        game = self.game
        s = self.state
        allowance = random_charge.charge_allowance(s, unit)
        pending = game.pending
        redirect = pending is not None and pending.decision == "redirect" and pending.unit == unit.id
        inside = charge_out.inside(unit)
        if inside:
            cannot = None if redirect else charge_out.can_charge_out(unit)
        else:
            cannot = None if redirect else charging.can_charge(unit)
        reach: list[list[Point]] = []
        if cannot is None:
            origin, radius = (unit.embarked_in or "", TRANSPORT_EXIT) if inside else (unit.id, allowance)
            grown = s.scene.footprint(origin).buffer(radius, quad_segs=12)
            reach = [[(float(x), float(y)) for x, y in grown.exterior.coords]]
        preview = ChargePreview(unit.id, allowance, reach, cannot=cannot, random=random_charge.active(s),
                                advance=move_allowance(unit, MoveAction.ADVANCE))
        if inside and unit.embarked_in in s.units:
            preview.transport = s.units[unit.embarked_in].profile.name
        targets = game.redirect_targets(unit.id) if redirect else game.charge_targets(unit.id)
        for tid in targets:
            try:
                if inside:
                    plan = charge_out.plan_charge_out(s, unit, s.units[tid], need_sight=not redirect)
                elif redirect:
                    plan = charging.plan_charge_for_move(s, unit, s.units[tid])
                else:
                    plan = game.ruleset.charge_plan(unit.id, tid)   # the ruleset's charge (AoF:R: no sight)
            except IllegalAction:
                continue
            preview.plans[tid] = plan
            preview.measured[tid] = random_charge.measured_distance(plan.distance, plan.travel)
        return preview

    def charge_problem(self, uid: str, target: str) -> IllegalAction | None:
        """Why ``uid`` may not charge ``target`` now (the engine's reason, with its place), or None."""
        unit, other = self._actor(uid), self._unit(target)
        if unit is None or other is None:
            return None
        return self._get(("charge-why", uid, target), lambda: self._charge_problem(unit, other))  # type: ignore[no-any-return]

    def _charge_problem(self, unit: Unit, other: Unit) -> IllegalAction | None:
        preview = self.charge(unit.id)
        if preview is not None and other.id in preview.plans:
            return None
        try:
            if charge_out.inside(unit):
                charge_out.plan_charge_out(self.state, unit, other)
            else:
                self.game.ruleset.charge_plan(unit.id, other.id)
        except IllegalAction as e:
            return e
        return None

    # --- shooting -----------------------------------------------------------------------------------------------
    def shot(self, uid: str, target: str, weapons: tuple[str, ...] | None = None) -> ShotPreview | None:
        """Who of ``uid`` may fire at ``target`` now, the modifiers, or why not (a unit inside a Transport: why
        not)."""
        unit, other = self._actor(uid), self._unit(target)
        if unit is None or other is None or unit.player == other.player:
            return None
        return self._get(("shot", uid, target, weapons),  # type: ignore[no-any-return]
                         lambda: self._shot(unit, other, weapons))

    def _shot(self, unit: Unit, target: Unit, weapons: tuple[str, ...] | None) -> ShotPreview:
        s = self.state
        scene = s.scene
        origin = unit.embarked_in if charge_out.inside(unit) and unit.embarked_in else unit.id
        distance = scene.distance(origin, target.id)
        preview = ShotPreview(unit.id, target.id, [], [], distance=distance)
        restriction = shooting.shooting_restriction(unit)
        if restriction is not None:
            preview.reason = f"{restriction[0]}: {restriction[1]}"
            return preview
        if target.engaged:
            preview.reason = f"Picking Targets: {target.name} is in melee and may not be shot at"
            return preview
        if len(unit.shot_targets) >= shooting.MAX_TARGETS and target.id not in unit.shot_targets:
            preview.reason = (f"Multiple Weapon Types: {unit.name} already shot at {shooting.MAX_TARGETS} targets "
                              "this phase")
            return preview
        rules = self.game.ruleset
        rows = shooting.shooting_rows(unit)
        if rows and rules.all_models_shoot:     # AoF:R 2.16 "Who Can Shoot": every model
            rows = shooting.ALL_ROWS
        try:
            group = shooting.weapon_group(unit, weapons)
        except IllegalAction as e:
            preview.reason = f"{e.rule}: {e.message}"
            return preview
        if not group:
            preview.reason = f"Multiple Weapon Types: {unit.name} has no weapon left to fire this phase"
            return preview
        hero = hero_index(unit.formation)
        chosen: set[int] = set()
        first: Any = None
        for arm in group:
            if indirect(arm.profile, arm.weapon):
                ms = scene.models_in_range(unit.id, target.id, rows, arm.weapon.range)
            else:
                ms = scene.models_with_sight(unit.id, target.id, rows, arm.weapon.range)
            ms = [m for m in ms if (m == hero) == arm.hero]
            preview.weapons.append((arm.name, len(ms)))
            chosen.update(ms)
            if ms and first is None:
                first = (arm, ms)
        preview.models = sorted(chosen)
        which = "front row" if rows == 1 else "two front rows" if rows == 2 else "unit"
        if not chosen:
            if not scene.models_with_sight(unit.id, target.id, rows, None) and not any(
                    indirect(a.profile, a.weapon) for a in group):
                preview.reason = (f"Picking Targets: no model in the {which} of {unit.name} sees {target.name} in "
                                  "its front arc")
            else:
                longest = max((a.weapon.range or 0) for a in group)
                preview.reason = (f"Picking Targets: {target.name} is out of range ({distance:.1f}\" away; "
                                  f"longest weapon {longest:g}\")")
            return preview
        arm, ms = first
        preview.weapon = arm.name
        preview.quality = attack_quality(arm.profile, arm.weapon, True)[1]
        try:
            hits, blocks = shooting.volley_modifiers(s, unit, target, arm, ms, cover_to_hit=rules.cover_to_hit,
                                                     rules=rules.shot_rules)
        except Exception:  # noqa: BLE001 - a preview must never break the window
            hits, blocks = [], []
        preview.to_hit = [str(m) for m in hits]
        preview.defense = [str(m) for m in blocks]
        return preview

    # --- moving ---------------------------------------------------------------------------------------------
    def exclusion_zones(self, uid: str, reach: float) -> list[tuple[str, list[Point]]]:
        """Outlines 1" around the other units near ``uid`` (within ``reach`` + 4"), which a move may not enter."""
        unit = self.state.units.get(uid)
        if unit is None:
            return []
        return self._get(("zones", uid, round(reach, 2)),  # type: ignore[no-any-return]
                         lambda: self._zones(unit, reach))

    def _zones(self, unit: Unit, reach: float) -> list[tuple[str, list[Point]]]:
        s = self.state
        scene = s.scene
        if unit.on_table:
            near = scene.units_within(unit.id, reach + ZONE_NEAR)
        else:
            near = [u.id for u in s.units.values() if u.on_table and u.id != unit.id]
        out = []
        for oid in near:
            grown = scene.footprint(oid).buffer(EXCLUSION, quad_segs=4)
            out.append((oid, [(float(x), float(y)) for x, y in grown.exterior.coords]))
        return out


# --- plane helpers ---------------------------------------------------------------------------------------------


def arc_wedges(pose: Pose, width: float, depth: float, reach: float = ARC_REACH) -> dict[Arc, list[Point]]:
    """The four arcs of a ``width`` x ``depth`` rectangle at ``pose`` (rulebook "Unit Facing": lines through the
    corners at 45 degrees) as quadrilaterals: a side of the rectangle and the two boundary rays cut at ``reach``."""
    fl, fr, rr, rl = footprint_corners_of(pose, width, depth)
    f = forward_vector(pose.facing)
    r = right_vector(pose.facing)
    k = reach / math.sqrt(2.0)

    def out(p: Point, along: float, side: float) -> Point:
        return (p[0] + (f[0] * along + r[0] * side) * k, p[1] + (f[1] * along + r[1] * side) * k)

    return {
        Arc.FRONT: [fl, fr, out(fr, 1, 1), out(fl, 1, -1)],
        Arc.RIGHT: [fr, rr, out(rr, -1, 1), out(fr, 1, 1)],
        Arc.REAR: [rr, rl, out(rl, -1, -1), out(rr, -1, 1)],
        Arc.LEFT: [rl, fl, out(fl, 1, -1), out(rl, -1, -1)],
    }


def footprint_corners_of(pose: Pose, width: float, depth: float) -> tuple[Point, Point, Point, Point]:
    """Corners front-left, front-right, rear-right, rear-left of a ``width`` x ``depth`` rectangle at ``pose``."""
    hw, hd = width / 2, depth / 2
    return (pose.to_world((-hw, hd)), pose.to_world((hw, hd)), pose.to_world((hw, -hd)), pose.to_world((-hw, -hd)))


def closest_point_on(polygon: Any, point: Point) -> Point:
    """The point of a shapely polygon closest to ``point`` (``point`` itself inside)."""
    import shapely
    from shapely.ops import nearest_points
    p = shapely.Point(point)
    if polygon.covers(p):
        return point
    q = nearest_points(polygon, p)[0]
    return (float(q.x), float(q.y))


def closest_points(a: Any, b: Any) -> tuple[Point, Point]:
    """A pair of closest points of two shapely polygons."""
    from shapely.ops import nearest_points
    p, q = nearest_points(a, b)
    return ((float(p.x), float(p.y)), (float(q.x), float(q.y)))


def scene_centre(scene: Any, uid: str) -> Point:
    """Centre of a unit's footprint."""
    c = scene.footprint(uid).centroid
    return (float(c.x), float(c.y))


def contact_side(state: GameState, target: str, side: Arc) -> tuple[Point, Point]:
    """The edge of ``target`` a charge on ``side`` contacts."""
    unit = state.units[target]
    assert unit.pose is not None
    return side_segment(unit.pose, unit.formation.width, unit.formation.depth, side)


def corners(unit: Unit, pose: Pose | None = None) -> list[Point]:
    """Footprint corners of ``unit`` (at ``pose``, default its own)."""
    p = pose or unit.pose
    assert p is not None
    return list(footprint_corners(p, unit.formation))
