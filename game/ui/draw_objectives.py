"""Objective markers on the table: each marker with its number, its controller's colour and the 3" ring within
which units seize it (game.engine.objectives); while markers are being placed, the marker under the mouse with
the 9" spacing ring and whether it may go there. Reads the state, never changes it."""

from __future__ import annotations

import pygame

from game.engine import objectives
from game.engine.errors import IllegalAction
from game.engine.state import GameState
from game.ui import palette
from game.ui.assets import text_cache
from game.ui.table_view import TableView

NEUTRAL = (215, 205, 150)
"""A marker no one controls."""
MARKER_RADIUS = 0.5
"""Inches: the marker's disc (a 25 mm objective token)."""


def _colour(controller: int | None) -> tuple[int, int, int]:
    return palette.PLAYER_LIGHT[controller] if controller in (1, 2) else NEUTRAL


def _ring(screen: pygame.Surface, centre: tuple[float, float], radius: float, colour: tuple[int, int, int],
          fill_alpha: int, width: int = 1) -> None:
    """A circle of ``radius`` pixels, lightly filled (alpha) and outlined."""
    r = max(2, round(radius))
    if fill_alpha:
        disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
        pygame.draw.circle(disc, (*colour, fill_alpha), (r + 1, r + 1), r)
        screen.blit(disc, (round(centre[0]) - r - 1, round(centre[1]) - r - 1))
    pygame.draw.circle(screen, colour, centre, r, width)


def draw_objectives(screen: pygame.Surface, view: TableView, state: GameState, carried: bool = False) -> None:
    """The markers of ``state.objectives`` on the table (``carried``: those a unit carries, drawn over the units):
    the 3" seizing ring, the disc in its controller's colour (sand when neutral) and its number; a carried Relic
    Hunt marker rides on its carrier without a ring; a destroyed Sabotage marker is a dark disc with a cross."""
    for i, o in enumerate(state.objectives):
        if (o.carried_by is not None) != carried:
            continue
        centre = view.to_screen(objectives.position(state, o))
        colour = _colour(o.controller)
        r = max(7.0, view.length(MARKER_RADIUS))
        if o.destroyed:
            pygame.draw.circle(screen, (60, 60, 60), centre, r)
            pygame.draw.line(screen, palette.ILLEGAL, (centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r), 3)
            pygame.draw.line(screen, palette.ILLEGAL, (centre[0] - r, centre[1] + r), (centre[0] + r, centre[1] - r), 3)
            continue
        if o.carried_by is None:
            _ring(screen, centre, view.length(objectives.SEIZE_DISTANCE), colour, 28)
        pygame.draw.circle(screen, (20, 20, 20), centre, r + 2)
        pygame.draw.circle(screen, colour, centre, r)
        if o.owner in (1, 2):      # Sabotage: the owner's colour round it
            pygame.draw.circle(screen, palette.PLAYER[o.owner], centre, r + 2, 3)
        label = text_cache.get(str(i + 1), max(11, min(18, round(r * 1.3))), (20, 20, 20), True)
        screen.blit(label, label.get_rect(center=(round(centre[0]), round(centre[1]))))


def marker_boxes(view: TableView, state: GameState) -> list[pygame.Rect]:
    """Screen boxes of the markers' discs with their numbers (labels keep clear of them)."""
    out = []
    for o in state.objectives:
        x, y = view.to_screen(objectives.position(state, o))
        r = round(max(7.0, view.length(MARKER_RADIUS))) + 2
        out.append(pygame.Rect(round(x) - r, round(y) - r, 2 * r + 1, 2 * r + 1))
    return out


def placement_problem(state: GameState, player: int, point: tuple[float, float]) -> IllegalAction | None:
    """Why ``player`` may not place a marker at ``point`` (inches), or None (the engine's own check)."""
    try:
        objectives.check_place(state, player, point[0], point[1])
    except IllegalAction as e:
        return e
    return None


def draw_marker_ghost(screen: pygame.Surface, view: TableView, state: GameState, point: tuple[float, float],
                      player: int) -> IllegalAction | None:
    """The marker ``player`` would place at ``point`` (inches): green-edged with its 9" spacing ring when it may go
    there, red otherwise; the other markers' spacing rings too. In Sabotage the marker slides along the player's
    12" line. Returns why it may not, or None."""
    point = objectives.placement_point(state, player, point[0], point[1])
    problem = placement_problem(state, player, point)
    for o in state.objectives:
        _ring(screen, view.to_screen((o.x, o.y)), view.length(objectives.MARKER_SPACING), (160, 150, 110), 0)
    colour = palette.PLAYER_LIGHT[player] if problem is None else palette.ILLEGAL
    centre = view.to_screen(point)
    _ring(screen, centre, view.length(objectives.MARKER_SPACING), colour, 0)
    _ring(screen, centre, view.length(objectives.SEIZE_DISTANCE), colour, 40)
    r = max(7.0, view.length(MARKER_RADIUS))
    pygame.draw.circle(screen, colour, centre, r, 3)
    return problem
