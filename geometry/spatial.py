"""A pymunk index of the table's obstacles for fast overlap screening (private to ``geometry``).

Every unit's *core* (footprint shrunk by ``CONTACT_TOL``) is a static pymunk box; every terrain piece's core is
one convex pymunk polygon, or its triangles when the piece is not convex. ``Scene`` builds the index on first use
and then updates only the unit that moved (``set_unit``, ``remove_unit``); terrain never changes.

``overlapping(points)`` answers "which obstacles does this convex polygon overlap?" (the hull of ``points``):
measured here at 10-20 us for a swept rectangle against a crowded table, two to three times faster than the
numpy capsule kernels on the few obstacles near it, and 4-5 times faster than shapely (building the polygon alone
costs 20-30 us). Shapes are plain polygons (no radius: rounded pymunk polygons miss contacts, see
``../shared/libraries.md``); touching is not overlapping (cores are shrunk, and pymunk reports a contact only at
distance <= 0). Exact answers (contact times, distances) still come from ``geometry.obstacles`` and shapely; the
index is a screen.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np
import pymunk
import shapely
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

UNIT = 1
"""Category bit of unit cores."""
IMPASSABLE = 2
"""Category bit of impassable terrain."""
TERRAIN = 4
"""Category bit of every terrain piece."""

_IDENTITY = pymunk.Transform.identity()

# ``Space.shape_query`` builds a ContactPointSet in Python for every shape hit, which an overlap test never reads
# (4-5 times the cost of the query itself). pymunk's own cffi layer can run the same C query with a callback that
# only records the shapes hit; ``tests/geometry/test_spatial.py`` checks it answers as ``shape_query`` does. Should
# a pymunk release change those internals, the public query is used. The shapes hit go to a list of the calling
# thread's own (the C query runs without the GIL, and the computer opponent thinks on a worker thread).
_LOCAL = threading.local()

try:
    from pymunk._chipmunk import ffi as _ffi
    from pymunk._chipmunk import lib as _lib
    from pymunk.shapes import Shape as _Shape

    @_ffi.callback("cpSpaceShapeQueryFunc")  # type: ignore[untyped-decorator]
    def _record_hit(shape: object, points: object, data: object) -> None:
        _LOCAL.hits.append(shape)

    FAST_QUERY = True
except (ImportError, AttributeError, TypeError):  # pragma: no cover - another pymunk
    FAST_QUERY = False


def shapes_overlapping(space: pymunk.Space, probe: pymunk.Shape) -> list[pymunk.Shape]:
    """The shapes of ``space`` that ``probe`` overlaps (those ``space.shape_query(probe)`` reports), without
    their contact points."""
    if not FAST_QUERY:
        return [h.shape for h in space.shape_query(probe) if h.shape is not None]
    hits: list[object] = []
    _LOCAL.hits = hits
    _lib.cpSpaceShapeQuery(space._space, probe._shape, _record_hit, _ffi.NULL)
    _LOCAL.hits = None
    found = [_Shape._from_cp_shape(p) for p in hits]
    return [f for f in found if f is not None]


HULL_STRAIGHT = 1e-7
"""Relative turn (cross product over the product of the two edges' lengths, ~ radians) below which a hull vertex
counts as lying on the straight line through its neighbours and is dropped. At 1e-9 a footprint swept 1e-7 degrees
off its side kept such a vertex and chipmunk missed a 0.017" deep overlap (tests/geometry/test_spatial.py); dropping
a vertex that turns by this much moves the outline in by at most this times half an edge (under 1e-6" on a 20"
edge)."""


def convex_outline(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of ``points`` counter-clockwise, without repeated points nor vertices lying (within
    ``HULL_STRAIGHT``) on the line through their neighbours (monotone chain).

    Chipmunk keeps such vertices, and a probe polygon with one -- the hull of a rectangle moved along one of its
    sides has two -- can miss a clear overlap (its contact clipping finds no point: no hit). Fewer than three
    points come back when they are all on one line."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts
    tol2 = HULL_STRAIGHT * HULL_STRAIGHT

    def chain(seq: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2:
                o, a = out[-2], out[-1]
                ax, ay, bx, by = a[0] - o[0], a[1] - o[1], p[0] - a[0], p[1] - a[1]
                cross = ax * by - ay * bx
                # a left turn keeps ``a``, unless it is (within the tolerance) straight on; a hairpin is a turn
                if cross > 0 and (ax * bx + ay * by < 0
                                  or cross * cross > tol2 * (ax * ax + ay * ay) * (bx * bx + by * by)):
                    break
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(reversed(pts))
    return lower[:-1] + upper[:-1]


def _convex_pieces(core: BaseGeometry) -> list[list[tuple[float, float]]]:
    """Convex outlines (counter-clockwise vertex lists) covering ``core``: itself when convex, else triangles."""
    polys = [core] if isinstance(core, Polygon) else list(getattr(core, "geoms", []))
    out: list[list[tuple[float, float]]] = []
    for p in polys:
        if p.is_empty or p.area <= 0:
            continue
        hull = p.convex_hull
        if abs(hull.area - p.area) <= 1e-9 * max(1.0, hull.area):
            ring = shapely.geometry.polygon.orient(hull, 1.0).exterior.coords[:-1]
            out.append([(float(x), float(y)) for x, y in ring])
            continue
        for tri in shapely.constrained_delaunay_triangles(p).geoms:
            ring = shapely.geometry.polygon.orient(tri, 1.0).exterior.coords[:-1]
            out.append([(float(x), float(y)) for x, y in ring])
    return out


class ShapeIndex:
    """Static pymunk shapes of unit cores (key = unit id) and terrain cores (key = position in the scene's
    terrain tuple) for overlap queries.

    Two pymunk spaces: ``terrain_space`` holds the terrain alone, never changes and is shared by every copy
    (``copy``), for the queries about terrain (the terrain a move crosses); ``space`` holds terrain and units
    together for the queries about units (one query, not two), and is built on the first of them. A copied scene
    (a game cloned for looking ahead) thus pays for its unit boxes only if it asks about units.
    """

    def __init__(self, terrain_cores: Sequence[BaseGeometry], impassable: Iterable[int]) -> None:
        blocked = set(impassable)
        self._terrain: list[tuple[list[tuple[float, float]], int, tuple[str, int]]] = [
            (verts, TERRAIN | (IMPASSABLE if pos in blocked else 0), ("terrain", pos))
            for pos, core in enumerate(terrain_cores) for verts in _convex_pieces(core)]
        self.terrain_space = pymunk.Space()
        """The terrain pieces' cores (never changes; shared by copies)."""
        self._add_terrain(self.terrain_space)
        self.space: pymunk.Space | None = None
        """Terrain and unit cores, built on the first query about units, then kept up to date."""
        self._cores: dict[str, np.ndarray] = {}
        self._units: dict[str, pymunk.Poly] = {}
        self._groups: dict[str, int] = {}
        self._filters: dict[tuple[int, int], pymunk.ShapeFilter] = {}

    def _add_terrain(self, space: pymunk.Space) -> None:
        for verts, cats, key in self._terrain:
            shape = pymunk.Poly(space.static_body, verts)
            shape.filter = pymunk.ShapeFilter(categories=cats)
            shape.key = key
            space.add(shape)

    def copy(self, unit_cores: dict[str, np.ndarray]) -> ShapeIndex:
        """An index with the same terrain (shared) and the units ``unit_cores`` (unit id -> corners (4, 2))."""
        twin = object.__new__(ShapeIndex)
        twin._terrain = self._terrain
        twin.terrain_space = self.terrain_space
        twin.space = None
        twin._cores = dict(unit_cores)
        twin._units = {}
        twin._groups = dict(self._groups)
        twin._filters = self._filters  # ShapeFilter values are immutable
        return twin

    def _combined(self) -> pymunk.Space:
        if self.space is None:
            self.space = pymunk.Space()
            self._add_terrain(self.space)
            for unit_id, core in self._cores.items():
                self._add_unit(unit_id, core)
        return self.space

    def _add_unit(self, unit_id: str, core: np.ndarray) -> None:
        assert self.space is not None
        shape = pymunk.Poly(self.space.static_body, [(float(x), float(y)) for x, y in core])
        group = self._groups.setdefault(unit_id, len(self._groups) + 1)  # a query can leave its own unit out
        shape.filter = pymunk.ShapeFilter(group=group, categories=UNIT)
        shape.key = ("unit", unit_id)
        self.space.add(shape)
        self._units[unit_id] = shape

    def set_unit(self, unit_id: str, core: np.ndarray) -> None:
        """Add or move a unit's core (corners (4, 2))."""
        self._cores[unit_id] = core
        if self.space is None:
            return
        shape = self._units.get(unit_id)
        if shape is None:
            self._add_unit(unit_id, core)
        else:   # moved: the same shape, its vertices replaced and its box re-indexed (a tenth of remove and add)
            shape.unsafe_set_vertices([(float(x), float(y)) for x, y in core], _IDENTITY)   # hull, as new
            self.space.reindex_shape(shape)

    def remove_unit(self, unit_id: str) -> None:
        """Forget a unit (nothing if absent)."""
        self._cores.pop(unit_id, None)
        shape = self._units.pop(unit_id, None)
        if shape is not None and self.space is not None:
            self.space.remove(shape)

    def overlapping(self, points: Sequence[Sequence[float]] | np.ndarray, mask: int = UNIT | IMPASSABLE,
                    exclude: str | None = None, clean: bool = False) -> list[tuple[str, object]]:
        """Keys (("unit", id) or ("terrain", position)) of the shapes in ``mask`` that the convex hull of ``points``
        overlaps, sorted; unit ``exclude`` (the one moving) is left out. ``clean``: the caller knows the hull of
        ``points`` has no vertex on the line through its neighbours (``convex_outline`` is skipped)."""
        verts: list[tuple[float, float]] = (
            [(x, y) for x, y in points.tolist()] if isinstance(points, np.ndarray) else [(p[0], p[1]) for p in points]
        )
        hull = verts if clean else convex_outline(verts)
        probe = pymunk.Poly(None, hull if len(hull) >= 3 else verts)
        probe.update(_IDENTITY)
        group = self._groups.get(exclude, 0) if exclude is not None else 0
        filt = self._filters.get((mask, group))
        if filt is None:
            filt = self._filters[(mask, group)] = pymunk.ShapeFilter(group=group, mask=mask)
        probe.filter = filt
        hits = shapes_overlapping(self._combined() if mask & UNIT else self.terrain_space, probe)
        if not hits:
            return []
        return sorted({h.key for h in hits})
