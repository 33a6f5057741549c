"""The computer opponent's quick estimate of a charge (``game.ai.evaluate.charge_value`` and ``strikes``) counts
what the rulebook's Melee Resolution counts: wounds caused whatever the target's Tough, full rows, the charge and
flank bonuses, Fear(X), Impact(X) dice from the two front rows cut by Counter (AoWFBR 1.4 reference sheet "Melee
Resolution", "Fear(X)", "Impact(X)", "Counter", "Tough(X)")."""

from __future__ import annotations

import pytest

import game.ai.evaluate as evaluate_module
from game.ai.evaluate import charge_value, evaluate, melee_edge, melees, strikes, win_chance
from game.engine.charge import make_charge_move
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.melee import full_rows
from game.engine.profiles import Weapon
from game.engine.state import GameState, Table, Unit
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import HAND_WEAPON, ORCS, profile

LORD = profile("Lord", quality=3, defense=3, weapons=(Weapon("Blade", attacks=4, rules=("AP(1)",)),),
               rules=("Hero", "Tough(6)"),
               size=1, cost=110)
FEARFUL_LORD = profile("Lord", quality=3, defense=3, weapons=(Weapon("Blade", attacks=4, rules=("AP(1)",)),),
                       rules=("Hero", "Tough(6)", "Fear(2)"), size=1, cost=110)
PIKES = profile("Pikemen", quality=4, defense=5, weapons=(HAND_WEAPON,), size=20, cost=180)
RAMS = profile("Rams", quality=4, defense=5, weapons=(HAND_WEAPON,), rules=("Impact(1)",), size=10, cost=100)
SPEARS = profile("Spears", quality=4, defense=5, weapons=(Weapon("Spear", attacks=1, rules=("Counter",)),),
                 size=10, cost=100)


def aowfbr(*units: Unit) -> Game:
    """An AoWFBR 1.4 game holding ``units`` (the estimate asks its ruleset what the melee result adds)."""
    return Game.start(GameState("estimate", Table(), [], {u.id: u for u in units}, {1: None, 2: None}), Dice(seed=1))


def test_fear_of_the_target_makes_a_charge_into_it_worth_less() -> None:
    """Rulebook "Fear(X)": the Fear(2) hero counts 2 more wounds in the Melee Resolution, so charging it is worth
    less, and a charge by it is worth more."""
    pikes = unit("p", 1, PIKES, models=20, front_y=10.0)
    plain = unit("l", 2, LORD, models=1, front_y=14.0, per_row=1)
    fearful = unit("l", 2, FEARFUL_LORD, models=1, front_y=14.0, per_row=1)
    game = aowfbr(pikes, plain)
    assert charge_value(game, pikes, fearful) < charge_value(game, pikes, plain)
    back_plain = unit("p", 2, PIKES, models=20, front_y=14.0)
    lord = unit("l", 1, FEARFUL_LORD, models=1, front_y=10.0, per_row=1)
    calm = unit("l", 1, LORD, models=1, front_y=10.0, per_row=1)
    assert charge_value(game, lord, back_plain) > charge_value(game, calm, back_plain)


def test_wounds_on_a_tough_hero_count_whole_in_the_resolution() -> None:
    """Rulebook "Melee Resolution": +1 per wound caused, whatever Tough(X) the target has; at most the wounds it
    has left. 10 front models x 1 attack, hit on 4+ (1/2), the Lord's Defense 3+ blocks 4/6: 10/6 wounds."""
    pikes = unit("p", 1, PIKES, models=20, front_y=10.0, per_row=5)
    lord = unit("l", 2, LORD, models=1, front_y=14.0, per_row=1)
    assert strikes(pikes, lord, charging=False) == pytest.approx(10 * 0.5 * (2 / 6))
    crowd = profile("Crowd", quality=2, defense=5, weapons=(Weapon("Claws", attacks=10, rules=("AP(4)",)),), size=20)
    horde = unit("h", 1, crowd, models=20, front_y=10.0, per_row=10)
    assert strikes(horde, lord, charging=False) == 6.0      # capped by the Lord's 6 wounds


