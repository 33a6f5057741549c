"""Melee with fixed dice: who strikes, the order of attacks, melee resolution and melee morale tests.

Units are Warriors (Quality 4+, Defense 5+, Hand Weapon A1, 20 mm bases, rows of 5). ``a`` (player 1) is in
contact with a side of ``t`` (player 2, at (36, 24) facing 180), as built by ``charge_setup``.
"""

from __future__ import annotations

import pytest

from game.engine.actions import Done
from game.engine.close_combat import find_combats
from game.engine.melee import (
    FLEES,
    PASSED,
    SHAKEN,
    STAYS,
    fight,
    full_rows,
    melee_morale_modifiers,
    melee_morale_test,
    resolve,
    strikes_of,
)
from game.engine.profiles import Weapon
from game.engine.state import Removal
from geometry.arcs import Arc
from geometry.pose import Pose
from tests.rules.melee_builders import (
    SPEAR,
    WARRIORS,
    answer,
    charge_setup,
    dice,
    kinds,
    pending,
    profile,
    put_flush,
    roll_purposes,
    run_phase,
    state_of,
    unit,
)

ORDER = ["a", "t"]


def hit_rolls(d):
    """(purpose, number of dice) of the hit rolls made."""
    return [(r.purpose, len(r.dice)) for r in d.rolls if "to hit" in r.purpose or "Impact hits" in r.purpose]


# --- who can strike --------------------------------------------------------------------------------------------


def test_two_front_rows_strike():
    """Rulebook: Who Can Strike: all models in the two front rows may strike targets in their front facing."""
    s = charge_setup(attacker_models=15, target_models=10)
    assert len(strikes_of(s, s.units["a"], ORDER)) == 10
    assert len(strikes_of(s, s.units["t"], ORDER)) == 10
    assert {st.kind for st in strikes_of(s, s.units["a"], ORDER)} == {"front"}


def test_flank_contact_only_strikes_back():
    """Rulebook: Who Can Strike: models in direct base contact with models in their flank may strike them; the
    two front rows may strike only at targets in their front facing."""
    s = charge_setup(side=Arc.LEFT)
    t_strikes = strikes_of(s, s.units["t"], ORDER)
    assert len(t_strikes) == 2  # the file touching the attacker: one model in each row
    assert {st.kind for st in t_strikes} == {"flank"}
    assert len(strikes_of(s, s.units["a"], ORDER)) == 10


def test_rear_contact_hits_only_on_six():
    """Rulebook: Who Can Strike: models in direct base contact with models in their rear strike but only hit on
    unmodified rolls of 6."""
    s = charge_setup(side=Arc.REAR)
    t_strikes = strikes_of(s, s.units["t"], ORDER)
    assert len(t_strikes) == 5 and {st.kind for st in t_strikes} == {"rear"}
    # a (charger) 10 attacks all miss; t's 5 rear models roll 5, 5, 5, 5, 6: one hit; a fails its Defense roll
    d = dice(*[1] * 10, 5, 5, 5, 5, 6, 1)
    result = fight(s, d, ORDER)
    assert result.caused == {"a": 0, "t": 1}
    assert s.units["a"].models == 9


def test_shaken_units_are_fatigued():
    """Rulebook: Fatigue: Shaken units count as fatigued and only hit on unmodified rolls of 6 in melee."""
    s = charge_setup(charged=False)
    s.units["t"].shaken = True
    # step 4, a first: 10 misses; then t: 4, 5 and 5 would hit at Quality 4+, only the 6 does; a blocks nothing
    d = dice(*[1] * 10, 4, 5, 5, 6, 1, 1, 1, 1, 1, 1, 1)
    result = fight(s, d, ORDER)
    assert result.caused["t"] == 1


# --- order of attacks -----------------------------------------------------------------------------------------------


