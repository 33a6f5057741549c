"""Movement geometry: checking a move path and straight slides (rulebook "General Movement", "Pivoting",
"Impassable Terrain", "Difficult Terrain", "Dangerous Terrain", "Flight Moves", "Pursuit Moves",
"Consolidation Moves").

A unit's footprint is a rigid rectangle. While it translates in a straight line, the first moment it comes
within ``r`` inches of an obstacle is found exactly: the closest points of two polygons are always a vertex of
one and an edge of the other, and the set of positions of a moving point within ``r`` of a fixed edge is a
capsule, so the answer is the earliest entry of a moving vertex into a capsule (``geometry._vec.first_within``).
No stepping, no buffering. Obstacles are shrunk by ``CONTACT_TOL`` so touching is not overlapping.

Units already closer to an obstacle than a limit when the move starts may not get any closer, but may move
along or away; units already overlapping an obstacle ignore it (the rules never create that).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely import Polygon

from geometry.formation import rect_corners
from geometry.obstacles import (
    Obstacles,
    distances,
    first_times,
    first_times_many,
    gather,
    hull_gaps,
    overlapping,
    subset,
)
from geometry.pose import Point, Pose, forward_vector
from geometry.scene_data import SceneData, _UnitArrays
from geometry.shapes import CONTACT_TOL
from geometry.spatial import TERRAIN

TOL = CONTACT_TOL
EPS = 1e-9

PREFILTER = True
"""Whether ``check_path`` sets aside the obstacles no leg can come near before the exact kernels (separating axes,
see ``geometry.obstacles.hull_gaps``), and refuses a leg that surely runs into its one near obstacle without them
(``_surely_into``); the verdict is the same either way (tests compare the two)."""

RULE_TABLE_EDGE = "table edge"
"""Rule name: part of the unit would leave the table (rulebook "General Movement")."""
RULE_IMPASSABLE = "impassable terrain"
"""Rule name: the unit would move through impassable terrain (rulebook "Impassable Terrain")."""
RULE_THROUGH_UNIT = "through a unit"
"""Rule name: the unit would move through or onto another unit (rulebook "General Movement")."""
RULE_ONE_INCH = '1" from a unit'
"""Rule name: the unit would come within 1" of another unit (rulebook "General Movement")."""


_Fail = Callable[[str, str, "Point | Callable[[], Point]", str, int], None]
"""``fail(rule, message, where, blocker, step)``: ``where`` may be a function working the point out (when asked)."""


Crossed = tuple[frozenset[str], tuple[str, ...]]
"""Traits and names of the terrain pieces a path crosses (``MoveCheck.traits_crossed``, ``terrain_crossed``)."""


@dataclass(frozen=True, eq=False)
class MoveCheck:
    """The verdict of ``check_path``: the first rule the path breaks (if any) and what it crosses.

    The terrain crossed and the point where the path breaks a rule are worked out when first asked for
    (``crossing``, ``locate``): most callers of a refused path only read the verdict (a player trying moves).
    Two checks are equal when every answer is (the terrain crossed included)."""

    rule: str | None
    """Short rule name (``RULE_*``), None if the path is legal."""
    message: str | None
    """One sentence naming the unit or terrain piece, None if legal."""
    locate: Callable[[], Point | None] = field(repr=False)
    """Works out ``where`` (called once, when first needed)."""
    distance: float
    """Total straight-line travel of the unit's centre along the whole path, inches (pivots are free)."""
    crossing: Callable[[], Crossed] = field(repr=False)
    """Works out ``(traits_crossed, terrain_crossed)`` (called once, when first needed)."""
    blocker: str | None = None
    """Id of the unit or name of the terrain piece in the way ("table edge" for the edge); None if legal."""
    step: int | None = None
    """Index in ``path`` of the pose whose move or pivot breaks the rule (len(path) for the final position)."""

    @cached_property
    def _crossed(self) -> Crossed:
        return self.crossing()

    @cached_property
    def where(self) -> Point | None:
        """A point (inches) where the path breaks the rule, for the window; None if legal."""
        return self.locate()

    @property
    def traits_crossed(self) -> frozenset[str]:
        """Traits of every terrain piece the swept path (start and end footprints included) overlaps."""
        return self._crossed[0]

    @property
    def terrain_crossed(self) -> tuple[str, ...]:
        """Names of those pieces, in terrain index order."""
        return self._crossed[1]

    def _answers(self) -> tuple[object, ...]:
        return (self.rule, self.message, self.where, self.distance, self.traits_crossed, self.terrain_crossed,
                self.blocker, self.step)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MoveCheck) and self._answers() == other._answers()

    def __hash__(self) -> int:
        return hash(self._answers())

    @property
    def ok(self) -> bool:
        """True if the path breaks no rule."""
        return self.rule is None

    @property
    def problem(self) -> str | None:
        """``"rule: message"`` or None when legal."""
        return None if self.rule is None else f"{self.rule}: {self.message}"


@dataclass(frozen=True)
class SlideResult:
    """Where a straight slide ended and why (``slide``)."""

    pose: Pose
    """The final pose (same facing as the start)."""
    travelled: float
    """Distance moved, inches."""
    blocked_by: str | None
    """Unit id, terrain name or "table edge" that stopped the slide ``gap`` short; None otherwise."""
    contacted: str | None
    """Id of the ``stop_at`` unit the slide ended in contact with, or None."""
    off_table: bool
    """True if the unit reached or crossed the table edge with ``edge_exits`` (it flees the battlefield)."""
    traits_crossed: frozenset[str]
    """Traits of every terrain piece the swept footprint overlapped."""
    blocked_kind: str | None = None
    """"unit", "terrain" or "table edge" when ``blocked_by`` is set."""
    terrain_crossed: tuple[str, ...] = ()
    """Names of the terrain pieces overlapped, in index order."""


def _table_time(scene: SceneData, rect: np.ndarray, w: Point, margin: float) -> float:
    """First travel t >= 0 along ``w`` at which a corner comes within ``margin`` of the table edge (inf if never)."""
    best = math.inf
    limits = ((0, margin, scene.width - margin), (1, margin, scene.depth - margin))
    for axis, low, high in limits:
        wa = w[axis]
        for c in rect[:, axis]:
            if wa < -EPS:
                best = min(best, max(0.0, float(c - low) / -wa))
            elif wa > EPS:
                best = min(best, max(0.0, float(high - c) / wa))
    return best


