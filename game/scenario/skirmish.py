"""AoF: Skirmish in a scenario (``ruleset: aof-skirmish``): loose models placed by ``positions`` (issue 18: each
base on the table, off impassable terrain, not overlapping, in coherency; "The Battlefield": a 4'x4' table) and the
units a Musician or Banner unit picks (``command_picks``, "Command Groups")."""

from __future__ import annotations

import math
from collections.abc import Iterable

import shapely

from game.engine.profiles import Profile
from game.engine.rulesets.skirmish import ID as SKIRMISH_ID
from game.engine.skirmish.loose import PICKING_UPGRADES
from game.engine.skirmish.loose import base_radius as loose_radius
from game.engine.skirmish.loose import coherency_problem as loose_coherency
from game.engine.state import Table
from game.scenario.placement import _EDGE_EPS
from game.scenario.session import _UnitEntry
from game.scenario.specs import UnitSpec
from game.scenario.yaml_doc import Loc, _Doc, _Problem
from game.terrain_kinds import IMPASSABLE
from geometry.terrain import TerrainShape


def _check_picks(doc: _Doc, loose: bool, e: _UnitEntry, entries: list[_UnitEntry], loc: Loc,
                 out: list[_Problem]) -> None:
    """AoF: Skirmish "Command Groups": a Musician or Banner unit's ``command_picks`` are up to 3 other units of its
    army, each once; other units and other rulesets have none."""
    picks = e.spec.command_picks
    if not picks:
        return
    if not loose or not e.spec.upgrades & PICKING_UPGRADES:
        out.append(doc.problem(loc + ("command_picks",), "only a Musician or Banner unit of AoF: Skirmish "
                               f"(ruleset: {SKIRMISH_ID}) picks friendly units (\"Command Groups\")"))
        return
    friends = {o.spec.id for o in entries if o.army == e.army and o.spec.id != e.spec.id}
    for i, uid in enumerate(picks):
        if uid in picks[:i]:
            out.append(doc.problem(loc + ("command_picks", i), f"{uid!r} picked twice"))
        elif uid not in friends:
            out.append(doc.problem(loc + ("command_picks", i), f"{uid!r} is not another unit of this army "
                                   f"(its units: {', '.join(sorted(friends)) or 'none'})"))


def _check_loose(doc: _Doc, ruleset: str, entries: list[_UnitEntry], table: Table, terrain: list[TerrainShape],
                 out: list[_Problem]) -> None:
    """AoF: Skirmish's loose models (issue 18): units are placed by ``positions`` (one ``{x, y}`` per model, each
    base on the table, off impassable terrain, not overlapping, in coherency), never by ``pose``, and the table
    lets the armies deploy 24" apart ("The Battlefield"); other rulesets place units by ``pose`` only."""
    loose = ruleset == SKIRMISH_ID
    if loose and min(table.width, table.depth) < 48.0:
        out.append(doc.problem(("table",), "AoF: Skirmish is played on a 4'x4' table (48 x 48); on a smaller one "
                               "the armies must still deploy at least 24\" apart: both sides need 48\""))
    placed: list[tuple[str, Profile, list[tuple[float, float]]]] = []
    for e in entries:
        loc: Loc = ("armies", e.army, "units", e.index)
        _check_picks(doc, loose, e, entries, loc, out)
        if not loose:
            if e.spec.positions:
                out.append(doc.problem(loc + ("positions",), "model positions are for loose models (ruleset: "
                                       f"{SKIRMISH_ID}); place this unit with pose"))
            continue
        for key, bad in (("pose", e.spec.pose is not None), ("per_row", e.spec.per_row is not None),
                         ("joined_by", e.spec.joined_by is not None), ("embarked_in", e.spec.embarked_in is not None)):
            if bad:
                out.append(doc.problem(loc + (key,), f"AoF: Skirmish has loose models: no {key} (give positions: "
                                       "[{x, y}, ...], one per model, or leave them out to deploy in the game)"))
        if not e.spec.positions or e.profile is None:
            continue
        pts = list(e.spec.positions)
        if len(pts) != e.spec.models:
            out.append(doc.problem(loc + ("positions",), f"{len(pts)} positions for {e.spec.models} models"))
            continue
        r = loose_radius(e.profile)
        for i, (x, y) in enumerate(pts):
            if not (r - _EDGE_EPS <= x <= table.width - r + _EDGE_EPS and r - _EDGE_EPS <= y
                    <= table.depth - r + _EDGE_EPS):
                out.append(doc.problem(loc + ("positions", i), "the model's base is not fully on the table"))
            for t in terrain:
                if IMPASSABLE in t.traits and t.shape.distance(shapely.Point(x, y)) < r - 1e-3:
                    out.append(doc.problem(loc + ("positions", i), f"the model stands in impassable terrain "
                                           f"{t.name!r}"))
        why = loose_coherency(pts, r)
        if why is not None:
            out.append(doc.problem(loc + ("positions",), f"not in coherency: {why}"))
        for oid, oprof, opts in placed:
            ro = loose_radius(oprof)
            if any(math.dist(p, q) < r + ro - 1e-3 for p in pts for q in opts):
                out.append(doc.problem(loc + ("positions",), f"a model's base overlaps unit {oid!r}"))
        placed.append((e.spec.id, e.profile, pts))


def command_units(specs: Iterable[UnitSpec]) -> dict[str, list[str]]:
    """AoF: Skirmish's Musician and Banner ("Command Groups"): per upgrade, the units that have its rule at the
    start: the unit carrying it and its ``command_picks``."""
    out: dict[str, list[str]] = {}
    for spec in specs:
        for up in sorted(spec.upgrades & PICKING_UPGRADES):
            out.setdefault(up, []).extend([spec.id, *spec.command_picks])
    return out
