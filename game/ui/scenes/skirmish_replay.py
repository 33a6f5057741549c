"""Watching a recorded game of AoF: Skirmish (issue 18): the skirmish battle screen, watch only, with the replay
viewer's timeline and controls (``game.ui.replay_controls``, the same as the regiments' viewer): play and pause at a
chosen speed, step (Left / Right), previous / next main event, start / end (Home / End), round, player and phase
jumps, and a timeline to click or drag; the log up to the position shown and the dice of its last roll. Nothing
here acts: clicks on the table only select a unit for its card."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.engine.actions import Action
from game.engine.skirmish.loose import XY
from game.replay import ReplayCursor, action_text
from game.ui.layout import BattleLayout
from game.ui.replay_controls import LOG_LINES, REPLAY_H, ReplayControls, position_title
from game.ui.scenes.skirmish_battle import SkirmishBattleScene

if TYPE_CHECKING:
    from game.ui.window import Window


class SkirmishReplayScene(ReplayControls, SkirmishBattleScene):
    """A recorded skirmish, position by position."""

    def __init__(self, app: Window, cursor: ReplayCursor, path: Path | None = None) -> None:
        super().__init__(app, cursor.game_at(0), None, list(cursor.scenario.terrain_kinds))
        self.cursor = cursor
        """The record being watched."""
        self.path = path
        self._init_replay()
        self.rewinder = None
        self.results_shown = True      # watching never switches to the results by itself

    # --- widgets --------------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Top bar, table, timeline and two rows of controls; unit card, dice and log at the right."""
        lay = BattleLayout.for_size(self.app.size)
        side_x = lay.card.x
        table = pygame.Rect(0, lay.top.bottom, side_x, self.app.size[1] - lay.top.bottom - REPLAY_H)
        self.view.set_rect(table)
        self._build_panels(lay, actions=False, lines=LOG_LINES)
        self.build_replay_bars(0, table.bottom, side_x, lay)
        self._pending_key = None
        self._sync()

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        self.kill_replay_bars()

    # --- positions ------------------------------------------------------------------------------------------------
    def goto(self, index: int) -> None:
        """Show the position after ``index`` actions (clamped to the record): one step on applies the next action
        to the viewer's copy (its events join the log); a jump takes the cursor's game there."""
        index = max(0, min(self.cursor.length, index))
        if index == self.index:
            return
        if index == self.index + 1:
            self.game.apply(self.cursor.record.actions[self.index])
            self.index = index
            self.feed.add(self.cursor.events_of(index), None, self.dice)    # the log panel is rebuilt a moment later
            self._log_stale = self.time
        else:
            self.game = self.cursor.game_at(index)
            self.index = index
            self._reset_view_of_game()
        self._pending_key = None
        self._sync()

    def _reset_view_of_game(self) -> None:
        """After a jump: the log up to here, the dice of the last roll at or before here (widgets kept)."""
        self.tool = None
        self._target_cache = (None, set())
        self._log_and_dice_here(self.game.log)

    def show_results(self) -> None:
        """The results of the finished game (its table one click away, back here)."""
        self.app.show_results(self.game, back=self)

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
        """The top bar (where the position is, the last action) and the card."""
        if self.hud is None:
            return
        s = self.game.state
        last = self.cursor.record.actions[self.index - 1] if self.index > 0 else None
        what = f"Last: {action_text(self.game, last)}" if last is not None else \
            "Start of the game · Space: play · ←/→: step · ↑/↓: phase · PgUp/PgDn: turn · Home/End"
        if self.cursor.problem and self.index == self.cursor.length:
            what += f" · the replay stops here: {self.cursor.problem}"
        self.hud.show(position_title(self.cursor, self.index), what, self.cursor.marks[self.index].player)
        if self.card is not None:
            self.card.show(s, self.selected if self.selected in s.units else None)

    def command(self, key: str) -> None:
        """The replay's buttons and keys (``ReplayControls.replay_command``)."""
        self.replay_command(key)

    # --- input and frame ------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Controls, keys, the timeline; the table only for looking (select, hover, pan, zoom)."""
        if not self.replay_event(event, consumed):
            super().handle_event(event, consumed)

    def _key(self, event: pygame.event.Event) -> None:
        key = self.replay_key(event)
        if key is not None:
            self.command(key)

    def update(self, dt: float) -> None:
        """Play on at the chosen speed; the log panel."""
        self.time += dt
        self.play_on(dt)
        if self.log is not None:
            self.log.update()

    def draw(self, screen: pygame.Surface) -> None:
        """The skirmish table, then the timeline."""
        super().draw(screen)
        self.draw_timeline(screen)
