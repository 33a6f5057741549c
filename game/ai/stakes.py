"""What a unit's side stands to lose when the unit takes wounds, in the points of the position evaluation.

The evaluation (``game.ai.evaluate``) scores a unit still in the game by its ``standing`` (``MATERIAL`` of its worth,
less ``SHAKEN`` or ``FLEEING`` of it) and the enemy by the Victory Points the unit gives up (``scored``: AoWFBR 1.4
"Victory Conditions": destroyed, routed or fled 100% of its cost and its hero's, +50 with a banner, +100 for the
General; half strength or less 50% of its own cost; a joined hero killed its cost). A threat to the unit (a volley,
a charge) is worth, to the side that makes it, the expected drop of those two terms: ``stake_table`` gives the drop
for each number of wounds the unit may take, so that a volley that would leave it at half strength, or destroy it
and score its cost and the General's bonus, is counted at what it is worth to the game's result (a lone hero shot
dead gave up 47 points of worth in the old estimate, and 142 or more of the result).

Where units do not score (``Ruleset.units_score`` False: AoF:R 2.16 "The Mission", only objective markers count)
only the standing counts.

Everything here is a pure function of the unit's public state; results are remembered by that state (the
evaluation asks the same few units thousands of times per decision).
"""

from __future__ import annotations

import copy
import functools
import math

from game.engine.casualties import strength_after
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, Removal, Unit
from game.engine.victory import BANNER, GENERAL_BONUS, hero_victory_points, unit_victory_points

MATERIAL = 0.5
"""Share of a unit's cost it is worth while in the game (its full cost is already VP once it is gone)."""
SHAKEN = 0.35
"""Share of its worth a Shaken unit loses."""
FLEEING = SHAKEN
"""Share of its worth a fleeing unit loses: as a Shaken one. By the time a position is judged the flight is over and
its chasers have tried to catch it (a charger runs it down in its charge move, a melee's winner in its pursuit move:
AoWFBR 1.4 "Flee", "Flight Moves"); what is left is a Shaken unit (its flag clears when the next turn begins). Worth
0.9 of its worth, a target that fled from a charge looked all but destroyed, and charges at units that would flee,
leaving the charger stranded before the enemy's lines, looked good."""


def worth(unit: Unit) -> float:
    """Points a unit in the game is worth now: its cost x models left / starting models, plus a living hero."""
    if unit.removed is not None or unit.starting_models <= 0:
        return 0.0
    w = unit.cost * unit.models / unit.starting_models
    if unit.hero is not None and unit.hero_alive:
        w += unit.hero.cost
    return w


def standing(unit: Unit) -> float:
    """The unit's own term in the evaluation (points, for its side): ``MATERIAL`` of its worth, less ``FLEEING``
    of it while it flees or ``SHAKEN`` of it while Shaken."""
    w = worth(unit)
    if w <= 0.0:
        return 0.0
    if unit.fleeing:
        return (MATERIAL - FLEEING) * w
    if unit.shaken:
        return (MATERIAL - SHAKEN) * w
    return MATERIAL * w


def _is_general(state: GameState, unit: Unit) -> bool:
    general = state.generals.get(unit.player)
    return general is not None and (unit.id == general or (unit.hero is not None and unit.hero.id == general))


def scored(state: GameState, unit: Unit) -> int:
    """Victory Points the enemy holds for ``unit`` as it stands (``game.engine.victory``: the unit's own line, its
    joined hero's, and the General's bonus when the enemy has a General of its own)."""
    points = 0
    for line in (unit_victory_points(unit), hero_victory_points(unit)):
        if line is not None:
            points += line[1]
    if _is_general(state, unit) and state.generals.get(3 - unit.player) is not None:
        gone = unit.removed is not None or (unit.hero is not None and unit.hero.killed)
        if gone:
            points += GENERAL_BONUS
    return points


