"""Deployment zones are drawn whichever way the table is turned."""

from __future__ import annotations

import pygame

from game.ui.overlays import draw_zone
from game.ui.table_view import TableView


def _coloured_pixels(flipped: bool) -> int:
    screen = pygame.Surface((800, 600))
    screen.fill((0, 0, 0))
    view = TableView(pygame.Rect(0, 0, 800, 600), 72.0, 48.0)
    view.fit()
    view.flipped = flipped
    draw_zone(screen, view, 0.0, 36.0, 72.0, 48.0, (200, 40, 40))   # player 2's 12" strip
    return sum(1 for x in range(0, 800, 4) for y in range(0, 600, 4) if screen.get_at((x, y))[0] > 0)


def test_player_two_zone_is_drawn_on_a_turned_table() -> None:
    """Regression: a turned view gave the zone a negative size, drawn as a 1-pixel sliver."""
    assert _coloured_pixels(flipped=True) > 1000
    assert abs(_coloured_pixels(flipped=True) - _coloured_pixels(flipped=False)) < 200


def test_terrain_is_scaled_while_zooming_and_rendered_exactly_once_it_settles() -> None:
    """Zoom frames scale the last exact render; a steady zoom renders the table exactly again."""
    from game.ui.draw_terrain import StaticLayer
    from geometry.terrain import TerrainShape, rect_to_polygon

    wood = TerrainShape(0, "Wood", rect_to_polygon(20, 20, 8, 6, 15), frozenset({"cover", "difficult"}))
    layer = StaticLayer(72.0, 48.0, [wood], ["forest"])
    screen = pygame.Surface((900, 600))
    view = TableView(pygame.Rect(0, 0, 900, 600), 72.0, 48.0)
    view.fit()
    layer.draw(screen, view)
    assert layer.renders == 1
    for _ in range(5):                       # the wheel turns: a new zoom every frame
        view.scale *= 1.1
        layer.draw(screen, view)
    assert layer.renders == 1
    layer.draw(screen, view)                 # the same zoom two frames running: exact again
    assert layer.renders == 2
    layer.draw(screen, view)
    assert layer.renders == 2
