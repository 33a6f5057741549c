"""Charge paths: reaching a side of the target with at most one pivot (rulebook "Charging", "Charge Moves",
"Pivoting", "Measuring Movement", "General Movement").

A charge may move in straight legs, pivot once by up to 90 degrees at any point, and on reaching the target
closes the gap and shuffles sideways to maximise frontage. This module searches such a path:

    start --leg 1 (start facing)--> P, pivot (<= 90) --leg 2--> Q (first contact), wheel flush, shuffle --> end

* **Contact** ``Q``: the charger, at its approach facing, touches the side with its front edge: either one of its
  front corners lies on the side, or an end of the side lies on its front edge (the charger hangs past the
  target's corner). Both approach without overlapping the target (a line through the contact point separates
  the two rectangles).
* **Closing the gap**: the charger wheels about the point of contact until its front edge lies along the side
  (at most ``max_closing`` degrees); like any pivot it ignores what it swings through, but where it ends must be
  clear. It then shuffles along the side to ``end`` (the contact position with the most frontage,
  ``geometry.contact.best_flush_pose``). Closing and shuffling are not counted in the distance moved.
* **Travel**: the straight travel of the centre along legs 1 and 2; it must be within the allowance. Pivots are
  not counted (rulebook "Pivoting"), so for translations this is how far every point of every base moved.

The returned ``path`` is a list of poses in the form ``check_path`` takes (move straight keeping the facing,
then pivot about the centre). The wheel is written as: step back from the side along its normal if needed, pivot
about the centre to the flush facing, step straight onto the flush position the wheel reaches; pivots ignore
units and terrain, so only the footprints where the unit stands and the short straight steps are judged, and
the end point is exactly the wheel's. The path is accepted by ``check_path`` with exclusion 0 ignoring the
target, and it never enters the target (the search tests the target as an obstacle).

Candidates, tried in a fixed order so that the answer is deterministic:

1. straight: pivot at the start (or not at all) and move to contact; move with the start facing, pivot at
   contact. Each aims either at the contact that wheels straight into ``end`` or at the nearest contact;
2. two legs through way points: ahead along the start facing, toward ``end``, and around the corners of the
   obstacles that blocked the straight candidates, grown by half the footprint's diagonal (one more round with
   the obstacles those paths run into). Shortest travel first.

Candidates are screened with the scene's pymunk index (``geometry.spatial``: the hull of each straight sweep
against unit and terrain cores); the first that passes is confirmed with ``check_path``. Terrain with
``capped_traits`` (difficult) is avoided, and routed around, when the path is longer than ``capped_allowance``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import shapely
from shapely import Polygon

from geometry.arcs import Arc, side_segment
from geometry.motion import MoveCheck, check_path
from geometry.pose import Point, Pose, bearing_difference, forward_vector, normalise_bearing, right_vector
from geometry.scene_data import SceneData
from geometry.spatial import IMPASSABLE, TERRAIN, UNIT

EPS = 1e-9
MIN_FRONTAGE = 0.01
"""Inches of front edge that must end along the side (as ``geometry.contact.MIN_FRONTAGE``)."""
WAYPOINT_MARGIN = 0.05
"""Inches added to half the footprint diagonal when growing obstacle corners into way points."""
MAX_CANDIDATES = (20, 12)
"""Most two-leg candidates screened in each round of way points (shortest first)."""

PERSISTENT_WAYPOINTS = 4096
"""Most way point lists kept across unit moves (by terrain piece or unit pose, footprint size and facing)."""

Key = tuple[str, object]
"""An obstacle: ("unit", id) or ("terrain", position in ``scene.terrain``); ("table", None) for the edge."""
TABLE_KEY: Key = ("table", None)


@dataclass(frozen=True)
class ChargePath:
    """A charge path found by ``find_charge_path``."""

    path: tuple[Pose, ...]
    """Poses for ``check_path`` from the start: legs, the pivot, the closing wheel and the shuffle to ``end``."""
    travel: float
    """Straight travel of the centre up to contact (legs 1 and 2), inches: what counts against the allowance."""
    pivot: float
    """Signed degrees of the one pivot before contact (clockwise positive; 0 if none)."""
    closing: float
    """Signed degrees of the wheel that closes the gap at contact (0 if the charger arrives flush)."""
    turn_at: Point
    """Where the pivot is made (the centre), or the start if there is none."""
    contact: Pose
    """The charger's pose at first contact (its approach facing)."""
    check: MoveCheck
    """``check_path`` verdict on ``path`` (exclusion 0, target ignored): distance and terrain crossed."""