def _sweep_polygon(rect: np.ndarray, w: Point, length: float) -> Polygon:
    """The area swept by the rectangle (4, 2) moving ``length`` along ``w``: the hull of start and end."""
    if length <= EPS:
        return Polygon(rect)
    end = rect + np.array(w) * length
    hull = shapely.convex_hull(shapely.multipoints(np.concatenate([rect, end])))
    assert isinstance(hull, Polygon)
    return hull


def _sweep_points(rect: np.ndarray, w: Point, length: float) -> np.ndarray:
    """The rectangle (4, 2) and, if it moves, where it ends: points whose hull is the swept area."""
    if length <= EPS:
        return rect
    return np.concatenate([rect, rect + np.array(w) * length])


@dataclass(frozen=True)
class _TerrainOutlines:
    """Every terrain piece's core as stacked outlines (for ``hull_gaps``), the directions normal to their edges,
    and which cores are convex (one ring equal to its hull); built once per table (``_terrain_outlines``)."""

    outlines: Obstacles
    normals: np.ndarray
    """(e, 2): the unit normal of each outline edge (edge j starts at ``outlines.a[j]``)."""
    lo: np.ndarray
    """(e,): the least projection of the edge's own core on its normal."""
    hi: np.ndarray
    """(e,): the greatest."""
    convex: np.ndarray

    def own_gaps(self, hulls: list[np.ndarray], pieces: list[int]) -> np.ndarray:
        """(len(pieces), hulls): the widest gap between each of the cores ``pieces`` (positions) and the convex
        hull of each point set along the core's own edge normals (with the hull's own, the separating axis test
        of a convex core)."""
        sizes = [len(h) for h in hulls]
        firsts = np.zeros(len(hulls), dtype=int)
        np.cumsum(sizes[:-1], out=firsts[1:])
        o = self.outlines
        edges = np.concatenate([np.arange(o.starts[i], o.starts[i] + o.sizes[i]) for i in pieces])
        counts = o.sizes[pieces]
        starts = np.zeros(len(pieces), dtype=int)
        np.cumsum(counts[:-1], out=starts[1:])
        proj = np.concatenate(hulls) @ self.normals[edges].T  # (points, edges)
        gap = np.maximum(self.lo[edges] - np.maximum.reduceat(proj, firsts, axis=0),
                         np.minimum.reduceat(proj, firsts, axis=0) - self.hi[edges])  # (hulls, edges)
        out: np.ndarray = np.maximum.reduceat(gap, starts, axis=1).T
        return out


def _terrain_outlines(scene: SceneData) -> _TerrainOutlines:
    hit = scene.shared.get("terrain-outlines")    # terrain alone: one for the scene and its copies
    if not isinstance(hit, _TerrainOutlines):
        geos = [scene.terrain_geo(i) for i in range(len(scene.terrain))]
        sizes = np.array([len(g.edges_a) for g in geos], dtype=int)
        starts = np.zeros(len(geos), dtype=int)
        np.cumsum(sizes[:-1], out=starts[1:])
        a = np.concatenate([g.edges_a for g in geos]) if geos else np.zeros((0, 2))
        b = np.concatenate([g.edges_b for g in geos]) if geos else np.zeros((0, 2))
        outlines = Obstacles(["terrain"] * len(geos), [g.piece.name for g in geos], [g.piece.shape for g in geos],
                             a, b, starts, sizes)
        convex = np.array([isinstance(c, Polygon) and not c.is_empty and not c.interiors
                           and abs(c.convex_hull.area - c.area) <= 1e-9 * max(1.0, c.area)
                           for c in scene.terrain_cores], dtype=bool)
        e = b - a
        length = np.hypot(e[:, 0], e[:, 1])
        ok = length > EPS
        normals = np.where(ok[:, None], np.stack([-e[:, 1], e[:, 0]], axis=1) / np.where(ok, length, 1.0)[:, None],
                           np.array([1.0, 0.0]))
        lo, hi = np.zeros(len(a)), np.zeros(len(a))
        for first, size in zip(starts.tolist(), sizes.tolist(), strict=True):
            part = slice(first, first + size)
            proj = a[part] @ normals[part].T  # (vertices, edges) of one piece
            lo[part], hi[part] = proj.min(axis=0), proj.max(axis=0)
        hit = _TerrainOutlines(outlines, normals, lo, hi, convex)
        scene.shared["terrain-outlines"] = hit
    return hit


@dataclass(frozen=True)
class _Position:
    """What every move check in one position shares (``_position``)."""

    outlines: Obstacles
    """Every unit (sorted ids), every impassable terrain piece, then every terrain piece: stacked cores for one
    ``hull_gaps`` pass. Unit outlines carry no polygon (``SceneData.footprint``)."""
    obstacles: Obstacles
    """The first ``len(obstacles)`` rows of ``outlines``: units and impassable terrain (``gather``'s order)."""
    index: dict[str, int]
    """Row of each unit."""
    source: object
    """The scene's stacked unit arrays it was built from (``SceneData.stacked``): while the scene keeps them (no
    unit added or removed), or a clone's scene has a copy with the same rows, a later position is these rows with
    the units' rows refreshed (``moved``)."""

    def moved(self, arrays: _UnitArrays) -> _Position:
        """This position with the unit rows read again from ``arrays`` (the same units, in the same rows: some
        moved); new arrays, so that a scene sharing this one (a clone's cache) keeps its own."""
        n = len(arrays.ids)
        o, obs = self.outlines, self.obstacles
        assert obs.boxes is not None and len(self.index) == n
        a, b, boxes = o.a.copy(), o.b.copy(), obs.boxes.copy()
        a[:4 * n] = arrays.cores.reshape(-1, 2)
        b[:4 * n] = arrays.cores_next.reshape(-1, 2)
        cores = arrays.cores.reshape(n, 4, 2)
        boxes[:n, :2] = cores.min(axis=1)
        boxes[:n, 2:] = cores.max(axis=1)
        e = len(obs.a)
        return _Position(Obstacles(o.kinds, o.keys, o.polys, a, b, o.starts, o.sizes),
                         Obstacles(obs.kinds, obs.keys, obs.polys, a[:e], b[:e], obs.starts, obs.sizes, boxes),
                         self.index, arrays)


