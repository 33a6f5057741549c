"""Small AoF: Skirmish games for rule tests: loose models on an empty 48" x 48" table, the round already begun."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from game.engine.actions import MoveModels, TablePoint
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.profiles import Profile, Weapon
from game.engine.skirmish.loose import LooseModel, Warband
from game.engine.state import GameState, Phase, Step, Table, Unit, make_unit
from geometry.pose import Pose
from geometry.terrain import TerrainShape

XY = tuple[float, float]

WARRIOR = Profile("Warrior", 4, 4, 25.4, 25.4, 5, 50, (Weapon("Sword", 1),))
"""Quality 4+, Defense 4+, 1" round bases (radius 0.5"), one melee attack."""
ARCHER = Profile("Archer", 4, 5, 25.4, 25.4, 3, 30, (Weapon("Bow", 1, 24.0), Weapon("Knife", 1)))
"""Quality 4+, Defense 5+, a 24" bow and a knife."""
CHAMPION = Profile("Champion", 3, 3, 25.4, 25.4, 1, 50, (Weapon("Blade", 3, rules=("AP(1)",)),),
                   ("Hero", "Tough(3)", "Fear(1)"))
"""A Tough(3) Hero with Fear(1)."""


def line(x: float, y: float, n: int, step: float = 1.5) -> list[XY]:
    """``n`` model centres along x from (x, y), ``step`` apart (1" bases: 0.5" gaps, in coherency)."""
    return [(x + i * step, y) for i in range(n)]


def unit(uid: str, player: int, prof: Profile, n: int) -> Unit:
    """A unit of ``n`` models (placed by ``skirmish_game``)."""
    return make_unit(uid, player, prof, n, None)


def skirmish_game(placed: Sequence[tuple[Unit, Sequence[XY]]], dice: Iterable[int] = (), first: int = 1,
                  terrain: Iterable[TerrainShape] = (), round_: int = 1) -> Game:
    """An ``aof-skirmish`` game at round ``round_``, ``first`` activating first, on fixed dice."""
    units = {u.id: u for u, _ in placed}
    s = GameState("test", Table(48.0, 48.0), terrain=list(terrain), units=units, generals={1: None, 2: None})
    s.ruleset = "aof-skirmish"
    s.mission = "standard"
    s.phase, s.step, s.round, s.active_player = Phase.ACTIVATION, Step.ACTIVATION, round_, first
    s.activation = Warband(models={u.id: [LooseModel(x, y) for x, y in pts] for u, pts in placed})
    for u, pts in placed:
        u.pose = Pose(sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts), 0.0)
    return Game.start(s, Dice(sequence=list(dice)))


def move(player: int, uid: str, action: str, pts: Sequence[XY]) -> MoveModels:
    """A ``move_models`` action."""
    return MoveModels(player, uid, action, tuple(TablePoint(x, y) for x, y in pts))


def shifted(pts: Sequence[XY], dx: float, dy: float) -> list[XY]:
    """Every point moved by (dx, dy)."""
    return [(x + dx, y + dy) for x, y in pts]
