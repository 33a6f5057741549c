"""Move paths and slides (rulebook "General Movement", "Pivoting", terrain, "Flight Moves", "Pursuit Moves")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import MultiPoint, Polygon
from shapely.ops import nearest_points

from geometry import motion
from geometry._vec import first_within
from geometry.formation import Formation, rect_corners
from geometry.motion import RULE_IMPASSABLE, RULE_ONE_INCH, RULE_TABLE_EDGE, RULE_THROUGH_UNIT
from geometry.obstacles import NEXT, Obstacles, first_times, first_times_many, gather, hull_gaps, overlapping
from geometry.pose import Point, Pose, forward_vector
from geometry.scene import Scene
from geometry.terrain import TerrainShape
from tests.geometry.helpers import INF10, INF20, SINGLE, piece, put, scene

HALF_D = INF10.depth / 2
HALF_W = INF10.width / 2


def test_clear_advance_with_pivot() -> None:
    s = scene(piece(0, 36, 16, 10, 2, "difficult", "dangerous"))
    put(s, "a", 36, 10, 0)
    start = s.pose("a")
    check = s.check_path("a", start, [Pose(36, 16, 0), Pose(36, 16, 45)])
    assert check.ok and check.problem is None
    assert check.distance == pytest.approx(6)
    assert check.traits_crossed == frozenset({"difficult", "dangerous"})
    assert check.terrain_crossed == ("t0",)
    clear = s.check_path("a", start, [Pose(30, 10, 0)])
    assert clear.ok and clear.traits_crossed == frozenset()


def test_table_edge() -> None:
    s = scene()
    put(s, "a", 36, 3, 0)
    check = s.check_path("a", s.pose("a"), [Pose(36, 0.5, 0)])
    assert check.rule == RULE_TABLE_EDGE and not check.ok
    assert check.where is not None and check.where[1] == pytest.approx(0)
    assert check.step == 0
    # moving exactly to the edge is fine
    assert s.check_path("a", s.pose("a"), [Pose(36, HALF_D, 0)]).ok


def test_pivot_ignores_terrain_and_units_but_not_the_edge() -> None:
    s = scene(piece(0, 36, 10, 1, 1, "impassable", "blocking"))
    put(s, "a", 36, 12.5, 0, INF20)  # the rock sits just behind the unit's rear edge: turning sweeps over it
    put(s, "b", 36, 15.29, 0, INF10, player=2)  # and b just in front of it
    check = s.check_path("a", s.pose("a"), [Pose(36, 12.5, 180)], exclusion=0)
    assert check.ok, check.problem
    check = s.check_path("a", s.pose("a"), [Pose(36, 12.5, 30)], exclusion=0)
    assert check.rule == RULE_IMPASSABLE  # but it may not end on the rock
    put(s, "e", 2.0, 30, 0, INF20)
    check = s.check_path("e", s.pose("e"), [Pose(2.0, 30, 45)])
    assert check.rule == RULE_TABLE_EDGE


def test_pivot_ending_on_a_unit_fails() -> None:
    s = scene()
    put(s, "a", 36, 10, 0, Formation(10, 10, 25.4, 25.4))  # 10" x 1"
    put(s, "b", 36, 14, 0, Formation(1, 1, 25.4, 25.4))
    assert s.check_path("a", s.pose("a"), [Pose(36, 10, 0)]).ok
    check = s.check_path("a", s.pose("a"), [Pose(36, 10, 90)])
    assert check.rule == RULE_THROUGH_UNIT and check.blocker == "b"


def test_impassable_terrain() -> None:
    s = scene(piece(0, 36, 20, 8, 2, "impassable"))
    put(s, "a", 36, 10, 0)
    check = s.check_path("a", s.pose("a"), [Pose(36, 30, 0)])
    assert check.rule == RULE_IMPASSABLE and check.blocker == "t0"
    assert check.where is not None and check.where[1] == pytest.approx(19, abs=0.01)
    assert "t0" in (check.message or "")


def test_through_a_unit_and_one_inch() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 20, 0, player=2)
    through = s.check_path("a", s.pose("a"), [Pose(36, 30, 0)])
    assert through.rule == RULE_THROUGH_UNIT and through.blocker == "b"
    near = s.check_path("a", s.pose("a"), [Pose(36, 20 - 2 * HALF_D - 0.5, 0)])
    assert near.rule == RULE_ONE_INCH and near.blocker == "b"
    ok = s.check_path("a", s.pose("a"), [Pose(36, 20 - 2 * HALF_D - 1.0, 0)])
    assert ok.ok
    charge = s.check_path("a", s.pose("a"), [Pose(36, 20 - 2 * HALF_D, 0)], exclusion=0)
    assert charge.ok
    # ignore_units ignores a unit completely
    assert s.check_path("a", s.pose("a"), [Pose(36, 30, 0)], ignore_units=["b"]).ok


def test_sweep_passes_close_by_mid_path() -> None:
    s = scene()
    put(s, "a", 20, 10, 0)
    put(s, "b", 36, 14, 0, Formation(1, 1, 25.4, 25.4), player=2)
    # a diagonal move whose ends are far from b but which brushes past it on the way
    check = s.check_path("a", s.pose("a"), [Pose(52, 17.5, 0)])
    assert check.rule in (RULE_ONE_INCH, RULE_THROUGH_UNIT)


def test_starting_within_one_inch_may_move_away() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 10 + 2 * HALF_D + 0.5, 0, player=2)
    assert s.check_path("a", s.pose("a"), [Pose(36, 5, 0)]).ok
    assert s.check_path("a", s.pose("a"), [Pose(33, 10, 0)]).ok  # sideways, not closer
    assert s.check_path("a", s.pose("a"), [Pose(36, 10.3, 0)]).rule == RULE_ONE_INCH


def test_slide_stops_one_inch_short() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 20, 0, player=2)
    r = s.slide("a", s.pose("a"), 0, 12)
    assert r.blocked_by == "b" and r.blocked_kind == "unit" and r.contacted is None
    put(s, "a", r.pose.x, r.pose.y, r.pose.facing)
    assert s.distance("a", "b") == pytest.approx(1.0, abs=2e-3)
    assert r.travelled == pytest.approx(10 - 2 * HALF_D - 1, abs=2e-3)


def test_slide_contacts_stop_at_unit() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 38, 20, 30, player=2)
    r = s.slide("a", s.pose("a"), 0, 12, stop_at=["b"])
    assert r.contacted == "b" and r.blocked_by is None
    put(s, "a", r.pose.x, r.pose.y, r.pose.facing)
    assert s.distance("a", "b") == pytest.approx(0, abs=2e-3)


def test_slide_terrain_and_edge() -> None:
    s = scene(piece(0, 36, 20, 10, 2, "impassable"), piece(1, 36, 5, 10, 2, "dangerous"))
    put(s, "a", 36, 10, 0)
    r = s.slide("a", s.pose("a"), 0, 12)
    assert r.blocked_by == "t0" and r.blocked_kind == "terrain"
    assert r.pose.y + HALF_D == pytest.approx(19 - 1, abs=2e-3)
    back = s.slide("a", s.pose("a"), 180, 20)
    assert back.blocked_by == "table edge" and back.pose.y - HALF_D == pytest.approx(1.0)
    assert "dangerous" in back.traits_crossed
    flee = s.slide("a", s.pose("a"), 180, 20, edge_exits=True)
    assert flee.off_table and flee.pose.y - HALF_D == pytest.approx(0.0)
    short = s.slide("a", s.pose("a"), 180, 2, edge_exits=True)
    assert not short.off_table and short.travelled == pytest.approx(2)
    with pytest.raises(ValueError):
        s.slide("a", s.pose("a"), 0, -1)


def test_slide_away_from_a_unit_in_contact() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 10 + 2 * HALF_D, 180, player=2)  # in base contact
    r = s.slide("a", s.pose("a"), 180, 4)
    assert r.travelled == pytest.approx(4) and r.blocked_by is None
    r2 = s.slide("a", s.pose("a"), 0, 4)
    assert r2.travelled == pytest.approx(0, abs=1e-3) and r2.blocked_by == "b"


def test_slide_never_ends_within_gap_of_a_stop_at_unit_it_does_not_reach() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 20, 0, player=2)
    short = 10 - 2 * HALF_D - 0.5  # half an inch short of contact
    r = s.slide("a", s.pose("a"), 0, short, stop_at=["b"])
    assert r.contacted is None and r.blocked_by == "b"
    assert r.travelled == pytest.approx(10 - 2 * HALF_D - 1, abs=2e-3)
    # a unit in the way before the stop_at unit: stopped 1" short of it, and not within 1" of the target
    put(s, "c", 36, 15, 90, Formation(1, 1, 25.4, 25.4), player=1)
    r = s.slide("a", s.pose("a"), 0, 12, stop_at=["b"])
    assert r.blocked_by == "c" and r.contacted is None


def test_slide_does_not_pass_within_gap_of_another_stop_at_unit_to_reach_the_first() -> None:
    """Rulebook "Pursuit Moves": the pursuer stops 1" from a unit that blocks it, and contact is made with a fleeing
    unit only if nothing stops it first; another fleeing unit beside the line (a stop_at unit not reached) blocks
    like any unit (the soak found a pursuer ending 0.72" from one, having caught the other)."""
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 20, 0, player=2)                                 # straight ahead: contact after 10 - 2 HALF_D
    put(s, "c", 36 + 2.0 + 0.5 + 0.5, 16, 0, SINGLE, player=2)       # beside the line, 0.5" from a's side
    r = s.slide("a", s.pose("a"), 0, 12, stop_at=["b", "c"])
    assert r.contacted is None and r.blocked_by == "c"
    put(s, "a", r.pose.x, r.pose.y, r.pose.facing)
    assert s.distance("a", "c") >= 1 - 2e-3


