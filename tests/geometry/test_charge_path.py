"""Charge paths with one pivot (rulebook "Charging", "Charge Moves", "Pivoting"): ``geometry.charge_path``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from geometry.arcs import Arc, majority_arc
from geometry.charge_path import ChargePath, charge_reach, find_charge_path
from geometry.contact import best_flush_pose, touching_sides
from geometry.formation import Formation, model_centres, model_rows
from geometry.pose import Point, Pose, bearing_difference
from geometry.scene import Scene
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.geometry.helpers import INF10, INF20, piece, put, scene


def charge(s: Scene, charger: str, target: str, allowance: float = 12.0, side: Arc | None = None, **kw: object):
    """Side by the charger's front row (rulebook "Charge Moves"), the best flush pose, then the search."""
    tp, tf = s.pose(target), s.formation(target)
    if side is None:
        f = s.formation(charger)
        front = [c for c, r in zip(model_centres(s.pose(charger), f), model_rows(f), strict=True) if r == 0]
        side = majority_arc(tp, tf.width, tf.depth, front)
    cf = s.formation(charger)
    end = best_flush_pose(s, charger, target, side, cf.width, cf.depth, s.pose(charger).xy)
    assert end is not None
    return side, end, find_charge_path(s, charger, s.pose(charger), target, side, end, allowance, **kw)  # type: ignore[arg-type]


def pivots_of(start: Pose, path: tuple[Pose, ...]) -> tuple[list[float], list[float]]:
    """(pivots, leg lengths) of a ``check_path`` path, in order."""
    turns, legs = [], []
    cur = start
    for p in path:
        d = math.hypot(p.x - cur.x, p.y - cur.y)
        if d > 1e-9:
            legs.append(d)
        t = bearing_difference(cur.facing, p.facing)
        if abs(t) > 1e-9:
            turns.append(t)
        cur = p
    return turns, legs


def assert_valid(s: Scene, charger: str, target: str, end: Pose, found: ChargePath, allowance: float) -> None:
    """Everything a charge path promises."""
    start = s.pose(charger)
    path = list(found.path)
    assert path[-1] == end
    assert s.check_path(charger, start, path, exclusion=0.0, ignore_units=[target]).ok
    # it never enters the target either
    assert s.check_path(charger, start, path, exclusion=0.0).ok
    turns, _ = pivots_of(start, found.path)
    assert turns == pytest.approx([t for t in (found.pivot, found.closing) if abs(t) > 1e-9], abs=1e-6)
    assert abs(found.pivot) <= 90 + 1e-9 and abs(found.closing) <= 45 + 1e-9
    assert found.travel <= allowance + 1e-9
    # the travel is the centre's straight travel up to the contact pose
    cur, walked = start, 0.0
    for p in path:
        walked += math.hypot(p.x - cur.x, p.y - cur.y)
        cur = p
        if math.hypot(p.x - found.contact.x, p.y - found.contact.y) < 1e-7:
            break
    assert walked == pytest.approx(found.travel, abs=1e-6)
    s2 = Scene(s.width, s.depth, list(s.terrain))
    for uid in s.unit_ids():
        s2.set_unit(uid, s.player(uid), end if uid == charger else s.pose(uid), s.formation(uid))
    assert touching_sides(s2, charger, target)[0][2] >= 0.009


# --- examples -------------------------------------------------------------------------------------------------


def test_straight_charge_pivots_at_the_start_and_moves_in():
    s = scene()
    put(s, "t", 36, 25, 180, INF10, player=2)
    put(s, "c", 34, 12, 20)
    side, end, search = charge(s, "c", "t")
    assert side is Arc.FRONT and search.found is not None
    found = search.found
    assert found.pivot == pytest.approx(-20) and found.closing == 0
    assert len(found.path) == 2 and found.path[-1] == end
    assert_valid(s, "c", "t", end, found, 12)


def test_goes_around_impassable_terrain_with_two_legs():
    """Rulebook "Charging": charge moves don't have to be in a straight line; one pivot at any point."""
    s = scene(piece(0, 36, 16, 5, 2.5, "impassable"))
    put(s, "t", 38, 20, 180, INF10, player=2)
    put(s, "c", 36, 9, 0)
    _, end, search = charge(s, "c", "t")
    assert search.found is not None
    assert len(search.found.path) >= 2 and search.found.travel > 9.4
    assert_valid(s, "c", "t", end, search.found, 12)
    # a wider building leaves no way round within 12"
    s = scene(piece(0, 36, 16, 9, 2.5, "impassable"))
    put(s, "t", 38, 20, 180, INF10, player=2)
    put(s, "c", 36, 9, 0)
    _, _, search = charge(s, "c", "t")
    assert search.found is None and search.blocked is not None and search.blocked.rule == "impassable terrain"
    # ... but a flyer goes over it
    _, end, search = charge(s, "c", "t", fly_over=True)
    assert search.found is not None and len(search.found.path) <= 2


