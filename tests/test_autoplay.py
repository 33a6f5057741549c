"""Whole games of the default scenario played headless by random players, with invariants after every action."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.autoplay import play_out, state_is_consistent
from game.engine.actions import Action
from game.engine.dice import Dice
from game.engine.game import Game
from game.scenario import load_scenario, new_game_state

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "scenarios" / "default.yaml"
GAMES = 50


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(DEFAULT)


def _invariants(game: Game, action: Action) -> None:
    problems = state_is_consistent(game.state)
    assert not problems, f"after {action.to_dict()}: {problems}"
    pending = game.pending
    assert (pending is None) == game.state.game_over


@pytest.mark.parametrize("seed", range(1, GAMES + 1))
def test_autoplayed_game_keeps_the_invariants(scenario, seed):
    """Rulebook: General Movement (no overlaps, 1" apart outside melee, on the table); models never negative."""
    game = Game.start(new_game_state(scenario), Dice(seed=seed))
    play_out(game, seed, after_action=_invariants)
    assert game.state.game_over
    assert game.state.round == game.state.rounds


def test_same_seed_same_game(scenario):
    """A game record (scenario + dice + actions) replays exactly: the same seed gives the same game twice."""
    runs = []
    for _ in range(2):
        game = Game.start(new_game_state(scenario), Dice(seed=4242))
        actions = play_out(game, 4242)
        runs.append(([a.to_dict() for a in actions], game.digests, [e.text for e in game.log]))
    assert runs[0] == runs[1]