@pytest.mark.parametrize("sink", [0.0, 0.0004, 0.0005, 0.0009])
def test_unit_touching_within_tolerance_may_not_pivot_into_it(sink: float) -> None:
    """Rulebook "Pivoting": the unit may not end in a physically impossible place. A unit in base contact (even
    overlapping another footprint by less than ``CONTACT_TOL``, as flush placements may leave it) is not free to
    pivot or move into that unit: only a unit genuinely overlapping at the start ignores it."""
    s = scene()
    put(s, "a", 36, 10, 90, Formation(10, 5, 20, 20))  # 1.57" x 3.94", its front edge at x = 36.79
    put(s, "b", 36 + HALF_D + 0.5 - sink, 10.5, 0, Formation(1, 1, 25.4, 25.4))  # touching a's front edge
    check = s.check_path("b", s.pose("b"), [Pose(s.pose("b").x, 10.5, 22.0)])
    assert check.rule == RULE_THROUGH_UNIT and check.blocker == "a"
    assert s.check_path("b", s.pose("b"), [Pose(s.pose("b").x + 1, 10.5, 0)], exclusion=0).ok  # away is fine
    r = s.slide("b", s.pose("b"), 270, 2, gap=0)
    assert r.travelled == pytest.approx(0, abs=1e-3)


