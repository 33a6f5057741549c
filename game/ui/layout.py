"""Where the parts of the battle screen go for a given window size."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

TOP = 64
"""Height of the top bar."""
BOTTOM = 50
"""Height of the action bar under the table."""


@dataclass(frozen=True)
class BattleLayout:
    """Rectangles of the battle screen."""

    top: pygame.Rect
    """Top bar: round, player, phase, step, what to do."""
    table: pygame.Rect
    """The table view."""
    actions: pygame.Rect
    """Action bar (buttons for the current decision)."""
    card: pygame.Rect
    """Unit card."""
    dice: pygame.Rect
    """Dice panel."""
    log: pygame.Rect
    """Event log."""

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> BattleLayout:
        """Layout for a window of ``size`` pixels."""
        w, h = size
        side = max(300, min(420, int(w * 0.27)))
        top = pygame.Rect(0, 0, w, TOP)
        table = pygame.Rect(0, TOP, w - side, h - TOP - BOTTOM)
        actions = pygame.Rect(0, h - BOTTOM, w - side, BOTTOM)
        rest = h - TOP
        card_h = max(180, min(300, int(rest * 0.34)))
        dice_h = max(150, min(230, int(rest * 0.25)))
        card = pygame.Rect(w - side, TOP, side, card_h)
        dice = pygame.Rect(w - side, TOP + card_h, side, dice_h)
        log = pygame.Rect(w - side, TOP + card_h + dice_h, side, h - TOP - card_h - dice_h)
        return cls(top, table, actions, card, dice, log)
