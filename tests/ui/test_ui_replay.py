"""The replay viewer (issue "Game records: replay, save and undo"): step with the arrow keys, jump to a round, a
turn and a phase, play and pause, click a timeline marker; the log and dice follow the position. Posted events."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
import yaml

import main
from game.engine.state import Phase
from game.record import load_record
from game.replay import ReplayCursor
from game.ui.scenes.menu import MenuScene
from game.ui.scenes.replay import ReplayScene

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.yaml"
    assert main.main(["autoplay", str(SMALL), "--seed", "5", "--record", str(path)]) == 0
    return path


@pytest.fixture
def viewer(driver_factory, record_file):  # type: ignore[no-untyped-def]
    d = driver_factory()
    assert d.app.watch_replay(record_file)
    d.frames(2)
    assert isinstance(d.scene, ReplayScene)
    return d


def test_step_forward_and_back_with_the_arrow_keys(viewer) -> None:  # type: ignore[no-untyped-def]
    scene = viewer.scene
    cursor = scene.cursor
    assert scene.index == 0
    for _ in range(3):
        viewer.key(pygame.K_RIGHT)
    assert scene.index == 3
    assert scene.game.digests == cursor.game_at(3).digests
    assert f"action 3/{cursor.length}" in scene.hud.title.text
    viewer.key(pygame.K_LEFT)
    assert scene.index == 2
    assert scene.game.digests == cursor.game_at(2).digests
    assert scene.game.history == cursor.record.actions[:2]
    viewer.key(pygame.K_END)
    assert scene.index == cursor.length and scene.game.state.game_over
    viewer.key(pygame.K_LEFT)
    assert scene.index == cursor.length - 1
    viewer.key(pygame.K_HOME)
    assert scene.index == 0


def test_jump_to_a_round_a_turn_and_a_phase(viewer) -> None:  # type: ignore[no-untyped-def]
    scene = viewer.scene
    cursor = scene.cursor
    viewer.click_button(scene.buttons["round:2"])
    assert scene.index == cursor.find(2)
    s = scene.game.state
    assert s.round == 2 and "round 2" in scene.hud.title.text
    viewer.click_button(scene.buttons["player:2"])
    assert scene.index == cursor.find(2, 2)
    assert scene.game.state.active_player == 2
    viewer.click_button(scene.buttons["phase:shooting"])
    assert scene.index == cursor.find(2, 2, Phase.SHOOTING)
    assert scene.game.state.phase is Phase.SHOOTING and "4. Shooting" in scene.hud.title.text
    assert "#toggle_on" in scene.buttons["phase:shooting"].object_ids
    # keys: next phase, previous turn
    here = scene.index
    viewer.key(pygame.K_DOWN)
    assert scene.index > here and scene.game.state.phase is not Phase.SHOOTING
    viewer.key(pygame.K_PAGEUP)
    assert scene.index == cursor.find(2, 2)


def test_play_pause_and_speed(viewer) -> None:  # type: ignore[no-untyped-def]
    scene = viewer.scene
    viewer.key(pygame.K_PLUS)
    viewer.key(pygame.K_PLUS)                 # 4 actions per second
    viewer.key(pygame.K_SPACE)
    assert scene.playing
    viewer.frames(60)                          # one second
    assert 3 <= scene.index <= 5
    viewer.key(pygame.K_SPACE)
    assert not scene.playing
    stopped = scene.index
    viewer.frames(30)
    assert scene.index == stopped
    viewer.key(pygame.K_MINUS)
    assert "2 actions/s" in scene.speed_label.text
    for _ in range(6):                         # fast-forward: 32 actions per second (the fastest)
        viewer.key(pygame.K_PLUS)
    assert scene.buttons["faster"].is_enabled is False and "32 actions/s" in scene.speed_label.text
    viewer.key(pygame.K_SPACE)
    viewer.frames(30)                          # half a second
    assert scene.index >= min(stopped + 12, scene.cursor.length)


def test_timeline_marker_click_and_log_and_dice_in_sync(viewer) -> None:  # type: ignore[no-untyped-def]
    scene = viewer.scene
    cursor = scene.cursor
    timeline = scene.timeline
    assert cursor.timeline and timeline.hits
    rect, entry = timeline.hits[len(timeline.hits) // 2]
    viewer.click(rect.center, frames=20)
    assert scene.index == entry.index
    log_text = scene.log.box.html_text
    assert entry.text.split(" (")[0][:20] in log_text or any(
        e.text[:20] in log_text for e in cursor.events_of(entry.index))
    rolls = [e for k in range(entry.index, 0, -1) for e in cursor.events_of(k) if e.kind == "roll"]
    if rolls:
        assert scene.dice.rolls and scene.dice.rolls[-1] in [r.data for r in cursor.events_of(
            max(k for k in range(1, entry.index + 1) if any(e.kind == "roll" for e in cursor.events_of(k))))]
    # a click on the bar elsewhere jumps to the position under the mouse
    bar = timeline.bar
    viewer.click((bar.x + bar.w // 4, bar.centery), frames=3)
    assert abs(scene.index - cursor.length // 4) <= 2


def test_stepping_back_anywhere_gives_the_game_of_that_position(viewer) -> None:  # type: ignore[no-untyped-def]
    scene = viewer.scene
    cursor = scene.cursor
    viewer.key(pygame.K_END)
    for _ in range(5):
        viewer.key(pygame.K_LEFT, frames=1)
    assert scene.index == cursor.length - 5
    assert scene.game.digests == load_record(cursor.record.source).digests[:cursor.length - 5]


def test_a_record_that_diverges_is_shown_up_to_there_with_the_problem(driver_factory, record_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(record_file.read_text())
    data["actions"][12]["digest"] = "0123456789"
    data["scenario"] = str(SMALL)
    path = tmp_path / "drift.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    d = driver_factory()
    assert d.app.watch_replay(path)
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, ReplayScene)
    assert scene.cursor.length == 12 and "action 12" in scene.cursor.problem
    d.key(pygame.K_END)
    assert scene.index == 12 and "stops here" in scene.hud.hint.text


def test_main_replay_opens_the_viewer_and_refuses_a_bad_file(monkeypatch, record_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import warnings

    from game.ui import app as app_module

    warnings.simplefilter("ignore", UserWarning)
    seen: list[object] = []
    monkeypatch.setattr(app_module.App, "run", lambda self: seen.append(self.scene))
    monkeypatch.setattr(app_module.App, "__init__", _small_window(app_module.App.__init__))
    assert main.main(["replay", str(record_file)]) == 0
    assert isinstance(seen[-1], ReplayScene)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: regiments-record/1\nscenario: nowhere.yaml\ndice: {seed: 1}\nactions: [\n")
    assert main.main(["replay", str(bad)]) == 2
    assert isinstance(seen[-1], MenuScene) and str(bad) in (seen[-1].message or "")


def _small_window(init):  # type: ignore[no-untyped-def]
    def wrapped(self, size=(1400, 900), *args, **kwargs):  # type: ignore[no-untyped-def]
        init(self, (1400, 900), *args, **kwargs)
    return wrapped


def test_the_menu_opens_a_replay_of_a_saved_game(driver_factory, record_file) -> None:  # type: ignore[no-untyped-def]
    from game.files import records_dir
    from game.record import replay
    from game.saves import save_game

    save_game(replay(load_record(record_file)).game, SMALL, records_dir() / "old.yaml")
    d = driver_factory()
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.saves.items[0].finished
    assert not menu.saves.resume.is_enabled               # a finished game is watched, not resumed
    d.click_button(menu.saves.watch)
    assert isinstance(d.scene, ReplayScene)
    assert d.scene.cursor.length == len(ReplayCursor(load_record(records_dir() / "old.yaml")).marks) - 1
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, MenuScene)