@dataclass(frozen=True)
class _Fixed:
    """The terrain rows of every ``_Position`` of a table (``_fixed``): impassable pieces, then every core."""

    kinds: list[str]
    keys: list[str]
    polys: list[Polygon | None]
    a: np.ndarray
    b: np.ndarray
    sizes: np.ndarray
    """(impassable + all pieces,): edges of each row."""
    imp_sizes: np.ndarray
    """(impassable,): edges of each impassable piece."""
    imp_boxes: np.ndarray
    """(impassable, 4): bounding box of each impassable core."""


def _fixed(scene: SceneData) -> _Fixed:
    hit = scene.shared.get("move-fixed")      # terrain alone: one for the scene and its copies
    if not isinstance(hit, _Fixed):
        imp = [scene.terrain_geo(i) for i in scene.impassable_terrain]
        t = _terrain_outlines(scene).outlines
        imp_sizes = np.array([len(g.edges_a) for g in imp], dtype=int)
        imp_boxes = np.zeros((0, 4))
        if imp:
            imp_a = np.concatenate([g.edges_a for g in imp])
            firsts = np.zeros(len(imp), dtype=int)
            np.cumsum(imp_sizes[:-1], out=firsts[1:])
            imp_boxes = np.concatenate([np.minimum.reduceat(imp_a, firsts, axis=0),
                                        np.maximum.reduceat(imp_a, firsts, axis=0)], axis=1)
        polys: list[Polygon | None] = [g.piece.shape for g in imp]
        hit = _Fixed(["terrain"] * len(imp) + t.kinds, [g.piece.name for g in imp] + t.keys, polys + t.polys,
                     np.concatenate([*[g.edges_a for g in imp], t.a]), np.concatenate([*[g.edges_b for g in imp], t.b]),
                     np.concatenate([imp_sizes, t.sizes]).astype(int), imp_sizes, imp_boxes)
        scene.shared["move-fixed"] = hit
    return hit


def _position(scene: SceneData) -> _Position:
    """``_Position`` of the scene, kept in ``scene.cache`` until a unit moves (built from the scene's stacked unit
    arrays, which it updates unit by unit, and the terrain rows, built once: ``_fixed``). After a unit moves the
    last one (``scene.persistent``) gives all but the units' rows (``_Position.moved``)."""
    hit = scene.cache.get(("move-position",))
    if isinstance(hit, _Position):
        return hit
    arrays = scene.stacked()
    last = scene.persistent.get("move-position")
    if isinstance(last, _Position) and last.obstacles.boxes is not None and (
            last.source is arrays or last.index == arrays.index):   # the same units in the same rows (a clone's)
        hit = last.moved(arrays)
    else:
        n = len(arrays.ids)
        f = _fixed(scene)
        sizes = np.concatenate([np.full(n, 4, dtype=int), f.sizes])
        starts = np.zeros(len(sizes), dtype=int)
        np.cumsum(sizes[:-1], out=starts[1:])
        a = np.concatenate([arrays.cores.reshape(-1, 2), f.a])
        b = np.concatenate([arrays.cores_next.reshape(-1, 2), f.b])
        kinds = ["unit"] * n + f.kinds
        keys = list(arrays.ids) + f.keys
        polys: list[Polygon | None] = [None] * n + f.polys
        k = n + len(f.imp_sizes)
        e = 4 * n + int(f.imp_sizes.sum())
        boxes = None
        if k:  # a unit core's box: the least and greatest of its 4 corners (exact, as a reduction over its rows)
            cores = arrays.cores.reshape(n, 4, 2)
            boxes = np.concatenate([np.concatenate([cores.min(axis=1), cores.max(axis=1)], axis=1), f.imp_boxes])
        outlines = Obstacles(kinds, keys, polys, a, b, starts, sizes)
        obstacles = Obstacles(kinds[:k], keys[:k], polys[:k], a[:e], b[:e], starts[:k], sizes[:k], boxes)
        hit = _Position(outlines, obstacles, dict(arrays.index), arrays)
    scene.cache[("move-position",)] = hit
    scene.persistent["move-position"] = hit
    return hit


def _crossed_by_index(scene: SceneData, pts: np.ndarray) -> tuple[frozenset[str], tuple[str, ...]]:
    """``_crossed`` for one sweep, asked of the pymunk index alone (one sweep: cheaper than the separating axes)
    when a core's bounding box meets the sweep's."""
    boxes = scene.terrain_core_boxes
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if not scene.terrain or not ((boxes[:, 0] <= hi[0]) & (boxes[:, 2] >= lo[0])
                                 & (boxes[:, 1] <= hi[1]) & (boxes[:, 3] >= lo[1])).any():
        return frozenset(), ()
    # a sweep along neither side of the footprint is a hexagon with no straight-through vertex: no clean outline
    # needed (``geometry.spatial.convex_outline``)
    clean = False
    if len(pts) == 8:
        (ux, uy), (dx, dy) = pts[1] - pts[0], pts[4] - pts[0]
        cross, dot = abs(ux * dy - uy * dx), abs(ux * dx + uy * dy)
        size = math.hypot(ux, uy) * math.hypot(dx, dy)
        clean = cross > 1e-6 * size and dot > 1e-6 * size
    hits = scene.shape_index().overlapping(pts, TERRAIN, clean=clean)
    positions = sorted({int(k[1]) for k in hits})  # type: ignore[call-overload]
    traits: set[str] = set()
    for pos in positions:
        traits |= scene.terrain[pos].traits
    return frozenset(traits), tuple(scene.terrain[pos].name for pos in positions)