def test_chargers_strike_first_and_casualties_are_removed_before_return_strikes():
    """Rulebook: Order of Attacks: 3. attacks from charging units, 4. all remaining attacks; models are removed
    after each step, so the charged unit strikes back with the models it has left."""
    s = charge_setup()
    # a: 10 attacks, 6 hits (6s), t fails 6 Defense rolls; t has 4 models left: 4 attacks, all miss
    d = dice(*[6] * 6, *[1] * 4, *[1] * 6, 1, 1, 1, 1)
    result = fight(s, d, ORDER)
    assert result.caused == {"a": 6, "t": 0}
    assert s.units["t"].models == 4
    assert [n for _, n in hit_rolls(d)] == [10, 4]


def test_attacks_within_one_step_are_simultaneous():
    """Rulebook: Order of Attacks: in each phase attacks from all units are simultaneous, so models are removed
    only after all attacks of this phase are resolved (a unit destroyed in the step still strikes)."""
    s = charge_setup(charged=False)
    # step 4: a hits 10 times and t fails every Defense roll; t still strikes with its 10 models
    d = dice(*[6] * 10, *[1] * 10, *[6] * 10, *[6] * 10)
    result = fight(s, d, ORDER)
    assert [n for _, n in hit_rolls(d)] == [10, 10]
    assert s.units["t"].removed is Removal.DESTROYED
    assert result.caused == {"a": 10, "t": 0}
    assert s.units["a"].models == 10  # all blocked