def test_impact_dice_from_two_rows_hit_on_2_and_counter_cuts_them() -> None:
    """Rulebook "Impact(X)": X dice per model of the two front rows, each 2+ a hit; "Counter": a charge into the
    front of a unit with Counter loses one Impact die per Counter model in its two front rows."""
    rams = unit("r", 1, RAMS, models=10, front_y=10.0, per_row=5)
    orcs = unit("o", 2, ORCS, models=10, front_y=14.0, per_row=5)
    spears = unit("s", 2, SPEARS, models=12, front_y=14.0, per_row=4)    # 8 Counter models in front
    melee = 10 * 0.5 * (4 / 6)          # 10 attacks, hit on 4+, Defense 5+ blocks 2/6
    assert strikes(rams, orcs, charging=True) == pytest.approx(melee + 10 * (5 / 6) * (4 / 6))
    assert strikes(rams, orcs, charging=False) == pytest.approx(melee)
    assert strikes(rams, spears, charging=True) == pytest.approx(melee + 2 * (5 / 6) * (4 / 6))
    assert strikes(rams, spears, charging=True, front=False) == pytest.approx(melee + 10 * (5 / 6) * (4 / 6))


def test_full_rows_are_the_engines() -> None:
    """The estimate counts full rows as the engine's Melee Resolution does (``melee.full_rows``): a deeper unit
    expects more from the same charge."""
    target = unit("o", 2, ORCS, models=10, front_y=14.0, per_row=5)
    shallow = unit("c", 1, ORCS, models=5, front_y=10.0, per_row=5)
    deep = unit("c", 1, ORCS, models=15, front_y=10.0, per_row=5)
    assert (full_rows(shallow), full_rows(deep)) == (1, 3)
    game = aowfbr(target, deep)
    assert charge_value(game, deep, target) > charge_value(game, shallow, target)


def test_the_melee_result_follows_the_ruleset() -> None:
    """AoWFBR 1.4 "Melee Resolution": +1 for charging, +1 in the flank, +2 in the rear, and "Who Can Strike": a
    unit charged in its flank or rear strikes back with fewer models; AoF:R 2.16 "Combat Resolution" counts wounds
    and full rows only, and "Who Can Strike": a unit charged in its flank or rear does not strike back. So under
    AoWFBR a rear charge is the better bet than a flank charge, under AoF:R the two are alike, and both beat the
    front."""
    target = unit("t", 2, ORCS, front_y=30.0, x=36.0)
    places = {"front": (36.0, 20.0), "flank": (20.0, 33.0), "rear": (36.0, 45.0)}
    for game in (aowfbr(target), aofr_game([target])):
        chances = {name: win_chance(game, unit("c", 1, ORCS, front_y=y, x=x), target)
                   for name, (x, y) in places.items()}
        if game.state.ruleset == "aofr-2.16":
            assert chances["front"] < chances["flank"] == pytest.approx(chances["rear"])
        else:
            assert chances["front"] < chances["flank"] < chances["rear"]
    front = unit("c", 1, ORCS, front_y=20.0, x=36.0)
    # the same two units face to face: only AoWFBR counts the charge's +1
    assert win_chance(aowfbr(target), front, target) > win_chance(aofr_game([target]), front, target)


def _melee(first: Unit, second: Unit) -> Game:
    """``first`` (player 1) has charged into base contact with the front of ``second`` (player 2): a melee in
    progress."""
    game = aowfbr(first, second)
    make_charge_move(game.state, Dice(sequence=[]), first, second)
    assert first.engaged_with == {second.id}
    return game


def test_a_melee_in_progress_counts_for_the_side_that_should_win_its_next_round(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Rulebook "Melee Resolution": the twenty Pikemen (three full rows) lead five Rams (one full row, half the
    strikes) in the next round of their melee, and the position counts that edge for them (``evaluate.melees``,
    ``melee_edge``); the other way round it counts against player 1. Without the term an engaged unit counted
    nothing, so a charge that would lose the next round looked free."""
    pikes, rams = unit("a", 1, PIKES, models=20, front_y=10.0), unit("b", 2, RAMS, models=5, front_y=13.0)
    game = _melee(pikes, rams)
    assert [([u.id for u in one], [u.id for u in two]) for one, two in melees(game)] == [(["a"], ["b"])]
    assert melee_edge(game, [pikes], [rams]) == pytest.approx(10 / 6 * 2 - 5 / 6 * 2 + 3 - 1)   # strikes, rows
    with_term = evaluate(game, 1, 2)
    monkeypatch.setattr(evaluate_module, "MELEE_ON", 0.0)
    assert with_term > evaluate(game, 1, 2)
    monkeypatch.undo()
    rams_first = _melee(unit("a", 1, RAMS, models=5, front_y=10.0), unit("b", 2, PIKES, models=20, front_y=13.0))
    with_term = evaluate(rams_first, 1, 2)
    monkeypatch.setattr(evaluate_module, "MELEE_ON", 0.0)
    assert with_term < evaluate(rams_first, 1, 2)
