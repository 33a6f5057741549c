"""The table as geometry: its size, the terrain pieces and the current unit footprints (``SceneData``).

A ``SceneData`` caches every shape it builds: terrain is prepared once; a unit's shapes are rebuilt only when
``set_unit`` moves it. Queries are pure and deterministic: every list of ids comes back sorted, terrain pieces
come back in ``index`` order. Units are keyed by string ids and carry a player number (1 or 2, not checked).

This is the data half of ``geometry.scene.Scene``: everything that needs neither sight nor movement. The modules
that compute those (``sight``, ``motion``, ``obstacles``, ``contact``, ``charge_path``, ``point_sight``) take a
``SceneData`` and import this module; ``Scene`` (one layer up) adds the methods that call them, so imports only
point downwards (issue 14).

Tolerance: shapes closer than ``TOL`` (0.001") of overlapping count as touching, not overlapping, so units in
base contact never "overlap" through rounding.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Self

import numpy as np
import shapely
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from geometry.formation import Formation, footprint_corners, model_centres, model_rows
from geometry.pose import Point, Pose
from geometry.shapes import CONTACT_TOL, model_corner_array
from geometry.spatial import ShapeIndex
from geometry.terrain import BLOCKING, COVER, ELEVATED, IMPASSABLE, SEE_INTO_NOT_THROUGH, TerrainShape

TOL = CONTACT_TOL
"""Inches: overlaps smaller than this count as contact."""

LAYOUTS_KEPT = 256
"""Unit layouts whose cached answers a scene and its copies keep for each other (``_LayoutCaches``): up to twice
this many, the least recently used forgotten first."""


def _shrunk_rect(corners: np.ndarray, by: float) -> np.ndarray:
    """A rectangle's corners (4, 2) moved ``by`` inches inward along both of its axes.

    Plain floats (four corners: a quarter of the time of a dozen numpy calls), the very operations of the numpy
    form ``_shrunk_rect_numpy`` in the same order (``tests/geometry/test_shapes_terrain.py`` compares the two bit
    for bit); the lengths come from numpy's ``hypot`` (Python's rounds differently in the last bit)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners.tolist()
    cx, cy = (((x0 + x1) + x2) + x3) / 4, (((y0 + y1) + y2) + y3) / 4  # ``mean``: a sequential sum over 4 rows
    ux, uy, vx, vy = x1 - x0, y1 - y0, x0 - x3, y0 - y3
    lu, lv = float(np.hypot(ux, uy)), float(np.hypot(vx, vy))
    uux, uuy = ux / max(lu, 1e-12), uy / max(lu, 1e-12)
    vvx, vvy = vx / max(lv, 1e-12), vy / max(lv, 1e-12)
    hu, hv = max(lu / 2 - by, 1e-6), max(lv / 2 - by, 1e-6)
    return np.array([(cx + (su * uux) * hu + (sv * vvx) * hv, cy + (su * uuy) * hu + (sv * vvy) * hv)
                     for su, sv in _CORNER_SIGNS])


_CORNER_SIGNS = ((-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0))
"""Signs of the two half-axes at each corner, ``rect_corners`` order."""


def _shrunk_rect_numpy(corners: np.ndarray, by: float) -> np.ndarray:
    """``_shrunk_rect`` as numpy computes it (the reference its tests compare with)."""
    centre = corners.mean(axis=0)
    u = corners[1] - corners[0]
    v = corners[0] - corners[3]
    uu = u / max(float(np.hypot(*u)), 1e-12)
    vv = v / max(float(np.hypot(*v)), 1e-12)
    half_u = max(float(np.hypot(*u)) / 2 - by, 1e-6)
    half_v = max(float(np.hypot(*v)) / 2 - by, 1e-6)
    signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
    out: np.ndarray = centre + signs[:, :1] * uu * half_u + signs[:, 1:] * vv * half_v
    return out


_KEY_SPAN = 1 << 27
"""Millionths of an inch: points within this of the origin have their two keys packed into one integer."""