# --- the separating-axis shortcut of check_path against the exact path ------------------------------------------

FORMS = [INF10, INF20, SINGLE, Formation(5, 5, 25, 50), Formation(6, 3, 40, 40)]
# offsets that put an obstacle exactly, or a hair off, touching or 1" from the mover (the verdict's edge cases)
GAPS = [0.0, 1e-7, 0.0005, 1.0, 1.0, 1.0 + 1e-7, 1.0 - 1e-7, 1.001, 0.5]


@st.composite
def crowded(draw: st.DrawFn) -> tuple[Scene, Pose, list[Pose], float, bool, list[str]]:
    """A mover among units and impassable pieces placed near it (some flush or exactly 1" away), and a path of one
    to three legs with pivots."""
    terrain = []
    for i in range(draw(st.integers(0, 3))):
        terrain.append(piece(i, draw(st.floats(20, 52)), draw(st.floats(12, 36)), draw(st.floats(0.3, 6)),
                             draw(st.floats(0.3, 6)), "impassable", angle=draw(st.sampled_from([0.0, 30.0, 45.0,
                                                                                             draw(st.floats(0, 90))]))))
    s = scene(*terrain)
    mf = draw(st.sampled_from(FORMS))
    start = Pose(draw(st.floats(30, 42)), draw(st.floats(20, 28)), draw(st.sampled_from([0.0, 90.0, 180.0, 33.0,
                                                                                         draw(st.floats(0, 359))])))
    s.set_unit("m", 1, start, mf)
    for i in range(draw(st.integers(0, 6))):
        f = draw(st.sampled_from(FORMS))
        side = draw(st.sampled_from(["front", "back", "left", "right", "front", "right", "free"]))
        gap = draw(st.sampled_from(GAPS))
        along = draw(st.floats(-4, 4))
        turn = draw(st.sampled_from([0.0, 180.0, 0.0, 90.0, draw(st.floats(0, 359))]))
        if side == "free":
            pose = Pose(draw(st.floats(24, 48)), draw(st.floats(14, 34)), turn)
        else:
            depth_off = (mf.depth + f.depth) / 2 + gap if turn in (0.0, 180.0) else (mf.depth + f.width) / 2 + gap
            width_off = (mf.width + f.width) / 2 + gap if turn in (0.0, 180.0) else (mf.width + f.depth) / 2 + gap
            u, v = {"front": (along, depth_off), "back": (along, -depth_off), "left": (-width_off, along),
                    "right": (width_off, along)}[side]
            x, y = start.to_world((u, v))
            pose = Pose(x, y, start.facing + turn)
        s.set_unit(f"o{i}", 1 + i % 2, pose, f)
    path = []
    cur = start
    for _ in range(draw(st.integers(1, 3))):
        bearing = draw(st.sampled_from([cur.facing, cur.facing + 90, cur.facing + 180, cur.facing + 270,
                                        draw(st.floats(0, 359))]))
        length = draw(st.sampled_from([0.0, 1e-9, 0.003, draw(st.floats(0, 2)), draw(st.floats(0, 9))]))
        dx, dy = forward_vector(bearing)
        facing = draw(st.sampled_from([cur.facing, cur.facing + draw(st.floats(-90, 90))]))
        cur = Pose(cur.x + dx * length, cur.y + dy * length, facing)
        path.append(cur)
    ids = s.unit_ids()
    ignore = draw(st.lists(st.sampled_from(ids), max_size=2))
    return s, start, path, draw(st.sampled_from([1.0, 0.0, 0.5, 3.0])), draw(st.booleans()), ignore


@settings(max_examples=400, deadline=None)
@given(crowded())
def test_the_shortcut_gives_the_exact_paths_verdict(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]]):
    """``check_path`` with the separating-axis shortcut (``motion.PREFILTER``) answers exactly as without it:
    rule, message, where, distance, terrain crossed, blocker and step, to the last bit."""
    s, start, path, exclusion, fly, ignore = case
    fast = s.check_path("m", start, path, exclusion=exclusion, fly_over=fly, ignore_units=ignore)
    try:
        motion.PREFILTER = False
        exact = s.check_path("m", start, path, exclusion=exclusion, fly_over=fly, ignore_units=ignore)
    finally:
        motion.PREFILTER = True
    assert fast == exact


@pytest.mark.parametrize("blocker", ["unit", "building"])
def test_a_move_surely_into_its_one_obstacle_is_refused_as_the_kernel_refuses_it(blocker: str, monkeypatch) -> None:
    """A leg straight through a unit or an impassable building, nothing else near: refused by the separating axis
    test alone (``motion._surely_into``), with the kernel's rule, message, blocker, step and point."""
    s = scene(piece(0, 36, 22, 6, 3, "impassable", angle=20.0)) if blocker == "building" else scene()
    if blocker == "unit":
        put(s, "b", 36, 22, 30, INF20, player=2)
    put(s, "a", 36, 10, 0)
    path = [Pose(36, 30, 0)]
    taken: list[bool] = []
    sure = motion._surely_into
    monkeypatch.setattr(motion, "_surely_into", lambda *a: taken.append(sure(*a)) or taken[-1])
    fast = s.check_path("a", s.pose("a"), path)
    assert taken == [True]
    assert fast.rule == (RULE_THROUGH_UNIT if blocker == "unit" else RULE_IMPASSABLE)
    monkeypatch.setattr(motion, "PREFILTER", False)
    exact = s.check_path("a", s.pose("a"), path)
    assert fast == exact and fast.where == exact.where and fast.where is not None