@dataclass(frozen=True)
class ChargeSearch:
    """What ``find_charge_path`` found, or why it found nothing."""

    found: ChargePath | None
    """The path, or None."""
    blocked: MoveCheck | None = None
    """Without a path (and with ``explain``): ``check_path``'s verdict on the first straight candidate."""
    shortest: float | None = None
    """Without a path: the shortest straight candidate's travel when it is beyond the allowance."""
    capped: bool = False
    """Without a path: a path within the allowance was turned down because it crosses ``capped_traits`` terrain
    and is longer than ``capped_allowance``."""
    screened: int = 0
    """Candidates screened (for tests and benchmarks)."""


def _add(p: Point, q: Point, k: float = 1.0) -> Point:
    return (p[0] + k * q[0], p[1] + k * q[1])


def _dist(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


@dataclass
class _Side:
    """The contacted side in its own frame: s along ``e`` (the charger's right when flush) from ``a``, h along the
    outward normal ``n``."""

    a: Point
    e: Point
    n: Point
    length: float
    facing: float
    """Facing of a flush charger."""

    def world(self, s: float, h: float) -> Point:
        a, e, n = self.a, self.e, self.n
        return (a[0] + s * e[0] + h * n[0], a[1] + s * e[1] + h * n[1])

    def local(self, p: Point) -> tuple[float, float]:
        rx, ry = p[0] - self.a[0], p[1] - self.a[1]
        return rx * self.e[0] + ry * self.e[1], rx * self.n[0] + ry * self.n[1]


@dataclass
class _Approach:
    """Contact poses for one approach facing: centres along a polyline in ``c``, the s-coordinate of the centre
    of the front edge once the wheel has made it flush."""

    facing: float
    pivot: float
    closing: float
    c_lo: float
    c_hi: float
    knots: list[tuple[float, Point]]
    """(c, centre) at the ends and the bend of the polyline, c increasing."""

    def at(self, c: float) -> Point:
        """Centre of the contact pose for ``c`` (clamped to the polyline)."""
        ks = self.knots
        last = len(ks) - 2
        for i in range(last + 1):
            (c0, p0), (c1, p1) = ks[i], ks[i + 1]
            if c <= c1 or i == last:
                t = 0.0 if c1 - c0 <= EPS else min(max((c - c0) / (c1 - c0), 0.0), 1.0)
                return (p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))
        return ks[0][1]

    def nearest(self, p: Point) -> float:
        """The c whose contact centre is nearest to ``p``."""
        return self.nearest_and_distance(p)[0]

    def nearest_and_distance(self, p: Point) -> tuple[float, float]:
        """The c whose contact centre is nearest to ``p``, and that distance."""
        c, d, _ = self.nearest_point(p)
        return c, d

    def nearest_point(self, p: Point) -> tuple[float, float, Point]:
        """The c whose contact centre is nearest to ``p``, that distance and that centre."""
        best_c, best_d, best_q = self.c_lo, math.inf, self.knots[0][1]
        ks = self.knots
        for i in range(len(ks) - 1):
            (c0, p0), (c1, p1) = ks[i], ks[i + 1]
            sx, sy = p1[0] - p0[0], p1[1] - p0[1]
            ll = sx * sx + sy * sy
            t = 0.0 if ll <= EPS else min(max(((p[0] - p0[0]) * sx + (p[1] - p0[1]) * sy) / ll, 0.0), 1.0)
            qx, qy = p0[0] + t * sx, p0[1] + t * sy
            dd = math.hypot(p[0] - qx, p[1] - qy)
            if dd < best_d - 1e-12:
                best_c, best_d, best_q = c0 + t * (c1 - c0), dd, (qx, qy)
        return best_c, best_d, best_q


@dataclass
class _Candidate:
    via: Point | None
    """End of leg 1 (where the pivot is made), None for the start."""
    approach: _Approach
    c: float
    pivot_at_contact: bool
    travel: float
    order: int


