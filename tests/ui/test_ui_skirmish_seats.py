"""The AoF: Skirmish battle screen's take-back, seat changes and computer opponent (issue 18), with real input:
Ctrl+Z and the Undo button take back the last action while no die was rolled since (never across dice, as on the
regiments screen), the seat changes with a banner (open information: docs/rulings.md "AoF Skirmish"), the menu's
"against the computer" plays the computer's seat with a log line per decision, and the range outlines stay inside
the table view."""

from __future__ import annotations

import time

import pygame

from game.computer_seat import ComputerSeat
from game.engine.actions import Activate, Done, Shoot
from game.engine.skirmish.loose import points_of
from game.ui import palette
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.skirmish_battle import SkirmishBattleScene
from tests.ui.conftest import ROOT

PLACED = ROOT / "scenarios" / "tests" / "skirmish_placed.yaml"


def _until(d, test, frames: int = 6000) -> None:  # type: ignore[no-untyped-def]
    """Step frames (letting the computer's worker thread run) until ``test()`` holds."""
    for _ in range(frames):
        if test():
            return
        d.frames(1)
        time.sleep(0.001)
    raise AssertionError("the window never got there")


def test_ctrl_z_takes_back_a_move_and_the_seat_changes_with_a_banner(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene)
    assert not scene.actions.buttons["undo"].is_enabled           # nothing to take back yet
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    assert scene.game.history[-1] == Activate(1, "swords") and scene.actions.buttons["undo"].is_enabled
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert scene.game.history == [] and scene.game.pending.decision == "activate"
    assert "Taken back" in scene.banner[0]
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    d.key(pygame.K_SPACE)                                           # Hold: player 2 activates next
    assert scene.game.history[-1] == Done(1) and scene.game.pending.player == 2
    assert scene.seat_banner is not None and scene.seat_banner[0].startswith("Player 2, your turn")
    assert not isinstance(d.scene, HandoverScene)                   # open information: no hand-over screen
    assert scene.actions.buttons["undo"].is_enabled                 # player 1 may still take back their Hold
    d.click_button(scene.actions.buttons["undo"])
    assert scene.game.history == [Activate(1, "swords")] and scene.game.pending.player == 1
    assert scene.last_exception is None


def test_no_take_back_across_dice(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    game = scene.game
    d.click(d.table_px(points_of(game.state, "crossbows")[0]))
    d.key(pygame.K_SPACE)                                           # Hold, then shoot
    assert game.pending.decision == "shoot" and "warriors" in scene._targets()
    d.click(d.table_px(points_of(game.state, "warriors")[0]))
    assert isinstance(game.history[-1], Shoot) and game.dice_used[-1] > 0
    n = len(game.history)
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert len(scene.game.history) == n and scene.game is game      # the shot's dice stand
    assert not scene.actions.buttons["undo"].is_enabled
    assert "Dice were rolled" in scene.banner[0]


def test_against_the_computer_in_the_skirmish_window(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(seed=3)
    d.frames(2)
    d.app.start_battle(str(PLACED), ComputerSeat(2, "ai-easy"))
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene) and scene.computer == ComputerSeat(2, "ai-easy")
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    d.key(pygame.K_SPACE)                                           # Hold: the computer's turn
    assert scene.computer_deciding
    keys = set(scene.actions.buttons)
    assert {"computer_faster", "computer_skip", "undo"} <= keys and "done" not in keys
    n = len(scene.game.history)
    d.click(d.table_px(points_of(scene.game.state, "warriors")[0]))  # not the person's to answer
    assert len(scene.game.history) == n or scene.game.history[-1].player == 2
    d.key(pygame.K_g)
    assert scene.turns is not None and scene.turns.pace == "fast"
    _until(d, lambda: any(a.player == 2 for a in scene.game.history))
    lines = [e.text for e in scene.feed.lines if getattr(e, "kind", "") == "computer"]
    assert lines and lines[0].startswith("The computer (easy): ") and " — " in lines[0]
    # the reason is the search's (game/ai/explain.py), not a rule of thumb
    assert "level judges one unit" in lines[0] or "units judged" in lines[0]
    assert not isinstance(d.scene, HandoverScene)
    record = d.app.record_path(scene.game)
    assert record is not None and "computer" in record.read_text()
    scene.turns.wait()
    assert scene.last_exception is None


def test_the_computer_refusal_is_gone_and_a_take_back_against_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(seed=3)
    d.frames(2)
    d.app.start_battle(str(PLACED), ComputerSeat(2, "ai-easy"))
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene)
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    assert scene.game.history == [Activate(1, "swords")]
    d.key(pygame.K_z, pygame.KMOD_CTRL)                             # the person's own activation, no dice
    assert scene.game.history == [] and scene.game.pending.player == 1


