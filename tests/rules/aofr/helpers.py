"""Small AoF:R 2.16 games for rule tests: units on an empty table, the round of activations already begun."""

from __future__ import annotations

from collections.abc import Iterable

from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.profiles import Profile
from game.engine.state import GameState, Phase, Step, Table, Unit, make_unit
from geometry.terrain import TerrainShape
from tests.rules.builders import CENTRE_X, FRONT_Y, ORCS, pose_with_front


def unit(uid: str, player: int, prof: Profile = ORCS, models: int = 10, front_y: float = FRONT_Y,
         x: float = CENTRE_X, per_row: int = 5, upgrades: frozenset[str] = frozenset()) -> Unit:
    """A unit of ``models`` in rows of ``per_row``: player 1's face 0 (+y) with the front edge on ``front_y``,
    player 2's face 180."""
    facing = 0.0 if player == 1 else 180.0
    return make_unit(uid, player, prof, models, pose_with_front(prof, models, front_y, facing, x, per_row),
                     per_row=per_row, upgrades=upgrades)


def aofr_game(units: Iterable[Unit], dice: Iterable[int] = (), first: int = 1, terrain: Iterable[TerrainShape] = (),
              round_: int = 1) -> Game:
    """An ``aofr-2.16`` game starting at round ``round_`` with ``first`` activating first, on fixed dice."""
    s = GameState("test", Table(), terrain=list(terrain), units={u.id: u for u in units},
                  generals={1: None, 2: None})
    s.ruleset = "aofr-2.16"
    s.phase, s.step, s.round, s.active_player = Phase.ACTIVATION, Step.ACTIVATION, round_, first
    return Game.start(s, Dice(sequence=list(dice)))
