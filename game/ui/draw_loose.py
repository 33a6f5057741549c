"""Drawing loose models (AoF: Skirmish, issue 18): each model's round base in its player's colour, wound markers
beside it, the unit's name, the selected unit's weapon ranges per model, the deployment zones, and the move tool's
ghost with its coherency links (green within 1", red beyond). Drawing only reads the state."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import pygame
from shapely import Point
from shapely.ops import unary_union

from game.engine.skirmish.loose import XY, base_radius, centre, elevated_pieces, height_at, points_of, warband_of
from game.engine.state import GameState
from game.ui import palette
from game.ui.assets import font
from game.ui.label_layout import UNIT, LabelLayout, nudges_for
from game.ui.loose_tool import LooseMoveTool
from game.ui.table_view import TableView

WOUND = (220, 30, 30)
"""Colour of a wound marker."""
JUMP = (255, 160, 40)
"""Colour of a jump on the move tool's ghost."""
ELEVATION_EDGE = (250, 235, 190)
"""Outline of elevated ground, and the ring of a model standing on it."""


def draw_models(screen: pygame.Surface, view: TableView, state: GameState, selected: str | None,
                actors: set[str], targets: set[str], hover: str | None, hide: str | None = None,
                shy_of: Sequence[pygame.Rect] = ()) -> None:
    """Every model of every unit on the table (``hide``: a unit drawn by the move tool instead); the units' names
    keep off ``shy_of`` (e.g. the height tags of ``draw_elevation``) when they can."""
    w = warband_of(state)
    layout = LabelLayout(view.rect)
    bodies: list[pygame.Rect] = []
    for unit in state.units.values():
        if not unit.on_table or unit.id == hide:
            continue
        pts = [m.xy for m in w.models.get(unit.id, [])]
        if not pts:
            continue
        r = max(3.0, view.length(base_radius(unit.profile)))
        ring = palette.SELECT if unit.id == selected else palette.TARGET if unit.id in targets else \
            palette.LEGAL if unit.id in actors else palette.PLAYER_DARK[unit.player]
        width = 3 if unit.id in (selected, hover) or unit.id in targets or unit.id in actors else 1
        for m in w.models[unit.id]:
            c = view.to_screen(m.xy)
            pygame.draw.circle(screen, palette.PLAYER[unit.player], c, r)
            pygame.draw.circle(screen, ring, c, r, width)
            up = height_at(state, m.xy)
            if up > 0:
                # standing on elevated ground: a light outer ring and its height under the base
                pygame.draw.circle(screen, ELEVATION_EDGE, c, r + 2, 1)
                tag_ = font(10, True).render(f"{up:g}\"", True, ELEVATION_EDGE)
                back = pygame.Surface((tag_.get_width() + 4, tag_.get_height()), pygame.SRCALPHA)
                back.fill((0, 0, 0, 150))
                back.blit(tag_, (2, 0))
                bodies.append(screen.blit(back, (round(c[0] - back.get_width() / 2), round(c[1] + r + 2))))
            if unit.shaken:
                pygame.draw.circle(screen, palette.SHAKEN, c, r + 3, 2)
            for k in range(m.wounds):
                pygame.draw.circle(screen, WOUND, (c[0] + r + 4 + 7 * k, c[1] - r * 0.6), 3.5)
                pygame.draw.circle(screen, (255, 255, 255), (c[0] + r + 4 + 7 * k, c[1] - r * 0.6), 3.5, 1)
            bodies.append(pygame.Rect(round(c[0] - r), round(c[1] - r), round(2 * r), round(2 * r)))
        label = unit.profile.name + (" (Shaken)" if unit.shaken else "")
        text = font(12, unit.id == selected).render(label, True, (245, 245, 235))
        tag = pygame.Surface((text.get_width() + 6, text.get_height() + 2), pygame.SRCALPHA)
        tag.fill((0, 0, 0, 130))
        tag.blit(text, (3, 1))
        cx = view.to_screen(centre(pts))[0]
        ys = [view.to_screen(p)[1] for p in pts]
        above = tag.get_rect(midbottom=(round(cx), round(min(ys) - r - 2)))
        below = tag.get_rect(midtop=(round(cx), round(max(ys) + r + 2)))
        # above the models, else below, else nudged: two units in melee must not print their names on each other
        spots = [above, below] + [above.move(dx, dy) for dx, dy in nudges_for(above)[1:]] + \
            [below.move(dx, dy) for dx, dy in nudges_for(below)[1:]]
        layout.add("unit", UNIT + (1 if unit.id == selected else 0), tag, spots, required=True)
    layout.shy_of = bodies + list(shy_of)
    layout.solve()
    layout.draw(screen)


