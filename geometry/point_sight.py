"""Line of sight from a unit to a point of the table (a spell aimed at a point: AoWFBR 1.4 Special Rules Reference
"Caster(X)", "resolve the effect on a target in line of sight"; rulebook "Line of Sight"; docs/rulings.md).

A looker *model* sees a table *point* when the point lies in its base's 45 degree front arc (the same arc as for
seeing a model, ``geometry.sight``) and the sight line from the base's centre to the point is clear
(``geometry.sight.line_clear``: other units' footprints, blocking terrain, forests crossed from outside). A unit
whose footprint holds the point does not block a line to it: the point is on that unit, as a target model's own
base does not hide it. An elevated looker ignores one obstacle, as for any sight line.

Inches and degrees; unknown unit ids raise ``KeyError``.
"""

from __future__ import annotations

import numpy as np
import shapely

from geometry.pose import Point, forward_vector, right_vector
from geometry.scene_data import SceneData
from geometry.sight import line_clear


def point_in_base_arcs(scene: SceneData, looker_id: str, point: Point) -> np.ndarray:
    """Which of the looker's models (``SceneData.model_centres`` order) have ``point`` in their base's front arc:
    bool (n,). A point touching a base's front edge or its 45 degree lines is in the arc."""
    formation = scene.formation(looker_id)
    facing = scene.pose(looker_id).facing
    centres = scene.model_centres(looker_id)
    d = np.asarray(point, dtype=float)[None, :] - centres
    f = np.asarray(forward_vector(facing))
    r = np.asarray(right_vector(facing))
    du = np.abs(d @ r)
    dv = d @ f
    eps = 1e-9
    out: np.ndarray = (dv >= -eps) & (dv - formation.base_depth / 2 >= du - formation.base_width / 2 - eps)
    return out


def units_holding(scene: SceneData, point: Point) -> list[str]:
    """Ids of the units whose footprint holds ``point`` (inside or on the outline), scene order."""
    p = shapely.Point(point)
    return [uid for uid in scene.unit_ids() if scene.footprint(uid).covers(p)]


def models_seeing_point(scene: SceneData, looker_id: str, point: Point, first_only: bool = False) -> list[int]:
    """Indices of the looker's models that see ``point`` (module docstring), nearest to the point first.

    ``first_only``: stop at the first model that sees it (enough for "is the point in sight")."""
    in_arc = np.flatnonzero(point_in_base_arcs(scene, looker_id, point))
    if not len(in_arc):
        return []
    centres = scene.model_centres(looker_id)
    order = in_arc[np.argsort(np.hypot(*(centres[in_arc] - np.asarray(point, dtype=float)).T), kind="stable")]
    ignore = units_holding(scene, point)
    out: list[int] = []
    for k in order.tolist():
        c = centres[k]
        if line_clear(scene, (float(c[0]), float(c[1])), point, ignore_units=ignore, looker_id=looker_id):
            out.append(int(k))
            if first_only:
                break
    return out


def point_in_sight(scene: SceneData, looker_id: str, point: Point) -> bool:
    """True if some model of the looker sees ``point`` (module docstring)."""
    return bool(models_seeing_point(scene, looker_id, point, first_only=True))


__all__ = ["models_seeing_point", "point_in_base_arcs", "point_in_sight", "units_holding"]
