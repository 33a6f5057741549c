"""Line of sight and cover (rulebook "Line of Sight", "Unit Facing", "Cover Terrain", terrain guidelines).

Definitions (inches, degrees):

* A *sight line* is a straight segment. It is blocked by the footprint (perimeter) of any unit other than the
  looking and target units, by ``blocking`` terrain whose outline it crosses (a line wholly inside such a piece
  is not blocked: models only stand in blocking terrain that is also passable), and by ``see_into_not_through``
  terrain (forests) it crosses when neither end lies inside that piece. Shapes are shrunk by ``CONTACT_TOL``
  first, so a line grazing a perimeter is not blocked.
* A looker whose footprint lies more than half on ``elevated`` terrain (a hill) ignores one obstacle: a line is
  clear for it when it crosses at most one blocking unit or terrain piece.
* A looker *model* sees a target *model* when one of the target base's sample points (its centre and its four
  corners) lies in the looker base's 45 degree front arc (``geometry.arcs``) and the sight line from the looker
  base's centre to that point is clear.
* Cover: see ``in_cover``.

How it is computed: all obstacles (unit cores, sight terrain) are stacked as edges (``_World``: terrain once per
scene, the units' rows refreshed in place when they move). For a looker and a target only obstacles within the
capsule around the segment between the two unit centres can cross a line between them; sight lines are tested
against those edges with numpy in batches (probe lines for all targets at once, then the shadow proof, then the
exhaustive search, base centres first), stopping at the first clear line when one is enough (docs/geometry.md).
Answers are cached in ``SceneData.cache`` until a unit moves.

All functions take a ``SceneData`` (usually a ``Scene``) and unit ids; unknown ids raise ``KeyError``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import lru_cache

import numpy as np
import shapely

from geometry._vec import Edges, rect_distance
from geometry.formation import Formation, model_offsets
from geometry.pose import Point, Pose, forward_vector, right_vector
from geometry.scene_data import SceneData
from geometry.terrain import BLOCKING, COVER

CHUNK = 32768
"""Most sight lines x obstacle edges tested per numpy batch (a search starts with an eighth of it and doubles):
small enough to stop soon after the first clear line, large enough to make few numpy calls. Large temporaries
are cheap since ``geometry._vec`` tunes the allocator (they were fresh pages, 5-10x slower, before)."""


class _Terrain:
    """The sight terrain of a scene stacked once (terrain never changes)."""

    def __init__(self, scene: SceneData) -> None:
        self.positions = sorted(set(scene.los_terrain) | set(scene.cover_terrain))
        geos = [scene.terrain_geo(pos) for pos in self.positions]
        self.sizes = [len(g.edges_a) for g in geos]
        self.a = np.concatenate([g.edges_a for g in geos]) if geos else np.zeros((0, 2))
        self.b = np.concatenate([g.edges_b for g in geos]) if geos else np.zeros((0, 2))
        lo = np.array([g.bbox[:2] for g in geos]).reshape(-1, 2)
        hi = np.array([g.bbox[2:] for g in geos]).reshape(-1, 2)
        self.centres = (lo + hi) / 2
        self.radii = np.hypot(*((hi - lo) / 2).T) if geos else np.zeros(0)
        los = set(scene.los_terrain)
        self.blocks = [pos in los for pos in self.positions]
        self.convex = {
            pos: bool(core.area >= core.convex_hull.area - 1e-9)
            for pos, core in ((pos, scene.terrain_cores[pos]) for pos in self.positions)
        }

    @staticmethod
    def of(scene: SceneData) -> _Terrain:
        t = scene.shared.get("sight-terrain")     # terrain alone: one for the scene and its copies
        if not isinstance(t, _Terrain):
            t = _Terrain(scene)
            scene.shared["sight-terrain"] = t
        return t


class _World:
    """Every sight obstacle of a scene stacked for vectorised tests (private).

    Obstacles are the units (sorted ids) followed by the terrain pieces that block sight or give cover. The
    terrain part is stacked once per scene; when units move (same units) only their rows are copied again
    (``refresh``); when units come or go the world is rebuilt.
    """

    def __init__(self, scene: SceneData) -> None:
        arrays = scene.arrays()
        self.arrays = arrays
        self.version = scene.version
        self.unit_ids = arrays.ids
        self.unit_index = arrays.index
        nu = len(arrays.ids)
        self.n_units = nu
        ter = _Terrain.of(scene)
        self.terrain = ter.positions
        self.sizes = np.array([4] * nu + ter.sizes, dtype=int)
        self.a = np.concatenate([arrays.cores.reshape(-1, 2), ter.a])
        self.b = np.concatenate([arrays.cores_next.reshape(-1, 2), ter.b])
        self.owner = np.repeat(np.arange(len(self.sizes)), self.sizes)
        self.centres = np.concatenate([np.zeros((nu, 2)), ter.centres])
        self.radii = np.concatenate([np.zeros(nu), ter.radii])
        self._unit_circles()
        self.blocks = np.array([True] * nu + ter.blocks, dtype=bool)
        """Per obstacle: can it block sight (units, blocking and see-into terrain)?"""
        self.convex = ter.convex
        """Per sight terrain position: is its core convex?"""

    def _unit_circles(self) -> None:
        nu = self.n_units
        bb = self.arrays.bboxes
        lo, hi = bb[:, :2], bb[:, 2:]
        self.centres[:nu] = (lo + hi) / 2
        self.radii[:nu] = np.hypot(*((hi - lo) / 2).T) if nu else 0.0

    def refresh(self, scene: SceneData) -> None:
        """Copy the units' moved outlines in (same units as when built)."""
        nu = self.n_units
        self.a[: 4 * nu] = self.arrays.cores.reshape(-1, 2)
        self.b[: 4 * nu] = self.arrays.cores_next.reshape(-1, 2)
        self._unit_circles()
        self.version = scene.version

    @staticmethod
    def of(scene: SceneData) -> _World:
        """The scene's world, up to date."""
        arrays = scene.arrays()
        world = scene.persistent.get("sight-world")
        if not isinstance(world, _World) or world.arrays is not arrays:
            world = _World(scene)
            scene.persistent["sight-world"] = world
        elif world.version != scene.version:
            world.refresh(scene)
        return world

    def near_segments(self, p: np.ndarray, rp: float, q: np.ndarray, rq: np.ndarray) -> np.ndarray:
        """Obstacles that may meet the hull of a disc (p, rp) and discs (q[t], rq[t]): bool (t, obstacles).

        Conservative: the obstacle's bounding circle comes within max(rp, rq) of the segment p-q[t].
        """
        d = q - p  # (t, 2)
        ll = np.einsum("ij,ij->i", d, d)
        rel = self.centres - p  # (k, 2)
        t = np.clip((d @ rel.T) / np.where(ll > 0, ll, 1.0)[:, None], 0.0, 1.0)  # (t, k)
        cx = rel[None, :, 0] - t * d[:, 0:1]
        cy = rel[None, :, 1] - t * d[:, 1:2]
        out: np.ndarray = np.hypot(cx, cy) <= self.radii[None, :] + np.maximum(rp, rq)[:, None] + 1e-9
        return out