class _Sweeps:
    """Screening of straight sweeps (and standing footprints) against the other units (the target included) and
    impassable terrain, and of the terrain pieces with ``capped`` traits they cross, with the scene's pymunk
    index (``geometry.spatial``). Obstacles the unit already overlaps at the start are not judged (as
    ``check_path``)."""

    def __init__(self, scene: SceneData, unit_id: str, start: Pose, width: float, depth: float,
                 capped: Collection[str]) -> None:
        self.scene = scene
        self.width, self.depth = width, depth
        self.index = scene.shape_index()
        self.impassable = set(scene.impassable_terrain)
        wanted = set(capped)
        self.capped = {i for i, t in enumerate(scene.terrain) if t.traits & wanted}
        self.mask = UNIT | IMPASSABLE | (TERRAIN if self.capped else 0)
        self._offsets: dict[float, list[Point]] = {}
        self.unit_id = unit_id
        at_start = self.index.overlapping(self.rect(start), self.mask, unit_id)
        self.skip = set(at_start)
        self.start_capped = [k for k in at_start if k[0] == "terrain" and k[1] in self.capped]
        self._memo: dict[tuple[float, ...], tuple[tuple[Key, ...], tuple[int, ...]]] = {}

    def rect(self, pose: Pose) -> list[Point]:
        """Footprint corners at ``pose`` (offsets cached per facing)."""
        offs = self._offsets.get(pose.facing)
        if offs is None:
            fx, fy = forward_vector(pose.facing)
            rx, ry = right_vector(pose.facing)
            hw, hd = self.width / 2, self.depth / 2
            offs = [(u * rx + v * fx, u * ry + v * fy) for u, v in ((-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd))]
            self._offsets[pose.facing] = offs
        return [(pose.x + ox, pose.y + oy) for ox, oy in offs]

    def _on_table(self, pts: list[Point]) -> bool:
        w, d = self.scene.width + EPS, self.scene.depth + EPS
        return all(-EPS <= x <= w and -EPS <= y <= d for x, y in pts)

    def sweep(self, pose: Pose, to: Point, judged: bool = True) -> tuple[tuple[Key, ...], tuple[int, ...]]:
        """The footprint at ``pose`` moving straight to ``to`` (same facing): (obstacles it enters, sorted, or
        ``TABLE_KEY`` if it leaves the table; capped terrain positions it crosses). Unless ``judged`` only the
        table edge counts (a flyer's legs)."""
        key = (round(pose.x, 7), round(pose.y, 7), round(pose.facing, 7), round(to[0], 7), round(to[1], 7),
               float(judged))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._sweep(pose, to, judged)
            self._memo[key] = hit
        return hit

    def _sweep(self, pose: Pose, to: Point, judged: bool) -> tuple[tuple[Key, ...], tuple[int, ...]]:
        rect = self.rect(pose)
        dx, dy = to[0] - pose.x, to[1] - pose.y
        moved = math.hypot(dx, dy) > EPS
        end = [(x + dx, y + dy) for x, y in rect] if moved else []
        if not self._on_table(rect) or not self._on_table(end):
            return (TABLE_KEY,), ()
        if not judged:
            return (), ()
        blockers: list[Key] = []
        capped: list[int] = []
        # a move along neither side of the footprint sweeps a hexagon with no straight-through vertex: the index
        # needs no clean outline (``geometry.spatial.convex_outline``) -- the other moves get one
        clean = False
        if moved:
            fx, fy = forward_vector(pose.facing)
            size = math.hypot(dx, dy)  # sine and cosine of the angle between the move and the facing:
            clean = abs(dx * fy - dy * fx) > 1e-6 * size and abs(dx * fx + dy * fy) > 1e-6 * size
        for k in self.index.overlapping(rect + end, self.mask, self.unit_id, clean=clean):
            if k in self.skip:
                continue
            if k[0] == "unit":
                blockers.append(k)
            else:
                pos = k[1]
                assert isinstance(pos, int)
                if pos in self.impassable:
                    blockers.append(k)
                if pos in self.capped:
                    capped.append(pos)
        return tuple(blockers), tuple(capped)


def _side(scene: SceneData, target_id: str, side: Arc) -> _Side:
    tp, tf = scene.pose(target_id), scene.formation(target_id)
    a, b = side_segment(tp, tf.width, tf.depth, side)
    facing = normalise_bearing(tp.facing + side.outward_bearing + 180.0)
    fx, fy = forward_vector(facing)
    return _Side(a, right_vector(facing), (-fx, -fy), _dist(a, b), facing)


def _approach(side: _Side, width: float, depth: float, facing: float, pivot: float) -> _Approach | None:
    """Contact poses at approach ``facing`` (see ``_Approach``); None if the side is too short."""
    alpha = math.radians(bearing_difference(side.facing, facing))  # facing = flush facing + alpha
    ca, sa = math.cos(alpha), math.sin(alpha)
    w, d, length = width, depth, side.length
    c_lo, c_hi = -w / 2 + MIN_FRONTAGE, length + w / 2 - MIN_FRONTAGE
    if c_hi < c_lo:
        return None

    def centre_for(u: float, s_at: float) -> Point:
        """Centre that puts the front-edge point at u (right of the centre) on the side at s = ``s_at``."""
        return side.world(s_at - (u * ca + (d / 2) * sa), -(u * sa - (d / 2) * ca))

    if abs(alpha) < 1e-9:  # flush: the whole front edge arrives at once
        cs = [c_lo, c_hi]
        knots = [(c, side.world(c, d / 2)) for c in cs]
    elif alpha > 0:
        # the front-left corner is lowest: it touches the side at s = p (the flush edge's left end, c = p + w/2);
        # with p < 0 the side's left end touches the front edge, -p from its left end
        def at_left(c: float) -> Point:
            p = c - w / 2
            return centre_for(-w / 2, p) if p >= 0 else centre_for(-w / 2 - p, 0.0)

        cs = [c_lo, w / 2, c_hi] if c_lo < w / 2 < c_hi else [c_lo, c_hi]
        knots = [(c, at_left(c)) for c in cs]
    else:
        # mirrored: the front-right corner touches at s = p (the flush edge's right end), or the side's right end
        # touches the front edge
        def at_right(c: float) -> Point:
            p = c + w / 2
            return centre_for(w / 2, p) if p <= length else centre_for(w / 2 - (p - length), length)

        bend = length - w / 2
        cs = [c_lo, bend, c_hi] if c_lo < bend < c_hi else [c_lo, c_hi]
        knots = [(c, at_right(c)) for c in cs]
    return _Approach(normalise_bearing(facing), pivot, -math.degrees(alpha), c_lo, c_hi, knots)