def _crossed(scene: SceneData, sweeps: list[np.ndarray], axes: np.ndarray | None = None, gaps: np.ndarray | None = None
             ) -> tuple[frozenset[str], tuple[str, ...]]:
    """Traits and names of the terrain pieces the sweeps (point sets whose convex hull is swept, see
    ``_sweep_points``) overlap: their cores meet the hull.

    ``axes`` (m, 2) must hold the directions normal to the sweeps' sides (``_axes``). With the cores' own edge
    normals they make the separating axis test exact for a convex core: a gap over 1e-9" on some axis, no
    overlap; below -1e-9" on every one, overlap. The rest (touching within 1e-9", or a core that is not convex)
    is asked of the scene's pymunk index (``geometry.spatial``). ``gaps`` (pieces, sweeps) may pass the gaps
    along ``axes`` when already measured."""
    if not scene.terrain:
        return frozenset(), ()
    t = _terrain_outlines(scene)
    if gaps is None:
        assert axes is not None
        gaps = hull_gaps(t.outlines, sweeps, axes)
    near = np.flatnonzero((gaps <= 1e-9).any(axis=1)).tolist()  # the others are clear of every sweep already
    if not near:
        return frozenset(), ()
    gaps = gaps.copy()
    gaps[near] = np.maximum(gaps[near], t.own_gaps(sweeps, near))
    inside = (gaps < -1e-9) & t.convex[:, None]
    ask = (gaps <= 1e-9) & ~inside
    found: set[int] = {int(i) for i in np.flatnonzero(inside.any(axis=1))}
    if ask.any():
        index = scene.shape_index()
        for j in np.flatnonzero(ask.any(axis=0)).tolist():
            undecided = set(np.flatnonzero(ask[:, j]).tolist())
            found.update(int(k[1]) for k in index.overlapping(sweeps[j], TERRAIN)
                         if k[1] in undecided)
    positions = sorted(found)
    traits: set[str] = set()
    for pos in positions:
        traits |= scene.terrain[pos].traits
    return frozenset(traits), tuple(scene.terrain[pos].name for pos in positions)


def _outline(scene: SceneData, obs: Obstacles, k: int) -> Polygon:
    """The full outline of obstacle ``k``: its polygon, or the unit's footprint."""
    poly = obs.polys[k]
    return scene.footprint(obs.keys[k]) if poly is None else poly


def _contact_point(scene: SceneData, obs: Obstacles, k: int, rect: np.ndarray, w: Point,
                   t: float | Callable[[], float]) -> Callable[[], Point]:
    """A function giving ``_near_point`` of the rectangle (4, 2) moved ``t`` along ``w`` and obstacle ``k``'s
    outline: worked out only when the point is asked for (a refused move's dearest step, which a player trying
    moves never reads), from the outline as it is now (a unit's footprint corners are captured: a unit moved
    since has new ones). ``t`` may be a function, called then too (the travel itself left to the exact kernel)."""
    poly = obs.polys[k]
    corners = scene.corners(obs.keys[k]) if poly is None else None

    def point() -> Point:
        travel = t() if callable(t) else t
        return _near_point(rect + np.array(w) * travel, poly if poly is not None else Polygon(corners))

    return point


def _near_point(rect: np.ndarray, poly: Polygon) -> Point:
    """The point of the rectangle nearest to ``poly`` (for showing where a rule breaks): ``nearest_points``'s first
    point, without its Python wrappers (a refused move's dearest step but the kernels)."""
    x, y = shapely.get_coordinates(shapely.shortest_line(shapely.polygons(rect), poly))[0].tolist()
    return (x, y)


def _rect_on_table(scene: SceneData, rect: np.ndarray) -> bool:
    """True if all corners (4, 2) lie on the table (1e-9" slack)."""
    xs: list[float]
    ys: list[float]
    xs, ys = rect.T.tolist()  # four corners: plain floats are quicker than numpy reductions
    return min(xs) >= -EPS and min(ys) >= -EPS and max(xs) <= scene.width + EPS and max(ys) <= scene.depth + EPS


def _no_deeper(d0: np.ndarray) -> np.ndarray:
    """Radii (per obstacle) a move may not enter, for a unit starting ``d0`` from each obstacle core: a little less
    than ``d0`` (it may not get closer than it was, beyond ``TOL / 2`` of slack, and a unit sunk into the contact
    tolerance may not sink deeper)."""
    out: np.ndarray = np.maximum(d0 - TOL / 2, d0 / 2)
    return out


def _radii(kinds: Sequence[str], d0: Sequence[float], exclusion: float) -> tuple[list[float], list[float]]:
    """The radii each obstacle (``kinds``, start distances ``d0``) may not be entered within: (collision, 1" rule),
    NaN where it is not judged. Plain floats (a few obstacles: quicker than a dozen numpy calls), the very
    operations of ``_no_deeper`` (``tests/geometry/test_motion.py`` checks them against the numpy form)."""
    pens: list[float] = []
    exs: list[float] = []
    for kind, d in zip(kinds, d0, strict=True):
        # overlapping a core at the start: not judged; touching (or sunk into the tolerance): no deeper
        pens.append(math.nan if d <= EPS else min(TOL / 2, max(d - TOL / 2, d / 2)))
        # exactly ``exclusion`` away is allowed (1e-6" slack); closer than at the start is not
        exs.append(min(exclusion + TOL - 1e-6, d - TOL / 2) if exclusion > 0 and kind == "unit"
                   and not d <= TOL / 2 else math.nan)
    return pens, exs


