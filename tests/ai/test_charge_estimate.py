"""The computer opponent's quick outlook of a charge (``game.ai.melee_outlook``, ``game.ai.evaluate.charge_value``)
counts what the rulebook's Melee Resolution counts: wounds caused, full rows, the charge and flank bonuses,
Fear(X), Impact(X) dice from the two front rows cut by Counter (AoWFBR 1.4 reference sheet "Melee Resolution",
"Fear(X)", "Impact(X)", "Counter", "Tough(X)"), and prices what follows (the loser's morale test, flight and rout)
in the evaluation's points; its chances follow the engine's own melees."""

from __future__ import annotations

import pytest

import game.ai.evaluate as evaluate_module
from game.ai.evaluate import charge_value, evaluate, evaluate_terms, melee_value, melees, win_chance
from game.ai.melee_outlook import charge_outlook, joint_charge_outlook, strike_batches
from game.ai.stakes import wounds_law
from game.engine.actions import DeclareCharge
from game.engine.charge import make_charge_move
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.melee import full_rows
from game.engine.profiles import Weapon
from game.engine.state import GameState, Table, Unit
from game.odds.simulate import ChargeStudy
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


def _mean(batches: tuple[tuple[int, float], ...]) -> float:
    return sum(n * p for n, p in batches)


def test_wounds_on_a_tough_hero_count_whole_up_to_what_it_has_left() -> None:
    """Rulebook "Melee Resolution": +1 per wound caused, whatever Tough(X) the target has; at most the wounds it
    has left. 10 front models x 1 attack, hit on 4+ (1/2), the Lord's Defense 3+ blocks 4/6: 10/6 wounds."""
    pikes = unit("p", 1, PIKES, models=20, front_y=10.0, per_row=5)
    lord = unit("l", 2, LORD, models=1, front_y=14.0, per_row=1)
    assert _mean(strike_batches(pikes, lord, False, True, 10)) == pytest.approx(10 * 0.5 * (2 / 6), abs=1e-3)
    crowd = profile("Crowd", quality=2, defense=5, weapons=(Weapon("Claws", attacks=10, rules=("AP(4)",)),), size=20)
    horde = unit("h", 1, crowd, models=20, front_y=10.0, per_row=10)
    law = wounds_law(strike_batches(horde, lord, False, True, 20), 6)
    assert len(law) == 7 and law[6] == pytest.approx(1.0)      # capped by the Lord's 6 wounds


def test_impact_dice_from_two_rows_hit_on_2_and_counter_cuts_them() -> None:
    """Rulebook "Impact(X)": X dice per model of the two front rows, each 2+ a hit; "Counter": a charge into the
    front of a unit with Counter loses one Impact die per Counter model in its two front rows; in later rounds the
    Impact unit gets X attacks instead."""
    rams = unit("r", 1, RAMS, models=10, front_y=10.0, per_row=5)
    orcs = unit("o", 2, ORCS, models=10, front_y=14.0, per_row=5)
    spears = unit("s", 2, SPEARS, models=12, front_y=14.0, per_row=4)    # 8 Counter models in front
    melee = 10 * 0.5 * (4 / 6)          # 10 attacks, hit on 4+, Defense 5+ blocks 2/6
    impact = 10 * (5 / 6) * (4 / 6)
    assert _mean(strike_batches(rams, orcs, True, True, 10)) == pytest.approx(melee + impact, abs=1e-2)
    assert _mean(strike_batches(rams, orcs, False, True, 10)) == pytest.approx(melee, abs=1e-2)
    assert _mean(strike_batches(rams, orcs, False, True, 10, engaged=True)) == pytest.approx(2 * melee, abs=1e-2)
    assert _mean(strike_batches(rams, spears, True, True, 10)) == pytest.approx(melee + 2 * (5 / 6) * (4 / 6),
                                                                                 abs=1e-2)
    assert _mean(strike_batches(rams, spears, True, False, 10)) == pytest.approx(melee + impact, abs=1e-2)


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
    """Rulebook "Melee Resolution": the twenty Pikemen (three full rows) lead five Rams (one full row) in the next
    round of their melee, and the position counts that for them (``evaluate.melees``, ``melee_value``), the same
    figure negated for the other side; the other way round it counts against player 1. Without the term an engaged
    unit counted nothing, so a charge that would lose the next round looked free."""
    pikes, rams = unit("a", 1, PIKES, models=20, front_y=10.0), unit("b", 2, RAMS, models=5, front_y=13.0)
    game = _melee(pikes, rams)
    assert [([u.id for u in one], [u.id for u in two]) for one, two in melees(game)] == [(["a"], ["b"])]
    assert melee_value(game, [pikes], [rams]) > 0.0
    assert melee_value(game, [rams], [pikes]) == pytest.approx(-melee_value(game, [pikes], [rams]))
    with_term = evaluate(game, 1, 2)
    monkeypatch.setattr(evaluate_module, "MELEE_ON", 0.0)
    assert with_term > evaluate(game, 1, 2)
    monkeypatch.undo()
    rams_first = _melee(unit("a", 1, RAMS, models=5, front_y=10.0), unit("b", 2, PIKES, models=20, front_y=13.0))
    with_term = evaluate(rams_first, 1, 2)
    monkeypatch.setattr(evaluate_module, "MELEE_ON", 0.0)
    assert with_term < evaluate(rams_first, 1, 2)