def test_counter_strikes_first():
    """Rulebook: Counter: strikes first with this weapon in the first round of combat when charged in the front
    (Order of Attacks: 1. all Counter attacks), so the charger strikes with the models it has left."""
    s = charge_setup(target_prof=profile("Spearmen", weapons=(SPEAR,)))
    # step 1: t's 10 Spear attacks: 5 hits, a fails 5 Defense rolls -> a has 5 models: 5 attacks, all miss
    d = dice(4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    result = fight(s, d, ORDER)
    assert result.caused == {"a": 0, "t": 5}
    purposes = [p for p, _ in hit_rolls(d)]
    assert purposes[0].startswith("Spearmen (t) strikes") and purposes[1].startswith("Warriors (a) strikes")
    assert [n for _, n in hit_rolls(d)] == [10, 5]
    assert d.consumed == 20


def test_counter_does_not_strike_first_against_a_flank_charge():
    """Rulebook: Counter: only when charged in the front; against a flank charge the Spear strikes in step 4."""
    s = charge_setup(target_prof=profile("Spearmen", weapons=(SPEAR,)), side=Arc.LEFT)
    d = dice(*[1] * 10, 1, 1)
    fight(s, d, ORDER)
    purposes = [p for p, _ in hit_rolls(d)]
    assert purposes[0].startswith("Warriors (a)") and purposes[1].startswith("Spearmen (t)")


def test_impact_hits_on_two_plus():
    """Rulebook: Impact(X): models in the two front rows roll X dice when attacking after charging; each 2+ is a
    hit (Order of Attacks: 2. all Impact hits, before the chargers' attacks)."""
    s = charge_setup(attacker_prof=profile("Knights", rules=("Impact(1)",)))
    # step 2: 10 Impact dice: one 1 -> 9 hits; t blocks 4 (5+), 5 wounds -> 5 models left
    # step 3: a's 10 attacks miss; step 4: t's 5 models miss
    d = dice(1, *[2] * 9, 5, 5, 5, 5, 1, 1, 1, 1, 1, *[1] * 10, *[1] * 5)
    result = fight(s, d, ORDER)
    assert result.caused["a"] == 5
    assert s.units["t"].models == 5
    assert hit_rolls(d)[0] == ("Knights (a) Impact hits on Warriors (t) (2+)", 10)


def test_counter_reduces_impact_dice():
    """Rulebook: Counter: the charging unit gets -1 total Impact rolls per model with Counter in the two front
    rows if fighting in the front."""
    s = charge_setup(attacker_prof=profile("Knights", rules=("Impact(2)",)),
                     target_prof=profile("Spearmen", weapons=(SPEAR,)), target_models=5)
    d = dice(*[1] * 5, *[1] * 15, *[1] * 10)  # 5 Counter attacks, 20 - 5 = 15 Impact dice, 10 attacks
    fight(s, d, ORDER)
    assert [n for _, n in hit_rolls(d)] == [5, 15, 10]


def test_impact_becomes_attacks_in_later_rounds():
    """Rulebook: Impact(X): if the unit stays locked in combat, in the following rounds it gains X attacks in
    step 4 (all remaining attacks) instead."""
    s = charge_setup(attacker_prof=profile("Knights", rules=("Impact(1)",)), charged=False)
    d = dice(*[1] * 10, *[1] * 10, *[1] * 10)
    fight(s, d, ORDER)
    purposes = roll_purposes(d)
    assert purposes[0].startswith("Knights (a) strikes")
    assert purposes[1].startswith("Knights (a) Impact attacks")
    assert [len(r.dice) for r in d.rolls] == [10, 10, 10]


def test_a_unit_charged_gets_no_impact_in_the_first_round():
    """Rulebook: Impact(X): the dice are rolled "when attacking after charging", and the X attacks come "in the
    following rounds" of a unit that stays locked in combat. A unit with Impact that is charged did not charge, and
    the charge's round is not a following round: it strikes with its weapons only (docs/rulings.md "Impact(X)")."""
    s = charge_setup(target_prof=profile("Knights", rules=("Impact(1)",)))
    d = dice(*[1] * 10, *[1] * 10)  # a's 10 attacks, t's 10 attacks: no Impact dice
    fight(s, d, ORDER)
    assert not any("Impact" in p for p in roll_purposes(d))
    assert [len(r.dice) for r in d.rolls] == [10, 10]


def test_lance_and_furious_when_charging():
    """Rulebook: Lance: when charging, +1 to hit and AP(+1); Furious: when charging, unmodified 6s to hit deal
    one extra hit."""
    lance = Weapon("Lance", attacks=1, rules=("Lance",))
    s = charge_setup(attacker_prof=profile("Knights", weapons=(lance,), rules=("Furious",)), attacker_models=5,
                     target_models=5)
    # 5 attacks: 3 (+1 Lance = 4, hits), 6 (hit + Furious hit), 1, 2, 2 -> 3 hits; Defense 5+ with AP(1): 5 fails
    d = dice(3, 6, 1, 2, 2, 5, 6, 6, 1, 1, 1, 1)
    result = fight(s, d, ORDER)
    assert result.caused["a"] == 1
    block = [r for r in d.rolls if "Defense" in r.purpose][0]
    assert len(block.dice) == 3


def test_sergeant_gets_plus_one_to_hit():
    """Rulebook: Command Groups: Sergeant: this model gets +1 to hit rolls (rolled as its own batch)."""
    s = charge_setup(attacker_models=5, target_models=5, attacker_upgrades=("sergeant",))
    d = dice(1, 1, 1, 1, 3, 1, 1, 1, 1, 1)
    result = fight(s, d, ORDER)
    assert [len(r.dice) for r in d.rolls][:2] == [4, 1]
    assert "Sergeant" in d.rolls[1].purpose
    assert result.caused["a"] == 1


# --- melee resolution --------------------------------------------------------------------------------------------


def test_full_rows_count_up_to_three():
    """Rulebook: Melee Resolution: +1 per full row after removing casualties, max +3; a row is the number of
    models in the front row at the beginning of the game; a single model counts as one full row."""
    assert full_rows(unit("x", 1, WARRIORS, 20, Pose(10, 10, 0))) == 3
    big = unit("y", 1, WARRIORS, 10, Pose(10, 10, 0))
    big.models = 9
    assert full_rows(big) == 1
    assert full_rows(unit("z", 1, profile(rules=("Tough(6)",)), 1, Pose(10, 10, 0))) == 1


def test_resolution_arithmetic_with_flank_bonus():
    """Rulebook: Melee Resolution: +1 per wound caused, +1 per full row (max 3), +1 if charged this turn, +1 if
    attacking in the flank."""
    s = charge_setup(attacker_models=20, side=Arc.LEFT)
    res = resolve(s, ORDER, {"a": 2, "t": 3})
    a_score, t_score = res.scores[1], res.scores[2]
    assert (a_score.wounds, a_score.rows, a_score.charge, a_score.flank, a_score.rear) == (2, 3, 1, 1, 0)
    assert a_score.total == 7
    assert t_score.total == 3 + 2
    assert res.winner == 1 and res.difference == 2
    assert kinds(res.events, "resolution")[0].data["scores"][1]["total"] == 7


def test_rear_bonus_and_fear():
    """Rulebook: Melee Resolution: +2 if attacking in the rear; Fear(X): counts as having dealt +X wounds."""
    s = charge_setup(side=Arc.REAR, charged=False, target_prof=profile("Ghosts", rules=("Fear(2)",)))
    res = resolve(s, ORDER, {"a": 0, "t": 0})
    assert res.scores[1].rear == 2 and res.scores[1].total == 4
    assert res.scores[2].fear == 2 and res.scores[2].total == 4
    assert res.winner is None


def test_flank_bonus_once_per_side():
    """Rulebook: Multiple Units in Combat: bonuses for flank and rear attacks are applied only once for a unit's
    flank/rear facing side; resolution is summed by side."""
    t = unit("t", 2, WARRIORS, 10, Pose(36.0, 24.0, 180.0))
    a1 = unit("a1", 1, WARRIORS, 2, Pose(0, 0, 0), per_row=2)
    a2 = unit("a2", 1, WARRIORS, 2, Pose(0, 0, 0), per_row=2)
    a3 = unit("a3", 1, WARRIORS, 2, Pose(0, 0, 0), per_row=2)
    s = state_of(t, a1, a2, a3)
    put_flush(s, a1, t, Arc.REAR, lateral=-1.0, charged=False)
    put_flush(s, a2, t, Arc.REAR, lateral=1.0, charged=False)
    put_flush(s, a3, t, Arc.RIGHT, charged=False)
    order = ["a1", "a2", "a3", "t"]
    assert find_combats(s) == [["a1", "a2", "a3", "t"]]
    res = resolve(s, order, {"a1": 1, "a2": 1, "a3": 0, "t": 1})
    p1 = res.scores[1]
    assert (p1.wounds, p1.rows, p1.flank, p1.rear) == (2, 3, 1, 2)  # each 2-model unit has one full row
    assert p1.total == 8


def test_destroyed_side_loses():
    """Rulebook: Melee Morale Tests: units destroyed in melee always count as having lost."""
    s = charge_setup(charged=False, attacker_models=5, target_models=1)
    s.remove(s.units["t"], Removal.DESTROYED)
    res = resolve(s, ORDER, {"a": 1, "t": 3})
    assert res.winner == 1 and res.wiped == 2


# --- melee morale tests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("difference", "expected", "flees"), [
    (4, [], False),       # 10 - 4 = 6 > 5
    (5, [-1], True),      # 10 - 5 = 5, half or less
    (10, [-2], True),     # 10 - 10 = 0, zero or less
])
def test_melee_morale_modifiers(difference, expected, flees):
    """Rulebook: Melee Morale Tests: -1 if the remaining models minus the difference are half or less of the
    starting size, -2 if zero or less."""
    s = charge_setup()
    mods, will_flee = melee_morale_modifiers(s, s.units["t"], difference)
    assert [m.value for m in mods] == expected
    assert will_flee is flees