def _approaches(side: _Side, width: float, depth: float, f0: float, max_pivot: float,
                max_closing: float) -> list[_Approach]:
    """Approach facings: flush (pivot only), unturned (wheel only), and the mixes that pivot least and most."""
    turn = bearing_difference(f0, side.facing)
    sign = 1.0 if turn >= 0 else -1.0
    options: list[float] = []
    if abs(turn) <= max_pivot + EPS:
        options.append(turn)  # pivot to the flush facing, arrive flush
    if abs(turn) <= max_closing + EPS:
        options.append(0.0)  # no pivot, wheel at contact
    if max_closing + EPS < abs(turn) <= max_pivot + max_closing + EPS:
        options.append(turn - sign * max_closing)  # the least pivot
    if max_pivot + EPS < abs(turn) <= max_pivot + max_closing + EPS:
        options.append(sign * max_pivot)  # the most pivot
    out: list[_Approach] = []
    seen: set[float] = set()
    for pivot in options:
        key = round(pivot, 6)
        if key in seen:
            continue
        seen.add(key)
        a = _approach(side, width, depth, f0 + pivot, pivot)
        if a is not None:
            out.append(a)
    return out


def _side_and_approaches(scene: SceneData, target_id: str, side: Arc, width: float, depth: float, facing: float,
                         max_pivot: float, max_closing: float) -> tuple[_Side, list[_Approach]]:
    """``_side`` and ``_approaches``, kept in ``scene.cache`` until a unit moves (``charge_reach`` and the search
    ask for the same ones). Never modified by their users."""
    key = ("charge-approaches", target_id, side, width, depth, facing, max_pivot, max_closing)
    hit = scene.cache.get(key)
    if hit is None:
        s = _side(scene, target_id, side)
        hit = (s, _approaches(s, width, depth, facing, max_pivot, max_closing))
        scene.cache[key] = hit
    return hit  # type: ignore[return-value]


def _minkowski_corners(hull: object, offsets: list[Point]) -> list[Point]:
    """Corners of the convex region where a footprint with corner ``offsets`` (from its centre) would overlap the
    convex ``hull`` (their Minkowski difference), pushed out by ``WAYPOINT_MARGIN`` / 2."""
    coords = list(getattr(getattr(hull, "exterior", None), "coords", []))[:-1]
    if len(coords) < 3:
        return []
    if len(coords) > 8:
        coords = list(hull.minimum_rotated_rectangle.exterior.coords)[:-1]  # type: ignore[attr-defined]
    ring = _minkowski([(float(x), float(y)) for x, y in coords], [(-ox, -oy) for ox, oy in offsets])
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    out = []
    for x, y in ring:
        d = math.hypot(x - cx, y - cy)
        m = WAYPOINT_MARGIN / 2 / d if d > EPS else 0.0
        out.append((x + (x - cx) * m, y + (y - cy) * m))
    return out


def _ccw_from_bottom(poly: list[Point]) -> list[Point]:
    """The convex polygon counter-clockwise, starting at its lowest (then leftmost) vertex."""
    area = sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1] for i in range(len(poly)))
    if area > 0:  # clockwise (the sum above is minus twice the signed area)
        poly = poly[::-1]
    k = min(range(len(poly)), key=lambda i: (poly[i][1], poly[i][0]))
    return poly[k:] + poly[:k]


