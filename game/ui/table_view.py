"""The table-to-screen transform: scale (pixels per inch), pan and zoom.

Table coordinates are inches with y toward player 2's edge. Normally the screen shows player 1's edge (y = 0) at
the bottom, so a facing of 0 points up the screen and bearings turn clockwise on screen as on the table. With
``flipped`` the table is turned half round: player 2's edge is at the bottom (the view from player 2's seat).
"""

from __future__ import annotations

import pygame

from geometry.pose import Point

MARGIN = 1.5
"""Inches of border shown around the table when fitted."""
MAX_SCALE = 60.0
"""Largest zoom, pixels per inch."""


class TableView:
    """Maps table inches to screen pixels inside ``rect`` (the part of the window showing the table)."""

    def __init__(self, rect: pygame.Rect, width: float, depth: float) -> None:
        self.rect = pygame.Rect(rect)
        self.width = width
        self.depth = depth
        self.scale = 10.0
        self.ox = 0.0
        self.oy = 0.0
        self.flipped = False
        """True when the table is seen from player 2's side (turned 180 degrees)."""
        self.fit()

    # --- set-up -------------------------------------------------------------------------------------------
    @property
    def fit_scale(self) -> float:
        """Scale at which the whole table (and its margin) fills ``rect``."""
        return max(1.0, min(self.rect.w / (self.width + 2 * MARGIN), self.rect.h / (self.depth + 2 * MARGIN)))

    def fit(self) -> None:
        """Show the whole table, centred."""
        self.scale = self.fit_scale
        self.ox = self.rect.centerx - self.width * self.scale / 2
        self.oy = self.rect.centery - self.depth * self.scale / 2

    def set_rect(self, rect: pygame.Rect) -> None:
        """The window was resized: keep the zoom relative to the fit and the centre point."""
        centre = self.to_table(self.rect.center)
        rel = self.scale / self.fit_scale
        self.rect = pygame.Rect(rect)
        self.scale = min(MAX_SCALE, self.fit_scale * rel)
        self.centre_on(centre)

    def centre_on(self, point: Point) -> None:
        """Pan so that table ``point`` is at the centre of ``rect``."""
        x, y = self._turn(point)
        self.ox = self.rect.centerx - x * self.scale
        self.oy = self.rect.centery - (self.depth - y) * self.scale
        self._clamp()

    def set_flipped(self, flipped: bool) -> None:
        """See the table from player 2's side (True) or player 1's (False), keeping the centre point."""
        if flipped == self.flipped:
            return
        centre = self.to_table(self.rect.center)
        self.flipped = flipped
        self.centre_on(centre)

    # --- transforms ---------------------------------------------------------------------------------------
    def _turn(self, point: Point) -> Point:
        """The point as drawn: turned half round about the table centre when ``flipped`` (its own inverse)."""
        if self.flipped:
            return (self.width - point[0], self.depth - point[1])
        return (point[0], point[1])

    def screen_facing(self, facing: float) -> float:
        """The bearing a facing appears to have on screen (0 = up the screen, clockwise)."""
        return (facing + 180.0) % 360.0 if self.flipped else facing

    def to_screen(self, point: Point) -> tuple[float, float]:
        """Screen pixel of a table point."""
        x, y = self._turn(point)
        return (self.ox + x * self.scale, self.oy + (self.depth - y) * self.scale)

    def to_screen_int(self, point: Point) -> tuple[int, int]:
        """Screen pixel of a table point, rounded."""
        x, y = self.to_screen(point)
        return (round(x), round(y))

    def to_table(self, pixel: tuple[float, float]) -> Point:
        """Table point under a screen pixel."""
        return self._turn(((pixel[0] - self.ox) / self.scale, self.depth - (pixel[1] - self.oy) / self.scale))

    def length(self, inches: float) -> float:
        """Pixels for a length in inches."""
        return inches * self.scale

    @property
    def table_rect(self) -> pygame.Rect:
        """Screen rectangle of the table."""
        return pygame.Rect(round(self.ox), round(self.oy), round(self.width * self.scale),
                           round(self.depth * self.scale))

    # --- zoom and pan -------------------------------------------------------------------------------------
    def zoom_at(self, pixel: tuple[float, float], factor: float) -> None:
        """Zoom by ``factor`` keeping the table point under ``pixel`` in place."""
        x, y = self._turn(self.to_table(pixel))
        new = min(MAX_SCALE, max(self.fit_scale * 0.6, self.scale * factor))
        self.scale = new
        self.ox = pixel[0] - x * new
        self.oy = pixel[1] - (self.depth - y) * new
        self._clamp()

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by (dx, dy) pixels."""
        self.ox += dx
        self.oy += dy
        self._clamp()

    def _clamp(self) -> None:
        """Keep at least a quarter of the view on the table."""
        tw, th = self.width * self.scale, self.depth * self.scale
        keep_x, keep_y = self.rect.w / 4, self.rect.h / 4
        self.ox = min(max(self.ox, self.rect.left + keep_x - tw), self.rect.right - keep_x)
        self.oy = min(max(self.oy, self.rect.top + keep_y - th), self.rect.bottom - keep_y)

    @property
    def key(self) -> tuple[float, float, float, int, int, bool]:
        """Identifies the current view (for caches that depend on it)."""
        return (round(self.scale, 4), round(self.ox, 2), round(self.oy, 2), self.rect.w, self.rect.h, self.flipped)
