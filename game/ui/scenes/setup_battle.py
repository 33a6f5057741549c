"""Set-up step 4: name the battle, check both lists and the table, then start it (or save it as a scenario).

"Start battle" writes the set-up as a scenario (``write_scenario``, units without poses) in the user data folder
(``user_data_dir()/scenarios``) and starts it with ``Window.start_battle``: the battle scene then runs the rulebook's
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

from game.engine import deployment_styles
from game.engine.artillery_scatter import TYPE_NAMES, profile_type
from game.engine.deployment_styles import STYLES
from game.engine.objectives import MISSIONS
from game.engine.state import Table
from game.scenario import ScenarioError
from game.setup.ruleset_offer import RulesetOffer, offer
from game.ui.draw_terrain import StaticLayer
from game.ui.opponent_picker import OpponentPicker
from game.ui.overlays import draw_zone_polygon
from game.ui.palette import PLAYER, PLAYER_HTML
from game.ui.scenes.setup_base import SetupScene
from game.ui.scenes.setup_ruleset import RulesetChooser
from game.ui.scenes.setup_state import ROUND_CHOICES, TABLE_SIZE, SetupState, guideline_report, points_summary
from game.ui.table_view import TableView
from game.ui.tip_drop_down import TipDropDown

if TYPE_CHECKING:
    from game.ui.window import Window

OPTIONAL_RULES: dict[str, tuple[str, str]] = {
    "random_charge_distance": ("Random charge distances", "AoWFBR \"Optional Rules\": charge range is Advance + 6\"; "
                               "each declared charge rolls 2D6, highest + Advance, and fails if short"),
    "artillery_scatter": ("Random scatter for artillery", "AoWFBR \"Optional Rules\": stone throwers, mortars and "
                          "rocket batteries (type 2) and cannons (type 3) fire at a point on the table, which may "
                          "scatter (scatter die, artillery die) or misfire; each list shows its artillery's type"),
}
"""Optional rules offered as check boxes (scenario ``options``), one under the other."""

MISSION_CHOICES: dict[str, tuple[str, str]] = {
    "none": ("No mission", "Victory points from the enemy units destroyed and damaged only (AoWFBR \"Victory "
                           "Points\")."),
    **{key: (m.name, f"{m.name}: {m.summary}. Markers are seized at the end of each round by a side alone within "
                     "3\" (AoF:R 2.16 \"Extra Missions\"; victory points x 100 as AoWFBR allows).")
       for key, m in MISSIONS.items()},
    "random": ("Random mission", "One die picks the mission when the battle starts (AoF:R 2.16 \"Random Mission "
                                 "Selection\")."),
}
"""Every mission the set-up knows (scenario ``mission``): label and what it means under AoWFBR 1.4
(``mission_choices`` gives the ones a ruleset plays, in its words)."""


def mission_choices(rules: RulesetOffer) -> dict[str, tuple[str, str]]:
    """The missions offered under the battle's ruleset (``RulesetOffer.missions``), label and what it means: a
    ruleset whose mission decides the winner its own way (``mission_text``) says so instead of AoWFBR's victory
    points."""
    out = {}
    for key in rules.missions:
        label, text = MISSION_CHOICES[key]
        if rules.mission_text is not None and key in MISSIONS:
            m = MISSIONS[key]
            text = f"{m.name}: {m.placing}; at the end {m.goal}; {rules.mission_text} ({rules.title})."
        out[key] = (label, text)
    return out

DEPLOYMENT_CHOICES: dict[str, tuple[str, str]] = {
    **{key: (st.name, f"{st.name}: each player's zone is {st.summary} (AoF:R 2.16 \"Deployment Styles\"; the zones "
                      "are drawn on the table when you deploy).") for key, st in STYLES.items()},
    "random": ("Random deployment", "One die picks the deployment style when the battle starts, before the mission "
                                    "(AoF:R 2.16 \"Random Deployment Style\")."),
}
"""The deployment styles offered (scenario ``deployment``): label and what it means."""

SIDE_MISSION_CHOICES: dict[str, tuple[str, str]] = {
    "none": ("No side-missions", "No side-missions."),
    "shared": ("Shared", "Each player selects one side-mission openly; both players can complete both."),
    "hidden": ("Hidden", "Each player selects one side-mission in secret, behind the hand-over screen; only they "
                         "can complete it. Revealed at the end."),
    "shared_hidden": ("Shared + Hidden", "A roll-off: the winner selects one side-mission openly (both can "
                                         "complete it), then each player selects one in secret."),
    "random": ("Random playstyle", "A D3 picks Shared, Hidden or Shared + Hidden when the battle starts."),
}
"""The side-mission playstyles offered (scenario ``side_missions.playstyle``): label and what it means."""

SELECTION_CHOICES: dict[str, tuple[str, str]] = {
    "free": ("Free choice", "Pick any side-mission of any category."),
    "limited": ("Limited", "Roll a D3 for the category, then pick any side-mission of it."),
    "randomized": ("Randomized", "Roll a D3 for the category and a D6 for the side-mission (re-rolled when it "
                                 "cannot be completed)."),
    "random": ("Random method", "A D3 picks Free, Limited or Randomized when the battle starts."),
}
"""The side-mission selection methods offered (scenario ``side_missions.selection``)."""

SIDE_MISSIONS_TIP = ("AoF:R 2.16 \"Side-Missions\": each one completed at the end of the battle is worth 1 victory "
                     "point (AoWFBR: 100, mission VP x 100, added to its victory points; AoF:R: the mission's VP and "
                     "the side-missions' decide the winner instead of the mission).")

NEXT_HTML = (
    "<b>When you press Start battle</b><br>"
    "0. A random <b>deployment style</b> or mission is rolled first; with <b>side-missions</b> each player then "
    "selects theirs (hidden ones behind the hand-over screen). With a <b>mission</b>, the objective markers come "
    "next: a roll-off, then the players place them in turn by clicking the table (some missions place them by "
    "their own rule).<br>"
    "1. <b>Deployment roll-off.</b> Each player rolls a die. The winner picks the side they deploy on (with the "
    "deployment style's zones drawn) and who places the first unit.<br>"
    "2. <b>Scout and Ambush</b> units may be set aside first (the window asks when you have some).<br>"
    "3. <b>Placing units.</b> Players take turns placing one unit each, fully within their deployment zone "
    "(12\" from their own edge in Front Line): your zone is drawn on the table. Click inside it, turn the unit "
    "with Q/E or the wheel, press Enter. A "
    "placement that breaks a rule is refused and the rule is shown where you tried.<br>"
    "4. <b>Scouts</b> are placed last and may move up to 12\" more.<br>"
    "5. <b>First turn.</b> {first_turn}.<br><br>"
    "The screen turns to the player who must decide, with a hand-over screen in between (against the computer "
    "there is none: it decides for its side and says why in the log)."
)
"""What happens after Start battle, for a first-time player (rulebook "Deploying Armies", "Playing the Game");
``{first_turn}`` is the ruleset's ``first_turn_text`` (``next_html``)."""


