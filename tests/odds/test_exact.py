"""Exact shot odds (game.odds.exact) against hand-computed cases and against the engine's own shooting resolution
rolled many times on fixed seeds (rulebook "The Shooting Sequence", "Roll to Hit", "Roll to Block", "Remove
Casualties", "General Morale Tests" and the special rules of a shot)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from game.engine import shooting
from game.engine.actions import Shoot
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.morale import morale_test
from game.engine.profiles import Weapon
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, Phase
from game.odds import shot_advice
from game.odds.exact import binomial, die_success, hit_dice, shot_odds
from tests.rules.builders import HAND_WEAPON, face_off, join_hero, profile

SHOT = Shoot(1, "archers-1", "orcs-1")


def bow(*rules: str, attacks: int = 1) -> Weapon:
    return Weapon("Bow", attacks=attacks, range=24.0, rules=rules)


def test_three_attacks_at_4_plus_against_defense_5_plus_ap1_by_hand():
    """3 attacks hitting on 4+ (1/2); Defense 5+ with AP(1) blocks only on a natural 6 (1/6): each attack wounds
    with 1/2 x 5/6 = 5/12, so the wounds are binomial(3, 5/12). 6 Orcs left with 3: a morale test (half strength,
    "General Morale Tests") that Quality 4+ fails half of the time."""
    s = face_off(10, shooter=profile(weapons=(bow("AP(1)"), HAND_WEAPON)), shooter_models=3, target_models=6)
    odds = shot_odds(s, SHOT)
    assert odds is not None
    expected = [Fraction(343, 1728), Fraction(735, 1728), Fraction(525, 1728), Fraction(125, 1728)]
    assert odds.wounds == pytest.approx([float(f) for f in expected], abs=1e-12)
    assert odds.hits == pytest.approx([1 / 8, 3 / 8, 3 / 8, 1 / 8], abs=1e-12)
    assert odds.destroyed == 0.0
    assert odds.morale_test == pytest.approx(125 / 1728)
    assert odds.morale_fail == pytest.approx(125 / 3456)


def test_natural_six_hits_and_natural_one_misses_whatever_the_modifiers():
    """Rulebook "Modifiers": a 6 always succeeds, a 1 always fails."""
    assert die_success(6, -3) == pytest.approx(1 / 6)
    assert die_success(2, +3) == pytest.approx(5 / 6)


def test_hit_dice_joint_law_sums_to_one_and_counts_sixes():
    joint = hit_dice([(2, 0.5 - 1 / 6)])
    assert joint.sum() == pytest.approx(1.0)
    assert joint[2, 0] == pytest.approx(1 / 36)        # two natural 6s
    assert binomial(2, 0.5) == pytest.approx([0.25, 0.5, 0.25])


def test_poison_rerolls_sixes_and_regeneration_saves_on_five():
    """Rulebook "Poison": Defense 6s are re-rolled (once); "Regeneration" 5+ does not work against Poison."""
    troll = profile("Trolls", defense=6, rules=("Regeneration",))
    s = face_off(10, shooter=profile(quality=2, weapons=(bow("Poison"), HAND_WEAPON)), target=troll,
                 shooter_models=1, target_models=5)
    odds = shot_odds(s, SHOT)
    assert odds is not None
    hit = 5 / 6
    fail = 5 / 6 + (1 / 6) * (5 / 6)
    assert odds.wounds[1] == pytest.approx(hit * fail)
    s2 = face_off(10, shooter=profile(quality=2, weapons=(bow(), HAND_WEAPON)), target=troll, shooter_models=1,
                  target_models=5)
    odds2 = shot_odds(s2, SHOT)
    assert odds2 is not None
    assert odds2.wounds[1] == pytest.approx(hit * 5 / 6 * 2 / 3)


def _engine_frequencies(state: GameState, action: Shoot, n: int) -> tuple[np.ndarray, float, float, float]:
    """Wounds law, destroyed, morale test and failed morale test frequencies of the engine's own shooting, rolled
    ``n`` times on fixed seeds."""
    wounds = np.zeros(200)
    destroyed = tests = fails = 0
    most = sum(wound_capacities(state.units[action.target]))
    for seed in range(n):
        s = state.clone()
        d = Dice(seed=seed)
        events = shooting.shoot(s, d, action)
        w = sum(e.data["wounds"] for e in events if e.kind == "wounds" and e.data["unit"] == action.target)
        wounds[min(w, most)] += 1     # wounds beyond the last model are lost
        target = s.units[action.target]
        destroyed += target.removed is not None
        if shooting.needs_shooting_morale_test(target):
            tests += 1
            fails += not morale_test(d, target, [], "test").passed
    return wounds / n, destroyed / n, tests / n, fails / n


CASES = {
    "sergeant, relentless, AP": dict(
        shooter=profile(weapons=(bow("AP(1)", "Relentless", attacks=2), HAND_WEAPON)), shooter_models=8,
        target_models=8, upgrades=frozenset({"sergeant"})),
    "rending and poison against Tough(2)": dict(
        shooter=profile(weapons=(bow("Rending", "Poison", attacks=2), HAND_WEAPON)), shooter_models=6,
        target=profile("Ogres", defense=4, rules=("Tough(2)", "Fearless")), target_models=4),
    "blast and deadly against Tough(3) with Regeneration": dict(
        shooter=profile(quality=3, weapons=(Weapon("Cannon", 1, 36.0, ("Blast(3)", "Deadly(2)")), HAND_WEAPON)),
        shooter_models=2, target=profile("Trolls", defense=5, rules=("Tough(3)", "Regeneration")), target_models=3),
    "two weapons, reliable": dict(
        shooter=profile(weapons=(bow("Reliable"), Weapon("Sling", 1, 12.0, ("AP(2)",)), HAND_WEAPON)),
        shooter_models=6, target_models=5, target_upgrades=frozenset({"banner"})),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_odds_match_the_engines_own_shooting_rolled_many_times(case: str):
    """The convolution against a brute-force Monte Carlo of ``shooting.shoot`` (4000 fixed seeds): every wound
    count's probability within 0.035 (about 4 standard errors), destroyed and morale within 0.035."""
    s = face_off(10, **CASES[case])
    odds = shot_odds(s, SHOT)
    assert odds is not None
    freq, destroyed, tests, fails = _engine_frequencies(s, SHOT, 4000)
    exact = np.zeros(200)
    exact[: len(odds.wounds)] = odds.wounds
    assert np.abs(exact - freq).max() < 0.035, (exact[:12].round(3), freq[:12].round(3))
    assert destroyed == pytest.approx(odds.destroyed, abs=0.035)
    assert tests == pytest.approx(odds.morale_test, abs=0.035)
    assert fails == pytest.approx(odds.morale_fail, abs=0.035)