CAVALRY = profile("Riders", quality=4, defense=4, weapons=(Weapon("Lance", attacks=1, rules=("Lance",)),),
                  rules=("Fast", "Impact(1)", "Tough(3)"), size=5, cost=160)
FEARLESS = profile("Fearless", quality=5, defense=5, weapons=(HAND_WEAPON,), rules=("Fearless",), size=20, cost=140)


@pytest.mark.parametrize(("attacker", "models", "defender", "d_models", "side"), [
    (PIKES, 20, ORCS, 10, "front"),
    (ORCS, 10, PIKES, 20, "front"),
    (CAVALRY, 5, ORCS, 10, "front"),
    (ORCS, 10, FEARLESS, 20, "front"),
    (ORCS, 10, ORCS, 10, "flank"),
    (SPEARS, 10, CAVALRY, 5, "front"),
])
def test_the_outlook_of_a_charge_follows_the_engines_melees(attacker, models, defender, d_models, side) -> None:  # type: ignore[no-untyped-def]
    """The outlook's chance to win a charge's melee is the engine's within 0.08 (``odds.simulate.ChargeStudy``:
    the engine plays the charge, the melee and the morale test on 200 samples of its own dice), and the target is
    expected to lose more when it breaks more often."""
    x, y = (36.0, 14.0) if side == "front" else (22.0, 25.0)
    charger = unit("c", 1, attacker, models=models, front_y=y, x=x, per_row=5)
    if side == "flank":
        charger.pose = charger.pose.facing_to(90.0) if charger.pose is not None else None
    target = unit("t", 2, defender, models=d_models, front_y=20.0, x=36.0, per_row=5)
    game = aowfbr(charger, target)
    s = game.state
    s.round, s.active_player = 1, 1
    from game.engine.state import Phase, Step
    s.phase, s.step = Phase.MOVEMENT, Step.DECLARE_CHARGES
    game = Game.start(s, Dice(seed=1))
    if target.id not in game.charge_targets(charger.id):
        pytest.skip("no charge in this layout")
    study = ChargeStudy(game, DeclareCharge(1, charger.id, target.id))
    study.studies["hold"].advance(budget_s=60.0, at_least=200, at_most=200)
    odds = [o for o in study.odds() if o.reaction == "hold"][0]
    got = charge_outlook(game, charger, target)
    assert got.win == pytest.approx(odds.won, abs=0.08)


def test_two_chargers_break_what_neither_would_alone() -> None:
    """Rulebook "Multiple Units in Combat": the resolution is counted by side, so two units charging one enemy
    sum their wounds, rows and charge bonuses; the outlook of the joint charge expects the enemy to lose more than
    either charge alone would take from it, and to lose the melee at least as often."""
    target = unit("t", 2, PIKES, models=20, front_y=20.0, x=36.0)
    left = unit("a", 1, ORCS, models=10, front_y=14.0, x=32.0)
    right = unit("b", 1, ORCS, models=10, front_y=14.0, x=40.0)
    game = aowfbr(target, left, right)
    alone = [charge_outlook(game, c, target) for c in (left, right)]
    both = joint_charge_outlook(game, [left, right], target)
    assert both.defender_loss > max(o.defender_loss for o in alone)
    assert both.win >= max(o.win for o in alone)
    assert joint_charge_outlook(game, [left], target) == alone[0]


