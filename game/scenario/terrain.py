"""Reading the ``terrain`` list of a scenario file (rulebook "Terrain Setup Guidelines"; docs/formats.md
"Terrain"): each piece's outline (``polygon`` or ``rect``, inches), kind, traits and height."""

from __future__ import annotations

import re
from typing import Any

from shapely import Polygon, box
from shapely.validation import explain_validity

from game.engine.state import Table
from game.scenario.models import TerrainModel
from game.scenario.validation import _validate
from game.scenario.yaml_doc import Loc, _Doc, _Problem
from game.terrain_kinds import KIND_HEIGHT, KIND_TRAITS
from geometry.terrain import TerrainShape, rect_to_polygon

_Points = tuple[tuple[float, float], ...]


def _read_terrain(raw: list[Any], doc: _Doc, table: Table | None, out: list[_Problem]
                  ) -> tuple[list[TerrainShape], list[str]]:
    """Validate a ``terrain`` list: the good pieces (numbered in order) and their kinds. ``table``: None when the
    file's table is bad (pieces are then not checked against it). Problems go to ``out``."""
    shapes: list[TerrainShape] = []
    kinds: list[str] = []
    for i, item in enumerate(raw):
        loc: Loc = ("terrain", i)
        tm = _validate(TerrainModel, item, doc, loc, out)
        if tm is None:
            continue
        outline = _outline(tm, doc, loc, out)
        if outline is None:
            continue
        points, where = outline
        if table is not None and not Polygon(points).intersects(box(0, 0, table.width, table.depth)):
            out.append(doc.problem(where, "lies entirely off the table"))
            continue
        name = tm.name or f"{tm.kind.capitalize()} {i + 1}"
        traits = frozenset(tm.traits) if tm.traits is not None else KIND_TRAITS[tm.kind]
        height = float(tm.height) if tm.height is not None else KIND_HEIGHT[tm.kind]
        try:
            shapes.append(TerrainShape(len(shapes), name, points, traits, height))
        except ValueError as e:  # pragma: no cover - the checks above catch what TerrainShape refuses
            out.append(doc.problem(where, str(e)))
            continue
        kinds.append(tm.kind)
    return shapes, kinds


def _outline(tm: TerrainModel, doc: _Doc, loc: Loc, out: list[_Problem]) -> tuple[_Points, Loc] | None:
    """A piece's outline points and the path of the key that gave them (``rect`` or ``polygon``), or None when
    it has none, both, or a polygon that is not a simple outline with an area (problem added)."""
    if tm.polygon is None and tm.rect is None:
        out.append(doc.problem(loc, "needs a polygon or a rect"))
        return None
    if tm.polygon is not None and tm.rect is not None:
        out.append(doc.problem(loc + ("rect",), "give either polygon or rect, not both"))
        return None
    if tm.rect is not None:
        r = tm.rect
        return rect_to_polygon(r.x, r.y, r.width, r.depth, r.angle), loc + ("rect",)
    assert tm.polygon is not None
    points = tuple((float(p[0]), float(p[1])) for p in tm.polygon)
    where = loc + ("polygon",)
    if len(points) < 3:
        out.append(doc.problem(where, f"needs at least 3 points, got {len(points)}"))
        return None
    poly = Polygon(points)
    if poly.convex_hull.area <= 0:
        out.append(doc.problem(where, "outline has no area: its points lie on one line"))
        return None
    if not poly.is_valid:
        reason = explain_validity(poly)
        m = re.search(r"\[([-\d.e+]+) ([-\d.e+]+)\]", reason)
        near = f" near ({float(m.group(1)):g}, {float(m.group(2)):g})" if m else ""
        out.append(doc.problem(where, f"outline crosses itself{near}: list the points in order around the piece"))
        return None
    return points, where
