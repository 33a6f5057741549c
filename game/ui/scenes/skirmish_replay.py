"""Watching a recorded game of AoF: Skirmish (issue 18): the skirmish battle screen, watch only, stepping through
the record (``game.replay.ReplayCursor``): Back / Next (Left / Right), Start / End (Home / End), the log up to the
position shown and the dice of its last roll. Nothing here acts: clicks only select a unit for its card."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.engine.actions import Action
from game.engine.events import Event
from game.engine.skirmish.loose import XY
from game.replay import ReplayCursor, action_text
from game.ui.action_bar import ButtonSpec
from game.ui.event_feed import rolls_before
from game.ui.scenes.skirmish_battle import SkirmishBattleScene

if TYPE_CHECKING:
    from game.ui.window import Window


class SkirmishReplayScene(SkirmishBattleScene):
    """A recorded skirmish, position by position."""

    def __init__(self, app: Window, cursor: ReplayCursor, path: Path | None = None) -> None:
        super().__init__(app, cursor.game_at(0), None, list(cursor.scenario.terrain_kinds))
        self.cursor = cursor
        """The record being watched."""
        self.path = path
        self.index = 0
        """Actions applied at the position shown (0 .. ``cursor.length``)."""
        self.results_shown = True      # watching never switches to the results

    def go(self, index: int) -> None:
        """Show the position after ``index`` actions (clamped to the record)."""
        index = max(0, min(self.cursor.length, index))
        if index == self.index:
            return
        forward = index == self.index + 1
        self.index = index
        self.game = self.cursor.game_at(index)
        if forward:       # one step on: its events join the log
            self._add_events(self.cursor.events_of(index))
        else:             # a jump: the log up to here, the dice of the last roll before here
            self._reset_view_of_game()
        self._pending_key = None
        self._sync()

    def _rolls_here(self) -> list[Event] | None:
        """The dice panel after a jump: the rolls of the last action at or before this position that rolled."""
        return rolls_before(self.cursor, self.index, self.game.log)

    def act(self, action: Action) -> bool:
        """Watching only: nothing is applied."""
        return False

    def _sync(self) -> None:
        self.tool = None
        self._refresh()

    def _click(self, point: XY, shift: bool) -> None:
        uid = self._unit_at(point)
        if uid is not None:
            self.selected = uid
            self._refresh()

    def _refresh(self) -> None:
        if self.hud is None or self.actions is None:
            return
        s = self.game.state
        n = self.cursor.length
        last = self.cursor.record.actions[self.index - 1] if self.index > 0 else None
        what = action_text(self.game, last) if last is not None else "the start"
        problem = f" — {self.cursor.problem}" if self.cursor.problem and self.index == n else ""
        self.hud.show(f"Replay — {self.cursor.scenario.name} — step {self.index} of {n}, round {s.round}",
                      f"{what}{problem}", s.active_player)
        self.actions.set_buttons([
            ButtonSpec("start", "Start", "The first position (Home)", enabled=self.index > 0),
            ButtonSpec("back", "Back", "One action back (Left)", enabled=self.index > 0),
            ButtonSpec("next", "Next", "One action on (Right)", "#primary_button", enabled=self.index < n),
            ButtonSpec("end", "End", "The last position (End)", enabled=self.index < n),
            ButtonSpec("menu", "Main menu", right=True),
        ])
        if self.card is not None:
            self.card.show(s, self.selected if self.selected in s.units else None)

    def command(self, key: str) -> None:
        """The replay's buttons."""
        if key == "start":
            self.go(0)
        elif key == "back":
            self.go(self.index - 1)
        elif key == "next":
            self.go(self.index + 1)
        elif key == "end":
            self.go(self.cursor.length)
        elif key == "menu":
            self.app.show_menu()

    def _keydown(self, event: pygame.event.Event) -> None:
        keys = {pygame.K_LEFT: "back", pygame.K_RIGHT: "next", pygame.K_HOME: "start", pygame.K_END: "end"}
        if event.key in keys:
            self.command(keys[event.key])
