"""Side-missions on the battle screen (AoF:R 2.16 "Side-Missions"; game.engine.side_missions).

While a player selects, a card over the table lists the side-missions offered with the book's condition of each.
During the game, a line over the table's top right corner names the side-missions the player alone at the screen
may see: their own hidden one, the shared ones, and only that the opponent has one. Nothing here ever shows the other
player's hidden side-mission before the game is over.
"""

from __future__ import annotations

import pygame

from game.engine import side_missions
from game.engine.state import GameState
from game.ui import palette
from game.ui.assets import text_cache

_BOX = (14, 16, 18, 232)


def seat_line(state: GameState, seat: int | None) -> str:
    """The side-missions ``seat`` may see, in one short line, its own hidden one first ("" without side-missions or
    before any is selected): "Side-missions — yours: Seize (hidden) · shared: Ground War · player 1: hidden"."""
    sm = side_missions.progress(state)
    if sm is None or not sm.picks:
        return ""
    own: list[str] = []
    shared: list[str] = []
    others: list[str] = []
    for pick, seen in zip(sm.picks, side_missions.visible_picks(state, seat), strict=True):
        if seen is None:
            others.append(f"player {pick.player}: hidden")
            continue
        name = side_missions.SIDE_MISSIONS[pick.mission].name
        if not pick.hidden:
            shared.append(f"shared: {name}")
        elif state.game_over and pick.player != seat:
            others.append(f"player {pick.player}: {name}")
        else:
            own.append(f"yours: {name} (hidden)")
    return "Side-missions — " + " · ".join(own + shared + others)


def draw_seat_line(screen: pygame.Surface, table: pygame.Rect, left: int, text: str) -> None:
    """``text`` right-aligned at the top of the table area, not left of ``left`` (the view tools end there);
    shortened with "…" when it does not fit."""
    if not text:
        return
    room = table.right - 10 - max(left + 12, table.x)
    surf = text_cache.get(text, 13, (235, 235, 235), False, _BOX, 5)
    while surf.get_width() > room and len(text) > 20:
        text = text[:-8].rstrip() + "…"
        surf = text_cache.get(text, 13, (235, 235, 235), False, _BOX, 5)
    screen.blit(surf, (table.right - 10 - surf.get_width(), table.y + 7))


def draw_selection_card(screen: pygame.Surface, table: pygame.Rect, state: GameState, category: int | None) -> None:
    """The side-missions the deciding player may select, with their conditions: those of ``category`` (the one
    rolled, or the one the player opened), or all three categories."""
    offered = side_missions.offered(state)
    sm = side_missions.progress(state)
    if sm is None or not offered:
        return
    hidden = bool(sm.queue and sm.queue[0][1])
    title = f"Player {sm.queue[0][0]}: select a side-mission " + ("in secret" if hidden else "openly")
    lines: list[tuple[str, tuple[int, int, int], bool]] = [(title, palette.PLAYER[sm.queue[0][0]], True)]
    cats = [category] if category is not None else list(side_missions.CATEGORIES)
    for n in cats:
        name, keys = side_missions.CATEGORIES[n]
        lines.append((f"{n}. {name}", (255, 214, 120), True))
        for k in keys:
            info = side_missions.SIDE_MISSIONS[k]
            if k in offered:
                lines.append((f"   {info.name}: {info.text}", (235, 235, 235), False))
            else:
                lines.append((f"   {info.name}: cannot be completed in this battle", (140, 140, 140), False))
    surfs = [text_cache.get(text, 15 if bold else 14, colour, bold) for text, colour, bold in lines]
    w = min(table.w - 40, max(s.get_width() for s in surfs) + 32)
    h = sum(s.get_height() + 3 for s in surfs) + 24
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill(_BOX)
    pygame.draw.rect(box, palette.PLAYER[sm.queue[0][0]] + (255,), (0, 0, w, h), 2)
    y = 12
    for s in surfs:
        box.blit(s, (16, y), area=pygame.Rect(0, 0, w - 32, s.get_height()))
        y += s.get_height() + 3
    screen.blit(box, (table.centerx - w // 2, table.centery - h // 2))
