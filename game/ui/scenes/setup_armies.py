"""Set-up steps 1 and 2: one player builds an army list (rulebook "Preparing Your Army").

Three columns:

- **Army** (left): the army file, the game size both players agreed (750 or 1500 points), the optional Force
  Organisation rules, "My lists" (save this list, load a saved one, import one from Army Forge: a file dialog,
  then ``armyforge_review.ImportReview``) and the text of the last rule clicked.
- **Units** (middle): a short profile card per profile of the army (cost, Quality, Defense, models, special rules,
  weapons) with an Add button. Rule names are links: clicking one shows what it does.
- **Your list** (right): points used and left, the units chosen, an editor for the selected unit (copies combined,
  Sergeant / Musician / Banner, the hero deployed with it, General, remove) and the list's problems, checked live
  with ``game.setup.army_list.validate``.
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
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from game.armyforge.convert import Plan
from game.armyforge.export import ExportRefused
from game.armyforge.importer import default_paths, plan_import, write_import
from game.engine.profiles import Profile, parse_rule
from game.engine.special_rules import RULES, UPGRADES_INFO
from game.files import imported_armies_dir
from game.reader import peek_mapping
from game.setup.army_list import UPGRADE_ORDER, ArmyList, ArmyListError, ListEntry, allowed_copies
from game.setup.ruleset_offer import force_org_words as force_org_words_of
from game.setup.ruleset_offer import offer, rules_not_played
from game.ui.palette import PLAYER_HTML
from game.ui.scenes.armyforge_review import ImportReview
from game.ui.scenes.setup_base import LIST_ID, SetupScene
from game.ui.scenes.setup_ruleset import RulesetChooser
from game.ui.scenes.setup_state import (
    GAME_SIZES,
    SetupState,
    army_files,
    army_name,
    entry_label,
    force_org_words,
    hero_choices,
    join_standalone_hero,
    points_summary,
    saved_lists,
    set_copies,
)
from game.ui.tip_drop_down import TipDropDown
from game.ui.unit_card import weapon_text

if TYPE_CHECKING:
    from game.ui.window import Window

NO_HERO = "none"
"""The hero drop-down's entry for a unit without a hero."""
ON_ITS_OWN = "stays on its own"
"""The join drop-down's entry for a hero that is a unit of its own."""


def rule_links(rules: tuple[str, ...]) -> str:
    """Special rules as HTML links (clicking one shows its text)."""
    out = []
    for text in rules:
        try:
            name, _ = parse_rule(text)
        except ValueError:
            out.append(html.escape(text))
            continue
        out.append(f"<a href='{html.escape(text)}'>{html.escape(text)}</a>")
    return ", ".join(out)


def profile_card_html(prof: Profile, not_played: tuple[str, list[str]] | None = None) -> str:
    """A short profile card: name and cost, Quality, Defense, models, special rules (links), weapons; with
    ``not_played`` (the battle's ruleset's title, the rules of the profile it does not play) a warning line."""
    models = f"{prof.size} models" if prof.size > 1 else "single model"
    head = f"<b>{html.escape(prof.name)}</b>   <font color='#ffd27a'>{prof.cost} pts</font>"
    if prof.is_hero:
        head += "   <font color='#ffd27a'>★ Hero</font>"
    stats = f"Quality <b>{prof.quality}+</b> · Defense <b>{prof.defense}+</b> · {models}"
    if prof.rules:
        stats += " · " + rule_links(prof.rules)
    weapons = []
    for w in prof.weapons:
        text = html.escape(weapon_text(w))
        for r in w.rules:   # weapon rules as links too
            try:
                name, _ = parse_rule(r)
            except ValueError:
                continue
            text = text.replace(html.escape(r), f"<a href='{html.escape(r)}'>{html.escape(r)}</a>", 1)
        weapons.append(text)
    lines = [head, stats]
    if weapons:
        lines.append("<font color='#c8d0d6'>" + " · ".join(weapons) + "</font>")
    if not_played is not None and not_played[1]:
        lines.append(f"<font color='#ff8a80'>⚠ {html.escape(not_played[0])} does not play "
                     f"{html.escape(', '.join(not_played[1]))}</font>")
    return "<br>".join(lines)


