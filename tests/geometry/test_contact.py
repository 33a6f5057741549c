"""Charge geometry (rulebook "Charge Moves", "Who Can Strike")."""

from __future__ import annotations

import pytest

from geometry.arcs import Arc, arc_of_point
from geometry.contact import (
    best_flush_pose,
    contact_length,
    flush_pose,
    frontage,
    in_base_contact,
    models_in_contact,
    touching_sides,
)
from geometry.formation import Formation, front_edge
from geometry.pose import Pose
from tests.geometry.helpers import INF10, INF20, piece, put, scene


@pytest.mark.parametrize("side", list(Arc))
@pytest.mark.parametrize("facing", [0.0, 37.0, 270.0])
def test_flush_pose_front_edge_lies_on_the_side(side: Arc, facing: float) -> None:
    target = Pose(30, 20, facing)
    tw, td = INF20.width, INF20.depth
    pose = flush_pose(target, tw, td, side, INF10.width, INF10.depth, 0.0)
    assert pose.facing == pytest.approx((facing + side.outward_bearing + 180) % 360)
    left, right = front_edge(pose, INF10)
    mid = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
    assert arc_of_point(target, tw, td, pose.xy) == side
    local = target.to_local(mid)
    expect = {Arc.FRONT: (0, td / 2), Arc.REAR: (0, -td / 2), Arc.RIGHT: (tw / 2, 0), Arc.LEFT: (-tw / 2, 0)}[side]
    assert local == pytest.approx(expect, abs=1e-9)
    shifted = flush_pose(target, tw, td, side, INF10.width, INF10.depth, 1.0)
    assert pose.to_local(shifted.xy) == pytest.approx((1.0, 0.0), abs=1e-9)  # positive = charger's right


def test_frontage_and_contact_length() -> None:
    assert frontage(4, 2, 0) == 2
    assert frontage(4, 2, 1.5) == pytest.approx(1.5)
    assert frontage(2, 4, 0.5) == 2
    assert frontage(4, 2, 5) == 0
    assert contact_length(((0, 0), (2, 0)), ((1, 0.01), (5, 0.01))) == pytest.approx(1)
    assert contact_length(((0, 0), (2, 0)), ((1, 0.5), (5, 0.5))) == 0


def test_charge_contact_and_second_charger_lines_up() -> None:
    s = scene()
    put(s, "t", 36, 30, 180, INF20, player=2)
    put(s, "c1", 36, 15, 0, INF10)
    put(s, "c2", 45, 15, 0, INF10)
    p1 = best_flush_pose(s, "c1", "t", Arc.FRONT, INF10.width, INF10.depth, (36, 15))
    assert p1 is not None and p1.x == pytest.approx(36)
    s.set_unit("c1", 1, p1, INF10)
    assert in_base_contact(s, "c1", "t")
    assert models_in_contact(s, "c1", "t") == [0, 1, 2, 3, 4]
    side_a, side_b, length = touching_sides(s, "c1", "t")[0]
    assert (side_a, side_b) == (Arc.FRONT, Arc.FRONT) and length == pytest.approx(INF10.width)
    # the side is exactly as wide as c1: no room for a second charger
    assert best_flush_pose(s, "c2", "t", Arc.FRONT, INF10.width, INF10.depth, (45, 15)) is None
    # a narrower first charger leaves room: the second lines up beside it
    small = Formation(5, 5, 10, 20)
    shift = (INF20.width - small.width) / 2  # c1 at the charger's left end of the side
    c1 = flush_pose(s.pose("t"), INF20.width, INF20.depth, Arc.FRONT, small.width, small.depth, -shift)
    s.set_unit("c1", 1, c1, small)
    p2 = best_flush_pose(s, "c2", "t", Arc.FRONT, INF10.width, INF10.depth, (45, 15))
    assert p2 is not None
    s.set_unit("c2", 1, p2, INF10)
    assert s.distance("c1", "c2") == pytest.approx(0, abs=2e-3)
    assert touching_sides(s, "c2", "t")[0][2] == pytest.approx(INF20.width - small.width, abs=2e-3)


def test_flush_pose_respects_terrain_and_edge() -> None:
    s = scene(piece(0, 30, 26, 2, 2, "impassable"))
    put(s, "t", 30, 30, 180, INF10, player=2)
    put(s, "c", 30, 10, 0, INF10)
    p = best_flush_pose(s, "c", "t", Arc.FRONT, INF10.width, INF10.depth, (30, 10))
    assert p is not None
    s.set_unit("c", 1, p, INF10)
    assert s.terrain_at(s.footprint("c")) == []
    assert in_base_contact(s, "c", "t")
    put(s, "edge", 70, 30, 90, INF10, player=2)  # right flank against the table edge
    assert best_flush_pose(s, "c", "edge", Arc.FRONT, INF10.width, INF10.depth, (30, 10)) is None


def test_flush_pose_keeps_clear_of_other_units() -> None:
    """Rulebook "General Movement" (never within 1" of other units), "Multiple Units in Combat": the flush pose
    prefers 1" from ``keep_clear`` units, may fall back to touching them, and is None if it can do neither."""
    w = INF10.width
    s = scene()
    put(s, "t", 36, 30, 180, INF10, player=2)
    put(s, "c", 36, 20, 0, INF10)
    put(s, "u", 36 + w + 0.5, 30, 180, INF10, player=2)  # 0.5" right of t, front edges in line
    p = best_flush_pose(s, "c", "t", Arc.FRONT, w, INF10.depth, (36, 20), keep_clear=["u"])
    assert p is not None and p.x == pytest.approx(35.5, abs=1e-5)
    s.set_unit("c", 1, p, INF10)
    assert s.distance("c", "u") == pytest.approx(1.0, abs=1e-5)
    put(s, "v", 36 - w - 0.5, 30, 180, INF10, player=2)  # and 0.5" left of t: no pose 1" from both
    assert best_flush_pose(s, "c", "t", Arc.FRONT, w, INF10.depth, (37, 20), keep_clear=["u", "v"]) is None
    p = best_flush_pose(s, "c", "t", Arc.FRONT, w, INF10.depth, (37, 20), keep_clear=["u", "v"], touching=True)
    assert p is not None and p.x == pytest.approx(36.5, abs=1e-5)  # touching u's corner, 1" from v
    s.set_unit("c", 1, p, INF10)
    assert in_base_contact(s, "c", "u") and s.distance("c", "v") >= 1.0 - 1e-5
    for uid, x in (("u", 36 + w + 0.5), ("v", 36 - w - 0.5)):
        put(s, uid, x, 30.3, 180, INF10, player=2)  # 0.3" back: never touching, always within 1" of one
    assert best_flush_pose(s, "c", "t", Arc.FRONT, w, INF10.depth, (37, 20), keep_clear=["u", "v"],
                           touching=True) is None