def test_flanking_modifier_adds_to_the_difference_modifier():
    """Rulebook: Flanking: -1 if charged in the flank, -2 in the rear (not cumulative with each other, cumulative
    with the Melee Morale Test modifiers)."""
    s = charge_setup(side=Arc.LEFT)
    mods, _ = melee_morale_modifiers(s, s.units["t"], 5)
    assert sorted(m.value for m in mods) == [-1, -1]
    s = charge_setup(side=Arc.REAR)
    mods, _ = melee_morale_modifiers(s, s.units["t"], 0)
    assert [m.value for m in mods] == [-2]


def test_failed_test_with_more_than_half_left_is_shaken():
    """Rulebook: Melee Morale Tests: failed, and remaining minus the difference more than half: Shaken."""
    s = charge_setup()
    outcome, _ = melee_morale_test(s, dice(3), s.units["t"], 1)
    assert outcome == SHAKEN and s.units["t"].shaken


def test_failed_test_with_half_or_less_left_flees():
    """Rulebook: Melee Morale Tests: failed, and remaining minus the difference half or less: Shaken and Flees."""
    s = charge_setup()
    outcome, _ = melee_morale_test(s, dice(4), s.units["t"], 5)  # 4 - 1 = 3: fails
    assert outcome == FLEES and s.units["t"].shaken


