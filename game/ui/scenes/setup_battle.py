"""Set-up step 4: name the battle, check both lists and the table, then start it (or save it as a scenario).

"Start battle" writes the set-up as a scenario (``write_scenario``, units without poses) in the user data folder
(``user_data_dir()/scenarios``) and starts it with ``App.start_battle``: the battle scene then runs the rulebook's
deployment (roll-off, edges, alternating placement in the 12" zones, Scout and Ambush, the first-turn roll-off).
"Save scenario" writes the same file under the battle's name, for ``python main.py check`` and ``play``.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UICheckBox,
    UIDropDownMenu,
    UIImage,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)

from game.engine.objectives import MISSIONS
from game.scenario import ScenarioError
from game.ui.draw_terrain import StaticLayer
from game.ui.palette import PLAYER_HTML
from game.ui.scenes.setup_base import SetupScene
from game.ui.scenes.setup_state import ROUND_CHOICES, TABLE_SIZE, SetupState, guideline_report, points_summary
from game.ui.table_view import TableView

if TYPE_CHECKING:
    from game.ui.app import App

OPTIONAL_RULES: dict[str, tuple[str, str]] = {
    "random_charge_distance": ("Random charge distances", "AoWFBR \"Optional Rules\": charge range is Advance + 6\"; "
                               "each declared charge rolls 2D6, highest + Advance, and fails if short"),
}
"""Optional rules offered as check boxes (scenario ``options``). Random Scatter for Artillery (rulebook "Optional
Rules") is not offered: the engine cannot play it yet, and a box that changes nothing would make the players
believe a rule is applied (docs/rulings.md)."""

MISSION_CHOICES: dict[str, tuple[str, str]] = {
    "none": ("No mission", "Victory points from the enemy units destroyed and damaged only (AoWFBR \"Victory "
                           "Points\")."),
    **{key: (m.name, f"{m.name}: {m.summary}. Markers are seized at the end of each round by a side alone within "
                     "3\" (AoF:R 2.16 \"Extra Missions\"; victory points x 100 as AoWFBR allows).")
       for key, m in MISSIONS.items()},
    "random": ("Random mission", "One die picks the mission when the battle starts (AoF:R 2.16 \"Random Mission "
                                 "Selection\")."),
}
"""The missions offered (scenario ``mission``): label and what it means."""

NEXT_HTML = (
    "<b>When you press Start battle</b><br>"
    "0. With a <b>mission</b>, the objective markers come first: a roll-off, then the players place them in turn "
    "by clicking the table (some missions place them by their own rule).<br>"
    "1. <b>Deployment roll-off.</b> Each player rolls a die. The winner picks the long table edge they deploy on "
    "and who places the first unit.<br>"
    "2. <b>Scout and Ambush</b> units may be set aside first (the window asks when you have some).<br>"
    "3. <b>Placing units.</b> Players take turns placing one unit each, fully within 12\" of their own edge: "
    "your zone is drawn on the table. Click inside it, turn the unit with Q/E or the wheel, press Enter. A "
    "placement that breaks a rule is refused and the rule is shown where you tried.<br>"
    "4. <b>Scouts</b> are placed last and may move up to 12\" more.<br>"
    "5. <b>First turn.</b> Another roll-off (+1 for the player who finished deploying first); the winner picks "
    "who plays first. Then round 1 begins.<br><br>"
    "The screen turns to the player who must decide, with a hand-over screen in between."
)
"""What happens after Start battle, for a first-time player (rulebook "Deploying Armies", "Playing the Game")."""


def army_summary_html(state: SetupState, player: int) -> str:
    """One player's list in a few lines: army, points, units, General, ready or the problems."""
    lst = state.army_list(player)
    colour = PLAYER_HTML[player]
    text, ok = points_summary(lst)
    units = len(lst.unit_ids())
    general = next((p for uid, p in lst.heroes() if uid == lst.general), None)
    lines = [f"<font color='{colour}'><b>Player {player}</b></font> — <b>{html.escape(lst.display_name)}</b>",
             f"<font color='{'#c8d0d6' if ok else '#ff8a80'}'>{html.escape(text)}</font> · {units} "
             f"unit{'s' if units != 1 else ''} · General: {html.escape(general or 'none')}"]
    problems = state.problems(player)
    if problems:
        lines.append(f"<font color='#ff8a80'>⚠ {html.escape(problems[0])}"
                     + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
                     + f" — fix it in step {player}</font>")
    else:
        lines.append("<font color='#8fd6a0'>✓ ready</font>")
    return "<br>".join(lines)


def table_summary_html(state: SetupState) -> str:
    """The table in one line: pieces and how many guideline checks it meets."""
    report = [line for line in guideline_report(state.terrain) if line.ok is not None]
    met = sum(1 for line in report if line.ok)
    missed = [line.label.lower() for line in report if not line.ok]
    text = f"<b>Table</b>: {len(state.terrain)} terrain pieces · meets {met} of {len(report)} guideline checks"
    if missed:
        text += f" <font color='#ffcc80'>(not: {html.escape(', '.join(missed))})</font>"
    return text


class StartScene(SetupScene):
    """Set-up step 4: battle name, rounds, optional rules, a summary, Start battle and Save scenario."""

    step = 4

    def __init__(self, app: App, state: SetupState) -> None:
        super().__init__(app, state)
        state.ensure_table()
        self.name_entry: UITextEntryLine | None = None
        self.rounds_menu: UIDropDownMenu | None = None
        self.mission_menu: UIDropDownMenu | None = None
        self.option_boxes: dict[UICheckBox, str] = {}
        self.start_button: UIButton | None = None
        self.save_button: UIButton | None = None
        self.saved_box: UITextBox | None = None
        self.saved_path: Path | None = None
        """The last scenario file written by Save scenario."""
        self.started_path: Path | None = None
        """The scenario file written by Start battle."""
        self.preview_rect = pygame.Rect(0, 0, 0, 0)

    def build_body(self, rect: pygame.Rect) -> None:
        """Battle settings and summary on the left, what happens next and the buttons on the right."""
        m = self.app.manager
        top, h = rect.y + 8, rect.h - 16
        lw = min(760, int(rect.w * 0.52))
        left = UIPanel(pygame.Rect(10, top, lw, h), starting_height=1, manager=m)
        self.widgets.append(left)
        w = lw - 24
        UILabel(pygame.Rect(10, 8, w, 22), "THE BATTLE", m, container=left, object_id="#section_title")
        UILabel(pygame.Rect(10, 34, 70, 32), "Name", m, container=left)
        self.name_entry = UITextEntryLine(pygame.Rect(80, 34, w - 250, 32), m, container=left,
                                          placeholder_text=self.state.battle_name())
        self.name_entry.set_text_length_limit(60)
        self.name_entry.set_text(self.state.name)
        UILabel(pygame.Rect(w - 160, 34, 70, 32), "Rounds", m, container=left)
        self.rounds_menu = UIDropDownMenu([str(r) for r in ROUND_CHOICES], str(self.state.rounds),
                                          pygame.Rect(w - 90, 34, 100, 32), m, container=left)
        self.option_boxes = {}
        x = 10
        for key, (label, tip) in OPTIONAL_RULES.items():
            box = UICheckBox(pygame.Rect(x, 78, 20, 20), label, m, container=left,
                             initial_state=bool(self.state.options.get(key, False)), tool_tip_text=tip)
            self.option_boxes[box] = key
            x += max(260, w // 2)
        labels: list[str | tuple[str, str]] = [label for label, _ in MISSION_CHOICES.values()]
        chosen = MISSION_CHOICES.get(self.state.mission, MISSION_CHOICES["none"])[0]
        mission_x = x if OPTIONAL_RULES else 0       # after the optional rules' boxes, if any
        UILabel(pygame.Rect(mission_x + 10, 74, 70, 30), "Mission", m, container=left)
        self.mission_menu = UIDropDownMenu(labels, chosen, pygame.Rect(mission_x + 80, 74, 250, 30), m,
                                           container=left)
        self.mission_menu.set_tooltip(MISSION_CHOICES.get(self.state.mission, MISSION_CHOICES["none"])[1])
        UITextBox(army_summary_html(self.state, 1), pygame.Rect(10, 112, w, 74), m, container=left)
        UITextBox(army_summary_html(self.state, 2), pygame.Rect(10, 192, w, 74), m, container=left)
        UITextBox(table_summary_html(self.state), pygame.Rect(10, 272, w, 50), m, container=left)
        UITextBox(NEXT_HTML, pygame.Rect(10, 330, w, h - 342), m, container=left)
        right = UIPanel(pygame.Rect(20 + lw, top, rect.w - lw - 30, h), starting_height=1, manager=m)
        self.widgets.append(right)
        rw = rect.w - lw - 54
        title = "THE TABLE" if rw < 600 else "THE TABLE (PLAYER 1'S EDGE AT THE BOTTOM UNTIL THE ROLL-OFF)"
        UILabel(pygame.Rect(10, 8, rw, 22), title, m, container=right, object_id="#section_title")
        pw = min(rw, int((h - 270) * TABLE_SIZE[0] / TABLE_SIZE[1]))
        ph = int(pw * TABLE_SIZE[1] / TABLE_SIZE[0])
        self.preview_rect = pygame.Rect(10 + (rw - pw) // 2, 34, pw, ph)
        UIImage(self.preview_rect, self.render_preview(pw, ph), m, container=right)
        y = 44 + ph
        self.start_button = UIButton(pygame.Rect(10, y, rw, 64), "Start battle ▶", m, container=right,
                                     object_id="#big_button",
                                     tool_tip_text="Write the battle to your data folder and start deployment")
        self.save_button = UIButton(pygame.Rect(10, y + 72, rw, 38), "Save scenario", m, container=right,
                                    tool_tip_text="Write this battle as a scenario file to play it later")
        self.saved_box = UITextBox("", pygame.Rect(10, y + 118, rw, max(70, h - y - 130)), m, container=right)
        self._show_saved()
        if not self.state.ready():
            self.say("A list is not ready yet: see the problems on the left (steps 1 and 2).", bad=True)

    def _show_saved(self) -> None:
        if self.saved_box is None:
            return
        if self.saved_path is None:
            self.saved_box.set_text("<font color='#9aa4ac'>Save scenario writes this battle to your data folder: "
                                    "the main menu lists it (★) to play again; a terminal can open it too with "
                                    "<b>python main.py play FILE</b>.</font>")
            return
        p = html.escape(str(self.saved_path))
        self.saved_box.set_text(f"<font color='#8fd6a0'><b>Saved</b></font> {p}<br>"
                                "The main menu lists it (★) to play again.<br>"
                                f"Check it: <b>python main.py check {p}</b><br>"
                                f"Play it: <b>python main.py play {p}</b>")

    def leave_step(self) -> None:
        """Keep the battle's name as typed."""
        if self.name_entry is not None:
            self.state.name = self.name_entry.get_text().strip()

    def handle_body_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Start, Save, rounds and optional rules."""
        t = event.type
        if t == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start_button:
                self.start()
            elif event.ui_element is self.save_button:
                self.save()
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.rounds_menu:
            self.state.rounds = int(event.text)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.mission_menu:
            key = next((k for k, (label, _) in MISSION_CHOICES.items() if label == event.text), "none")
            self.state.mission = key
            self.mission_menu.set_tooltip(MISSION_CHOICES[key][1])
        elif t in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED) \
                and event.ui_element in self.option_boxes:
            key = self.option_boxes[event.ui_element]
            if t == pygame_gui.UI_CHECK_BOX_CHECKED:
                self.state.options[key] = True
            else:
                self.state.options.pop(key, None)

    def _check_ready(self) -> bool:
        for player in (1, 2):
            problems = self.state.problems(player)
            if problems:
                self.say(f"Player {player}'s list is not ready: {problems[0]}", bad=True)
                return False
        return True

    def save(self) -> Path | None:
        """Write the battle as ``scenarios/<name>.yaml`` in the user data folder; returns the path or None."""
        self.leave_step()
        if not self._check_ready():
            return None
        path = self.state.save_path()
        try:
            self.state.write(path)
        except (ScenarioError, ValueError, OSError) as e:
            self.say(f"Could not save the scenario: {e}", bad=True)
            return None
        self.saved_path = path
        self.say(f"Saved the scenario to {path}")
        self._show_saved()
        return path

    def start(self) -> None:
        """Write the battle to a fresh scenario file and start it (deployment comes first)."""
        self.leave_step()
        if not self._check_ready():
            return
        path = self.state.battle_path()
        try:
            self.state.write(path)
        except (ScenarioError, ValueError, OSError) as e:
            self.say(f"Could not write the battle: {e}", bad=True)
            return
        self.started_path = path
        self.app.start_battle(str(path))

    def render_preview(self, width: int, height: int) -> pygame.Surface:
        """The table and its terrain drawn small (``width`` x ``height`` pixels)."""
        terrain = self.state.terrain
        layer = StaticLayer(TABLE_SIZE[0], TABLE_SIZE[1], [p.to_shape(i) for i, p in enumerate(terrain)],
                            [p.kind for p in terrain])
        surf = pygame.Surface((width, height))
        surf.fill((28, 31, 34))
        layer.draw(surf, TableView(pygame.Rect(0, 0, width, height), *TABLE_SIZE))
        return surf
