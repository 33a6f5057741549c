"""Units on the table: each a formation of bases in its player's colour with its front edge highlighted.

Each unit is drawn from a cached sprite (its bases rendered once per formation, zoom and facing), so a full
battle of 500 models costs a few dozen blits per frame. Labels (name, models left, Shaken / Fleeing / Engaged
markers) come from the shared text cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping

import pygame

from game.engine.state import GameState, Unit
from game.ui import palette
from game.ui.assets import text_cache
from game.ui.table_view import TableView
from geometry.formation import Formation, footprint_corners, model_offsets
from geometry.pose import Pose, forward_vector

SpriteKey = tuple[int, int, float, float, int, float, float, str]


def _tint(colour: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(max(0, min(255, int(c * f))) for c in colour)  # type: ignore[return-value]


class UnitSprites:
    """Cache of rendered unit sprites keyed by formation, player, zoom, facing and style."""

    def __init__(self, capacity: int = 600) -> None:
        self.capacity = capacity
        self._cache: OrderedDict[SpriteKey, pygame.Surface] = OrderedDict()
        self.renders = 0
        """Sprites rendered so far (for tests and benchmarks)."""

    def get(self, formation: Formation, player: int, scale: float, facing: float, style: str = "normal") -> pygame.Surface:
        """The sprite of a unit, rotated to ``facing``; its centre is the footprint centre."""
        key: SpriteKey = (formation.models, formation.per_row, formation.base_width_mm, formation.base_depth_mm,
                          player, round(scale, 3), round(facing * 4) / 4, style)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        flat = self._render_flat(formation, player, scale, style)
        surf = pygame.transform.rotozoom(flat, -key[6], 1.0) if key[6] else flat
        self._cache[key] = surf
        self.renders += 1
        if len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return surf

    @staticmethod
    def _render_flat(formation: Formation, player: int, scale: float, style: str) -> pygame.Surface:
        """The unit facing up the screen, bases as rectangles, front row lighter, front edge highlighted."""
        pad = 2
        w = formation.width * scale
        h = formation.depth * scale
        surf = pygame.Surface((int(w) + 2 * pad + 1, int(h) + 2 * pad + 1), pygame.SRCALPHA)
        fill = palette.PLAYER[player]
        front = palette.PLAYER_LIGHT[player]
        edge = palette.PLAYER_DARK[player]
        if style == "dim":
            fill, front = _tint(fill, 0.62), _tint(front, 0.62)
        elif style == "fleeing":
            fill, front = _tint(fill, 0.75), _tint(front, 0.75)
        bw, bd = formation.base_width * scale, formation.base_depth * scale
        cx, cy = pad + w / 2, pad + h / 2
        for row, (u, v) in model_offsets(formation):
            x = cx + u * scale - bw / 2
            y = cy - v * scale - bd / 2
            rect = pygame.Rect(round(x), round(y), max(1, round(x + bw) - round(x)), max(1, round(y + bd) - round(y)))
            pygame.draw.rect(surf, front if row == 0 else fill, rect)
            if bw >= 4:
                pygame.draw.rect(surf, edge, rect, 1)
        # front edge and a chevron pointing forward
        thick = max(2, round(scale * 0.12))
        pygame.draw.line(surf, palette.FRONT_EDGE, (pad, pad + thick // 2), (pad + w, pad + thick // 2), thick)
        if bd >= 6:
            c = min(bd * 0.35, bw * 0.45, 9)
            top = pad + thick + 1
            pygame.draw.polygon(surf, palette.FRONT_EDGE, [(cx, top), (cx - c, top + c), (cx + c, top + c)])
        if style == "shaken" or style == "fleeing":
            stripe = palette.SHAKEN if style == "shaken" else palette.FLEEING
            pygame.draw.rect(surf, stripe, (pad, pad, round(w), round(h)), max(2, thick))
        return surf


def footprint_screen(view: TableView, pose: Pose, formation: Formation) -> list[tuple[float, float]]:
    """Screen corners of a footprint (front-left, front-right, rear-right, rear-left)."""
    return [view.to_screen(p) for p in footprint_corners(pose, formation)]


def unit_style(unit: Unit, dimmed: bool) -> str:
    """Sprite style of a unit: fleeing, shaken, dim (done for this step) or normal."""
    if unit.fleeing:
        return "fleeing"
    if unit.shaken:
        return "shaken"
    return "dim" if dimmed else "normal"


class UnitPainter:
    """Draws every unit, outlines, labels and the move ghost."""

    def __init__(self) -> None:
        self.sprites = UnitSprites()

    def draw_units(self, screen: pygame.Surface, view: TableView, state: GameState,
                   hidden: Iterable[str] = (), dimmed: Iterable[str] = ()) -> None:
        """Blit every on-table unit (except ``hidden``, e.g. the unit being moved, drawn as its ghost)."""
        hidden = set(hidden)
        dimmed = set(dimmed)
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        for unit in state.units.values():
            if not unit.on_table or unit.id in hidden or unit.models <= 0:
                continue
            assert unit.pose is not None
            self._blit_unit(screen, view, unit, unit.pose, unit_style(unit, unit.id in dimmed))
        screen.set_clip(clip)

    def _blit_unit(self, screen: pygame.Surface, view: TableView, unit: Unit, pose: Pose, style: str,
                   alpha: int | None = None) -> None:
        sprite = self.sprites.get(unit.formation, unit.player, view.scale, pose.facing, style)
        cx, cy = view.to_screen(pose.xy)
        if alpha is not None:
            sprite = sprite.copy()
            sprite.set_alpha(alpha)
        screen.blit(sprite, (round(cx - sprite.get_width() / 2), round(cy - sprite.get_height() / 2)))

    def draw_outlines(self, screen: pygame.Surface, view: TableView, state: GameState,
                      outlines: Mapping[str, tuple[tuple[int, int, int], int]]) -> None:
        """Outline units: ``outlines`` maps a unit id to (colour, width in pixels)."""
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        for uid, (colour, width) in outlines.items():
            unit = state.units.get(uid)
            if unit is None or not unit.on_table:
                continue
            assert unit.pose is not None
            pts = footprint_screen(view, unit.pose, unit.formation)
            pygame.draw.polygon(screen, colour, pts, width)
        screen.set_clip(clip)

    def draw_ghost(self, screen: pygame.Surface, view: TableView, unit: Unit, pose: Pose, legal: bool,
                   path: Iterable[Pose] = ()) -> None:
        """The unit at ``pose`` as a translucent ghost outlined green (legal) or red (illegal), with its path."""
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        colour = palette.LEGAL if legal else palette.ILLEGAL
        pts = [view.to_screen(p.xy) for p in path]
        if len(pts) >= 2:
            pygame.draw.lines(screen, colour, False, pts, 2)
            for p in pts[1:-1]:
                pygame.draw.circle(screen, colour, p, 4)
        self._blit_unit(screen, view, unit, pose, "normal", alpha=150)
        corners = footprint_screen(view, pose, unit.formation)
        pygame.draw.polygon(screen, colour, corners, 3)
        # facing arrow from the front edge
        f = forward_vector(pose.facing)
        mid = ((corners[0][0] + corners[1][0]) / 2, (corners[0][1] + corners[1][1]) / 2)
        L = max(14.0, view.length(1.2))
        tip = (mid[0] + f[0] * L, mid[1] - f[1] * L)
        pygame.draw.line(screen, colour, mid, tip, 3)
        pygame.draw.circle(screen, colour, tip, 4)
        screen.set_clip(clip)

    def draw_labels(self, screen: pygame.Surface, view: TableView, state: GameState,
                    selected: str | None = None) -> None:
        """Name and models left at each unit's centre, with Shaken / Fleeing / Engaged markers beneath."""
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        size = max(10, min(14, round(view.scale * 0.55)))
        for unit in state.units.values():
            if not unit.on_table:
                continue
            assert unit.pose is not None
            cx, cy = view.to_screen(unit.pose.xy)
            bg = (10, 12, 14, 190) if unit.id == selected else (10, 12, 14, 140)
            text = f"{unit.profile.name} {unit.models}"
            if unit.models != unit.starting_models:
                text += f"/{unit.starting_models}"
            if unit.wounds:
                text += f" ({unit.wounds}w)"
            label = text_cache.get(text, size, (255, 255, 255), unit.id == selected, bg, 2)
            y = cy - label.get_height() / 2
            screen.blit(label, (round(cx - label.get_width() / 2), round(y)))
            markers = []
            if unit.fleeing:
                markers.append(("⚑ Fleeing", palette.FLEEING))
            elif unit.shaken:
                markers.append(("⚠ Shaken", palette.SHAKEN))
            if unit.engaged:
                markers.append(("⚔ Engaged", palette.ENGAGED))
            if markers:
                surfs = [text_cache.get(t, size - 1, (0, 0, 0), True, c + (230,), 2) for t, c in markers]
                total = sum(s.get_width() for s in surfs) + 4 * (len(surfs) - 1)
                x = cx - total / 2
                for s in surfs:
                    screen.blit(s, (round(x), round(y + label.get_height() + 1)))
                    x += s.get_width() + 4
        screen.set_clip(clip)
