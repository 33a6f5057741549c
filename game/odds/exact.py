"""Exact odds of a shot, by convolution of the dice distributions (rulebook "The Shooting Sequence", "Roll to
Hit", "Roll to Block", "Remove Casualties", "General Morale Tests", and the special rules the engine applies to a
shot: Sergeant, Reliable/Sniper Quality, Relentless, Rending, Blast(X), Poison, Regeneration, Deadly(X), Tough(X)).

Every number comes from the engine's own functions (``game.engine.shooting.plan_shot``, ``volley_now``,
``volley_defense``, ``special_rules``, ``casualties.strength_after``, ``morale.morale_terms``); this module only
turns the dice into probabilities. Nothing here rolls a die or changes the game.

How (one weapon = one volley): each hit die is a 6 (always a hit; 1/6), another hit (natural 2-5 with
``natural + modifier >= Quality``), or a miss (a natural 1 always misses). The joint law of (sixes, other hits)
over the dice of a volley, the Sergeant's batch with its +1 included, is a 2-D convolution of the per-die laws.
Hits then follow the engine's arithmetic: ordinary hits ``(hits - rending 6s + Relentless 6s) x Blast``, Rending
hits ``rending 6s x Blast``. Each Defense die fails independently with the probability of
``not attacks.succeeds(natural, Defense, modifiers)``; Poison re-rolls a natural 6 once (so a die wounds with
``f + f/6``); Regeneration then saves each wound on 5+ (``x 2/3``). The wounds of a volley are a mixture of
binomials over the hits; Deadly(X) maps each wound count through ``special_rules.deadly_wounds``.

Several weapons: their wounds are summed (``casualties.apply_wounds`` fills the models in one order, so applying
them weapon after weapon is the same as applying the sum). That is exact unless an earlier weapon's casualties
change a later weapon's dice: a later Blast weapon (its X is capped by the models left) or a target with a
joined hero (its Defense is rolled once the other models are dead). ``shot_odds`` then returns None and the
caller simulates (``game.odds.simulate``). To-hit modifiers are taken as they stand before the first weapon.

The game's ruleset decides what differs between rulesets (``rules_of``): which models fire and whether cover is
-1 to hit (``Ruleset.all_models_shoot``, ``cover_to_hit``: AoF:R 2.16 "Who Can Shoot", "Cover Terrain"), whether a
target left with so many wounds tests morale (``Ruleset.tests_morale_after_shot``: AoWFBR at the end of the
Shooting Phase, AoF:R 2.16 at the end of the activation) and what that test needs
(``Ruleset.morale_test_terms``: AoWFBR's Banner, spells, hero's Quality, Fearless 4+; AoF:R's Fearless +1,
Wavering fails), for the target as it stands now.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.engine import shooting
from game.engine.actions import Shoot
from game.engine.attacks import succeeds, total
from game.engine.casualties import strength_after
from game.engine.rulesets import DEFAULT, RULESETS
from game.engine.rulesets.base import Ruleset
from game.engine.special_rules import (
    FEARLESS_NEED,
    REGENERATION_NEED,
    attack_quality,
    blast_multiplier,
    deadly_wounds,
    poisoned,
    regenerates,
    relentless_extra_hits,
    rending_hits,
    sergeant_modifier,
    weapon_value,
    wound_capacities,
)
from game.engine.state import GameState, Unit

Dist = np.ndarray
"""A probability distribution over 0, 1, 2, ... (index = count)."""


@dataclass(frozen=True)
class Spread:
    """Mean and standard deviation of a count."""

    mean: float
    sd: float

    def __str__(self) -> str:
        return f"{self.mean:.1f} ± {self.sd:.1f}"


def spread(dist: Dist) -> Spread:
    """Mean and standard deviation of ``dist`` (a distribution over 0..n)."""
    k = np.arange(len(dist))
    mean = float((k * dist).sum())
    var = float(((k - mean) ** 2 * dist).sum())
    return Spread(mean, max(0.0, var) ** 0.5)


@dataclass(frozen=True)
class ShotOdds:
    """The law of one Shoot action's outcome, exact."""

    hits: Dist
    """Distribution of the hits scored (all weapons, after Relentless and Blast)."""
    wounds: Dist
    """Distribution of the wounds put on the target (after Defense, Poison, Regeneration and Deadly; at most what
    it can take)."""
    destroyed: float
    """Chance the target is destroyed."""
    morale_test: float
    """Chance the target must take a morale test at the end of the Shooting Phase (half strength or less)."""
    morale_fail: float
    """Chance it takes that test and fails it (becomes Shaken)."""


def die_success(need: int, modifier: int) -> float:
    """Chance one D6 passes a test needing ``need`` with ``modifier`` (``attacks.succeeds``: natural 6 passes,
    natural 1 fails)."""
    return sum(1 for n in range(1, 7) if succeeds(n, need, modifier)) / 6.0


