"""Where a unit may be put down next to its Transport (rulebook "Special Rules Reference": Transport(X)): fully
within 6" of it, on the table, out of impassable terrain and 1" from every other unit.

Pure placement queries on the state, below ``casualties`` (which puts the units of a destroyed Transport down) and
``transport`` (getting out), so neither imports the other (issue 14).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from game.engine.special_rules import TRANSPORT_EXIT
from game.engine.state import GameState, Unit
from geometry.formation import footprint_corners
from geometry.pose import Pose
from geometry.shapes import CONTACT_TOL, footprint_polygon, overlap_area

ONE_INCH = 1.0
"""Rulebook "General Movement": models may never be within 1" of models from other units."""


def fully_within(state: GameState, unit: Unit, pose: Pose, transport: Unit, distance: float = TRANSPORT_EXIT
                 ) -> bool:
    """Every point of ``unit``'s footprint at ``pose`` lies within ``distance`` of ``transport``'s footprint."""
    fp = state.scene.footprint(transport.id)
    return all(fp.distance(shapely.Point(c)) <= distance + 1e-6 for c in footprint_corners(pose, unit.formation))


def placement_problem(state: GameState, unit: Unit, pose: Pose, transport: Unit) -> str | None:
    """Why ``unit`` cannot be put down at ``pose`` next to ``transport``, or None."""
    poly = footprint_polygon(pose, unit.formation)
    if not state.scene.on_table(poly):
        return "the unit would not be fully on the table"
    if not fully_within(state, unit, pose, transport):
        return f"the unit must be placed fully within {TRANSPORT_EXIT:g}\" of {transport.name}"
    core = shapely.buffer(poly, -2 * CONTACT_TOL, join_style="mitre")
    for piece in state.scene.terrain_at(core):
        if "impassable" in piece.traits and overlap_area(core, piece.shape) > 1e-9:
            return f"the unit would stand in impassable terrain {piece.name!r}"
    for other in state.units.values():
        if other.id == unit.id or not other.on_table:
            continue
        d = float(poly.distance(state.scene.footprint(other.id)))
        if d < ONE_INCH - 1e-6:
            return f"the unit would be within 1\" of {other.name}"
    return None


def candidate_poses(state: GameState, unit: Unit, transport: Unit) -> list[Pose]:
    """Poses next to ``transport`` to put a unit down, nearest first: behind, left, right, in front, then further
    out and turned."""
    assert transport.pose is not None
    tp = transport.pose
    tf, uf = transport.formation, unit.formation
    out: list[Pose] = []
    for gap in (ONE_INCH, 2.0, 3.0, 4.0):
        for turn in (0.0, 90.0, 180.0, 270.0):
            facing = (tp.facing + turn) % 360.0
            along = uf.depth if turn in (0.0, 180.0) else uf.width
            across = uf.width if turn in (0.0, 180.0) else uf.depth
            offsets = [
                (0.0, -(tf.depth / 2 + gap + along / 2)),  # behind
                (-(tf.width / 2 + gap + across / 2), 0.0),  # left
                (tf.width / 2 + gap + across / 2, 0.0),  # right
                (0.0, tf.depth / 2 + gap + along / 2),  # in front
            ]
            for slide in (0.0, -2.0, 2.0):
                for u, v in offsets:
                    du, dv = (slide, 0.0) if u == 0.0 else (0.0, slide)
                    x, y = tp.to_world((u + du, v + dv))
                    if math.isfinite(x) and math.isfinite(y):
                        out.append(Pose(float(np.round(x, 6)), float(np.round(y, 6)), facing))
    return out
