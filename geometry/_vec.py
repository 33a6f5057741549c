"""Vectorised numpy kernels for segments, points and polygon edges (private to ``geometry``).

All coordinates are inches. Arrays of points have shape (n, 2); a set of polygon edges is two (e, 2) arrays
``a`` and ``b`` (start and end of each edge). These kernels are exact up to floating point; the callers add
tolerances.
"""

from __future__ import annotations

import numpy as np

INF = float("inf")


def segments_hit(p: np.ndarray, q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which segments p[i]-q[i] (n, 2) intersect or touch which edges a[j]-b[j] (e, 2): bool array (n, e).

    Orientation tests written as matrix products: the side of p relative to edge j is p . n_j - a_j . n_j with
    n_j the edge's normal, and likewise for the edge ends against segment i. Collinear pairs meet when their
    extents overlap.
    """
    return Edges(a, b).hit(p, q)


class Edges:
    """A fixed set of edges a[j]-b[j] (e, 2) prepared for repeated ``segments_hit`` tests."""

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        e = b - a
        self.en = np.ascontiguousarray(np.stack([-e[:, 1], e[:, 0]]))  # (2, e) edge normals
        self.ec = np.einsum("ij,ji->i", a, self.en)  # (e,)
        self.a_t = np.ascontiguousarray(a.T)
        self.b_t = np.ascontiguousarray(b.T)
        self.a = a
        self.b = b

    def __len__(self) -> int:
        return len(self.a)

    def hit(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Which segments p[i]-q[i] (n, 2) intersect or touch which edges: bool (n, e). See ``segments_hit``."""
        d1 = p @ self.en
        d1 -= self.ec
        d2 = q @ self.en
        d2 -= self.ec
        sn = (q - p)[:, ::-1] * (-1.0, 1.0)  # (n, 2) segment normals (-sy, sx)
        sc = np.einsum("ij,ij->i", p, sn)[:, None]
        d3 = sn @ self.a_t
        d3 -= sc
        d4 = sn @ self.b_t
        d4 -= sc
        s34 = d3 * d4
        hit: np.ndarray = s34 <= 0
        s12 = d1 * d2
        hit &= s12 <= 0
        on_line = (d1 == 0) | (d2 == 0) | (d3 == 0) | (d4 == 0)
        if on_line.any():
            # An orientation of exactly 0 puts an end on the other's line; for a nearly collinear pair the other
            # signs are rounding noise, so such a pair touches only where that end lies within the other's extent.
            # Collinear pairs (every orientation 0) meet when their extents overlap: the same test.
            touch = (s12 < 0) & (s34 < 0)
            touch |= (d1 == 0) & _within(p, self.a, self.b)
            touch |= (d2 == 0) & _within(q, self.a, self.b)
            touch |= (d3 == 0) & _within(self.a, p, q).T
            touch |= (d4 == 0) & _within(self.b, p, q).T
            hit = np.where(on_line, touch, hit)
        return hit


def _within(pt: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each point pt[i] (n, 2) lies within the extent (bounding box) of each segment a[j]-b[j] (e, 2):
    bool (n, e)."""
    px, py = pt[:, 0:1], pt[:, 1:2]
    ax, ay, bx, by = a[None, :, 0], a[None, :, 1], b[None, :, 0], b[None, :, 1]
    out: np.ndarray = ((np.minimum(ax, bx) <= px) & (px <= np.maximum(ax, bx))
                       & (np.minimum(ay, by) <= py) & (py <= np.maximum(ay, by)))
    return out


def point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point p (n, 2) to each segment a-b (e, 2): array (n, e)."""
    d = b - a  # (e, 2)
    ll = np.einsum("ij,ij->i", d, d)
    safe = np.where(ll > 0, ll, 1.0)
    rel = p[:, None, :] - a[None, :, :]  # (n, e, 2)
    t = np.clip((rel[..., 0] * d[:, 0] + rel[..., 1] * d[:, 1]) / safe, 0.0, 1.0)
    cx = rel[..., 0] - t * d[:, 0]
    cy = rel[..., 1] - t * d[:, 1]
    out: np.ndarray = np.hypot(cx, cy)
    return out


def _circle_entry(
    rx: np.ndarray, ry: np.ndarray, wx: float | np.ndarray, wy: float | np.ndarray, r: np.ndarray
) -> np.ndarray:
    """First t >= 0 when a point at offset (rx, ry) from a circle centre, moving by (wx, wy) per unit t,
    is within ``r`` of the centre; inf if never."""
    bb = rx * wx + ry * wy
    c = rx * rx + ry * ry - r * r
    disc = bb * bb - c
    with np.errstate(invalid="ignore"):
        root = -bb - np.sqrt(np.maximum(disc, 0.0))
    out: np.ndarray = np.where(c <= 0, 0.0, np.where((disc >= 0) & (bb < 0), root, INF))
    return out


def first_within(
    p: np.ndarray, w: tuple[float, float] | np.ndarray, a: np.ndarray, b: np.ndarray, r: np.ndarray,
    *, end_discs: bool = True
) -> np.ndarray:
    """First travel t >= 0 at which point p[i] + t*w comes within r of segment a[j]-b[j]: array (n, e).

    ``w`` is a unit direction, or one per point (n, 2); r broadcasts to (n, e). inf where it never happens; 0
    where it already is. The set of points within r of a segment is a capsule (two discs and a strip); the first
    entry is the earliest entry into any of the three. Without ``end_discs`` the disc around each ``b[j]`` is
    left out: for closed rings (every ``b[j]`` is the ``a`` of another edge) the minimum over a ring's edges is
    the same, at a fraction of the cost.
    """
    wx: float | np.ndarray
    wy: float | np.ndarray
    if isinstance(w, np.ndarray):
        wx, wy = w[:, 0:1], w[:, 1:2]
    else:
        wx, wy = w
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    safe = np.where(length > 0, length, 1.0)
    ex, ey = d[:, 0] / safe, d[:, 1] / safe
    nx, ny = -ey, ex
    rx = p[:, 0:1] - a[None, :, 0]
    ry = p[:, 1:2] - a[None, :, 1]
    t_a = _circle_entry(rx, ry, wx, wy, r)
    if end_discs:
        t_a = np.minimum(t_a, _circle_entry(p[:, 0:1] - b[None, :, 0], p[:, 1:2] - b[None, :, 1], wx, wy, r))
    s0 = rx * nx + ry * ny
    sw = wx * nx + wy * ny
    pr0 = rx * ex + ry * ey
    pw = wx * ex + wy * ey
    # a direction all but parallel to the edge overflows to inf: the edge is never reached, as meant
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t_s = np.where((s0 > r) & (sw < 0), (s0 - r) / -sw, np.where((s0 < -r) & (sw > 0), (-r - s0) / sw, INF))
        pr = pr0 + t_s * pw
    t_s = np.where((pr >= 0) & (pr <= length) & np.isfinite(t_s), t_s, INF)
    inside = (np.abs(s0) <= r) & (pr0 >= 0) & (pr0 <= length)
    t_s = np.where(inside, 0.0, t_s)
    out: np.ndarray = np.minimum(t_a, t_s)
    return out


def rect_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Closest distance between convex quadrilaterals a[i] (n, 4, 2) and b[j] (m, 4, 2): array (n, m).

    Assumes the pairs do not overlap (then the distance is between a vertex and an edge); overlapping pairs
    that contain no vertex of each other may report a small positive number. Model bases of different units
    never overlap, so this serves model-to-model ranges (rulebook "Measuring Distances").
    """
    n, m = a.shape[0], b.shape[0]
    if n == 0 or m == 0:
        return np.zeros((n, m))
    av = a.reshape(-1, 2)
    bv = b.reshape(-1, 2)
    b_a, b_b = b.reshape(-1, 2), b[:, [1, 2, 3, 0]].reshape(-1, 2)
    a_a, a_b = a.reshape(-1, 2), a[:, [1, 2, 3, 0]].reshape(-1, 2)
    d1 = point_segment_distance(av, b_a, b_b).reshape(n, 4, m, 4).min(axis=(1, 3))
    d2 = point_segment_distance(bv, a_a, a_b).reshape(m, 4, n, 4).min(axis=(1, 3)).T
    out: np.ndarray = np.minimum(d1, d2)
    return out