def next_html(rules: RulesetOffer) -> str:
    """``NEXT_HTML`` for a battle under ``rules``' ruleset."""
    text = rules.first_turn_text
    return NEXT_HTML.replace("{first_turn}", html.escape(text[:1].upper() + text[1:]))


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
    kinds = artillery_types(state, player) if "artillery_scatter" in offer(state.ruleset).options else ""
    if kinds:
        lines.append("<font color='#ffc45a'>Artillery (Random scatter): " + html.escape(kinds) + "</font>")
    if problems:
        first = problems[0].split("; it plays: ")[0]     # the loader's list of what a ruleset plays: in step 1
        lines.append(f"<font color='#ff8a80'>⚠ {html.escape(first)}"
                     + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
                     + f" — fix it in step {player}</font>")
    else:
        lines.append("<font color='#8fd6a0'>✓ ready</font>")
    return "<br>".join(lines)


def artillery_types(state: SetupState, player: int) -> str:
    """Each artillery unit of the list with the type it plays under Random Scatter for Artillery (rulebook
    "Artillery Types": the profile's ``artillery_type`` or the type its weapons give), e.g. "Rock Lobber: type 2
    (stone thrower)"; empty without artillery."""
    lst = state.army_list(player)
    out = []
    for e in lst.entries:
        prof = lst.army.profiles.get(e.profile)
        kind = profile_type(prof) if prof is not None else None
        if kind is not None:
            out.append(f"{e.profile}: type {kind} ({TYPE_NAMES[kind].split(' / ')[0]})")
    return "; ".join(out)


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

    def __init__(self, app: Window, state: SetupState) -> None:
        super().__init__(app, state)
        state.ensure_table()
        self.name_entry: UITextEntryLine | None = None
        self.rounds_menu: UIDropDownMenu | None = None
        self.mission_menu: UIDropDownMenu | None = None
        self.deployment_menu: UIDropDownMenu | None = None
        self.side_menu: UIDropDownMenu | None = None
        self.selection_menu: UIDropDownMenu | None = None
        self.option_boxes: dict[UICheckBox, str] = {}
        self.ruleset_chooser: RulesetChooser | None = None
        """The ruleset both players agree on (``setup_ruleset``)."""
        self.rules: RulesetOffer = offer(state.ruleset)
        """What the battle's ruleset plays (``game.setup.ruleset_offer.offer``)."""
        self.start_button: UIButton | None = None
        self.picker: OpponentPicker | None = None
        """Hotseat or the computer, and its level (``Window.opponent``, shared with the main menu)."""
        self.save_button: UIButton | None = None
        self.saved_box: UITextBox | None = None
        self.saved_path: Path | None = None
        """The last scenario file written by Save scenario."""
        self.started_path: Path | None = None
        """The scenario file written by Start battle."""
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        self.preview: UIImage | None = None

    def build_body(self, rect: pygame.Rect) -> None:
        """Battle settings and summary on the left, what happens next and the buttons on the right."""
        m = self.app.manager
        top, h = rect.y + 8, rect.h - 16
        lw = min(760, int(rect.w * 0.52))
        left = UIPanel(pygame.Rect(10, top, lw, h), starting_height=1, manager=m)
        self.widgets.append(left)
        w = lw - 24
        rules = self.rules = offer(self.state.ruleset)
        UILabel(pygame.Rect(10, 8, w, 22), "THE BATTLE", m, container=left, object_id="#section_title")
        # the ruleset first: everything below follows it (``setup_ruleset``)
        UILabel(pygame.Rect(10, 34, 70, 32), "Ruleset", m, container=left)
        self.ruleset_chooser = RulesetChooser(self.state, pygame.Rect(80, 34, min(420, w - 80), 32), m, left,
                                              short=w < 560)
        UILabel(pygame.Rect(10, 72, 70, 32), "Name", m, container=left)
        self.name_entry = UITextEntryLine(pygame.Rect(80, 72, w - 250, 32), m, container=left,
                                          placeholder_text=self.state.battle_name())
        self.name_entry.set_text_length_limit(60)
        self.name_entry.set_text(self.state.name)
        UILabel(pygame.Rect(w - 160, 72, 70, 32), "Rounds", m, container=left)
        self.rounds_menu = TipDropDown([str(r) for r in ROUND_CHOICES], str(self.state.rounds),
                                          pygame.Rect(w - 90, 72, 100, 32), m, container=left)
        self.option_boxes = {}
        top_y = 116
        y = top_y
        for key, (label, tip) in OPTIONAL_RULES.items():      # one under the other, the mission beside them
            if key not in rules.options:                        # not part of this ruleset
                continue
            box = UICheckBox(pygame.Rect(10, y, 20, 20), label, m, container=left,
                             initial_state=bool(self.state.options.get(key, False)), tool_tip_text=tip)
            self.option_boxes[box] = key
            y += 26
        mission_x = max(300, w // 2)
        if not self.option_boxes:
            UILabel(pygame.Rect(10, y, mission_x - 10, 24), f"No optional rules in {rules.short_title}", m,
                    container=left, object_id="#hud_hint").set_tooltip(
                f"{rules.title} has no optional rules here (AoWFBR 1.4's random charge distances and artillery "
                "scatter are not part of it).")
            y += 26
        missions = mission_choices(rules)
        labels: list[str | tuple[str, str]] = [label for label, _ in missions.values()]
        chosen = missions.get(self.state.mission, next(iter(missions.values())))
        drop_w = min(250, w - mission_x - 100)
        UILabel(pygame.Rect(mission_x + 10, top_y - 4, 90, 30), "Mission", m, container=left)
        self.mission_menu = TipDropDown(labels, chosen[0], pygame.Rect(mission_x + 100, top_y - 4, drop_w, 30),
                                           m, container=left)
        self.mission_menu.set_tooltip(chosen[1])
        # the deployment style under the mission (right column), the side-missions below the optional rules
        side_y = max(y + 4, top_y + 72)
        self._build_deployment_and_side_missions(left, w, mission_x, drop_w, side_y)
        y0 = side_y + 38
        long = any(len(self.state.problems(p)[:1][0]) > 60 for p in (1, 2) if self.state.problems(p))
        tall = 96 if long or "artillery_scatter" in rules.options and (artillery_types(self.state, 1)
                                                                        or artillery_types(self.state, 2)) else 74
        UITextBox(army_summary_html(self.state, 1), pygame.Rect(10, y0, w, tall), m, container=left)
        UITextBox(army_summary_html(self.state, 2), pygame.Rect(10, y0 + 6 + tall, w, tall), m, container=left)
        y = y0 + 12 + 2 * tall
        UITextBox(table_summary_html(self.state), pygame.Rect(10, y, w, 50), m, container=left)
        UITextBox(next_html(rules), pygame.Rect(10, y + 58, w, max(40, h - y - 70)), m, container=left)
        right = UIPanel(pygame.Rect(20 + lw, top, rect.w - lw - 30, h), starting_height=1, manager=m)
        self.widgets.append(right)
        rw = rect.w - lw - 54
        title = "THE TABLE" if rw < 600 else "THE TABLE (PLAYER 1'S EDGE AT THE BOTTOM UNTIL THE ROLL-OFF)"
        UILabel(pygame.Rect(10, 8, rw, 22), title, m, container=right, object_id="#section_title")
        pw = min(rw, int((h - 310) * TABLE_SIZE[0] / TABLE_SIZE[1]))
        ph = int(pw * TABLE_SIZE[1] / TABLE_SIZE[0])
        self.preview_rect = pygame.Rect(10 + (rw - pw) // 2, 34, pw, ph)
        self.preview = UIImage(self.preview_rect, self.render_preview(pw, ph), m, container=right)
        self.picker = OpponentPicker(self.app, pygame.Rect(10, 42 + ph, rw, 32), right)
        y = 84 + ph
        self.start_button = UIButton(pygame.Rect(10, y, rw, 64), self._start_label(), m, container=right,
                                     object_id="#big_button",
                                     tool_tip_text="Write the battle to your data folder and start deployment "
                                                   "against the opponent chosen above")
        self.save_button = UIButton(pygame.Rect(10, y + 72, rw, 38), "Save scenario", m, container=right,
                                    tool_tip_text="Write this battle as a scenario file to play it later")
        self.saved_box = UITextBox("", pygame.Rect(10, y + 118, rw, max(70, h - y - 130)), m, container=right)
        self._show_saved()
        if not self.state.ready():
            self.say("A list is not ready yet: see the problems on the left (steps 1 and 2).", bad=True)

    def _start_label(self) -> str:
        seat = self.app.opponent
        return "Start battle ▶" if seat is None else f"Start battle vs {seat.words} ▶"

    def _build_deployment_and_side_missions(self, left: UIPanel, w: int, column_x: int, drop_w: int,
                                            side_y: int) -> None:
        """The deployment style drop-down under the mission's (at ``column_x``, ``drop_w`` wide) and the
        side-missions' playstyle and selection in a row at ``side_y``."""
        m = self.app.manager
        label_w = 120
        rules = self.rules
        deployments = {k: DEPLOYMENT_CHOICES[k] for k in rules.deployments}
        UILabel(pygame.Rect(column_x + 10, side_y - 38, 90, 30), "Deployment", m, container=left)
        chosen = deployments.get(self.state.deployment, next(iter(deployments.values())))
        self.deployment_menu = TipDropDown([label for label, _ in deployments.values()], chosen[0],
                                              pygame.Rect(column_x + 100, side_y - 38, drop_w, 30), m,
                                              container=left)
        self.deployment_menu.set_tooltip(chosen[1])
        UILabel(pygame.Rect(10, side_y, label_w, 30), "Side-missions", m, container=left)
        style = self.state.side_missions[0] if self.state.side_missions else "none"
        how = self.state.side_missions[1] if self.state.side_missions else "free"
        styles = SIDE_MISSION_CHOICES if rules.side_missions else {"none": SIDE_MISSION_CHOICES["none"]}
        self.side_menu = TipDropDown([label for label, _ in styles.values()],
                                        SIDE_MISSION_CHOICES[style][0], pygame.Rect(10 + label_w, side_y, 250, 30), m,
                                        container=left)
        self.side_menu.set_tooltip(f"{SIDE_MISSION_CHOICES[style][1]} {SIDE_MISSIONS_TIP}")
        if not rules.side_missions:         # shown, with the reason
            self.side_menu.disable()  # type: ignore[no-untyped-call]
            self.side_menu.set_tooltip(f"{rules.title} is played without side-missions: the mission alone "
                                       "decides the winner.")
        self.selection_menu = TipDropDown([label for label, _ in SELECTION_CHOICES.values()],
                                             SELECTION_CHOICES[how][0],
                                             pygame.Rect(20 + label_w + 250, side_y, min(200, w - label_w - 270),
                                                         30),
                                             m, container=left)
        self.selection_menu.set_tooltip(SELECTION_CHOICES[how][1])
        if style == "none":
            self.selection_menu.disable()  # type: ignore[no-untyped-call]
        if not rules.side_missions:
            self.selection_menu.set_tooltip(self.side_menu.tool_tip_text or "")

    def _side_missions_changed(self, playstyle: str | None = None, selection: str | None = None) -> None:
        current = self.state.side_missions
        style = playstyle or (current[0] if current else "none")
        how = selection or (current[1] if current else "free")
        self.state.side_missions = None if style == "none" else (style, how)
        if self.side_menu is not None and self.selection_menu is not None:
            self.side_menu.set_tooltip(f"{SIDE_MISSION_CHOICES[style][1]} {SIDE_MISSIONS_TIP}")
            self.selection_menu.set_tooltip(SELECTION_CHOICES[how][1])
            if style == "none":
                self.selection_menu.disable()  # type: ignore[no-untyped-call]
            else:
                self.selection_menu.enable()  # type: ignore[no-untyped-call]

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
        if self.picker is not None and self.picker.handle(event):
            if self.start_button is not None:
                self.start_button.set_text(self._start_label())
            return
        changed = self.ruleset_chooser.handle(event) if self.ruleset_chooser is not None else None
        if changed is not None:     # another ruleset: every menu below offers what it plays
            self.leave_step()
            self.say(f"Both players play {offer(self.state.ruleset).title}"
                     + (f" ({'; '.join(changed)})." if changed else "."))
            self.kill_ui()
            self.build_ui()
            return
        if t == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start_button:
                self.start()
            elif event.ui_element is self.save_button:
                self.save()
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.rounds_menu:
            self.state.rounds = int(event.text)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.mission_menu:
            missions = mission_choices(self.rules)
            key = next((k for k, (label, _) in missions.items() if label == event.text), self.rules.missions[0])
            self.state.mission = key
            self.mission_menu.set_tooltip(missions[key][1])
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.deployment_menu:
            key = next((k for k, (label, _) in DEPLOYMENT_CHOICES.items()
                        if label == event.text and k in self.rules.deployments), self.rules.deployments[0])
            self.state.deployment = key
            self.deployment_menu.set_tooltip(DEPLOYMENT_CHOICES[key][1])
            if self.preview is not None:      # the zones of the new style on the table
                self.preview.set_image(self.render_preview(self.preview_rect.w, self.preview_rect.h))
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.side_menu:
            self._side_missions_changed(playstyle=next((k for k, (label, _) in SIDE_MISSION_CHOICES.items()
                                                        if label == event.text), "none"))
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.selection_menu:
            self._side_missions_changed(selection=next((k for k, (label, _) in SELECTION_CHOICES.items()
                                                        if label == event.text), "free"))
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
        self.app.start_battle(str(path), self.app.opponent)

    def render_preview(self, width: int, height: int) -> pygame.Surface:
        """The table and its terrain drawn small (``width`` x ``height`` pixels), with the deployment zones of the
        style chosen (none for a random style: it is rolled when the battle starts)."""
        terrain = self.state.terrain
        layer = StaticLayer(TABLE_SIZE[0], TABLE_SIZE[1], [p.to_shape(i) for i, p in enumerate(terrain)],
                            [p.kind for p in terrain])
        surf = pygame.Surface((width, height))
        surf.fill((28, 31, 34))
        view = TableView(pygame.Rect(0, 0, width, height), *TABLE_SIZE)
        layer.draw(surf, view)
        if self.state.deployment in STYLES:
            table = Table(*TABLE_SIZE)
            for player in (1, 2):
                zone = deployment_styles.zone(self.state.deployment, table, player)
                draw_zone_polygon(surf, view, [(float(x), float(y)) for x, y in zone.exterior.coords[:-1]],
                                  PLAYER[player])
        return surf
