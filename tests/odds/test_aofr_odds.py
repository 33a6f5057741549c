"""The odds under AoF:R 2.16 (issue 15): the odds panel's shooting, melee and morale figures follow the game's
ruleset (``game.engine.rulesets``), not AoWFBR's formulas. Positions come from the shipped AoF:R scenario
(scenarios/aofr_border_clash.yaml) played by the lesson opponent to its first shot and first charge; each figure is
checked against the engine itself playing the same decision many times with other dice (AoF:R 2.16 "Who Can
Shoot", "Cover Terrain", "Melee", "Return Strikes", "Combat Resolution", "Morale: When to Test", "Taking Morale
Tests", "Fearless", "Wavering Units")."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from game.engine.actions import DeclareCharge, Done, Shoot, StrikeBack
from game.engine.casualties import remaining_strength
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.rulesets.aofr import AoFR216
from game.engine.rulesets.aowfbr import AoWFBR
from game.odds import shot_advice
from game.odds.exact import morale_fail_chance, rules_of, shot_odds
from game.odds.simulate import ChargeStudy, shot_study
from game.players import make_player
from game.scenario import load_scenario, new_game_state
from game.ui.odds_panel import charge_lines
from tests.rules.aofr.helpers import unit
from tests.rules.builders import profile

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "aofr_border_clash.yaml"


@lru_cache(maxsize=8)
def _history(seed: int, decision: str) -> tuple[Game, int]:
    game = Game.start(new_game_state(load_scenario(SCENARIO)), Dice(seed=seed))
    player = make_player("simple", seed)
    for _ in range(3000):
        p = game.pending
        assert p is not None
        if p.decision == decision and (decision != "action" or game.charge_targets(p.unit or "")):
            return game, len(game.history)
        game.apply(player.choose(game))
    raise AssertionError(f"no {decision} decision")


def border_clash(seed: int, decision: str) -> Game:
    """A fresh copy of the border clash played (lesson opponent, seed ``seed``) to its first ``decision``
    (``shoot``; ``action`` with a charge target)."""
    return _history(seed, decision)[0].clone()


def _engine_shots(game: Game, action: Shoot, n: int) -> tuple[np.ndarray, float, float, float]:
    """The engine's own shot under AoF:R on ``n`` other dice: wounds law, destroyed, morale test (the end of the
    activation) and failed test frequencies."""
    wounds = np.zeros(200)
    destroyed = tests = fails = 0
    for seed in range(n):
        twin = game.clone()
        twin.dice = Dice(seed=10_000 + seed)
        events = twin.apply(action)
        w = sum(e.data["wounds"] for e in events if e.kind == "wounds" and e.data["unit"] == action.target)
        wounds[min(w, 199)] += 1
        destroyed += twin.state.units[action.target].removed is not None
        morale = [e for e in events if e.kind == "morale" and e.data.get("unit") == action.target]
        tests += bool(morale)
        fails += bool(morale) and not morale[0].data["passed"]
    return wounds / n, destroyed / n, tests / n, fails / n


@pytest.mark.parametrize("seed", [2, 5])
def test_shot_odds_under_aofr_match_the_engines_own_shots(seed: int):
    """Exact odds of the first shot of the border clash against 3000 shots by the AoF:R engine (every model fires,
    cover is -1 to hit; the morale test at the end of the activation): every wound count within 0.035 (about 4
    standard errors), destroyed, tested and failed alike."""
    game = border_clash(seed, "shoot")
    p = game.pending
    assert p is not None and p.unit is not None
    target = game.ruleset.shooting_targets(p.unit)[0]
    action = Shoot(p.player, p.unit, target)
    odds = shot_odds(game.state, action)
    assert odds is not None and rules_of(game.state) is AoFR216
    freq, destroyed, tests, fails = _engine_shots(game, action, 3000)
    exact = np.zeros(200)
    exact[: len(odds.wounds)] = odds.wounds
    assert np.abs(exact - freq).max() < 0.035, (exact[:12].round(3), freq[:12].round(3))
    assert destroyed == pytest.approx(odds.destroyed, abs=0.035)
    assert tests == pytest.approx(odds.morale_test, abs=0.035)
    assert fails == pytest.approx(odds.morale_fail, abs=0.035)


def test_morale_odds_of_a_shot_that_brings_a_unit_to_half_strength():
    """A unit of the scenario at 6 of 10 models shot at: AoF:R 2.16 tests it at the end of the activation when it
    took wounds and is at half strength (no "lost models this turn" or Shaken condition of AoWFBR), and a Wavering
    unit fails automatically: the exact and simulated odds agree with the engine's own shots."""
    game = border_clash(2, "shoot")
    p = game.pending
    assert p is not None and p.unit is not None
    target_id = game.ruleset.shooting_targets(p.unit)[0]
    target = game.state.units[target_id]
    from game.engine.casualties import apply_wounds
    apply_wounds(game.state, target, target.starting_models - 6 if target.starting_models > 6 else 0, "test",
                 Dice(sequence=[]))
    action = Shoot(p.player, p.unit, target_id)
    odds = shot_odds(game.state, action)
    assert odds is not None and odds.morale_test > 0.3
    _, _, tests, fails = _engine_shots(game, action, 2000)
    assert tests == pytest.approx(odds.morale_test, abs=0.035)
    assert fails == pytest.approx(odds.morale_fail, abs=0.035)
    study = shot_study(game, action)
    got = study.advance(60.0, at_least=300, at_most=300)
    assert got.chance("morale_test") == pytest.approx(odds.morale_test, abs=0.08)
    target.shaken = True           # Wavering: it still tests (and fails) in AoF:R 2.16
    wavering = shot_odds(game.state, action)
    assert wavering is not None and wavering.morale_fail == pytest.approx(wavering.morale_test)


