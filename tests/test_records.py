"""Game records (issue "Game records: replay, save and undo"): round trips, replaying many games, taking actions
back only while no die was rolled, refusing damaged files without touching anything on disk."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import yaml

import main
from game.autoplay import RandomPlayer, play_out
from game.engine.actions import Done
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.files import records_dir
from game.record import RecordError, load_record, replay, save_record
from game.replay import ReplayCursor, Rewinder, TakeBackRefused, take_back_refusal
from game.saves import list_saved_games, open_saved_game, record_of, save_game
from game.scenario import load_scenario, new_game_state
from game.state_file import state_to_dict

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"
GAMES = 100


@pytest.fixture(scope="module")
def small():
    return load_scenario(SMALL)


def _played(scenario, seed: int) -> Game:
    game = Game.start(new_game_state(scenario), Dice(seed=seed))
    play_out(game, seed)
    return game


def _saved(game: Game, name: str = "game.yaml") -> Path:
    path = records_dir() / name
    save_game(game, SMALL, path)
    return path


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


# --- round trips and replays ----------------------------------------------------------------------------------------
def test_a_saved_record_loads_with_the_same_actions_and_digests(small):
    game = _played(small, 3)
    path = _saved(game)
    record = load_record(path)
    assert [a.to_dict() for a in record.actions] == [a.to_dict() for a in game.history]
    assert record.digests == game.digests
    assert record.extra["program"].startswith("battle-regiments ")
    assert record.extra["result"]["game_over"] is True
    assert yaml.safe_load(path.read_text())["length"] == len(game.history)
    again = replay(record)
    assert again.ok and again.game.digests == game.digests
    assert state_to_dict(again.game) == state_to_dict(game)
    # and a second save of the loaded record is the same text
    copy = path.with_name("copy.yaml")
    save_record(copy, record)
    assert load_record(copy).to_yaml() == record.to_yaml()


@pytest.mark.parametrize("seed", range(1, GAMES + 1))
def test_replaying_a_recorded_game_gives_the_same_final_state(small, seed, tmp_path):
    game = _played(small, seed)
    path = tmp_path / "r.yaml"
    save_record(path, record_of(game, SMALL, path))
    result = replay(load_record(path))
    assert result.ok, result.describe()
    assert result.game.digests == game.digests
    assert state_to_dict(result.game) == state_to_dict(game)


# --- taking back ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(1, 7))
def test_take_back_never_crosses_a_roll_and_equals_the_replay_without_the_action(small, seed):
    game = Game.start(new_game_state(small), Dice(seed=seed))
    start = game.clone()
    rewinder = Rewinder(game)
    player = RandomPlayer(random.Random(seed))
    taken = refused = 0
    while game.pending is not None:
        before = game.clone()
        action = player.choose(game)
        try:
            game.apply(action)
        except IllegalAction:
            action = Done(action.player)
            game.apply(action)
        rewinder.remember(game)
        who = action.player
        if game.can_take_back(who):
            assert game.dice_used[-1] == 0
        if game.pending is None:
            break
        if take_back_refusal(game, who) is None:
            back = rewinder.take_back(game, who)
            assert back.history == game.history[:-1]
            assert back.digests == before.digests
            assert state_to_dict(back) == state_to_dict(before)
            assert back.dice.consumed == before.dice.consumed
            if taken % 8 == 0:      # and now and then against a replay from the very start
                direct = start.clone()
                for a in game.history[:-1]:
                    direct.apply(a)
                assert state_to_dict(back) == state_to_dict(direct) and back.digests == direct.digests
            taken += 1
        elif game.dice_used[-1] > 0:
            with pytest.raises(TakeBackRefused, match="Dice were rolled"):
                rewinder.take_back(game, who)
            refused += 1
    assert taken > 10 and refused > 3


def test_take_back_twice_in_a_row_then_play_on(small):
    game = Game.start(new_game_state(small), Dice(seed=4))
    rewinder = Rewinder(game)
    game.apply(Done(1))                      # 1. Strategy: nothing to cast
    game.apply(Done(1))                      # 2.1 no charges
    assert game.pending.decision == "move" and game.can_take_back(1)
    once = rewinder.take_back(game, 1)
    twice = rewinder.take_back(once, 1)
    assert len(twice.history) == 0
    assert twice.state.phase.value == "strategy_1"
    with pytest.raises(TakeBackRefused, match="Nothing to take back"):
        rewinder.take_back(twice, 1)
    twice.apply(Done(1))
    assert twice.pending.decision == "declare_charge"


def test_the_opponent_cannot_take_back_your_action(small):
    game = Game.start(new_game_state(small), Dice(seed=4))
    rewinder = Rewinder(game)
    game.apply(Done(1))
    with pytest.raises(TakeBackRefused, match="Player 1's"):
        rewinder.take_back(game, 2)


# --- saved games: listing, resuming, refusing ------------------------------------------------------------------------
def _unfinished(scenario, seed: int, actions: int) -> Game:
    game = Game.start(new_game_state(scenario), Dice(seed=seed))
    player = RandomPlayer(random.Random(seed))
    while len(game.history) < actions:
        action = player.choose(game)
        try:
            game.apply(action)
        except IllegalAction:
            game.apply(Done(action.player))
    return game


def test_resume_gives_the_same_game_and_lists_newest_first(small):
    old = _saved(_played(small, 5), "old.yaml")
    os.utime(old, (1_000_000_000, 1_000_000_000))
    game = _unfinished(small, 6, 30)
    path = _saved(game, "new.yaml")
    listed = list_saved_games()
    assert [g.path.name for g in listed] == ["new.yaml", "old.yaml"]
    assert listed[0].finished is False and listed[1].finished is True
    assert listed[0].title == "Small Skirmish" and listed[0].round == game.state.round
    assert listed[0].actions == 30 and "unfinished" == listed[0].status()
    opened = open_saved_game(path)
    assert opened.game.digests == game.digests
    assert state_to_dict(opened.game) == state_to_dict(game)
    assert Path(opened.scenario) == SMALL.resolve()
    # it goes on exactly as the original would
    a = RandomPlayer(random.Random(9)).choose(game)
    assert opened.game.apply(a) == game.apply(a)


def _damaged_versions(text: str) -> dict[str, str]:
    lines = text.splitlines(keepends=True)
    half = len(text) // 2
    return {
        "cut-mid-line": text[:half],
        "cut-at-a-line": "".join(lines[: len(lines) // 2]),
        "cut-before-the-last-digest": "".join(lines[:-1]) if "digest" in lines[-1] else text[:-20],
        "header-only": "".join(lines[:3]),
        "empty": "",
        "garbage": "\x00\x01binary\xff garbage {[",
        "not-a-mapping": "- just\n- a list\n",
        "other-format": text.replace("regiments-record/1", "regiments-record/2", 1),
        "bad-digest": text.replace("digest: ", "digest: zz", 1),
    }


@pytest.mark.parametrize("kind", list(_damaged_versions("x")))
def test_a_damaged_file_is_refused_naming_it_and_nothing_on_disk_changes(small, kind, capsys):
    good = _saved(_unfinished(small, 7, 25), "good.yaml")
    text = good.read_text(encoding="utf-8")
    bad = records_dir() / f"{kind}.yaml"
    bad.write_bytes(_damaged_versions(text)[kind].encode("utf-8", "surrogateescape"))
    before = _snapshot(records_dir())
    with pytest.raises(RecordError) as err:
        open_saved_game(bad)
    assert str(bad) in str(err.value)
    if kind == "other-format":
        assert "regiments-record/2" in str(err.value) and "reads regiments-record/1" in str(err.value)
    assert main.main(["check", str(bad)]) == main.EXIT_PROBLEMS
    assert str(bad) in capsys.readouterr().out
    listed = {g.path.name: g for g in list_saved_games()}
    assert listed["good.yaml"].problem is None
    assert _snapshot(records_dir()) == before
    assert open_saved_game(good).game.digests[:25] == load_record(good).digests


def test_a_record_whose_replay_diverges_can_be_watched_up_to_there_but_not_resumed(small):
    game = _unfinished(small, 8, 40)
    path = _saved(game, "drift.yaml")
    data = yaml.safe_load(path.read_text())
    data["actions"][20]["digest"] = "0123456789"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    before = _snapshot(records_dir())
    with pytest.raises(RecordError, match=r"action 20 .*no longer gives the recorded outcome"):
        open_saved_game(path)
    cursor = ReplayCursor(load_record(path))
    assert cursor.length == 20 and cursor.problem and "action 20" in cursor.problem
    assert cursor.game_at(20).digests == game.digests[:20]
    assert _snapshot(records_dir()) == before


def test_an_illegal_action_stops_the_replay_with_the_reason(small):
    path = _saved(_unfinished(small, 8, 10), "illegal.yaml")
    data = yaml.safe_load(path.read_text())
    data["actions"][5] = {"type": "shoot", "player": 1, "unit": "crossbows-1", "target": "nobody"}
    del data["length"]
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(RecordError, match="action 5 .* is illegal"):
        open_saved_game(path)
    cursor = ReplayCursor(load_record(path))
    assert cursor.length == 5 and "action 5" in (cursor.problem or "")


def test_a_failed_save_leaves_the_previous_file_as_it_was(small, monkeypatch):
    game = _unfinished(small, 2, 12)
    path = _saved(game, "keep.yaml")
    before = _snapshot(records_dir())

    def broken(src, dst):  # noqa: ANN001 - the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        save_game(game, SMALL, path)
    assert _snapshot(records_dir()) == before     # no temporary file left behind either


def test_record_names_carry_the_battle_and_the_date_once(tmp_path, monkeypatch):
    """A saved game is named after the battle and the date, once (not the set-up's file stamp and another)."""
    from datetime import datetime

    from game.saves import new_record_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    when = datetime(2026, 11, 25, 14, 2, 33)
    by_title = new_record_path("scenarios/default.yaml", when, title="Battle of the Ashen Ford!")
    assert by_title.name == "battle-of-the-ashen-ford-2026-11-25-1402.yaml"
    by_file = new_record_path("/x/border-battle-20261125-140001.yaml", when)
    assert by_file.name == "border-battle-2026-11-25-1402.yaml"
