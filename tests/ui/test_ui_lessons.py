"""The menu's Lessons entry: the list of lessons shows which are done, and Start opens one."""

from __future__ import annotations

from pathlib import Path

import pygame

import main
from game.tutorial import list_lessons
from game.tutorial.progress import Progress
from game.ui.scenes.lesson import LessonScene
from game.ui.scenes.lessons import DONE_MARK, LessonsScene
from game.ui.scenes.menu import MenuScene

ROOT = Path(__file__).resolve().parents[2]


def test_menu_lists_lessons_with_the_done_ones_ticked(driver_factory) -> None:  # type: ignore[no-untyped-def]
    first = list_lessons()[0]
    progress = Progress.load()
    progress.mark_done(first.id)
    menu = driver_factory()
    menu.frames(2)
    scene = menu.scene
    assert isinstance(scene, MenuScene)
    assert "1 of" in scene.lessons_button.text
    menu.click_button(scene.lessons_button)
    lessons = menu.scene
    assert isinstance(lessons, LessonsScene)
    labels = list(lessons.by_label)
    assert len(labels) == len(list_lessons()) >= 8
    assert labels[0].startswith(DONE_MARK) and not labels[1].startswith(DONE_MARK)
    second = lessons.list.item_list_container.elements[1]
    menu.click(second.rect.center, frames=4)       # choosing one shows its goal, length and progress
    shown = lessons.summary.html_text
    assert "Lesson 2:" in shown and "steps, about" in shown and "Not done yet" in shown
    menu.key(pygame.K_RETURN)                      # Enter starts it
    assert isinstance(menu.scene, LessonScene)


def test_check_accepts_the_lesson_files(capsys) -> None:  # type: ignore[no-untyped-def]
    files = [str(p) for p in sorted((ROOT / "scenarios" / "lessons").glob("*.yaml"))]
    assert files
    assert main.main(["check", *files]) == 0


def test_the_first_lesson_not_done_is_chosen_so_enter_starts_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """A newcomer pressing Enter on the lessons screen starts a lesson: until one is clicked, Start opens the first
    one not done (Start was greyed until a click before)."""
    progress = Progress.load()
    progress.mark_done(list_lessons()[0].id)
    menu = driver_factory()
    menu.frames(2)
    menu.click_button(menu.scene.lessons_button)
    lessons = menu.scene
    assert isinstance(lessons, LessonsScene)
    second = list_lessons()[1]
    assert lessons.start.is_enabled and f"Next to do: <b>2. {second.title}</b>" in lessons.summary.html_text
    assert lessons.list.get_single_selection() is None
    menu.key(pygame.K_RETURN)
    assert isinstance(menu.scene, LessonScene) and menu.scene.run.lesson.id == list_lessons()[1].id