def test_wheels_about_the_contact_point_when_the_turn_is_over_90():
    """Rulebook "Charge Moves": once it reaches the target the charger pivots to close the gap (docs/rulings.md:
    a pivot of up to 90 degrees on the way, then up to 45 degrees wheeling flush about the point of contact)."""
    s = scene()
    put(s, "t", 24, 4, 60, INF10, player=2)
    put(s, "c", 30, 10, 0)
    _, end, search = charge(s, "c", "t")
    found = search.found
    assert found is not None and found.closing != 0
    assert abs(found.pivot) + abs(found.closing) == pytest.approx(120)
    assert_valid(s, "c", "t", end, found, 12)
    # at contact the front edge touches the side and nothing else of it is past the side's line
    tp = s.pose("t")
    h = [tp.to_local(c)[1] - INF10.depth / 2 for c in _corners(found.contact, INF10)]
    assert min(h) == pytest.approx(0, abs=1e-6)


def _corners(p: Pose, f: Formation) -> list[Point]:
    from geometry.formation import rect_corners

    return list(rect_corners(p, f.width, f.depth))


def test_too_far_or_too_turned():
    s = scene()
    put(s, "t", 36, 30, 180, INF10, player=2)
    put(s, "c", 36, 12, 0)
    _, _, search = charge(s, "c", "t", allowance=12)
    assert search.found is None and search.shortest is not None and search.shortest > 12
    # a unit facing away must turn 180: no approach within one pivot and the closing wheel
    s = scene()
    put(s, "t", 36, 20, 180, INF10, player=2)
    put(s, "c", 36, 12, 180)
    _, _, search = charge(s, "c", "t", side=Arc.FRONT)
    assert search.found is None


def test_difficult_terrain_caps_the_path_unless_it_goes_round():
    """Rulebook "Random Charge Distances"/docs/rulings.md: a path through difficult terrain may travel at most
    6"; a longer path must avoid it."""
    s = scene(piece(0, 36, 16, 3, 2, "difficult"))
    put(s, "t", 36, 22, 180, INF10, player=2)
    put(s, "c", 36, 10, 0)
    _, end, search = charge(s, "c", "t", capped_traits=("difficult",), capped_allowance=6)
    assert search.found is not None
    assert "difficult" not in search.found.check.traits_crossed
    assert_valid(s, "c", "t", end, search.found, 12)
    # a wide wood cannot be avoided
    s = scene(piece(0, 36, 16, 30, 2, "difficult"))
    put(s, "t", 36, 22, 180, INF10, player=2)
    put(s, "c", 36, 10, 0)
    _, _, search = charge(s, "c", "t", capped_traits=("difficult",), capped_allowance=6)
    assert search.found is None and search.capped


def test_pivot_at_contact_when_the_start_is_hemmed_in():
    """Friends close on both sides leave no room to pivot at the start: the charger moves out first."""
    s = scene()
    put(s, "t", 40, 22, 160, INF20, player=2)
    put(s, "c", 36, 10, 0)
    put(s, "l", 36 - INF10.width - 0.05, 10, 0)
    put(s, "r", 36 + INF10.width + 0.05, 10, 0)
    _, end, search = charge(s, "c", "t")
    assert search.found is not None
    start = s.pose("c")
    assert search.found.turn_at != start.xy or search.found.pivot == 0
    assert_valid(s, "c", "t", end, search.found, 12)


# --- properties -----------------------------------------------------------------------------------------------

SIZE = 300.0
CENTRE = (150.0, 150.0)
FORMATIONS = [INF10, INF20, Formation(1, 1, 50, 50), Formation(5, 5, 25, 50), Formation(6, 3, 25, 25)]
OBSTACLE_TRAITS = [frozenset({"impassable", "blocking"}), frozenset({"difficult"})]


