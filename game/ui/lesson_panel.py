"""The lesson panel (where the battle's log was) and its text: the step, the lesson's notes, the hint; shared by the
regiments' lesson scene (``game.ui.scenes.lesson``) and AoF: Skirmish's (``game.ui.scenes.skirmish_lesson``)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Protocol

import pygame
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox

from game.tutorial import LessonRun
from game.tutorial.runner import Outcome
from game.ui.action_bar import pressed_key
from game.ui.assets import font
from game.ui.stats_draw import fit_text

if TYPE_CHECKING:
    from game.ui.window import Window

HIGHLIGHT = (255, 236, 120)
"""Outline of the units, points and areas a step points at."""
GOAL = (120, 255, 170)
"""The circle a move must end in."""
PANEL_BUTTONS = (("hint", "Hint"), ("skip", "Skip step"), ("restart", "Restart"), ("lessons", "Lessons"))
"""The lesson panel's buttons: key and label."""
NO_UNDO = "A lesson takes back a wrong try itself; Restart plays the lesson again from the start."
"""Why Undo is greyed in a lesson (its button reads "see Restart")."""
NOT_SAVED = "Lessons are not saved: Restart plays the lesson again from the start."
"""What Save (Ctrl+S) says in a lesson."""


class LessonPanel:
    """Text of the current step, the last explanation, the hint; buttons Hint, Skip, Restart, Lessons."""

    def __init__(self, manager: Any, rect: pygame.Rect) -> None:
        self.rect = rect
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        self.title = UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "", manager, container=self.panel)
        bh = 30
        self.box = UITextBox("", pygame.Rect(4, 26, rect.w - 10, rect.h - 36 - bh), manager, container=self.panel)
        self.buttons: dict[str, UIButton] = {}
        w = (rect.w - 10 - 3 * 4) // len(PANEL_BUTTONS)
        for i, (key, label) in enumerate(PANEL_BUTTONS):
            self.buttons[key] = UIButton(pygame.Rect(4 + i * (w + 4), rect.h - bh - 6, w, bh), label, manager,
                                         container=self.panel)
        self._html: str | None = None

    def show(self, title: str, body: str) -> None:
        """Set the title line (the lesson's name cut with an ellipsis to fit, "— step N/M" kept whole) and the HTML
        body (rebuilt only when it changed)."""
        room = self.rect.w - 16 - 12        # the label's width less its padding
        if font(14).size(title)[0] > room:
            head, sep, tail = title.rpartition(" — ")
            left = room - font(14).size(sep + tail)[0]
            title = fit_text(head, 14, left) + sep + tail if sep and left > 40 else fit_text(title, 14, room)
        if self.title.text != title:
            self.title.set_text(title)
        if body != self._html:
            self._html = body
            self.box.set_text(body)

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The key of the panel button an event pressed, or None."""
        return pressed_key(self.buttons, event)

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
        self.buttons = {}


def lesson_text(run: LessonRun, notes: list[tuple[str, str]]) -> tuple[str, str]:
    """The lesson panel's title and HTML body: the step's text, the last notes (``(kind, text)``) and the hint."""
    title = f"{run.lesson.title} — step {run.step_number}/{run.step_count}"
    if run.finished:
        title = f"{run.lesson.title} — done"
    parts = [f"<b>{html.escape(run.text)}</b>"]
    colours = {"explain": "#b4f0c0", "wrong": "#ffb070", "rule": "#ff8a80", "note": "#cfd8dc",
               "computer": "#8cc4ff"}
    for kind, text in notes[-4:]:
        if text == run.text:        # the outro is already the heading once the lesson is done
            continue
        parts.append(f"<font color='{colours.get(kind, '#ffffff')}'>{html.escape(text)}</font>")
    if run.hint is not None:
        parts.append(f"<font color='#ffe082'><i>Hint: {html.escape(run.hint)}</i></font>")
    return title, "<br><br>".join(parts)


def notes_after(run: LessonRun, notes: list[tuple[str, str]], outcome: Outcome) -> list[tuple[str, str]]:
    """The lesson's notes after ``outcome``: an accepted step's messages replace them; a wrong try or a broken rule
    is added."""
    if outcome.accepted:
        return [("explain" if m == run.explanation else "note", m) for m in outcome.messages]
    if outcome.wrong:
        return notes + [("wrong", outcome.messages[0])]
    return notes + [("rule", outcome.messages[0] if outcome.messages else "Not allowed.")]


class LessonHost(Protocol):
    """What the lesson desk's buttons ask of the lesson scene they sit in."""

    app: Window

    def skip(self) -> None:
        """Skip step: the lesson plays the step for the player."""
        ...

    def restart(self) -> None:
        """Restart: the lesson from its first step, the screen from its start."""
        ...

    def next_lesson(self) -> None:
        """Next lesson (the Skip button once the lesson is done)."""
        ...


class LessonDesk:
    """A lesson scene's lesson side: the panel where the log was and what the lesson said since the step began;
    shared by the regiments' lesson scene and AoF: Skirmish's."""

    def __init__(self, run: LessonRun) -> None:
        self.run = run
        self.panel: LessonPanel | None = None
        self.notes: list[tuple[str, str]] = []
        """What the lesson said since the last step began: (kind, text), kind ``explain``, ``wrong``, ``rule``,
        ``note``, ``computer``."""
        self.restart()

    def build(self, manager: Any, rect: pygame.Rect) -> None:
        """The panel at ``rect`` (the log's place), showing the step."""
        self.panel = LessonPanel(manager, rect)
        self.show()

    def kill(self) -> None:
        """Remove the panel."""
        if self.panel is not None:
            self.panel.kill()
            self.panel = None

    def show(self) -> None:
        """The step, the notes and the hint into the panel."""
        if self.panel is not None:
            self.panel.show(*lesson_text(self.run, self.notes))

    def note(self, outcome: Outcome) -> None:
        """What ``outcome`` says, into the notes and the panel (``notes_after``)."""
        self.notes = notes_after(self.run, self.notes, outcome)
        self.show()

    def restart(self) -> None:
        """The notes of a lesson started again: its introduction."""
        self.notes = [("note", self.run.lesson.intro)] if self.run.lesson.intro else []
        self.show()

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The key of the panel button ``event`` pressed, or None."""
        return self.panel.pressed(event) if self.panel is not None else None

    def handle(self, event: pygame.event.Event, host: LessonHost) -> bool:
        """A press of one of the panel's buttons, done (``command``); True if ``event`` was one."""
        key = self.pressed(event)
        if key is None:
            return False
        self.command(key, host)
        return True

    def command(self, key: str, host: LessonHost) -> None:
        """Hint, Skip step (Next lesson once done), Restart or Lessons (the main menu)."""
        if key == "hint":
            self.run.hint_visible = True
            self.show()
        elif key == "skip":
            if self.run.finished:
                host.next_lesson()
            else:
                host.skip()
        elif key == "restart":
            host.restart()
        elif key == "lessons":
            host.app.show_menu()

    def update(self) -> None:
        """The Skip button reads Next lesson once the lesson is done."""
        if self.panel is not None and "skip" in self.panel.buttons:
            b = self.panel.buttons["skip"]
            label = "Next lesson" if self.run.finished else "Skip step"
            if b.text != label:
                b.set_text(label)
