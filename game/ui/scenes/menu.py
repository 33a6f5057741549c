"""The main menu: one click starts a hotseat game of the default scenario; other scenarios can be picked."""

from __future__ import annotations

import html
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UISelectionList, UITextBox

from game.files import user_data_dir
from game.reader import peek_mapping
from game.ui import palette
from game.ui.assets import font
from game.ui.opponent_picker import OpponentPicker
from game.ui.scenes.lessons import LessonsScene, done_count
from game.ui.scenes.saves import SavedGamesPanel, SavesScene
from game.ui.stats_draw import fit_text
from game.ui.window import DEFAULT_SCENARIO, Scene

if TYPE_CHECKING:
    from game.ui.window import Window


def scenario_files(folder: Path) -> list[Path]:
    """Scenario files directly in ``folder`` (``*.yaml``), default first, then by name."""
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    return sorted(files, key=lambda p: (p.name != "default.yaml", p.name))


def window_scenarios(files: list[Path]) -> list[Path]:
    """The scenarios the window can play: not those of a ruleset whose decisions the battle screen cannot present
    (``decisions.window_refusal``: AoF:R 2.16 is played headless)."""
    from game.ui.decisions import window_refusal
    return [p for p in files if window_refusal(str(peek_mapping(p).get("ruleset", ""))) is None]


CONTROLS_HTML = (
    "<b>At the table</b><br>"
    "Drag a unit: move it · <b>Q</b>/<b>E</b> or wheel: pivot 5° (Shift 15°) · <b>Enter</b>: confirm · "
    "<b>Esc</b>: cancel · <b>Backspace</b>: undo a leg<br>"
    "Click your unit, then a highlighted enemy: charge or shoot · <b>Space</b>: Done (end the step)<br>"
    "Right or middle drag: pan · wheel: zoom · <b>M</b>: measure · <b>F</b>: fit · <b>T</b>: turn the table · "
    "<b>Tab</b>: next unit<br>"
    "<b>Ctrl+Z</b>: take back your last action (until a die is rolled) · <b>Ctrl+S</b>: save (also automatic)<br>"
    "Against the computer: <b>G</b>: faster · <b>N</b>: skip to your next decision"
)
"""The controls, shown on the menu."""


def _age(path: Path) -> float:
    """Sort key: newest file first (a file gone meanwhile last)."""
    try:
        return -path.stat().st_mtime
    except OSError:
        return 0.0