def test_a_concave_building_is_left_to_the_exact_kernel(monkeypatch) -> None:
    """An L-shaped building is not convex: the separating axis test cannot vouch for it (``_surely_into`` says no)
    and the kernel refuses the leg through it as it did."""
    ell = ((30.0, 20.0), (42.0, 20.0), (42.0, 23.0), (33.0, 23.0), (33.0, 30.0), (30.0, 30.0))
    s = scene(TerrainShape(0, "Ell", ell, frozenset({"impassable"})))
    put(s, "a", 36, 10, 0)
    taken: list[bool] = []
    sure = motion._surely_into
    monkeypatch.setattr(motion, "_surely_into", lambda *a: taken.append(sure(*a)) or taken[-1])
    check = s.check_path("a", s.pose("a"), [Pose(36, 28, 0)])
    assert taken == [False] and check.rule == RULE_IMPASSABLE and check.blocker == "Ell"


@settings(max_examples=300, deadline=None)
@given(st.floats(20, 52), st.floats(14, 34), st.floats(0, 359), st.sampled_from(FORMS), st.floats(0, 359),
       st.floats(0.01, 12), st.floats(20, 52), st.floats(14, 34), st.floats(0.3, 6), st.floats(0.3, 6),
       st.floats(0, 90))
def test_surely_into_only_where_the_sweep_overlaps_the_core(x, y, facing, f, bearing, length, px, py, w, d,
                                                            angle) -> None:
    """``_surely_into`` says yes only where the swept area (the hull of the start and end rectangles) overlaps the
    core by more than a hair, and says yes wherever it overlaps by a clear margin (a convex core)."""
    s = scene(piece(0, px, py, w, d, "impassable", angle=angle))
    rect = np.array(rect_corners(Pose(x, y, facing), f.width, f.depth))
    direction = forward_vector(bearing)
    obs = gather(s, set(), np.array([-1e9, -1e9]), np.array([1e9, 1e9]))
    sweep = MultiPoint([tuple(p) for p in np.concatenate([rect, rect + np.array(direction) * length]).tolist()]
                       ).convex_hull
    core = Polygon(obs.a)
    sure = motion._surely_into(s, obs, rect, direction, length)
    if sure:
        assert sweep.intersection(core).area > 0.0
    if sweep.buffer(-1e-6).intersects(core.buffer(-1e-6)):
        assert sure


@settings(max_examples=300, deadline=None)
@given(crowded())
def test_hull_gaps_never_exceed_the_distance(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]]):
    """The separating-axis gap is a lower bound of the true distance from each obstacle core to a sweep."""
    s, start, path, _, _, _ = case
    f = s.formation("m")
    rects = [np.array(rect_corners(p, f.width, f.depth)) for p in [start, *path]]
    obs = gather(s, {"m"}, np.array([-1e9, -1e9]), np.array([1e9, 1e9]))
    if not len(obs):
        return
    hulls = [np.concatenate([a, b + (np.array(q.xy) - np.array(p.xy))]) for a, b, p, q
             in zip(rects, rects, [start, *path], path, strict=False)]
    axes = np.array([(1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (-0.8, 0.6)])
    gaps = hull_gaps(obs, hulls, axes)
    for j, pts in enumerate(hulls):
        hull = MultiPoint([tuple(p) for p in pts.tolist()]).convex_hull
        for k in range(len(obs)):
            first = obs.starts[k]
            core = MultiPoint([tuple(p) for p in obs.a[first:first + obs.sizes[k]].tolist()]).convex_hull
            assert gaps[k, j] <= hull.distance(core) + 1e-9


def _mover_among_obstacles(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]]
                           ) -> tuple[np.ndarray, Obstacles] | None:
    """The mover's footprint corners at its start and every other obstacle of a ``crowded`` case (None if none)."""
    s, start, _, _, _, _ = case
    f = s.formation("m")
    obs = gather(s, {"m"}, np.array([-1e9, -1e9]), np.array([1e9, 1e9]))
    return (np.array(rect_corners(start, f.width, f.depth)), obs) if len(obs) else None


@settings(max_examples=200, deadline=None)
@given(crowded(), st.floats(0, 359), st.sampled_from([0.0, 0.0005, 1.0, 1.001, 2.5]))
def test_first_times_without_end_discs_equal_the_full_capsules(case, bearing, radius):
    """Outlines are closed rings, so leaving out the discs at the edges' ends (``end_discs=False``) gives, per
    obstacle, the very minimum the full capsules give; and one pass for two radius arrays gives each's answer."""
    mover = _mover_among_obstacles(case)
    if mover is None:
        return
    rect, obs = mover
    w = forward_vector(bearing)
    radii = np.full(len(obs), radius)
    e = len(obs.a)
    r_edge = np.repeat(radii, obs.sizes)
    pts = np.concatenate([rect, obs.a])
    dirs = np.array([w] * 4 + [(-w[0], -w[1])] * e)
    radius_m = np.zeros((4 + e, e + 4))
    radius_m[:4, :e] = r_edge
    radius_m[4:, e:] = r_edge[:, None]
    t = first_within(pts, dirs, np.concatenate([obs.a, rect]), np.concatenate([obs.b, rect[NEXT]]), radius_m)
    per = np.minimum.reduceat(np.minimum(t[:4, :e].min(axis=0), t[4:, e:].min(axis=1)), obs.starts)
    reference = np.where(overlapping(obs, rect), 0.0, per)
    assert np.array_equal(first_times(obs, rect, w, radii), reference)
    other = np.full(len(obs), 0.3)
    both = first_times_many(obs, rect, w, [radii, other])
    assert np.array_equal(both[0], reference) and np.array_equal(both[1], first_times(obs, rect, w, other))