@dataclass(frozen=True)
class Layout:
    target: tuple[Pose, Formation]
    charger: tuple[Pose, Formation]
    others: list[tuple[Pose, Formation]]
    terrain: list[tuple[float, float, float, float, float, frozenset[str]]]


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    def jitter(i: int) -> float:
        return (i + 1) * 1e-4 * math.sqrt(2)

    tf = FORMATIONS[draw(st.integers(0, len(FORMATIONS) - 1))]
    tpose = Pose(150 + jitter(0), 150 + jitter(1), draw(st.floats(0, 359)))
    r = draw(st.floats(4, 13))
    bearing = draw(st.floats(0, 359))
    cx = 150 + r * math.sin(math.radians(bearing))
    cy = 150 + r * math.cos(math.radians(bearing))
    # facing roughly toward the target, give or take 100 degrees
    cf = FORMATIONS[draw(st.integers(0, len(FORMATIONS) - 1))]
    cpose = Pose(cx + jitter(2), cy + jitter(3), bearing + 180 + draw(st.floats(-100, 100)))
    others = []
    for i in range(draw(st.integers(0, 3))):
        f = FORMATIONS[draw(st.integers(0, len(FORMATIONS) - 1))]
        t = draw(st.floats(0.2, 0.8))
        off = draw(st.floats(-4, 4))
        x = 150 + t * (cx - 150) + off * math.cos(math.radians(bearing))
        y = 150 + t * (cy - 150) - off * math.sin(math.radians(bearing))
        others.append((Pose(x + jitter(4 + i), y, draw(st.floats(0, 359))), f))
    terrain = []
    for i in range(draw(st.integers(0, 2))):
        t = draw(st.floats(0.2, 0.8))
        off = draw(st.floats(-5, 5))
        # irrational offsets keep exact ties (an outline exactly touching another) out of the examples: turning
        # the table may break a tie either way
        x = 150 + t * (cx - 150) + off * math.cos(math.radians(bearing)) + (i + 1) * 1e-4 * math.sqrt(7)
        y = 150 + t * (cy - 150) - off * math.sin(math.radians(bearing)) + (i + 1) * 1e-4 * math.sqrt(11)
        terrain.append((x, y, draw(st.floats(1, 6)) + 1e-4 * math.sqrt(13), draw(st.floats(1, 4)),
                        draw(st.floats(0, 90)) + 1e-3 * math.sqrt(17), OBSTACLE_TRAITS[draw(st.integers(0, 1))]))
    return Layout((tpose, tf), (cpose, cf), others, terrain)


def transform(p: Point, angle: float, shift: Point) -> Point:
    a = math.radians(angle)
    x, y = p[0] - CENTRE[0], p[1] - CENTRE[1]
    c, s = math.cos(a), math.sin(a)
    return (x * c + y * s + CENTRE[0] + shift[0], -x * s + y * c + CENTRE[1] + shift[1])


def tpose(p: Pose, angle: float, shift: Point) -> Pose:
    return Pose(*transform(p.xy, angle, shift), p.facing + angle)


def build(layout: Layout, angle: float = 0.0, shift: Point = (0.0, 0.0)) -> Scene | None:
    terrain = []
    for i, (x, y, w, d, a, traits) in enumerate(layout.terrain):
        pts = tuple(transform(p, angle, shift) for p in rect_to_polygon(x, y, w, d, a))
        terrain.append(TerrainShape(i, f"t{i}", pts, traits))
    s = Scene(SIZE, SIZE, terrain)
    s.set_unit("t", 2, tpose(layout.target[0], angle, shift), layout.target[1])
    s.set_unit("c", 1, tpose(layout.charger[0], angle, shift), layout.charger[1])
    for i, (p, f) in enumerate(layout.others):
        s.set_unit(f"o{i}", 1 + i % 2, tpose(p, angle, shift), f)
    ids = s.unit_ids()
    if any(s.distance(a, b) < 0.05 for i, a in enumerate(ids) for b in ids[i + 1:]):
        return None
    for uid in ids:
        if any("impassable" in t.traits for t in s.terrain_at(s.footprint(uid))):
            return None
    return s


PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def _search(s: Scene, capped: bool) -> tuple[Pose | None, ChargePath | None]:
    tp, tf = s.pose("t"), s.formation("t")
    cf = s.formation("c")
    front = [c for c, r in zip(model_centres(s.pose("c"), cf), model_rows(cf), strict=True) if r == 0]
    side = majority_arc(tp, tf.width, tf.depth, front)
    end = best_flush_pose(s, "c", "t", side, cf.width, cf.depth, s.pose("c").xy)
    if end is None:
        return None, None
    kw: dict[str, object] = {"capped_traits": ("difficult",), "capped_allowance": 6.0} if capped else {}
    return end, find_charge_path(s, "c", s.pose("c"), "t", side, end, 12.0, **kw).found  # type: ignore[arg-type]


@PROPS
@given(layouts(), st.booleans())
def test_any_path_found_is_a_legal_charge(layout: Layout, capped: bool) -> None:
    s = build(layout)
    assume(s is not None)
    assert s is not None
    end, found = _search(s, capped)
    assume(end is not None)
    if found is None:
        return
    assert end is not None
    assert_valid(s, "c", "t", end, found, 12.0)
    if capped and "difficult" in found.check.traits_crossed:
        assert found.travel <= 6.0 + 1e-9


