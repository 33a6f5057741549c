"""AoF:R 2.16 "Melee" (charge, Who Can Strike, Return Strikes, Fatigue, Combat Resolution, Consolidation Moves),
"Morale" (When to Test, Taking Morale Tests, Wavering, Routed), "Impact(X)", "Furious", "The Mission", with fixed
dice (../shared/rules/aofr-2.16-full-rulebook.txt)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Done, Move, Shoot, StrikeBack
from game.engine.game import Game
from game.engine.rulesets.aofr import Activations
from game.engine.state import Objective, Removal
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import ARCHERS, FRONT_Y, HAND_WEAPON, profile

HITS_3 = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1]


def _activation(game: Game) -> Activations:
    a = game.state.activation
    assert isinstance(a, Activations)
    return a


def test_charge_strikes_then_the_defender_strikes_back_and_the_loser_wavers():
    """Ten orcs (two rows of five) charge ten orcs 2" away: the two front rows strike (10 attacks: 3 hits, 3
    wounds), then the defender's two front rows strike back (7 models, no hit). Combat Resolution: 3 wounds + 2 full
    rows = 5 against 0 + 1 = 1: the defender loses, fails its morale test with 7 of 10 left and is Wavering. The
    charger moves back 1" ("Consolidation Moves"); both are fatigued for the rest of the round."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    game = aofr_game([a, b], dice=HITS_3 + [1, 1, 1] + [1] * 7 + [1])
    game.apply(Activate(1, "a"))
    assert game.charge_targets("a") == ["b"]
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert b.models == 7
    assert game.pending is not None and (game.pending.player, game.pending.decision, game.pending.unit) == \
        (2, "strike_back", "b")
    events = game.apply(StrikeBack(2, "b"))
    strike = next(e for e in events if e.kind == "info" and e.data.get("unit") == "b")
    assert strike.data["attacks"] == 7
    result = next(e for e in events if e.kind == "melee" and "scores" in e.data)
    assert result.data["scores"] == {"a": 5, "b": 1}
    assert b.shaken and b.removed is None and a.models == 10
    assert not a.engaged and not b.engaged
    assert game.state.scene.distance("a", "b") == pytest.approx(1.0, abs=1e-6)
    assert set(_activation(game).fatigued) == {"a", "b"}
    assert game.dice.consumed == 21
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "activate")


def test_fatigued_units_hit_only_on_sixes():
    """"Fatigue": "After attacking in melee for the first time during a round, either by charging or by striking
    back, units only hit on unmodified rolls of 6 in any subsequent melee until the end of the round". The
    defender passes its test, then charges back in its own activation: both sides hit only on 6s."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    dice = HITS_3 + [1, 1, 1] + [1] * 7 + [6]          # first melee: b passes its morale test
    dice += [5, 5, 5, 5, 5, 5, 6] + [1]                 # b (7 models, fatigued) charges: one 6, one wound
    dice += [5] * 9 + [6]                               # a strikes back (9 models, fatigued): 5s miss; a passes
    game = aofr_game([a, b], dice=dice)
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    game.apply(StrikeBack(2, "b"))
    assert not b.shaken
    game.apply(Activate(2, "b"))
    assert game.charge_targets("b") == ["a"]
    events = game.apply(DeclareCharge(2, "b", "a"))
    assert any("hit only on 6: Fatigue" in e.text for e in events)
    assert a.models == 9
    events = game.apply(StrikeBack(1, "a"))
    result = next(e for e in events if e.kind == "melee" and "scores" in e.data)
    assert result.data["scores"] == {"b": 2, "a": 1}    # 1 wound + 1 full row against 0 + 1
    assert not a.shaken and game.dice.consumed == len(dice)


def test_impact_hits_are_automatic_and_furious_adds_an_attack():
    """"Impact(X)": "deals X automatic melee hits" (models of the two front rows); "Furious": "+1 attack with a
    weapon of your choice" when charging. Five riders: 5 Impact hits (5 Defense rolls), then 5 x 2 attacks. The
    defender may decline to strike back; it wins on full rows (2 against 1) and the charger passes its test."""
    riders = profile("Boar Riders", weapons=(HAND_WEAPON,), rules=("Impact(1)", "Furious"), size=5)
    a, b = unit("a", 1, riders, models=5), unit("b", 2, front_y=FRONT_Y + 3)
    game = aofr_game([a, b], dice=[6] * 5 + [1] * 10 + [6])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    impact = next(e for e in events if e.kind == "hits" and e.data.get("weapon") == "Impact")
    assert impact.data["hits"] == 5
    attacks = next(e for e in events if e.kind == "info" and e.data.get("weapon") == "Hand Weapon")
    assert attacks.data["attacks"] == 10
    events = game.apply(Done(2))                        # declines to strike back
    result = next(e for e in events if e.kind == "melee" and "scores" in e.data)
    assert result.data["scores"] == {"a": 1, "b": 2}
    assert not a.shaken and game.dice.consumed == 16


def test_a_loser_at_half_strength_that_fails_routs_and_the_winner_may_consolidate():
    """"Taking Morale Tests": lost in melee with half or less of its models left and failed: it Routs (removed).
    "Consolidation Moves": then the other unit may pivot up to 180° or move up to 3" (``done`` stays)."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    far = unit("far", 2, front_y=44, x=10)
    game = aofr_game([a, b, far], dice=[6] * 5 + [1] * 5 + [1] * 5 + [1])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    assert b.models == 5
    events = game.apply(Done(2))
    assert any(e.kind == "rout" for e in events)
    assert b.removed is Removal.ROUTED and not a.engaged
    assert game.pending is not None and (game.pending.player, game.pending.decision, game.pending.unit) == \
        (1, "consolidate", "a")
    game.apply(Done(1))
    assert game.pending is not None and (game.pending.player, game.pending.options) == (2, ("far",))


def test_shooting_to_half_strength_tests_at_the_end_of_the_activation_and_wavers():
    """"When to Test": wounds that leave a unit with half or less of its size: a morale test (at the end of the
    activation, the quick rules); failed outside melee: Wavering, not Rout."""
    archers = unit("archers", 1, ARCHERS, models=15)
    orcs = unit("orcs", 2, front_y=FRONT_Y + 12)
    game = aofr_game([archers, orcs], dice=[6] * 5 + [1] * 10 + [1] * 5 + [1])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    assert orcs.models == 5 and orcs.shaken and orcs.removed is None
    assert any(e.kind == "morale" and not e.data["passed"] for e in events)


def test_the_player_with_most_markers_after_four_rounds_wins():
    """"The Mission": at the end of each round a unit within 3" of a marker with no enemy within 3" seizes it;
    "After 4 rounds have been played, the game ends, and the player that controls most markers wins"."""
    a, b = unit("a", 1), unit("b", 2, front_y=44)
    game = aofr_game([a, b], round_=4)
    assert a.pose is not None
    game.state.mission = "standard"
    game.state.objectives = [Objective(a.pose.x, a.pose.y + 3.5), Objective(60.0, 24.0, controller=2),
                             Objective(10.0, 24.0, controller=1)]
    for player, uid in ((1, "a"), (2, "b")):
        game.apply(Activate(player, uid))
        events = game.apply(Done(player))
    assert game.state.game_over and game.pending is None
    assert game.victory_points() == {1: 2, 2: 1} and game.ruleset.winner() == 1
    assert any(e.kind == "victory" and "player 1 wins" in e.text for e in events)