@settings(max_examples=300, deadline=None)
@given(crowded(), st.lists(st.tuples(st.floats(24, 48), st.floats(14, 34), st.floats(0.3, 8), st.floats(0.3, 8),
                                     st.sampled_from([0.0, 45.0, 90.0, 17.0]), st.booleans()), max_size=5))
def test_terrain_crossed_is_what_the_sweeps_overlap(case, pieces):
    """``terrain_crossed`` (separating axes, exact for convex cores; the pymunk index for the rest) names every
    piece a leg's swept area or the final footprint overlaps by more than a sliver and none it clearly misses
    (shapely decides on the cores; 1e-6" either way is left open). Non-convex pieces are L-shaped."""
    s0, start, path, _, _, _ = case
    terrain = []
    for i, (x, y, w, d, angle, ell) in enumerate(pieces):
        t = piece(i, x, y, w, d, "difficult", angle=angle)
        if ell:  # cut a corner out: not convex
            cut = Polygon(rect_corners(Pose(x + w / 4, y + d / 4, 0.0), w / 2, d / 2))
            shape = t.shape.difference(cut)
            if isinstance(shape, Polygon) and shape.area > 0.1:
                t = TerrainShape(i, t.name, tuple(shape.exterior.coords)[:-1], t.traits)
        terrain.append(t)
    s = Scene(s0.width, s0.depth, terrain)
    f = s0.formation("m")
    s.set_unit("m", 1, start, f)
    check = s.check_path("m", start, path, exclusion=0.0)
    rects = [Polygon(rect_corners(p, f.width, f.depth)) for p in [start, *path]]
    moved = [Polygon(rect_corners(Pose(q.x, q.y, p.facing), f.width, f.depth))
             for p, q in zip([start, *path], path, strict=False)]
    swept = [MultiPoint(list(a.exterior.coords) + list(b.exterior.coords)).convex_hull
             for a, b in zip(rects, moved, strict=False)]
    areas = [*swept, rects[-1]]
    for i, core in enumerate(s.terrain_cores):
        name = s.terrain[i].name
        if any(a.buffer(-1e-6, join_style="mitre").intersects(core) for a in areas):
            assert name in check.terrain_crossed
        elif all(a.distance(core) > 1e-6 for a in areas):
            assert name not in check.terrain_crossed


# --- the plain-float forms of check_path's small steps against the numpy forms they replaced ---------------------

EDGE_DISTANCES = [0.0, 1e-10, 1e-9, 2e-9, 0.0005, 0.0005 + 1e-12, 0.0005 - 1e-12, 0.001, 0.0015, 0.999, 1.0,
                  1.000999, 1.001, 3.0, float("inf")]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["unit", "terrain"]),
                          st.one_of(st.sampled_from(EDGE_DISTANCES), st.floats(0, 30))), min_size=1, max_size=8),
       st.sampled_from([1.0, 0.0, 0.5, 3.0, -1.0]))
def test_radii_on_floats_are_the_numpy_forms(obstacles: list[tuple[str, float]], exclusion: float) -> None:
    """``motion._radii`` and ``_fmax`` give, to the last bit, what the numpy form gave (``_no_deeper``, ``np.where``,
    ``np.fmax``): the radii each obstacle is judged by and the reach of the shortcut."""
    kinds = [k for k, _ in obstacles]
    d0 = np.array([d for _, d in obstacles])
    tol = motion.TOL
    r_pen = np.where(d0 <= motion.EPS, np.nan, np.minimum(np.full(len(d0), tol / 2), motion._no_deeper(d0)))
    r_ex = np.full(len(d0), np.nan)
    if exclusion > 0:
        r_ex = np.where(np.array([k == "unit" for k in kinds]) & ~(d0 <= tol / 2),
                        np.minimum(exclusion + tol - 1e-6, d0 - tol / 2), np.nan)
    pens, exs = motion._radii(kinds, d0.tolist(), exclusion)
    assert np.array_equal(np.array(pens), r_pen, equal_nan=True)
    assert np.array_equal(np.array(exs), r_ex, equal_nan=True)
    reach = np.array([motion._fmax(a, b) for a, b in zip(pens, exs, strict=True)])
    assert np.array_equal(reach, np.fmax(r_pen, r_ex), equal_nan=True)


@settings(max_examples=300, deadline=None)
@given(st.floats(-3, 75), st.floats(-3, 51), st.floats(0, 359.9), st.sampled_from(FORMS), st.floats(0, 359.9),
       st.one_of(st.sampled_from([0.0, 1e-9, 1.0]), st.floats(0, 14)))
