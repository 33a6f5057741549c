"""``geometry.spatial``: the pymunk overlap index. Its fast query (pymunk's C query with a callback that records
only the shapes hit) must answer exactly as pymunk's public ``Space.shape_query``; a copy of the index (for a
cloned game) must answer as the original, before and after units move in either."""

from __future__ import annotations

import numpy as np
import pymunk
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import MultiPoint, Polygon, box

from geometry.formation import rect_corners
from geometry.pose import Pose, forward_vector
from geometry.spatial import (
    FAST_QUERY,
    HULL_STRAIGHT,
    IMPASSABLE,
    TERRAIN,
    UNIT,
    ShapeIndex,
    convex_outline,
    shapes_overlapping,
)

pose = st.builds(Pose, st.floats(0, 40), st.floats(0, 40), st.floats(0, 359))
size = st.floats(0.5, 8)


def _rect(p: Pose, w: float, d: float) -> np.ndarray:
    return np.array(rect_corners(p, w, d))


def test_the_fast_query_is_in_use():
    assert FAST_QUERY


@given(st.lists(st.tuples(pose, size, size), min_size=1, max_size=12), pose, size, size)
def test_fast_query_answers_as_shape_query(rects, at, w, d):
    space = pymunk.Space()
    for i, (p, rw, rd) in enumerate(rects):
        shape = pymunk.Poly(space.static_body, [tuple(c) for c in _rect(p, rw, rd).tolist()])
        shape.key = ("unit", str(i))
        space.add(shape)
    probe = pymunk.Poly(None, [tuple(c) for c in _rect(at, w, d).tolist()])
    probe.update(pymunk.Transform.identity())
    fast = sorted(s.key for s in shapes_overlapping(space, probe))
    public = sorted(h.shape.key for h in space.shape_query(probe) if h.shape is not None)
    assert fast == public


@settings(max_examples=40)
@given(st.lists(st.tuples(pose, size, size), min_size=2, max_size=8), st.lists(pose, min_size=4, max_size=4))
def test_a_copy_answers_as_the_original_as_units_move(units, probes):
    terrain = [box(10, 10, 14, 13), box(25, 5, 27, 20)]
    index = ShapeIndex(terrain, impassable=[1])
    cores = {f"u{i}": _rect(p, w, d) for i, (p, w, d) in enumerate(units)}
    for uid, core in cores.items():
        index.set_unit(uid, core)
    index.overlapping(_rect(probes[0], 1, 1))            # the original builds its unit space
    twin = index.copy(cores)
    moved = _rect(probes[1], 3, 2)
    twin.set_unit("u0", moved)                            # the copy moves a unit: the original must not see it
    fresh = ShapeIndex(terrain, impassable=[1])
    for uid, core in {**cores, "u0": moved}.items():
        fresh.set_unit(uid, core)
    for p in probes:
        for mask in (UNIT, TERRAIN, UNIT | IMPASSABLE, UNIT | TERRAIN):
            probe = _rect(p, 4, 3)
            assert twin.overlapping(probe, mask) == fresh.overlapping(probe, mask)
            original = ShapeIndex(terrain, impassable=[1])
            for uid, core in cores.items():
                original.set_unit(uid, core)
            assert index.overlapping(probe, mask) == original.overlapping(probe, mask)


