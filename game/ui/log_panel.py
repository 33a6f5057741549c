"""The event log: the engine's events in words, newest at the bottom, capped to keep the text box fast.

Every roll is a link: clicking it opens (and closes) the modifiers that applied to it, from the roll event's
``details`` ("Quality 4+", '-1 Stealth at 12.0"', "+1 Sergeant"), and the dice.
"""

from __future__ import annotations

import html
from collections import deque
from collections.abc import Iterable
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.engine.events import Event

MAX_LINES = 120
"""Lines kept in the text box (pygame_gui text boxes slow down sharply with long texts)."""

TRIM = MAX_LINES // 3
"""New lines are appended to the text box (not re-parsed); when the oldest line shown drops off the log, the box
is rebuilt with ``TRIM`` lines fewer than ``MAX_LINES``, so a rebuild happens once every ``TRIM`` lines at most."""

KIND_COLOURS = {
    "phase": "#8cc4ff", "roll": "#c8c8c8", "hits": "#ffd27a", "wounds": "#ff9a7a", "casualties": "#ff7a7a",
    "destroyed": "#ff5a5a", "rout": "#ff5a5a", "flee": "#ff7ad0", "shaken": "#ffaa28", "morale": "#ffcf8a",
    "charge": "#ffe08a", "reaction": "#ffe08a", "move": "#d8e2ea", "rally": "#8ae0a0", "victory": "#a0ffb0",
    "resolution": "#ffd27a", "info": "#9aa4ac", "illegal": "#ff6a5a", "pursuit": "#ff9ad8",
    "retreat": "#ffb070", "follow_up": "#ffe08a", "consolidate": "#d8e2ea",
    "computer": "#a6d8ff",
}
"""Colour of each event kind."""

DETAIL_COLOUR = "#a8c8e0"
"""Colour of the opened details of a roll."""


def event_html(event: Event) -> str:
    """One event as a line of HTML."""
    colour = KIND_COLOURS.get(event.kind, "#e8e8e8")
    text = html.escape(event.text)
    if event.kind == "phase":
        return f"<b><font color='{colour}'>{text}</font></b>"
    return f"<font color='{colour}'>{text}</font>"


def roll_details(data: dict[str, Any]) -> list[str]:
    """The lines a roll opens to: what it needed and each modifier in words, then the dice and the result."""
    lines = [str(d) for d in data.get("details") or []]
    need = data.get("need")
    mod = int(data.get("modifier") or 0)
    if not lines:
        if need is not None:
            lines.append(f"Needs {need}+")
        lines.append("No modifiers" if not mod else f"Modifier {mod:+d}")
    elif need is not None and not any(str(need) in line for line in lines[:1]):
        lines.insert(0, f"Needs {need}+")
    dice = list(data.get("dice") or [])
    tail = "Dice " + (" ".join(str(d) for d in dice) if dice else "none")
    succ = data.get("successes")
    if need is not None:
        count = f"{succ} " if succ is not None and not isinstance(succ, bool) else ""
        tail += f": {count}score {need}+" + (f" after {mod:+d}" if mod else "") + " (a 6 always does, a 1 never)"
    elif succ is not None and not isinstance(succ, bool):
        tail += f" → {succ}"
    lines.append(tail)
    return lines