def test_table_edge_tests_on_floats_are_the_numpy_forms(x: float, y: float, facing: float, f: Formation,
                                                        bearing: float, length: float) -> None:
    """``_rect_on_table``, ``_sweep_on_table`` and ``_axes`` on plain floats answer as their numpy forms did."""
    s = scene()
    rect = np.array(rect_corners(Pose(x, y, facing), f.width, f.depth))
    w = forward_vector(bearing)
    lo, hi = rect.min(axis=0), rect.max(axis=0)
    eps = motion.EPS
    assert motion._rect_on_table(s, rect) == bool(lo[0] >= -eps and lo[1] >= -eps and hi[0] <= s.width + eps
                                                  and hi[1] <= s.depth + eps)
    pts = np.concatenate([rect, rect + np.array(w) * length])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    assert motion._sweep_on_table(s, rect, w, length) == bool(lo[0] >= 0.0 and lo[1] >= 0.0 and hi[0] <= s.width
                                                              and hi[1] <= s.depth)
    other = np.array(rect_corners(Pose(x, y, bearing), f.width, f.depth))
    axes: list[tuple[float, float]] = [(1.0, 0.0), (0.0, 1.0)]
    for r in (rect, other):
        u = r[1] - r[0]
        n = math.hypot(float(u[0]), float(u[1]))
        if n > eps:
            a = (float(u[0]) / n, float(u[1]) / n)
            if a not in axes:
                axes.extend([a, (-a[1], a[0])])
    if length > eps:
        axes.append((-w[1], w[0]))
    assert np.array_equal(motion._axes([rect, other], [(w, length)]), np.array(axes))


@settings(max_examples=150, deadline=None)
@given(crowded())
def test_position_rows_are_the_one_pass_build(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]]) -> None:
    """``_position`` (the terrain rows built once per table, ``_fixed``) stacks exactly the rows the one-pass build
    did: every unit's core, every impassable core, every terrain core, and the obstacles' boxes."""
    s = case[0]
    s.set_unit("z", 2, Pose(60, 40, 30), INF10)  # a unit moved after the terrain rows were built
    for _ in range(2):
        pos = motion._position(s)
        arrays = s.stacked()
        n = len(arrays.ids)
        imp = [s.terrain_geo(i) for i in s.impassable_terrain]
        t = motion._terrain_outlines(s).outlines
        sizes = np.concatenate([np.array([4] * n + [len(g.edges_a) for g in imp], dtype=int), t.sizes])
        a = np.concatenate([arrays.cores.reshape(-1, 2), *[g.edges_a for g in imp], t.a])
        b = np.concatenate([arrays.cores_next.reshape(-1, 2), *[g.edges_b for g in imp], t.b])
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        k = n + len(imp)
        e = int(sizes[:k].sum())
        boxes = np.concatenate([np.minimum.reduceat(a[:e], starts[:k], axis=0),
                                np.maximum.reduceat(a[:e], starts[:k], axis=0)], axis=1)
        o = pos.outlines
        assert o.kinds == ["unit"] * n + ["terrain"] * len(imp) + t.kinds
        assert o.keys == list(arrays.ids) + [g.piece.name for g in imp] + t.keys
        assert np.array_equal(o.a, a) and np.array_equal(o.b, b)
        assert np.array_equal(o.sizes, sizes) and np.array_equal(o.starts, starts)
        assert pos.obstacles.boxes is not None and np.array_equal(pos.obstacles.boxes, boxes)
        assert len(pos.obstacles) == k and np.array_equal(pos.obstacles.a, a[:e])
        s.set_unit("z", 2, Pose(50, 40, 75), INF20)   # and again after another move


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 72), st.floats(0, 48), st.floats(0, 359), st.sampled_from(FORMS), st.floats(0, 72),
       st.floats(0, 48), st.floats(0.3, 8), st.floats(0.3, 8), st.floats(0, 90))
def test_near_point_is_shapelys_nearest_point(x, y, facing, f, px, py, w, d, angle) -> None:
    """Where a refused move breaks its rule: the very point ``shapely.ops.nearest_points`` gives."""
    rect = np.array(rect_corners(Pose(x, y, facing), f.width, f.depth))
    poly = piece(0, px, py, w, d, angle=angle).shape
    p, _ = nearest_points(Polygon(rect), poly)
    assert motion._near_point(rect, poly) == (float(p.x), float(p.y))


def _first_times_many_reference(
    obs: Obstacles, rect: np.ndarray, w: Point, radii: list[np.ndarray], overlap: np.ndarray | None = None
) -> list[np.ndarray]:
    """``first_times_many`` as it was: ``first_within`` on every point against every edge (the reference)."""
    e = len(obs.a)
    n = 4 + e
    # one call for both directions: rect corners moving along w against obstacle edges, and obstacle vertices
    # moving along -w against the rect's edges (the off-diagonal blocks are computed and ignored); each radius
    # array gets its own copy of the rows
    radius = np.zeros((n * len(radii), e + 4))
    skips = []
    for i, rad in enumerate(radii):
        skip = np.isnan(rad)
        skips.append(skip)
        r_edge = np.repeat(np.where(skip, 0.0, rad), obs.sizes)
        radius[i * n:i * n + 4, :e] = r_edge
        radius[i * n + 4:(i + 1) * n, e:] = r_edge[:, None]
    dirs = np.empty((n, 2))
    dirs[:4] = w
    dirs[4:] = (-w[0], -w[1])
    points = np.concatenate([rect, obs.a])
    if len(radii) > 1:
        points = np.concatenate([points] * len(radii))
        dirs = np.concatenate([dirs] * len(radii))
    # outlines are closed rings, so the discs at the edges' ends repeat those at their starts (end_discs=False)
    t = first_within(points, dirs, np.concatenate([obs.a, rect]), np.concatenate([obs.b, rect[NEXT]]), radius,
                     end_discs=False)
    if overlap is None:
        overlap = overlapping(obs, rect)
    out = []
    for i, skip in enumerate(skips):
        block = t[i * n:(i + 1) * n]
        t1 = block[:4, :e].min(axis=0)
        t2 = block[4:, e:].min(axis=1)
        per = np.minimum.reduceat(np.minimum(t1, t2), obs.starts)
        per = np.where(overlap, 0.0, per)
        out.append(np.where(skip, np.inf, per))
    return out


