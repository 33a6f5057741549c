"""Shapes, terrain pieces and the basic Scene queries."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPoint

from geometry.formation import Formation, footprint_corners, model_centres
from geometry.pose import Pose
from geometry.scene_data import _shrunk_rect, _shrunk_rect_numpy, distinct_points
from geometry.shapes import (
    footprint_polygon,
    model_corner_array,
    model_polygons,
    overlap_area,
    rect_polygon,
    swept_overlapping,
)
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.geometry.helpers import INF10, INF20, piece, put, scene


def test_rect_polygon_area_and_orientation() -> None:
    p = rect_polygon(Pose(10, 10, 90), 4, 2)
    assert p.area == pytest.approx(8)
    minx, miny, maxx, maxy = p.bounds
    assert (maxx - minx, maxy - miny) == (pytest.approx(2), pytest.approx(4))
    with pytest.raises(ValueError):
        rect_polygon(Pose(0, 0, 0), 0, 1)


def test_footprint_and_models() -> None:
    pose = Pose(30, 20, 30)
    fp = footprint_polygon(pose, INF20)
    assert fp.area == pytest.approx(INF20.width * INF20.depth)
    polys = model_polygons(pose, INF20)
    assert len(polys) == 20
    for poly, c in zip(polys, model_centres(pose, INF20), strict=True):
        assert poly.centroid.distance(shapely.Point(c)) < 1e-9
        assert fp.buffer(1e-9).contains(poly)
    short = Formation(7, 5, 20, 20)
    assert len(model_polygons(pose, short)) == 7


def test_rect_to_polygon_rotation() -> None:
    pts = rect_to_polygon(0, 0, 4, 2, 90)
    # rotated clockwise by 90: the 4" side now runs along y
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    assert max(xs) - min(xs) == pytest.approx(2)
    assert max(ys) - min(ys) == pytest.approx(4)


def test_terrain_shape_validation_and_cache() -> None:
    t = TerrainShape(0, "hill", ((0, 0), (4, 0), (4, 3)), frozenset({"cover"}))
    assert t.shape is t.shape
    assert t.shape.area == pytest.approx(6)
    assert t.has("cover")
    with pytest.raises(ValueError):
        TerrainShape(1, "bad", ((0, 0), (1, 1)), frozenset())
    with pytest.raises(ValueError):
        TerrainShape(1, "bowtie", ((0, 0), (1, 1), (1, 0), (0, 1)), frozenset())
    with pytest.raises(ValueError):
        TerrainShape(1, "nan", ((0, 0), (math.nan, 1), (1, 0)), frozenset())


def test_scene_units_and_distance() -> None:
    s = scene()
    put(s, "b", 10, 10, 0)
    put(s, "a", 10, 20, 0)
    put(s, "c", 40, 10, 0, player=2)
    assert s.unit_ids() == ["a", "b", "c"]
    gap = 10 - INF10.depth
    assert s.distance("a", "b") == pytest.approx(gap)
    assert s.distance("b", "a") == pytest.approx(gap)
    assert s.units_within("b", gap + 0.01) == ["a"]
    assert s.units_within("b", 100) == ["a", "c"]
    assert s.units_within("b", 100, players={2}) == ["c"]
    assert s.distance_to_point("a", (10, 20)) == 0
    assert s.distance_to_point("a", (10, 30)) == pytest.approx(10 - INF10.depth / 2)
    s.set_unit("a", 1, Pose(10, 30, 0), INF10)  # moving updates caches
    assert s.distance("a", "b") == pytest.approx(20 - INF10.depth)
    assert s.units_within("b", gap + 0.01) == []
    s.remove_unit("a")
    assert not s.has_unit("a")
    with pytest.raises(KeyError):
        s.footprint("a")


def test_scene_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        scene(width=0)
    with pytest.raises(ValueError):
        scene(piece(0, 5, 5, 2, 2), piece(0, 9, 9, 2, 2))


def test_on_table_and_terrain_at() -> None:
    s = scene(piece(1, 20, 20, 4, 4, "difficult"), piece(0, 30, 20, 4, 4, "cover", "blocking"))
    assert s.on_table(shapely.box(0, 0, 72, 48))
    assert not s.on_table(shapely.box(-0.1, 0, 5, 5))
    assert [t.index for t in s.terrain] == [0, 1]
    assert s.terrain_at(shapely.box(21, 21, 40, 22)) == list(s.terrain)
    assert s.terrain_at(shapely.box(22, 0, 23, 5)) == []
    # touching the edge is not overlapping
    assert s.terrain_at(shapely.box(22, 18, 23, 22)) == []
    assert s.traits_at(shapely.box(19, 19, 21, 21)) == frozenset({"difficult"})


def test_model_queries() -> None:
    s = scene()
    put(s, "a", 10, 10, 0, INF20)
    assert s.model_centres("a").shape == (20, 2)
    assert s.model_corners("a").shape == (20, 4, 2)
    assert list(s.model_rows("a")) == [0] * 5 + [1] * 5 + [2] * 5 + [3] * 5
    assert len(s.model_polygons("a")) == 20


@settings(max_examples=150, deadline=None)
@given(st.floats(20, 50), st.floats(12, 36), st.floats(0, 359), st.floats(-3, 3), st.floats(-3, 3), st.floats(0, 359),
       st.sampled_from([INF10, INF20, Formation(5, 5, 25, 50)]),
       st.lists(st.tuples(st.floats(20, 50), st.floats(12, 36), st.floats(0.5, 12), st.floats(0.5, 12),
                          st.floats(0, 90)), min_size=1, max_size=3))
def test_swept_bases_overlap_as_each_base_measured_alone(x, y, facing, dx, dy, turn, f, pieces) -> None:
    """``swept_overlapping`` (the hulls in one call, a hull inside a shape not measured) answers for every base as
    the hull of its start and end outlines measured alone with ``overlap_area`` (rulebook "Dangerous Terrain":
    which models moved through a piece)."""
    start, end = Pose(x, y, facing), Pose(x + dx, y + dy, facing + turn)
    shapes = [piece(i, *p[:4], "dangerous", angle=p[4]).shape for i, p in enumerate(pieces)]
    a, b = model_corner_array(start, f), model_corner_array(end, f)
    expected = []
    for pa, pb in zip(model_polygons(start, f), model_polygons(end, f), strict=True):
        swept = MultiPoint(list(pa.exterior.coords) + list(pb.exterior.coords)).convex_hull
        expected.append(any(overlap_area(swept, t) > 1e-9 for t in shapes))
    assert swept_overlapping(a, b, shapes, 1e-9) == expected
    assert swept_overlapping(a[:0], b[:0], shapes, 1e-9) == []
    with pytest.raises(ValueError):
        swept_overlapping(a, b[:1], shapes, 1e-9)


def test_swept_bases_touching_a_piece_do_not_overlap_it() -> None:
    """A rank moving along a piece's edge (touching it) does not overlap it; a rank moving into it does, each base
    on its own (rulebook "Dangerous Terrain")."""
    f = INF10
    start = Pose(30, 20, 0)
    a = model_corner_array(start, f)
    right = float(a[:, :, 0].max())
    touching = shapely.box(right, 10, right + 4, 30)     # flush with the unit's right side
    inside = shapely.box(right - 1.0, 10, right + 4, 30)   # under the right-most file
    b = model_corner_array(Pose(30, 24, 0), f)
    assert swept_overlapping(a, b, [touching], 1e-9) == [False] * len(a)
    hit = swept_overlapping(a, b, [inside], 1e-9)
    assert any(hit) and not all(hit)
    deep = shapely.box(0, 0, 72, 48)                       # every hull inside: measured by its own area
    assert swept_overlapping(a, b, [deep], 1e-9) == [True] * len(a)


_UNIT = st.tuples(st.floats(0, 72), st.floats(0, 48), st.floats(0, 360), st.sampled_from([INF10, INF20]),
                  st.sampled_from([1, 2]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_UNIT, min_size=1, max_size=8), st.floats(0, 30), st.sampled_from([None, {1}, {2}, {1, 2}]),
       st.lists(st.tuples(st.integers(0, 7), st.floats(0, 72), st.floats(0, 48)), max_size=3))
def test_units_within_is_shapelys_dwithin(units: list[tuple[float, float, float, Formation, int]], d: float,
                                          players: set[int] | None, moves: list[tuple[int, float, float]]) -> None:
    """``units_within`` measures only units whose bounding boxes come within ``d`` (issue 13): the answer is shapely's
    ``dwithin`` over every footprint, also after units move (the stacked boxes updated in place)."""
    s = scene()
    for i, (x, y, facing, f, player) in enumerate(units):
        put(s, f"u{i}", x, y, facing, f, player)
    s.units_within("u0", d)  # the stacked arrays exist before the moves
    for i, x, y in moves:
        if i < len(units):
            put(s, f"u{i}", x, y, units[i][2], units[i][3], units[i][4])
    fp = s.footprint("u0")
    expected = [uid for uid in s.unit_ids() if uid != "u0" and (players is None or s.player(uid) in players)
                and shapely.dwithin(fp, s.footprint(uid), d + 1e-9)]
    assert s.units_within("u0", d, players) == expected


@settings(max_examples=500, deadline=None)
@given(st.floats(-10, 80), st.floats(-10, 60), st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0]),
                                                        st.floats(0, 360)),
       st.integers(1, 40), st.integers(1, 10), st.sampled_from([20, 25, 32, 40, 50, 60, 75]),
       st.sampled_from([20, 25, 32, 40, 50, 60, 100]), st.sampled_from([0.001, 0.0, 0.5, 3.0]))
def test_shrunk_rect_on_floats_is_the_numpy_form(x: float, y: float, facing: float, models: int, per_row: int,
                                                 w: int, d: int, by: float) -> None:
    """The scene's unit cores come from plain floats (issue 13): to the last bit what the numpy form gave."""
    corners = np.array(footprint_corners(Pose(x, y, facing), Formation(models, per_row, w, d)), dtype=float)
    assert np.array_equal(_shrunk_rect(corners, by), _shrunk_rect_numpy(corners, by))


@settings(max_examples=300, deadline=None)
@given(st.floats(-20, 150), st.floats(-20, 150), st.floats(0, 360), st.integers(1, 40), st.integers(1, 10),
       st.sampled_from([20, 25, 32, 40, 50]), st.sampled_from([20, 25, 40, 60, 100]), st.booleans(),
       st.sampled_from([1.0, 1e4, 1e9]))
def test_distinct_points_are_the_row_wise_unique(x: float, y: float, facing: float, models: int, per_row: int,
                                                 w: int, d: int, hero: bool, scale: float) -> None:
    """``distinct_points`` (the sight samples' base corners, issue 13) answers as ``np.unique`` over the rounded
    rows, on the table and far off it (where the keys are not packed)."""
    f = Formation(models, per_row, w, d, 40, 40) if hero else Formation(models, per_row, w, d)
    points = model_corner_array(Pose(x, y, facing), f).reshape(-1, 2) * scale
    keys = np.round(points * 1e6).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    got_first, got_inverse = distinct_points(points)
    assert np.array_equal(got_first, first) and np.array_equal(got_inverse, inverse.reshape(-1))