class LogPanel:
    """Scrolling log of events; keeps the last ``MAX_LINES`` entries. Rolls open to their modifiers on click."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect,
                 lines: Iterable[str | Event] = ()) -> None:
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "LOG  (click a roll to see its modifiers)", manager,
                container=self.panel, object_id="#section_title")
        self.entries: deque[tuple[int, str | Event]] = deque(maxlen=MAX_LINES)
        """(number, event or ready HTML line), oldest first."""
        self.expanded: set[int] = set()
        """Numbers of the rolls shown opened."""
        self._next = 0
        for line in lines:
            self._append(line)
        self._first = 0
        """Number of the oldest entry shown in the text box."""
        self._shown = self._wanted()
        """(number, HTML) of the entries in the text box, oldest first."""
        self.box = UITextBox("<br>".join(h for _, h in self._shown), pygame.Rect(4, 24, rect.w - 10, rect.h - 30),
                             manager, container=self.panel)
        if self.box.scroll_bar is not None:
            self.box.scroll_bar.set_scroll_from_start_percentage(1.0)
        self._dirty = False
        self._to_bottom = False

    # --- content ----------------------------------------------------------------------------------------------
    def _append(self, item: str | Event) -> None:
        self.entries.append((self._next, item))
        self._next += 1
        self._dirty = True
        self._to_bottom = True

    def add(self, events: Iterable[Event]) -> None:
        """Append events (the text box is rebuilt once per frame at most)."""
        for e in events:
            self._append(e)

    def note(self, text: str, kind: str = "info") -> None:
        """Append a line of the window's own (not an engine event)."""
        self.add([Event(kind, text)])

    @property
    def lines(self) -> list[str]:
        """The entries as HTML lines (opened rolls span several lines)."""
        return [self._html(n, item) for n, item in self.entries]

    def _html(self, n: int, item: str | Event) -> str:
        if isinstance(item, str):
            return item
        if item.kind != "roll":
            return event_html(item)
        opened = n in self.expanded
        mark = "▾" if opened else "▸"
        text = f"<a href='roll:{n}'>{mark} {html.escape(item.text)}</a>"
        if not opened:
            return text
        details = "".join(f"<br><font color='{DETAIL_COLOUR}'>      · {html.escape(line)}</font>"
                          for line in roll_details(item.data))
        return text + details

    def roll_numbers(self) -> list[int]:
        """Numbers of the roll entries kept, oldest first."""
        return [n for n, item in self.entries if isinstance(item, Event) and item.kind == "roll"]

    def toggle(self, number: int) -> None:
        """Open or close the details of roll ``number``."""
        if number in self.expanded:
            self.expanded.discard(number)
        else:
            self.expanded.add(number)
        self._dirty = True

    def handle(self, event: pygame.event.Event) -> bool:
        """A click on a roll link toggles its details; True if the event was such a click."""
        if event.type != pygame_gui.UI_TEXT_BOX_LINK_CLICKED or getattr(event, "ui_element", None) is not self.box:
            return False
        target = str(getattr(event, "link_target", ""))
        if target.startswith("roll:"):
            try:
                self.toggle(int(target.split(":", 1)[1]))
            except ValueError:
                return False
            return True
        return False

    # --- the widget ------------------------------------------------------------------------------------------
    def _wanted(self) -> list[tuple[int, str]]:
        return [(n, self._html(n, item)) for n, item in self.entries if n >= self._first]

    def update(self) -> None:
        """Rebuild the text box if it changed; scroll to the newest after new lines, else stay where it was.

        New lines at the bottom are appended (parsed alone); a changed line (a roll opened or closed) or the oldest
        line shown dropping off the log parses the whole text once.
        """
        if not self._dirty:
            return
        self._dirty = False
        wanted = self._wanted()
        k = len(self._shown)
        if k and wanted[:k] == self._shown:
            if len(wanted) > k:
                self._shown = wanted
                self.box.append_html_text("<br>" + "<br>".join(h for _, h in wanted[k:]))
                if self.box.scroll_bar is not None:  # a scroll bar appearing on this append starts at the top
                    self.box.scroll_bar.set_scroll_from_start_percentage(1.0)
            self._to_bottom = False
            return
        if self.entries and self.entries[0][0] > self._first:
            self._first = self.entries[max(0, len(self.entries) - (MAX_LINES - TRIM))][0]
            wanted = self._wanted()
        bar = self.box.scroll_bar
        keep = None if self._to_bottom or bar is None else bar.start_percentage
        self._to_bottom = False
        self._shown = wanted
        self.box.set_text("<br>".join(h for _, h in wanted))  # parses once and rebuilds
        if self.box.scroll_bar is not None:
            self.box.scroll_bar.set_scroll_from_start_percentage(1.0 if keep is None else keep)

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
