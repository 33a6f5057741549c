"""The lesson scene in a window without a screen: every action goes through the lesson; panel buttons work."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import warnings  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.engine.actions import Done, Move  # noqa: E402
from game.tutorial import LessonRun, lesson_files  # noqa: E402
from game.tutorial.runner import state_digest  # noqa: E402


@pytest.fixture
def scene(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    warnings.simplefilter("ignore", UserWarning)
    from game.ui.app import App
    from game.ui.scenes.lesson import start_lesson

    app = App((1400, 900))
    assert start_lesson(app, "1")
    app.step(1 / 60)
    yield app
    pygame.display.quit()


def _press(app, button) -> None:  # type: ignore[no-untyped-def]
    import pygame_gui

    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
    app.step(1 / 60)


def test_lesson_scene_routes_actions_through_the_lesson(scene):  # type: ignore[no-untyped-def]
    from game.ui.scenes.lesson import LessonScene

    s = scene.scene
    assert isinstance(s, LessonScene) and s.desk.panel is not None and s.log is None
    assert "step 1/" in s.desk.panel.title.text
    assert s.act(Done(1)) and s.run.step_index == 1 and s.game is s.run.game
    digest = state_digest(s.game)
    pikemen = s.game.state.units["pikemen-1"].pose
    assert not s.act(Move(1, "pikemen-1", "advance", (pikemen.moved(0, 3),)))   # wrong: taken back
    assert state_digest(s.game) == digest and s.run.hint_visible and s.desk.notes[-1][0] == "wrong"
    halberds = s.game.state.units["halberds-1"].pose
    assert not s.act(Move(1, "halberds-1", "advance", (halberds.moved(-1.7, 0),)))   # illegal: 1" rule
    assert s.error is not None and s.error.rule == "General Movement"
    for _ in range(3):
        scene.step(1 / 60)   # draws the highlights and the pulsing buttons
    _press(scene, s.desk.panel.buttons["skip"])
    assert s.run.step_index == 2 and s.game is s.run.game
    _press(scene, s.desk.panel.buttons["restart"])
    assert s.run.step_index == 0 and state_digest(s.game) == state_digest(LessonRun(lesson_files()[0]).game)
    while not s.run.finished:
        _press(scene, s.desk.panel.buttons["skip"])
    assert s.run.progress is not None and s.run.progress.is_done("01_moving")
    scene.step(1 / 60)
    assert s.desk.panel.buttons["skip"].text == "Next lesson"
    _press(scene, s.desk.panel.buttons["skip"])
    assert isinstance(scene.scene, LessonScene) and scene.scene.run.lesson.id == "02_shooting"
