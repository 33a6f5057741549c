"""The fast sight search agrees with a slow, obvious reference on random tables (rulebook "Line of Sight")."""

from __future__ import annotations

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geometry.arcs import Arc, arc_of_point
from geometry.formation import Formation
from geometry.pose import Pose
from geometry.scene import Scene
from geometry.terrain import TerrainShape, rect_to_polygon

FORMATIONS = [Formation(10, 5, 20, 20), Formation(20, 5, 20, 20), Formation(1, 1, 50, 50), Formation(7, 3, 25, 25)]
TRAITS = [
    frozenset({"blocking", "impassable"}),
    frozenset({"cover", "difficult", "see_into_not_through"}),
    frozenset({"cover", "difficult", "elevated"}),
]


def reference_line(s: Scene, p: tuple[float, float], q: tuple[float, float], ignore: set[str], looker: str) -> bool:
    line = shapely.LineString([p, q])
    n = 0
    for uid in s.unit_ids():
        if uid not in ignore and line.intersects(shapely.Polygon(s.core(uid))):
            n += 1
    for pos, t in enumerate(s.terrain):
        if pos not in s.los_terrain:
            continue
        core = s.terrain_cores[pos]
        if "blocking" in t.traits:
            n += line.intersects(core.boundary)
        elif line.intersects(core) and not (t.shape.contains(shapely.Point(p)) or t.shape.contains(shapely.Point(q))):
            n += 1
    return n <= (1 if s.is_elevated(looker) else 0)


def reference_models(s: Scene, a: str, b: str, max_range: float | None = None, rows: int | None = None) -> list[int]:
    """Looker models (the first ``rows`` rows, None: all) that see a target model (with ``max_range``, one within
    that range, closest points of the bases): the slow, obvious reading of "Line of Sight", "Who Can Shoot" and
    "Measuring Distances"."""
    f = s.formation(a)
    facing = s.pose(a).facing
    pts, owner = s.sight_samples(b)
    mine = [shapely.Polygon(c) for c in s.model_corners(a)]
    theirs = [shapely.Polygon(c) for c in s.model_corners(b)]
    model_rows = s.model_rows(a)
    out = []
    for i, e in enumerate(s.model_centres(a)):
        if rows is not None and model_rows[i] >= rows:
            continue
        base = Pose(float(e[0]), float(e[1]), facing)
        near = set(range(len(theirs))) if max_range is None else \
            {j for j, poly in enumerate(theirs) if mine[i].distance(poly) <= max_range + 1e-9}
        for k, q in enumerate(pts):
            qq = (float(q[0]), float(q[1]))
            if not any(owner[j][k] for j in near):
                continue
            if arc_of_point(base, f.base_width, f.base_depth, qq) != Arc.FRONT:
                continue
            if reference_line(s, base.xy, qq, {a, b}, a):
                out.append(i)
                break
    return out


coord = st.floats(4, 44).map(lambda v: round(v, 2) + 0.003)


@st.composite
def tables(draw: st.DrawFn) -> Scene:
    terrain = []
    for i in range(draw(st.integers(0, 3))):
        x, y = draw(coord), draw(coord)
        if draw(st.booleans()):
            pts = rect_to_polygon(x, y, draw(st.floats(1, 6)), draw(st.floats(1, 6)), draw(st.floats(0, 90)))
        else:  # an L-shaped (non-convex) piece
            a, b = draw(st.floats(2, 6)), draw(st.floats(1, 2))
            pts = ((x, y), (x + a, y), (x + a, y + b), (x + b, y + b), (x + b, y + a), (x, y + a))
        terrain.append(TerrainShape(i, f"t{i}", pts, TRAITS[draw(st.integers(0, 2))]))
    s = Scene(48, 48, terrain)
    placed = 0
    for i in range(draw(st.integers(2, 6))):
        f = FORMATIONS[draw(st.integers(0, len(FORMATIONS) - 1))]
        s.set_unit(f"u{i}", 1 + i % 2, Pose(draw(coord), draw(coord), draw(st.floats(0, 359))), f)
        if any(s.distance(f"u{i}", o) < 0.01 for o in s.unit_ids() if o != f"u{i}"):
            s.remove_unit(f"u{i}")  # keep units apart
        else:
            placed += 1
    return s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_fast_sight_matches_reference(s: Scene) -> None:
    ids = s.unit_ids()
    for a in ids:
        visible = set(s.visible_units(a, ids))
        for b in ids:
            if a == b:
                continue
            expect = reference_models(s, a, b)
            assert s.models_with_sight(a, b) == expect
            assert (b in visible) == bool(expect)
            assert s.unit_has_sight(a, b) == bool(expect)


def test_cache_is_dropped_when_a_unit_moves() -> None:
    s = Scene(72, 48, [])
    s.set_unit("a", 1, Pose(36, 10, 0), Formation(10, 5, 20, 20))
    s.set_unit("b", 2, Pose(36, 30, 180), Formation(10, 5, 20, 20))
    assert s.unit_has_sight("a", "b") and s.visible_units("a", ["b", "a"]) == ["b"]
    s.set_unit("x", 2, Pose(36, 20, 0), Formation(20, 20, 25, 25))
    assert not s.unit_has_sight("a", "b")
    s.remove_unit("x")
    assert s.unit_has_sight("a", "b")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.floats(0.5, 30), st.sampled_from([None, 1, 2]))
def test_sight_within_range_matches_reference(s: Scene, max_range: float, rows: int | None) -> None:
    """Range-limited sight (a weapon's range: far units are ruled out by their bounding boxes before any sight
    line is drawn) gives the reference's answer, near and far."""
    ids = s.unit_ids()
    for a in ids:
        for b in ids:
            if a != b:
                assert s.models_with_sight(a, b, rows, max_range) == reference_models(s, a, b, max_range, rows)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.lists(st.tuples(st.floats(0, 48), st.floats(0, 48)), max_size=6))
def test_batched_distances_match_one_at_a_time(s: Scene, points: list[tuple[float, float]]) -> None:
    """``distances`` and ``distances_to_points`` answer exactly as ``distance`` and ``distance_to_point`` do, and
    every model base lies inside ``model_bbox``."""
    import numpy as np

    data = s
    ids = s.unit_ids()
    for a in ids:
        others = [b for b in ids if b != a]
        fresh = data.distances(a, others)
        assert fresh == [data.distance(a, b) for b in others]
        assert data.distances(a, others) == fresh        # the cached answers
        assert data.distances_to_points(a, np.array(points).reshape(-1, 2)) == \
            [data.distance_to_point(a, p) for p in points]
        lo_x, lo_y, hi_x, hi_y = data.model_bbox(a)
        corners = data.model_corners(a).reshape(-1, 2)
        assert (corners[:, 0] >= lo_x).all() and (corners[:, 0] <= hi_x).all()
        assert (corners[:, 1] >= lo_y).all() and (corners[:, 1] <= hi_y).all()
