"""Poses and bearings on the table.

Conventions (../shared/spec.md, "Units and coordinates"):

* distances are inches, angles are degrees;
* x grows to the right along the long edge, y grows toward player 2's edge;
* a facing is a compass bearing: 0 faces +y, 90 faces +x, clockwise, normalised to [0, 360).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]
"""A point on the table, (x, y) in inches."""


def normalise_bearing(bearing: float) -> float:
    """Return ``bearing`` (degrees) folded into [0, 360)."""
    b = math.fmod(bearing, 360.0)
    if b < 0:
        b += 360.0
    if b >= 360.0:  # fmod of a tiny negative number can round up to 360
        b = 0.0
    return b


def bearing_difference(a: float, b: float) -> float:
    """Signed smallest turn from bearing ``a`` to bearing ``b``, in degrees, in (-180, 180].

    Positive is clockwise.
    """
    d = math.fmod(b - a, 360.0)
    if d <= -180.0:
        d += 360.0
    elif d > 180.0:
        d -= 360.0
    return d


def forward_vector(facing: float) -> Point:
    """Unit vector pointing along ``facing`` (degrees): 0 -> (0, 1), 90 -> (1, 0)."""
    r = math.radians(facing)
    return (math.sin(r), math.cos(r))


def right_vector(facing: float) -> Point:
    """Unit vector pointing to the right of ``facing`` (90 degrees clockwise)."""
    r = math.radians(facing)
    return (math.cos(r), -math.sin(r))


def bearing_to(origin: Point, target: Point) -> float:
    """Compass bearing in degrees from ``origin`` to ``target``; 0 if they coincide."""
    dx = target[0] - origin[0]
    dy = target[1] - origin[1]
    if dx == 0.0 and dy == 0.0:
        return 0.0
    return normalise_bearing(math.degrees(math.atan2(dx, dy)))


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a unit stands: the centre (x, y) of its footprint in inches and its facing in degrees."""

    x: float
    """Centre x, inches."""
    y: float
    """Centre y, inches."""
    facing: float
    """Compass bearing in degrees, [0, 360)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.x) and math.isfinite(self.y) and math.isfinite(self.facing)):
            raise ValueError(f"pose must be finite, got ({self.x}, {self.y}, {self.facing})")
        if not 0.0 <= self.facing < 360.0:
            object.__setattr__(self, "facing", normalise_bearing(self.facing))

    @property
    def xy(self) -> Point:
        """The centre as a tuple (x, y), inches."""
        return (self.x, self.y)

    def to_local(self, point: Point) -> Point:
        """Coordinates of ``point`` in this pose's frame: (u to the right, v forward), inches."""
        dx = point[0] - self.x
        dy = point[1] - self.y
        fx, fy = forward_vector(self.facing)
        rx, ry = right_vector(self.facing)
        return (dx * rx + dy * ry, dx * fx + dy * fy)

    def to_world(self, local: Point) -> Point:
        """Table coordinates of a point given as (u right, v forward) in this pose's frame."""
        u, v = local
        fx, fy = forward_vector(self.facing)
        rx, ry = right_vector(self.facing)
        return (self.x + u * rx + v * fx, self.y + u * ry + v * fy)

    def moved(self, dx: float, dy: float) -> Pose:
        """This pose translated by (dx, dy) inches, same facing."""
        return Pose(self.x + dx, self.y + dy, self.facing)

    def advanced(self, forward: float, right: float = 0.0) -> Pose:
        """This pose moved ``forward`` inches along its facing and ``right`` inches to its right."""
        return Pose(*self.to_world((right, forward)), self.facing)

    def turned(self, degrees: float) -> Pose:
        """This pose pivoted about its centre by ``degrees`` (clockwise positive)."""
        return Pose(self.x, self.y, normalise_bearing(self.facing + degrees))

    def facing_to(self, facing: float) -> Pose:
        """This pose with a new facing (degrees), same centre."""
        return Pose(self.x, self.y, normalise_bearing(facing))

    def distance_to(self, other: Pose) -> float:
        """Distance between the two centres, inches."""
        return math.hypot(other.x - self.x, other.y - self.y)
