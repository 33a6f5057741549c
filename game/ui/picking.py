"""What is under the mouse: units by table point, closest points for the measuring tape."""

from __future__ import annotations

import math

from game.engine.state import GameState, Unit
from geometry.formation import footprint_corners
from geometry.pose import Point, Pose


def point_in_unit(unit: Unit, point: Point, pose: Pose | None = None, slack: float = 0.0) -> bool:
    """True if table ``point`` lies on ``unit``'s footprint (at ``pose``, default its own), grown by ``slack``."""
    pose = pose or unit.pose
    if pose is None:
        return False
    f = unit.formation
    u, v = pose.to_local(point)
    return abs(u) <= f.width / 2 + slack and abs(v) <= f.depth / 2 + slack


def unit_at(state: GameState, point: Point, slack: float = 0.15) -> str | None:
    """Id of the on-table unit under table ``point`` (the smallest footprint wins when several overlap)."""
    best: tuple[float, str] | None = None
    for unit in state.units.values():
        if unit.on_table and point_in_unit(unit, point, slack=slack):
            area = unit.formation.width * unit.formation.depth
            if best is None or area < best[0]:
                best = (area, unit.id)
    return best[1] if best else None


def closest_point_on_segment(p: Point, a: Point, b: Point) -> Point:
    """The point of segment a-b closest to ``p``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L))
    return (ax + t * dx, ay + t * dy)


def closest_point_on_unit(unit: Unit, point: Point) -> Point:
    """The point of ``unit``'s footprint closest to ``point`` (``point`` itself when inside)."""
    if unit.pose is None:
        return point
    if point_in_unit(unit, point):
        return point
    corners = footprint_corners(unit.pose, unit.formation)
    best = point
    best_d = math.inf
    for i in range(4):
        q = closest_point_on_segment(point, corners[i], corners[(i + 1) % 4])
        d = math.dist(q, point)
        if d < best_d:
            best, best_d = q, d
    return best


def closest_points_between(a: Unit, b: Unit) -> tuple[Point, Point]:
    """A pair of closest points of two units' footprints (for drawing the distance between them)."""
    if a.pose is None or b.pose is None:
        raise ValueError("both units must be on the table")
    ca = footprint_corners(a.pose, a.formation)
    cb = footprint_corners(b.pose, b.formation)
    best: tuple[float, Point, Point] = (math.inf, ca[0], cb[0])
    for corners_from, corners_to, flip in ((ca, cb, False), (cb, ca, True)):
        for p in corners_from:
            for i in range(4):
                q = closest_point_on_segment(p, corners_to[i], corners_to[(i + 1) % 4])
                d = math.dist(p, q)
                if d < best[0]:
                    best = (d, q, p) if flip else (d, p, q)
    return best[1], best[2]