@settings(max_examples=300, deadline=None)
@given(crowded(), st.floats(0, 359), st.lists(st.one_of(st.sampled_from([0.0, 0.0005, 1.0, 1.000999, float("nan")]),
                                                        st.floats(0, 3)), min_size=12, max_size=12),
       st.sampled_from([1, 2, 3]))
def test_first_times_many_is_first_within_on_the_pairs_that_matter(case, bearing, pool, m) -> None:
    """``first_times_many`` (only the corner-edge and vertex-edge pairs, the radius-free terms once) gives, to the
    last bit, what ``first_within`` on every point and edge gave, for one to three radius arrays with skips."""
    mover = _mover_among_obstacles(case)
    if mover is None:
        return
    rect, obs = mover
    radii = [np.array([pool[(i * 5 + j) % len(pool)] for j in range(len(obs))]) for i in range(m)]
    w = forward_vector(bearing)
    for overlap in (None, overlapping(obs, rect)):
        got = first_times_many(obs, rect, w, radii, overlap)
        want = _first_times_many_reference(obs, rect, w, radii, overlap)
        assert len(got) == len(want)
        for g, x in zip(got, want, strict=True):
            assert g.tobytes() == x.tobytes()


def test_where_is_worked_out_from_the_position_the_check_was_made_in() -> None:
    """``MoveCheck.where`` is worked out when first read (issue 13): read after the blocking unit moved away (or
    in a clone that moved it), it is still the point of the position checked, the one an eager check gives."""
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 20, 0, player=2)
    path = [Pose(36, 30, 0)]
    eager = s.check_path("a", s.pose("a"), path)
    eager_where = eager.where
    lazy = s.check_path("a", s.pose("a"), path)
    twin = s.copy()
    lazy_in_twin = twin.check_path("a", twin.pose("a"), path)
    put(s, "b", 60, 40, 90, player=2)       # the blocker leaves, in the original scene
    put(twin, "b", 10, 40, 0, player=2)     # and elsewhere in the clone
    assert lazy.rule == RULE_THROUGH_UNIT and lazy.where == eager_where
    assert lazy_in_twin.where == eager_where
    assert eager_where is not None and eager_where[1] == pytest.approx(20 - HALF_D, abs=0.01)  # b's near side


def test_illegal_action_where_may_be_worked_out_when_read() -> None:
    """``IllegalAction.where`` given as a function is called once, when first read; a point or None as is."""
    from game.engine.errors import IllegalAction
    calls: list[int] = []

    def point() -> tuple[float, float]:
        calls.append(1)
        return (1.0, 2.0)

    e = IllegalAction("General Movement", "through a unit", point)
    assert calls == [] and str(e) == "General Movement: through a unit"
    assert e.where == (1.0, 2.0) and e.where == (1.0, 2.0) and calls == [1]
    assert IllegalAction("r", "m", (3.0, 4.0)).where == (3.0, 4.0)
    assert IllegalAction("r", "m").where is None


def _hull_gaps_in_two_passes(obs: Obstacles, hulls: list[np.ndarray], axes: np.ndarray) -> np.ndarray:
    """The former ``hull_gaps``: cores and hulls projected and reduced separately."""
    proj = axes @ obs.a.T
    lo = np.minimum.reduceat(proj, obs.starts, axis=1)
    hi = np.maximum.reduceat(proj, obs.starts, axis=1)
    firsts = np.zeros(len(hulls), dtype=int)
    np.cumsum([len(h) for h in hulls][:-1], out=firsts[1:])
    p = axes @ np.concatenate(hulls).T
    p_lo = np.minimum.reduceat(p, firsts, axis=1)
    p_hi = np.maximum.reduceat(p, firsts, axis=1)
    gap = lo[:, None, :] - p_hi[:, :, None]
    np.maximum(gap, p_lo[:, :, None] - hi[:, None, :], out=gap)
    out: np.ndarray = np.maximum.reduce(gap, axis=0).T
    return out


@settings(max_examples=200, deadline=None)
@given(crowded(), st.lists(st.floats(0, 360), min_size=0, max_size=4))
def test_hull_gaps_in_one_pass_are_the_two_pass_gaps(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]],
                                                     angles: list[float]) -> None:
    """``hull_gaps`` projects cores and hulls in one product (issue 13): every gap is the two-pass one."""
    s, start, path, _, _, _ = case
    f = s.formation("m")
    rects = [np.array(rect_corners(p, f.width, f.depth)) for p in [start, *path]]
    obs = gather(s, {"m"}, np.array([-1e9, -1e9]), np.array([1e9, 1e9]))
    if not len(obs):
        return
    axes = np.array([(1.0, 0.0), (0.0, 1.0)] + [forward_vector(a) for a in angles])
    assert np.array_equal(hull_gaps(obs, rects, axes), _hull_gaps_in_two_passes(obs, rects, axes))


@settings(max_examples=200, deadline=None)
@given(crowded(), st.lists(st.tuples(st.floats(0, 359), st.floats(0, 9), st.floats(-90, 90)), min_size=1, max_size=4),
       st.data())