def _fmax(a: float, b: float) -> float:
    """``numpy.fmax`` of two floats: the larger, ignoring a NaN (NaN only if both are)."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return max(a, b)


def _bbox(rects: list[np.ndarray], grow: float) -> tuple[np.ndarray, np.ndarray]:
    allc = np.concatenate(rects)
    return allc.min(axis=0) - grow, allc.max(axis=0) + grow


def check_path(
    scene: SceneData,
    unit_id: str,
    start: Pose,
    path: Sequence[Pose],
    *,
    exclusion: float = 1.0,
    ignore_units: Collection[str] = (),
    fly_over: bool = False,
) -> MoveCheck:
    """Check the unit's move from ``start`` along ``path`` (rulebook "General Movement", "Pivoting", terrain).

    From the current pose the unit moves in a straight line to each pose's (x, y) keeping its facing, then pivots
    about its centre to that pose's facing (same x, y = a pivot in place). Rules checked, first failure wins:

    * every straight sweep stays on the table, does not overlap impassable terrain nor another unit's footprint
      ("table edge", "impassable terrain", "through a unit"); these are reported before the 1" rule;
    * with ``exclusion`` > 0 no sweep comes within ``exclusion`` inches of another unit ('1" from a unit');
      a unit already closer at ``start`` may not get closer than it was;
    * a pivot ignores terrain and units but the pivoted footprint must be on the table; the final footprint
      must not overlap impassable terrain or other units nor break the exclusion.

    Units in ``ignore_units`` (and the moving unit) are ignored completely. With ``fly_over`` (rulebook
    "Flying": moves through units and terrain) the straight sweeps are checked against the table edge only; the
    final position is checked as usual. The unit's formation comes from the scene. Returns a ``MoveCheck``
    (distance and terrain crossed cover the whole path even when it fails). Raises ``KeyError`` for an unknown unit.

    Answers are kept in ``scene.cache`` until a unit moves: the move a player checked and then makes is checked
    again by the rules when it is made (the same ``MoveCheck``, whose lazy answers depend on the terrain alone).
    """
    poses = [start, *path]
    key = ("check-path", unit_id, struct.pack(f"{3 * len(poses) + 1}d", exclusion,
                                              *[v for p in poses for v in (p.x, p.y, p.facing)]),
           frozenset(ignore_units), fly_over, PREFILTER)  # the very floats (-0.0 is not 0.0)
    hit = scene.cache.get(key)
    if isinstance(hit, MoveCheck):
        return hit
    check = _check_path(scene, unit_id, poses, exclusion, set(ignore_units), fly_over)
    if len(scene.cache) < KEPT_CHECKS:  # a window dragging a move checks a new path every frame: keep a bounded few
        scene.cache[key] = check
    return check


KEPT_CHECKS = 2000
"""``check_path`` keeps its answers while the scene's cache holds fewer entries than this."""


def _check_path(scene: SceneData, unit_id: str, poses: list[Pose], exclusion: float, ignore_units: set[str],
                fly_over: bool) -> MoveCheck:
    """``check_path`` worked out (``poses``: the start, then the path)."""
    path = poses[1:]
    formation = scene.formation(unit_id)
    width, depth = formation.width, formation.depth
    rects = list(np.array([rect_corners(p, width, depth) for p in poses]))  # one array, a (4, 2) view per pose
    ignore = ignore_units | {unit_id}
    legs: list[tuple[Point, float]] = []  # direction and length of each straight leg
    for p, q in zip(poses, path, strict=False):
        dx, dy = q.x - p.x, q.y - p.y
        length = math.hypot(dx, dy)
        legs.append(((dx / length, dy / length) if length > EPS else (0.0, 1.0), length))
    sweeps = [_sweep_points(r, w, length) for r, (w, length) in zip(rects, legs, strict=False)]
    # every obstacle on the table and every terrain core (kept until a unit moves), measured against all the
    # sweeps and footprints at once: columns, each leg's sweep, the final footprint, the footprint where each leg
    # starts; rows, the obstacles then the terrain cores (separating axes: a lower bound of each distance)
    pos = _position(scene)
    obs = pos.obstacles
    n = len(path)
    hulls = [*sweeps, rects[-1], *rects[:max(n, 1)]]
    gaps = hull_gaps(pos.outlines, hulls, _axes(rects, legs))
    terrain_gaps = gaps[len(obs):, :n + 1]

    def crossing() -> Crossed:  # terrain is fixed for a scene: the same answer whenever it is asked
        return _crossed(scene, hulls[:n + 1], gaps=terrain_gaps)

    gaps = gaps[:len(obs)]
    if not PREFILTER:  # every obstacle goes to the exact kernels
        gaps = np.full_like(gaps, -np.inf)
    # which obstacles each judged sweep (and the final footprint) can come near at all: the exact kernels below
    # skip the others (``reach`` bounds the radii they are judged by, with a margin)
    reach = max(exclusion, 0.0) + TOL + 1e-6
    keep = np.asarray(((gaps[:, n:n + 1] if fly_over else gaps[:, :n + 1]) <= reach).any(axis=1))
    for uid in ignore:  # the moving unit and those it ignores are no obstacles
        row = pos.index.get(uid)
        if row is not None:
            keep[row] = False
    if not keep.any():  # nothing near (an open field): no obstacle arrays to cut
        obs, gaps = _NO_OBSTACLES, gaps[:0]
    elif not keep.all():
        obs, gaps = subset(obs, keep), gaps[keep]
    near = gaps[:, n:n + 1] <= reach if fly_over else gaps[:, :n + 1] <= reach
    # the distance at the start matters only below exclusion + 1.5 TOL (see r_pen, r_ex)
    close = gaps[:, n + 1] <= max(exclusion, 0.0) + 2 * TOL
    # a footprint more than a hair from a core does not overlap it (``overlapping`` is needed for the others)
    touch = gaps[:, n + 1:] <= 1e-9
    touch_final = gaps[:, n] <= 1e-9
    nobs = len(obs)
    r_pen = np.full(nobs, TOL / 2)
    r_ex = np.full(nobs, np.nan)
    if nobs:
        d0 = [math.inf] * nobs
        if close.any():
            d0 = _start_distances_kept(scene, obs, rects[0], close, touch[:, 0], d0)
        pens, exs = _radii(obs.kinds, d0, exclusion)
        r_pen, r_ex = np.array(pens), np.array(exs)
        if PREFILTER:  # now each obstacle's own radii are known: a leg that keeps clear of them skips the kernels
            # NaN (never judged) compares False
            radius = np.array([[_fmax(a, b) + 1e-6] for a, b in zip(pens, exs, strict=True)])
            near = gaps[:, n:n + 1] <= radius if fly_over else gaps[:, :n + 1] <= radius

    rule: str | None = None
    message: str | None = None
    where: Point | Callable[[], Point] | None = None
    blocker: str | None = None
    step: int | None = None
    distance = 0.0

    def fail(r: str, msg: str, at: Point | Callable[[], Point], who: str, k: int) -> None:
        nonlocal rule, message, where, blocker, step
        if rule is None:
            rule, message, where, blocker, step = r, msg, at, who, k

    if not _rect_on_table(scene, rects[0]):
        fail(RULE_TABLE_EDGE, "the unit starts partly off the table", poses[0].xy, RULE_TABLE_EDGE, 0)
    for k, target in enumerate(path):
        w, length = legs[k]
        distance += length
        if rule is None:
            seg_obs = obs if not fly_over and near[:, k].any() else _NO_OBSTACLES
            _check_segment(scene, seg_obs, rects[k], w, length, r_pen, r_ex, exclusion, k, fail,
                           bool(touch[:, k].any()), gaps[:, k] if len(seg_obs) else None)
        if rule is None and target.facing != poses[k].facing:
            pivoted = rects[k + 1]
            if not _rect_on_table(scene, pivoted):
                out = max(pivoted.tolist(), key=lambda c: _outside(scene, c))
                fail(RULE_TABLE_EDGE, "the pivot takes the unit off the table", (out[0], out[1]), RULE_TABLE_EDGE, k)
    final = rects[-1]
    if rule is None:
        _check_segment(scene, obs if near[:, -1].any() else _NO_OBSTACLES, final, (0.0, 1.0), 0.0, r_pen, r_ex,
                       exclusion, len(path), fail, bool(touch_final.any()))
    def locate() -> Point | None:
        return where() if callable(where) else where

    return MoveCheck(rule, message, locate, distance, crossing, blocker, step)


