"""Facing arcs of a rectangle (rulebook "Unit Facing": four 90 degree quadrants).

The arcs of a ``width`` x ``depth`` rectangle are bounded by the lines through its corners at 45 degrees to its
sides. A point in front of the front edge belongs to the front arc when its distance ahead of the front edge is
at least its distance sideways beyond the nearest side edge; likewise for the rear; everything else is flank.
Points exactly on a 45 degree boundary go to the front (or the rear, rather than a flank).
"""

from __future__ import annotations

from enum import Enum

from geometry.pose import Point, Pose


class Arc(str, Enum):
    """One of the four facing arcs of a unit or model base."""

    FRONT = "front"
    RIGHT = "right"
    REAR = "rear"
    LEFT = "left"

    @property
    def is_flank(self) -> bool:
        """True for the left and right flank arcs."""
        return self in (Arc.LEFT, Arc.RIGHT)

    @property
    def facing_kind(self) -> str:
        """"front", "flank" or "rear": the rulebook's names for melee resolution and morale."""
        return "flank" if self.is_flank else self.value

    @property
    def outward_bearing(self) -> float:
        """Bearing of this side's outward normal relative to the unit facing, degrees."""
        return {Arc.FRONT: 0.0, Arc.RIGHT: 90.0, Arc.REAR: 180.0, Arc.LEFT: 270.0}[self]


def arc_of_local(u: float, v: float, width: float, depth: float) -> Arc:
    """Arc of a point given in the rectangle's frame (u right, v forward, inches)."""
    side = abs(u) - width / 2
    ahead = v - depth / 2
    behind = -v - depth / 2
    if ahead >= side and ahead >= behind:
        return Arc.FRONT
    if behind >= side:
        return Arc.REAR
    return Arc.RIGHT if u > 0 else Arc.LEFT


def arc_of_point(pose: Pose, width: float, depth: float, point: Point) -> Arc:
    """Which arc of the ``width`` x ``depth`` rectangle at ``pose`` the table point ``point`` lies in."""
    u, v = pose.to_local(point)
    return arc_of_local(u, v, width, depth)


def majority_arc(pose: Pose, width: float, depth: float, points: list[Point]) -> Arc:
    """The arc of the rectangle holding most of ``points`` (ties: front, then flanks, then rear).

    Used for "charge ... in the facing where the majority of their front row models are" (rulebook
    "Charge Moves"). Raises ``ValueError`` on an empty list.
    """
    if not points:
        raise ValueError("majority_arc needs at least one point")
    counts = {arc: 0 for arc in Arc}
    for p in points:
        counts[arc_of_point(pose, width, depth, p)] += 1
    order = [Arc.FRONT, Arc.LEFT, Arc.RIGHT, Arc.REAR]
    return max(order, key=lambda a: (counts[a], -order.index(a)))


def side_segment(pose: Pose, width: float, depth: float, arc: Arc) -> tuple[Point, Point]:
    """The edge of the rectangle facing ``arc``, as (left end, right end) seen from outside looking in."""
    hw, hd = width / 2, depth / 2
    local = {
        Arc.FRONT: ((hw, hd), (-hw, hd)),
        Arc.RIGHT: ((hw, -hd), (hw, hd)),
        Arc.REAR: ((-hw, -hd), (hw, -hd)),
        Arc.LEFT: ((-hw, hd), (-hw, -hd)),
    }[arc]
    return (pose.to_world(local[0]), pose.to_world(local[1]))
