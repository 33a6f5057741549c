"""The action bar under the table: the buttons for the decision at hand (Done, Hold/Advance/Rush, reactions...)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel

from game.ui.assets import font


def pressed_key(buttons: dict[str, UIButton], event: pygame.event.Event) -> str | None:
    """The key in ``buttons`` of the button a ``UI_BUTTON_PRESSED`` event is about, or None."""
    if event.type != pygame_gui.UI_BUTTON_PRESSED:
        return None
    return next((key for key, b in buttons.items() if event.ui_element is b), None)


@dataclass(frozen=True)
class ButtonSpec:
    """One button: ``key`` is what ``pressed`` returns."""

    key: str
    """Command name."""
    label: str
    """Text on the button."""
    tooltip: str | None = None
    """Hover help."""
    object_id: str | None = None
    """Theme id (e.g. ``#primary_button``, ``#toggle_on``)."""
    enabled: bool = True
    """False greys it out."""
    right: bool = False
    """Placed at the right end of the bar."""
    short: str | None = None
    """Shorter text used when the bar is too narrow for ``label``."""


class TipButton(UIButton):
    """A button that shows its tooltip while disabled too (to say why it is disabled)."""

    def can_hover(self) -> bool:
        """Hoverable when alive, enabled or not (pygame_gui's buttons ignore the mouse while disabled)."""
        return self.alive() and not self.is_selected and not self.held

    def on_hovered(self) -> None:
        """A disabled button keeps its look; its tooltip timer starts."""
        if self.is_enabled:
            super().on_hovered()
        else:
            self.hover_time = 0.0


class ActionBar:
    """A panel of buttons rebuilt only when the list of buttons changes."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.rect = rect
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        self.buttons: dict[str, UIButton] = {}
        self._specs: tuple[ButtonSpec, ...] | None = None

    def set_buttons(self, specs: Sequence[ButtonSpec]) -> None:
        """Show these buttons, left to right (``right`` ones from the right end)."""
        specs = tuple(specs)
        if specs == self._specs:
            return
        self._specs = specs
        for b in self.buttons.values():
            b.kill()
        self.buttons = {}
        h = self.rect.h - 12
        f = font(15, True)     # the widest button font of the theme
        gap = 6
        labels = {spec.key: spec.label for spec in specs}
        widths = {spec.key: max(84, f.size(spec.label)[0] + 30) for spec in specs}
        left = [sp for sp in specs if not sp.right]
        right = [sp for sp in specs if sp.right]
        room = self.rect.w - 16
        need_left = sum(widths[sp.key] for sp in left) + gap * max(0, len(left) - 1)
        need_right = sum(widths[sp.key] + gap for sp in right) + (12 if right else 0)

        def shorten(group: list[ButtonSpec]) -> None:
            for sp in group:
                if sp.short:
                    labels[sp.key] = sp.short
                    widths[sp.key] = max(60, f.size(sp.short)[0] + 30)

        if need_left + need_right > room:   # shorter labels at the right first (undo, save: they have keys)
            shorten(right)
            need_right = sum(widths[sp.key] + gap for sp in right) + (12 if right else 0)
        if need_left + need_right > room:
            shorten(left)
            need_left = sum(widths[sp.key] for sp in left) + gap * max(0, len(left) - 1)
        if need_left + need_right > room:
            right = []          # they have keys (Ctrl+Z, Ctrl+S); the decision's buttons come first
            need_right = 0
        if need_left > room and left:
            squeeze = (room - gap * (len(left) - 1)) / max(1, need_left - gap * (len(left) - 1))
            for sp in left:
                widths[sp.key] = max(48, int(widths[sp.key] * squeeze))
        x = 8
        for spec in left:
            self._add(spec, labels[spec.key], pygame.Rect(x, 5, widths[spec.key], h))
            x += widths[spec.key] + gap
        xr = self.rect.w - 8
        for spec in right:
            xr -= widths[spec.key]
            self._add(spec, labels[spec.key], pygame.Rect(xr, 5, widths[spec.key], h))
            xr -= gap

    def _add(self, spec: ButtonSpec, label: str, rect: pygame.Rect) -> None:
        b = TipButton(rect, label, self.manager, container=self.panel, tool_tip_text=spec.tooltip,
                      object_id=spec.object_id)
        if not spec.enabled:
            b.disable()
        self.buttons[spec.key] = b

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The key of the button a ``UI_BUTTON_PRESSED`` event is about, or None."""
        return pressed_key(self.buttons, event)

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
        self.buttons = {}
        self._specs = None
