"""Things drawn over the table for the player's eyes only: tapes with distances, the broken rule, notes."""

from __future__ import annotations

import math

import pygame

from game.ui import palette
from game.ui.assets import text_cache
from game.ui.table_view import TableView
from geometry.pose import Point


def draw_tape(screen: pygame.Surface, view: TableView, a: Point, b: Point, text: str,
              colour: tuple[int, int, int] = palette.MEASURE, width: int = 2) -> None:
    """A measuring tape from table point ``a`` to ``b`` with ``text`` at its middle."""
    pa, pb = view.to_screen(a), view.to_screen(b)
    pygame.draw.line(screen, colour, pa, pb, width)
    pygame.draw.circle(screen, colour, pa, 3)
    pygame.draw.circle(screen, colour, pb, 3)
    label = text_cache.get(text, 13, (0, 0, 0), True, colour + (235,), 3)
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
              bounds: pygame.Rect, size: int = 14, at: tuple[int, int] | None = None) -> None:
    """Lines of text in a dark box placed just below-right of ``anchor`` (or with its top-left ``at``), kept
    inside ``bounds``."""
    if not lines:
        return
    surfs = [text_cache.get(t, size, c, i == 0) for i, (t, c) in enumerate(lines)]
    w, h = note_size(lines, size)
    if at is not None:
        x, y = at
    else:
        x = round(min(max(bounds.left + 4, anchor[0] + 12), bounds.right - w - 4))
        y = round(min(max(bounds.top + 4, anchor[1] + 12), bounds.bottom - h - 4))
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
    """A one-line message centred near the bottom of ``rect`` (notes and rule breaks that fade out)."""
    label = text_cache.get(text, 15, (255, 255, 255), True)
    w, h = min(label.get_width() + 24, rect.w - 20), label.get_height() + 12
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((14, 16, 18, int(230 * alpha)))
    pygame.draw.rect(box, colour + (int(255 * alpha),), (0, 0, w, h), 2)
    label = label.copy()
    label.set_alpha(int(255 * alpha))
    box.blit(label, (12, 6), area=pygame.Rect(0, 0, w - 24, h))
    screen.blit(box, (rect.centerx - w // 2, rect.bottom - h - 14))


def draw_zone(screen: pygame.Surface, view: TableView, x0: float, y0: float, x1: float, y1: float,
              colour: tuple[int, int, int]) -> None:
    """A translucent table rectangle (a deployment zone)."""
    a, b = view.to_screen((x0, y1)), view.to_screen((x1, y0))
    rect = pygame.Rect(round(a[0]), round(a[1]), max(1, round(b[0] - a[0])), max(1, round(b[1] - a[1])))
    band = pygame.Surface(rect.size, pygame.SRCALPHA)
    band.fill(colour + (50,))
    screen.blit(band, rect.topleft)
    pygame.draw.rect(screen, colour, rect, 2)


def pulse(t: float) -> float:
    """0..1 slowly pulsing with time ``t`` seconds (for highlighted targets)."""
    return 0.5 + 0.5 * math.sin(t * 5.0)