# Thin impassable pieces next to a charge: a sweep along the charger's own facing (its hull has vertices on the
# lines through their neighbours) missed one of them in the pymunk screen on one table and not on the table
# shifted by 1", so the two searches routed round different obstacles (``geometry.spatial.convex_outline``).
THIN_PIECES = Layout(
    (Pose(150.00014142135623, 150.00028284271247, 0), Formation(5, 5, 25, 50)),
    (Pose(152.32482470364255, 145.01587285672338, 246), Formation(5, 5, 25, 50)),
    [],
    [(153.7361131285546, 149.08738333514418, 1.0003605551275463, 1.5, 21.004123105625617, OBSTACLE_TRAITS[0]),
     (153.8816527311591, 148.7761716958294, 1.0003605551275463, 2.0, 0.00412310562561766, OBSTACLE_TRAITS[0])],
)


@PROPS
@given(layouts(), st.sampled_from([0.0, 33.0, 90.0, 181.5, 270.0]), st.tuples(st.floats(-30, 30), st.floats(-30, 30)))
@example(THIN_PIECES, 0.0, (0.0, 1.0))
def test_validity_survives_turning_and_shifting_the_table(layout: Layout, angle: float, shift: Point) -> None:
    s1 = build(layout)
    s2 = build(layout, angle, shift)
    assume(s1 is not None and s2 is not None)
    assert s1 is not None and s2 is not None
    end1, found1 = _search(s1, True)
    end2, found2 = _search(s2, True)
    assert (end1 is None) == (end2 is None)
    assert (found1 is None) == (found2 is None)


# --- fast rejections (explain=False) agree with the full search ----------------------------------------------------


def _both(s: Scene, allowance: float, capped: float | None):  # type: ignore[no-untyped-def]
    """(full search, search with the fast rejections, end, side) for ``c`` charging ``t``."""
    tp, tf = s.pose("t"), s.formation("t")
    cf = s.formation("c")
    front = [c for c, r in zip(model_centres(s.pose("c"), cf), model_rows(cf), strict=True) if r == 0]
    side = majority_arc(tp, tf.width, tf.depth, front)
    end = best_flush_pose(s, "c", "t", side, cf.width, cf.depth, s.pose("c").xy)
    if end is None:
        return None
    kw: dict[str, object] = {} if capped is None else {"capped_traits": ("difficult",), "capped_allowance": capped}
    full = find_charge_path(s, "c", s.pose("c"), "t", side, end, allowance, explain=True, **kw)  # type: ignore[arg-type]
    fast = find_charge_path(s, "c", s.pose("c"), "t", side, end, allowance, explain=False, **kw)  # type: ignore[arg-type]
    return full, fast, end, side


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(layouts(), st.sampled_from([4.0, 8.0, 12.0]), st.sampled_from([None, -1.0, 3.0, 6.0]))
def test_fast_rejections_agree_with_the_full_search(layout: Layout, allowance: float, capped: float | None) -> None:
    """Random tables: cutting hopeless searches short (``explain=False``) never changes what is found, and the
    travel of a path found is never below ``charge_reach``, the lower bound the engine rejects charges by."""
    s = build(layout)
    assume(s is not None)
    assert s is not None
    both = _both(s, allowance, capped)
    assume(both is not None)
    assert both is not None
    full, fast, _, side = both
    assert (full.found is None) == (fast.found is None)
    if full.found is not None:
        assert fast.found is not None and fast.found.path == full.found.path
        assert full.found.travel >= charge_reach(s, "c", s.pose("c"), "t", side) - 1e-9
    else:
        assert fast.screened <= full.screened


def test_fast_rejection_beyond_reach():
    """Rulebook "Charge Moves": no path is shorter than the straight line to the nearest contact; beyond the
    allowance nothing is screened and the answer is the full search's."""
    s = scene()
    put(s, "t", 36, 30, 180, INF10, player=2)
    put(s, "c", 36, 12, 0)
    side, end, full = charge(s, "c", "t", allowance=12)
    fast = find_charge_path(s, "c", s.pose("c"), "t", side, end, 12.0, explain=False)
    assert full.found is None and fast.found is None and fast.screened == 0
    assert fast.shortest == pytest.approx(full.shortest)
    assert charge_reach(s, "c", s.pose("c"), "t", side) > 12.0


def test_fast_rejection_when_the_target_stands_behind_a_wood_too_far_for_it():
    """docs/rulings.md (difficult terrain caps a charge at 6"): when the place the charger must end lies in
    difficult terrain and the nearest contact is more than 6" away, every path is too long: rejected unscreened."""
    s = scene(piece(0, 36, 19.5, 30, 5, "difficult"))
    put(s, "t", 36, 22, 180, INF10, player=2)
    put(s, "c", 36, 10, 0)
    side, end, full = charge(s, "c", "t", capped_traits=("difficult",), capped_allowance=6)
    fast = find_charge_path(s, "c", s.pose("c"), "t", side, end, 12.0, capped_traits=("difficult",),
                            capped_allowance=6, explain=False)
    assert full.found is None and full.screened > 0
    assert fast.found is None and fast.screened == 0 and fast.capped
