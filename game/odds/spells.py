"""Exact odds of a spell's automatic hits, for a spell aimed at a point (its ``area``: every unit it affects there)
or at one unit (issue 15; rulebook "Caster(X)", "Roll to Block", "Regeneration", "Remove Casualties").

The dice of a cast are the casting roll (4+, +1 per boost token: ``magic.cast_terms``), then, for each unit it falls
on, the Defense rolls of its hits (``magic.spell_defense``: AP, cover if the spell says so, the target's spell
modifiers, whose Defense) and Regeneration (5+ per wound, ``special_rules.regenerates``). The units' dice are
independent of each other and wounds on one unit do not change another's, so each unit's wounds are a binomial law
mixed with the casting roll: exact, with the engine's own numbers, "if not dispelled" (the opponent's dispel tokens
are a decision, not dice). Morale as for a shot (``exact.morale_fail_chance``, ``Ruleset.tests_morale_after_shot``).
A spell without hits (a modifier, a heal, a rally) rolls nothing after the casting roll: its odds are the cast's.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import magic
from game.engine.actions import CastSpell
from game.engine.attacks import total
from game.engine.casualties import strength_after
from game.engine.special_rules import REGENERATION_NEED, regenerates, wound_capacities
from game.engine.state import GameState
from game.odds.exact import Spread, binomial, capped, die_success, morale_fail_chance, rules_of, spread


@dataclass(frozen=True)
class UnitSpellOdds:
    """What a cast may do to one unit it falls on (the cast failing counted as nothing)."""

    unit: str
    wounds: Spread
    """Wounds it takes (at most what it can take)."""
    destroyed: float
    morale_test: float
    """Chance it is left testing morale for these wounds (the game's ruleset decides when)."""
    morale_fail: float
    """Chance it tests and fails."""


@dataclass(frozen=True)
class SpellOdds:
    """The odds of one cast, if not dispelled."""

    cast: float
    """Chance the casting roll succeeds."""
    units: tuple[UnitSpellOdds, ...]
    """One per unit the spell's hits fall on (the target, or the area's units nearest first); empty for a spell
    without hits."""
    affected: tuple[str, ...]
    """Every unit its effects fall on."""


def spell_odds(state: GameState, action: CastSpell) -> SpellOdds:
    """The exact odds of ``action`` (module docstring). Raises ``IllegalAction`` as ``magic.cast_spell`` does."""
    terms = magic.cast_terms(state, action)
    cast = die_success(magic.CAST_NEED, terms.boost)
    rules = rules_of(state)
    hits = terms.spell.hits
    out: list[UnitSpellOdds] = []
    for unit in terms.targets if hits is not None else ():
        assert hits is not None
        defender, mods = magic.spell_defense(state, terms.caster, hits, unit)
        fail = 1.0 - die_success(defender.defense, total(mods))
        if regenerates(defender, terms.caster.profile, None):
            fail *= (REGENERATION_NEED - 1) / 6.0
        law = capped(binomial(hits.count, fail), sum(wound_capacities(unit))) * cast
        law[0] += 1.0 - cast                         # a failed cast: no wound
        destroyed = test = 0.0
        for w, p in enumerate(law):
            if not p:
                continue
            _, left = strength_after(unit, w)
            if left <= 0:
                destroyed += p
            elif rules.tests_morale_after_shot(unit, w, left):
                test += p
        out.append(UnitSpellOdds(unit.id, spread(law), float(destroyed), float(test),
                                 float(test * morale_fail_chance(unit, rules)) if test else 0.0))
    return SpellOdds(cast, tuple(out), tuple(u.id for u in terms.targets))