def _engine_charges(game: Game, action: DeclareCharge, n: int) -> tuple[float, float]:
    """Won and tied frequencies of the charge played by the engine on ``n`` other dice, the charged unit striking
    back, read from the scores of the melee result (wounds caused + full rows)."""
    won = tied = 0
    for seed in range(n):
        twin = game.clone()
        twin.dice = Dice(seed=20_000 + seed)
        events = twin.apply(action)
        p = twin.pending
        if p is not None and p.decision == "strike_back":
            assert p.unit is not None
            events += twin.apply(StrikeBack(p.player, p.unit))
        result = next(e for e in events if e.kind == "melee" and "scores" in e.data)
        mine, theirs = result.data["scores"][action.unit], result.data["scores"][action.target]
        won += mine > theirs
        tied += mine == theirs
    return won / n, tied / n


@pytest.mark.parametrize("seed", [1, 5])
def test_charge_odds_under_aofr_follow_the_engines_melee(seed: int):
    """A charge of the border clash: no reaction to choose in AoF:R 2.16 (one line, "hold"), the charge always
    reaches (the engine checked the path), and the chance to win is the engine's own melee result (the charged
    unit striking back) within 0.08 (300 samples against 1500 games)."""
    game = border_clash(seed, "action")
    p = game.pending
    assert p is not None and p.unit is not None
    action = DeclareCharge(p.player, p.unit, game.charge_targets(p.unit)[0])
    study = ChargeStudy(game, action)
    study.advance(60.0, at_least=300, at_most=300)
    (odds,) = study.odds()
    assert odds.reaction == "hold" and odds.samples == 300 and odds.contact == 1.0
    won, tied = _engine_charges(game, action, 1500)
    assert odds.won == pytest.approx(won, abs=0.08)
    assert odds.tied == pytest.approx(tied, abs=0.08)
    assert odds.wounds[0] > 0
    assert odds.target_breaks == odds.target_destroyed    # no flight in AoF:R: breaking is routing
    # the panel draws a few samples per frame (a time budget): ask again, as frames do, until it has some, so
    # the test does not depend on the machine's load
    lines = [text for text, _ in charge_lines(game, action)]
    for _ in range(200):
        if not any("working it out" in t for t in lines):
            break
        lines = [text for text, _ in charge_lines(game, action)]
    assert any("wins the melee" in t and "Wavering" in t for t in lines), lines
    assert not any("flees" in t for t in lines), lines


def test_morale_terms_are_the_rulesets():
    """"Fearless": AoF:R 2.16 adds +1 to the morale roll (Quality 4+: fails on 1-2, 1/3), AoWFBR 1.4 saves a failed
    test on 4+ (1/2 x 1/2 = 1/4); a Wavering unit fails automatically in AoF:R."""
    brave = unit("b", 2, profile("Brave", quality=4, rules=("Fearless",)))
    assert morale_fail_chance(brave, AoFR216) == pytest.approx(1 / 3)
    assert morale_fail_chance(brave, AoWFBR) == pytest.approx(1 / 4)
    brave.shaken = True
    assert morale_fail_chance(brave, AoFR216) == 1.0
    # when a shot makes a unit test: AoF:R after any wound leaving it at half strength, Shaken or not
    assert AoFR216.tests_morale_after_shot(brave, 1, 5) and not AoWFBR.tests_morale_after_shot(brave, 1, 5)
    assert not AoFR216.tests_morale_after_shot(brave, 0, 5) and not AoFR216.tests_morale_after_shot(brave, 1, 6)


def test_shot_advice_in_aofr_is_exact_and_leaves_the_game_alone():
    game = border_clash(5, "shoot")
    p = game.pending
    assert p is not None and p.unit is not None
    before = (len(game.history), game.dice.consumed, remaining_strength(game.state.units[p.unit]))
    advice = shot_advice(game, Shoot(p.player, p.unit, game.ruleset.shooting_targets(p.unit)[0]))
    assert advice.samples == 0 and advice.wounds.mean > 0
    assert before == (len(game.history), game.dice.consumed, remaining_strength(game.state.units[p.unit]))
    assert isinstance(Done(1), Done)
