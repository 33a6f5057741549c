"""What a battle screen has said of its game: the log's lines and the latest rolls, and feeding them to the log panel
and the dice panel. Shared by the regiments screens (``game.ui.scenes.battle`` and its replay and lesson) and AoF:
Skirmish's (``game.ui.scenes.skirmish_battle`` and its replay and lesson): one way for events to reach the panels."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from game.engine.events import Event
from game.ui.log_panel import MAX_LINES

if TYPE_CHECKING:
    from game.replay import ReplayCursor
    from game.ui.dice_panel import DicePanel
    from game.ui.log_panel import LogPanel

ROLLS_SHOWN = 6
"""Rolls shown in the dice panel when a screen opens on a game already under way."""


def rolls_of(events: Iterable[str | Event]) -> list[Event]:
    """The roll events among ``events``, in order."""
    return [e for e in events if isinstance(e, Event) and e.kind == "roll"]


def rolls_before(cursor: ReplayCursor, index: int, log: Iterable[Event]) -> list[Event]:
    """A replay's dice panel at position ``index``: the rolls of the latest action at or before it that rolled dice;
    before the first such action, the last rolls of ``log`` (the roll-offs made at the start)."""
    for k in range(index, 0, -1):
        rolls = rolls_of(cursor.events_of(k))
        if rolls:
            return rolls
    return rolls_of(log)[-ROLLS_SHOWN:]


class EventFeed:
    """The log lines (the last ``MAX_LINES`` events and the window's own notes) and the latest rolls of the game a
    screen shows; ``add`` puts new events into both and into the panels given."""

    def __init__(self, log: Iterable[Event] = ()) -> None:
        self.lines: deque[str | Event] = deque(maxlen=MAX_LINES)
        self.rolls: list[Event] = []
        self.reset(log)

    def reset(self, log: Iterable[Event], rolls: list[Event] | None = None) -> None:
        """Start again from a game's whole ``log`` (a take-back, a replay's jump, a lesson's restart); the dice
        panel's ``rolls`` (default: the log's last ones)."""
        self.lines = deque(log, maxlen=MAX_LINES)
        self.rolls = rolls_of(self.lines)[-ROLLS_SHOWN:] if rolls is None else rolls

    def add(self, events: list[Event], log: LogPanel | None, dice: DicePanel | None) -> None:
        """New events: into the lines and the ``log`` panel; their rolls, if any, replace the dice ``dice`` shows."""
        self.lines.extend(events)
        if log is not None:
            log.add(events)
        rolls = rolls_of(events)
        if rolls:
            self.rolls = rolls
            if dice is not None:
                dice.show_events(rolls)

    def note(self, text: str, kind: str, log: LogPanel | None) -> None:
        """A line of the window's own (``kind``: an event kind the log colours, e.g. ``illegal``)."""
        event = Event(kind, text)
        self.lines.append(event)
        if log is not None:
            log.add([event])
