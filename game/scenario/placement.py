"""Where a game of the scenario starts: the units the file places (footprints fully on the table, not overlapping
each other nor impassable terrain: rulebook "Unit Formations", "Impassable Terrain") and the ``start`` it gives
(round, player, phase; units without a pose are placed in the deployment phase, rulebook "Deploying Armies")."""

from __future__ import annotations

from shapely import Polygon

from game.engine.state import Phase, Table
from game.scenario.models import StartModel
from game.scenario.session import _UnitEntry
from game.scenario.specs import StartSpec
from game.scenario.yaml_doc import _Doc, _Problem
from game.terrain_kinds import IMPASSABLE
from geometry.formation import Formation
from geometry.shapes import footprint_polygon, overlap_area
from geometry.terrain import TerrainShape

_AREA_EPS = 1e-6  # square inches: overlaps smaller than this are touching, not overlapping
_EDGE_EPS = 1e-6  # inches: tolerance on the table edge


def _check_poses(doc: _Doc, entries: list[_UnitEntry], table: Table, terrain: list[TerrainShape],
                 out: list[_Problem]) -> None:
    """Footprints fully on the table, not overlapping each other nor impassable terrain (rulebook
    "Unit Formations", "Impassable Terrain"). A hero joined to a unit stands in that unit's formation (its own
    pose, if any, is ignored)."""
    placed: list[tuple[_UnitEntry, Polygon]] = []
    impassable = [t for t in terrain if IMPASSABLE in t.traits]
    joined = {e.spec.joined_by for e in entries if e.spec.joined_by is not None}
    for e in entries:
        if e.spec.pose is None or e.profile is None or e.spec.id in joined:
            continue
        formation = Formation(e.spec.models, e.spec.formation_per_row, e.profile.base_width_mm,
                              e.profile.base_depth_mm)
        hero = next((h for h in entries if e.spec.joined_by is not None and h.army == e.army
                     and h.spec.id == e.spec.joined_by), None)
        if hero is not None and hero.profile is not None:
            formation = Formation(e.spec.models + 1, e.spec.formation_per_row, e.profile.base_width_mm,
                                  e.profile.base_depth_mm, hero.profile.base_width_mm, hero.profile.base_depth_mm)
        fp = footprint_polygon(e.spec.pose, formation)
        where = ("armies", e.army, "units", e.index, "pose")
        x0, y0, x1, y1 = fp.bounds
        if x0 < -_EDGE_EPS or y0 < -_EDGE_EPS or x1 > table.width + _EDGE_EPS or y1 > table.depth + _EDGE_EPS:
            out.append(doc.problem(where, f"unit is not fully on the table: its footprint spans x {x0:.2f} to "
                                          f"{x1:.2f}, y {y0:.2f} to {y1:.2f} (table {table.width:g} x "
                                          f"{table.depth:g})"))
        for t in impassable:
            if overlap_area(fp, t.shape) > _AREA_EPS:
                out.append(doc.problem(where, f"unit stands in impassable terrain {t.name!r} (terrain[{t.index}])"))
        for other, ofp in placed:
            if e.spec.joined_by == other.spec.id or other.spec.joined_by == e.spec.id:
                continue
            if overlap_area(fp, ofp) > _AREA_EPS:
                out.append(doc.problem(where, f"unit overlaps unit {other.spec.id!r}"))
        placed.append((e, fp))


def _check_start(doc: _Doc, start_m: StartModel | None, rounds: int | None, entries: list[_UnitEntry],
                 out: list[_Problem]) -> StartSpec | None:
    if start_m is None:
        return None
    phase = Phase(start_m.phase)
    if rounds is not None and start_m.round > rounds:
        out.append(doc.problem(("start", "round"), f"must be at most rounds ({rounds}), got {start_m.round}"))
    if phase is Phase.DEPLOYMENT and start_m.round != 1:
        out.append(doc.problem(("start", "round"), f"deployment comes before round 1: must be 1, got {start_m.round}"))
    joined = {e.spec.joined_by for e in entries if e.spec.joined_by is not None}
    undeployed = [e.spec.id for e in entries
                  if e.spec.pose is None and not e.spec.positions and e.spec.id not in joined
                  and e.spec.embarked_in is None]
    if phase is not Phase.DEPLOYMENT and undeployed:
        shown = ", ".join(undeployed[:5]) + (", ..." if len(undeployed) > 5 else "")
        out.append(doc.problem(("start", "phase"), f"units without a pose ({shown}) can only be placed in the "
                                                   "deployment phase"))
    return StartSpec(start_m.round, start_m.player, phase)