def test_a_wrong_law_is_caught_by_the_monte_carlo_comparison():
    """The comparison above can fail: the odds of AP(1) are far from the engine's frequencies without AP."""
    s = face_off(10, **CASES["sergeant, relentless, AP"])
    odds = shot_odds(s, SHOT)
    assert odds is not None
    plain = face_off(10, shooter=profile(weapons=(bow("Relentless", attacks=2), HAND_WEAPON)), shooter_models=8,
                     target_models=8, upgrades=frozenset({"sergeant"}))
    freq, *_ = _engine_frequencies(plain, SHOT, 2000)
    exact = np.zeros(200)
    exact[: len(odds.wounds)] = odds.wounds
    assert np.abs(exact - freq).max() > 0.035


def test_a_hero_target_shot_by_two_weapons_is_simulated_with_the_engine():
    """Later weapons may roll against the hero's Defense once the other models are dead (rulebook "Hero"): not
    convolved, simulated instead (``samples`` > 0), still a sensible answer."""
    case = CASES["two weapons, reliable"]
    s = face_off(10, **case)
    join_hero(s, "orcs-1", profile("Boss", quality=3, defense=3))
    assert shot_odds(s, SHOT) is None
    s.phase = Phase.SHOOTING
    advice = shot_advice(Game.start(s, Dice(seed=1)), SHOT, budget_s=0.0)
    assert advice.samples >= 8
    assert 0 < advice.wounds.mean < 12


@pytest.mark.parametrize("tough", [1, 3])
@pytest.mark.parametrize("hero", [False, True])
@pytest.mark.parametrize("models", [1, 4])
def test_strength_after_matches_apply_wounds(tough: int, hero: bool, models: int):
    """``casualties.strength_after`` (used by the odds) says what ``apply_wounds`` does: models removed and the
    strength left (rulebook "Remove Casualties", "Tough(X)", "Hero": the hero takes wounds last)."""
    from game.engine.casualties import apply_wounds, remaining_strength, strength_after
    rules = (f"Tough({tough})",) if tough > 1 else ()
    for carried in range(tough):
        for w in range(0, 20):
            s = face_off(10, target=profile("Ogres", rules=rules), target_models=models)
            if hero:
                join_hero(s, "orcs-1", profile("Boss", rules=("Tough(2)",)))
            target = s.units["orcs-1"]
            target.wounds = carried
            before = target.models
            removed, left = strength_after(target, w)
            apply_wounds(s, target, w, "test")
            assert (removed, left) == (before - target.models, remaining_strength(target)), (carried, w)
