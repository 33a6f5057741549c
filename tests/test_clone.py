"""``Game.clone`` gives an independent game (design.md: a computer player looks ahead on clones).

The clone shares what never changes (profiles, terrain, each unit's shapes at a pose) and copies the rest; these
tests play clones on with other dice and check that the original goes on exactly as a game never cloned.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.autoplay import RandomPlayer
from game.engine.actions import Done
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.scenario import load_scenario, new_game_state
from game.state_file import state_to_dict

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _step(game: Game, player: RandomPlayer) -> None:
    action = player.choose(game)
    try:
        game.apply(action)
    except IllegalAction:
        game.apply(Done(action.player))


@pytest.mark.parametrize(("scenario", "seed"), [("default.yaml", 1), ("default.yaml", 2),
                                                ("undead_vs_humans_1500.yaml", 3)])
def test_clones_played_on_leave_the_original_as_a_game_never_cloned(scenario, seed):
    sc = load_scenario(SCENARIOS / scenario)
    game = Game.start(new_game_state(sc), Dice(seed=seed))
    never_cloned = Game.start(new_game_state(sc), Dice(seed=seed))
    player = RandomPlayer(random.Random(seed))
    played = clones = 0
    while game.pending is not None:
        if played % 6 == 0:
            clone = game.clone()
            other = RandomPlayer(random.Random(seed * 1000 + played))
            for _ in range(25):                 # the clone moves, fights, rolls: none of it may reach the game
                if clone.pending is None:
                    break
                _step(clone, other)
            clones += 1
        action = player.choose(game)
        try:
            game.apply(action)
        except IllegalAction:
            action = Done(action.player)
            game.apply(action)
        never_cloned.apply(action)
        assert game.digests[-1] == never_cloned.digests[-1], f"action {played} {action.to_dict()}"
        played += 1
    assert clones > 10
    assert state_to_dict(game) == state_to_dict(never_cloned)


def test_a_clone_sees_the_table_as_the_original_did():
    sc = load_scenario(SCENARIOS / "default.yaml")
    game = Game.start(new_game_state(sc), Dice(seed=5))
    player = RandomPlayer(random.Random(5))
    for _ in range(60):
        _step(game, player)
    game.state.scene.shape_index()              # built in the original, copied lazily
    clone = game.clone()
    s, c = game.state.scene, clone.state.scene
    assert c.unit_ids() == s.unit_ids()
    for uid in s.unit_ids():
        assert c.pose(uid) == s.pose(uid)
        assert c.units_within(uid, 6.0) == s.units_within(uid, 6.0)
    for uid in s.unit_ids():
        box = s.corners(uid) + [0.5, 0.5]
        assert c.shape_index().overlapping(box) == s.shape_index().overlapping(box)


@pytest.mark.parametrize("seed", [4, 5])
def test_move_checks_answer_alike_played_cloned_and_replayed(seed):
    """Issue 13: move checks keep answers per position in the scene's cache (the distances from a start, overlaps,
    whole checks, the stacked rows after a move) and work out a refused move's point only when read. Every move a
    random player proposed answers the same (rule, message, point) when the point is read long after, in a game
    replayed from scratch to that position (a rewind), in a clone of it, and in it after that clone played on."""
    sc = load_scenario(SCENARIOS / "default.yaml")
    game = Game.start(new_game_state(sc), Dice(seed=seed))
    asked: list[tuple[int, object, IllegalAction | None]] = []
    check = game.check_move

    def spy(action):
        answer = check(action)
        asked.append((len(game.history), action, answer))
        return answer

    game.check_move = spy  # type: ignore[method-assign]
    player = RandomPlayer(random.Random(seed))
    while game.pending is not None:
        _step(game, player)

    def said(answer: IllegalAction | None) -> tuple[object, ...] | None:
        return None if answer is None else (answer.rule, answer.message, answer.where)

    replayed = Game.start(new_game_state(sc), Dice(seed=seed))
    other = RandomPlayer(random.Random(seed + 99))
    done = 0
    for at, action, answer in asked:
        while len(replayed.history) < at:
            replayed.apply(game.history[len(replayed.history)])
        clone = replayed.clone()
        assert said(clone.check_move(action)) == said(answer)
        for _ in range(3):                      # the clone moves on: the replayed game's answers stay its own
            if clone.pending is None:
                break
            _step(clone, other)
        assert said(replayed.check_move(action)) == said(answer)
        done += 1
    assert done > 50 and any(a is not None for _, _, a in asked)


@pytest.mark.parametrize("scenario", ["default.yaml", "aofr_quick_spells.yaml", "skirmish_crossroads.yaml"])
def test_the_fields_a_clone_shares_hold_only_values_that_cannot_change(scenario):
    """``GameState.clone`` looks only inside the fields whose annotations admit a mutable value
    (``state._mutable_fields``); the values of the others, in games played on, are all of types a clone shares."""
    from dataclasses import fields, is_dataclass

    from game.engine import state as st

    game = Game.start(new_game_state(load_scenario(SCENARIOS / scenario)), Dice(seed=4))
    player = RandomPlayer(random.Random(4))
    seen = 0
    while game.pending is not None:
        _step(game, player)
        units = list(game.state.units.values())
        values = units + [u.hero for u in units] + [v for v in vars(game.state).values() if is_dataclass(v)]
        for obj in values:
            if not is_dataclass(obj) or type(obj).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                continue
            mutable = st._mutable_fields(type(obj))
            for f in fields(obj):
                if f.name not in mutable:
                    value = getattr(obj, f.name)
                    assert st._always_shared(type(value)), f"{type(obj).__name__}.{f.name} = {value!r}"
                    seen += 1
    assert seen > 1000
