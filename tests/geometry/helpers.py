"""Small builders shared by the geometry tests."""

from __future__ import annotations

from geometry.formation import Formation
from geometry.pose import Pose
from geometry.scene import Scene
from geometry.terrain import TerrainShape, rect_to_polygon

INF20 = Formation(20, 5, 20, 20)
"""20 infantry on 20 mm bases: 3.94" x 3.15"."""
INF10 = Formation(10, 5, 20, 20)
"""10 infantry: 3.94" x 1.57"."""
SINGLE = Formation(1, 1, 25, 25)
"""One model on a 25 mm base."""


def piece(index: int, x: float, y: float, w: float, d: float, *traits: str, angle: float = 0.0) -> TerrainShape:
    """A rectangular terrain piece centred on (x, y)."""
    return TerrainShape(index, f"t{index}", rect_to_polygon(x, y, w, d, angle), frozenset(traits))


def scene(*terrain: TerrainShape, width: float = 72, depth: float = 48) -> Scene:
    """An empty 72 x 48 table with the given terrain."""
    return Scene(width, depth, list(terrain))


def put(s: Scene, uid: str, x: float, y: float, facing: float, f: Formation = INF10, player: int = 1) -> None:
    """Place a unit."""
    s.set_unit(uid, player, Pose(x, y, facing), f)
