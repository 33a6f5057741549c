"""Saved games: every game played in the window is a record in the user's data folder (``game.saves``).

``SavedGamesPanel`` lists them, newest first (scenario, round, score, finished or not, date), with Resume, Watch
replay and Delete. The menu shows it beside its own column when the window is wide enough; ``SavesScene`` shows it
alone otherwise. Resuming or watching a file that cannot be used goes back to the menu with the reason; the file
is never changed (only Delete, after a confirmation, removes it).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UISelectionList, UITextBox
from pygame_gui.windows import UIConfirmationDialog

from game.engine.state import Phase
from game.saves import SavedGame, delete_saved_game, list_saved_games, verify_saved_game
from game.ui import palette
from game.ui.assets import font
from game.ui.stats_draw import fit_text
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.ui.window import Window

PHASE_WORDS = {
    Phase.DEPLOYMENT.value: "Deployment", Phase.STRATEGY_1.value: "1. Strategy", Phase.MOVEMENT.value: "2. Movement",
    Phase.STRATEGY_2.value: "3. Strategy", Phase.SHOOTING.value: "4. Shooting",
    Phase.CLOSE_COMBAT.value: "5. Close Combat", Phase.RALLY.value: "6. Rally",
}
"""Phases numbered as in the rulebook's turn sequence."""


def details_html(item: SavedGame) -> str:
    """The selected saved game in a few lines."""
    rows = [f"<b>{html.escape(item.title or item.name)}</b>"]
    if item.problem:
        rows.append(f"<font color='#ff8a80'>⚠ {html.escape(item.problem)}</font>")
    else:
        status = "<font color='#a0ffb0'>finished</font>" if item.finished else \
            "<font color='#ffd27a'>unfinished</font>"
        where = []
        if item.round is not None:
            where.append(f"round {item.round}" + (f" of {item.rounds}" if item.rounds else ""))
        if item.player is not None and not item.finished:
            where.append(f"player {item.player} to play")
        if item.phase and not item.finished:
            where.append(PHASE_WORDS.get(item.phase, item.phase))
        rows.append(status + (" — " + ", ".join(where) if where else ""))
        if item.victory_points:
            rows.append(f"Victory points: <font color='{palette.PLAYER_HTML[1]}'>Player 1 "
                        f"{item.victory_points.get(1, 0)}</font> · <font color='{palette.PLAYER_HTML[2]}'>Player 2 "
                        f"{item.victory_points.get(2, 0)}</font>")
        if item.actions is not None:
            rows.append(f"{item.actions} actions")
    rows.append(f"<font color='#9aa4ac'>{html.escape(item.modified.strftime('%d %B %Y, %H:%M'))} · "
                f"{html.escape(item.path.name)}</font>")
    return "<br>".join(rows)


def row_text(summary: str, width: int) -> str:
    """A saved game's line (``SavedGame.summary``: title, opponent, round, score, date) fitted to ``width`` pixels:
    narrower separators, then the title cut with an ellipsis, so that the round, score and date stay readable."""
    f = font(14)
    if f.size(summary)[0] <= width:
        return summary
    summary = summary.replace("  ·  ", " · ")
    if f.size(summary)[0] <= width:
        return summary
    title, sep, rest = summary.partition(" · ")
    if not sep:
        return fit_text(summary, 14, width)
    room = width - f.size(sep + rest)[0]
    if room < f.size("Abc…")[0]:
        return fit_text(summary, 14, width)
    return fit_text(title, 14, room) + sep + rest


