"""Property tests: answers do not depend on where the table is or how it is turned; symmetry; safe paths."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from geometry.arcs import arc_of_point
from geometry.formation import Formation
from geometry.pose import Point, Pose
from geometry.scene import Scene
from geometry.terrain import TerrainShape, rect_to_polygon

FORMATIONS = [Formation(10, 5, 20, 20), Formation(20, 5, 20, 20), Formation(1, 1, 50, 50), Formation(6, 3, 25, 50)]
TRAITS = [
    frozenset({"blocking", "impassable"}),
    frozenset({"cover", "difficult", "see_into_not_through"}),
    frozenset({"cover", "difficult", "elevated"}),
    frozenset({"cover"}),
]
SIZE = 400.0
CENTRE = (200.0, 200.0)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])

coord = st.floats(180, 220, allow_nan=False).map(lambda v: round(v, 3) + 1e-4)
facing = st.floats(0, 359.9).map(lambda v: round(v, 2))


@dataclass(frozen=True)
class Layout:
    units: list[tuple[str, int, Pose, Formation]]
    terrain: list[tuple[float, float, float, float, float, frozenset[str]]]


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    n = draw(st.integers(2, 4))
    units = []
    for i in range(n):
        f = FORMATIONS[draw(st.integers(0, len(FORMATIONS) - 1))]
        # irrational per-unit offsets keep exact ties (a point exactly on a 45 degree arc boundary, a line exactly
        # through a corner) out of the examples: turning the table may break a tie either way
        jitter = (i + 1) * 1e-4
        pose = Pose(
            draw(coord) + jitter * math.sqrt(2),
            draw(coord) + jitter * math.sqrt(3),
            draw(facing) + jitter * math.sqrt(5),
        )
        units.append((f"u{i}", 1 + i % 2, pose, f))
    terrain = []
    for _ in range(draw(st.integers(0, 2))):
        terrain.append(
            (
                draw(coord),
                draw(coord),
                draw(st.floats(1, 8)),
                draw(st.floats(1, 8)),
                draw(facing),
                TRAITS[draw(st.integers(0, len(TRAITS) - 1))],
            )
        )
    return Layout(units, terrain)


def transform(p: Point, angle: float, shift: Point) -> Point:
    """Turn ``p`` clockwise by ``angle`` degrees about the table centre, then shift it."""
    a = math.radians(angle)
    x, y = p[0] - CENTRE[0], p[1] - CENTRE[1]
    c, s = math.cos(a), math.sin(a)
    return (x * c + y * s + CENTRE[0] + shift[0], -x * s + y * c + CENTRE[1] + shift[1])


def tpose(p: Pose, angle: float, shift: Point) -> Pose:
    return Pose(*transform(p.xy, angle, shift), p.facing + angle)


def build(layout: Layout, angle: float = 0.0, shift: Point = (0.0, 0.0)) -> Scene:
    terrain = []
    for i, (x, y, w, d, a, traits) in enumerate(layout.terrain):
        pts = tuple(transform(p, angle, shift) for p in rect_to_polygon(x, y, w, d, a))
        terrain.append(TerrainShape(i, f"t{i}", pts, traits))
    s = Scene(SIZE, SIZE, terrain)
    for uid, player, pose, f in layout.units:
        s.set_unit(uid, player, tpose(pose, angle, shift), f)
    return s


def separated(s: Scene) -> bool:
    ids = s.unit_ids()
    return all(s.distance(a, b) > 0.01 for i, a in enumerate(ids) for b in ids[i + 1 :])


moves = st.lists(
    st.tuples(st.floats(-8, 8), st.floats(-8, 8), st.sampled_from([0.0, 45.0, -90.0, 90.0])), min_size=1, max_size=2
)
angles = st.sampled_from([0.0, 30.0, 90.0, 137.5, 180.0, 271.0])
shifts = st.tuples(st.floats(-20, 20), st.floats(-20, 20))


@SETTINGS
@given(layouts(), angles, shifts, moves)
def test_answers_survive_turning_and_shifting(
    layout: Layout, angle: float, shift: Point, legs: list[tuple[float, float, float]]
) -> None:
    s1 = build(layout)
    assume(separated(s1))
    s2 = build(layout, angle, shift)
    ids = s1.unit_ids()
    for a in ids:
        for b in ids:
            if a == b:
                continue
            assert s1.distance(a, b) == pytest.approx(s2.distance(a, b), abs=1e-6)
            assert s1.unit_has_sight(a, b) == s2.unit_has_sight(a, b)
            assert s1.models_with_sight(a, b, rows=2) == s2.models_with_sight(a, b, rows=2)
            assert s1.in_cover(a, b) == s2.in_cover(a, b)
            pb = s1.pose(b)
            f = s1.formation(a)
            assert arc_of_point(s1.pose(a), f.width, f.depth, pb.xy) == arc_of_point(
                s2.pose(a), f.width, f.depth, s2.pose(b).xy
            )
    start = s1.pose("u0")
    path = []
    cur = start
    for dx, dy, turn in legs:
        cur = Pose(cur.x + dx, cur.y + dy, cur.facing + turn)
        path.append(cur)
    c1 = s1.check_path("u0", start, path)
    c2 = s2.check_path("u0", tpose(start, angle, shift), [tpose(p, angle, shift) for p in path])
    assert c1.rule == c2.rule
    assert c1.distance == pytest.approx(c2.distance)
    assert c1.terrain_crossed == c2.terrain_crossed
    r1 = s1.slide("u0", start, 30.0, 6.0)
    r2 = s2.slide("u0", tpose(start, angle, shift), 30.0 + angle, 6.0)
    assert r1.travelled == pytest.approx(r2.travelled, abs=1e-6)
    assert r1.blocked_by == r2.blocked_by


@SETTINGS
@given(layouts(), st.tuples(coord, coord), st.tuples(coord, coord))
def test_distance_and_lines_are_symmetric(layout: Layout, p: Point, q: Point) -> None:
    s = build(layout)
    ids = s.unit_ids()
    for a in ids:
        for b in ids:
            assert s.distance(a, b) == s.distance(b, a)
    assert s.line_clear(p, q) == s.line_clear(q, p)
    assert s.line_clear(p, q, ignore_units=["u0"]) == s.line_clear(q, p, ignore_units=["u0"])


@SETTINGS
@given(layouts(), moves)
def test_accepted_paths_end_clear_of_other_units(layout: Layout, legs: list[tuple[float, float, float]]) -> None:
    s = build(layout)
    assume(separated(s))
    start = s.pose("u0")
    path = []
    cur = start
    for dx, dy, turn in legs:
        cur = Pose(cur.x + dx, cur.y + dy, cur.facing + turn)
        path.append(cur)
    before = {b: s.distance("u0", b) for b in s.unit_ids() if b != "u0"}
    on_start = {t.index for t in s.terrain_at(s.footprint("u0"))}  # a start already on a piece is not judged
    check = s.check_path("u0", start, path)
    if not check.ok:
        return
    s.set_unit("u0", 1, path[-1], s.formation("u0"))
    for b, d0 in before.items():
        assert s.distance("u0", b) >= min(1.0, d0) - 2e-3
    for t in s.terrain:
        if "impassable" in t.traits and t.index not in on_start:
            assert s.footprint("u0").intersection(t.shape).area < 1e-3
