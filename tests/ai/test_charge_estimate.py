"""The computer opponent's quick estimate of a charge (``game.ai.evaluate.charge_value`` and ``strikes``) counts
what the rulebook's Melee Resolution counts: wounds caused whatever the target's Tough, full rows, the charge and
flank bonuses, Fear(X), Impact(X) dice from the two front rows cut by Counter (AoWFBR 1.4 reference sheet "Melee
Resolution", "Fear(X)", "Impact(X)", "Counter", "Tough(X)")."""

from __future__ import annotations

import pytest

from game.ai.evaluate import charge_value, strikes
from game.engine.melee import full_rows
from game.engine.profiles import Weapon
from tests.rules.aofr.helpers import unit
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


def test_fear_of_the_target_makes_a_charge_into_it_worth_less() -> None:
    """Rulebook "Fear(X)": the Fear(2) hero counts 2 more wounds in the Melee Resolution, so charging it is worth
    less, and a charge by it is worth more."""
    pikes = unit("p", 1, PIKES, models=20, front_y=10.0)
    plain = unit("l", 2, LORD, models=1, front_y=14.0, per_row=1)
    fearful = unit("l", 2, FEARFUL_LORD, models=1, front_y=14.0, per_row=1)
    assert charge_value(pikes, fearful) < charge_value(pikes, plain)
    back_plain = unit("p", 2, PIKES, models=20, front_y=14.0)
    lord = unit("l", 1, FEARFUL_LORD, models=1, front_y=10.0, per_row=1)
    calm = unit("l", 1, LORD, models=1, front_y=10.0, per_row=1)
    assert charge_value(lord, back_plain) > charge_value(calm, back_plain)


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
    assert charge_value(deep, target) > charge_value(shallow, target)