def rule_html(text: str) -> str:
    """What a special rule (as written, ``Impact(1)``) or command group upgrade does, with its value put in (the
    engine's summary), for the rules box."""
    try:
        name, value = parse_rule(text)
    except ValueError:
        name, value = text, None
    rule = RULES.get(name) or UPGRADES_INFO.get(name.lower())
    if rule is None:
        return f"<b>{html.escape(text)}</b>"
    return f"<b>{html.escape(rule.label(value))}</b><br>{html.escape(rule.text(value))}"


def saved_list_title(path: Path) -> str:
    """How a saved list is shown in "My lists": its name, army and points (read without validating)."""
    data = peek_mapping(path)
    if not data:
        return path.stem
    name = data.get("name") or path.stem
    army = Path(str(data.get("army", ""))).stem.replace("_", " ")
    return f"{name} — {army}, {data.get('points', '?')} pts"


class ArmyScene(SetupScene):
    """Set-up step 1 or 2: player ``player`` builds their army list."""

    def __init__(self, app: Window, state: SetupState, player: int) -> None:
        super().__init__(app, state)
        self.player = player
        self.step = player
        self.selected: str | None = None
        """Entry id of the unit being edited."""
        self.rule_shown = ("Click a rule name on a unit card to read what it does. Tick the boxes of the selected "
                           "unit for a command group.")
        self.files: list[Path] = []
        """Army files offered: the shipped ones, then the imported ones (set in ``_build_left``)."""
        self.army_labels: dict[str, Path] = {}
        self.saved_labels: dict[str, Path] = {}
        self.add_buttons: dict[UIButton, str] = {}
        self.cards: dict[str, UITextBox] = {}
        """The profile card of each profile (by name)."""
        self.copy_buttons: dict[UIButton, int] = {}
        self.upgrade_boxes: dict[UICheckBox, str] = {}
        self.hero_options: dict[str, str | None] = {}
        self.join_options: dict[str, str | None] = {}
        self.entry_rows: dict[str, str] = {}
        # widgets (set in build_body)
        self.army_menu: UIDropDownMenu | None = None
        self.points_menu: UIDropDownMenu | None = None
        self.ruleset_chooser: RulesetChooser | None = None
        """The ruleset both players agree on (``setup_ruleset``)."""
        self.force_box: UICheckBox | None = None
        self.force_text: UITextBox | None = None
        self.list_name: UITextEntryLine | None = None
        self.save_list_button: UIButton | None = None
        self.saved_list: UISelectionList | None = None
        self.load_button: UIButton | None = None
        self.import_button: UIButton | None = None
        self.file_dialog: UIFileDialog | None = None
        self.review: ImportReview | None = None
        """The Army Forge import review, while open."""
        self.rule_box: UITextBox | None = None
        self.catalogue: UIScrollingContainer | None = None
        self.points_box: UITextBox | None = None
        self.entries: UISelectionList | None = None
        self.editor: UIPanel | None = None
        self.hero_menu: UIDropDownMenu | None = None
        self.join_menu: UIDropDownMenu | None = None
        self.general_button: UIButton | None = None
        self.remove_button: UIButton | None = None
        self.problems_box: UITextBox | None = None
        self._right: UIPanel | None = None
        self._editor_extra: list[pygame_gui.core.UIElement] = []
        """Editor widgets placed in the list panel (drop-downs, so that their lists are not clipped)."""
        self._list_rect = pygame.Rect(0, 0, 0, 0)
        self._editor_rect = pygame.Rect(0, 0, 0, 0)

    @property
    def lst(self) -> ArmyList:
        """The list being built."""
        return self.state.army_list(self.player)

    # --- layout ---------------------------------------------------------------------------------------------
    def build_body(self, rect: pygame.Rect) -> None:
        """Army column, unit cards, the list."""
        top, h = rect.y + 8, rect.h - 16
        left_w = 350 if rect.w >= 1300 else 300 if rect.w >= 1150 else 250
        rest = rect.w - left_w - 40
        mid_w = int(rest * (0.47 if rect.w >= 1150 else 0.5))
        self._build_left(pygame.Rect(10, top, left_w, h))
        self._build_catalogue(pygame.Rect(20 + left_w, top, mid_w, h))
        self._build_list(pygame.Rect(30 + left_w + mid_w, top, rect.w - 40 - left_w - mid_w, h))
        self.refresh()

    def _stripe(self, panel: UIPanel, width: int) -> None:
        UIPanel(pygame.Rect(0, 0, width, 5), starting_height=1, manager=self.app.manager, container=panel,
                object_id=f"#stripe_p{self.player}")

    def _build_left(self, r: pygame.Rect) -> None:
        m = self.app.manager
        panel = UIPanel(r, starting_height=1, manager=m)
        self.widgets.append(panel)
        self._stripe(panel, r.w)
        w = r.w - 24
        UILabel(pygame.Rect(10, 12, w, 22), f"PLAYER {self.player} — " + ("ARMY" if w < 300 else "CHOOSE YOUR ARMY"),
                m, container=panel,
                object_id="#section_title")
        shipped = army_files()
        self.files = shipped + [p for p in army_files(imported_armies_dir()) if p not in shipped]
        self.army_labels = {}
        for p in self.files:
            label = army_name(p)
            while label in self.army_labels:
                label += " "
            self.army_labels[label] = p
        source = Path(self.lst.army.source).resolve() if self.lst.army.source is not None else None
        if source is not None and source not in self.army_labels.values():
            self.army_labels[self.lst.army.name] = source     # a loaded list whose army file is elsewhere
        current = next((n for n, p in self.army_labels.items()
                        if self.lst.army.source is not None and Path(self.lst.army.source).resolve() == p),
                       self.lst.army.name)
        options: list[str | tuple[str, str]] = list(self.army_labels) or [current]
        self.army_menu = TipDropDown(options, current if current in options else str(options[0]),
                                        pygame.Rect(10, 36, w, 34), m, container=panel)
        desc = self.lst.army.description or ""
        UITextBox(f"<font color='#c8d0d6'>{html.escape(desc)}</font>", pygame.Rect(10, 74, w, 66), m,
                  container=panel)
        UILabel(pygame.Rect(10, 148, w, 22),
                "RULES & SIZE — BOTH PLAYERS" if w < 300 else "RULESET AND GAME SIZE — BOTH PLAYERS", m,
                container=panel, object_id="#section_title")
        self.ruleset_chooser = RulesetChooser(self.state, pygame.Rect(10, 172, w, 32), m, panel,
                                              short=True)     # a narrow column: "AoF:R 2.16"
        rules = offer(self.state.ruleset)
        sizes: list[str | tuple[str, str]] = [f"{p} points" for p in GAME_SIZES]
        cur = f"{self.state.points} points"
        if cur not in sizes:
            sizes.append(cur)
        self.points_menu = TipDropDown(sizes, cur, pygame.Rect(10, 208, 150, 32), m, container=panel)
        self.points_menu.set_tooltip(f"{rules.title}: {rules.points_guideline}.")
        fx, fy, extra = (172, 214, 18) if w >= 320 else (10, 248, 48)
        book = f"{rules.short_title} \"Force Org. (optional)\"" if rules.own_force_org else \
            "rulebook \"Force Organisation (Optional)\""
        self.force_box = UICheckBox(pygame.Rect(fx, fy, 20, 20), "Force Organisation", m, container=panel,
                                    initial_state=self.state.force_org,
                                    tool_tip_text="Optional limits both players agree on: heroes, copies of a "
                                                  f"unit, unit cost and number of units ({book})."
                                                  if rules.force_org else
                                                  f"{rules.title} has no Force Organisation: "
                                                  f"{rules.points_guideline}.")
        if not rules.force_org:
            self.force_box.disable()  # type: ignore[no-untyped-call]
        self.force_text = UITextBox("", pygame.Rect(10, 226 + extra, w, 62), m, container=panel)
        UILabel(pygame.Rect(10, 292 + extra, w, 22), "MY LISTS" if w < 300 else "MY LISTS — SAVED ON THIS COMPUTER",
                m, container=panel,
                object_id="#section_title")
        self.list_name = UITextEntryLine(pygame.Rect(10, 316 + extra, w - 110, 32), m, container=panel,
                                         placeholder_text="Name of this list")
        self.list_name.set_text(self.lst.name or "")
        self.save_list_button = UIButton(pygame.Rect(w - 94, 316 + extra, 104, 32), "Save list", m, container=panel,
                                         tool_tip_text="Save this list to reuse it in another battle")
        self.saved_labels = {}
        for p in saved_lists():
            label = saved_list_title(p)
            while label in self.saved_labels:
                label += " "
            self.saved_labels[label] = p
        list_h = max(64, min(150, r.h - 600 - extra))
        items: list[str | tuple[str, str]] = list(self.saved_labels) or []
        self.saved_list = UISelectionList(pygame.Rect(10, 354 + extra, w, list_h), items, m, container=panel,
                                          object_id=LIST_ID)
        self.load_button = UIButton(pygame.Rect(10, 358 + extra + list_h, w, 32),
                                    "Load selected list" if items else "No saved lists yet", m, container=panel,
                                    tool_tip_text="Replace this list by the saved one (double-click works too)")
        self.load_button.disable()
        self.import_button = UIButton(pygame.Rect(10, 396 + extra + list_h, w, 32), "Import from Army Forge…", m,
                                      container=panel,
                                      tool_tip_text="Read a list exported from Army Forge ('Share as Text' saved "
                                                    "to a file, or the JSON export for Tabletop Simulator) for "
                                                    f"{self.state.ruleset}, the battle's ruleset")
        y = 436 + extra + list_h
        UILabel(pygame.Rect(10, y, w, 22), "RULES", m, container=panel, object_id="#section_title")
        self.rule_box = UITextBox(self.rule_shown, pygame.Rect(10, y + 24, w, max(60, r.h - y - 34)), m,
                                  container=panel)

    def _build_catalogue(self, r: pygame.Rect) -> None:
        m = self.app.manager
        panel = UIPanel(r, starting_height=1, manager=m)
        self.widgets.append(panel)
        self._stripe(panel, r.w)
        UILabel(pygame.Rect(10, 12, r.w - 20, 22), f"UNITS OF {self.lst.army.name.upper()}", m, container=panel,
                object_id="#section_title")
        UILabel(pygame.Rect(10, 34, r.w - 20, 20), "Add puts one in your list · click a rule to read it", m,
                container=panel, object_id="#hud_hint")
        self.catalogue = UIScrollingContainer(pygame.Rect(4, 58, r.w - 12, r.h - 64), m, container=panel,
                                              allow_scroll_x=False)
        cw = r.w - 12 - 20
        y = 0
        title = offer(self.state.ruleset).title
        self.add_buttons = {}
        self.cards = {}
        for name, prof in self.lst.army.profiles.items():
            flag = (title, rules_not_played(prof, self.state.ruleset))
            box = UITextBox(profile_card_html(prof, flag), pygame.Rect(0, y, cw - 84, -1), m, container=self.catalogue)
            self.cards[name] = box
            hgt = max(box.rect.height, 44)
            tip = f"Add a unit of {name} ({prof.cost} pts) to your list"
            btn = UIButton(pygame.Rect(cw - 78, y + (hgt - 36) // 2, 76, 36), "Add", m, container=self.catalogue,
                           tool_tip_text=tip)
            self.add_buttons[btn] = name
            y += hgt + 4
        self.catalogue.set_scrollable_area_dimensions((cw, y))

    def _build_list(self, r: pygame.Rect) -> None:
        m = self.app.manager
        panel = UIPanel(r, starting_height=1, manager=m)
        self._right = panel
        self.widgets.append(panel)
        self._stripe(panel, r.w)
        w = r.w - 24
        colour = PLAYER_HTML[self.player]
        UILabel(pygame.Rect(10, 12, w, 22), f"PLAYER {self.player}'S LIST", m, container=panel,
                object_id="#section_title")
        del colour
        self.points_box = UITextBox("", pygame.Rect(10, 36, w, 44), m, container=panel)
        editor_h = 204
        problems_h = max(90, min(170, r.h // 5))
        list_h = max(120, r.h - 92 - editor_h - problems_h - 24)
        self._list_rect = pygame.Rect(10, 86, w, list_h)
        self._editor_rect = pygame.Rect(10, 92 + list_h, w, editor_h)
        self.problems_box = UITextBox("", pygame.Rect(10, 100 + list_h + editor_h, w,
                                                      r.h - 110 - list_h - editor_h), m, container=panel)

    # --- refresh --------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the list as it is now: points, rows, the editor of the selected unit, problems."""
        lst = self.lst
        if lst.general is None:
            heroes = lst.heroes()
            if heroes:
                lst.general = heroes[0][0]    # a list with heroes must name a General: the first, until changed
        ids = [e.id for e in lst.entries]
        if self.selected not in ids:
            self.selected = None
        m = self.app.manager
        if self.points_box is not None:
            text, ok = points_summary(lst)
            colour = "#8fd6a0" if ok else "#ff8a80"
            units = len(lst.unit_ids())
            size = 5 if self.points_box.rect.w >= 440 else 4
            self.points_box.set_text(f"<font size={size} color='{colour}'><b>{html.escape(text)}</b></font>"
                                     f"<font color='#9aa4ac'> · {units} unit{'s' if units != 1 else ''}</font>")
        if self._right is not None:
            if self.entries is not None:
                self.entries.kill()
            self.entry_rows = {}
            for i, e in enumerate(lst.entries, start=1):
                self.entry_rows[f"{i}. {entry_label(lst, e)}"] = e.id
            chosen = next((t for t, eid in self.entry_rows.items() if eid == self.selected), None)
            self.entries = UISelectionList(self._list_rect, list(self.entry_rows), m, container=self._right,
                                           default_selection=chosen, object_id=LIST_ID)
            self._build_editor()
        if self.force_text is not None:
            own = force_org_words_of(self.lst.points_used, self.state.ruleset)   # the ruleset's own limits
            if self.state.force_org:
                words = own if own is not None else force_org_words(self.state.points)
                self.force_text.set_text(f"<font color='#c8d0d6'>{html.escape(words)}</font>")
            elif offer(self.state.ruleset).force_org:
                self.force_text.set_text("<font color='#9aa4ac'>Optional limits on heroes, copies and unit sizes, "
                                         "if both players agree.</font>")
            else:       # the book's game size where it has no limits to offer
                self.force_text.set_text("<font color='#9aa4ac'>"
                                         f"{html.escape(offer(self.state.ruleset).points_guideline)}.</font>")
        if self.problems_box is not None:
            problems = self.state.problems(self.player)
            if not problems:
                self.problems_box.set_text("<font color='#8fd6a0'><b>✓ This list is ready to play.</b></font>")
            else:
                rows = "<br>".join(f"⚠ {html.escape(p)}" for p in problems)
                self.problems_box.set_text(f"<font color='#ff8a80'><b>Not ready yet:</b><br>{rows}</font>")

    def _build_editor(self) -> None:
        m = self.app.manager
        if self.editor is not None:
            self.editor.kill()
        for extra in self._editor_extra:
            extra.kill()
        self._editor_extra = []
        self.copy_buttons, self.upgrade_boxes = {}, {}
        self.hero_menu = self.join_menu = self.general_button = self.remove_button = None
        r = self._editor_rect
        self.editor = ed = UIPanel(r, starting_height=1, manager=m, container=self._right)
        lst = self.lst
        entry = next((e for e in lst.entries if e.id == self.selected), None)
        if entry is None:
            hint = ("Press Add on a unit card to put it in your list." if not lst.entries else
                    "Select a unit of your list to change it: combine copies, command group, hero, General.")
            UITextBox(f"<font color='#9aa4ac'>{hint}</font>", pygame.Rect(6, 6, r.w - 14, r.h - 14), m,
                      container=ed)
            return
        prof = lst.army.profiles.get(entry.profile)
        w = r.w - 14
        UILabel(pygame.Rect(8, 4, w - 8, 26), f"{entry.profile}  ({entry.id})", m, container=ed,
                object_id="#hud_title")
        if prof is None:
            return
        # copies (rulebook "Combined Units")
        allowed = allowed_copies(prof)
        UILabel(pygame.Rect(8, 36, 76, 30), "Copies", m, container=ed)
        for c in range(1, 5 if prof.size > 1 else 1):
            ok = c in allowed
            tip = (f"{c} cop{'y' if c == 1 else 'ies'}: {prof.size * c} models, {prof.cost * c} pts" if ok else
                   "Combined Units: at most 20 models, and only 2 copies of units with Tough(X)" if prof.size > 1
                   else "A single model cannot be combined")
            b = UIButton(pygame.Rect(84 + (c - 1) * 46, 36, 42, 30), str(c), m, container=ed, tool_tip_text=tip,
                         object_id="#toggle_on" if c == entry.copies else None)
            if not ok:
                b.disable()
            self.copy_buttons[b] = c
        if prof.size > 1:
            info = f"{lst.models(entry)} models · {lst.unit_cost(entry)} pts"
            UILabel(pygame.Rect(274, 36, w - 274, 30), info, m, container=ed, object_id="#hud_hint")
        else:
            info = f"single model · {lst.unit_cost(entry)} pts"
            UILabel(pygame.Rect(84, 36, w - 84, 30), info, m, container=ed, object_id="#hud_hint")
        # command group (rulebook "Command Groups")
        x = 10
        step = (w - 10) // 3
        for u in UPGRADE_ORDER:
            cost = lst.upgrade_cost(u)
            text = u.capitalize() + (f" (+{cost})" if cost else "")
            box = UICheckBox(pygame.Rect(x, 78, 20, 20), text, m, container=ed, initial_state=u in entry.upgrades,
                             tool_tip_text=f"{u.capitalize()}: {UPGRADES_INFO[u].summary}")
            self.upgrade_boxes[box] = u
            x += max(step, 40 + 9 * len(text)) if step >= 130 else step
        # hero (rulebook "Hero")
        if prof.is_hero:
            targets = lst.joinable_units(entry.profile) if prof.tough <= 6 else []
            if targets:
                self.join_options = {ON_ITS_OWN: None}
                for e in lst.entries:
                    if e.id in targets:
                        self.join_options[f"joins {e.profile} ({e.id})"] = e.id
                UILabel(pygame.Rect(8, 112, 110, 30), "Deploy with", m, container=ed)
                self.join_menu = TipDropDown(list(self.join_options), ON_ITS_OWN, self._outside(118, 112, w - 118),
                                                m, container=self._right, expansion_height_limit=180)
                self._editor_extra.append(self.join_menu)
            else:
                UILabel(pygame.Rect(8, 112, w, 30), "A hero fights on its own or joins a unit of several models.",
                        m, container=ed, object_id="#hud_hint")
        elif prof.size * entry.copies >= 2:
            self.hero_options = {NO_HERO: None}
            standalone = {e.profile for e in lst.entries if e.hero is None and e.profile in hero_choices(lst)}
            current = NO_HERO
            for h in hero_choices(lst):
                cost = lst.army.profiles[h].cost
                label = f"{h} (from your list)" if h in standalone else f"{h} (+{cost} pts)"
                if entry.hero == h:
                    label = f"{h} ({cost} pts)"
                    current = label
                self.hero_options[label] = h
            UILabel(pygame.Rect(8, 112, 110, 30), "Hero with it", m, container=ed)
            self.hero_menu = TipDropDown(list(self.hero_options), current, self._outside(118, 112, w - 118), m,
                                            container=self._right, expansion_height_limit=180)
            self._editor_extra.append(self.hero_menu)
        else:
            UILabel(pygame.Rect(8, 112, w, 30), "A single model: no hero can join it.", m, container=ed,
                    object_id="#hud_hint")
        # General (rulebook "Victory Conditions") and remove
        hero_id = entry.id if prof.is_hero else entry.hero_id
        hero_name = entry.profile if prof.is_hero else entry.hero
        if hero_id is not None and lst.general == hero_id:
            UILabel(pygame.Rect(8, 156, w - 190, 34), f"★ {hero_name} is the General", m, container=ed,
                    object_id="#hud_title")
        elif hero_id is not None:
            self.general_button = UIButton(pygame.Rect(8, 156, min(260, w - 190), 34),
                                           "★ Make General" if w < 450 else f"★ Make {hero_name} General", m,
                                           container=ed,
                                           tool_tip_text="The General is worth 100 victory points to the enemy")
        self.remove_button = UIButton(pygame.Rect(w - 170, 156, 172, 34), "Remove from list", m, container=ed)

    def _outside(self, x: int, y: int, w: int, h: int = 30) -> pygame.Rect:
        """A rectangle at (x, y) of the editor, in the list panel's coordinates."""
        return pygame.Rect(self._editor_rect.x + x, self._editor_rect.y + y, w, h)

    # --- input ----------------------------------------------------------------------------------------------
    def handle_body_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Buttons, drop-downs, check boxes, list selections and rule links; the import's dialog and review."""
        t = event.type
        if self.review is not None:
            choice = self.review.handle(event)
            if choice == "import":
                self.finish_import(self.review.plan, self.review.bases)
                return
            if choice == "cancel":
                self.review = None
                self.say("Import cancelled: nothing was written.")
                return
        if t == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.file_dialog:
            self.file_dialog = None
            self.import_file(Path(event.text))
            return
        if t == pygame_gui.UI_BUTTON_PRESSED:
            self._button(event.ui_element)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            changed = self.ruleset_chooser.handle(event) if self.ruleset_chooser is not None else None
            if changed is not None:     # another ruleset: the catalogue's flags, the problems, Force Org follow
                title = offer(self.state.ruleset).title
                self.say(f"Both players play {title}" + (f" ({'; '.join(changed)})." if changed else "."))
                self.rebuild()
            else:
                self._drop_down(event.ui_element, event.text)
        elif t in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
            self._check_box(event.ui_element, t == pygame_gui.UI_CHECK_BOX_CHECKED)
        elif t == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if event.ui_element is self.entries and event.text in self.entry_rows:
                self.selected = self.entry_rows[event.text]
                self._build_editor()
            elif event.ui_element is self.saved_list and self.load_button is not None:
                self.load_button.enable()
        elif t == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION:
            if event.ui_element is self.entries:
                self.refresh()          # a second click on the unit being edited keeps it selected
            elif event.ui_element is self.saved_list and self.load_button is not None:
                self.load_button.disable()
        elif t == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            if event.ui_element is self.saved_list and event.text in self.saved_labels:
                self.load_saved(self.saved_labels[event.text])
        elif t == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:
            self.rule_shown = rule_html(str(event.link_target))
            if self.rule_box is not None:
                self.rule_box.set_text(self.rule_shown)
        elif t == pygame.KEYDOWN and not consumed and event.key == pygame.K_DELETE and self.selected:
            self.remove_entry(self.selected)

    def _button(self, el: object) -> None:
        lst = self.lst
        if el in self.add_buttons:
            self.add_unit(self.add_buttons[el])
        elif el in self.copy_buttons and self.selected is not None:
            if set_copies(lst, lst.entry(self.selected), self.copy_buttons[el]):
                self.refresh()
        elif el is self.general_button and self.selected is not None:
            e = lst.entry(self.selected)
            prof = lst.army.profiles.get(e.profile)
            lst.general = e.id if prof is not None and prof.is_hero else e.hero_id
            self.say("Your General is worth 100 victory points to the enemy if it is killed or flees.")
            self.refresh()
        elif el is self.remove_button and self.selected is not None:
            self.remove_entry(self.selected)
        elif el is self.save_list_button:
            self.save_current()
        elif el is self.import_button:
            self.open_import_dialog()
        elif el is self.load_button and self.saved_list is not None:
            chosen = self.saved_list.get_single_selection()
            if isinstance(chosen, str) and chosen in self.saved_labels:
                self.load_saved(self.saved_labels[chosen])

    def _drop_down(self, el: object, text: str) -> None:
        lst = self.lst
        if el is self.army_menu and text in self.army_labels:
            self.state.choose_army(self.player, self.army_labels[text])
            self.selected = None
            self.say(f"Player {self.player} builds a list of {text}.")
            self.rebuild()
        elif el is self.points_menu:
            try:
                points = int(text.split()[0])
            except (ValueError, IndexError):
                return
            self.state.set_points(points)
            self.say(f"Game size: {points} points for both players.")
            self.refresh()
        elif el is self.hero_menu and self.selected is not None and text in self.hero_options:
            entry = lst.entry(self.selected)
            hero = self.hero_options[text]
            if entry.hero is not None:
                lst.detach_hero(entry.id)       # the old hero stays in the list on its own
            if hero is not None:
                lst.join_hero(entry.id, hero)   # takes a standalone hero of that profile, else a new one
                self.say(f"{hero} deploys as part of {entry.profile} (rulebook \"Hero\").")
            else:
                self.say("The hero is now a unit of its own in your list.")
            self.refresh()
        elif el is self.join_menu and self.selected is not None and text in self.join_options:
            target = self.join_options[text]
            if target is not None:
                hero = lst.entry(self.selected).profile
                join_standalone_hero(lst, self.selected, target)
                self.selected = target
                self.say(f"{hero} deploys as part of {lst.entry(target).profile} (rulebook \"Hero\").")
            self.refresh()

    def _check_box(self, el: object, checked: bool) -> None:
        if el is self.force_box:
            if self.state.force_org != checked:
                self.state.force_org = checked
                self.refresh()
        elif el in self.upgrade_boxes and self.selected is not None:
            u = self.upgrade_boxes[el]
            entry = self.lst.entry(self.selected)
            if checked and u not in entry.upgrades:
                entry.upgrades.append(u)
                entry.upgrades.sort(key=UPGRADE_ORDER.index)
            elif not checked and u in entry.upgrades:
                entry.upgrades.remove(u)
            else:
                return
            self.refresh()

    # --- actions --------------------------------------------------------------------------------------------
    def add_unit(self, profile: str) -> ListEntry:
        """Add one unit of ``profile`` to the list and select it."""
        entry = self.lst.add(profile)
        self.selected = entry.id
        self.say(f"Added {profile} ({self.lst.entry_cost(entry)} pts).")
        self.refresh()
        return entry

    def remove_entry(self, entry_id: str) -> None:
        """Take a unit (and its joined hero) out of the list."""
        entry = self.lst.remove(entry_id)
        self.selected = None
        self.say(f"Removed {entry.profile}" + (f" and {entry.hero}." if entry.hero else "."))
        self.refresh()

    def save_current(self) -> None:
        """Save the list in "My lists" under the name typed."""
        name = self.list_name.get_text().strip() if self.list_name is not None else ""
        if not name:
            name = f"{self.lst.army.name} {self.state.points}"
        try:
            path = self.state.save_list(self.player, name)
        except (OSError, ValueError) as e:
            self.say(f"Could not save the list: {e}", bad=True)
            return
        self.say(f"Saved \"{name}\" to {path}")
        self.rebuild()

    def load_saved(self, path: Path) -> None:
        """Replace this player's list by a saved one."""
        try:
            lst, saved_points = self.state.load_list(self.player, path)
        except ArmyListError as e:
            self.say("Cannot load this list: " + "; ".join(e.problems[:2]), bad=True)
            return
        self.selected = None
        note = f" (it was made for {saved_points} points)" if saved_points != self.state.points else ""
        self.say(f"Loaded \"{lst.display_name}\"{note}.")
        self.rebuild()

    def open_import_dialog(self) -> UIFileDialog:
        """The file dialog for an Army Forge export (``.txt`` or ``.json``)."""
        w, h = self.app.size
        dw, dh = min(760, w - 80), min(560, h - 80)
        self.file_dialog = UIFileDialog(pygame.Rect((w - dw) // 2, (h - dh) // 2, dw, dh), self.app.manager,
                                        "Import from Army Forge: choose the exported file",
                                        initial_file_path=str(Path.home()), allow_existing_files_only=True)
        return self.file_dialog

    def import_file(self, path: Path) -> ImportReview | None:
        """Read and map an Army Forge export, then open the review (or say why the file is refused)."""
        try:
            plan = plan_import(path, self.state.ruleset)    # onto the battle's ruleset
        except ExportRefused as e:
            count = len(e.problems)
            self.say(f"Cannot import {path.name}: {count} problem{'s' if count != 1 else ''}, listed in the window.",
                     bad=True)
            w, h = self.app.size
            rows = "<br>".join(html.escape(p) for p in e.problems[:30])
            more = f"<br>... and {len(e.problems) - 30} more" if len(e.problems) > 30 else ""
            UIMessageWindow(pygame.Rect((w - 760) // 2, (h - 420) // 2, 760, 420),
                            f"<b>This file cannot be imported:</b><br>{rows}{more}", self.app.manager,
                            window_title="Import from Army Forge")
            return None
        self.review = ImportReview(self.app.manager, self.app.size, plan)
        return self.review

    def finish_import(self, plan: Plan, bases: dict[str, tuple[float, float]]) -> None:
        """Write the imported army file and list ("My lists") and make it this player's list."""
        self.review = None
        try:
            list_path, army_path = default_paths(plan)
            written = write_import(plan, list_path, army_path, bases)
            lst, saved_points = self.state.load_list(self.player, list_path)
        except (OSError, ValueError) as e:
            self.say(f"Could not import the list: {e}", bad=True)
            return
        self.selected = None
        n = len(plan.unknown)
        dropped = f", {n} thing{'s' if n != 1 else ''} {plan.ruleset} cannot play dropped" if n else ""
        note = f"; it was made for {saved_points} points" if saved_points != self.state.points else ""
        self.say(f"Imported \"{lst.display_name}\" ({len(plan.profiles)} profiles{dropped}{note}); saved in My lists "
                 f"as {written.list_path.name}.")
        self.rebuild()

    def kill_ui(self) -> None:
        """Remove every widget, the import's file dialog and review included (they are windows of their own)."""
        if self.review is not None:
            self.review.close()
            self.review = None
        if self.file_dialog is not None:
            self.file_dialog.kill()
            self.file_dialog = None
        super().kill_ui()

    def rebuild(self) -> None:
        """Build every widget again (another army, a list loaded)."""
        self.kill_ui()
        self.editor = self.entries = None
        self._editor_extra = []
        self.build_ui()

    def leave_step(self) -> None:
        """Keep the list's name as typed."""
        if self.list_name is not None and self.list_name.get_text().strip():
            self.lst.name = self.list_name.get_text().strip()

    def resize(self) -> None:
        """Rebuild for the new window size (keeping the list name typed)."""
        self.leave_step()
        self.rebuild()