def test_checks_from_one_start_answer_as_in_a_fresh_scene(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]],
                                                          tries: list[tuple[float, float, float]],
                                                          data: st.DataObject) -> None:
    """The distances from a start to the obstacles are kept in the scene's cache between checks (issue 13): every
    check of several paths from one start, in one scene, answers to the last bit as in a fresh scene; a unit that
    moves clears them (checked again after one does)."""
    s, start, path, exclusion, fly, ignore = case
    paths = [path] + [[start.facing_to(start.facing + turn), Pose(start.x + forward_vector(b)[0] * d,
                                                                  start.y + forward_vector(b)[1] * d,
                                                                  start.facing + turn)]
                      for b, d, turn in tries]

    def answers(scene_: Scene) -> list[tuple[object, ...]]:
        return [scene_.check_path("m", start, p, exclusion=exclusion, fly_over=fly, ignore_units=ignore)._answers()
                for p in paths]

    def fresh(scene_: Scene) -> Scene:
        twin = scene_.copy()
        twin.clear_cache()
        return twin

    assert answers(s) == answers(fresh(s))
    others = [uid for uid in s.unit_ids() if uid != "m"]
    if others:
        uid = data.draw(st.sampled_from(others))
        p = s.pose(uid)
        s.set_unit(uid, s.player(uid), Pose(p.x + data.draw(st.floats(-3, 3)), p.y, p.facing), s.formation(uid))
        assert answers(s) == answers(fresh(s))


@settings(max_examples=100, deadline=None)
@given(crowded(), st.lists(st.tuples(st.floats(0, 72), st.floats(0, 48), st.floats(0, 359)), min_size=1, max_size=4))
def test_position_after_moves_is_rebuilt_rows_and_clones_keep_theirs(
        case: tuple[Scene, Pose, list[Pose], float, bool, list[str]], moves: list[tuple[float, float, float]]) -> None:
    """After a unit moves, ``_position`` refreshes the units' rows of the last one (issue 13): every array equals
    a build from nothing (a scene copy with no cache nor last position), and a clone made before the move keeps
    the rows of its own position."""
    s = case[0]
    ids = s.unit_ids()
    for i, (x, y, facing) in enumerate(moves):
        before = motion._position(s)
        twin = s.copy()
        uid = ids[i % len(ids)]
        s.set_unit(uid, s.player(uid), Pose(x, y, facing), s.formation(uid))
        pos = motion._position(s)
        fresh = s.copy()
        fresh.clear_cache()
        fresh.persistent.pop("move-position", None)
        ref = motion._position(fresh)
        for got, want in ((pos.outlines, ref.outlines), (pos.obstacles, ref.obstacles)):
            assert got.kinds == want.kinds and got.keys == want.keys and got.polys == want.polys
            assert np.array_equal(got.a, want.a) and np.array_equal(got.b, want.b)
            assert np.array_equal(got.starts, want.starts) and np.array_equal(got.sizes, want.sizes)
        assert pos.obstacles.boxes is not None and ref.obstacles.boxes is not None
        assert np.array_equal(pos.obstacles.boxes, ref.obstacles.boxes) and pos.index == ref.index
        kept = motion._position(twin)
        assert kept is before or np.array_equal(kept.outlines.a, before.outlines.a)
        assert np.array_equal(before.outlines.a[:4 * len(ids)], twin.stacked().cores.reshape(-1, 2))


@settings(max_examples=150, deadline=None)
@given(crowded(), st.data())
def test_kept_checks_are_the_checks_of_the_position(case: tuple[Scene, Pose, list[Pose], float, bool, list[str]],
                                                   data: st.DataObject) -> None:
    """``check_path`` answers are kept until a unit moves (issue 13): asked again, in the scene or in a clone, the
    answer is the one a fresh scene gives; after another unit moves (in the clone, in the scene) each answers for
    its own position; ``PREFILTER`` off is not answered from a prefiltered check."""
    s, start, path, exclusion, fly, ignore = case

    def ask(scene_: Scene) -> tuple[object, ...]:
        return scene_.check_path("m", start, path, exclusion=exclusion, fly_over=fly, ignore_units=ignore)._answers()

    def fresh(scene_: Scene) -> Scene:
        twin = scene_.copy()
        twin.clear_cache()
        return twin

    first = ask(s)
    assert ask(s) == first == ask(fresh(s))
    twin = s.copy()
    assert ask(twin) == first
    others = [uid for uid in s.unit_ids() if uid != "m"]
    if others:
        for scene_ in (twin, s):
            uid = data.draw(st.sampled_from(others))
            p = scene_.pose(uid)
            scene_.set_unit(uid, scene_.player(uid), Pose(p.x + data.draw(st.floats(-4, 4)),
                                                          p.y + data.draw(st.floats(-4, 4)), p.facing),
                            scene_.formation(uid))
            assert ask(scene_) == ask(fresh(scene_))
    try:
        motion.PREFILTER = False
        assert ask(s) == ask(fresh(s))
    finally:
        motion.PREFILTER = True


def test_checks_kept_are_bounded() -> None:
    """A window checking a new path every frame does not grow the scene's cache without bound."""
    s = scene()
    put(s, "a", 36, 10, 0)
    for i in range(motion.KEPT_CHECKS + 50):
        s.check_path("a", s.pose("a"), [Pose(36, 10 + 0.001 * i, 0)])
    assert len(s.cache) <= motion.KEPT_CHECKS