def _start_distances_kept(scene: SceneData, obs: Obstacles, rect: np.ndarray, close: np.ndarray, touch: np.ndarray,
                          d0: list[float]) -> list[float]:
    """``d0`` with the distance from the rectangle (4, 2) to each obstacle core where ``close`` (0 where they
    overlap; ``touch``: may overlap), remembered in ``scene.cache`` per rectangle and obstacle until a unit moves.

    The distance from where a unit starts to an obstacle is the same for every path it tries from there (a
    player's tries, a charge search's candidates); it depends on the rectangle and that obstacle alone. Where the
    rectangle is more than a hair from a core (not ``touch``) they do not overlap, which ``overlapping`` would
    find too, so the value is the same whichever obstacles are measured together."""
    cache = scene.cache
    start = rect.tobytes()
    todo: list[int] = []
    keys: list[tuple[object, ...]] = []
    for i in np.flatnonzero(close).tolist():
        key: tuple[object, ...] = ("move-start-distance", start, obs.kinds[i], obs.keys[i])
        hit = cache.get(key)
        if isinstance(hit, float):
            d0[i] = hit
        else:
            todo.append(i)
            keys.append(key)
    if todo:
        pick = np.zeros(len(obs), dtype=bool)
        pick[todo] = True
        part = subset(obs, pick)
        overlap = _overlaps_kept(scene, part, rect) if touch[pick].any() else np.zeros(len(part), dtype=bool)
        for i, key, d in zip(todo, keys, distances(part, rect, overlap).tolist(), strict=True):
            d0[i] = cache[key] = d
    return d0


def _overlaps_kept(scene: SceneData, obs: Obstacles, rect: np.ndarray) -> np.ndarray:
    """``overlapping(obs, rect)``, remembered in ``scene.cache`` per rectangle and obstacle until a unit moves (a
    player's tries from one place ask it of the same rectangles: where each leg starts). Whether a rectangle
    overlaps a core depends on the two alone."""
    cache = scene.cache
    rect_key = rect.tobytes()
    keys: list[tuple[object, ...]] = [("move-overlap", rect_key, kind, key) for kind, key in zip(obs.kinds, obs.keys,
                                                                                              strict=True)]
    known = [cache.get(key) for key in keys]
    todo = [i for i, hit in enumerate(known) if not isinstance(hit, bool)]
    if todo:
        if len(todo) == len(obs):
            found: list[bool] = overlapping(obs, rect).tolist()
        else:
            pick = np.zeros(len(obs), dtype=bool)
            pick[todo] = True
            found = overlapping(subset(obs, pick), rect).tolist()
        for i, hit in zip(todo, found, strict=True):
            known[i] = cache[keys[i]] = hit
    return np.array(known, dtype=bool)


def _axes(rects: list[np.ndarray], legs: list[tuple[Point, float]]) -> np.ndarray:
    """Unit vectors (m, 2) to look for a separating axis along: the table's, each facing's (footprint sides) and
    the normal of each leg (the long sides of its sweep)."""
    axes: list[tuple[float, float]] = [(1.0, 0.0), (0.0, 1.0)]
    for r in rects:
        (x0, y0), (x1, y1) = r[:2].tolist()
        ux, uy = x1 - x0, y1 - y0
        n = math.hypot(ux, uy)
        if n > EPS:
            a = (ux / n, uy / n)
            if a not in axes:
                axes.extend([a, (-a[1], a[0])])
    for w, length in legs:
        if length > EPS:
            axes.append((-w[1], w[0]))
    return np.array(axes)


_NO_OBSTACLES = Obstacles([], [], [], np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, dtype=int),
                          np.zeros(0, dtype=int))
"""Nothing in the way (a flying unit's sweeps)."""