class SavedGamesPanel:
    """The list of saved and finished games with Resume, Watch replay and Delete (pygame_gui widgets)."""

    def __init__(self, app: Window, rect: pygame.Rect, select: Path | None = None) -> None:
        self.app = app
        self.rect = rect
        m = app.manager
        self.items: list[SavedGame] = list_saved_games()
        """The games listed, newest first."""
        self.panel = UIPanel(rect, starting_height=1, manager=m)
        w, h = rect.w, rect.h
        n = len(self.items)
        UILabel(pygame.Rect(20, 14, w - 40, 24), f"SAVED AND FINISHED GAMES ({n})", m, container=self.panel,
                object_id="#section_title")
        self.by_label: dict[str, SavedGame] = {}
        labels: list[str | tuple[str, str]] = []
        room = w - 40 - 20 - 2 * 10        # the list's width less its scroll bar and the rows' padding
        for item in self.items:
            label = row_text(item.summary(), room)
            k = 2
            while label in self.by_label:
                label = f"{row_text(item.summary(), room - 40)}  ({k})"
                k += 1
            self.by_label[label] = item
            labels.append(label)
        if select is None and self.items:
            select = self.items[0].path      # the newest: Resume is one click away
        self.selected: SavedGame | None = None
        chosen = None
        for label, item in self.by_label.items():
            if item.path == select:
                chosen, self.selected = label, item
        list_h = max(120, h - 14 - 30 - 130 - 70)
        self.list = UISelectionList(pygame.Rect(20, 42, w - 40, list_h), labels, m, container=self.panel,
                                    default_selection=chosen)
        self.details = UITextBox(self._empty_text(), pygame.Rect(20, 48 + list_h, w - 40, 124), m,
                                 container=self.panel)
        bw = (w - 40 - 2 * 10) // 3
        y = 48 + list_h + 132
        self.resume = UIButton(pygame.Rect(20, y, bw, 46), "Resume", m, container=self.panel,
                               object_id="#primary_button", tool_tip_text="Go on playing this game (double click)")
        self.watch = UIButton(pygame.Rect(30 + bw, y, bw, 46), "Watch replay", m, container=self.panel,
                              tool_tip_text="Watch the game from the start: play, pause, step, jump to a round")
        self.delete = UIButton(pygame.Rect(40 + 2 * bw, y, bw, 46), "Delete…", m, container=self.panel,
                               tool_tip_text="Remove this saved game (asks first)")
        self.dialog: UIConfirmationDialog | None = None
        self._refresh()

    def _empty_text(self) -> str:
        if not self.items:
            return ("<font color='#9aa4ac'>No saved games yet. Every game played here is saved after each action; "
                    "it appears in this list to resume or to watch again.</font>")
        return "<font color='#9aa4ac'>Pick a game in the list.</font>"

    def _refresh(self) -> None:
        item = self.selected
        if item is not None:
            verify_saved_game(item)      # a damaged or truncated file says so before Resume is offered
        self.details.set_text(details_html(item) if item is not None else self._empty_text())
        for b in (self.resume, self.watch, self.delete):
            b.enable() if item is not None else b.disable()
        if item is not None and (item.finished or item.problem):
            self.resume.disable()
        if item is not None and item.problem:
            self.watch.disable()         # refused: the reason is in the details; Delete stays

    def handle(self, event: pygame.event.Event) -> bool:
        """React to the panel's widgets; True if the event was theirs."""
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and self.dialog is not None \
                and event.ui_element is self.dialog:
            item = self.selected
            self.dialog = None
            if item is not None:
                self.delete_game(item)
            return True
        if self.dialog is not None and self.dialog.alive() and event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.dialog.kill()
                self.dialog = None
            return True
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            self.selected = self.by_label.get(event.text)
            self._refresh()
            return True
        if event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and event.ui_element is self.list:
            item = self.by_label.get(event.text)
            if item is not None:
                self.selected = item
                if item.finished or item.problem:
                    self.app.watch_replay(item.path)
                else:
                    self.app.resume_game(item.path)
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and self.selected is not None:
            if event.ui_element is self.resume:
                self.app.resume_game(self.selected.path)
                return True
            if event.ui_element is self.watch:
                self.app.watch_replay(self.selected.path)
                return True
            if event.ui_element is self.delete:
                self._confirm_delete(self.selected)
                return True
        return False

    def _confirm_delete(self, item: SavedGame) -> None:
        w, h = self.app.size
        size = (min(520, w - 40), 220)
        self.dialog = UIConfirmationDialog(
            pygame.Rect((w - size[0]) // 2, (h - size[1]) // 2, *size),
            f"Delete the saved game <b>{html.escape(item.title or item.name)}</b> "
            f"({html.escape(item.modified.strftime('%d %b %Y %H:%M'))})? It cannot be resumed or watched again.",
            self.app.manager, window_title="Delete saved game", action_long_desc_text_kwargs=None,
            action_short_name="Delete", blocking=True)

    def delete_game(self, item: SavedGame) -> None:
        """Remove ``item``'s file and rebuild the list (the app's current scene is rebuilt)."""
        try:
            delete_saved_game(item.path)
        except OSError as e:
            self.details.set_text(f"<font color='#ff8a80'>Could not delete {html.escape(str(item.path))}: "
                                  f"{html.escape(e.strerror or str(e))}</font>")
            return
        scene = self.app.scene
        if scene is not None:
            scene.resize()     # rebuilds the widgets, and this list with them

    def kill(self) -> None:
        """Remove the widgets."""
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None
        self.panel.kill()


class SavesScene(Scene):
    """The saved games on their own screen (for windows too narrow to show them beside the menu)."""

    def __init__(self, app: Window) -> None:
        super().__init__(app)
        self.panel: SavedGamesPanel | None = None
        self.back: UIButton | None = None

    def build_ui(self) -> None:
        """A centred panel and a Back button."""
        w, h = self.app.size
        pw, ph = min(860, w - 40), min(720, h - 100)
        self.panel = SavedGamesPanel(self.app, pygame.Rect((w - pw) // 2, 30, pw, ph))
        self.back = UIButton(pygame.Rect((w - 240) // 2, 40 + ph, 240, 44), "Back to the menu (Esc)",
                             self.app.manager)

    def kill_ui(self) -> None:
        """Remove the widgets."""
        if self.panel is not None:
            self.panel.kill()
        if self.back is not None:
            self.back.kill()
        self.panel = self.back = None

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The panel's widgets, Back and Esc."""
        if self.panel is not None and self.panel.handle(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back:
            self.app.show_menu()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not consumed:
            self.app.show_menu()

    def draw(self, screen: pygame.Surface) -> None:
        """Plain background."""
        screen.fill(palette.BACKGROUND)