def _outline(screen: pygame.Surface, view: TableView, centres: list[XY], radius: float,
             colour: tuple[int, int, int, int]) -> None:
    """The outline of the union of circles of ``radius`` inches round ``centres``."""
    shape = unary_union([Point(c).buffer(radius, 24) for c in centres])
    for poly in getattr(shape, "geoms", [shape]):
        ring = [view.to_screen(p) for p in poly.exterior.coords]
        if len(ring) > 2:
            pygame.draw.polygon(screen, colour, ring, 2)


def draw_ranges(screen: pygame.Surface, view: TableView, state: GameState, unit_id: str,
                reach: float | None = None) -> None:
    """The selected unit's reach per model, as the outline of what its models reach: the longest ranged weapon
    (yellow) and ``reach`` (blue, e.g. the charge distance), measured from each model's base edge."""
    unit = state.units[unit_id]
    ranged = [w.range for w in unit.profile.ranged_weapons if w.range]
    r = base_radius(unit.profile)
    pts = points_of(state, unit_id)
    if not pts:
        return
    if ranged:
        _outline(screen, view, pts, r + max(ranged), (255, 225, 120, 255))
    if reach:
        _outline(screen, view, pts, r + reach, (140, 210, 255, 255))


def draw_reach(screen: pygame.Surface, view: TableView, state: GameState, unit_id: str, inches: float,
               colour: tuple[int, int, int, int]) -> None:
    """The outline of everything within ``inches`` of a unit's bases (e.g. the 9" an Ambush must keep away)."""
    pts = points_of(state, unit_id)
    if pts:
        _outline(screen, view, pts, base_radius(state.units[unit_id].profile) + inches, colour)


def draw_ghost(screen: pygame.Surface, view: TableView, tool: LooseMoveTool, ok: bool) -> None:
    """The move tool's models where they would end, their start as faint rings, lines from start to end, and the
    coherency links (green: within 1" of a fellow; red: beyond)."""
    r = max(3.0, view.length(tool.radius))
    colour = palette.LEGAL if ok else palette.ILLEGAL
    for a, b in zip(tool.start, tool.points, strict=True):
        pa, pb = view.to_screen(a), view.to_screen(b)
        pygame.draw.circle(screen, (200, 200, 200), pa, r, 1)
        if a != b:
            pygame.draw.line(screen, (220, 220, 220), pa, pb, 1)
    for i, j, near in tool.links():
        pygame.draw.line(screen, palette.LEGAL if near else palette.ILLEGAL, view.to_screen(tool.points[i]),
                         view.to_screen(tool.points[j]), 3)
    unit = tool.game.state.units[tool.unit_id]
    for p in tool.points:
        c = view.to_screen(p)
        pygame.draw.circle(screen, palette.PLAYER_LIGHT[unit.player], c, r)
        pygame.draw.circle(screen, colour, c, r, 3)
    for _, jump in tool.jumps():
        # where the model leaves the edge (or clears the gap): an orange ring, "J"
        c = view.to_screen(jump.foot)
        pygame.draw.circle(screen, JUMP, c, max(6.0, r * 0.8), 2)
        mark = font(11, True).render("J", True, JUMP)
        screen.blit(mark, (c[0] - mark.get_width() / 2, c[1] - mark.get_height() / 2))
    if tool.moved():
        c = view.to_screen(centre(tool.points))
        y = c[1] + r + 6
        lines = [(f"{tool.longest():.1f}\" ({tool.kind()})", 14)] + [(t, 12) for t in tool.elevation_lines()]
        why = tool.problem()
        if why is not None:
            lines += [(part, 12) for part in textwrap.wrap(why.message, 60)[:3]]
        for text_, size in lines:
            text = font(size, True).render(text_, True, colour)
            bg = pygame.Surface((text.get_width() + 6, text.get_height() + 2), pygame.SRCALPHA)
            bg.fill((0, 0, 0, 150))
            screen.blit(bg, (c[0] - text.get_width() / 2 - 3, y - 1))
            screen.blit(text, (c[0] - text.get_width() / 2, y))
            y += text.get_height() + 3


