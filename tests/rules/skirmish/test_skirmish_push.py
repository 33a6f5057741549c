"""AoF: Skirmish "Pushing" (../shared/rules/aof-skirmish-quick-rules.md line 151) on fixed dice: "Whenever a model
rolls a Shaken result, the attacker may try to push it. Roll one die, and on a 4+ the attacker may move the model by
up to 2" in any direction." (decision ``push``; docs/rulings.md "AoF Skirmish": pushing)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Done, PushModel, Shoot
from game.engine.errors import IllegalAction
from game.engine.skirmish.loose import points_of
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, skirmish_game, unit


def _rolls(events):
    return [e for e in events if e.kind == "roll"]


def _shaken_by_a_shot(dice, terrain=(), others=()):
    """Archers (player 1, one model) shoot a lone warrior at (10, 20): hit, failed block, a wound effect roll of 2
    (+1 marker: Shaken), then the push decision."""
    a, w = unit("archers", 1, ARCHER, 1), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(10, 5)]), (w, [(10, 20)]), *others], dice=[4, 1, 2, *dice], terrain=terrain)
    g.apply(Activate(1, "archers"))
    g.apply(Done(1))
    g.apply(Shoot(1, "archers", "w"))
    assert g.state.units["w"].shaken
    return g


def test_a_shaken_result_lets_the_attacker_push_on_a_4_plus():
    """Line 151: the attacker decides; one die, 4+: the model moves up to 2" where the attacker says."""
    g = _shaken_by_a_shot([4])
    assert g.pending.decision == "push" and g.pending.player == 1 and g.pending.unit == "w"
    events = g.apply(PushModel(1, "w", 10.0, 22.0))
    roll = _rolls(events)[0]
    assert roll.data["dice"] == [4] and roll.data["successes"] == 1
    assert points_of(g.state, "w") == [(10.0, 22.0)]
    assert g.pending.decision == "activate" and g.pending.player == 2       # nothing left to shoot: it ends


def test_a_push_roll_under_4_leaves_the_model():
    """Line 151: "on a 4+ the attacker may move the model" — a 3 does not."""
    g = _shaken_by_a_shot([3])
    events = g.apply(PushModel(1, "w", 10.0, 22.0))
    assert _rolls(events)[0].data["successes"] == 0 and points_of(g.state, "w") == [(10.0, 20.0)]


def test_the_attacker_may_decline():
    """Line 151: "may try": ``done`` rolls nothing."""
    g = _shaken_by_a_shot([])
    g.apply(Done(1))
    assert g.dice.consumed == 3 and points_of(g.state, "w") == [(10.0, 20.0)]


def test_a_push_is_up_to_2_inches_and_not_into_models_or_impassable_terrain():
    """Line 151: "by up to 2""; docs/rulings.md: not onto or through another base or impassable terrain, on the
    table, not ending within 1" of a unit it was not as near to. Nothing changes when refused."""
    rock = TerrainShape(0, "Rock", ((11.6, 19), (14, 19), (14, 21), (11.6, 21)), frozenset({"impassable"}))
    friend = unit("f", 2, WARRIOR, 1)
    g = _shaken_by_a_shot([], terrain=[rock], others=[(friend, [(7, 20)])])
    for x, y, why in ((10.0, 22.5, "2\""), (11.5, 20.0, "Rock"), (8.0, 20.0, "overlapping|through|within 1")):
        with pytest.raises(IllegalAction, match=why) as e:
            g.apply(PushModel(1, "w", x, y))
        assert e.value.rule == "Pushing"
    assert g.dice.consumed == 3 and g.pending.decision == "push"
    with pytest.raises(IllegalAction):
        g.apply(PushModel(2, "w", 10.0, 21.0))          # the attacker decides
    with pytest.raises(IllegalAction, match="now"):
        g.apply(PushModel(1, "f", 7.0, 21.0))           # only the model that rolled Shaken


def test_the_push_comes_before_the_strike_back():
    """Line 151 with "Melee" (line 51): the charger's strikes shake the lone defender; the attacker decides the push
    at once ("Whenever a model rolls a Shaken result"), then the defender decides whether to strike back."""
    c, w = unit("c", 1, WARRIOR, 3), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(c, line(10, 10, 3)), (w, [(11.5, 14)])], dice=[5, 5, 5, 1, 1, 1, 2, 4])
    g.apply(Activate(1, "c"))
    g.apply(DeclareCharge(1, "c", "w"))
    assert g.pending.decision == "push" and g.pending.player == 1
    (x, y), = points_of(g.state, "w")
    g.apply(PushModel(1, "w", x, y + 2.0))
    assert points_of(g.state, "w") == [(x, y + 2.0)]
    assert g.pending.decision == "strike_back" and g.pending.player == 2      # 2" away: still within reach


def test_pushed_across_dangerous_terrain_it_rolls_after_the_push_roll():
    """"Dangerous Terrain" (line 101) for a model pushed across it; dice order: the push roll, then its test."""
    lava = TerrainShape(0, "Lava", ((9, 21), (11, 21), (11, 21.5), (9, 21.5)), frozenset({"dangerous"}))
    g = _shaken_by_a_shot([5, 3], terrain=[lava])
    events = g.apply(PushModel(1, "w", 10.0, 22.0))
    push, danger = _rolls(events)
    assert push.data["dice"] == [5] and danger.data["dice"] == [3] and "dangerous" in danger.text


ROOF = TerrainShape(0, "Roof", ((8, 18), (12, 18), (12, 21), (8, 21)), frozenset({"elevated"}), height=3.0)


def test_pushed_off_elevated_ground_2_inches_tall_it_falls():
    """Line 155: "If a model falls or is pushed off an elevated position at least 2" tall, it takes 1 hit with AP(X),
    where X is AP(1) for every full 3" it fell" — the push roll, then the fall's Defense die at AP(1), then (wounded)
    the wound effect roll; the 2" are measured flat (docs/rulings.md "AoF Skirmish": pushing)."""
    g = _shaken_by_a_shot([4, 1, 6], terrain=[ROOF])
    events = g.apply(PushModel(1, "w", 10.0, 22.0))
    fall = [e for e in events if e.kind == "fall"]
    assert fall and fall[0].data["height"] == 3.0
    rolls = _rolls(events)
    assert rolls[0].data["dice"] == [4] and rolls[1].data["dice"] == [1]
    assert g.dice.consumed == 6


def test_a_push_does_not_lift_a_model_onto_higher_ground():
    """Line 151 with docs/rulings.md "AoF Skirmish": pushing: a push moves a model along or off its ground, never up
    onto (or through) higher ground. Nothing changes when refused."""
    roof = TerrainShape(0, "Roof", ((8, 21), (12, 21), (12, 24), (8, 24)), frozenset({"elevated"}), height=3.0)
    g = _shaken_by_a_shot([], terrain=[roof])
    with pytest.raises(IllegalAction, match="higher ground") as e:
        g.apply(PushModel(1, "w", 10.0, 22.0))
    assert e.value.rule == "Pushing" and g.dice.consumed == 3


def test_a_push_off_ground_under_2_inches_is_no_fall():
    """Line 155: only "an elevated position at least 2" tall" makes a pushed model fall."""
    low = TerrainShape(0, "Step", ((8, 18), (12, 18), (12, 21), (8, 21)), frozenset({"elevated"}), height=1.5)
    g = _shaken_by_a_shot([4], terrain=[low])
    events = g.apply(PushModel(1, "w", 10.0, 22.0))
    assert not [e for e in events if e.kind == "fall"] and points_of(g.state, "w") == [(10.0, 22.0)]