def _minkowski(a: list[Point], b: list[Point]) -> list[Point]:
    """Minkowski sum of two convex polygons (any orientation): its vertices counter-clockwise, merging the edges
    by direction; (nearly) collinear vertices dropped (relative 1e-9), so turning the inputs gives the turned
    answer."""
    p, q = _ccw_from_bottom(a), _ccw_from_bottom(b)
    n, m = len(p), len(q)
    p, q = p + p[:2], q + q[:2]
    out: list[Point] = []
    i = j = 0
    while i < n or j < m:
        out.append((p[i][0] + q[j][0], p[i][1] + q[j][1]))
        ex, ey = p[i + 1][0] - p[i][0], p[i + 1][1] - p[i][1]
        fx, fy = q[j + 1][0] - q[j][0], q[j + 1][1] - q[j][1]
        c = ex * fy - ey * fx
        if abs(c) <= 1e-9 * math.hypot(ex, ey) * math.hypot(fx, fy):
            c = 0.0
        if c >= 0 and i < n:
            i += 1
        if c <= 0 and j < m:
            j += 1
    # drop collinear vertices
    ring: list[Point] = []
    k = len(out)
    for idx in range(k):
        o, a1, b1 = out[idx - 1], out[idx], out[(idx + 1) % k]
        ax, ay, bx, by = a1[0] - o[0], a1[1] - o[1], b1[0] - a1[0], b1[1] - a1[1]
        if abs(ax * by - ay * bx) > 1e-9 * math.hypot(ax, ay) * math.hypot(bx, by):
            ring.append(a1)
    return ring


def _dedupe(start: Pose, poses: list[Pose]) -> list[Pose]:
    """Drop poses that neither move nor turn (keeping the later of two that coincide)."""
    out: list[Pose] = []
    cur = start
    for p in poses:
        if math.hypot(p.x - cur.x, p.y - cur.y) <= 1e-9 and abs(bearing_difference(cur.facing, p.facing)) <= 1e-9:
            if out:
                out[-1] = p
            continue
        out.append(p)
        cur = p
    return out