def after_wounds(unit: Unit, wounds: int) -> Unit:
    """A copy of ``unit`` as ``wounds`` more wounds would leave it (``casualties.strength_after``: the most wounded
    model first, a joined hero last); destroyed when nothing is left. ``unit`` is unchanged."""
    if wounds <= 0:
        return unit
    removed, left = strength_after(unit, wounds)
    out = copy.copy(unit)
    if left <= 0 or removed >= unit.models:
        out.models = 0
        out.removed = Removal.DESTROYED
        return out
    out.models = unit.models - removed
    caps = wound_capacities(unit)
    # the wounds not spent on removed models sit on the next one (a single Tough model keeps them all)
    spent = sum(caps[:removed])
    rest = wounds - spent
    if unit.hero_alive and removed >= unit.regulars:
        assert unit.hero is not None and out.hero is not None
        out.hero = copy.copy(unit.hero)
        out.hero.wounds = unit.hero.wounds + rest
    elif rest > 0:
        out.wounds = (unit.wounds if removed == 0 else 0) + rest
    elif removed:
        out.wounds = 0
    return out


def _key(state: GameState, unit: Unit, units_score: bool) -> tuple[object, ...]:
    hero = unit.hero
    return (unit.id, unit.profile.name, unit.cost, unit.starting_models, unit.models, unit.wounds, unit.profile.tough,
            unit.shaken, unit.fleeing, unit.removed,
            None if hero is None else (hero.id, hero.cost, hero.wounds, hero.killed, hero.profile.tough),
            BANNER in unit.upgrades, _is_general(state, unit), state.generals.get(3 - unit.player) is not None,
            units_score)


_TABLES: dict[tuple[object, ...], tuple[float, ...]] = {}
_TABLES_MAX = 50_000


def stake_table(state: GameState, unit: Unit, units_score: bool) -> tuple[float, ...]:
    """The evaluation points ``unit``'s side loses if the unit takes 0, 1, 2 ... wounds now, up to the wounds that
    destroy it (the last entry): the drop of its ``standing`` plus, where units score (``units_score``), the
    Victory Points it gives up (``scored``). Entry 0 is 0."""
    key = _key(state, unit, units_score)
    got = _TABLES.get(key)
    if got is not None:
        return got
    cap = sum(wound_capacities(unit))
    now_standing = standing(unit)
    now_scored = scored(state, unit) if units_score else 0
    out = [0.0]
    for w in range(1, cap + 1):
        after = after_wounds(unit, w)
        lost = now_standing - standing(after)
        if units_score:
            lost += scored(state, after) - now_scored
        out.append(lost)
    table = tuple(out)
    if len(_TABLES) >= _TABLES_MAX:
        _TABLES.clear()
    _TABLES[key] = table
    return table


@functools.lru_cache(maxsize=20_000)
def wounds_law(batches: tuple[tuple[int, float], ...], cap: int) -> tuple[float, ...]:
    """The law of the wounds of independent dice: ``batches`` of (dice, chance each wounds), summed, with every
    count of ``cap`` or more gathered at ``cap`` (wounds beyond the last model change nothing). A tuple of
    probabilities indexed by wounds."""
    law = [1.0]
    for n, p in batches:
        if n <= 0 or p <= 0.0:
            continue
        p = min(p, 1.0)
        one = [math.comb(n, k) * p ** k * (1.0 - p) ** (n - k) for k in range(n + 1)]
        out = [0.0] * min(len(law) + n, cap + 1)
        for i, a in enumerate(law):
            if a == 0.0:
                continue
            for k, b in enumerate(one):
                out[min(i + k, cap)] += a * b
        law = out
    return tuple(law)


def expected_loss(table: tuple[float, ...], law: tuple[float, ...]) -> float:
    """The mean of ``table`` (``stake_table``) over the wounds ``law`` (``wounds_law``)."""
    top = len(table) - 1
    return sum(p * table[min(w, top)] for w, p in enumerate(law) if p)
