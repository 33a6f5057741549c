"""Command groups (rulebook "Command Groups"): Sergeant (+1 to hit for that model), Musician (+1" with move
actions, +1" pursuit), Banner (+1 to morale tests, +50 victory points), at most one of each per unit. Fixed dice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.actions import Shoot
from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.flight import advance_bonus, pursuit_range_bonus
from game.engine.melee import fight
from game.engine.morale import morale_test
from game.engine.movement import move_allowance
from game.engine.shooting import sergeant_index, shoot
from game.engine.state import MoveAction, Removal, make_unit
from game.engine.victory import unit_victory_points
from game.scenario import ScenarioError, load_scenario
from tests.rules import melee_builders as mb
from tests.rules.builders import dice, face_off, join_hero, profile, rolls

CAPTAIN = profile("Captain", quality=3, defense=3, rules=("Hero",), size=1, cost=60)


def test_sergeant_rolls_its_own_attacks_at_plus_one_in_shooting():
    """Rulebook "Command Groups": Sergeant: this model gets +1 to hit rolls."""
    s = face_off(12, shooter_models=5, upgrades=frozenset({"sergeant"}))
    events = shoot(s, dice(3, 3, 3, 3, 3, 1, 1, 1), Shoot(1, "archers-1", "orcs-1"))
    others, sergeant = rolls(events)[:2]
    assert others.data["dice"] == [3, 3, 3, 3] and others.data["successes"] == 0
    assert sergeant.data["dice"] == [3] and sergeant.data["successes"] == 1
    assert sergeant.data["details"][-1] == "+1 Sergeant"


def test_sergeant_strikes_at_plus_one_in_melee():
    """Rulebook "Command Groups": Sergeant: this model gets +1 to hit rolls (in melee too)."""
    s = mb.charge_setup(attacker_models=5, target_models=5, attacker_upgrades=["sergeant"])
    events = fight(s, Dice(seed=7), ["a", "t"]).events
    sarge = [e for e in events if e.kind == "roll" and "(Sergeant)" in e.data["purpose"]]
    assert len(sarge) == 1 and len(sarge[0].data["dice"]) == 1 and "+1 Sergeant" in sarge[0].data["details"]


def test_sergeant_stands_beside_a_joined_hero_and_falls_before_it():
    """Rulebook "Command Groups", "Hero": the Sergeant is one of the unit's models (the middle of the front row,
    next to a hero standing there); it is among the last models removed, before the hero."""
    s = face_off(12, upgrades=frozenset({"sergeant"}))
    unit = join_hero(s, "archers-1", CAPTAIN)
    assert sergeant_index(unit) == 1 and unit.formation.row_counts()[0] == 5
    apply_wounds(s, unit, 9, "test")
    assert unit.regulars == 1 and sergeant_index(unit) is not None
    apply_wounds(s, unit, 1, "test")
    assert unit.regulars == 0 and sergeant_index(unit) is None


def test_musician_adds_one_inch_to_every_move_action_and_pursuit_but_not_flight():
    """Rulebook "Command Groups": Musician: this model and its unit move by +1" when taking move actions;
    "Pursuit Moves": Musician +1"; "Flight Moves": no other modifiers (eg. Musician)."""
    band = make_unit("m", 1, profile(), 10, None, upgrades=frozenset({"musician"}))
    assert [move_allowance(band, a) for a in (MoveAction.HOLD, MoveAction.ADVANCE, MoveAction.RUSH,
                                             MoveAction.CHARGE)] == [0, 7, 13, 13]
    assert pursuit_range_bonus(band) == 1 and advance_bonus(band) == 0


def test_banner_adds_one_to_morale_tests():
    """Rulebook "Command Groups": Banner: this model and its unit get +1 to morale test rolls."""
    banner = make_unit("b", 1, profile(), 10, None, upgrades=frozenset({"banner"}))
    plain = make_unit("p", 1, profile(), 10, None)
    assert morale_test(dice(3), banner, [], "test").passed
    assert not morale_test(dice(3), plain, [], "test").passed
    assert "+1 Banner" in morale_test(dice(3), banner, [], "test").events[0].data["details"]


def test_banner_is_worth_fifty_more_points_when_the_unit_is_destroyed():
    """Rulebook "Victory Conditions": +50 points if the destroyed, routed or fled unit included a standard
    bearer (the Banner); nothing more at half strength."""
    s = face_off(12, target_upgrades=frozenset({"banner"}))
    unit = s.units["orcs-1"]
    apply_wounds(s, unit, 5, "test")
    assert unit_victory_points(unit) == ("Orc Boyz (orcs-1) at half strength or less", 50)
    s.remove(unit, Removal.ROUTED)
    assert unit_victory_points(unit) == ("Orc Boyz (orcs-1) routed (with its banner +50)", 150)


SCENARIO = """\
format: regiments-scenario/1
name: T
ruleset: aowfbr-1.4
armies:
  - player: 1
    profiles:
      Foot: {quality: 4, defense: 5, base: [20, 20], size: 10, cost: 100}
    units:
      - {id: foot, profile: Foot, models: 20, upgrades: UPGRADES, pose: {x: 20, y: 6, facing: 0}}
"""


@pytest.mark.parametrize("upgrades", ["[sergeant, musician, banner]", "[banner, banner]", "[musician, drummer]"])
def test_one_of_each_upgrade_per_unit_even_combined(tmp_path: Path, upgrades: str):
    """Rulebook "Command Groups": each unit may only have one of each upgrade (even combined units)."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("UPGRADES", upgrades))
    if upgrades.startswith("[sergeant"):
        assert load_scenario(path).armies[1].units[0].upgrades == {"sergeant", "musician", "banner"}
        return
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    problem = e.value.problems[0]
    assert f"{path}:9: armies[0].units[0].upgrades[1]:" in problem
    assert ("listed twice" in problem) if "banner, banner" in upgrades else ("unknown upgrade" in problem)
