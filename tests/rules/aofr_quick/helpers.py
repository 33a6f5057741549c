"""Small games of the AoF:R quick rules (``ruleset: aofr-quick``) for rule tests: units on an empty table, the round
of activations already begun (../shared/rules/aofr-quick-rules.md)."""

from __future__ import annotations

from collections.abc import Iterable

from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.rulesets.aofr_quick import QuickActivations
from game.engine.state import GameState, Phase, Step, Table, Unit
from geometry.terrain import TerrainShape


def quick_game(units: Iterable[Unit], dice: Iterable[int] = (), first: int = 1, terrain: Iterable[TerrainShape] = (),
               round_: int = 1) -> Game:
    """An ``aofr-quick`` game starting at round ``round_`` with ``first`` activating first, on fixed dice."""
    s = GameState("test", Table(), terrain=list(terrain), units={u.id: u for u in units},
                  generals={1: None, 2: None})
    s.ruleset = "aofr-quick"
    s.phase, s.step, s.round, s.active_player = Phase.ACTIVATION, Step.ACTIVATION, round_, first
    return Game.start(s, Dice(sequence=list(dice)))


def activation(game: Game) -> QuickActivations:
    """The round of activations in progress."""
    a = game.state.activation
    assert isinstance(a, QuickActivations)
    return a


def melee_scores(events: list) -> dict[str, int]:
    """The scores of the "Melee Results" event among ``events``."""
    return next(e for e in events if e.kind == "melee" and "scores" in e.data).data["scores"]


def morale_rolls(events: list) -> list:
    """The morale test roll events among ``events``."""
    return [e for e in events if e.kind == "roll" and e.data["purpose"].startswith("Morale test")]