def draw_zones(screen: pygame.Surface, view: TableView, state: GameState, depth: float) -> None:
    """The players' deployment zones: ``depth`` inches along each chosen edge, in the player's colour."""
    w = warband_of(state)
    t = state.table
    layer = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
    for player, edge in w.edges.items():
        x0, y0, x1, y1 = {"south": (0.0, 0.0, t.width, depth), "north": (0.0, t.depth - depth, t.width, t.depth),
                          "west": (0.0, 0.0, depth, t.depth), "east": (t.width - depth, 0.0, t.width, t.depth)}[edge]
        corners: list[XY] = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        pts = [view.to_screen(p) for p in corners]
        pygame.draw.polygon(layer, (*palette.PLAYER[player], 45), pts)
        pygame.draw.polygon(layer, (*palette.PLAYER_LIGHT[player], 160), pts, 2)
    screen.blit(layer, (0, 0))


def draw_placement(screen: pygame.Surface, view: TableView, points: list[XY], radius: float, ok: bool) -> None:
    """The unit about to be deployed, following the mouse."""
    r = max(3.0, view.length(radius))
    for p in points:
        pygame.draw.circle(screen, palette.LEGAL if ok else palette.ILLEGAL, view.to_screen(p), r, 2)


def draw_elevation(screen: pygame.Surface, view: TableView, state: GameState) -> list[pygame.Rect]:
    """Elevated ground (docs/rulings.md "AoF Skirmish": elevation): each piece shaded darker the higher it stands,
    a light outline, and its height (e.g. ``3"``) in a tag at its top-right corner on screen, clear of the name at
    its centre. Returns the tags' rectangles on screen."""
    layer = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
    tags = []
    out = []
    for piece in sorted(elevated_pieces(state), key=lambda t: t.height):
        pts = [view.to_screen(p) for p in piece.polygon]
        pygame.draw.polygon(layer, (20, 15, 5, min(140, 30 + round(16 * piece.height))), pts)
        pygame.draw.polygon(layer, (*ELEVATION_EDGE, 230), pts, 2)
        tags.append((piece.height, max(p[0] for p in pts), min(p[1] for p in pts)))
    screen.blit(layer, (0, 0))
    for h, right, top in tags:
        text = font(12, True).render(f"{h:g}\"", True, (30, 20, 5))
        bg = pygame.Surface((text.get_width() + 6, text.get_height() + 2), pygame.SRCALPHA)
        bg.fill((*ELEVATION_EDGE, 235))
        bg.blit(text, (3, 1))
        out.append(screen.blit(bg, (round(right - bg.get_width() - 2), round(top + 2))))
    return out


def draw_push(screen: pygame.Surface, view: TableView, start: XY, end: XY | None, radius: float, reach: float,
              ok: bool) -> None:
    """AoF: Skirmish "Pushing": the ``reach`` (2") the pushed model's centre may move from ``start``, and where it
    would be pushed to (``end``, legal or not) with a line from where it stands."""
    c = view.to_screen(start)
    pygame.draw.circle(screen, palette.TARGET, c, max(4.0, view.length(reach)), 2)
    if end is None:
        return
    colour = palette.LEGAL if ok else palette.ILLEGAL
    e = view.to_screen(end)
    pygame.draw.line(screen, colour, c, e, 2)
    pygame.draw.circle(screen, colour, e, max(3.0, view.length(radius)), 2)
