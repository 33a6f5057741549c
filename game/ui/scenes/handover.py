"""The hand-over screen: between decisions of different players, asks the next player to take the seat."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox

from game.ui import palette
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.ui.window import Window


KEY_DELAY = 0.4
"""Seconds before Enter or Space on the hand-over screen count."""
GO_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
"""Keys that leave the hand-over screen."""


class HandoverScene(Scene):
    """"Player N, take the seat": what happened since, what is expected, and a button to go on."""

    def __init__(self, app: Window, back: Scene, player: int, position: str, expected: str,
                 recent: Sequence[str] = ()) -> None:
        super().__init__(app)
        self.back = back
        self.player = player
        self.position = position
        self.expected = expected
        self.recent = list(recent)
        self.widgets: list[pygame_gui.core.UIElement] = []
        self.go: UIButton | None = None
        self.take_back: UIButton | None = None
        self.age = 0.0
        """Seconds since the screen appeared: keys are ignored for ``KEY_DELAY`` so that a double press of
        Space in the battle cannot skip the hand-over."""
        pressed = pygame.key.get_pressed()
        self.held = {k for k in GO_KEYS if pressed[k]}
        """Keys already down when the screen appeared (the Space that ended the last action): they count only
        after being released, so that holding them (key repeat) cannot skip the hand-over."""

    def build_ui(self) -> None:
        """A centred panel."""
        m = self.app.manager
        w, h = self.app.size
        pw, ph = min(760, w - 60), min(560, h - 60)
        panel = UIPanel(pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph), starting_height=1, manager=m,
                        object_id="#handover_panel")
        self.widgets = [panel]
        UILabel(pygame.Rect(0, 20, pw, 56), f"Player {self.player}, take the seat", m, container=panel,
                object_id="#big_title")
        UILabel(pygame.Rect(10, 80, pw - 20, 28), self.position, m, container=panel, object_id="#subtitle")
        lines = [f"<b>Your decision:</b> {html.escape(self.expected)}"]
        if self.recent:
            lines.append("<br><font color='#9aa4ac'><b>Since the last hand-over:</b></font>")
            lines += self.recent
        UITextBox("<br>".join(lines), pygame.Rect(30, 118, pw - 60, ph - 210), m, container=panel)
        self.go = UIButton(pygame.Rect(pw // 2 - 190, ph - 78, 380, 56), f"I am Player {self.player} — continue",
                           m, container=panel, object_id=f"#player{self.player}_button",
                           tool_tip_text="Enter or Space")
        self.take_back = None
        other = self._taker()
        if other is not None:       # the player leaving the seat may still take back (no die rolled since)
            self.take_back = UIButton(pygame.Rect(20, ph - 70, pw // 2 - 190 - 32, 40), f"↶ Player {other}: undo",
                                      m, container=panel, tool_tip_text=f"Player {other}: take back your last "
                                      "action and keep the seat (Ctrl+Z); no die has been rolled since")

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []

    def _taker(self) -> int | None:
        """The player who may take back the last action from here (the one leaving the seat), if any."""
        refusal = getattr(self.back, "undo_refusal", None)
        history = getattr(getattr(self.back, "game", None), "history", None)
        if refusal is None or not history or history[-1].player == self.player:
            return None
        other = int(history[-1].player)
        return other if refusal(other) is None else None

    def _take_back(self) -> None:
        other = self._taker()
        if other is not None and self.back.undo(other):  # type: ignore[attr-defined]
            self.app.switch(self.back)

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The button, Enter or Space go back to the battle; Ctrl+Z or the take-back button take back the last
        action of the player leaving the seat."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and self.take_back is not None \
                and event.ui_element is self.take_back:
            self._take_back()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self._take_back()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.go:
            self.app.switch(self.back)
        elif event.type == pygame.KEYUP:
            self.held.discard(event.key)
        elif event.type == pygame.KEYDOWN and event.key in GO_KEYS:
            if self.age >= KEY_DELAY and event.key not in self.held:
                self.app.switch(self.back)

    def update(self, dt: float) -> None:
        """Count the time the screen has been shown."""
        self.age += dt

    def draw(self, screen: pygame.Surface) -> None:
        """Dark background in the next player's colour."""
        screen.fill(palette.BACKGROUND)
        w, h = screen.get_size()
        colour = palette.PLAYER.get(self.player, (128, 128, 128))
        band = pygame.Surface((w, h), pygame.SRCALPHA)
        band.fill(colour + (40,))
        screen.blit(band, (0, 0))
        pygame.draw.rect(screen, colour, (0, 0, w, 12))
        pygame.draw.rect(screen, colour, (0, h - 12, w, 12))
