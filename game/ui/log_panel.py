"""The event log: the engine's events in words, newest at the bottom, capped to keep the text box fast."""

from __future__ import annotations

import html
from collections import deque
from collections.abc import Iterable

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.engine.events import Event

MAX_LINES = 120
"""Lines kept in the text box (pygame_gui text boxes slow down sharply with long texts)."""

KIND_COLOURS = {
    "phase": "#8cc4ff", "roll": "#c8c8c8", "hits": "#ffd27a", "wounds": "#ff9a7a", "casualties": "#ff7a7a",
    "destroyed": "#ff5a5a", "rout": "#ff5a5a", "flee": "#ff7ad0", "shaken": "#ffaa28", "morale": "#ffcf8a",
    "charge": "#ffe08a", "reaction": "#ffe08a", "move": "#d8e2ea", "rally": "#8ae0a0", "victory": "#a0ffb0",
    "resolution": "#ffd27a", "info": "#9aa4ac", "illegal": "#ff6a5a",
}
"""Colour of each event kind."""


def event_html(event: Event) -> str:
    """One event as a line of HTML."""
    colour = KIND_COLOURS.get(event.kind, "#e8e8e8")
    text = html.escape(event.text)
    if event.kind == "phase":
        return f"<b><font color='{colour}'>{text}</font></b>"
    return f"<font color='{colour}'>{text}</font>"


class LogPanel:
    """Scrolling log of events; keeps the last ``MAX_LINES`` lines."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, lines: Iterable[str] = ()) -> None:
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "LOG", manager, container=self.panel, object_id="#section_title")
        self.box = UITextBox("", pygame.Rect(4, 24, rect.w - 10, rect.h - 30), manager, container=self.panel)
        self.lines: deque[str] = deque(lines, maxlen=MAX_LINES)
        self._dirty = True

    def add(self, events: Iterable[Event]) -> None:
        """Append events (the text box is rebuilt once per frame at most)."""
        for e in events:
            self.lines.append(event_html(e))
            self._dirty = True

    def note(self, text: str, kind: str = "info") -> None:
        """Append a line of the window's own (not an engine event)."""
        self.add([Event(kind, text)])

    def update(self) -> None:
        """Rebuild the text box if lines were added, and scroll to the newest."""
        if not self._dirty:
            return
        self._dirty = False
        self.box.set_text("<br>".join(self.lines))
        self.box.rebuild()
        if self.box.scroll_bar is not None:
            self.box.scroll_bar.set_scroll_from_start_percentage(1.0)

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
