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
    pinned: bool = False
    """Shown on every page when the decision's buttons take several (e.g. "Back")."""


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


PAGE_KEY = "action_bar:more"
"""The key of the button that shows the next page of a bar too long for the window (handled by the bar)."""


class ActionBar:
    """A panel of buttons rebuilt only when the list of buttons changes. When the decision's buttons do not fit even
    with their short labels (a wizard with many spells, many wizards to block with), the right-hand ones go (Undo
    and Save first: they have keys; Menu, which has none, stays while the decision's fit beside it), and the
    decision's are shown a page at a time, each label whole, the ``pinned`` ones on every page, with a "More ▸ 1/2"
    button that turns the page (never squeezed and cut)."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.rect = rect
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        self.buttons: dict[str, UIButton] = {}
        self._specs: tuple[ButtonSpec, ...] | None = None
        self.page = 0
        """The page of the decision's buttons shown (0 when they all fit)."""
        self.pages = 1
        """How many pages the decision's buttons take."""

    def set_buttons(self, specs: Sequence[ButtonSpec]) -> None:
        """Show these buttons, left to right (``right`` ones from the right end); a page of them when they do not
        fit (the page shown is kept while the same buttons are asked for, relabelled or not)."""
        specs = tuple(specs)
        if specs == self._specs:
            return
        if self._specs is None or [sp.key for sp in specs] != [sp.key for sp in self._specs]:
            self.page = 0
        self._specs = specs
        self._layout(specs)

    def _layout(self, specs: tuple[ButtonSpec, ...]) -> None:
        """Build the buttons of ``specs`` (see ``set_buttons``)."""
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

        def need(group: list[ButtonSpec]) -> int:
            return sum(widths[sp.key] for sp in group) + gap * max(0, len(group) - 1)

        need_right = sum(widths[sp.key] + gap for sp in right) + (12 if right else 0)

        def shorten(group: list[ButtonSpec]) -> None:
            for sp in group:
                if sp.short:
                    labels[sp.key] = sp.short
                    widths[sp.key] = max(60, f.size(sp.short)[0] + 30)

        if need(left) + need_right > room:   # shorter labels at the right first (undo, save: they have keys)
            shorten(right)
            need_right = sum(widths[sp.key] + gap for sp in right) + (12 if right else 0)
        if need(left) + need_right > room:
            shorten(left)
        while right and need(left) + need_right > room:
            # the decision's buttons come first: the innermost right-hand ones go (Undo, then Save: they have
            # keys, Ctrl+Z and Ctrl+S); the outermost (Menu, which has no key) stays unless the decision's
            # buttons must be paged even without it
            right = right[:-1] if len(right) > 1 else []
            need_right = sum(widths[sp.key] + gap for sp in right) + (12 if right else 0)
        self.pages = 1
        if need(left) > room and left:
            left = self._paged(left, labels, widths, room, gap, f)
        x = 8
        for spec in left:
            self._add(spec, labels[spec.key], pygame.Rect(x, 5, widths[spec.key], h))
            x += widths[spec.key] + gap
        xr = self.rect.w - 8
        for spec in right:
            xr -= widths[spec.key]
            self._add(spec, labels[spec.key], pygame.Rect(xr, 5, widths[spec.key], h))
            xr -= gap

    def _paged(self, left: list[ButtonSpec], labels: dict[str, str], widths: dict[str, int], room: int, gap: int,
               f: pygame.font.Font) -> list[ButtonSpec]:
        """The page ``self.page`` of ``left`` (whole buttons, as many as fit beside the pinned ones and the page
        button), the pinned ones and the page button; ``labels`` and ``widths`` get the page button's."""
        more_w = f.size("More ▸ 9/9")[0] + 30
        pinned = [sp for sp in left if sp.pinned]
        avail = max(room - more_w - gap - sum(widths[sp.key] + gap for sp in pinned), 48)
        pages: list[list[ButtonSpec]] = [[]]
        used = 0
        for sp in (sp for sp in left if not sp.pinned):
            w = min(widths[sp.key], avail)      # a single label wider than the bar: that one is narrowed
            widths[sp.key] = w
            if pages[-1] and used + gap + w > avail:
                pages.append([])
                used = 0
            used += (gap if pages[-1] else 0) + w
            pages[-1].append(sp)
        self.pages = len(pages)
        self.page %= self.pages
        more = ButtonSpec(PAGE_KEY, f"More ▸ {self.page + 1}/{self.pages}",
                          "The other buttons of this decision (next page)")
        labels[PAGE_KEY] = more.label
        widths[PAGE_KEY] = more_w
        return pages[self.page] + pinned + [more]

    @property
    def keys(self) -> list[str]:
        """The keys of every button asked for, on any page (``buttons`` holds the page shown)."""
        return [sp.key for sp in self._specs or ()]

    def next_page(self) -> None:
        """Show the next page of the decision's buttons (the first after the last)."""
        if self._specs is None or self.pages <= 1:
            return
        self.page = (self.page + 1) % self.pages
        self._layout(self._specs)

    def _add(self, spec: ButtonSpec, label: str, rect: pygame.Rect) -> None:
        b = TipButton(rect, label, self.manager, container=self.panel, tool_tip_text=spec.tooltip,
                      object_id=spec.object_id)
        if not spec.enabled:
            b.disable()
        self.buttons[spec.key] = b

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The key of the button a ``UI_BUTTON_PRESSED`` event is about, or None (also for the page button, which
        the bar answers itself by showing the next page)."""
        key = pressed_key(self.buttons, event)
        if key == PAGE_KEY:
            self.next_page()
            return None
        return key

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
        self.buttons = {}
        self._specs = None