def test_a_candidate_charge_is_played_out_with_the_sides_other_good_charges() -> None:
    """``SearchPlayer`` judges a charge with the charges its side's other units would make (AoWFBR 1.4 "Multiple
    Units in Combat"): after one unit declares on the Pikemen, the other, whose charge the outlook expects to gain
    from, declares too, and the declarations end."""
    from game.ai.search import _declare_joint, _open_charges
    from game.engine.state import Phase, Step

    target = unit("t", 2, ORCS, models=10, front_y=20.0, x=36.0)
    first = unit("a", 1, PIKES, models=20, front_y=14.0, x=30.0)
    second = unit("b", 1, PIKES, models=20, front_y=14.0, x=44.0)
    s = GameState("joint", Table(), [], {u.id: u for u in (target, first, second)}, {1: None, 2: None})
    s.round, s.active_player, s.phase, s.step = 1, 1, Phase.MOVEMENT, Step.DECLARE_CHARGES
    game = Game.start(s, Dice(seed=1))
    options = _open_charges(game, 1)
    assert options == {"a": ["t"], "b": ["t"]}
    game.apply(DeclareCharge(1, "a", "t"))
    _declare_joint(game, 1, options)
    assert sorted(c.unit for c in game.state.charges) == ["a", "b"]
    assert game.pending is None or game.pending.decision != "declare_charge"


def test_a_flank_bonus_counts_once_for_each_flank_charged() -> None:
    """Rulebook "Multiple Units in Combat": "Bonuses for flank and rear attacks are applied only once for a unit's
    flank/rear facing side": two chargers at one flank add one flank bonus, one at each flank two."""
    from geometry.pose import Pose

    target = unit("t", 2, PIKES, models=20, front_y=20.0, x=36.0)
    assert target.pose is not None
    y = target.pose.y
    first = unit("a", 1, ORCS, models=10)
    same = unit("b", 1, ORCS, models=10)
    other = unit("c", 1, ORCS, models=10)
    first.pose, same.pose, other.pose = Pose(26.0, y - 1.0, 90.0), Pose(26.0, y + 1.0, 90.0), Pose(46.0, y, 270.0)
    game = aowfbr(target, first, same, other)
    one_flank = joint_charge_outlook(game, [first, same], target)
    both_flanks = joint_charge_outlook(game, [first, other], target)
    assert both_flanks.win > one_flank.win
    assert both_flanks.defender_loss > one_flank.defender_loss


RABBLE = profile("Rabble", quality=6, defense=6, weapons=(HAND_WEAPON,), size=10, cost=60)


def _pile_on(helpers_front_y: float = 14.0, ruleset: str | None = None) -> Game:
    """Player 2 moving (AoWFBR 1.4 "Remaining Moves"): its 15 orcs face 20 Pikemen, which would gain by charging
    them, between two bands of 5 Rabble, which would lose charging alone (theirs at ``helpers_front_y``)."""
    from game.engine.state import Phase, Step

    target = unit("t", 2, ORCS, models=15, front_y=20.0, x=36.0)
    pikes = unit("a", 1, PIKES, models=20, front_y=14.0, x=36.0)
    left = unit("h0", 1, RABBLE, models=5, front_y=helpers_front_y, x=27.0)
    right = unit("h1", 1, RABBLE, models=5, front_y=helpers_front_y, x=45.0)
    s = GameState("pile-on", Table(), [], {u.id: u for u in (target, pikes, left, right)}, {1: None, 2: None})
    if ruleset is not None:
        s.ruleset = ruleset
    s.round, s.active_player, s.phase, s.step = 1, 2, Phase.MOVEMENT, Step.REMAINING_MOVES
    return Game.start(s, Dice(seed=1))


def test_a_move_fears_the_pile_on_of_chargers_that_would_lose_alone() -> None:
    """AoWFBR 1.4 "Multiple Units in Combat": the Rabble would lose charging the orcs alone, but beside the
    Pikemen's charge they add their wounds and bonuses to one combat. A move judged in the moving side's Movement
    Phase (``caps`` given) counts that pile-on against the orcs; other evaluations count the Pikemen's charge
    alone. Out of the Rabble's reach there is no pile-on."""
    game = _pile_on()
    s = game.state
    assert charge_value(game, s.units["a"], s.units["t"]) > 0.0
    assert all(charge_value(game, s.units[h], s.units["t"]) < 0.0 for h in ("h0", "h1"))
    alone = evaluate_terms(game, 2, 1)["charges"]
    piled = evaluate_terms(game, 2, 1, {})["charges"]
    assert piled < alone - 50.0
    far = _pile_on(helpers_front_y=2.0)
    assert evaluate_terms(far, 2, 1, {})["charges"] == pytest.approx(evaluate_terms(far, 2, 1)["charges"])


def test_the_pile_on_is_counted_only_where_units_score() -> None:
    """Under AoF:R 2.16 only the markers score and each charge is its own activation ("Activation"): the move's
    evaluation counts no pile-on there."""
    game = _pile_on(ruleset="aofr-2.16")
    s = game.state
    assert charge_value(game, s.units["a"], s.units["t"]) > 0.0 > charge_value(game, s.units["h0"], s.units["t"])
    assert evaluate_terms(game, 2, 1, {})["charges"] == pytest.approx(evaluate_terms(game, 2, 1)["charges"])
