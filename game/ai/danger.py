"""Dangerous terrain priced at its expectation when the computer opponent judges a move.

A move is judged on few samples of the search's own dice (``ai`` scores it on one). A path through dangerous
terrain (AoWFBR 1.4 "Dangerous Terrain": each model rolls one die, or as many as its Tough, and each 1 is a
wound; AoF:R the same) then looks free in the samples where no 1 is rolled, and among several candidates the one
that got lucky is picked: the search learnt to cross ruins and rivers every turn and bled models doing it. So
while a move is judged the tests are not rolled: ``PricedDangerDice`` shows no 1 and tallies the dice each unit
would have rolled, and ``expected_cost`` prices a sixth of them as wounds, on every sample alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.casualties import dangerous_test_purpose
from game.engine.dice import Dice, Roll
from game.engine.game import Game

WOUND_WORTH = 1.0
"""Share of a model's cost one expected wound of its unit is priced at (per Tough): a model lost on the way is
lost for nothing, its fighting power and the half-strength Victory Points with it; the evaluation's material
share alone (``evaluate.MATERIAL``) priced the riders' four inches saved above their wounds."""


@dataclass
class PricedDangerDice(Dice):
    """The search's own seeded dice whose dangerous terrain tests of the units in ``tests`` (the roll's purpose
    -> unit id) roll no 1 (every die shows 6, no wound); the dice each unit would have rolled are added up in
    ``tallied`` (unit id -> dice). Every other roll (a Phalanx's tests too) is rolled as usual."""

    tests: dict[str, str] = field(default_factory=dict)
    """Roll purpose (``casualties.dangerous_test_purpose``) -> the id of the unit that rolls it."""
    tallied: dict[str, int] = field(default_factory=dict)
    """Unit id -> dangerous terrain dice not rolled."""

    def d6(self, count: int, purpose: str) -> list[int]:
        """As ``Dice.d6``, but a dangerous terrain test of a unit in ``tests`` is tallied and shows only 6s."""
        uid = self.tests.get(purpose) if count > 0 else None
        if uid is None:
            return super().d6(count, purpose)
        self.tallied[uid] = self.tallied.get(uid, 0) + count
        results = [6] * count
        self.consumed += count
        self.rolls.append(Roll(purpose, tuple(results)))
        return results


def priced_dice(game: Game, seed: int) -> PricedDangerDice:
    """Dice seeded ``seed`` for a clone of ``game`` whose dangerous terrain tests are tallied, not rolled (units
    sharing a name share their tests: the first is priced, the same cost for like units)."""
    tests: dict[str, str] = {}
    for u in game.state.units.values():
        tests.setdefault(dangerous_test_purpose(u.name), u.id)
    return PricedDangerDice(seed=seed, tests=tests)


def expected_cost(game: Game, dice: PricedDangerDice, seat: int) -> float:
    """Points (on the evaluation's scale) the tallied tests cost ``seat``: per die 1/6 of a wound, priced
    ``WOUND_WORTH`` x the unit's cost per model per Tough; positive for ``seat``'s own units, negative (a gain) for
    the other side's."""
    total = 0.0
    for uid, count in dice.tallied.items():
        u = game.state.units.get(uid)
        if u is None or u.starting_models <= 0:
            continue
        per_wound = WOUND_WORTH * u.cost / u.starting_models / max(u.tough, 1)
        total += (1.0 if u.player == seat else -1.0) * per_wound * count / 6.0
    return total