def binomial(n: int, p: float) -> Dist:
    """Distribution of successes among ``n`` independent trials of chance ``p``, by repeated convolution."""
    out = np.ones(1)
    step = np.array([1.0 - p, p])
    for _ in range(n):
        out = np.convolve(out, step)
    return out


def _binomial_table(n_max: int, p: float) -> np.ndarray:
    """Row n: the binomial(n, p) distribution, padded to ``n_max + 1`` columns."""
    table = np.zeros((n_max + 1, n_max + 1))
    row = np.ones(1)
    table[0, 0] = 1.0
    for n in range(1, n_max + 1):
        row = np.convolve(row, [1.0 - p, p])
        table[n, : n + 1] = row
    return table


def hit_dice(batches: list[tuple[int, float]]) -> np.ndarray:
    """Joint law P[sixes, other hits] of batches of hit dice, each (dice, chance of a non-6 hit per die)."""
    joint = np.ones((1, 1))
    for count, p_other in batches:
        die = np.zeros((2, 2))
        die[1, 0] = 1.0 / 6.0              # a natural 6: always a hit
        die[0, 1] = p_other                # natural 2..5 that passes
        die[0, 0] = 1.0 - 1.0 / 6.0 - p_other
        for _ in range(count):
            joint = _convolve2d(joint, die)
    return joint


def _convolve2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            if b[i, j]:
                out[i:i + a.shape[0], j:j + a.shape[1]] += b[i, j] * a
    return out


def _add(dist: Dist, index: int, p: float) -> Dist:
    if index >= len(dist):
        dist = np.concatenate([dist, np.zeros(index + 1 - len(dist))])
    dist[index] += p
    return dist


def volley_odds(state: GameState, v: shooting.Volley) -> tuple[Dist, Dist]:
    """(hits, wounds) distributions of one volley, with the engine's numbers for it (see the module docstring)."""
    shooter, target, weapon, prof = v.shooter, v.target, v.arm.weapon, v.arm.profile
    hero_target = v.hero_target and target.hero_alive
    quality, _ = attack_quality(prof, weapon, True)
    sarge = shooting.sergeant_index(shooter) if not v.arm.hero else None
    sarge_fires = sarge is not None and sarge in v.models
    attacks = len(v.models) * weapon.attacks
    mod = total(v.to_hit)
    p_other = die_success(quality, mod) - 1.0 / 6.0   # successes other than the natural 6
    batches = [(attacks - (weapon.attacks if sarge_fires else 0), p_other)]
    if sarge_fires:
        p_sarge = die_success(quality, mod + sergeant_modifier().value) - 1.0 / 6.0
        batches.append((weapon.attacks, p_sarge))
    joint = hit_dice(batches)
    rending = rending_hits(prof, weapon, 1) > 0
    relentless = relentless_extra_hits(prof, weapon, 1, v.relentless) > 0
    blast = blast_multiplier(weapon, 1 if hero_target else target.models)
    defender, normal_mods, rending_mods = shooting.volley_defense(state, v, rending=rending)
    poison = poisoned(prof, weapon)
    regen = regenerates(defender, prof, weapon)

    def wound_chance(mods_total: int) -> float:
        fail = 1.0 - die_success(defender.defense, mods_total)
        per_die = fail + fail / 6.0 if poison else fail    # Poison: a natural 6 is re-rolled once
        if regen:
            per_die *= 1.0 - (7 - REGENERATION_NEED) / 6.0
        return per_die

    # law of (ordinary hits, Rending hits)
    pairs: dict[tuple[int, int], float] = {}
    for s in range(joint.shape[0]):
        for h in range(joint.shape[1]):
            p = float(joint[s, h])
            if p == 0.0:
                continue
            r = s if rending else 0
            normal = (h + s - r + (s if relentless else 0)) * blast
            key = (normal, r * blast)
            pairs[key] = pairs.get(key, 0.0) + p
    n_max = max(n for n, _ in pairs)
    r_max = max(r for _, r in pairs)
    table_n = _binomial_table(n_max, wound_chance(total(normal_mods)))
    table_r = _binomial_table(r_max, wound_chance(total(rending_mods))) if rending_mods is not None and r_max \
        else np.ones((1, 1))
    hits = np.zeros(n_max + r_max + 1)
    wounds = np.zeros(n_max + r_max + 1)
    for (n, r), p in pairs.items():
        hits[n + r] += p
        wn = table_n[n, : n + 1]
        part = np.convolve(wn, table_r[r, : r + 1]) if r else wn
        wounds[: len(part)] += p * part
    if weapon.has("Deadly"):
        x = weapon_value(weapon, "Deadly")
        dealt = np.zeros(1)
        for w, p in enumerate(wounds):
            if p:
                dealt = _add(dealt, deadly_wounds(target, w, x, hero_target), float(p))
        wounds = dealt
    return hits, wounds


