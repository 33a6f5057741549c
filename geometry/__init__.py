"""Plane geometry of the tabletop in inches and degrees: poses, formations, arcs, terrain, sight and movement.

Knows nothing of the rules engine, dice or pygame. See docs/geometry.md for the conventions.
"""

from geometry.arcs import Arc, arc_of_local, arc_of_point, majority_arc, side_segment
from geometry.formation import Formation, footprint_corners, model_centres, model_rows, rect_corners
from geometry.motion import MoveCheck, SlideResult
from geometry.pose import Point, Pose, bearing_difference, bearing_to, normalise_bearing
from geometry.scene import Scene
from geometry.shapes import CONTACT_TOL, footprint_polygon, model_polygons, rect_polygon
from geometry.terrain import TerrainShape, rect_to_polygon

__all__ = [
    "Arc",
    "CONTACT_TOL",
    "Formation",
    "MoveCheck",
    "Point",
    "Pose",
    "Scene",
    "SlideResult",
    "TerrainShape",
    "arc_of_local",
    "arc_of_point",
    "bearing_difference",
    "bearing_to",
    "footprint_corners",
    "footprint_polygon",
    "majority_arc",
    "model_centres",
    "model_polygons",
    "model_rows",
    "normalise_bearing",
    "rect_corners",
    "rect_polygon",
    "rect_to_polygon",
    "side_segment",
]
