"""Shapely polygons for unit footprints and model bases (rulebook "Unit Formations").

Everything is in inches; base sizes come from the ``Formation`` in millimetres. Corner order follows
``geometry.formation.rect_corners``: front-left, front-right, rear-right, rear-left.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from geometry.formation import Formation, model_offsets, model_sizes, rect_corners
from geometry.pose import Pose, forward_vector, right_vector

CONTACT_TOL = 1e-3
"""Inches: shapes overlapping by less than this count as touching (base contact), not overlapping."""


def rect_polygon(pose: Pose, width: float, depth: float) -> Polygon:
    """The ``width`` x ``depth`` rectangle (inches) centred on ``pose`` and turned to its facing.

    Raises ``ValueError`` if ``width`` or ``depth`` is not positive.
    """
    if width <= 0 or depth <= 0:
        raise ValueError(f"rectangle needs a positive size, got {width} x {depth}")
    return Polygon(rect_corners(pose, width, depth))


def footprint_polygon(pose: Pose, formation: Formation) -> Polygon:
    """A unit's footprint: the bounding rectangle of its bases, inches (rulebook "Unit Formations").

    This is the unit's "perimeter" for line of sight and the 1" rule.
    """
    return rect_polygon(pose, formation.width, formation.depth)


def model_corner_array(pose: Pose, formation: Formation) -> np.ndarray:
    """Corners of every model base as an array of shape (models, 4, 2), inches, in ``model_centres`` order.

    Corner order per base as ``rect_corners``. An empty unit gives shape (0, 4, 2).
    """
    offsets = model_offsets(formation)
    if not offsets:
        return np.zeros((0, 4, 2))
    uv = np.array([p for _, p in offsets], dtype=float)  # (M, 2)
    half = np.array(model_sizes(formation), dtype=float) / 2  # (M, 2): a joined hero's base may differ
    signs = np.array([(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)])
    local = uv[:, None, :] + signs[None, :, :] * half[:, None, :]
    r = np.array(right_vector(pose.facing))
    f = np.array(forward_vector(pose.facing))
    world: np.ndarray = np.array([pose.x, pose.y]) + local[..., :1] * r + local[..., 1:] * f
    return world


def model_polygons(pose: Pose, formation: Formation) -> list[Polygon]:
    """One rectangle per model base (inches), in the order of ``geometry.formation.model_centres``."""
    corners = model_corner_array(pose, formation)
    if len(corners) == 0:
        return []
    return list(shapely.polygons(corners))


def overlap_area(a: BaseGeometry, b: BaseGeometry) -> float:
    """Area (square inches) the two shapes share; 0 when they only touch.

    Shapely's overlay is not robust for shapes that share an edge whose ends differ in the last bits: two unit
    footprints placed flush by a charge (an edge 1e-16" apart) came back from ``intersection`` as the whole of one
    of them (shapely 2.2, GEOS 3.14). The DE-9IM relation is computed robustly, so it decides first whether the
    interiors share an area at all; only then is the overlay measured. The relation may still find a sliver where
    the ends differ in the last bits (the flush pair overlapping by 1e-16"), and the floating overlay then fails as
    above; the overlay is therefore made on a 1e-9" grid (GEOS snap-rounding, robust), which moves the area by
    about 1e-9" times the outline's length.
    """
    if not a.intersects(b):
        return 0.0
    if shapely.relate(a, b)[0] != "2":  # the interiors' intersection has no area: they touch or cross at lines
        return 0.0
    return float(shapely.intersection(a, b, grid_size=OVERLAY_GRID).area)


OVERLAY_GRID = 1e-9
"""Inches: the precision grid of ``overlap_area``'s overlay."""


def swept_overlapping(start: np.ndarray, end: np.ndarray, shapes: Sequence[BaseGeometry], min_area: float
                      ) -> list[bool]:
    """For each base moving in a straight line from corners ``start[i]`` to ``end[i]`` (both (bases, 4, 2),
    inches): does the area it sweeps (the convex hull of both) overlap one of ``shapes`` by more than ``min_area``
    square inches (``overlap_area``)?

    The hulls are built in one call and a base is measured only against the shapes it meets; a hull inside a
    shape overlaps it by its own area, so it is not measured when that is over ``min_area`` (the answers are those
    of ``overlap_area``, ``tests/geometry/test_shapes_terrain.py``). Raises ``ValueError`` for mismatched arrays.
    """
    if start.shape != end.shape:
        raise ValueError(f"start and end corners differ in shape: {start.shape} and {end.shape}")
    if not len(start) or not shapes:
        return [False] * len(start)
    # each outline closed as a polygon's ring is (the points ``overlap_area``'s callers took the hull of)
    points = np.concatenate([start, start[:, :1], end, end[:, :1]], axis=1)
    hulls = shapely.convex_hull(shapely.multipoints(points))
    pieces = np.array(shapes, dtype=object)
    meets = shapely.intersects(hulls[:, None], pieces[None, :])  # (bases, shapes)
    out = [False] * len(start)
    for i in np.flatnonzero(meets.any(axis=1)).tolist():
        hull = hulls[i]
        ks = np.flatnonzero(meets[i]).tolist()
        if float(hull.area) > min_area + 1e-6 and any(shapely.contains(pieces[k], hull) for k in ks):
            out[i] = True
            continue
        out[i] = any(overlap_area(hull, pieces[k]) > min_area for k in ks)
    return out