def rules_of(state: GameState) -> type[Ruleset]:
    """The class of the ruleset refereeing ``state`` (``game.engine.rulesets.RULESETS``)."""
    return rules_of_id(state.ruleset)


def rules_of_id(ruleset: str) -> type[Ruleset]:
    """The class of ruleset ``ruleset`` (AoWFBR 1.4 for one the program cannot play, which no game has)."""
    got = RULESETS.get(ruleset) or RULESETS[DEFAULT]
    assert isinstance(got, type) and issubclass(got, Ruleset)
    return got


def _meets_own_shot_rules(state: GameState, action: Shoot, order: list[tuple[shooting.Arm, list[int]]]) -> bool:
    """Whether the shot meets a rule whose meaning the ruleset's ``shot_rules`` may change: AoF:R 2.16's Stealth and
    Artillery on the target, Poison on a weapon fired; any shot under the quick rules' switches (Sergeant,
    Relentless, Rending, Artillery; their Surge, Bane, Unstoppable: simulated whole)."""
    r = rules_of(state).shot_rules
    if r.sergeant_sixes or r.relentless_far or r.rending_plus or r.artillery_to_hit:
        return True
    target = state.unit(action.target)
    return target.has("Stealth") or target.has("Artillery") or any(arm.weapon.has("Poison") for arm, _ in order)


def shot_odds(state: GameState, action: Shoot) -> ShotOdds | None:
    """The exact law of ``action``'s outcome, or None when it cannot be computed exactly here (see the module
    docstring; the caller then simulates). Raises ``IllegalAction`` as ``shooting.plan_shot`` does. Where the
    ruleset gives a shooting rule that this shot meets another meaning than AoWFBR's (AoF:R 2.16's Poison, Stealth,
    Artillery: ``Ruleset.shot_rules``), the shot is simulated on the engine itself (None)."""
    rules = rules_of(state)
    order, sniping = shooting.plan_shot(state, action, all_rows=rules.all_models_shoot)
    if rules.shot_rules != shooting.AOWFBR_SHOTS and _meets_own_shot_rules(state, action, order):
        return None
    target = state.unit(action.target)
    if len(order) > 1 and (target.hero_alive or any(arm.weapon.has("Blast") for arm, _ in order[1:])):
        return None
    hits = np.ones(1)
    wounds = np.ones(1)
    for arm, models in order:
        h, w = volley_odds(state, shooting.volley_now(state, action, arm, models, sniping,
                                                      cover_to_hit=rules.cover_to_hit))
        hits = np.convolve(hits, h)
        wounds = np.convolve(wounds, w)
    hero_only = sniping and target.hero_alive
    return _with_outcomes(rules, target, hits, capped(wounds, sum(wound_capacities(target, hero_only))), hero_only)


def capped(dist: Dist, most: int) -> Dist:
    """``dist`` of min(count, ``most``): wounds beyond the last model are lost (``casualties.apply_wounds``; a
    later weapon does not fire at a destroyed target), so they are not counted."""
    if len(dist) <= most + 1:
        return dist
    out = dist[: most + 1].copy()
    out[most] += dist[most + 1:].sum()
    return out


def _with_outcomes(rules: type[Ruleset], target: Unit, hits: Dist, wounds: Dist, hero_only: bool) -> ShotOdds:
    destroyed = test = 0.0
    for w, p in enumerate(wounds):
        if not p:
            continue
        _, left = strength_after(target, w, hero_only)
        if left <= 0:
            destroyed += p
        elif rules.tests_morale_after_shot(target, w, left):
            test += p
    fail = test * morale_fail_chance(target, rules) if test else 0.0
    return ShotOdds(hits, wounds, float(destroyed), float(test), float(fail))


def morale_fail_chance(unit: Unit, rules: type[Ruleset] | None = None) -> float:
    """Chance ``unit`` fails a morale test with no other modifier, as it stands, under ``rules`` (default AoWFBR
    1.4): ``Ruleset.morale_test_terms`` (AoWFBR: Banner, spells, hero's Quality, Shaken, Fearless 4+; AoF:R 2.16:
    Fearless +1, Wavering fails)."""
    terms = (rules or rules_of_id(DEFAULT)).morale_test_terms(unit)
    if terms.automatic_fail:
        return 1.0
    fail = 1.0 - die_success(terms.quality, total(list(terms.modifiers)))
    if terms.fearless:
        fail *= 1.0 - (7 - FEARLESS_NEED) / 6.0
    return fail

