"""Things drawn over the table for the player's eyes only: tapes with distances, the broken rule, notes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pygame

from game.ui import palette
from game.ui.assets import text_cache
from game.ui.label_layout import NOTE, LabelLayout, along
from game.ui.table_view import TableView
from geometry.pose import Point


def draw_tape(screen: pygame.Surface, view: TableView, a: Point, b: Point, text: str,
              colour: tuple[int, int, int] = palette.MEASURE, width: int = 2, layout: LabelLayout | None = None,
              priority: int = 0, kind: str = "tape") -> None:
    """A measuring tape from table point ``a`` to ``b`` with ``text`` at its middle (with ``layout``: asked of
    the layout, which may slide it along the tape, at ``priority``)."""
    pa, pb = view.to_screen(a), view.to_screen(b)
    pygame.draw.line(screen, colour, pa, pb, width)
    pygame.draw.circle(screen, colour, pa, 3)
    pygame.draw.circle(screen, colour, pb, 3)
    label = text_cache.get(text, 13, (0, 0, 0), True, colour + (235,), 3)
    if layout is not None:
        layout.add(kind, priority, label, along(pa, pb, label.get_size()), shy="prefer")
        return
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    screen.blit(label, (round(mx - label.get_width() / 2), round(my - label.get_height() - 4)))


def draw_cross(screen: pygame.Surface, view: TableView, point: Point, colour: tuple[int, int, int]) -> None:
    """A circled X marking a table point (where a move breaks a rule)."""
    x, y = view.to_screen(point)
    r = 9
    pygame.draw.circle(screen, (0, 0, 0), (x, y), r + 2)
    pygame.draw.circle(screen, colour, (x, y), r, 2)
    pygame.draw.line(screen, colour, (x - 5, y - 5), (x + 5, y + 5), 3)
    pygame.draw.line(screen, colour, (x - 5, y + 5), (x + 5, y - 5), 3)


def note_size(lines: list[tuple[str, tuple[int, int, int]]], size: int = 14) -> tuple[int, int]:
    """Pixel size of the box ``draw_note`` draws for ``lines``."""
    surfs = [text_cache.get(t, size, c, i == 0) for i, (t, c) in enumerate(lines)]
    return (max(s.get_width() for s in surfs) + 12, sum(s.get_height() for s in surfs) + 8 + 2 * (len(surfs) - 1))


def place_note(size: tuple[int, int], around: pygame.Rect, bounds: pygame.Rect,
               avoid: list[pygame.Rect]) -> tuple[int, int]:
    """Top-left for a note of ``size`` next to ``around`` (right, left, below, above), inside ``bounds`` and
    covering as few of the ``avoid`` rectangles as possible."""
    w, h = size
    gap = 10
    candidates = [
        (around.right + gap, around.centery - h // 2),
        (around.left - gap - w, around.centery - h // 2),
        (around.centerx - w // 2, around.bottom + gap),
        (around.centerx - w // 2, around.top - gap - h),
    ]
    best: tuple[int, int, int] | None = None
    pos = candidates[0]
    for i, (x, y) in enumerate(candidates):
        x = min(max(bounds.left + 4, x), bounds.right - w - 4)
        y = min(max(bounds.top + 4, y), bounds.bottom - h - 4)
        box = pygame.Rect(x, y, w, h)
        cost = (100 if box.colliderect(around) else 0) + sum(1 for r in avoid if box.colliderect(r))
        if best is None or (cost, i) < (best[0], best[1]):
            best = (cost, i, 0)
            pos = (x, y)
    return pos


def draw_note(screen: pygame.Surface, anchor: tuple[float, float], lines: list[tuple[str, tuple[int, int, int]]],
              bounds: pygame.Rect, size: int = 14, at: tuple[int, int] | None = None,
              layout: LabelLayout | None = None) -> None:
    """Lines of text in a dark box placed just below-right of ``anchor`` (or with its top-left ``at``), kept
    inside ``bounds`` (with ``layout``: given to the layout as a required note, drawn over the other labels and
    kept clear of by them)."""
    if not lines:
        return
    w, h = note_size(lines, size)
    if at is not None:
        x, y = at
    else:
        x = round(min(max(bounds.left + 4, anchor[0] + 12), bounds.right - w - 4))
        y = round(min(max(bounds.top + 4, anchor[1] + 12), bounds.bottom - h - 4))
    if layout is not None:
        layout.add("note", NOTE, None, [pygame.Rect(x, y, w, h)], shy="ignore", required=True,
                   draw=lambda surf, r: draw_note(surf, anchor, lines, bounds, size, r.topleft))
        return
    surfs = [text_cache.get(t, size, c, i == 0) for i, (t, c) in enumerate(lines)]
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((12, 14, 16, 225))
    screen.blit(box, (x, y))
    pygame.draw.rect(screen, lines[0][1], (x, y, w, h), 1)
    yy = y + 4
    for s in surfs:
        screen.blit(s, (x + 6, yy))
        yy += s.get_height() + 2


def draw_banner(screen: pygame.Surface, rect: pygame.Rect, text: str, colour: tuple[int, int, int],
                alpha: float = 1.0) -> None:
    """A message centred near the bottom of ``rect`` (notes and rule breaks that fade out), wrapped at spaces to
    the width of ``rect`` (up to four lines) rather than cut."""
    from game.ui.assets import font
    f = font(15, True)
    room = rect.w - 44
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < 4:
        line = words.pop(0)
        while words and f.size(line + " " + words[0])[0] <= room:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines[-1] += " …"
    labels = [text_cache.get(line, 15, (255, 255, 255), True) for line in lines]
    w = min(max(lb.get_width() for lb in labels) + 24, rect.w - 20)
    h = sum(lb.get_height() for lb in labels) + 12
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((14, 16, 18, int(230 * alpha)))
    pygame.draw.rect(box, colour + (int(255 * alpha),), (0, 0, w, h), 2)
    y = 6
    for lb in labels:
        lb = lb.copy()
        lb.set_alpha(int(255 * alpha))
        box.blit(lb, ((w - lb.get_width()) // 2, y), area=pygame.Rect(0, 0, w - 24, lb.get_height()))
        y += lb.get_height()
    screen.blit(box, (rect.centerx - w // 2, rect.bottom - h - 14))


def draw_news(screen: pygame.Surface, rect: pygame.Rect, banner: tuple[str, tuple[int, int, int], float] | None,
              now: float, error: BaseException | None = None) -> None:
    """A battle screen's messages over the table ``rect``: ``banner`` (text, colour, until: the time it is gone)
    fading out over its last 0.6 s near the bottom, and an unexpected engine ``error`` at the top until the game is
    left (the window keeps the players' game: see the terminal)."""
    if banner is not None and now < banner[2]:
        text, colour, until = banner
        draw_banner(screen, rect, text, colour, max(0.0, min(1.0, (until - now) / 0.6)))
    if error is not None:
        draw_banner(screen, pygame.Rect(rect.x, rect.y, rect.w, 60), f"Engine error (see the terminal): {error}",
                    palette.ILLEGAL)


def draw_zone(screen: pygame.Surface, view: TableView, x0: float, y0: float, x1: float, y1: float,
              colour: tuple[int, int, int]) -> None:
    """A translucent table rectangle (a deployment zone)."""
    a, b = view.to_screen((x0, y1)), view.to_screen((x1, y0))
    # The view may be turned half round (player 2 at the bottom): order the corners on screen.
    left, right = sorted((a[0], b[0]))
    top, bottom = sorted((a[1], b[1]))
    rect = pygame.Rect(round(left), round(top), max(1, round(right - left)), max(1, round(bottom - top)))
    band = pygame.Surface(rect.size, pygame.SRCALPHA)
    band.fill(colour + (50,))
    screen.blit(band, rect.topleft)
    pygame.draw.rect(screen, colour, rect, 2)


def draw_zone_polygon(screen: pygame.Surface, view: TableView, outline: Sequence[tuple[float, float]],
                      colour: tuple[int, int, int], label: str | None = None,
                      label_at: tuple[float, float] | None = None) -> None:
    """A translucent table polygon (a deployment zone of any style), ``outline`` in inches; ``label`` is written
    at the table point ``label_at`` (inches), small, when both are given."""
    points = [view.to_screen_int(p) for p in outline]
    if len(points) < 3:
        return
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = pygame.Rect(min(xs), min(ys), max(1, max(xs) - min(xs) + 1), max(1, max(ys) - min(ys) + 1))
    band = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.polygon(band, colour + (50,), [(x - box.x, y - box.y) for x, y in points])
    screen.blit(band, box.topleft)
    pygame.draw.polygon(screen, colour, points, 2)
    if label and label_at is not None:
        text = zone_label(label, colour)
        cx, cy = view.to_screen(label_at)
        screen.blit(text, (round(cx - text.get_width() / 2), round(cy - text.get_height() / 2)))


def zone_label(label: str, colour: tuple[int, int, int]) -> pygame.Surface:
    """The rendered label of a zone drawn in ``colour`` (``draw_zone_polygon``), from the text cache."""
    return text_cache.get(label, 13, (255, 255, 255), True, colour + (210,), 3)


def pulse(t: float) -> float:
    """0..1 slowly pulsing with time ``t`` seconds (for highlighted targets)."""
    return 0.5 + 0.5 * math.sin(t * 5.0)


# --- shapes over the table --------------------------------------------------------------------------------------
Colour = tuple[int, int, int]


def faded(colour: Colour, alpha: float, base: Colour = palette.TABLE) -> Colour:
    """``colour`` mixed toward ``base`` as ``alpha`` goes from 1 to 0 (a fade without an alpha surface)."""
    a = max(0.0, min(1.0, alpha))
    return tuple(round(c * a + b * (1 - a)) for c, b in zip(colour, base, strict=True))  # type: ignore[return-value]


def dashed_polyline(screen: pygame.Surface, colour: Colour, points: list[tuple[float, float]], width: int = 1,
                    dash: float = 7.0, gap: float = 5.0, closed: bool = False) -> None:
    """A dashed line through screen ``points``."""
    pts = list(points) + ([points[0]] if closed and points else [])
    on = True
    left = dash
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg - 1e-9:
            step = min(left, seg - pos)
            if on:
                a = pos / seg
                b = (pos + step) / seg
                pygame.draw.line(screen, colour, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                                 (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), width)
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap


def draw_arrow(screen: pygame.Surface, a: tuple[float, float], b: tuple[float, float], colour: Colour,
               width: int = 3, head: float = 11.0) -> None:
    """A straight arrow from screen point ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1.0:
        pygame.draw.circle(screen, colour, (round(b[0]), round(b[1])), max(3, width))
        return
    ux, uy = dx / length, dy / length
    h = min(head, length * 0.6)
    base = (b[0] - ux * h, b[1] - uy * h)
    pygame.draw.line(screen, colour, a, base, width)
    left = (base[0] - uy * h * 0.55, base[1] + ux * h * 0.55)
    right = (base[0] + uy * h * 0.55, base[1] - ux * h * 0.55)
    pygame.draw.polygon(screen, colour, [b, left, right])


def label_at(screen: pygame.Surface, text: str, at: tuple[float, float], colour: Colour,
             size: int = 12, bold: bool = True, layout: LabelLayout | None = None, priority: int = 0,
             kind: str = "label") -> pygame.Rect:
    """A small dark label centred on screen point ``at``; returns its rectangle (with ``layout``: asked of the
    layout at ``priority``, which may nudge or drop it; returns the wanted rectangle)."""
    rect = label_box(text, at, colour, size, bold)
    surf = text_cache.get(text, size, colour, bold, (12, 14, 16, 215), 3)
    if layout is not None:
        layout.add_at(kind, priority, surf, at)
        return rect
    screen.blit(surf, rect)
    return rect


def label_box(text: str, at: tuple[float, float], colour: Colour, size: int = 12, bold: bool = True) -> pygame.Rect:
    """The rectangle ``label_at`` would cover, without drawing (to keep notes clear of a label drawn elsewhere)."""
    surf = text_cache.get(text, size, colour, bold, (12, 14, 16, 215), 3)
    return surf.get_rect(center=(round(at[0]), round(at[1])))


class AlphaLayer:
    """A translucent drawing cached on its own surface, redrawn only when its key changes (arcs, reach)."""

    def __init__(self) -> None:
        self.key: object = None
        self.surface: pygame.Surface | None = None
        self.pos: tuple[int, int] = (0, 0)
        self.renders = 0
        """How many times it was drawn (tests check a still frame draws nothing again)."""

    def blit(self, screen: pygame.Surface, key: object, polygons: Any) -> None:
        """Blit the layer for ``key``; (re)draw ``polygons`` [(screen points, rgba, width)] if it changed: width 0
        fills the polygon, > 0 outlines it, < 0 draws an open line. ``polygons`` may be a callable returning them
        (only called when redrawing)."""
        if key != self.key or self.surface is None:
            polys = polygons() if callable(polygons) else polygons
            self.key = key
            self.renders += 1
            pts = [p for poly, _, _ in polys for p in poly]
            if not pts:
                self.surface = None
                return
            x0 = math.floor(min(p[0] for p in pts)) - 3
            y0 = math.floor(min(p[1] for p in pts)) - 3
            x1 = math.ceil(max(p[0] for p in pts)) + 3
            y1 = math.ceil(max(p[1] for p in pts)) + 3
            clip = screen.get_clip()
            x0, y0 = max(x0, clip.left - 4), max(y0, clip.top - 4)
            x1, y1 = min(x1, clip.right + 4), min(y1, clip.bottom + 4)
            if x1 <= x0 or y1 <= y0:
                self.surface = None
                return
            surf = pygame.Surface((x1 - x0, y1 - y0), pygame.SRCALPHA)
            for poly, rgba, width in polys:
                local = [(p[0] - x0, p[1] - y0) for p in poly]
                if width < 0 and len(local) >= 2:
                    pygame.draw.lines(surf, rgba, False, local, -width)
                elif len(local) >= 3:
                    pygame.draw.polygon(surf, rgba, local, width)
            self.surface = surf
            self.pos = (x0, y0)
        if self.surface is not None:
            screen.blit(self.surface, self.pos)
