"""What the two battle screens share: the regiments' (``game.ui.scenes.battle.BattleScene``) and AoF: Skirmish's
(``game.ui.scenes.skirmish_battle.SkirmishBattleScene``), and so their replay viewers and lessons.

``TableScene`` keeps the game, the table view, the log's lines and the side panels (top bar, action bar, unit
card, dice panel, log), and routes input the same way on both screens: the action bar's and the view strip's
buttons to ``command``, the log's links, keys to ``_key``, right- or middle-drag pans the table, the wheel zooms at
the mouse, the unit or terrain piece under the mouse is hovered, a left click on the table goes to ``_click``.
What differs (what a drag moves, what the wheel turns, what a right click drops) is asked of the hooks below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.replay import Rewinder
from game.ui.action_bar import ActionBar
from game.ui.animation import Animations
from game.ui.dice_panel import DicePanel
from game.ui.draw_terrain import StaticLayer
from game.ui.event_feed import EventFeed
from game.ui.hud import Hud
from game.ui.layout import BattleLayout
from game.ui.log_panel import LogPanel
from game.ui.record_controls import save_now
from game.ui.scenes.battle_computer import ComputerSide
from game.ui.table_view import TableView
from game.ui.unit_card import UnitCard
from game.ui.view_tools import ViewTools
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.computer_seat import ComputerSeat
    from game.engine.events import Event
    from game.engine.game import Game
    from game.ui.window import Window

ZOOM_STEP = 1.15
"""Zoom factor per wheel notch."""


class TableScene(ComputerSide, Scene):
    """A game shown on a table with the side panels; hotseat, or against the computer playing ``computer``'s seat."""

    def __init__(self, app: Window, game: Game, scenario_path: str | None = None,
                 kinds: list[str] | None = None, computer: ComputerSeat | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.scenario_path = scenario_path
        s = game.state
        self.view = TableView(pygame.Rect(0, 64, 1200, 880), s.table.width, s.table.depth)
        self.static = StaticLayer(s.table.width, s.table.depth, s.terrain, kinds, names=False)
        self.feed = EventFeed(game.log)
        """The log's lines and the latest rolls (``game.ui.event_feed``)."""
        self.anims = Animations()
        self.hud: Hud | None = None
        self.actions: ActionBar | None = None
        self.card: UnitCard | None = None
        self.dice: DicePanel | None = None
        self.log: LogPanel | None = None
        self.tools: ViewTools | None = None
        """The view strip over the table (regiments only)."""
        # interaction state (never game state)
        self.selected: str | None = None
        self.hover: str | None = None
        self.hover_terrain: int | None = None
        self.mouse: tuple[int, int] = (0, 0)
        self.panning = False
        self.pan_moved = False
        """The table moved since the right or middle button went down (a right click that did not pan cancels)."""
        self.banner: tuple[str, tuple[int, int, int], float] | None = None
        self.time = 0.0
        self.last_exception: BaseException | None = None
        """An unexpected engine error caught by ``act`` (shown to the player; tests check it stays None)."""
        self._pending_key: object = None
        self._seat: int | None = None
        self.rewinder: Rewinder | None = Rewinder(game)
        """Snapshots for taking actions back by replay (``undo``); a resumed game gets the one of its replay."""
        self._seat_computer(app.seed, computer)     # computer, turns: the computer opponent (None: hotseat)

    # --- widgets --------------------------------------------------------------------------------------------------
    def _build_panels(self, lay: BattleLayout, actions: bool = True, lines: int | None = None) -> None:
        """The top bar, the action bar (unless not ``actions``), the unit card, the dice panel with the latest rolls
        and the log (its last ``lines`` lines; None: all kept) at ``lay``'s places."""
        m = self.app.manager
        self.hud = Hud(m, lay.top)
        self.actions = ActionBar(m, lay.actions) if actions else None
        self.card = UnitCard(m, lay.card)
        self.dice = DicePanel(m, lay.dice)
        self.dice.show_events(self.feed.rolls)
        self.log = LogPanel(m, lay.log, self.feed.lines if lines is None else list(self.feed.lines)[-lines:])

    def kill_ui(self) -> None:
        """Remove the widgets (the scene keeps its log lines and rolls)."""
        for part in (self.hud, self.actions, self.card, self.dice, self.log, self.tools):
            if part is not None:
                part.kill()
        self.hud = self.actions = self.card = self.dice = self.log = None
        self.tools = None

    # --- shared by both screens -----------------------------------------------------------------------------------
    def show_banner(self, text: str, colour: tuple[int, int, int], seconds: float = 4.0) -> None:
        """A message over the bottom of the table for ``seconds``."""
        self.banner = (text, colour, self.time + seconds)

    def _add_events(self, events: list[Event]) -> None:
        """Events into the log and the dice panel."""
        self.feed.add(events, self.log, self.dice)

    def save(self) -> bool:
        """Ctrl+S / Save: write the record now (the same file the autosave writes). True if it was written."""
        return save_now(self)

    def command(self, key: str) -> None:
        """Run a button or key command (the screen's)."""
        raise NotImplementedError

    # --- input ----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Route buttons, keys and table clicks (module docstring)."""
        if self._widget_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type == pygame.KEYUP:
            self._key_up(event)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.panning:
                self.view.pan(*event.rel)
                if abs(event.rel[0]) + abs(event.rel[1]) > 0:
                    self.pan_moved = True
            else:
                self._drag(event.pos)
            inside = self.view.rect.collidepoint(event.pos)
            point = self.view.to_table(event.pos)
            self.hover = self._unit_under(point) if inside else None
            self.hover_terrain = self.static.piece_at(point) if inside and self.hover is None else None
            return
        if event.type == pygame.MOUSEBUTTONUP:
            if event.button == 1:
                self._release()
            elif event.button in (2, 3) and self.panning:
                self.panning = False
                if event.button == 3 and not self.pan_moved:
                    self._right_click()
            return
        if consumed:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and self.view.rect.collidepoint(event.pos):
            self.mouse = event.pos
            if event.button == 1:
                self._click(self.view.to_table(event.pos), bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            elif event.button in (2, 3):
                self.panning = True
                self.pan_moved = False
        elif event.type == pygame.MOUSEWHEEL and self.view.rect.collidepoint(self.mouse):
            if not self._wheel(event):
                self.view.zoom_at(self.mouse, ZOOM_STEP ** event.y)

    def _widget_event(self, event: pygame.event.Event) -> bool:
        """The action bar's and the view strip's buttons (to ``command``), the log's links. True if taken."""
        for bar in (self.actions, self.tools):
            if bar is not None:
                key = bar.pressed(event)
                if key is not None:
                    self.command(key)
                    return True
        return self.log is not None and self.log.handle(event)

    # --- hooks: what differs between the screens ------------------------------------------------------------------
    def _key(self, event: pygame.event.Event) -> None:
        """A key pressed."""

    def _key_up(self, event: pygame.event.Event) -> None:
        """A key released."""

    def _unit_under(self, point: tuple[float, float]) -> str | None:
        """The unit at ``point`` (inches) for hovering, or None."""
        return None

    def _drag(self, pos: tuple[int, int]) -> None:
        """The mouse moved to ``pos`` while the table is not being panned (a move tool's drag)."""

    def _release(self) -> None:
        """The left button released (a drag ends)."""

    def _right_click(self) -> None:
        """A right click that did not pan."""

    def _click(self, point: tuple[float, float], shift: bool) -> None:
        """A left click on the table at ``point`` (inches); ``shift`` held."""

    def _wheel(self, event: pygame.event.Event) -> bool:
        """The wheel over the table: True if it turned something (else it zooms at the mouse)."""
        return False
