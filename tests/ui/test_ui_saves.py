"""Saved games in the window (issue "Game records: replay, save and undo"): the menu lists them, Resume goes on in
the same file, Undo takes back the last action while no die was rolled, damaged files are refused and left alone.
Everything through posted events."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from game.autoplay import RandomPlayer
from game.engine.actions import Done
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.files import records_dir
from game.record import load_record
from game.saves import save_game
from game.scenario import load_scenario, new_game_state
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.menu import MenuScene

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


def _records() -> list[Path]:
    return sorted(records_dir().glob("*.yaml"))


def _snapshot() -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(records_dir().iterdir())}


def _to_battle(d) -> BattleScene:  # type: ignore[no-untyped-def]
    for _ in range(3):
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    assert isinstance(d.scene, BattleScene)
    return d.scene


def test_menu_lists_a_saved_game_and_resume_continues_it_in_the_same_file(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    battle.key(pygame.K_SPACE)                  # 1. Strategy: done
    battle.key(pygame.K_SPACE)                  # 2.1 no charges: done
    played = [a.to_dict() for a in scene.game.history]
    assert len(played) == 2 and len(_records()) == 1
    battle.click_button(scene.actions.buttons["menu"])
    menu = battle.scene
    assert isinstance(menu, MenuScene) and menu.saves is not None
    assert len(menu.saves.items) == 1
    item = menu.saves.items[0]
    assert item.title == "Battle of the Ashen Ford" and not item.finished and item.round == 1
    assert menu.saves.selected is item                  # the newest is selected: one click to resume
    assert menu.saves.resume.is_enabled
    battle.click_button(menu.saves.resume)
    resumed = _to_battle(battle)
    assert resumed is not scene
    assert [a.to_dict() for a in resumed.game.history] == played
    assert resumed.game.pending.decision == "move"
    battle.key(pygame.K_SPACE)                  # end movement: a third action, recorded in the same file
    assert len(resumed.game.history) == 3
    files = _records()
    assert len(files) == 1
    assert len(load_record(files[0]).actions) == 3


def test_ctrl_s_saves_the_same_file(battle) -> None:  # type: ignore[no-untyped-def]
    battle.key(pygame.K_SPACE)
    first = _records()
    battle.key(pygame.K_s, mod=pygame.KMOD_CTRL)
    assert _records() == first
    assert "Saved" in battle.scene.banner[0]


def test_undo_takes_back_own_actions_until_nothing_is_left(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    assert not scene.actions.buttons["undo"].is_enabled            # nothing to take back yet
    battle.key(pygame.K_SPACE)
    battle.key(pygame.K_SPACE)
    assert scene.game.pending.decision == "move"
    undo = scene.actions.buttons["undo"]
    assert undo.is_enabled and "Ctrl+Z" in undo.tool_tip_text
    battle.click_button(undo)                                       # the button ...
    assert len(scene.game.history) == 1 and scene.game.pending.decision == "declare_charge"
    assert len(load_record(_records()[0]).actions) == 1              # the record is rewritten at once
    battle.key(pygame.K_z, mod=pygame.KMOD_CTRL)                     # ... and Ctrl+Z
    assert len(scene.game.history) == 0 and scene.game.pending.decision == "strategy"
    assert len(load_record(_records()[0]).actions) == 0
    battle.key(pygame.K_z, mod=pygame.KMOD_CTRL)                     # nothing left: refused, said why
    assert len(scene.game.history) == 0
    assert "Nothing to take back" in scene.banner[0]
    button = scene.actions.buttons["undo"]
    assert not button.is_enabled and "Nothing to take back" in button.tool_tip_text
    battle.key(pygame.K_SPACE)                                       # and the game goes on
    assert scene.game.pending.decision == "declare_charge"
    assert len(_records()) == 1


def _record_ending_with_dice(tmp_seed: int = 3) -> tuple[Path, int]:
    """A saved unfinished game of the small scenario whose last action rolled dice and whose player decides
    next (so it is that player's seat)."""
    scenario = load_scenario(SMALL)
    game = Game.start(new_game_state(scenario), Dice(seed=tmp_seed))
    player = RandomPlayer(random.Random(tmp_seed))
    while game.pending is not None:
        action = player.choose(game)
        try:
            game.apply(action)
        except IllegalAction:
            game.apply(Done(action.player))
        if game.dice_used[-1] > 0 and game.pending is not None and game.pending.player == game.history[-1].player:
            path = records_dir() / "rolled.yaml"
            save_game(game, SMALL, path)
            return path, len(game.history)
    raise AssertionError("no action with dice in this game")


def test_after_a_roll_undo_is_refused_and_says_why(driver_factory) -> None:  # type: ignore[no-untyped-def]
    path, n = _record_ending_with_dice()
    d = driver_factory()
    assert isinstance(d.scene, MenuScene)
    d.app.resume_game(path)
    scene = _to_battle(d)
    assert len(scene.game.history) == n
    before = _snapshot()
    button = scene.actions.buttons["undo"]
    assert not button.is_enabled
    assert "Dice were rolled" in button.tool_tip_text and "result stands" in button.tool_tip_text
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert len(scene.game.history) == n
    assert "Cannot take back" in scene.banner[0]
    assert _snapshot() == before
    # a disabled button still shows its tooltip when hovered
    d.move(button.rect.center, frames=90)
    assert button.tool_tip is not None


@pytest.mark.parametrize("damage", ["truncated", "other-format", "not-utf8"])
def test_a_damaged_saved_game_is_refused_in_the_window_and_left_alone(driver_factory, damage) -> None:  # type: ignore[no-untyped-def]
    path, _ = _record_ending_with_dice()
    text = path.read_text()
    bad = records_dir() / "bad.yaml"
    if damage == "not-utf8":   # issue 16: a corrupt save raised UnicodeDecodeError through resume and watch
        bad.write_bytes(text.encode()[:200] + b"\xff\xfe\x00 garbage\n" + text.encode()[200:])
    else:
        bad.write_text(text[: len(text) * 2 // 3] if damage == "truncated"
                       else text.replace("regiments-record/1", "regiments-record/9"))
    before = _snapshot()
    d = driver_factory()
    menu = d.scene
    labels = {item.path.name: label for label, item in menu.saves.by_label.items()}
    # pick the bad file in the list, as a player would: the panel says what is wrong, offers only Delete
    row = next(b for b in menu.saves.list.item_list if b["text"] == labels["bad.yaml"])
    d.click(row["button_element"].rect.center, frames=4)
    assert menu.saves.selected.path == bad
    details = menu.saves.details.html_text
    assert "bad.yaml" in details and ("damaged" in details or "regiments-record/9" in details)
    assert not menu.saves.resume.is_enabled and not menu.saves.watch.is_enabled
    assert menu.saves.delete.is_enabled
    d.click_button(menu.saves.resume)
    assert d.scene is menu
    # asked anyway (double click, command line): refused with the reason, naming the file
    for ask in (d.app.resume_game, d.app.watch_replay):
        assert ask(bad) is False
        d.frames(2)
        assert isinstance(d.scene, MenuScene) and str(bad) in d.scene.message
    if damage == "other-format":
        assert "regiments-record/9" in d.scene.message
    assert _snapshot() == before


def test_delete_asks_first(driver_factory) -> None:  # type: ignore[no-untyped-def]
    path, _ = _record_ending_with_dice()
    d = driver_factory()
    menu = d.scene
    d.click_button(menu.saves.delete)
    assert menu.saves.dialog is not None and path.exists()
    d.click_button(menu.saves.dialog.confirm_button)
    d.frames(3)
    assert not path.exists()
    assert d.scene.saves is not None and d.scene.saves.items == []


def test_the_player_leaving_the_seat_may_take_back_from_the_hand_over_screen(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    for _ in range(40):                          # player 1 ends every step of the turn with Space
        if isinstance(battle.scene, HandoverScene):
            break
        battle.key(pygame.K_SPACE)
    handover = battle.scene
    assert isinstance(handover, HandoverScene) and handover.player == 2
    game = scene.game
    n = len(game.history)
    assert game.history[-1].player == 1 and game.dice_used[-1] == 0
    assert handover.take_back is not None and "Player 1" in handover.take_back.text
    battle.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert battle.scene is scene                 # back at the table, still player 1's seat: no hand-over
    assert len(scene.game.history) == n - 1 and scene.game.pending.player == 1
    battle.frames(3)
    assert battle.scene is scene
    assert len(load_record(_records()[0]).actions) == n - 1
