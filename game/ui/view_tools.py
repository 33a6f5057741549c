"""A strip of small toggle buttons over the top-left of the table: what the table shows (measuring tape, facing
arcs, sight, the last combat's moves) and the view (fit, turn). Each has a key; the buttons make them visible."""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel

from game.ui.action_bar import pressed_key
from game.ui.assets import font

HEIGHT = 28
"""Height of the strip, pixels."""
BAND = HEIGHT + 12
"""Height of the band above the table view that holds the strip (so that it never hides a unit)."""


def view_below(table: pygame.Rect) -> pygame.Rect:
    """The table view under the strip's band, in the area ``table`` given to the table and the strip: the strip
    floats over nothing, so zoomed in a unit is never hidden under its buttons."""
    return pygame.Rect(table.x, table.y + BAND, table.w, max(1, table.h - BAND))



@dataclass(frozen=True)
class Tool:
    """One toggle or command of the strip."""

    key: str
    """Command name (``game.ui.decisions.run``)."""
    label: str
    """Text on the button (with its key)."""
    tip: str
    """Hover help."""


TOOLS = (
    Tool("measure", "Measure (M)", "Tape from the selected unit to the mouse or to the unit under it (closest "
         "points). Clicks only pick the unit to measure from while it is on."),
    Tool("arcs", "Arcs (A)", "Front, flank and rear arcs of the selected unit (lines through its corners at 45°)"),
    Tool("sight", "Sight (V)", "Lines to the enemies the selected unit can see; the others are dimmed"),
    Tool("trails", "Last combat (C)", "Flight, pursuit, retreat, follow-up and charge moves of the last phase that "
         "had any, and who was caught or routed"),
    Tool("fit", "Fit (F)", "Show the whole table"),
    Tool("turn", "Turn (T)", "See the table from the other side"),
)
"""The strip, left to right."""


class ViewTools:
    """The strip of buttons, in the band at the top of the area ``table`` (see ``view_below``); ``sync(on)``
    highlights the toggles that are on."""

    def __init__(self, manager: pygame_gui.UIManager, table: pygame.Rect) -> None:
        f = font(13)
        widths = [max(56, f.size(t.label)[0] + 20) for t in TOOLS]
        w = sum(widths) + 4 * (len(TOOLS) - 1) + 8
        self.rect = pygame.Rect(table.x + 8, table.y + 6, min(w, table.w - 16), HEIGHT)
        self.manager = manager
        self.panel = UIPanel(self.rect, starting_height=2, manager=manager, object_id="#view_tools")
        self._widths = widths
        self.buttons: dict[str, UIButton] = {}
        self._on: frozenset[str] | None = None
        self.sync(frozenset())

    def sync(self, on: frozenset[str]) -> None:
        """Rebuild the buttons if the set of toggles that are on changed."""
        if on == self._on:
            return
        self._on = on
        for b in self.buttons.values():
            b.kill()
        self.buttons = {}
        x = 3
        for tool, w in zip(TOOLS, self._widths, strict=True):
            b = UIButton(pygame.Rect(x, 1, w, HEIGHT - 6), tool.label, self.manager, container=self.panel,
                         tool_tip_text=tool.tip, object_id="#tool_on" if tool.key in on else "#tool")
            self.buttons[tool.key] = b
            x += w + 4

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The command of the button a ``UI_BUTTON_PRESSED`` event is about, or None."""
        return pressed_key(self.buttons, event)

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
        self.buttons = {}
