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
from game.ui.describe import morale_word
from game.ui.label_layout import UNIT, LabelLayout, clear_of
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
        self._latest: dict[SpriteKey, tuple[float, pygame.Surface]] = {}
        """Last rendered sprite of each unit drawing state (the key without its zoom), with its zoom."""
        self.renders = 0
        """Sprites rendered so far (for tests and benchmarks)."""

    def get(self, formation: Formation, player: int, scale: float, facing: float,
            style: str = "normal", quick: bool = False) -> pygame.Surface:
        """The sprite of a unit, rotated to ``facing``; its centre is the footprint centre.

        ``quick`` (while zooming): a sprite not cached at this zoom is the last one rendered at another zoom, scaled
        (not cached); the exact sprite is rendered once the zoom settles and ``quick`` is off again.
        """
        key: SpriteKey = (formation.models, formation.per_row, formation.base_width_mm, formation.base_depth_mm,
                          player, round(scale, 3), round(facing * 4) / 4, style)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        state = key[:5] + (0.0,) + key[6:]
        latest = self._latest.get(state)
        if quick and latest is not None:
            r = key[5] / latest[0]
            w, h = latest[1].get_size()
            return pygame.transform.scale(latest[1], (max(1, round(w * r)), max(1, round(h * r))))
        flat = self._render_flat(formation, player, scale, style)
        surf = pygame.transform.rotozoom(flat, -key[6], 1.0) if key[6] else flat
        self._cache[key] = surf
        self._latest[state] = (key[5], surf)
        if len(self._latest) > self.capacity:
            self._latest.clear()
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
            fill, front = _tint(fill, 0.72), _tint(front, 0.72)
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
        self._last_scale: float | None = None
        """Zoom of the last ``draw_units``: a different zoom now means the wheel is moving (sprites are scaled)."""

    def draw_units(self, screen: pygame.Surface, view: TableView, state: GameState,
                   hidden: Iterable[str] = (), dimmed: Iterable[str] = (),
                   poses: Mapping[str, Pose] | None = None) -> None:
        """Blit every on-table unit (except ``hidden``); ``poses`` overrides where some are drawn (animations)."""
        hidden = set(hidden)
        dimmed = set(dimmed)
        poses = poses or {}
        quick = self._last_scale is not None and self._last_scale != view.scale
        self._last_scale = view.scale
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        for unit in state.units.values():
            if not unit.on_table or unit.id in hidden or unit.models <= 0:
                continue
            assert unit.pose is not None
            pose = poses.get(unit.id, unit.pose)
            self._blit_unit(screen, view, unit, pose, unit_style(unit, unit.id in dimmed), quick=quick)
        screen.set_clip(clip)

    def _blit_unit(self, screen: pygame.Surface, view: TableView, unit: Unit, pose: Pose, style: str,
                   alpha: int | None = None, quick: bool = False) -> None:
        sprite = self.sprites.get(unit.formation, unit.player, view.scale, view.screen_facing(pose.facing), style,
                                  quick)
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
        f = forward_vector(view.screen_facing(pose.facing))
        mid = ((corners[0][0] + corners[1][0]) / 2, (corners[0][1] + corners[1][1]) / 2)
        L = max(14.0, view.length(1.2))
        tip = (mid[0] + f[0] * L, mid[1] - f[1] * L)
        pygame.draw.line(screen, colour, mid, tip, 3)
        pygame.draw.circle(screen, colour, tip, 4)
        screen.set_clip(clip)

    def ask_labels(self, layout: LabelLayout, view: TableView, state: GameState, selected: str | None = None,
                   poses: Mapping[str, Pose] | None = None, keep_off: pygame.Rect | None = None) -> None:
        """Ask ``layout`` for each unit's label (name, models left, Shaken / Fleeing / Engaged): just behind the
        rear edge, else in front, else beside it; else the short name (``short_name``) there; else none. With
        ``keep_off`` (the ruler along the table's bottom edge: ``StaticLayer.ruler_band``), the spots on the table
        and clear of it come first, then those off the table, those over it last (a label there is half hidden
        by the inch marks and the edge's colour)."""
        size = max(10, min(14, round(view.scale * 0.55)))
        poses = poses or {}
        shaken = morale_word(state)         # "Shaken" (AoWFBR) or "Wavering" (AoF:R 2.16)
        for unit in state.units.values():
            if not unit.on_table or unit.models <= 0:
                continue
            assert unit.pose is not None
            pose = poses.get(unit.id, unit.pose)
            bold = unit.id == selected
            full = self.label(unit, size, bold, shaken=shaken)
            short = self.label(unit, size, bold, short=True, shaken=shaken)
            spots = clear_of(self._spots(view, unit, pose, full.get_size()), view.table_rect, keep_off)
            forms = [(short, clear_of(self._spots(view, unit, pose, short.get_size()), view.table_rect, keep_off))] \
                if short is not full else []
            layout.add("unit", UNIT, full, spots, short=forms, shy="ignore")

    @staticmethod
    def _spots(view: TableView, unit: Unit, pose: Pose, size: tuple[int, int]) -> list[pygame.Rect]:
        """Where a label of ``size`` may go: beyond the middle of the rear edge, the front edge, the left and the
        right side (each just clear of the footprint), then a step further behind."""
        lw, lh = size
        fwd = forward_vector(view.screen_facing(pose.facing))
        f = (fwd[0], -fwd[1])                 # forward on screen (screen y grows downward)
        r = (-f[1], f[0])                     # the unit's right on screen
        half_w, half_d = unit.formation.width / 2, unit.formation.depth / 2
        out = []
        for (u, v), d in (((0.0, -half_d), (-f[0], -f[1])), ((0.0, half_d), f), ((-half_w, 0.0), (-r[0], -r[1])),
                          ((half_w, 0.0), r)):
            edge = view.to_screen(pose.to_world((u, v)))
            reach = abs(d[0]) * lw / 2 + abs(d[1]) * lh / 2 + 2
            cx, cy = edge[0] + d[0] * reach, edge[1] + d[1] * reach
            out.append(pygame.Rect(round(cx - lw / 2), round(cy - lh / 2), lw, lh))
        back = out[0]
        out.append(back.move(round(-f[0] * (lh + 2)), round(-f[1] * (lh + 2))))
        return out

    @staticmethod
    def label(unit: Unit, size: int, bold: bool, short: bool = False, shaken: str = "Shaken") -> pygame.Surface:
        """The label of a unit: name (``short``: ``short_name``), models left (and of how many), wounds, status
        markers (cached text)."""
        text = f"{short_name(unit.profile.name) if short else unit.profile.name} {unit.models}"
        if unit.models != unit.starting_models:
            text += f"/{unit.starting_models}"
        if unit.wounds:
            text += f" ({unit.wounds}w)"
        bg = (10, 12, 14, 200) if bold else (10, 12, 14, 150)
        parts = [text_cache.get(text, size, (255, 255, 255), bold, bg, 2)]
        if unit.fleeing:
            parts.append(text_cache.get("⚑ Fleeing", size - 1, (0, 0, 0), True, palette.FLEEING + (235,), 2))
        elif unit.shaken:
            parts.append(text_cache.get(f"⚠ {shaken}", size - 1, (0, 0, 0), True, palette.SHAKEN + (235,), 2))
        if unit.engaged:
            parts.append(text_cache.get("⚔ Engaged", size - 1, (0, 0, 0), True, palette.ENGAGED + (235,), 2))
        if len(parts) == 1:
            return parts[0]
        w = sum(p.get_width() for p in parts) + 3 * (len(parts) - 1)
        h = max(p.get_height() for p in parts)
        key = (text, size, bold, unit.fleeing, unit.shaken, unit.engaged)
        cached = _LABELS.get(key)
        if cached is not None:
            return cached
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        x = 0
        for p in parts:
            surf.blit(p, (x, (h - p.get_height()) // 2))
            x += p.get_width() + 3
        if len(_LABELS) > 500:
            _LABELS.clear()
        _LABELS[key] = surf
        return surf


_LABELS: dict[tuple[object, ...], pygame.Surface] = {}


def short_name(name: str) -> str:
    """A unit's name abbreviated for a crowded table: its last word ("Canton Swordsmen" -> "Swordsmen"), or the
    name when it is one word."""
    words = name.split()
    return words[-1] if len(words) > 1 else name
