"""Replays: random access to any position of a recorded game, snapshots plus replay (issue: game records)."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from game.engine.state import Phase
from game.record import load_record, replay
from game.replay import ReplayCursor

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cursor(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.yaml"
    assert main.main(["autoplay", str(ROOT / "scenarios" / "default.yaml"), "--seed", "11",
                      "--record", str(path)]) == 0
    return ReplayCursor(load_record(path))


def test_every_position_equals_a_replay_from_the_start(cursor):
    record = cursor.record
    for index in (0, 1, 7, cursor.length // 2, cursor.length):
        direct = replay(record, upto=index).game
        jumped = cursor.game_at(index)
        assert jumped.digests == direct.digests
        assert [(u.id, u.models, u.pose) for u in jumped.state.units.values()] == \
            [(u.id, u.models, u.pose) for u in direct.state.units.values()]


def test_stepping_back_does_not_disturb_later_positions(cursor):
    late = cursor.game_at(cursor.length)
    cursor.game_at(3)
    again = cursor.game_at(cursor.length)
    assert again.digests == late.digests and again.state.game_over


def test_jump_to_round_and_phase(cursor):
    index = cursor.find(3, 2, Phase.SHOOTING)
    game = cursor.game_at(index)
    assert (game.state.round, game.state.active_player, game.state.phase) == (3, 2, Phase.SHOOTING)


def test_timeline_lists_the_main_events_in_order(cursor):
    assert cursor.timeline, "a whole game has charges or combats"
    indices = [e.index for e in cursor.timeline]
    assert indices == sorted(indices)
    assert cursor.timeline[-1].kind == "victory"
