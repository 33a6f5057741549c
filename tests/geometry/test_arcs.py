"""Facing arcs of a rectangle (rulebook "Unit Facing")."""

from __future__ import annotations

import pytest

from geometry.arcs import Arc, arc_of_point, majority_arc, side_segment
from geometry.pose import Pose

W, D = 4.0, 2.0
POSE = Pose(10, 10, 0)


@pytest.mark.parametrize(
    ("point", "arc"),
    [
        ((10, 20), Arc.FRONT),
        ((10, 0), Arc.REAR),
        ((20, 10), Arc.RIGHT),
        ((0, 10), Arc.LEFT),
        # 45 degree boundaries through the corners (12, 11) etc. go to front / rear
        ((13, 12), Arc.FRONT),
        ((13.01, 12), Arc.RIGHT),
        ((7, 12), Arc.FRONT),
        ((6.99, 12), Arc.LEFT),
        ((13, 8), Arc.REAR),
        ((13.01, 8), Arc.RIGHT),
        # directly beside the unit
        ((12.5, 10.9), Arc.RIGHT),
    ],
)
def test_arc_of_point(point: tuple[float, float], arc: Arc) -> None:
    assert arc_of_point(POSE, W, D, point) == arc


def test_arcs_turn_with_the_unit() -> None:
    pose = Pose(10, 10, 90)  # facing +x
    assert arc_of_point(pose, W, D, (20, 10)) == Arc.FRONT
    assert arc_of_point(pose, W, D, (10, 0)) == Arc.RIGHT
    assert arc_of_point(pose, W, D, (10, 20)) == Arc.LEFT
    assert arc_of_point(pose, W, D, (0, 10)) == Arc.REAR


def test_majority_and_sides() -> None:
    assert majority_arc(POSE, W, D, [(10, 20), (20, 10), (21, 10)]) == Arc.RIGHT
    assert majority_arc(POSE, W, D, [(10, 20), (20, 10)]) == Arc.FRONT
    left, right = side_segment(POSE, W, D, Arc.FRONT)
    assert left == pytest.approx((12, 11)) and right == pytest.approx((8, 11))
    assert Arc.LEFT.facing_kind == "flank" and Arc.REAR.outward_bearing == 180