class _Obstacles:
    """A selection of the world's obstacles, stacked as edges ready for ``segments_hit``."""

    def __init__(self, scene: SceneData, world: _World, selected: np.ndarray, with_cover: bool) -> None:
        """``selected``: bool per world obstacle. Without ``with_cover`` only sight blockers are kept."""
        if not with_cover:
            selected = selected & world.blocks
        self.scene = scene
        self.world = world
        self.index = np.flatnonzero(selected)
        """World obstacle index of each selected obstacle (units first)."""
        self.n_units = int(np.count_nonzero(self.index < world.n_units))
        emask = selected[world.owner]
        self.edges_set = Edges(world.a[emask], world.b[emask])
        sizes = world.sizes[self.index]
        self.edges = int(sizes.sum())
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int) if len(sizes) else sizes
        self.unit_only = self.n_units == len(self.index)
        self.terrain_cols = [
            (col, world.terrain[int(k) - world.n_units]) for col, k in enumerate(self.index) if k >= world.n_units
        ]
        # sight semantics per terrain column: "block" crosses block, "parity" blocks on two or more crossings
        # (convex see-into pieces), "inside" needs an end-inside test (other see-into pieces)
        self.modes = {
            col: "block" if BLOCKING in scene.terrain[pos].traits else "parity" if world.convex[pos] else "inside"
            for col, pos in self.terrain_cols
        }
        # crossings that block, per column, for sight without cover: units and "block" pieces 1, "parity" 2,
        # "inside" 1 then an end test; cover-only pieces never
        thr = [1] * self.n_units
        for col, _ in self.terrain_cols:
            if not world.blocks[self.index[col]]:
                thr.append(127)
            else:
                thr.append(2 if self.modes[col] == "parity" else 1)
        self.threshold = np.array(thr, dtype=np.int8)
        self.inside_cols = [(col, pos) for col, pos in self.terrain_cols
                            if self.modes[col] == "inside" and world.blocks[self.index[col]]]
        self._proof: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @property
    def empty(self) -> bool:
        """True if there is nothing that could block or cover."""
        return self.edges == 0

    def chunk(self) -> int:
        """How many lines to test per batch."""
        return max(16, CHUNK // max(1, self.edges))

    def solid_crossings(self, p: np.ndarray, q: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(n, selected) bool: segment i crosses obstacle k. Only meaningful for obstacles that block whatever
        the ends are (units, convex terrain holding neither end): ``mask`` (n, selected) must switch the others
        off."""
        hit = self.edges_set.hit(p, q)
        out: np.ndarray = np.logical_or.reduceat(hit, self.starts, axis=1) & mask
        return out

    def unsafe_for_proof(self, boxes: np.ndarray) -> np.ndarray:
        """(boxes, selected) bool: terrain columns the shadow proof must not use for a pair whose units lie in
        ``boxes`` (minx, miny, maxx, maxy): non-convex pieces, and pieces whose bounding box meets a box (an end
        might lie inside them)."""
        out = np.zeros((len(boxes), len(self.index)), dtype=bool)
        if not self.terrain_cols:
            return out
        if self._proof is None:
            cols = np.array([col for col, _ in self.terrain_cols])
            bbs = np.array([self.scene.terrain_geo(pos).bbox for _, pos in self.terrain_cols])
            concave = np.array([not self.world.convex[pos] for _, pos in self.terrain_cols])
            self._proof = (cols, bbs, concave)
        cols, bb, concave = self._proof
        out[:, cols] = (
            (boxes[:, 0:1] <= bb[None, :, 2]) & (boxes[:, 2:3] >= bb[None, :, 0])
            & (boxes[:, 1:2] <= bb[None, :, 3]) & (boxes[:, 3:4] >= bb[None, :, 1])
        ) | concave[None, :]
        return out

    def counts_and_crossings(self, p: np.ndarray, q: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For segments p[i]-q[i] (n, 2) and per-line obstacle ``mask`` (n, selected): (number of sight obstacles
        each crosses, as ``hits``; which obstacles each crosses at all (n, selected) bool, masked)."""
        n = len(p)
        if n == 0 or self.empty:
            return np.zeros(n, dtype=int), np.zeros((n, len(self.index)), dtype=bool)
        hit = self.edges_set.hit(p, q)
        if self.unit_only:
            per = hit.reshape(n, self.n_units, 4).any(axis=2)
            per &= mask
            return per.sum(axis=1), per
        crossings = np.add.reduceat(hit.view(np.int8), self.starts, axis=1)
        crossings *= mask
        blocked = crossings >= self.threshold
        for col, pos in self.inside_cols:
            rows = np.flatnonzero(blocked[:, col])
            if len(rows):
                blocked[rows, col] = ~(_inside(self.scene, pos, p[rows]) | _inside(self.scene, pos, q[rows]))
        return np.count_nonzero(blocked, axis=1), crossings > 0

    def hits(
        self, p: np.ndarray, q: np.ndarray, with_cover: bool = False, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """For segments p[i]-q[i] (n, 2): (number of sight obstacles each crosses, whether each crosses cover).

        ``mask`` (n, selected) switches obstacles off per line. The cover flag is True when the segment crosses
        another unit, sight-blocking terrain, or a ``cover`` piece that does not contain its start ``p`` (the
        looker's end); it is computed only when ``with_cover``.
        """
        n = len(p)
        covered = np.zeros(n, dtype=bool)
        if n == 0 or self.empty:
            return np.zeros(n, dtype=int), covered
        hit = self.edges_set.hit(p, q)
        nu = self.n_units
        if self.unit_only:
            per = hit.reshape(n, nu, 4).any(axis=2)
            if mask is not None:
                per &= mask
            counts: np.ndarray = per.sum(axis=1)
            return counts, (counts > 0) if with_cover else covered
        crossings = np.add.reduceat(hit.view(np.int8), self.starts, axis=1)  # (n, obstacles)
        if mask is not None:
            crossings *= mask
        if not with_cover:  # all columns at once; only non-convex see-into pieces need their ends tested
            blocked = crossings >= self.threshold
            for col, pos in self.inside_cols:
                rows = np.flatnonzero(blocked[:, col])
                if len(rows):
                    blocked[rows, col] = ~(_inside(self.scene, pos, p[rows]) | _inside(self.scene, pos, q[rows]))
            return np.count_nonzero(blocked, axis=1), covered
        counts = np.count_nonzero(crossings[:, :nu], axis=1) if nu else np.zeros(n, dtype=int)
        if with_cover:
            covered |= counts > 0
        scene = self.scene
        for col, pos in self.terrain_cols:
            crossed = crossings[:, col] > 0
            if not crossed.any():
                continue
            piece = scene.terrain[pos]
            if self.world.blocks[self.index[col]]:
                mode = self.modes[col]
                if mode == "block":
                    blocked = crossed
                elif mode == "parity":  # a line with one end inside a convex piece crosses its outline once
                    blocked = crossings[:, col] >= 2
                else:
                    blocked = crossed.copy()
                    rows = np.flatnonzero(crossed)
                    blocked[rows] = ~(_inside(scene, pos, p[rows]) | _inside(scene, pos, q[rows]))
                counts = counts + blocked
                if with_cover:
                    covered |= blocked
            if with_cover and COVER in piece.traits:
                rows = np.flatnonzero(crossed & ~covered)
                if len(rows):
                    covered[rows] = ~_inside(scene, pos, p[rows])
        return counts, covered


def _inside(scene: SceneData, pos: int, pts: np.ndarray, core: bool = False) -> np.ndarray:
    """Which points (n, 2) lie strictly inside terrain piece ``pos`` (or its core); bounding box first."""
    bb = scene.terrain_geo(pos).bbox
    out = np.zeros(len(pts), dtype=bool)
    near = np.flatnonzero((pts[:, 0] > bb[0]) & (pts[:, 0] < bb[2]) & (pts[:, 1] > bb[1]) & (pts[:, 1] < bb[3]))
    if len(near):
        shape = scene.terrain_cores[pos] if core else scene.terrain[pos].shape
        out[near] = shapely.contains_xy(shape, pts[near, 0], pts[near, 1])
    return out


def _allowed(scene: SceneData, looker_id: str | None) -> int:
    """Obstacles a sight line may cross: 1 for a looker on elevated terrain, else 0."""
    return 1 if looker_id is not None and scene.is_elevated(looker_id) else 0


def line_clear(
    scene: SceneData, p: Point, q: Point, ignore_units: Collection[str] = (), looker_id: str | None = None
) -> bool:
    """True if the sight line from ``p`` to ``q`` (inches) is clear (module docstring; rulebook "Line of Sight").

    Units in ``ignore_units`` and the looker's own unit never block. When ``looker_id`` is on elevated terrain
    one obstacle is ignored. Symmetric in ``p`` and ``q`` for the same ignore set.
    """
    line = shapely.linestrings([p, q])
    arrays = scene.arrays()
    blocked = 0
    if arrays.ids:
        for k in np.flatnonzero(shapely.intersects(line, arrays.core_polys)):
            uid = arrays.ids[int(k)]
            if uid != looker_id and uid not in ignore_units:
                blocked += 1
    for pos in scene.sight_terrain_near(line):
        if pos not in scene.los_terrain:
            continue
        piece = scene.terrain[pos]
        if BLOCKING in piece.traits:
            blocked += bool(shapely.intersects(line, scene.terrain_cores[pos].boundary))
        elif not (piece.shape.contains_properly(shapely.Point(p)) or piece.shape.contains_properly(shapely.Point(q))):
            blocked += 1
    return blocked <= _allowed(scene, looker_id)


@lru_cache(maxsize=1024)
def _offsets(formation: Formation) -> tuple[np.ndarray, np.ndarray]:
    """Base centres in the unit frame: (u, v) arrays in ``model_centres`` order."""
    uv = np.array([p for _, p in model_offsets(formation)], dtype=float).reshape(-1, 2)
    return uv[:, 0].copy(), uv[:, 1].copy()


@lru_cache(maxsize=1024)
def _outer_eyes(formation: Formation) -> np.ndarray:
    """Indices of the first and last base of every row: their hull holds every base centre."""
    out: list[int] = []
    start = 0
    for count in formation.row_counts():
        if count:
            out.extend({start, start + count - 1})
        start += count
    return np.array(sorted(out), dtype=int)


def _frame(pose: Pose) -> np.ndarray:
    """Matrix turning table offsets (dx, dy) into (u right, v forward) by right-multiplication."""
    f = forward_vector(pose.facing)
    r = right_vector(pose.facing)
    return np.array([[r[0], f[0]], [r[1], f[1]]])


def _front(formation: Formation, eu: np.ndarray, ev: np.ndarray, pu: np.ndarray, pv: np.ndarray) -> np.ndarray:
    """Which points (local pu, pv) lie in the front arc of the bases centred at (eu, ev): bool (eyes, points)."""
    du = np.abs(pu[None, :] - eu[:, None])
    dv = pv[None, :] - ev[:, None]
    out: np.ndarray = (dv - formation.base_depth / 2 >= du - formation.base_width / 2) & (dv >= 0)
    return out


def _surely_unseen(looker: Pose, formation: Formation, corners: np.ndarray) -> bool:
    """True if no base of the looking unit can have any part of the rectangle ``corners`` (4, 2) in its front arc.

    Every base's front arc lies in {v >= c} and in {v - |u| >= c - W/2 + bd/2} in the unit frame, with
    c = -D/2 + bd/2 the rear row's centre line; a rectangle entirely outside one of these three half-planes
    cannot be seen.
    """
    if formation.has_hero:
        return False  # a joined hero's base may differ: the bounds below assume equal bases
    bd = formation.base_depth
    c = -formation.depth / 2 + bd / 2
    k = c - formation.width / 2 + bd / 2
    a = math.radians(looker.facing)
    sa, ca = math.sin(a), math.cos(a)
    behind = left = right = True
    for x, y in corners.tolist():
        dx, dy = x - looker.x, y - looker.y
        u = dx * ca - dy * sa
        v = dx * sa + dy * ca
        behind = behind and v < c
        left = left and v + u < k
        right = right and v - u < k
    return behind or left or right


def _eyes(scene: SceneData, looker_id: str, rows: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Indices, table positions and local (u, v) of the looker's bases in the first ``rows`` rows."""
    formation = scene.formation(looker_id)
    eu, ev = _offsets(formation)
    eyes = scene.model_centres(looker_id)
    idx = np.arange(len(eyes))
    if rows is not None and rows < formation.rows:
        idx = idx[scene.model_rows(looker_id) < rows]
        return idx, eyes[idx], eu[idx], ev[idx]
    return idx, eyes, eu, ev


def _radius(scene: SceneData, unit_id: str) -> float:
    f = scene.formation(unit_id)
    return math.hypot(f.width, f.depth) / 2


def _pair_obstacles(scene: SceneData, world: _World, looker_id: str, target_id: str, with_cover: bool) -> _Obstacles:
    """Obstacles that may cross a line between the two units (not the units themselves)."""
    tp = scene.pose(target_id)
    lp = scene.pose(looker_id)
    near = world.near_segments(
        np.array(lp.xy), _radius(scene, looker_id), np.array([tp.xy]), np.array([_radius(scene, target_id)])
    )[0]
    near[world.unit_index[looker_id]] = False
    near[world.unit_index[target_id]] = False
    return _Obstacles(scene, world, near, with_cover)


def _search(
    obst: _Obstacles,
    eyes: np.ndarray,
    points: np.ndarray,
    cand: np.ndarray,
    split: int,
    allowed: int,
    first_only: bool,
) -> np.ndarray:
    """Which eyes have a clear line to a candidate point: ``cand`` (eyes, points) marks the lines to try; points
    before ``split`` (base centres) are tried first. Stops at the first clear line when ``first_only``."""
    if obst.empty:
        return np.asarray(cand.any(axis=1))
    sees = np.zeros(len(eyes), dtype=bool)
    step = obst.chunk()
    for lo, hi in ((0, split), (split, cand.shape[1])):
        ii, ss = np.nonzero(cand[:, lo:hi])
        ss += lo
        for start in range(0, len(ii), step):
            ci, cs = ii[start : start + step], ss[start : start + step]
            if start or lo:
                keep = ~sees[ci]
                ci, cs = ci[keep], cs[keep]
                if len(ci) == 0:
                    continue
            counts, _ = obst.hits(eyes[ci], points[cs])
            clear = counts <= allowed
            if clear.any():
                sees[ci[clear]] = True
                if first_only:
                    return sees
    return sees


def visible_units(scene: SceneData, looker_id: str, target_ids: Collection[str]) -> list[str]:
    """Sorted ids of the units in ``target_ids`` that some model of the looker sees (``unit_has_sight``).

    Work shared between targets is done once: ask for many targets in one call. Rulebook "Line of Sight".
    """
    todo = []
    out = []
    for target_id in sorted(set(target_ids)):
        if target_id == looker_id:
            continue
        cached = scene.cache.get(("has", looker_id, target_id))
        if cached is None:
            todo.append(target_id)
        elif cached:
            out.append(target_id)
    if todo:
        for target_id, seen in _batch_sight(scene, looker_id, todo).items():
            scene.cache[("has", looker_id, target_id)] = seen
            if seen:
                out.append(target_id)
    return sorted(out)


def _surely_unseen_many(looker: Pose, formation: Formation, corners: np.ndarray) -> np.ndarray:
    """``_surely_unseen`` for many rectangles (t, 4, 2) at once: bool (t,)."""
    if formation.has_hero:
        return np.zeros(len(corners), dtype=bool)
    bd = formation.base_depth
    c = -formation.depth / 2 + bd / 2
    k = c - formation.width / 2 + bd / 2
    a = math.radians(looker.facing)
    sa, ca = math.sin(a), math.cos(a)
    dx = corners[..., 0] - looker.x
    dy = corners[..., 1] - looker.y
    u = dx * ca - dy * sa
    v = dx * sa + dy * ca
    out: np.ndarray = np.asarray((v < c).all(axis=1) | (v + u < k).all(axis=1) | (v - u < k).all(axis=1))
    return out


def _batch_sight(scene: SceneData, looker_id: str, targets: list[str]) -> dict[str, bool]:
    """Unit-level sight from one looker to several targets, every step batched over the targets.

    1. targets wholly outside every front arc are rejected at once;
    2. one probe line per looking base and target (to the first sample in its arc) is tested in a single batch
       against the union of the targets' nearby obstacles;
    3. a shadow proof hides targets behind one convex obstacle;
    4. the targets still unresolved get the exhaustive search, all together (base centres first, then corners),
       each line against its own target's nearby obstacles, stopping for a target at its first clear line.
    """
    looker = scene.pose(looker_id)
    formation = scene.formation(looker_id)
    result = dict.fromkeys(targets, False)
    if formation.models == 0 or not targets:
        return result
    arrays = scene.arrays()
    rows = np.array([arrays.index[t] for t in targets])
    unseen = _surely_unseen_many(looker, formation, arrays.corners[rows])
    keep = np.flatnonzero(~unseen)
    if not len(keep):
        return result
    live = [targets[int(i)] for i in keep]
    live_rows = rows[keep]
    _, eyes, eu, ev = _eyes(scene, looker_id, None)
    samples = [scene.sight_samples(t) for t in live]
    bounds = np.concatenate([[0], np.cumsum([len(pts) for pts, _ in samples])])
    allpts = np.concatenate([pts for pts, _ in samples])
    local = (allpts - looker.xy) @ _frame(looker)
    front = _front(formation, eu, ev, local[:, 0], local[:, 1])  # (eyes, all samples)
    world = _World.of(scene)
    n_live = len(live)
    near = world.near_segments(np.array(looker.xy), _radius(scene, looker_id), world.centres[live_rows],
                               world.radii[live_rows])  # (live, obstacles)
    near[:, world.unit_index[looker_id]] = False
    near[np.arange(n_live), live_rows] = False
    allowed = _allowed(scene, looker_id)

    # probe lines: each eye to the first and the last sample of each target in its arc
    n_samples = allpts.shape[0]
    index = np.arange(n_samples)
    first = np.minimum.reduceat(np.where(front, index, n_samples), bounds[:-1], axis=1)  # (eyes, live)
    last = np.maximum.reduceat(np.where(front, index, -1), bounds[:-1], axis=1)
    has = first < bounds[1:][None, :]
    seen = np.zeros(n_live, dtype=bool)
    some = has.any(axis=0)
    blocked_maybe = (near & world.blocks[None, :]).any(axis=1)
    seen |= some & ~blocked_maybe
    pending = np.flatnonzero(some & blocked_maybe)
    if len(pending):
        union = np.array(near[pending].any(axis=0), dtype=bool)
        obst = _Obstacles(scene, world, union, with_cover=False)
        ii, jj = np.nonzero(has[:, pending])
        tix = pending[jj]
        is_outer = np.zeros(len(eyes), dtype=bool)
        is_outer[_outer_eyes(formation)] = True
        two = (last[ii, tix] != first[ii, tix]) & is_outer[ii]
        p = np.concatenate([eyes[ii], eyes[ii[two]]])
        q = np.concatenate([allpts[first[ii, tix]], allpts[last[ii[two], tix[two]]]])
        tix = np.concatenate([tix, tix[two]])
        masks = near[:, obst.index]
        counts, _ = obst.counts_and_crossings(p, q, masks[tix])
        seen[tix[counts <= allowed]] = True
        unresolved = [int(r) for r in pending if not seen[r]]

        # the outer eyes (ends of the rows, which see round what stands in front) to the four corners of each
        # unresolved target's footprint: sight lines where a corner is a base corner in that eye's arc, and the
        # shadow proof: every segment between two convex sets misses or crosses a convex obstacle together with
        # the segments between their corners (the set of blocked ends is convex), so one obstacle crossed by all
        # lines from the looker's outer eyes to the target's footprint corners hides the whole target
        if unresolved:
            outer = _outer_eyes(formation)
            k = len(outer)
            ur = np.array(unresolved)
            fc = arrays.corners[live_rows[ur]]  # (unresolved, 4, 2)
            cidx = np.array([scene.sight_corner_samples(live[r]) for r in unresolved])  # (unresolved, 4)
            real = cidx >= 0
            cidx = np.where(real, cidx, 0) + bounds[ur][:, None]
            arc_b = (front[outer][:, cidx].transpose(1, 0, 2) & real[:, None, :]).reshape(-1)
            p = np.tile(np.repeat(eyes[outer], 4, axis=0), (len(ur), 1))
            q = np.tile(fc, (1, k, 1)).reshape(-1, 2)
            tix = np.repeat(ur, 4 * k)
            counts, crossed = obst.counts_and_crossings(p, q, masks[tix])
            seen[tix[(counts <= allowed) & arc_b]] = True
            if allowed == 0:
                solid = ~(obst.unsafe_for_proof(arrays.bboxes[live_rows[ur]])
                          | obst.unsafe_for_proof(arrays.bboxes[[arrays.index[looker_id]]]))  # (unresolved, sel)
                hidden = (crossed.reshape(len(ur), 4 * k, -1) & solid[:, None, :]).all(axis=1).any(axis=1)
            else:
                hidden = np.zeros(len(ur), dtype=bool)
            unresolved = [r for r, h in zip(unresolved, hidden.tolist(), strict=True) if not h and not seen[r]]

        if unresolved:
            splits = [samples[r][1].shape[0] for r in range(n_live)]
            _search_many(obst, eyes, allpts, front, bounds, splits, unresolved, masks, allowed, seen,
                         _outer_eyes(formation))
    for r in np.flatnonzero(seen):
        result[live[int(r)]] = True
    return result


def _search_many(obst: _Obstacles, eyes: np.ndarray, points: np.ndarray, front: np.ndarray, bounds: np.ndarray,
                 splits: list[int], targets: list[int], masks: np.ndarray, allowed: int, seen: np.ndarray,
                 outer: np.ndarray) -> None:
    """Exhaustive search for several targets at once: sets ``seen[r]`` for each target ``r`` in ``targets`` some
    eye has a clear line to (a sample of target r in that eye's arc: ``front[:, bounds[r]:bounds[r + 1]]``).
    Base centres (the first ``splits[r]`` samples) are tried first; each line is tested against its target's
    obstacles (``masks[r]``); a target stops at its first clear line."""
    for corners in (False, True):
        parts_i, parts_s, parts_t = [], [], []
        for r in targets:
            if seen[r]:
                continue
            lo = bounds[r] + (splits[r] if corners else 0)
            hi = bounds[r + 1] if corners else bounds[r] + splits[r]
            ii, ss = np.nonzero(front[:, lo:hi])
            parts_i.append(ii)
            parts_s.append(ss + lo)
            parts_t.append(np.full(len(ii), r))
        if not parts_i:
            return
        ii, ss, tt = np.concatenate(parts_i), np.concatenate(parts_s), np.concatenate(parts_t)
        # the outer eyes (ends of the rows) first, as they see round what is in front; then spread the lines over
        # eyes and samples (a fixed scramble) so that an early batch already holds lines from every part of both
        # units; batches grow geometrically (early exit for easy targets, few calls for hidden ones)
        inner = np.ones(len(eyes), dtype=np.int64)
        inner[outer] = 0
        order = np.argsort(inner[ii] * 4294967296 + (ii * 2654435761 + ss * 40503 + tt * 97) % 4294967291,
                           kind="stable")
        ii, ss, tt = ii[order], ss[order], tt[order]
        step = max(32, obst.chunk() // 8)
        start = 0
        while start < len(ii):
            ci, cs, ct = ii[start:start + step], ss[start:start + step], tt[start:start + step]
            start += step
            step = min(step * 2, obst.chunk())
            live = ~seen[ct]
            if not live.all():
                ci, cs, ct = ci[live], cs[live], ct[live]
                if not len(ci):
                    continue
            counts, _ = obst.hits(eyes[ci], points[cs], mask=masks[ct])
            seen[ct[counts <= allowed]] = True


def models_with_sight(
    scene: SceneData, looker_id: str, target_id: str, rows: int | None = None, max_range: float | None = None,
    target_model: int | None = None,
) -> list[int]:
    """Indices (``model_centres`` order) of looker models that see at least one target model.

    Only models in the first ``rows`` rows count (None = all). A model sees a target model when a sample point of
    the target base is in its base's front arc and the sight line to it is clear (module docstring), ignoring the
    looker's and the target's own units; with ``max_range`` that target model must also be within ``max_range``
    inches (closest points of the two bases). With ``target_model`` (an index of the target's models) only that
    model counts (rulebook "Sniper": the other models of its unit never block sight to it). Rulebook "Line of
    Sight", "Who Can Shoot", "Measuring Distances". Raises ``IndexError`` for a ``target_model`` out of range.
    """
    key = ("models", looker_id, target_id, rows, max_range, target_model)
    cached = scene.cache.get(key)
    if not isinstance(cached, tuple):
        cached = tuple(_models_with_sight(scene, looker_id, target_id, rows, max_range, target_model, True))
        scene.cache[key] = cached
    return list(cached)


def models_in_range(
    scene: SceneData, looker_id: str, target_id: str, rows: int | None = None, max_range: float | None = None,
    target_model: int | None = None,
) -> list[int]:
    """Like ``models_with_sight`` but ignoring everything that could block the sight lines: the looker models
    (first ``rows`` rows) that have a target model (or ``target_model``) in their front arc and, with
    ``max_range``, within that range. Rulebook "Indirect": may target enemies that are not in line of sight as if
    they were (the target must still be in the firing model's front arc: docs/rulings.md)."""
    key = ("models-in-range", looker_id, target_id, rows, max_range, target_model)
    cached = scene.cache.get(key)
    if not isinstance(cached, tuple):
        cached = tuple(_models_with_sight(scene, looker_id, target_id, rows, max_range, target_model, False))
        scene.cache[key] = cached
    return list(cached)


def _models_with_sight(
    scene: SceneData, looker_id: str, target_id: str, rows: int | None, max_range: float | None,
    target_model: int | None = None, obstructions: bool = True,
) -> list[int]:
    if max_range is not None and target_model is None and \
            _boxes_apart(scene.model_bbox(looker_id), scene.model_bbox(target_id)) > max_range + 1e-9:
        return []       # every model pair is at least as far apart as the units' bounding boxes: none in range
    looker = scene.pose(looker_id)
    formation = scene.formation(looker_id)
    idx, eyes, eu, ev = _eyes(scene, looker_id, rows)
    if len(idx) == 0 or target_id == looker_id or _surely_unseen(looker, formation, scene.corners(target_id)):
        return []
    points, owner = scene.sight_samples(target_id)
    if points.shape[0] == 0:
        return []
    if target_model is not None:
        if not 0 <= target_model < owner.shape[0]:
            raise IndexError(f"unit {target_id!r} has no model {target_model}")
        owner = owner[target_model : target_model + 1]
    local = (points - looker.xy) @ _frame(looker)
    cand = _front(formation, eu, ev, local[:, 0], local[:, 1])
    if target_model is not None:
        cand &= owner[0][None, :]
    if max_range is not None:
        target_corners = scene.model_corners(target_id)
        if target_model is not None:
            target_corners = target_corners[target_model : target_model + 1]
        dist = rect_distance(scene.model_corners(looker_id)[idx], target_corners)
        cand &= ((dist <= max_range + 1e-9).astype(np.int32) @ owner.astype(np.int32)) > 0
    if not cand.any():
        return []
    if not obstructions:
        return [int(i) for i in idx[cand.any(axis=1)]]
    obst = _pair_obstacles(scene, _World.of(scene), looker_id, target_id, with_cover=False)
    sees = _search(obst, eyes, points, cand, owner.shape[0], _allowed(scene, looker_id), first_only=False)
    return [int(i) for i in idx[sees]]


def _boxes_apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Distance in inches between two axis-aligned boxes (min x, min y, max x, max y): at most the closest
    distance between anything inside one and anything inside the other."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return math.hypot(dx, dy)


def unit_has_sight(scene: SceneData, looker_id: str, target_id: str) -> bool:
    """True if any model of the looker sees any model of the target (front arcs of the models).

    Rulebook "Line of Sight", "Picking Targets" (charge and shooting targets need sight).
    """
    return bool(visible_units(scene, looker_id, [target_id]))


def in_cover(
    scene: SceneData, looker_id: str, target_id: str, shooters: Collection[int] | None = None,
    target_model: int | None = None, obstructions: bool = True,
) -> bool:
    """True if the target unit counts as in cover against the looker (rulebook "Cover Terrain").

    A target model is *covered* when its base is fully inside a ``cover`` piece, or when it is *behind a sight
    blocker*: some line from the centre of a looking model to the target base's centre crosses another unit's
    footprint, sight-blocking terrain, or a ``cover`` piece that does not contain the looking model's centre.
    The looking models are ``shooters`` (indices in ``model_centres`` order; default: all models of the looker)
    that have the target model in their front arc, or all of them if none has. The unit is in cover when more
    than half of its models are covered; a single-model unit when more than half of its base area is inside
    cover terrain, or it is behind a sight blocker. Elevated lookers get no exemption from cover.

    ``target_model``: judge that one model of the target as a unit of one (rulebook "Sniper"; the other models of
    its unit are no sight blockers anyway). ``obstructions`` False: only cover terrain the models stand in counts,
    not being behind sight blockers (rulebook "Indirect": ignores cover from sight obstructions).
    """
    key = ("cover", looker_id, target_id, None if shooters is None else tuple(sorted(shooters)), target_model,
           obstructions)
    cached = scene.cache.get(key)
    if not isinstance(cached, bool):
        cached = _in_cover(scene, looker_id, target_id, shooters, target_model, obstructions)
        scene.cache[key] = cached
    return cached


def _in_cover(scene: SceneData, looker_id: str, target_id: str, shooters: Collection[int] | None,
              target_model: int | None = None, obstructions: bool = True) -> bool:
    eyes_all = scene.model_centres(looker_id)
    idx = np.arange(len(eyes_all)) if shooters is None else np.array(sorted(shooters), dtype=int)
    targets = scene.model_centres(target_id)
    if target_model is not None:
        if not 0 <= target_model < len(targets):
            raise IndexError(f"unit {target_id!r} has no model {target_model}")
        chosen = np.array([target_model], dtype=int)
    else:
        chosen = np.arange(len(targets))
    targets = targets[chosen]
    m = len(targets)
    if m == 0 or len(idx) == 0:
        return False
    eyes = eyes_all[idx]
    covered = np.zeros(m, dtype=bool)
    cover_pieces = [scene.terrain[pos] for pos in scene.cover_terrain]
    if cover_pieces:
        polys = np.array(scene.model_polygons(target_id), dtype=object)[chosen]
        if m == 1:
            union = shapely.union_all([t.shape for t in cover_pieces])
            covered[0] = shapely.intersection(polys[0], union).area > 0.5 * polys[0].area
        else:
            for t in cover_pieces:
                covered |= shapely.within(polys, t.shape)
    if not obstructions:
        return bool(covered.sum() * 2 > m)
    points, owner = scene.sight_samples(target_id)
    owner = owner[chosen]
    looker = scene.pose(looker_id)
    formation = scene.formation(looker_id)
    eu, ev = _offsets(formation)
    local = (points - looker.xy) @ _frame(looker)
    front_pts = _front(formation, eu[idx], ev[idx], local[:, 0], local[:, 1]).astype(np.int32)
    front: np.ndarray = (front_pts @ owner.T.astype(np.int32)) > 0  # (n, m): target model in a looker's arc
    use = np.where(np.any(front, axis=0)[None, :], front, True)
    ii, jj = np.nonzero(use & ~covered[None, :])
    if len(ii):
        obst = _pair_obstacles(scene, _World.of(scene), looker_id, target_id, with_cover=True)
        step = obst.chunk()
        for start in range(0, len(ii), step):
            sl = slice(start, start + step)
            _, crossed = obst.hits(eyes[ii[sl]], targets[jj[sl]], with_cover=True)
            covered[np.unique(jj[sl][crossed])] = True
    return bool(covered.sum() * 2 > m)