def distinct_points(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct points (n, 2) to a millionth of an inch, as ``np.unique(keys, axis=0, return_index=True,
    return_inverse=True)`` gives them for the rounded keys: (index of each distinct point's first occurrence, in
    the keys' lexicographic order; index in those of every point). Both keys of a point on or near the table are
    packed into one integer (the same order; a quarter of the time of the row-wise ``unique``)."""
    keys = np.round(points * 1e6).astype(np.int64)
    if keys.size and int(np.abs(keys).max()) < _KEY_SPAN:
        packed = ((keys[:, 0] + _KEY_SPAN) << 28) + (keys[:, 1] + _KEY_SPAN)
        _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


@dataclass
class _Unit:
    """Cached shapes of one unit (private)."""

    player: int
    pose: Pose
    formation: Formation
    corners: np.ndarray
    core: np.ndarray
    bbox: np.ndarray
    footprint: Polygon | None = None
    models: list[Polygon] | None = None
    model_corners: np.ndarray | None = None
    model_bbox: tuple[float, float, float, float] | None = None
    model_centres: np.ndarray | None = None
    model_rows: np.ndarray | None = None
    elevated: bool | None = None
    samples: tuple[np.ndarray, np.ndarray] | None = None
    corner_samples: list[int] | None = None


@dataclass
class _TerrainGeo:
    """Prepared shapes of one terrain piece (private)."""

    piece: TerrainShape
    edges_a: np.ndarray
    edges_b: np.ndarray
    bbox: np.ndarray


class _Layout:
    """Where every unit of a scene stands, as a dictionary key: (id, player, pose, formation) of each unit in the
    scene's order, with the hash worked out once (private)."""

    __slots__ = ("units", "_hash")

    def __init__(self, units: tuple[tuple[str, int, Pose, Formation], ...]) -> None:
        self.units = units
        self._hash = hash(units)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Layout) and self._hash == other._hash and self.units == other.units


class _LayoutCaches:
    """The cached answers of each unit layout, shared by a scene and all its copies (private; ``SceneData.cache``).

    A look-ahead plays the same action on many clones of a game, and most of them reach the same layouts (the
    same charge moves, before the dice part them): an answer found in one serves the others. Queries are pure
    functions of the table, the terrain and the layout (ids come back sorted, nothing depends on the order units
    were moved in), so sharing changes no answer. Two generations of at most ``LAYOUTS_KEPT`` layouts each: when
    the newer is full it becomes the older, and the older is dropped; a layout found in the older comes back to
    the newer. The lock keeps the two generations whole when the computer opponent thinks on its worker thread.
    """

    def __init__(self) -> None:
        self.new: dict[_Layout, dict[tuple[object, ...], object]] = {}
        self.old: dict[_Layout, dict[tuple[object, ...], object]] = {}
        self.lock = threading.Lock()

    def get(self, layout: _Layout) -> dict[tuple[object, ...], object]:
        """The answers cached for ``layout`` (a new empty dict the first time)."""
        with self.lock:
            got = self.new.get(layout)
            if got is None:
                got = self.old.pop(layout, None)
                if got is None:
                    got = {}
                if len(self.new) >= LAYOUTS_KEPT:
                    self.old, self.new = self.new, {}
                self.new[layout] = got
            return got

    def clear(self) -> None:
        """Forget every layout's answers."""
        with self.lock:
            self.new, self.old = {}, {}


@dataclass
class _UnitArrays:
    """All units stacked for vectorised queries (private); rebuilt after any ``set_unit``/``remove_unit``."""

    ids: list[str]
    players: np.ndarray
    footprints: np.ndarray
    core_polys: np.ndarray
    corners: np.ndarray
    cores: np.ndarray
    cores_next: np.ndarray
    bboxes: np.ndarray
    index: dict[str, int] = field(default_factory=dict)
    stale: set[int] = field(default_factory=set)

    def copy(self) -> _UnitArrays:
        """A copy whose arrays may be updated in place without touching these."""
        return _UnitArrays(list(self.ids), self.players.copy(), self.footprints.copy(), self.core_polys.copy(),
                           self.corners.copy(), self.cores.copy(), self.cores_next.copy(), self.bboxes.copy(),
                           dict(self.index), set(self.stale))


class SceneData:
    """The table (``width`` x ``depth`` inches, origin at player 1's left corner), its terrain and the units.

    Use ``geometry.scene.Scene``, which adds sight and movement; geometry modules take this base class.

    Raises ``ValueError`` for a non-positive table size or two terrain pieces with the same index.
    Serves the rulebook's "Measuring Distances", "Line of Sight", "Movement" and "Terrain" sections.
    """

    def __init__(self, width: float, depth: float, terrain: Sequence[TerrainShape]) -> None:
        if not (width > 0 and depth > 0):
            raise ValueError(f"table size must be positive, got {width} x {depth}")
        self.width = float(width)
        """Table width along x, inches."""
        self.depth = float(depth)
        """Table depth along y, inches."""
        pieces = sorted(terrain, key=lambda t: t.index)
        if len({t.index for t in pieces}) != len(pieces):
            raise ValueError("terrain pieces must have distinct indices")
        self.terrain: tuple[TerrainShape, ...] = tuple(pieces)
        """Terrain pieces in index order."""
        cores = [shapely.buffer(t.shape, -TOL, join_style="mitre") for t in pieces]
        self._geo = [self._prepare(t, core) for t, core in zip(pieces, cores, strict=True)]
        self._terrain_tree = shapely.STRtree(cores)
        self.terrain_cores: tuple[BaseGeometry, ...] = tuple(cores)
        """Each piece shrunk by ``TOL`` (index order as ``terrain``)."""
        self.terrain_core_boxes: np.ndarray = np.array([c.bounds for c in cores], dtype=float).reshape(-1, 4)
        """Bounding boxes of the cores (pieces, 4): minx, miny, maxx, maxy (NaN for an empty core)."""
        for t in pieces:
            shapely.prepare(t.shape)
        self.table_polygon: Polygon = shapely.box(0.0, 0.0, self.width, self.depth)
        """The table as a polygon."""
        elevated = [t.shape for t in pieces if ELEVATED in t.traits]
        self._elevated_union: BaseGeometry | None = shapely.union_all(elevated) if elevated else None
        if self._elevated_union is not None:
            shapely.prepare(self._elevated_union)
        self.los_terrain: list[int] = [
            i for i, t in enumerate(pieces) if BLOCKING in t.traits or SEE_INTO_NOT_THROUGH in t.traits
        ]
        """Positions (in ``terrain``) of pieces that can block sight."""
        self.cover_terrain: list[int] = [i for i, t in enumerate(pieces) if COVER in t.traits]
        """Positions of cover pieces."""
        self._sight_positions = sorted(set(self.los_terrain) | set(self.cover_terrain))
        self._sight_tree = shapely.STRtree([cores[i] for i in self._sight_positions])
        self.impassable_terrain: list[int] = [i for i, t in enumerate(pieces) if IMPASSABLE in t.traits]
        """Positions of impassable pieces."""
        self._units: dict[str, _Unit] = {}
        self._cache: dict[tuple[object, ...], object] | None = None
        """The current layout's cached answers; None once a unit changed, until ``cache`` finds them again."""
        self._layouts = _LayoutCaches()
        self._arrays: _UnitArrays | None = None
        self._shape_index: ShapeIndex | None = None
        self.version = 0
        """Counts unit changes (``set_unit``, ``remove_unit``): derived structures compare it to refresh."""
        self.persistent: dict[str, object] = {}
        """Structures derived from the scene that survive unit moves and ``clear_cache`` (their owners refresh them
        incrementally against ``version``), e.g. the stacked sight obstacles of ``geometry.sight``."""
        self.shared: dict[str, object] = {}
        """Structures derived from the table and the terrain alone (which never change in a game), or keyed by all
        else they depend on, shared by this scene and every copy of it (``copy``): one built in a look-ahead clone
        serves the game and its other clones, e.g. the terrain rows of move checks and sight, charge way points,
        the computer opponent's routes round impassable terrain (``game.ai.route``). Built whole before they are
        stored (the computer opponent's worker thread reads them too)."""

    # ----------------------------------------------------------------------------------------------- terrain
    @staticmethod
    def _prepare(piece: TerrainShape, core: BaseGeometry) -> _TerrainGeo:
        polys = [core] if isinstance(core, Polygon) else list(getattr(core, "geoms", []))
        rings = [np.asarray(p.exterior.coords)[:-1] for p in polys if not p.is_empty]
        if not rings:  # a sliver thinner than the tolerance: use the outline itself
            rings = [np.asarray(piece.shape.exterior.coords)[:-1]]
        a = np.concatenate(rings)
        b = np.concatenate([np.roll(r, -1, axis=0) for r in rings])  # once per piece
        minx, miny, maxx, maxy = piece.shape.bounds
        return _TerrainGeo(piece, a, b, np.array([minx, miny, maxx, maxy]))

    def terrain_geo(self, position: int) -> _TerrainGeo:
        """Prepared shapes of the piece at ``position`` in ``terrain`` (for geometry modules)."""
        return self._geo[position]

    def sight_terrain_near(self, geom: BaseGeometry) -> list[int]:
        """Positions (sorted) of sight-blocking or cover pieces whose core ``geom`` intersects."""
        if not self._sight_positions:
            return []
        return sorted(self._sight_positions[int(i)] for i in self._sight_tree.query(geom, predicate="intersects"))

    def terrain_at(self, polygon: BaseGeometry) -> list[TerrainShape]:
        """Terrain pieces that ``polygon`` overlaps by more than ``TOL`` (area > 0), in index order.

        Rulebook "Terrain": which terrain a unit is in.
        """
        idx = sorted(int(i) for i in self._terrain_tree.query(polygon, predicate="intersects"))
        return [self.terrain[i] for i in idx]

    def terrain_positions_at(self, geoms: Sequence[BaseGeometry]) -> list[int]:
        """Positions (in ``terrain``) of pieces any of ``geoms`` overlaps, sorted, without repeats."""
        if not geoms or not self.terrain:
            return []
        hits = self._terrain_tree.query(np.array(geoms, dtype=object), predicate="intersects")
        return sorted({int(i) for i in hits[1]})

    def traits_at(self, polygon: BaseGeometry) -> frozenset[str]:
        """Union of the traits of every terrain piece ``polygon`` overlaps (see ``terrain_at``)."""
        out: set[str] = set()
        for t in self.terrain_at(polygon):
            out |= t.traits
        return frozenset(out)

    def on_table(self, polygon: BaseGeometry) -> bool:
        """True if ``polygon`` lies fully on the table (0..width x 0..depth, boundary included, 1e-9" slack).

        Rulebook "General Movement": no part of a model may be outside the battlefield.
        """
        minx, miny, maxx, maxy = (float(v) for v in polygon.bounds)
        eps = 1e-9
        return minx >= -eps and miny >= -eps and maxx <= self.width + eps and maxy <= self.depth + eps

    # -------------------------------------------------------------------------------------------------- units
    def set_unit(self, unit_id: str, player: int, pose: Pose, formation: Formation) -> None:
        """Add a unit or replace its player, pose and formation; only this unit's shapes are rebuilt."""
        old = self._units.get(unit_id)
        if old is not None and old.pose == pose and old.formation == formation and old.player == player:
            return
        self._cache = None
        self.version += 1
        corners = np.array(footprint_corners(pose, formation), dtype=float)
        core = _shrunk_rect(corners, TOL)
        bbox = np.concatenate([corners.min(axis=0), corners.max(axis=0)])
        self._units[unit_id] = _Unit(player, pose, formation, corners, core, bbox)
        if self._shape_index is not None:
            self._shape_index.set_unit(unit_id, core)
        arrays = self._arrays
        if arrays is not None and old is not None:  # update the stacked arrays in place
            i = arrays.index[unit_id]
            arrays.players[i] = player
            arrays.corners[i] = corners
            arrays.cores[i] = core
            arrays.cores_next[i] = core[[1, 2, 3, 0]]
            arrays.bboxes[i] = bbox
            arrays.stale.add(i)
        else:
            self._arrays = None

    def remove_unit(self, unit_id: str) -> None:
        """Take a unit off the table. Raises ``KeyError`` if it is not there."""
        del self._units[unit_id]
        self._arrays = None
        self._cache = None
        self.version += 1
        if self._shape_index is not None:
            self._shape_index.remove_unit(unit_id)

    def copy(self) -> Self:
        """An independent scene with the same table, terrain and units, for a game cloned to look ahead.

        Everything built from the terrain is shared (it never changes), and so is each unit's entry, which a move
        replaces rather than changes; the structures a move updates in place (the stacked unit arrays, the pymunk
        unit index) are copied, and cached answers are shared: those of every layout either scene reaches
        (``_LayoutCaches``).
        """
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._units = dict(self._units)
        twin._arrays = self._arrays.copy() if self._arrays is not None else None
        twin._shape_index = None
        if self._shape_index is not None:
            twin._shape_index = self._shape_index.copy({uid: u.core for uid, u in self._units.items()})
        # derived structures check the arrays they were built from by identity, so the copy rebuilds its own
        twin.persistent = dict(self.persistent)
        return twin

    def shape_index(self) -> ShapeIndex:
        """The pymunk index of unit and terrain cores (``geometry.spatial``), built on first use and then kept up
        to date unit by unit."""
        if self._shape_index is None:
            index = ShapeIndex(self.terrain_cores, self.impassable_terrain)
            for uid, u in self._units.items():
                index.set_unit(uid, u.core)
            self._shape_index = index
        return self._shape_index

    @property
    def cache(self) -> dict[tuple[object, ...], object]:
        """Answers of pure queries (sight, cover, paths) for the units as they stand: a unit set or removed moves
        the scene to another layout's answers (found again when the units stand so again, in this scene or in a
        copy of it: ``_LayoutCaches``). Keys must name everything else the answer depends on."""
        got = self._cache
        if got is None:
            got = self._cache = self._layouts.get(_Layout(tuple(
                (uid, u.player, u.pose, u.formation) for uid, u in self._units.items())))
        return got

    def clear_cache(self) -> None:
        """Forget cached query answers, of every layout this scene and its copies share (for benchmarks: cold
        queries; a copy keeps the answers of its current layout until one of its units moves)."""
        self._layouts.clear()
        self._cache = None

    def has_unit(self, unit_id: str) -> bool:
        """True if the unit is on the table."""
        return unit_id in self._units

    def unit_ids(self) -> list[str]:
        """Ids of all units on the table, sorted."""
        return sorted(self._units)

    def _unit(self, unit_id: str) -> _Unit:
        try:
            return self._units[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r} in the scene") from None

    def pose(self, unit_id: str) -> Pose:
        """The unit's pose. Raises ``KeyError`` for an unknown id (as do all per-unit queries)."""
        return self._unit(unit_id).pose

    def formation(self, unit_id: str) -> Formation:
        """The unit's formation."""
        return self._unit(unit_id).formation

    def player(self, unit_id: str) -> int:
        """The unit's player number."""
        return self._unit(unit_id).player

    def corners(self, unit_id: str) -> np.ndarray:
        """Footprint corners as a (4, 2) array, inches, order as ``rect_corners``. Do not modify."""
        return self._unit(unit_id).corners

    def core(self, unit_id: str) -> np.ndarray:
        """Footprint corners shrunk by ``TOL``: the shape that other things must not enter. Do not modify."""
        return self._unit(unit_id).core

    def footprint(self, unit_id: str) -> Polygon:
        """The unit's footprint polygon (bounding rectangle of its bases), inches; cached."""
        u = self._unit(unit_id)
        if u.footprint is None:
            u.footprint = Polygon(u.corners)
        return u.footprint

    def model_polygons(self, unit_id: str) -> list[Polygon]:
        """The unit's model bases as polygons, in ``model_centres`` order; cached."""
        u = self._unit(unit_id)
        if u.models is None:
            mc = self.model_corners(unit_id)
            u.models = list(shapely.polygons(mc)) if len(mc) else []
        return list(u.models)

    def model_corners(self, unit_id: str) -> np.ndarray:
        """Corners of every model base, array (models, 4, 2), inches; cached. Do not modify."""
        u = self._unit(unit_id)
        if u.model_corners is None:
            u.model_corners = model_corner_array(u.pose, u.formation)
        return u.model_corners

    def model_bbox(self, unit_id: str) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of every corner of the unit's model bases, inches; cached (the cheap bound
        range queries rule out far units with). A unit of no models gets an empty box (infinitely far)."""
        u = self._unit(unit_id)
        if u.model_bbox is None:
            pts = self.model_corners(unit_id).reshape(-1, 2)
            if len(pts) == 0:
                u.model_bbox = (np.inf, np.inf, -np.inf, -np.inf)      # no models: nothing is near it
            else:
                lo, hi = pts.min(axis=0), pts.max(axis=0)
                u.model_bbox = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
        return u.model_bbox

    def model_centres(self, unit_id: str) -> np.ndarray:
        """Centres of every model base, array (models, 2), inches, front row first; cached. Do not modify."""
        u = self._unit(unit_id)
        if u.model_centres is None:
            pts = model_centres(u.pose, u.formation)
            u.model_centres = np.array(pts, dtype=float).reshape(-1, 2)
        return u.model_centres

    def model_rows(self, unit_id: str) -> np.ndarray:
        """Row index (0 = front) of every model, array (models,); cached. Do not modify."""
        u = self._unit(unit_id)
        if u.model_rows is None:
            u.model_rows = np.array(model_rows(u.formation), dtype=int)
        return u.model_rows

    def sight_samples(self, unit_id: str) -> tuple[np.ndarray, np.ndarray]:
        """Points sight lines are drawn to on this unit, and which model owns each; cached.

        Returns (points (s, 2), owner (models, s) bool): every base centre (in ``model_centres`` order), then
        every distinct base corner (shared by up to four bases). Serves ``geometry.sight``.
        """
        u = self._unit(unit_id)
        if u.samples is None:
            centres = self.model_centres(unit_id)
            corners = self.model_corners(unit_id)
            m = len(centres)
            flat = corners.reshape(-1, 2)
            first, inverse = distinct_points(flat)
            grid = flat[first]
            owner = np.zeros((m, m + len(grid)), dtype=bool)
            owner[np.arange(m), np.arange(m)] = True
            owner[np.repeat(np.arange(m), 4), m + inverse.reshape(-1)] = True
            u.samples = (np.concatenate([centres, grid]), owner)
        return u.samples

    def sight_corner_samples(self, unit_id: str) -> list[int]:
        """For each footprint corner (``corners`` order), the index in ``sight_samples`` of the base corner lying
        on it, or -1 where no base has that corner (a short last row, a joined hero); cached. Serves
        ``geometry.sight``."""
        u = self._unit(unit_id)
        if u.corner_samples is None:
            pts, _ = self.sight_samples(unit_id)
            d = np.hypot(pts[None, :, 0] - u.corners[:, None, 0], pts[None, :, 1] - u.corners[:, None, 1])
            best = d.argmin(axis=1)
            u.corner_samples = [int(i) if d[c, i] < 1e-9 else -1 for c, i in enumerate(best)]
        return u.corner_samples

    def is_elevated(self, unit_id: str) -> bool:
        """True if more than half of the unit's footprint area lies on ``elevated`` terrain (a hill)."""
        u = self._unit(unit_id)
        if u.elevated is None:
            if self._elevated_union is None:
                u.elevated = False
            else:
                fp = self.footprint(unit_id)
                u.elevated = bool(shapely.intersection(fp, self._elevated_union).area > 0.5 * fp.area)
        return u.elevated

    def arrays(self) -> _UnitArrays:
        """All units stacked in sorted-id order for vectorised queries (for geometry modules)."""
        arrays = self.stacked()
        if arrays.stale:
            for k in arrays.stale:
                arrays.footprints[k] = self.footprint(arrays.ids[k])
                arrays.core_polys[k] = Polygon(arrays.cores[k])
            arrays.stale.clear()
        return arrays

    def stacked(self) -> _UnitArrays:
        """``arrays`` without bringing the shapely polygons of units moved since up to date: read only its
        numbers (ids, players, corners, cores, bounding boxes), not ``footprints`` nor ``core_polys``."""
        if self._arrays is None:
            ids = sorted(self._units)
            units = [self._units[i] for i in ids]
            n = len(ids)
            self._arrays = _UnitArrays(
                ids=ids,
                players=np.array([u.player for u in units], dtype=int),
                footprints=np.array([None] * n, dtype=object),
                core_polys=np.array([None] * n, dtype=object),
                corners=np.array([u.corners for u in units], dtype=float).reshape(n, 4, 2),
                cores=np.array([u.core for u in units], dtype=float).reshape(n, 4, 2),
                cores_next=np.array([u.core[[1, 2, 3, 0]] for u in units], dtype=float).reshape(n, 4, 2),
                bboxes=np.array([u.bbox for u in units], dtype=float).reshape(n, 4),
                index={uid: k for k, uid in enumerate(ids)},
                stale=set(range(n)),
            )
        return self._arrays

    # ---------------------------------------------------------------------------------------------- distances
    def distance(self, a_id: str, b_id: str) -> float:
        """Closest distance between the two units' footprints, inches (0 if touching or overlapping).

        Rulebook "Measuring Distances" (closest points), using the footprint as the unit's outline. Kept in
        ``cache`` until a unit moves (players and the rules ask for the same pairs many times in one position).
        """
        key = ("distance", a_id, b_id)
        cache = self.cache
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = float(shapely.distance(self.footprint(a_id), self.footprint(b_id)))
        assert isinstance(hit, float)
        return hit

    def distances(self, a_id: str, b_ids: Sequence[str]) -> list[float]:
        """``distance(a_id, b)`` for each of ``b_ids``, the ones not cached yet measured in one call."""
        cache = self.cache
        out: list[float] = []
        missing: list[int] = []
        for k, b in enumerate(b_ids):
            hit = cache.get(("distance", a_id, b))
            if hit is None:
                missing.append(k)
                hit = 0.0
            assert isinstance(hit, float)
            out.append(hit)
        if missing:
            found = shapely.distance(self.footprint(a_id), [self.footprint(b_ids[k]) for k in missing])
            for k, d in zip(missing, found, strict=True):
                out[k] = cache[("distance", a_id, b_ids[k])] = float(d)
        return out

    def distance_to_point(self, unit_id: str, point: Point) -> float:
        """Closest distance from the unit's footprint to ``point``, inches (0 inside)."""
        return float(shapely.distance(self.footprint(unit_id), shapely.Point(point)))

    def distances_to_points(self, unit_id: str, points: np.ndarray | Sequence[Point]) -> list[float]:
        """``distance_to_point`` of each of ``points`` (an (n, 2) array or (x, y) pairs, inches), in one call."""
        if len(points) == 0:
            return []
        return [float(d) for d in shapely.distance(self.footprint(unit_id), shapely.points(points))]

    def units_within(self, unit_id: str, d: float, players: Collection[int] | None = None) -> list[str]:
        """Sorted ids of other units whose footprint is within ``d`` inches of this unit's footprint.

        ``players`` restricts the answer to those players' units. Rulebook "Measuring Distances" (e.g. "within 6"").
        """
        fp = self.footprint(unit_id)
        arrays = self.stacked()
        # a unit whose bounding box is farther than ``d`` (and a margin for rounding) from this one's is farther
        # than ``d``: only the others are measured, and only their footprints are built
        bb = arrays.bboxes
        lo_x, lo_y, hi_x, hi_y = (float(v) for v in bb[arrays.index[unit_id]])
        reach = d + 1e-9 + 1e-6
        maybe = np.flatnonzero((bb[:, 0] <= hi_x + reach) & (bb[:, 2] >= lo_x - reach)
                               & (bb[:, 1] <= hi_y + reach) & (bb[:, 3] >= lo_y - reach)).tolist()
        ids = [arrays.ids[k] for k in maybe if arrays.ids[k] != unit_id
               and (players is None or int(arrays.players[k]) in players)]
        if not ids:
            return []
        near = shapely.dwithin(fp, [self.footprint(uid) for uid in ids], d + 1e-9)
        return [uid for uid, hit in zip(ids, near.tolist(), strict=True) if hit]
