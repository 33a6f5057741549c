"""The top bar: round, deciding player, phase and step, and what that player is expected to do."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel


class Hud:
    """pygame_gui top bar with a stripe in the deciding player's colour."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        inner_w = rect.w - 20
        self.stripes = {
            p: UIPanel(pygame.Rect(0, 0, 10, rect.h - 2), starting_height=1, manager=manager, container=self.panel,
                       object_id=f"#stripe_p{p}")
            for p in (1, 2)
        }
        self.title = UILabel(pygame.Rect(18, 4, inner_w, 26), "", manager, container=self.panel,
                             object_id="#hud_title")
        self.hint = UILabel(pygame.Rect(18, 32, inner_w, 24), "", manager, container=self.panel,
                            object_id="#hud_hint")
        self._shown: tuple[str, str, int] | None = None

    def show(self, title: str, hint: str, player: int) -> None:
        """Set the texts (re-rendered only when they change)."""
        key = (title, hint, player)
        if key == self._shown:
            return
        self._shown = key
        self.title.set_text(title)
        self.hint.set_text(hint)
        for p, stripe in self.stripes.items():
            if p == player:
                stripe.show()
            else:
                stripe.hide()

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