def test_queries_from_two_threads_keep_their_own_hits():
    """The computer opponent thinks on a worker thread while the window queries too: each thread's fast query
    reports its own space's shapes (the C query runs without the GIL; its hits go to a per-thread list)."""
    import threading

    def space_with(n: int, key: str) -> pymunk.Space:
        space = pymunk.Space()
        for i in range(n):
            shape = pymunk.Poly(space.static_body, [tuple(c) for c in _rect(Pose(2.0 * i, 0, 0), 1.5, 1.5).tolist()])
            shape.key = (key, str(i))
            space.add(shape)
        return space

    wrong: list[object] = []

    def run(space: pymunk.Space, key: str, want: int) -> None:
        probe = pymunk.Poly(None, [tuple(c) for c in _rect(Pose(20, 0, 0), 60, 4).tolist()])
        probe.update(pymunk.Transform.identity())
        for _ in range(3000):
            keys = [s.key for s in shapes_overlapping(space, probe)]
            if len(keys) != want or any(k[0] != key for k in keys):
                wrong.append(keys)
                return

    threads = [threading.Thread(target=run, args=(space_with(n, k), k, n)) for n, k in ((12, "a"), (7, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


# --- probes with vertices on the line through their neighbours -------------------------------------------------


def test_a_rectangle_swept_along_its_side_finds_a_thin_piece_it_overlaps():
    """The hull of a footprint moved along its own facing has two vertices on straight lines; chipmunk kept them
    and missed this piece (overlap 0.16 square inches) in a charge search (tests/geometry/test_charge_path.py,
    THIN_PIECES). ``convex_outline`` drops them."""
    piece = Polygon([(153.53856897949655, 149.96553950501465), (154.4705931034251, 149.60769200893589),
                     (153.93365727761264, 148.20922716527372), (153.00163315368408, 148.56707466135248)])
    sweep = [(149.67659607452612, 144.91420341770083), (154.1723906495389, 146.91586012575104),
             (154.97305333275898, 145.11754229574592), (150.4772587577462, 143.11588558769571),
             (148.61306934124553, 147.30292357067927), (153.10886391625831, 149.30458027872947),
             (153.9095265994784, 147.50626244872436), (149.41373202446562, 145.50460574067415)]
    assert MultiPoint(sweep).convex_hull.intersection(piece).area > 0.15
    index = ShapeIndex([piece], impassable=[0])
    assert index.overlapping(sweep, TERRAIN) == [("terrain", 0)]
    assert len(convex_outline(sweep)) == 4


def test_a_footprint_swept_a_hair_off_its_side_finds_the_corner_it_overlaps():
    """A footprint swept 1e-7 degrees off its facing: its hull's corner pokes 0.017" into the piece. With a vertex
    kept on the all but straight line through its neighbours chipmunk found no hit (``HULL_STRAIGHT``)."""
    pts = _sweep(Pose(0.0, 25.5, 250.0), 2.5, 2.0, 250.0 + 1e-7, 3.0)
    core = Polygon(_rect(Pose(0.0, 30.0, 0.0), 1.0, 6.0))
    assert MultiPoint(pts).convex_hull.intersection(core).area > 1e-4
    assert ShapeIndex([core], impassable=[0]).overlapping(pts, TERRAIN) == [("terrain", 0)]


def _sweep(p: Pose, w: float, d: float, bearing: float, length: float) -> list[tuple[float, float]]:
    r = _rect(p, w, d)
    step = np.array(forward_vector(bearing)) * length
    return [tuple(c) for c in np.concatenate([r, r + step]).tolist()]


@settings(max_examples=300)
@given(pose, size, size, st.sampled_from([0.0, 90.0, 180.0, 270.0, 1e-7, -1e-7]), st.floats(0, 10),
       st.lists(st.tuples(pose, size, size), min_size=1, max_size=6))
def test_swept_probes_find_what_they_clearly_overlap(at, w, d, turn, length, pieces):
    """A footprint swept along (or almost along) one of its sides: the index reports every core the swept area
    overlaps by more than a sliver and none it clearly misses (shapely decides; 1e-6" either way is left open)."""
    cores = [Polygon(_rect(p, pw, pd)) for p, pw, pd in pieces]
    index = ShapeIndex(cores, impassable=range(len(cores)))
    pts = _sweep(at, w, d, at.facing + turn, length)
    hull = MultiPoint(pts).convex_hull
    found = {k[1] for k in index.overlapping(pts, TERRAIN)}
    for i, core in enumerate(cores):
        if hull.buffer(-1e-6, join_style="mitre").intersects(core):
            assert i in found
        elif hull.distance(core) > 1e-6:
            assert i not in found


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), min_size=3, max_size=12))
def test_convex_outline_is_the_hull(points):
    """Shapely's hull, counter-clockwise, no vertex on the line through its neighbours: the area differs by the
    slivers of the vertices dropped (each turning by less than ``HULL_STRAIGHT``: half the product of its edges
    times the turn, under ``HULL_STRAIGHT`` times the squared perimeter in all)."""
    out = convex_outline(points)
    hull = MultiPoint(points).convex_hull
    slack = HULL_STRAIGHT * max(1.0, hull.length ** 2)
    if len(out) < 3:
        assert hull.area <= slack
        return
    ring = Polygon(out)
    assert ring.is_valid and ring.exterior.is_ccw
    assert abs(ring.area - hull.area) <= slack
