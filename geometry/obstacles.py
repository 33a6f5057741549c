"""Obstacles to movement as stacked outlines, and exact first-contact times for a translating rectangle
(rulebook "General Movement", "Impassable Terrain"). Used by ``geometry.motion`` and ``geometry.contact``.

An obstacle is another unit's footprint or an impassable terrain piece, both shrunk by ``CONTACT_TOL`` (their
*cores*) so that touching never counts as overlapping. The closest points of two polygons are always a vertex of
one and an edge of the other, so the first moment a translating rectangle comes within ``r`` of an obstacle is
the earliest entry of a moving vertex into the capsule around a fixed edge (``geometry._vec.first_within``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
from shapely import Polygon

from geometry._vec import INF, point_segment_distance, segments_hit
from geometry.pose import Point
from geometry.scene_data import SceneData


@dataclass
class Obstacles:
    """Obstacle outlines (cores) as stacked edges: obstacle k owns edges ``a[starts[k]:starts[k] + sizes[k]]``."""

    kinds: list[str]
    """"unit" or "terrain" per obstacle."""
    keys: list[str]
    """Unit id or terrain name per obstacle."""
    polys: list[Polygon | None]
    """Full (not shrunk) outline per obstacle; None for a unit whose footprint was not looked up (the scene's
    ``footprint(key)``)."""
    a: np.ndarray
    """Edge starts (e, 2); these are also the outline vertices."""
    b: np.ndarray
    """Edge ends (e, 2)."""
    starts: np.ndarray
    """First edge of each obstacle (k,)."""
    sizes: np.ndarray
    """Number of edges of each obstacle (k,)."""
    boxes: np.ndarray | None = None
    """Bounding boxes of the cores (k, 4): minx, miny, maxx, maxy (None if not computed)."""

    def __len__(self) -> int:
        return len(self.kinds)


def gather(scene: SceneData, ignore: Collection[str], lo: np.ndarray, hi: np.ndarray) -> Obstacles:
    """Other units (not in ``ignore``) and impassable terrain whose bounding boxes meet the box ``lo``..``hi``.

    Units come first in id order, then terrain in index order.
    """
    kinds: list[str] = []
    keys: list[str] = []
    polys: list[Polygon | None] = []
    a_parts: list[np.ndarray] = []
    sizes: list[int] = []
    arrays = scene.arrays()
    if len(arrays.ids):
        bb = arrays.bboxes
        near = (bb[:, 0] <= hi[0]) & (bb[:, 2] >= lo[0]) & (bb[:, 1] <= hi[1]) & (bb[:, 3] >= lo[1])
        for k in np.flatnonzero(near):
            uid = arrays.ids[int(k)]
            if uid in ignore:
                continue
            kinds.append("unit")
            keys.append(uid)
            polys.append(arrays.footprints[int(k)])
            a_parts.append(arrays.cores[int(k)])
            sizes.append(4)
    b_parts = [p[NEXT] for p in a_parts]
    for pos in scene.impassable_terrain:
        g = scene.terrain_geo(pos)
        if g.bbox[0] <= hi[0] and g.bbox[2] >= lo[0] and g.bbox[1] <= hi[1] and g.bbox[3] >= lo[1]:
            kinds.append("terrain")
            keys.append(g.piece.name)
            polys.append(g.piece.shape)
            a_parts.append(g.edges_a)
            b_parts.append(g.edges_b)
            sizes.append(len(g.edges_a))
    if not kinds:
        empty = np.zeros((0, 2))
        return Obstacles([], [], [], empty, empty, np.zeros(0, dtype=int), np.zeros(0, dtype=int))
    size_arr = np.array(sizes, dtype=int)
    starts = np.concatenate([[0], np.cumsum(size_arr)[:-1]]).astype(int)
    a = np.concatenate(a_parts)
    boxes = np.concatenate([np.minimum.reduceat(a, starts, axis=0), np.maximum.reduceat(a, starts, axis=0)], axis=1)
    return Obstacles(kinds, keys, polys, a, np.concatenate(b_parts), starts, size_arr, boxes)


def subset(obs: Obstacles, keep: np.ndarray) -> Obstacles:
    """The obstacles where ``keep`` (k,) bool is True, in the same order (their arrays copied)."""
    idx = np.flatnonzero(keep)
    if len(idx) == 1:   # the usual case (one obstacle near a move): its rows are one slice
        i = int(idx[0])
        first, size = int(obs.starts[i]), int(obs.sizes[i])
        return Obstacles([obs.kinds[i]], [obs.keys[i]], [obs.polys[i]], obs.a[first:first + size].copy(),
                         obs.b[first:first + size].copy(), np.zeros(1, dtype=int), obs.sizes[i:i + 1].copy(),
                         None if obs.boxes is None else obs.boxes[i:i + 1].copy())
    sizes = obs.sizes[idx]
    starts = np.zeros(len(idx), dtype=int)
    if len(idx) > 1:
        np.cumsum(sizes[:-1], out=starts[1:])
    edges = np.repeat(keep, obs.sizes)
    return Obstacles([obs.kinds[i] for i in idx], [obs.keys[i] for i in idx], [obs.polys[i] for i in idx],
                     obs.a[edges], obs.b[edges], starts, sizes, None if obs.boxes is None else obs.boxes[idx])


def hull_gaps(obs: Obstacles, hulls: list[np.ndarray], axes: np.ndarray) -> np.ndarray:
    """A lower bound (k, h) of the distance from each obstacle core to the convex hull of each point set
    ``hulls[j]`` (n_j, 2): the widest gap between their projections on any of the unit vectors ``axes`` (m, 2)
    (separating axis theorem: a gap on a unit axis never exceeds the distance). Zero or negative where no axis
    separates them. Used to skip the exact kernels for obstacles far from a move (``geometry.motion``)."""
    k = len(obs)
    if not k:
        return np.zeros((0, len(hulls)))
    # one projection and one pair of reductions for the cores' vertices and the hulls' points together, laid out
    # (axes, hulls, obstacles): the long axis innermost, the reduction over the outermost; the hull of a core's
    # vertices contains the core
    starts = np.empty(k + len(hulls), dtype=np.intp)
    starts[:k] = obs.starts
    first = len(obs.a)
    for j, h in enumerate(hulls):
        starts[k + j] = first
        first += len(h)
    proj = axes @ np.concatenate([obs.a, *hulls]).T  # (m, e + all points)
    lo = np.minimum.reduceat(proj, starts, axis=1)  # (m, k + h)
    hi = np.maximum.reduceat(proj, starts, axis=1)
    gap = lo[:, None, :k] - hi[:, k:, None]  # (m, h, k)
    np.maximum(gap, lo[:, k:, None] - hi[:, None, :k], out=gap)
    out: np.ndarray = np.maximum.reduce(gap, axis=0).T
    return out


NEXT = [1, 2, 3, 0]
"""Index of each rectangle corner's successor: ``rect[NEXT]`` gives the edge ends."""


