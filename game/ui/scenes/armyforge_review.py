"""The Army Forge import review: what the ruleset cannot play, the base sizes, then import or cancel.

Opened by the set-up's army step ("Import from Army Forge", after the file dialog) with a ``Plan``
(``game.armyforge.convert``). It shows the list (units, points, notes), every special rule, weapon or upgrade the
ruleset cannot play, per unit, and one row per profile with its base size (width x depth, mm) taken from the
export or chosen by the unit's kind, editable before anything is written. "Drop these and import" (or "Import"
when nothing is unknown) and "Cancel" close it; ``handle`` says which was chosen.
"""

from __future__ import annotations

import html
import math

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer, UITextBox, UITextEntryLine, UIWindow

from game.armyforge.convert import Plan

MAX_BASE_MM = 500.0
"""A base side over half a metre is a typing mistake."""


def parse_base(width: str, depth: str) -> tuple[float, float]:
    """A base size typed by the player (mm). Raises ``ValueError`` naming the problem."""
    out = []
    for text in (width, depth):
        try:
            v = float(text.strip().replace(",", "."))
        except ValueError:
            raise ValueError(f"{text.strip() or 'nothing'!r} is not a number of millimetres") from None
        if not math.isfinite(v) or not 0 < v <= MAX_BASE_MM:
            raise ValueError(f"a base side must be above 0 and at most {MAX_BASE_MM:g} mm, got {text.strip()}")
        out.append(round(v, 1))
    return out[0], out[1]


class ImportReview:
    """The review window over the set-up (module doc)."""

    def __init__(self, manager: pygame_gui.UIManager, screen: tuple[int, int], plan: Plan) -> None:
        self.plan = plan
        w = min(900, screen[0] - 80)
        h = min(640, screen[1] - 80)
        rect = pygame.Rect((screen[0] - w) // 2, (screen[1] - h) // 2, w, h)
        title = f"Import from Army Forge — {plan.export.name}"
        self.window = UIWindow(rect, manager, title[:90], resizable=False)
        inner = self.window.get_container().get_size()
        cw = inner[0] - 24
        ex = plan.export
        units = sum(1 + (e.hero is not None) for e in plan.entries)
        kind = "'Share as Text'" if ex.kind == "text" else "JSON export"
        head = (f"<b>{units} units · {plan.points_used()} / {plan.points} points</b> · Army Forge {kind}"
                + (f" ({html.escape(ex.system)})" if ex.system else "") + f", for {html.escape(plan.ruleset)}")
        for note in plan.notes:
            head += f"<br><font color='#ffd27a'>⚠ {html.escape(note)}</font>"
        top_h = 46 + 22 * len(plan.notes)
        UITextBox(head, pygame.Rect(12, 8, cw, top_h), manager, container=self.window)
        y = 14 + top_h
        if plan.unknown:
            UILabel(pygame.Rect(12, y, cw, 22), f"NOT PLAYABLE IN {plan.ruleset.upper()} — DROPPED IF YOU IMPORT",
                    manager, container=self.window, object_id="#section_title")
            rows = "<br>".join(
                f"<font color='#ff8a80'>✗</font> unit {u.unit} <b>{html.escape(u.name)}</b>: {html.escape(u.what)}"
                f" <font color='#9aa4ac'>— {html.escape(u.reason)}</font>" for u in plan.unknown)
            uh = min(150, 26 + 22 * len(plan.unknown))
            UITextBox(rows, pygame.Rect(12, y + 24, cw, uh), manager, container=self.window)
            y += 30 + uh
        UILabel(pygame.Rect(12, y, cw, 22), "BASE SIZES — WIDTH × DEPTH IN MM (EDIT BEFORE IMPORTING)", manager,
                container=self.window, object_id="#section_title")
        y += 26
        buttons_h = 56
        area_h = max(80, inner[1] - y - buttons_h - 28)
        self.rows = UIScrollingContainer(pygame.Rect(8, y, cw + 8, area_h), manager, container=self.window,
                                         allow_scroll_x=False)
        self.base_entries: dict[str, tuple[UITextEntryLine, UITextEntryLine]] = {}
        ry = 0
        for name, prof in plan.profiles.items():
            kind_text = plan.base_kinds.get(name, "")
            UILabel(pygame.Rect(4, ry, cw - 230, 30), f"{name} — {kind_text}", manager, container=self.rows,
                    object_id="#hud_hint")
            wbox = UITextEntryLine(pygame.Rect(cw - 222, ry, 80, 30), manager, container=self.rows)
            UILabel(pygame.Rect(cw - 140, ry, 24, 30), "×", manager, container=self.rows)
            dbox = UITextEntryLine(pygame.Rect(cw - 114, ry, 80, 30), manager, container=self.rows)
            wbox.set_text(f"{prof['base'][0]:g}")
            dbox.set_text(f"{prof['base'][1]:g}")
            self.base_entries[name] = (wbox, dbox)
            ry += 34
        self.rows.set_scrollable_area_dimensions((cw - 12, ry))
        y = int(y + area_h + 4)
        self.error = UILabel(pygame.Rect(12, y, cw, 22), "", manager, container=self.window)
        by = inner[1] - buttons_h + 8
        ok_text = "Drop these and import" if plan.unknown else "Import"
        self.import_button = UIButton(pygame.Rect(cw - 420, by, 240, 40), ok_text, manager, container=self.window,
                                      object_id="#primary_button",
                                      tool_tip_text="Write the army file and the list to \"My lists\" and use it")
        self.cancel_button = UIButton(pygame.Rect(cw - 170, by, 180, 40), "Cancel", manager, container=self.window,
                                      tool_tip_text="Import nothing")
        self.bases: dict[str, tuple[float, float]] = {}
        """The base sizes chosen, set when ``handle`` returns ``import``."""

    @property
    def alive(self) -> bool:
        """False once closed."""
        return bool(self.window.alive())

    def read_bases(self) -> dict[str, tuple[float, float]]:
        """The base sizes typed, by profile. Raises ``ValueError`` naming the profile and the problem."""
        out = {}
        for name, (wbox, dbox) in self.base_entries.items():
            try:
                out[name] = parse_base(wbox.get_text(), dbox.get_text())
            except ValueError as e:
                raise ValueError(f"{name}: {e}") from None
        return out

    def handle(self, event: pygame.event.Event) -> str | None:
        """``import`` (the bases were read: ``bases``), ``cancel`` (the window is closed), or None."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.import_button:
            try:
                self.bases = self.read_bases()
            except ValueError as e:
                self.error.set_text(f"⚠ {e}")
                return None
            self.window.kill()
            return "import"
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.cancel_button:
            self.window.kill()
            return "cancel"
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return "cancel"
        return None

    def close(self) -> None:
        """Close without importing."""
        self.window.kill()
