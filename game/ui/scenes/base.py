"""The base of every scene: widgets built on entry and on resize, events, update and draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    """One screen of the window. Subclasses build their pygame_gui widgets in ``build_ui`` and drop them in
    ``kill_ui``; both are called again when the window is resized."""

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """The scene becomes current."""
        self.build_ui()

    def leave(self) -> None:
        """The scene stops being current."""
        self.kill_ui()

    def resize(self) -> None:
        """The window changed size."""
        self.kill_ui()
        self.build_ui()

    def build_ui(self) -> None:
        """Create the widgets for the current window size."""

    def kill_ui(self) -> None:
        """Remove the widgets."""

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """One input event; ``consumed`` is True when a widget already used it."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (never changes the game except through actions)."""

    def draw(self, screen: pygame.Surface) -> None:
        """Draw what is not a widget (widgets are drawn by the app on top)."""