def _inside_counts(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Even-odd ray crossings (n, e) of a ray from each point toward +x with each edge."""
    px, py = points[:, 0:1], points[:, 1:2]
    ay, by = a[None, :, 1], b[None, :, 1]
    ax, bx = a[None, :, 0], b[None, :, 0]
    straddle = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xcross = ax + (py - ay) * (bx - ax) / (by - ay)
    out: np.ndarray = straddle & (px < xcross)
    return out


def overlapping(obs: Obstacles, rect: np.ndarray) -> np.ndarray:
    """Per obstacle (k,): does the rectangle (4, 2) overlap its core (edges cross, or one contains the other)?"""
    if obs.boxes is not None:  # bounding boxes apart: no overlap (the usual case, at a fraction of the cost)
        lo, hi = rect.min(axis=0), rect.max(axis=0)
        b = obs.boxes
        if not ((b[:, 0] <= hi[0]) & (b[:, 2] >= lo[0]) & (b[:, 1] <= hi[1]) & (b[:, 3] >= lo[1])).any():
            return np.zeros(len(obs), dtype=bool)
    ra, rb = rect, rect[NEXT]
    cross = segments_hit(ra, rb, obs.a, obs.b).any(axis=0)  # per obstacle edge
    # a rectangle corner inside the obstacle (even-odd over the obstacle's edges)
    inside = np.add.reduceat(_inside_counts(rect[:1], obs.a, obs.b)[0].astype(int), obs.starts) % 2 == 1
    # an obstacle vertex inside the rectangle
    vin = _inside_counts(obs.a, ra, rb).sum(axis=1) % 2 == 1
    vin_per = np.logical_or.reduceat(vin, obs.starts)
    out: np.ndarray = np.logical_or.reduceat(cross, obs.starts) | inside | vin_per
    return out


def distances(obs: Obstacles, rect: np.ndarray, overlap: np.ndarray | None = None) -> np.ndarray:
    """Closest distance (inches) from the rectangle (4, 2) to each obstacle core (k,); 0 where they overlap.

    ``overlap`` may pass ``overlapping(obs, rect)`` when already known."""
    e = len(obs.a)
    # one call for both directions: rect corners against obstacle edges, obstacle vertices against rect edges
    d = point_segment_distance(
        np.concatenate([rect, obs.a]), np.concatenate([obs.a, rect]), np.concatenate([obs.b, rect[NEXT]])
    )
    d1 = d[:4, :e].min(axis=0)  # per obstacle edge
    d2 = d[4:, e:].min(axis=1)  # per obstacle vertex
    out: np.ndarray = np.minimum.reduceat(np.minimum(d1, d2), obs.starts)
    return np.where(overlapping(obs, rect) if overlap is None else overlap, 0.0, out)


def first_times(
    obs: Obstacles, rect: np.ndarray, w: Point, radii: np.ndarray, overlap: np.ndarray | None = None
) -> np.ndarray:
    """Per obstacle (k,): the first travel t >= 0 along unit direction ``w`` at which the rectangle (4, 2) comes
    within ``radii[k]`` inches of the obstacle core; 0 if it already does or overlaps; inf if never or if
    ``radii[k]`` is NaN (obstacle skipped). ``overlap`` may pass ``overlapping(obs, rect)`` when known."""
    return first_times_many(obs, rect, w, [radii], overlap)[0]


def first_times_many(
    obs: Obstacles, rect: np.ndarray, w: Point, radii: list[np.ndarray], overlap: np.ndarray | None = None
) -> list[np.ndarray]:
    """``first_times`` for several radius arrays (each (k,)) in one pass of the kernel: a list of (k,) arrays.

    The capsule test of ``geometry._vec.first_within`` (``end_discs=False``: outlines are closed rings, so the
    discs at the edges' ends repeat those at their starts), on the pairs that matter only: the rectangle's corners
    moving along ``w`` against the obstacles' edges, and the obstacles' vertices moving along ``-w`` against the
    rectangle's edges, both laid out (4, e) (vertex j starts edge j, so both share edge j's radius); what does not
    depend on the radius is worked out once for all the arrays. Each pair's value comes from the very operations
    ``first_within`` makes (``tests/geometry/test_motion.py`` compares the two bit for bit).
    """
    e = len(obs.a)
    m = len(radii)
    if not e:
        return [np.zeros(0) for _ in radii]
    # fewer, larger numpy calls: a kernel of a few obstacles is mostly the calls' own overhead
    rad = np.array(radii, dtype=float).reshape(m, -1)   # (m, k)
    skip = np.isnan(rad)
    # (m, 1, e): each edge's radius (0 where the obstacle is skipped: answered inf below)
    r = np.repeat(np.where(skip, 0.0, rad), obs.sizes, axis=1)[:, None, :]
    # the edge frames (direction, length) of the obstacles' edges then the rectangle's
    ends = np.empty((2, e + 4, 2))
    ends[0, :e], ends[0, e:], ends[1, :e], ends[1, e:] = obs.a, rect, obs.b, rect[NEXT]
    d = (ends[1] - ends[0]).T   # (2, e + 4)
    length = np.hypot(d[0], d[1])
    safe = np.where(length > 0, length, 1.0)
    f = np.empty((3, 8, e))     # ex, ey, length of edge j for a corner against it, of edge i for vertex j
    f[:2, :4] = (d[:, :e] / safe[:e])[:, None, :]   # a corner against obstacle edge j
    f[:2, 4:] = (d[:, e:] / safe[e:])[:, :, None]   # obstacle vertex j against rectangle edge i
    f[2, :4] = length[None, :e]
    f[2, 4:] = length[e:, None]
    ex, ey, seg = f[0], f[1], f[2]
    nx, ny = -ey, ex
    rel = np.empty((2, 8, e))  # the point's offset from its edge's start
    rel[:, :4] = rect.T[:, :, None] - obs.a.T[:, None, :]
    np.negative(rel[:, :4], out=rel[:, 4:])  # vertex j - corner i, exactly -(corner i - vertex j)
    rx, ry = rel[0], rel[1]
    wv = np.array([[w[0]] * 4 + [-w[0]] * 4, [w[1]] * 4 + [-w[1]] * 4])[:, :, None]
    wx, wy = wv[0], wv[1]
    # the disc round the edge's start (``_circle_entry``)
    bb = rx * wx + ry * wy
    c = rx * rx + ry * ry - r * r
    disc = bb * bb - c
    # a direction all but parallel to an edge overflows to inf: it is never reached, as meant
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        root = -bb - np.sqrt(np.maximum(disc, 0.0))
        t_a = np.where(c <= 0, 0.0, np.where((disc >= 0) & (bb < 0), root, INF))
        # the strip along the edge
        s0 = rx * nx + ry * ny
        sw = wx * nx + wy * ny
        pr0 = rx * ex + ry * ey
        pw = wx * ex + wy * ey
        t_s = np.where((s0 > r) & (sw < 0), (s0 - r) / -sw, np.where((s0 < -r) & (sw > 0), (-r - s0) / sw, INF))
        pr = pr0 + t_s * pw
    t_s = np.where((pr >= 0) & (pr <= seg) & np.isfinite(t_s), t_s, INF)
    inside = (np.abs(s0) <= r) & (pr0 >= 0) & (pr0 <= seg)
    t_s[inside] = 0.0
    t = np.minimum(t_a, t_s)  # (m, 8, e)
    if overlap is None:
        overlap = overlapping(obs, rect)
    per = np.minimum.reduceat(t.min(axis=1), obs.starts, axis=1)    # (m, k)
    per[:, overlap] = 0.0
    per[skip] = np.inf
    return list(per)