def test_range_outlines_stay_on_the_table(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The 24" crossbows' outline ends at the table's edges: nothing of it in the band round the table (where the
    banners show) nor under the action bar; zoomed in, nothing under the action bar either."""
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    d.click(d.table_px(points_of(scene.game.state, "crossbows")[0]))

    def colours_off_the_table() -> set[tuple[int, ...]]:
        scene.banner = scene.seat_banner = None
        screen = pygame.Surface(d.app.screen.get_size())
        scene.draw(screen)
        table = scene.view.table_rect
        out = set()
        for x in range(0, scene.view.rect.right, 2):
            for y in range(scene.view.rect.top, screen.get_height(), 2):
                if not table.collidepoint(x, y):
                    out.add(tuple(screen.get_at((x, y)))[:3])
        return out

    assert scene.view.table_rect.bottom < scene.view.rect.bottom          # a band under the table
    assert colours_off_the_table() == {palette.BACKGROUND}
    for _ in range(5):
        d.move(scene.view.rect.center)
        d.wheel(1)
    assert colours_off_the_table() <= {palette.BACKGROUND}


def test_a_saved_game_against_the_computer_resumes_on_the_skirmish_screen(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(seed=3)
    d.frames(2)
    d.app.start_battle(str(PLACED), ComputerSeat(2, "ai-easy"))
    d.frames(2)
    scene = d.scene
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    path = d.app.record_path(scene.game)
    assert path is not None
    d.app.show_menu()
    d.frames(2)
    assert d.app.resume_game(path)
    d.frames(2)
    resumed = d.scene
    assert isinstance(resumed, SkirmishBattleScene) and resumed.computer == ComputerSeat(2, "ai-easy")
    assert resumed.game.history == [Activate(1, "swords")]
    d.key(pygame.K_z, pygame.KMOD_CTRL)                   # the resumed game's rewinder reaches its start
    assert resumed.game.history == []


def _lesson_16(driver_factory):  # type: ignore[no-untyped-def]
    """Lesson 16 (AoF: Skirmish) open in the window: (driver, scene)."""
    from game.ui.scenes.lesson import start_lesson
    from game.ui.scenes.skirmish_lesson import SkirmishLessonScene
    d = driver_factory(seed=3)
    d.frames(2)
    assert start_lesson(d.app, str(ROOT / "scenarios" / "lessons" / "16_skirmish.yaml"))
    d.frames(2)
    assert isinstance(d.scene, SkirmishLessonScene)
    return d, d.scene


def test_no_undo_in_the_skirmish_lesson(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene = _lesson_16(driver_factory)
    assert not scene.actions.buttons["undo"].is_enabled
    assert "see Restart" in scene.actions.buttons["undo"].text


def test_save_and_menu_as_on_the_regiments_screen(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+S writes the record now and Menu goes back to the main menu with the game saved (the record controls
    the regiments screen has: game.ui.record_controls)."""
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    assert {"undo", "save", "menu"} <= set(scene.actions.buttons)
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    assert scene.banner is not None and scene.banner[0].startswith("Saved: ")
    path = d.app.record_path(scene.game)
    assert path is not None and path.exists()
    d.click_button(scene.actions.buttons["menu"])
    assert isinstance(d.scene, MenuScene) and scene.last_exception is None


def test_the_seat_banner_goes_once_the_player_has_acted(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The banner "Player 2, your turn: ..." names the decision at hand; once that player has acted it would name
    an old one, so it goes."""
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    d.key(pygame.K_SPACE)                                           # Hold: player 2 activates next
    assert scene.seat_banner is not None and scene.seat_banner[0].startswith("Player 2, your turn")
    uid = scene.game.pending.options[0]
    d.click(d.table_px(points_of(scene.game.state, uid)[0]))
    assert scene.game.history[-1] == Activate(2, uid) and scene.seat_banner is None


def test_the_skirmish_lesson_restart_starts_the_dice_panel_again(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Restart plays the lesson from its start: its log lines and the dice panel start again with it."""
    from game.engine.events import Event
    d, scene = _lesson_16(driver_factory)
    scene._add_events([Event("roll", "a roll of an earlier try", {"purpose": "test", "dice": [6]})])
    assert scene.feed.rolls
    d.click_button(scene.desk.panel.buttons["restart"])
    assert scene.feed.rolls == [e for e in scene.game.log if e.kind == "roll"][-6:]
    assert all(e.text != "a roll of an earlier try" for e in scene.feed.lines if isinstance(e, Event))
    assert scene.run.step_number == 1 and scene.last_exception is None