class _Search:
    def __init__(self, scene: SceneData, unit_id: str, start: Pose, target_id: str, side: Arc, end: Pose,
                 allowance: float, max_pivot: float, max_closing: float, fly_over: bool,
                 capped_traits: Collection[str], capped_allowance: float, explain: bool) -> None:
        f = scene.formation(unit_id)
        self.scene, self.unit_id, self.start, self.target_id, self.end = scene, unit_id, start, target_id, end
        self.width, self.depth = f.width, f.depth
        self.allowance = allowance
        self.capped_traits = frozenset(capped_traits)
        self.capped_allowance = capped_allowance
        self.fly_over = fly_over
        self.explain = explain
        self.side, self.approaches = _side_and_approaches(scene, target_id, side, self.width, self.depth,
                                                          start.facing, max_pivot, max_closing)
        self.s0: Point = start.xy
        self.half_diag = math.hypot(self.width, self.depth) / 2
        self.sweeps = _Sweeps(scene, unit_id, start, self.width, self.depth, () if fly_over else capped_traits)
        self.c_end = self.side.local(end.xy)[0]
        self.screened = 0
        self.shortest: float | None = None
        self.capped = False
        self.blockers: list[Key] = []
        self._seen: set[tuple[float, float, int, float]] = set()

    # ------------------------------------------------------------------------------------------ candidates
    def _candidate(self, via: Point | None, ap: _Approach, c: float, order: int,
                   pivot_at_contact: bool = False) -> _Candidate | None:
        if not ap.c_lo - EPS <= c <= ap.c_hi + EPS:
            return None
        q = ap.at(c)
        if pivot_at_contact:
            via = q
        p = self.s0 if via is None else via
        return _Candidate(via, ap, c, pivot_at_contact, _dist(self.s0, p) + _dist(p, q), order)

    def straight(self) -> list[_Candidate]:
        """Pivot at the start (or not at all), or at contact; aiming at ``end`` or at the nearest contact."""
        out: list[_Candidate] = []
        k = 0
        for ap in self.approaches:
            cs = [self.c_end, ap.nearest(self.s0)]
            for at_contact in ((False, True) if abs(ap.pivot) > EPS else (False,)):
                for c in cs:
                    cand = self._candidate(None, ap, c, k, at_contact)
                    k += 1
                    if cand is not None:
                        out.append(cand)
        return out

    def waypoints(self, blockers: list[Key], first: bool) -> list[Point]:
        pts: list[Point] = []
        if first:
            fwd = forward_vector(self.start.facing)
            ex, ey = self.end.x - self.s0[0], self.end.y - self.s0[1]
            for frac in (0.25, 0.5, 0.75):
                pts.append(_add(self.s0, fwd, frac * self.allowance))
            pts.append((self.s0[0] + 0.5 * ex, self.s0[1] + 0.5 * ey))
        for k in blockers:
            pts.extend(self._grown_corners(k))
        return pts

    def _grown_corners(self, k: Key) -> list[Point]:
        """Way points around obstacle ``k``: the corners of the places the footprint's centre cannot enter (the
        obstacle's hull grown by the footprint at the start facing and at the flush facing, plus a hair), and
        the hull grown by half the footprint's diagonal (mitred), where the footprint clears it turned any way."""
        # kept across unit moves and by every copy of the scene (bounded), keyed by what they depend on: the piece,
        # or the unit where it stands
        cache = self.scene.shared.setdefault("charge-waypoints", {})
        assert isinstance(cache, dict)
        if len(cache) > PERSISTENT_WAYPOINTS:
            cache.clear()
        if k[0] == "unit":
            uid = str(k[1])
            poly = self.scene.footprint(uid)
            ident: object = (uid, self.scene.pose(uid), self.scene.formation(uid))
        else:
            assert isinstance(k[1], int)
            poly = self.scene.terrain[k[1]].shape
            ident = k[1]
        out: list[Point] = []
        hulls: list[object] = []

        def hull() -> object:
            if not hulls:
                hulls.append(poly.convex_hull)
            return hulls[0]

        for facing in dict.fromkeys([self.start.facing, self.side.facing]):  # the start and the flush facing
            key = ("charge-waypoints", k[0], ident, self.width, self.depth, round(facing, 9))
            hit = cache.get(key)
            if hit is None:
                hit = _minkowski_corners(hull(), self.sweeps.rect(Pose(0.0, 0.0, facing)))
                cache[key] = hit
            assert isinstance(hit, list)
            out.extend(p for p in hit if p not in out)
        radius = self.half_diag + WAYPOINT_MARGIN
        round_key = ("charge-waypoints", k[0], ident, round(radius, 6))
        hit = cache.get(round_key)
        if hit is None:
            grown = shapely.buffer(hull(), radius, join_style="mitre", mitre_limit=2.0)
            pts: list[Point] = []
            if isinstance(grown, Polygon):
                if len(grown.exterior.coords) > 13:
                    grown = shapely.simplify(grown, 0.25)
                pts = [(float(x), float(y)) for x, y in list(grown.exterior.coords)[:-1]]
            hit = pts
            cache[round_key] = hit
        assert isinstance(hit, list)
        out.extend(hit)
        return out

    def two_legs(self, points: list[Point], order0: int, limit: int) -> list[_Candidate]:
        """Candidates through ``points``, shortest travel first (at most ``limit``)."""
        out: list[_Candidate] = []
        seen = self._seen
        k = order0
        allowance = self.allowance + EPS
        ends = [(ap, ap.at(self.c_end) if ap.c_lo - EPS <= self.c_end <= ap.c_hi + EPS else None)
                for ap in self.approaches]
        for p in points:
            leg1 = _dist(self.s0, p)
            if leg1 >= self.allowance or leg1 <= 1e-6:
                continue
            for i, (ap, q_end) in enumerate(ends):
                c_near, d_near, _ = ap.nearest_point(p)
                if leg1 + d_near > allowance:
                    continue  # no contact of this approach within reach through p
                options = [(c_near, d_near)]
                if q_end is not None:
                    options.insert(0, (self.c_end, _dist(p, q_end)))
                for c, d in options:
                    if leg1 + d > allowance:
                        continue
                    seen_key = (p[0], p[1], i, c)
                    if seen_key in seen:
                        continue
                    seen.add(seen_key)
                    out.append(_Candidate(p, ap, c, False, leg1 + d, k))
                    k += 1
        # shortest first; ties broken in the start pose's own frame, so that turning or shifting the whole table
        # does not change the choice
        start = self.start

        def order(cd: _Candidate) -> tuple[float, float, float, float, float]:
            u, v = start.to_local(cd.via if cd.via is not None else start.xy)
            return (round(cd.travel, 6), u, v, cd.approach.pivot, cd.c)

        out.sort(key=lambda cd: cd.travel)
        if len(out) > limit:  # keep ties at the cut together
            cut = round(out[limit - 1].travel, 6)
            out = [cd for cd in out if round(cd.travel, 6) <= cut]
        out.sort(key=order)
        return out[:limit]

    # ------------------------------------------------------------------------------------------ screening
    def poses(self, cand: _Candidate) -> tuple[list[Pose], Pose, Point, Point]:
        """check_path poses, the contact pose, the back-off point and the wheel's flush centre."""
        ap, side = cand.approach, self.side
        phi, flush = ap.facing, side.facing
        q = ap.at(cand.c)
        p = self.s0 if cand.via is None else cand.via
        d = self.depth
        wheel = side.world(cand.c, d / 2)
        out: list[Pose] = []
        if cand.via is not None or abs(ap.pivot) > EPS:
            out.append(Pose(p[0], p[1], phi if abs(ap.pivot) > EPS else self.start.facing))
        contact = Pose(q[0], q[1], phi)
        # the wheel: step back along the normal if the footprint pivoted about its centre would cross the side
        back = max(0.0, d / 2 - side.local(q)[1]) if abs(ap.closing) > EPS else 0.0
        qb = _add(q, side.n, back + 1e-7) if back > 0 else q
        if abs(ap.closing) > EPS:
            if back > 0:
                out.append(contact)
            out.append(Pose(qb[0], qb[1], flush))
            out.append(Pose(wheel[0], wheel[1], flush))
        else:
            out.append(Pose(q[0], q[1], flush))
        e = self.end
        if _dist(out[-1].xy, e.xy) > 1e-7:
            out.append(e)
        else:
            out[-1] = e  # exactly where the contact position is
        return _dedupe(self.start, out), contact, qb, wheel

    def screen(self, cand: _Candidate) -> tuple[bool, list[Key]]:
        """Sweep tests of the candidate: (clear, obstacles that blocked leg 1 or 2 -- capped terrain included when
        the path is too long for it)."""
        self.screened += 1
        ap = cand.approach
        sw = self.sweeps
        judged = not self.fly_over  # a flyer passes over everything; only where it ends counts
        too_long = cand.travel > self.capped_allowance + EPS
        if too_long and sw.start_capped:
            return False, []
        p = self.s0 if cand.via is None else cand.via
        q = ap.at(cand.c)
        phi_pose = Pose(p[0], p[1], ap.facing)
        legs: list[tuple[Pose, Point]] = []
        if cand.via is not None:  # leg 1, start facing
            legs.append((self.start, p))
        if cand.pivot_at_contact:
            if abs(ap.pivot) > EPS:  # the pivoted footprint (otherwise leg 2's sweep starts with it)
                legs.append((phi_pose, p))
        else:  # leg 2, approach facing
            legs.append((phi_pose, q))
        for pose, to in legs:
            blocked, capped = sw.sweep(pose, to, judged)
            if blocked:
                return False, list(blocked)
            if capped and too_long:
                return False, [("terrain", pos) for pos in capped]
        _, _, qb, wheel = self.poses(cand)
        flush = self.side.facing
        steps: list[tuple[Pose, Point]] = []
        if abs(ap.closing) > EPS:
            if _dist(qb, q) > 1e-9:
                steps.append((Pose(q[0], q[1], ap.facing), qb))
            steps.append((Pose(qb[0], qb[1], flush), wheel))  # the pivoted footprint, then onto the side
        steps.append((Pose(wheel[0], wheel[1], flush), self.end.xy))
        for pose, to in steps:
            blocked, capped = sw.sweep(pose, to, judged)
            if blocked or (capped and too_long):
                return False, []
        if not judged and sw.sweep(self.end, self.end.xy, True)[0]:
            return False, []
        return True, []

    def confirm(self, cand: _Candidate) -> ChargePath | None:
        poses, contact, _, _ = self.poses(cand)
        check = check_path(self.scene, self.unit_id, self.start, poses, exclusion=0.0,
                           ignore_units=[self.target_id], fly_over=self.fly_over)
        if not check.ok or cand.travel > self.allowance + EPS:
            return None
        if self.capped_traits & check.traits_crossed and cand.travel > self.capped_allowance + EPS:
            self.capped = True
            return None
        ap = cand.approach
        p = self.s0 if cand.via is None else cand.via
        turn_at = p if abs(ap.pivot) > EPS else self.s0
        return ChargePath(tuple(poses), cand.travel, ap.pivot, ap.closing, turn_at, contact, check)

    def _try(self, cands: list[_Candidate]) -> ChargePath | None:
        for cand in cands:
            if cand.travel > self.allowance + EPS:
                self.shortest = cand.travel if self.shortest is None else min(self.shortest, cand.travel)
                continue
            ok, hit = self.screen(cand)
            for k in hit:
                if k != TABLE_KEY and k not in self.blockers:
                    self.blockers.append(k)
                if k[0] == "terrain" and k[1] in self.sweeps.capped:
                    self.capped = True
            if ok:
                found = self.confirm(cand)
                if found is not None:
                    return found
        return None

    def fails_fast(self, straight: list[_Candidate]) -> ChargeSearch | None:
        """A verdict of "no path" reached without screening any candidate, or None when the search must run.

        Every candidate's travel is at least ``reach``, the distance from the start to the nearest contact pose of
        any approach (leg 1 then leg 2 is never shorter than the straight line). So the search finds nothing if
        (1) ``reach`` is beyond the allowance (no candidate is within it), or (2) ``reach`` is beyond the capped
        allowance and the unit stands in, or ``end`` lies in, capped terrain (every candidate crosses it and is
        too long for it: ``screen`` turns down each). ``found`` is exactly the full search's (None); ``shortest``
        is the straight candidates' as in the full search, ``screened`` 0."""
        reach = min((ap.nearest_point(self.s0)[1] for ap in self.approaches), default=math.inf)
        beyond = [cd.travel for cd in straight if cd.travel > self.allowance + EPS]
        shortest = min(beyond) if beyond else None
        if reach > self.allowance + EPS:
            return ChargeSearch(None, shortest=shortest)
        sw = self.sweeps
        if sw.capped and reach > self.capped_allowance + EPS:
            if sw.start_capped:
                return ChargeSearch(None, shortest=shortest)
            at_end = sw.index.overlapping(sw.rect(self.end), sw.mask, self.unit_id)
            if any(k[0] == "terrain" and k[1] in sw.capped and k not in sw.skip for k in at_end):
                return ChargeSearch(None, shortest=shortest, capped=True)
        return None

    def run(self) -> ChargeSearch:
        straight = self.straight()
        if not self.explain:
            quick = self.fails_fast(straight)
            if quick is not None:
                return quick
        found = self._try(straight)
        tried: set[Key] = set()
        order = 1000
        for rnd, limit in enumerate(MAX_CANDIDATES):
            if found is not None:
                break
            fresh = [k for k in self.blockers if k not in tried]
            if rnd > 0 and not fresh:
                break
            tried.update(fresh)
            found = self._try(self.two_legs(self.waypoints(fresh, rnd == 0), order, limit))
            order += 10000
        if found is not None:
            return ChargeSearch(found, screened=self.screened)
        blocked = None
        if self.explain and straight:
            blocked = check_path(self.scene, self.unit_id, self.start, self.poses(straight[0])[0], exclusion=0.0,
                                 ignore_units=[self.target_id], fly_over=self.fly_over)
        return ChargeSearch(None, blocked, self.shortest, self.capped, self.screened)