def _date(path: Path) -> str:
    """When a file was last written, short: "25 Nov 2026"."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %Y")
    except OSError:
        return "date unknown"


def scenario_title(path: Path) -> str:
    """The ``name:`` of a scenario file (read without validating it), else its file name."""
    name = peek_mapping(path).get("name")
    return str(name) if name else path.stem


class MenuScene(Scene):
    """Title, the big "hotseat battle" button, a list of other scenarios, Quit."""

    def __init__(self, app: Window, message: str | None = None) -> None:
        super().__init__(app)
        self.message = message
        self.widgets: list[pygame_gui.core.UIElement] = []
        self.default = DEFAULT_SCENARIO
        self.files = window_scenarios(scenario_files(DEFAULT_SCENARIO.parent))
        self.own_files = sorted(window_scenarios(scenario_files(user_data_dir() / "scenarios")), key=_age)
        """Battles built and saved in the set-up, newest first."""
        self.play_default: UIButton | None = None
        self.play_selected: UIButton | None = None
        self.quit_button: UIButton | None = None
        self.list: UISelectionList | None = None
        self.by_label: dict[str, Path] = {}
        self.saves: SavedGamesPanel | None = None
        """Saved and finished games beside the menu (wide windows); else ``saves_button`` opens them."""
        self.saves_button: UIButton | None = None
        self.picker: OpponentPicker | None = None
        """Hotseat or the computer, and its level (``Window.opponent``)."""
        self.play_w = 580
        """Width of the big button, pixels (its text is fitted to it)."""

    def build_ui(self) -> None:
        """Centre a column of widgets in the window."""
        m = self.app.manager
        w, h = self.app.size
        cw = min(640, w - 80)
        x = (w - cw) // 2
        saves_w = min(720, w - (cw + 60) - 24 - 40)
        if saves_w >= 520:          # the saved games beside the menu's column
            x = (w - (cw + 60 + 24 + saves_w)) // 2 + 30
            top = max(40, h // 2 - 330)
            self.saves = SavedGamesPanel(self.app, pygame.Rect(x + cw + 30 + 24, top - 20, saves_w,
                                                               min(h - 40, 660)))
        else:
            self.saves_button = UIButton(pygame.Rect(w - 230, 16, 210, 40), "Saved games…", m,
                                         tool_tip_text="Resume a saved game or watch a finished one")
        y = max(40, h // 2 - 330)
        panel = UIPanel(pygame.Rect(x - 30, y - 20, cw + 60, min(h - 40, 660)), starting_height=1, manager=m)
        self.widgets = [panel]
        UILabel(pygame.Rect(0, 20, cw + 60, 56), "Battle Regiments", m, container=panel, object_id="#big_title")
        UILabel(pygame.Rect(0, 80, cw + 60, 28),
                "Age of Warhammer Fantasy: Battle Regiments 1.4 — two players, one computer",
                m, container=panel, object_id="#subtitle")
        UILabel(pygame.Rect(0, 108, cw + 60, 26),
                "The computer referees: it measures, checks moves, rolls dice, shows why.",
                m, container=panel, object_id="#subtitle")
        self.play_w = cw
        self.play_default = UIButton(pygame.Rect(30, 142, cw, 50), self._play_label(), m, container=panel,
                                     object_id="#big_button",
                                     tool_tip_text="A game of scenarios/default.yaml against the opponent chosen "
                                                   "below (Enter)")
        if not self.default.exists():
            self.play_default.disable()
        self.picker = OpponentPicker(self.app, pygame.Rect(30, 198, cw, 32), panel)
        self.setup_button = UIButton(pygame.Rect(30, 238, cw // 2 - 6, 34), "New battle (set-up)", m,
                                     container=panel, object_id="#primary_button",
                                     tool_tip_text="Build both army lists, set up the terrain, then deploy")
        from game.tutorial import list_lessons

        self.lessons_button = UIButton(pygame.Rect(cw // 2 + 36, 238, cw // 2 - 6, 34),
                                       f"Lessons ({done_count(list_lessons())})", m, container=panel,
                                       tool_tip_text="Guided lessons that teach the whole game")
        UILabel(pygame.Rect(30, 278, cw, 24), "YOUR BATTLES AND OTHER SCENARIOS" if self.own_files else
                "OTHER SCENARIOS", m, container=panel, object_id="#section_title")
        self.by_label = {f"★ {scenario_title(p)}   (saved in the set-up, {_date(p)})": p for p in self.own_files}
        self.by_label.update({f"{scenario_title(p)}   ({p.name})": p for p in self.files})
        names: list[str | tuple[str, str]] = list(self.by_label)
        list_h = 112
        self.list = UISelectionList(pygame.Rect(30, 304, cw, list_h), names, m, container=panel)
        self.play_selected = UIButton(pygame.Rect(30, 312 + list_h, cw // 2 - 6, 44), "Play selected scenario", m,
                                      container=panel, object_id="#primary_button")
        self.play_selected.disable()
        self.quit_button = UIButton(pygame.Rect(30 + cw // 2 + 6, 312 + list_h, cw // 2 - 6, 44), "Quit", m,
                                    container=panel)
        if self.message:
            UITextBox(f"<font color='#ff8a80'>{html.escape(self.message)}</font>",
                      pygame.Rect(30, 364 + list_h, cw, 160), m, container=panel)
        else:
            UITextBox(CONTROLS_HTML, pygame.Rect(30, 364 + list_h, cw, 160), m, container=panel)

    def _play_label(self) -> str:
        """The big button's text: the opponent chosen and the default battle; the battle's name cut to fit the
        button (the opponent's words stay whole)."""
        label = "Start hotseat battle" if self.app.opponent is None else f"Start battle vs {self.app.opponent.words}"
        if self.default.exists():
            room = self.play_w - 24
            title = scenario_title(self.default)
            left = room - font(20, True).size(label + ":  ")[0]
            if font(20, True).size(label + ":  " + title)[0] > room and left >= font(20, True).size("Abc…")[0]:
                title = fit_text(title, 20, left, bold=True)
            label += f":  {title}"
        return label

    def start(self, path: Path) -> None:
        """Start a battle of ``path`` against the opponent chosen (hotseat or the computer)."""
        self.app.start_battle(str(path), self.app.opponent)

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        if self.saves is not None:
            self.saves.kill()
        if self.saves_button is not None:
            self.saves_button.kill()
        self.saves = self.saves_button = None

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Buttons, list selection, Enter (default battle) and Escape (quit)."""
        if self.saves is not None and self.saves.handle(event):
            return
        if self.picker is not None and self.picker.handle(event):
            if self.play_default is not None:
                self.play_default.set_text(self._play_label())
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.saves_button:
            self.app.switch(SavesScene(self.app))
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is getattr(self, "lessons_button", None):
                self.app.switch(LessonsScene(self.app))
                return
            if event.ui_element is getattr(self, "setup_button", None):
                self.app.open_setup()
                return
            if event.ui_element is self.play_default:
                self.start(self.default)
            elif event.ui_element is self.play_selected and self.list is not None:
                chosen = self.list.get_single_selection()
                if isinstance(chosen, str) and chosen in self.by_label:
                    self.start(self.by_label[chosen])
            elif event.ui_element is self.quit_button:
                self.app.quit()
        elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and self.play_selected is not None:
            self.play_selected.enable()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and event.text in self.by_label:
            self.start(self.by_label[event.text])
        elif event.type == pygame.KEYDOWN and not consumed:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.default.exists():
                self.start(self.default)
            elif event.key == pygame.K_ESCAPE:
                self.app.quit()

    def draw(self, screen: pygame.Surface) -> None:
        """A plain background with the players' colours at the edges."""
        screen.fill(palette.BACKGROUND)
        w, h = screen.get_size()
        pygame.draw.rect(screen, palette.PLAYER[1], (0, h - 8, w, 8))
        pygame.draw.rect(screen, palette.PLAYER[2], (0, 0, w, 8))
