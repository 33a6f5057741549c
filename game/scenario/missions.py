"""The mission, objective markers and side-missions a scenario gives (AoF:R 2.16 "Extra Missions", "Mission
Objectives", "Side-Missions"; game.engine.objectives, game.engine.side_missions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import shapely
from shapely import Polygon

from game.engine.objectives import FIXED_MISSIONS, MARKER_SPACING
from game.engine.state import DEPLOYMENT_DEPTH as OBJECTIVE_ZONE_DEPTH
from game.engine.state import Table
from game.scenario.models import ObjectiveModel, ScenarioTopModel, SideMissionsModel
from game.scenario.validation import _field
from game.scenario.yaml_doc import _Doc, _Problem
from game.terrain_kinds import IMPASSABLE
from geometry.terrain import TerrainShape


def _side_missions(data: Mapping[str, Any]) -> tuple[str, str] | None:
    given: SideMissionsModel | None = _field(ScenarioTopModel, data, "side_missions", None)
    return None if given is None else (given.playstyle, given.selection)


def _check_mission(doc: _Doc, data: Mapping[str, Any], table: Table | None, terrain: list[TerrainShape],
                   out: list[_Problem]) -> tuple[str | None, tuple[tuple[float, float], ...]]:
    """The mission and the markers the file places (AoF:R 2.16 "Extra Missions", "Mission Objectives"): a mission
    this program cannot play yet is refused by name; markers must be on the table and not in impassable terrain;
    markers placed in the game need room outside the deployment zones."""
    mission = _field(ScenarioTopModel, data, "mission", None)
    given: list[ObjectiveModel] | None = _field(ScenarioTopModel, data, "objectives", None)
    if given and mission not in (None, "standard", "none"):
        out.append(doc.problem(("objectives",), f"the {mission} mission places its markers by its own rule; "
                                                "objectives can only be given for the standard mission"))
        return None, ()
    if mission == "none":
        if given:
            out.append(doc.problem(("objectives",), "objective markers are only used when a mission is played "
                                                    "(mission: none)"))
        return None, ()
    if given is not None and mission is None:
        mission = "standard"    # markers in the file: the standard mission's seizing and scoring
    markers = tuple((float(o.x), float(o.y)) for o in given or ())
    if table is not None:
        impassable = [t for t in terrain if IMPASSABLE in t.traits]
        for i, (x, y) in enumerate(markers):
            if not (0 <= x <= table.width and 0 <= y <= table.depth):
                out.append(doc.problem(("objectives", i), f"({x:g}, {y:g}) is off the table ({table.width:g} x "
                                                          f"{table.depth:g})"))
            elif any(Polygon(t.polygon).covers(shapely.Point(x, y)) for t in impassable):
                out.append(doc.problem(("objectives", i), "a marker may not stand in impassable terrain"))
        room = 2 * OBJECTIVE_ZONE_DEPTH + (2 * MARKER_SPACING if mission == "king_of_the_hill" else 0)
        if mission not in (None, "sabotage", *FIXED_MISSIONS) and not markers and table.depth <= room:
            out.append(doc.problem(("mission",), f"markers are placed outside the deployment zones, which leave no "
                                                 f"room on this {table.depth:g}\" deep table"))
    return mission, markers
