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


def reference_models(s: Scene, a: str, b: str) -> list[int]:
    f = s.formation(a)
    facing = s.pose(a).facing
    pts, _ = s.sight_samples(b)
    out = []
    for i, e in enumerate(s.model_centres(a)):
        base = Pose(float(e[0]), float(e[1]), facing)
        for q in pts:
            qq = (float(q[0]), float(q[1]))
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