def _start_distances(obs: Obstacles, rect: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """(overlapping, distance) from the rectangle (4, 2) to each obstacle core; obstacles whose bounding box is
    farther than ``reach`` from the rectangle's get (False, inf) without the exact tests (most of them)."""
    assert obs.boxes is not None
    lo, hi = obs.boxes[:, :2], obs.boxes[:, 2:]
    rlo, rhi = rect.min(axis=0) - reach, rect.max(axis=0) + reach
    close = (lo[:, 0] <= rhi[0]) & (hi[:, 0] >= rlo[0]) & (lo[:, 1] <= rhi[1]) & (hi[:, 1] >= rlo[1])
    if not close.any():
        return np.zeros(len(obs), dtype=bool), np.full(len(obs), np.inf)
    overlap = overlapping(obs, rect)
    return overlap, distances(obs, rect, overlap)


def _outside(scene: SceneData, c: Sequence[float]) -> float:
    return max(-c[0], -c[1], c[0] - scene.width, c[1] - scene.depth)


def _check_segment(
    scene: SceneData,
    obs: Obstacles,
    rect: np.ndarray,
    w: Point,
    length: float,
    r_pen: np.ndarray,
    r_ex: np.ndarray,
    exclusion: float,
    k: int,
    fail: _Fail,
    may_overlap: bool = True,
    gaps: np.ndarray | None = None,
) -> None:
    """Report through ``fail`` the first rule a straight sweep breaks (private to ``check_path``).

    Collisions (table edge, impassable terrain, another unit) come first, in order of travel; then the 1" rule.
    ``may_overlap`` False: the rectangle is known to overlap no obstacle core (``overlapping`` is skipped).
    ``gaps`` (k,): ``hull_gaps`` of the obstacles and this sweep, when known (a sweep that surely runs into its one
    obstacle is refused without the exact kernel: ``_surely_into``).
    """
    hard: list[tuple[float, int, str, int]] = []  # (travel, priority, who, obstacle index or -1)
    on_table = length <= EPS or _sweep_on_table(scene, rect, w, length)
    if not on_table:
        t_edge = _table_time(scene, rect, w, 0.0)
        if t_edge < length - EPS:
            hard.append((t_edge, 0, RULE_TABLE_EDGE, -1))
    if (PREFILTER and on_table and gaps is not None and len(obs) == 1 and gaps[0] < -1e-9 and length > EPS
            and not math.isnan(r_pen[0]) and _surely_into(scene, obs, rect, w, length)):
        # the one obstacle it comes near, entered for sure: nothing else can come first, so its travel (the exact
        # kernel's, for the point shown) is worked out only if that point is asked for
        rule = RULE_THROUGH_UNIT if obs.kinds[0] == "unit" else RULE_IMPASSABLE
        def travel() -> float:   # the exact kernel's, from the obstacle as it is now (its arrays are this check's)
            return float(first_times(obs, rect, w, r_pen, overlapping(obs, rect))[0])

        fail(rule, _message(rule, obs.keys[0], k), _contact_point(scene, obs, 0, rect, w, travel), obs.keys[0], k)
        return
    overlap = (_overlaps_kept(scene, obs, rect) if may_overlap else np.zeros(len(obs), dtype=bool)) if len(obs) \
        else None
    t_ex: np.ndarray | None = None
    if len(obs):
        if exclusion > 0:  # both radii in one pass of the kernel (the 1" one is needed whenever nothing collides)
            t_pen, t_ex = first_times_many(obs, rect, w, [r_pen, r_ex], overlap)
        else:
            t_pen = first_times(obs, rect, w, r_pen, overlap)
        for i in np.flatnonzero(t_pen <= length + EPS):
            hard.append((float(t_pen[i]), 2 if obs.kinds[i] == "unit" else 1, obs.keys[i], int(i)))
    if hard:
        t, prio, who, j = min(hard, key=lambda h: (h[0], h[1], h[2]))
        at: Point | Callable[[], Point]
        if j < 0:
            corner = min(rect.tolist(), key=lambda c: _table_time(scene, np.array([c]), w, 0.0))
            at = (corner[0] + w[0] * t, corner[1] + w[1] * t)
        else:
            at = _contact_point(scene, obs, j, rect, w, t)
        rule = (RULE_TABLE_EDGE, RULE_IMPASSABLE, RULE_THROUGH_UNIT)[prio]
        fail(rule, _message(rule, who, k), at, who, k)
        return
    if t_ex is not None:
        hits = np.flatnonzero(t_ex <= length + EPS)
        if len(hits):
            first = min([int(i) for i in hits], key=lambda i: (float(t_ex[i]), obs.keys[i]))
            who = obs.keys[first]
            fail(RULE_ONE_INCH, _message(RULE_ONE_INCH, who, k, exclusion),
                 _contact_point(scene, obs, first, rect, w, float(t_ex[first])), who, k)


_SWEEP_CORE = np.array([0, 8])
"""Where the sweep's points and the core's vertices start in ``_surely_into``'s projections."""


def _surely_into(scene: SceneData, obs: Obstacles, rect: np.ndarray, w: Point, length: float) -> bool:
    """True if the rectangle (4, 2) moving ``length`` along ``w`` surely enters the core of obstacle 0 of ``obs``:
    both convex (a unit's core, or a convex terrain core) and overlapping by more than 1e-9" along every one of
    their edge normals (the separating axis test: no axis separates them). False when unsure (the exact kernel
    decides)."""
    core_a, core_b = obs.a, obs.b
    if obs.polys[0] is not None and not _convex(scene, obs.keys[0], core_a, core_b):
        return False
    e = len(core_a)
    # the normals of the core's edges, of the rectangle's sides and of the travel (the sweep's sides)
    sides = np.empty((e + 3, 2))
    sides[:e] = core_b - core_a
    sides[e:e + 2] = rect[1:3] - rect[0:2]
    sides[e + 2] = w
    norm = np.hypot(sides[:, 0], sides[:, 1])
    if not norm.min() > EPS:
        return False
    axes = sides[:, ::-1] / norm[:, None]
    axes[:, 0] *= -1.0
    points = np.empty((8 + e, 2))  # the sweep's points (start and end rectangles), then the core's vertices
    points[:4] = rect
    points[4:8] = rect + np.array(w) * length
    points[8:] = core_a
    proj = axes @ points.T
    lo = np.minimum.reduceat(proj, _SWEEP_CORE, axis=1)
    hi = np.maximum.reduceat(proj, _SWEEP_CORE, axis=1)
    return bool((hi.min(axis=1) - lo.max(axis=1)).min() > 1e-9)


def _convex(scene: SceneData, name: str, a: np.ndarray, b: np.ndarray) -> bool:
    """The terrain core ``name`` whose edges run from ``a`` (e, 2) to ``b`` is one closed ring turning one way at
    every vertex (convex); remembered for the table (terrain does not move; two pieces may share a name, so the
    edges are part of the key)."""
    kept = scene.shared.setdefault("move-convex", {})
    assert isinstance(kept, dict)
    key = (name, a.tobytes())
    hit = kept.get(key)
    if hit is None:
        ring = len(a) >= 3 and bool((b == np.roll(a, -1, axis=0)).all())
        d = b - a
        turn = d[:, 0] * np.roll(d[:, 1], -1) - d[:, 1] * np.roll(d[:, 0], -1)
        hit = kept[key] = ring and bool((turn >= 0).all() or (turn <= 0).all())
    return bool(hit)


def _sweep_on_table(scene: SceneData, rect: np.ndarray, w: Point, length: float) -> bool:
    """True if the rectangle (4, 2) stays on the table all along its straight move: start and end on it, no slack
    (then no corner reaches an edge before the end: ``_table_time`` is not needed)."""
    xs: list[float]
    ys: list[float]
    xs, ys = rect.T.tolist()  # plain floats, the very sums numpy would make (``rect + w * length``)
    dx, dy = w[0] * length, w[1] * length
    xs += [x + dx for x in xs]
    ys += [y + dy for y in ys]
    return min(xs) >= 0.0 and min(ys) >= 0.0 and max(xs) <= scene.width and max(ys) <= scene.depth


def _message(rule: str, who: str, k: int, exclusion: float = 1.0) -> str:
    if rule == RULE_TABLE_EDGE:
        return f"leg {k + 1} of the move leaves the table"
    if rule == RULE_IMPASSABLE:
        return f"leg {k + 1} of the move crosses impassable terrain {who!r}"
    if rule == RULE_THROUGH_UNIT:
        return f"leg {k + 1} of the move passes through unit {who!r}"
    return f'leg {k + 1} of the move comes within {exclusion:g}" of unit {who!r}'


def slide(
    scene: SceneData,
    unit_id: str,
    start: Pose,
    bearing: float,
    distance: float,
    *,
    gap: float = 1.0,
    stop_at: Collection[str] = (),
    ignore_units: Collection[str] = (),
    edge_exits: bool = False,
) -> SlideResult:
    """Move the unit's footprint from ``start`` in a straight line along ``bearing`` (degrees) up to ``distance``
    inches, keeping ``start.facing`` (rulebook "Flight Moves", "Pursuit Moves", "Consolidation Moves").

    * It stops ``gap`` inches short of the first other unit or impassable terrain in the way (``blocked_by``);
      an obstacle already closer than ``gap`` stops it only if it would get closer still.
    * If it would touch a unit in ``stop_at`` before anything stops it and within ``distance``, it stops in base
      contact with it (``contacted``); otherwise ``stop_at`` units are obstacles like the others (it never ends
      within ``gap`` of one without touching it).
    * The table edge: with ``edge_exits`` reaching or crossing it sets ``off_table`` (the pose is where it touched
      the edge); otherwise it stops ``gap`` short of the edge (``blocked_by="table edge"``).

    Units in ``ignore_units`` are ignored. Exact (analytic), not stepped. Raises ``ValueError`` for a negative
    ``distance`` or ``gap``, ``KeyError`` for an unknown unit.
    """
    if distance < 0 or gap < 0:
        raise ValueError(f"slide distance and gap must not be negative, got {distance}, {gap}")
    formation = scene.formation(unit_id)
    rect = np.array(rect_corners(start, formation.width, formation.depth))
    w = forward_vector(bearing)
    ignore = set(ignore_units) | {unit_id}
    lo, hi = _bbox([rect, rect + np.array(w) * distance], gap + 2 * TOL)
    obs = gather(scene, ignore, lo, hi)
    stop_set = set(stop_at)
    t_stop = float(distance)
    blocked_by: str | None = None
    blocked_kind: str | None = None
    contacted: str | None = None
    off_table = False
    t_edge = _table_time(scene, rect, w, 0.0 if edge_exits else gap)
    if len(obs):
        overlap, d0 = _start_distances(obs, rect, gap + 2 * TOL)
        is_target = np.array([k == "unit" and key in stop_set for k, key in zip(obs.kinds, obs.keys, strict=True)])
        # every obstacle stops the slide ``gap`` short (or, if already closer, before it gets closer still)
        radii = np.where(d0 <= EPS, np.nan, np.minimum(gap + TOL, _no_deeper(d0)))
        t_gap = first_times(obs, rect, w, radii, overlap)
        others = [j for j in range(len(obs)) if not is_target[j]]
        targets = [j for j in range(len(obs)) if is_target[j]]
        t_block = min([float(t_gap[j]) for j in others], default=math.inf)
        if targets:
            # a stop_at unit is contacted if the slide reaches it before anything else stops it, the other stop_at
            # units included (it must not pass within ``gap`` of one without touching it)
            t_touch = first_times(obs, rect, w, np.where(is_target, TOL, np.nan), overlap)
            first = min(targets, key=lambda j: (float(t_touch[j]), obs.keys[j]))
            t_other = min([float(t_gap[j]) for j in targets if j != first], default=math.inf)
            if float(t_touch[first]) <= min(t_block, t_other, t_edge, t_stop) + EPS:
                t_stop = max(0.0, float(t_touch[first]))
                contacted = obs.keys[first]
        if contacted is None:
            j = min(range(len(obs)), key=lambda j: (float(t_gap[j]), obs.keys[j]))
            if float(t_gap[j]) <= t_stop + EPS and float(t_gap[j]) <= t_edge + EPS:
                t_stop = max(0.0, float(t_gap[j]))
                blocked_by, blocked_kind = obs.keys[j], obs.kinds[j]
    if contacted is None and blocked_by is None and t_edge <= t_stop + EPS:
        t_stop = max(0.0, min(t_edge, t_stop))
        if edge_exits:
            off_table = True
        else:
            blocked_by = blocked_kind = RULE_TABLE_EDGE
    t_stop = float(t_stop)
    pose = Pose(start.x + w[0] * t_stop, start.y + w[1] * t_stop, start.facing)
    traits, names = _crossed_by_index(scene, _sweep_points(rect, w, t_stop))
    return SlideResult(pose, t_stop, blocked_by, contacted, off_table, traits, blocked_kind, names)
