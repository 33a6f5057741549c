"""The list of lessons, with a tick on the ones done (issue "Tutorial walkthroughs"); Start opens one."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox

from game.tutorial import LessonInfo, list_lessons
from game.ui import palette
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.ui.window import Window

DONE_MARK = "✓"
"""Shown before a lesson completed (DejaVu Sans has it)."""


def lesson_label(info: LessonInfo, number: int) -> str:
    """The list row of a lesson: tick if done, number, title."""
    return f"{DONE_MARK if info.done else '  '}  {number}. {info.title}"


def lesson_length(info: LessonInfo) -> str:
    """How long a lesson is, in words: "7 steps, about 5 minutes" (a free game: its rounds)."""
    if info.free_play:
        return "a short game against the computer, about 20 minutes"
    if not info.steps:
        return ""
    minutes = max(2, round(info.steps * 0.75))
    return f"{info.steps} steps, about {minutes} minutes"


def lesson_html(info: LessonInfo, number: int, infos: list[LessonInfo]) -> str:
    """The detail panel of a lesson: title, what it teaches, its length, whether it is done, what comes next."""
    parts = [f"<b>Lesson {number}: {html.escape(info.title)}</b>"]
    if info.summary:
        parts.append(html.escape(info.summary))
    length = lesson_length(info)
    if length:
        parts.append(f"<font color='#9aa4ac'>{html.escape(length)}</font>")
    parts.append("<font color='#8fe0a0'>✓ Done — play it again any time.</font>" if info.done else
                 "<font color='#ffe082'>Not done yet.</font>")
    waiting = next((i for i in infos if not i.done), None)
    if waiting is not None and waiting is not info:
        parts.append(f"<font color='#9aa4ac'>Next to do: {infos.index(waiting) + 1}. "
                     f"{html.escape(waiting.title)}</font>")
    return "<br><br>".join(parts)


INTRO_HTML = ("<b>Learn the game step by step.</b><br><br>Each lesson is a small battle with fixed dice: the panel "
              "says what to do and why, a wrong move is taken back with the rule it breaks, Hint shows where, and "
              "Skip plays a step for you. The lessons follow the turn sequence; “A real battle” is a game against "
              "the computer, and the last ones show what the other rulesets (AoF:R, AoF: Skirmish) do "
              "differently.<br><br>Choose a lesson on the left, or press Enter for the next one to do.")


def done_count(infos: list[LessonInfo]) -> str:
    """"3 of 11 lessons done"."""
    return f"{sum(1 for i in infos if i.done)} of {len(infos)} lessons done"


class LessonsScene(Scene):
    """Pick a lesson: the list (done ones ticked), its summary, Start and Back."""

    def __init__(self, app: Window) -> None:
        super().__init__(app)
        self.infos: list[LessonInfo] = []
        self.by_label: dict[str, LessonInfo] = {}
        self.list: UISelectionList | None = None
        self.summary: UITextBox | None = None
        self.start: UIButton | None = None
        self.suggested: LessonInfo | None = None
        """The lesson Start opens while none is clicked: the first not done."""
        self.back: UIButton | None = None
        self.widgets: list[pygame_gui.core.UIElement] = []

    def build_ui(self) -> None:
        """Title; the list on the left, the chosen lesson's goal, length and progress on the right; the buttons
        under them; centred."""
        m = self.app.manager
        w, h = self.app.size
        pw = min(1100, w - 40)
        x = (w - pw) // 2
        lw = min(440, pw // 2 - 10)
        self.infos = list_lessons()
        self.by_label = {lesson_label(info, n): info for n, info in enumerate(self.infos, 1)}
        body_h = min(max(20 * max(len(self.infos), 1) + 14, 240), h - 180)
        top = max(20, (h - body_h - 130) // 3)       # the block a little above the middle of the window
        title = UILabel(pygame.Rect(x, top, pw, 40), f"Lessons — {done_count(self.infos)}", m,
                        object_id="#big_title")
        # until one is clicked, the first lesson not done is the one Start (Enter) opens: never stuck here
        pick = next((n for n, info in enumerate(self.infos) if not info.done), 0) if self.infos else None
        self.suggested = self.infos[pick] if pick is not None else None
        self.list = UISelectionList(pygame.Rect(x, top + 56, lw, body_h), list(self.by_label), m)
        self.summary = UITextBox(self._summary(None), pygame.Rect(x + lw + 12, top + 56, pw - lw - 12, body_h), m)
        y = top + 68 + body_h
        self.start = UIButton(pygame.Rect(x, y, pw // 2 - 6, 44), "Start lesson (Enter)", m,
                              object_id="#primary_button")
        if self.suggested is None:
            self.start.disable()
        self.back = UIButton(pygame.Rect(x + pw // 2 + 6, y, pw // 2 - 6, 44), "Back to the menu (Esc)", m)
        self.widgets = [title, self.list, self.summary, self.start, self.back]

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        self.list = self.summary = self.start = self.back = None

    def _chosen(self) -> LessonInfo | None:
        """The lesson clicked in the list, else the first one not done."""
        if self.list is None:
            return None
        label = self.list.get_single_selection()
        return self.by_label.get(label) if isinstance(label, str) else self.suggested

    def _summary(self, info: LessonInfo | None) -> str:
        """The summary of ``info`` (None: of the lesson Start opens when none is clicked, after the intro)."""
        if info is not None:
            return lesson_html(info, self.infos.index(info) + 1, self.infos)
        if self.suggested is None:
            return INTRO_HTML
        n = self.infos.index(self.suggested) + 1
        return INTRO_HTML + f" Next to do: <b>{n}. {html.escape(self.suggested.title)}</b>."

    def open(self, info: LessonInfo) -> None:
        """Start the lesson ``info`` in the window."""
        from game.ui.scenes.lesson import start_lesson

        start_lesson(self.app, str(info.path))

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Selecting shows the summary; Start or a double click opens it; Back or Esc returns to the menu."""
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            info = self._chosen()
            if info is not None and self.summary is not None and self.start is not None:
                self.summary.set_text(self._summary(info))
                self.start.enable()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION and self.summary is not None:
            self.summary.set_text(self._summary(None))     # clicked again: back to the first one not done
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            info = self.by_label.get(event.text)
            if info is not None:
                self.open(info)
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start:
                info = self._chosen()
                if info is not None:
                    self.open(info)
            elif event.ui_element is self.back:
                self.app.show_menu()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not consumed:
            self.app.show_menu()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not consumed:
            info = self._chosen()
            if info is not None:
                self.open(info)

    def draw(self, screen: pygame.Surface) -> None:
        """Plain background."""
        screen.fill(palette.BACKGROUND)
