"""The replay viewer: watch a recorded game, play and pause, step by action, jump to any round, turn and phase.

``ReplayScene`` is a ``BattleScene`` that never acts: it shows the game of a ``ReplayCursor`` at one position
(``goto``) with the battle's own drawing (table, terrain, units, overlays, unit card, dice panel, log), and replaces
the action bar with the replay controls and a timeline of the main events (charges, combats, units destroyed,
routed or fled) whose markers are clickable (``game.ui.replay_controls``, shared with AoF: Skirmish's viewer).
Going to any position is a snapshot clone plus a few actions (``ReplayCursor.game_at``); stepping forward applies
the next action to the viewer's own copy.

Keys: Space play/pause · ←/→ step · Shift+←/→ previous/next main event · ↑/↓ previous/next phase ·
PgUp/PgDn previous/next player turn · Home/End start/end · +/- faster/slower · Esc menu; F, T, M, A, V, C as in
the battle.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.replay import ReplayCursor, action_text
from game.ui import palette
from game.ui.animation import Animations
from game.ui.draw_terrain import StaticLayer
from game.ui.layout import BattleLayout
from game.ui.overlays import draw_banner
from game.ui.replay_controls import LOG_LINES, REPLAY_H, ReplayControls, position_title
from game.ui.scenes.battle import BattleScene
from game.ui.trails import CombatTrails
from game.ui.view_tools import ViewTools, view_below

if TYPE_CHECKING:
    from game.engine.actions import Action
    from game.ui.window import Window

VIEW_KEYS = {"fit", "turn", "measure", "arcs", "sight", "trails"}
"""Commands of the view strip that the replay passes on to the battle's handler."""
VIEW_KEYS_BY_KEY = {pygame.K_f: "fit", pygame.K_t: "turn", pygame.K_m: "measure", pygame.K_a: "arcs",
                    pygame.K_v: "sight", pygame.K_c: "trails"}
"""The view strip's keys, as in the battle."""