def charge_reach(scene: SceneData, unit_id: str, start: Pose, target_id: str, side: Arc, max_pivot: float = 90.0,
                 max_closing: float = 45.0) -> float:
    """A lower bound of the travel (inches) of any path ``find_charge_path`` can find from ``start`` to ``side``
    of ``target_id`` with the same ``max_pivot`` and ``max_closing``: the distance from the start centre to the
    nearest contact pose of any approach facing (a path's legs are never shorter than the straight line to its
    contact). ``math.inf`` when no approach facing is within the turns. Cheap: no obstacle is looked at."""
    f = scene.formation(unit_id)
    _, approaches = _side_and_approaches(scene, target_id, side, f.width, f.depth, start.facing, max_pivot,
                                         max_closing)
    return min((ap.nearest_point(start.xy)[1] for ap in approaches), default=math.inf)


def find_charge_path(
    scene: SceneData,
    unit_id: str,
    start: Pose,
    target_id: str,
    side: Arc,
    end: Pose,
    allowance: float,
    *,
    max_pivot: float = 90.0,
    max_closing: float = 45.0,
    fly_over: bool = False,
    capped_traits: Collection[str] = (),
    capped_allowance: float = math.inf,
    explain: bool = True,
) -> ChargeSearch:
    """Search a charge path from ``start`` to the flush pose ``end`` on ``side`` of ``target_id`` (see the module
    docstring): at most one pivot of up to ``max_pivot`` degrees, then a wheel of up to ``max_closing`` degrees
    at contact and a shuffle along the side, all clear of units (the target included) and impassable terrain,
    with at most ``allowance`` inches of travel up to contact. A path crossing terrain with any of
    ``capped_traits`` (e.g. difficult) must also travel at most ``capped_allowance``.

    ``fly_over``: the legs pass over units and terrain (rulebook "Flying"); only where the unit ends counts.
    ``explain``: when nothing is found, run ``check_path`` on the first straight candidate for ``blocked``.
    Without ``explain`` a search that cannot succeed is cut short before screening (``_Search.fails_fast``: cheap
    lower bounds of the travel); ``found`` is always the same, ``capped`` and ``screened`` may differ.
    The unit's footprint size comes from the scene (its pose there is not used). Deterministic; answers are
    kept in ``scene.cache`` until a unit moves.
    """
    key = ("charge-path", unit_id, start, target_id, side, end, allowance, max_pivot, max_closing, fly_over,
           tuple(sorted(capped_traits)), capped_allowance, explain)
    hit = scene.cache.get(key)  # the scene forgets it when any unit is set or removed
    if isinstance(hit, ChargeSearch):
        return hit
    result = _Search(scene, unit_id, start, target_id, side, end, allowance, max_pivot, max_closing, fly_over,
                     capped_traits, capped_allowance, explain).run()
    scene.cache[key] = result
    return result
