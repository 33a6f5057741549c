"""The list of lessons, with a tick on the ones done (issue "Tutorial walkthroughs"); Start opens one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox

from game.tutorial import LessonInfo, list_lessons
from game.ui import palette
from game.ui.scenes.base import Scene

if TYPE_CHECKING:
    from game.ui.app import App

DONE_MARK = "✓"
"""Shown before a lesson completed (DejaVu Sans has it)."""


def lesson_label(info: LessonInfo, number: int) -> str:
    """The list row of a lesson: tick if done, number, title."""
    return f"{DONE_MARK if info.done else '  '}  {number}. {info.title}"


def done_count(infos: list[LessonInfo]) -> str:
    """"3 of 11 lessons done"."""
    return f"{sum(1 for i in infos if i.done)} of {len(infos)} lessons done"


class LessonsScene(Scene):
    """Pick a lesson: the list (done ones ticked), its summary, Start and Back."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.infos: list[LessonInfo] = []
        self.by_label: dict[str, LessonInfo] = {}
        self.list: UISelectionList | None = None
        self.summary: UITextBox | None = None
        self.start: UIButton | None = None
        self.back: UIButton | None = None
        self.widgets: list[pygame_gui.core.UIElement] = []

    def build_ui(self) -> None:
        """Title, the list, the summary box and the buttons, centred."""
        m = self.app.manager
        w, h = self.app.size
        pw = min(860, w - 40)
        x = (w - pw) // 2
        self.infos = list_lessons()
        self.by_label = {lesson_label(info, n): info for n, info in enumerate(self.infos, 1)}
        title = UILabel(pygame.Rect(x, 24, pw, 40), f"Lessons — {done_count(self.infos)}", m,
                        object_id="#section_title")
        list_h = min(22 * max(len(self.infos), 1) + 12, h - 330)
        self.list = UISelectionList(pygame.Rect(x, 72, pw, list_h), list(self.by_label), m)
        self.summary = UITextBox("Choose a lesson to see what it teaches. Each one is a small battle with fixed "
                                 "dice; the panel says what to do, and a wrong move is taken back with a hint.",
                                 pygame.Rect(x, 82 + list_h, pw, 120), m)
        self.start = UIButton(pygame.Rect(x, 212 + list_h, pw // 2 - 6, 44), "Start lesson", m,
                              object_id="#primary_button")
        self.start.disable()
        self.back = UIButton(pygame.Rect(x + pw // 2 + 6, 212 + list_h, pw // 2 - 6, 44), "Back to the menu (Esc)",
                             m)
        self.widgets = [title, self.list, self.summary, self.start, self.back]

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        self.list = self.summary = self.start = self.back = None

    def _chosen(self) -> LessonInfo | None:
        if self.list is None:
            return None
        label = self.list.get_single_selection()
        return self.by_label.get(label) if isinstance(label, str) else None

    def open(self, info: LessonInfo) -> None:
        """Start the lesson ``info`` in the window."""
        from game.ui.scenes.lesson import start_lesson

        start_lesson(self.app, str(info.path))

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Selecting shows the summary; Start or a double click opens it; Back or Esc returns to the menu."""
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            info = self._chosen()
            if info is not None and self.summary is not None and self.start is not None:
                done = " <b>(done)</b>" if info.done else ""
                self.summary.set_text(f"<b>{info.title}</b>{done}<br>{info.summary or ''}")
                self.start.enable()
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

    def draw(self, screen: pygame.Surface) -> None:
        """Plain background."""
        screen.fill(palette.BACKGROUND)