def test_passed_test_and_banner():
    """Rulebook: Melee Morale Tests: if the test is passed nothing happens; Command Groups: Banner +1."""
    s = charge_setup(target_upgrades=("banner",))
    outcome, _ = melee_morale_test(s, dice(3), s.units["t"], 1)
    assert outcome == PASSED and not s.units["t"].shaken


def test_already_shaken_loser_flees():
    """Rulebook: Melee Morale Tests: failed and already Shaken: Shaken and Flees (Shaken Units: always fail
    morale tests)."""
    s = charge_setup()
    s.units["t"].shaken = True
    d = dice()
    outcome, _ = melee_morale_test(s, d, s.units["t"], 1)
    assert outcome == FLEES and d.consumed == 0


def test_immobile_shaken_loser_stays():
    """Rulebook: Immobile: does not move back if shaken in melee and stays locked in combat instead."""
    s = charge_setup(target_prof=profile(rules=("Immobile",)))
    outcome, _ = melee_morale_test(s, dice(1), s.units["t"], 1)
    assert outcome == STAYS


# --- the whole combat --------------------------------------------------------------------------------------------


def test_loser_flees_and_winner_is_asked_to_pursue():
    """Rulebook: Melee Resolution and Consolidation Moves: the loser tests, fails with half or less left and
    flees; the winner decides whether to pursue before the flight roll."""
    s = charge_setup()
    # a: 6 hits, t fails 6 Defense -> 4 left; t's 4 attacks miss. a: 6 + 2 rows + 1 charge = 9; t: 0 -> diff 9
    # t: morale roll 1 (fails) -> flees
    d = dice(*[6] * 6, *[1] * 4, *[1] * 6, 1, 1, 1, 1, 1)
    events = run_phase(s, d)
    res = kinds(events, "resolution")[0]
    assert res.data["winner"] == 1 and res.data["difference"] == 9
    p = pending(s)
    assert (p.player, p.decision, p.unit) == (1, "pursue", "a")
    assert not kinds(events, "flee")  # the flight roll comes after the decision


def test_destroyed_unit_gives_a_consolidation_move_without_tests():
    """Rulebook: Melee Morale Tests: units destroyed in melee always count as having lost, their opponent does not
    test; Consolidation Moves: the other unit may pivot or move 3"."""
    s = charge_setup(target_models=5)
    d = dice(*[6] * 10, *[1] * 10)
    events = run_phase(s, d)
    assert s.units["t"].removed is Removal.DESTROYED
    assert not kinds(events, "morale")
    p = pending(s)
    assert (p.player, p.decision, p.unit) == (1, "consolidate", "a")
    assert not s.units["a"].engaged
    answer(s, d, Done(1))
    assert pending(s) is None


def test_tie_stays_locked_without_tests():
    """Rulebook: Melee Resolution: if the totals are tied neither unit takes a morale test; the units stay locked
    in combat and fight another round next turn."""
    s = charge_setup(charged=False)
    d = dice(*[1] * 20)
    events = run_phase(s, d)
    assert kinds(events, "resolution")[0].data["winner"] is None
    assert not kinds(events, "morale")
    assert pending(s) is None
    assert s.units["a"].engaged_with == {"t"} and s.units["t"].engaged_with == {"a"}
    assert d.consumed == 20


def test_charge_flags_are_cleared_after_the_fight():
    """Rulebook: Melee Resolution: +1 if a unit charged in this turn; next turn it fights as an equal."""
    s = charge_setup()
    d = dice(*[1] * 20, 6)  # nobody hits; a wins 2 rows + 1 charge vs 2 rows; t passes
    events = run_phase(s, d)
    assert kinds(events, "resolution")[0].data["winner"] == 1
    assert not s.units["a"].fights_as_charger and not s.units["a"].first_round_with
    assert s.units["a"].engaged_with == {"t"}
    assert pending(s) is None
