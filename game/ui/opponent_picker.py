""""Play against the computer": the opponent and level drop-downs of the main menu and the battle set-up.

The choice is the window's (``Window.opponent``), so the menu and the set-up show the same one; None is a hotseat
game of two people, else a ``game.computer_seat.ComputerSeat`` (the side the computer plays and its level).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UILabel

from game.ai import LEVELS as AI_LEVELS
from game.computer_seat import LEVEL_WORDS, ComputerSeat
from game.ui.tip_drop_down import TipDropDown

if TYPE_CHECKING:
    from game.ui.window import Window

HOTSEAT = "Another player (hotseat)"
OPPONENTS: dict[str, int | None] = {HOTSEAT: None, "The computer, as player 2": 2, "The computer, as player 1": 1}
"""The opponent drop-down: label -> the player the computer plays (None: hotseat)."""
LEVELS: dict[str, str] = {words.capitalize(): level for level, words in LEVEL_WORDS.items()}
"""The level drop-down: label -> level (``game.ai.LEVELS`` key)."""
LEVEL_TIPS = {"ai-easy": "Easy: the computer judges a few options and scores each at once, trusting a quick estimate "
                         "of each melee instead of rolling it out.",
              "ai": "Normal: the computer plays each charge, shot and spell out to the end of the turn with dice of "
                    f"its own ({AI_LEVELS['ai'].samples} samples) before it decides.",
              "ai-hard": f"Hard: the computer plays more options out, on {AI_LEVELS['ai-hard'].samples} samples of "
                         "its own dice each. It thinks longer, but in our games it does not yet win more often than "
                         "Normal."}
OPPONENT_TIP = ("Play against the computer: it decides for its side (no hand-over screen) at a pace you can follow, "
                "with the reason of each decision in the log. G: faster, N: skip to your next decision.")
TIP_WIDTH = 320
"""Pixels the drop-downs' tooltips wrap at (pygame_gui's default makes a tall, narrow column of these sentences)."""


def level_label(level: str) -> str:
    """The drop-down label of a level ("Normal")."""
    return LEVEL_WORDS[level].capitalize()


def describe(seat: ComputerSeat | None) -> str:
    """"hotseat" or "vs the computer (normal)" for button labels."""
    return "hotseat" if seat is None else f"vs {seat.words}"


class OpponentPicker:
    """An "Opponent" drop-down and a "Level" drop-down in a row at ``rect`` (inside ``container``), editing
    ``app.opponent``."""

    def __init__(self, app: Window, rect: pygame.Rect, container: Any = None) -> None:
        self.app = app
        m = app.manager
        seat = app.opponent
        label_w = 84
        level_w = 130
        drop_w = max(160, rect.w - label_w - level_w - 64)
        UILabel(pygame.Rect(rect.x, rect.y, label_w, rect.h), "Opponent", m, container=container)
        chosen = next(k for k, v in OPPONENTS.items() if v == (seat.player if seat is not None else None))
        self.opponent = TipDropDown(list(OPPONENTS), chosen, pygame.Rect(rect.x + label_w, rect.y, drop_w, rect.h),
                                       m, container=container)
        self.opponent.set_tooltip(OPPONENT_TIP, wrap_width=TIP_WIDTH)
        x = rect.x + label_w + drop_w + 8
        UILabel(pygame.Rect(x, rect.y, 56, rect.h), "Level", m, container=container)
        self.level = TipDropDown(list(LEVELS), level_label(seat.level if seat is not None else "ai"),
                                    pygame.Rect(x + 56, rect.y, min(level_w, rect.right - x - 56), rect.h), m,
                                    container=container)
        self._level = seat.level if seat is not None else "ai"
        self.level.set_tooltip(LEVEL_TIPS[self._level], wrap_width=TIP_WIDTH)
        if seat is None:
            self.level.disable()  # type: ignore[no-untyped-call]

    def handle(self, event: pygame.event.Event) -> bool:
        """A change of either drop-down: ``app.opponent`` follows. True if the event was one."""
        if event.type != pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            return False
        if event.ui_element is self.opponent:
            player = OPPONENTS.get(event.text)
            self.app.opponent = None if player is None else ComputerSeat(player, self._level)
            if player is None:
                self.level.disable()  # type: ignore[no-untyped-call]
            else:
                self.level.enable()  # type: ignore[no-untyped-call]
            return True
        if event.ui_element is self.level and event.text in LEVELS:
            self._level = LEVELS[event.text]
            self.level.set_tooltip(LEVEL_TIPS[self._level], wrap_width=TIP_WIDTH)
            seat = self.app.opponent
            if seat is not None:
                self.app.opponent = ComputerSeat(seat.player, self._level)
            return True
        return False


__all__ = ["HOTSEAT", "LEVELS", "OPPONENTS", "OpponentPicker", "describe", "level_label"]
