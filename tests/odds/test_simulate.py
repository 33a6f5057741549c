"""Odds by simulation (game.odds.simulate): the engine plays a charge or a pursuit out on clones with the advisor's
own dice. Rulebook "Charging", "Charge Reactions", "Melee", "Melee Morale Tests", "Consolidation Moves"."""

from __future__ import annotations

import pytest

from game.engine.actions import DeclareCharge, Shoot
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import GameState, Phase, Table
from game.odds.simulate import ChargeStudy, PursueStudy, Study, advisor_seed, shot_study
from tests.rules.builders import ARCHERS, ORCS, profile
from tests.rules.test_charge_reactions import unit

CHARGE = DeclareCharge(1, "a", "t")
BRUTES = profile("Brutes", quality=3, defense=3, rules=("Tough(3)",))


def movement(seed: int, charger=ORCS, target=ARCHERS) -> Game:  # type: ignore[no-untyped-def]
    """Player 1's movement phase, step 2.1: ``a`` 8" in front of ``t``; the game's dice seeded with ``seed``."""
    s = GameState("odds", Table(), [], {u.id: u for u in (unit("a", 1, charger, front=10),
                                                          unit("t", 2, target, front=18))}, {1: None, 2: None})
    s.phase = Phase.MOVEMENT
    return Game.start(s, Dice(seed=seed))


def odds_of(game: Game, samples: int = 30):  # type: ignore[no-untyped-def]
    study = ChargeStudy(game, CHARGE)
    study.advance(budget_s=60.0, at_least=samples, at_most=samples)
    return study.odds()


def test_two_games_that_differ_only_in_their_dice_get_the_same_odds():
    """The advisor never reads the game's dice: same position, different seeds, identical odds; and the game's
    dice are not advanced (its next rolls stay what they were)."""
    g1, g2 = movement(1), movement(987654)
    before = g1.dice.clone()
    assert advisor_seed(g1, "q") == advisor_seed(g2, "q")
    o1, o2 = odds_of(g1), odds_of(g2)
    assert o1 == o2
    assert [o.samples for o in o1] == [30] * len(o1)
    assert g1.dice.consumed == before.consumed and g1.dice.d6(5, "x") == before.d6(5, "x")
    assert g1.history == [] and g1.state.units["a"].engaged_with == set()


def test_different_positions_get_different_seeds():
    g1 = movement(1)
    g2 = movement(1)
    g2.state.units["t"].models -= 1
    assert advisor_seed(g1, "q") != advisor_seed(g2, "q")
    assert advisor_seed(g1, "q") != advisor_seed(g1, "r")


def test_charge_odds_follow_the_engine_per_reaction():
    """Every reaction the engine offers gets odds; fleeing means no melee; a far stronger charger wins nearly
    always, a far weaker one rarely."""
    odds = {o.reaction: o for o in odds_of(movement(1), 40)}
    assert set(odds) == {"hold", "stand_and_shoot", "flee"}
    assert odds["flee"].contact == 0.0 and odds["flee"].target_breaks == 1.0
    assert odds["hold"].contact == 1.0
    strong = {o.reaction: o for o in odds_of(movement(1, charger=BRUTES), 40)}
    weak = {o.reaction: o for o in odds_of(movement(1, target=BRUTES), 40)}
    assert strong["hold"].won > 0.8 > 0.3 > weak["hold"].won


def test_a_study_is_deterministic_and_grows_with_more_budget():
    g = movement(3)
    a = ChargeStudy(g, CHARGE)
    a.advance(60.0, at_least=10, at_most=10)
    b = ChargeStudy(g, CHARGE)
    b.advance(60.0, at_least=5, at_most=5)
    b.advance(60.0, at_least=5, at_most=10)
    assert a.odds() == b.odds()


def test_shot_study_uses_the_engine_and_leaves_the_game_alone():
    s = movement(1).state
    s.phase = Phase.SHOOTING
    g = Game.start(s, Dice(seed=5))
    consumed = g.dice.consumed
    study = shot_study(g, Shoot(1, "a", "t"))
    with pytest.raises(IllegalAction):      # Orc Boyz of the builders carry no ranged weapon
        study.advance(0.0, at_least=1)
    s2 = movement(1, charger=ARCHERS).state
    s2.phase = Phase.SHOOTING
    g2 = Game.start(s2, Dice(seed=5))
    got = shot_study(g2, Shoot(1, "a", "t")).advance(0.0, at_least=20)
    assert got.n == 20 and 0 < got.mean_sd("hits")[0] < 10
    assert g.dice.consumed == consumed and g2.dice.consumed == 0


def _pursue_game() -> Game:
    """A close combat won by the charger whose enemy flees: the first seed giving a ``pursue`` decision."""
    from tests.rules.melee_builders import WARRIORS, charge_setup
    for seed in range(200):
        s = charge_setup(attacker_prof=BRUTES, target_prof=WARRIORS, target_models=5)
        s.phase = Phase.CLOSE_COMBAT
        g = Game.start(s, Dice(seed=seed))
        if g.pending is not None and g.pending.decision == "pursue":
            return g
    raise AssertionError("no seed gives a pursue decision")


def test_pursue_odds_for_both_answers():
    """Rulebook "Consolidation Moves": pursuing may catch the fleeing unit; not pursuing means a morale test."""
    g = _pursue_game()
    consumed = g.dice.consumed
    study = PursueStudy(g)
    study.advance(60.0, at_least=20, at_most=20)
    pursue, stay = study.odds()
    assert pursue.pursue and not stay.pursue
    assert pursue.samples == stay.samples == 20
    assert pursue.holds_back == 0.0                 # pursuing takes no test
    assert stay.catches < pursue.catches            # failing to hold back, it must pursue: it may still catch
    assert 0.0 < stay.holds_back <= 1.0
    assert g.dice.consumed == consumed
    assert isinstance(study.studies[True], Study)


@pytest.mark.parametrize("shaman", ["near", "far"])
def test_spell_odds_if_not_dispelled(shaman: str):
    """Magic ("Cast Spells"): Bolt casts on 4+ and then deals 3 automatic hits at AP(1) against Defense 5+
    (5/6 wound each): 1.25 wounds expected. With the enemy shaman in reach the opponent is asked to dispel; the
    fixed policy spends nothing. The game's dice are an empty sequence: any use of them would raise."""
    from game.odds.simulate import spell_study
    from tests.rules.test_magic import FAR, NEAR, cast, table
    game = Game.start(table("basic", shaman=NEAR if shaman == "near" else FAR), Dice(sequence=[]))
    got = spell_study(game, cast("Bolt")).advance(60.0, at_least=400)
    assert got.n == 400
    assert got.chance("cast") == pytest.approx(0.5, abs=0.08)
    assert got.mean_sd("wounds")[0] == pytest.approx(1.25, abs=0.2)
    assert game.dice.consumed == 0 and game.history == []