class ReplayScene(ReplayControls, BattleScene):
    """Watch a recorded game (``python main.py replay RECORD`` or Watch replay on the menu)."""

    watch_only = True

    def __init__(self, app: Window, cursor: ReplayCursor, path: Path | None = None) -> None:
        super().__init__(app, cursor.game_at(0), None, list(cursor.scenario.terrain_kinds))
        self.cursor = cursor
        """The record, replayed, with its snapshots and timeline."""
        self.path = path
        """The record file, if any."""
        self._init_replay()
        self.turn_with_seat = False
        self.rewinder = None
        self._sync_key: object = None

    # --- widgets --------------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Top bar, table, timeline and two rows of controls; unit card, dice and log at the right."""
        m = self.app.manager
        w, h = self.app.size
        lay = BattleLayout.for_size(self.app.size)
        self.layout = lay
        side_x = lay.card.x
        table = pygame.Rect(0, lay.top.bottom, side_x, h - lay.top.bottom - REPLAY_H)
        self.view.set_rect(view_below(table))     # the view tools' band above it
        self._build_panels(lay, actions=False, lines=LOG_LINES)
        self.tools = ViewTools(m, table)
        self.build_replay_bars(0, table.bottom, side_x, lay)
        self._refresh_widgets()

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        self.kill_replay_bars()

    # --- positions ------------------------------------------------------------------------------------------------
    def goto(self, index: int) -> None:
        """Show the game after ``index`` actions (clamped to the record); one step forward is animated."""
        index = max(0, min(self.cursor.length, index))
        if index == self.index:
            return
        if index == self.index + 1:
            action = self.cursor.record.actions[self.index]
            self.game.apply(action)
            self.index = index
            events = self.cursor.events_of(index)
            self.feed.add(events, None, self.dice)     # the log panel is rebuilt a moment later
            self._log_stale = self.time
            self.anims.add(events, self.time)
            self.trails.add(self.game.state, events, self.time)
            return
        self.game = self.cursor.game_at(index)
        self.index = index
        self._reset_view_of_game()

    def _reset_view_of_game(self) -> None:
        """After a jump: the log up to here, the last rolls before here, no animations (widgets kept)."""
        game = self.game
        self.tool = None
        self.error = None
        self._targets.clear()
        self.anims = Animations()
        self.trails = CombatTrails()
        self.trails.add(game.state, game.log, self.time, fresh=False)
        self._log_and_dice_here(game.log)

    # --- the battle scene's hooks, made read-only ----------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """A replay never changes the game."""
        return False

    def _button_specs(self) -> list:  # type: ignore[type-arg]
        return []

    def undo_refusal(self, player: int | None = None) -> str | None:
        """Nothing is taken back in a replay."""
        return "This is a replay."

    def _sync(self) -> None:
        """Follow the position: terrain turned by the deployment roll-off, the units that could act."""
        key = (id(self.game), self.index)
        if key == self._sync_key:
            return
        self._sync_key = key
        s = self.game.state
        if list(s.terrain) != self.static.terrain:
            self.static = StaticLayer(s.table.width, s.table.depth, s.terrain, self.static.kinds, names=False)
        pending = self.game.pending
        self._targets.clear()
        self.actors = set()
        self._movable = set()
        if pending is not None:
            d = pending.decision
            if d == "move":
                self._movable = set(self.game.units_to_move(pending.player))
                self.actors = set(self._movable)
            elif d == "declare_charge":
                self.actors = set(self.game.chargers(pending.player))
            elif d == "shoot":
                self.actors = set(self.game.shooters(pending.player))

    def command(self, key: str) -> None:
        """Replay buttons and keys; the view strip's commands go to the battle's handler."""
        if key in VIEW_KEYS:
            super().command(key)
        else:
            self.replay_command(key)

    # --- input ------------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Controls, keys, the timeline; the table only for looking (select, hover, pan, zoom)."""
        if not self.replay_event(event, consumed):
            super().handle_event(event, consumed)

    def _key(self, event: pygame.event.Event) -> None:
        key = self.replay_key(event) or VIEW_KEYS_BY_KEY.get(event.key)
        if key is not None:
            self.command(key)
        elif event.key == pygame.K_TAB:
            self._cycle_units()

    def _key_up(self, event: pygame.event.Event) -> None:
        pass

    def _click(self, point: object, shift: bool = False) -> None:
        """A click on the table only selects (the unit card shows it)."""
        from game.ui.picking import unit_at
        self.selected = unit_at(self.game.state, point)  # type: ignore[arg-type]

    # --- frame ------------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Play on at the chosen speed; refresh the widgets."""
        self.time += dt
        self.play_on(dt)
        self._sync()
        self._refresh_widgets()
        if self.banner is not None and self.time > self.banner[2]:
            self.banner = None

    def _refresh_widgets(self) -> None:
        hud, self.hud = self.hud, None
        try:
            super()._refresh_widgets()
        finally:
            self.hud = hud
        if self.hud is not None:
            self.hud.show(position_title(self.cursor, self.index), self.hint(), self.cursor.marks[self.index].player)

    def hint(self) -> str:
        """The second line of the top bar: the last action, or how to start."""
        if self.index == 0:
            return "Start of the game · Space: play · ←/→: step · ↑/↓: phase · PgUp/PgDn: turn · Home/End"
        action = self.cursor.record.actions[self.index - 1]
        last = action_text(self.game, action)
        seat = self.cursor.record.computer
        if seat is not None and action.player == seat.player:      # the record names the computer's seat
            last = last.replace(f"Player {seat.player}:", f"Player {seat.player} ({seat.words}):", 1)
        if self.index == self.cursor.length and self.cursor.problem:
            return f"Last: {last} · the replay stops here"
        return f"Last: {last}"

    def draw(self, screen: pygame.Surface) -> None:
        """The battle's drawing of the table, then the timeline and the replay's own notes."""
        super().draw(screen)
        if self.cursor.problem is not None:
            top = pygame.Rect(self.view.rect.x, self.view.rect.y, self.view.rect.w, 64)
            draw_banner(screen, top, f"⚠ {self.cursor.problem}", palette.ILLEGAL)
        self.draw_timeline(screen)
