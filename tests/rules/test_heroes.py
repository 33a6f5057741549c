"""Heroes joined to units (rulebook "Hero", "Heroes & Units With Mixed Base Sizes", "Tough(X)", "Victory
Conditions"): one unit in the game state, the hero in its formation, wounds last, morale tests, Defense, its own
weapons in shooting and melee, victory points, the state file and the scenario loader. Fixed dice throughout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.actions import Shoot
from game.engine.casualties import apply_wounds, at_half_strength
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.melee import full_rows, melee_morale_test, resolution_models
from game.engine.morale import morale_test
from game.engine.profiles import Weapon
from game.engine.shooting import shoot, shooting_morale_tests
from game.engine.special_rules import defense_profile, morale_quality
from game.engine.state import Removal
from game.engine.victory import victory_breakdown, victory_points
from game.scenario import ScenarioError, load_scenario, new_game_state
from game.state_file import state_to_dict
from geometry.formation import Formation, hero_index, model_sizes, sergeant_index
from tests.rules import melee_builders as mb
from tests.rules.builders import HAND_WEAPON, LONGBOW, dice, face_off, join_hero, profile, rolls

CAPTAIN = profile("Captain", quality=3, defense=3, weapons=(Weapon("Pistol", 1, 12.0), Weapon("Sword", 2)),
                  rules=("Hero", "Tough(3)"), size=1, cost=60)
MM = 25.4


def orcs(s):
    return s.units["orcs-1"]


# --- in the state ----------------------------------------------------------------------------------------------

SCENARIO = """\
format: regiments-scenario/1
name: T
ruleset: aowfbr-1.4
armies:
  - player: 1
    general: cap
    profiles:
      Spearmen: {quality: 4, defense: 4, base: [20, 20], size: 10, cost: 100, weapons: [{name: Spear, attacks: 1}]}
      Captain: {quality: 3, defense: 3, base: [#BASE], size: 1, cost: 60, rules: [Hero, "Tough(3)"],
                weapons: [{name: Sword, attacks: 2}]}
    units:
      - {id: spears, profile: Spearmen, models: 10, joined_by: cap, pose: {x: 20, y: 6, facing: 0}}
      - {id: cap, profile: Captain, models: 1}
      - {id: other, profile: Spearmen, models: 10, pose: {x: #X, y: 6, facing: 0}}
  - player: 2
    general: boss
    profiles:
      Boss: {quality: 3, defense: 3, base: [25, 25], size: 1, cost: 80, rules: [Hero]}
    units:
      - {id: boss, profile: Boss, models: 1, pose: {x: 36, y: 40, facing: 180}}
"""


def scenario(tmp_path: Path, base: str = "20, 20", x: float = 40.0) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("#BASE", base).replace("#X", str(x)))
    return path


def test_a_joined_hero_is_one_model_of_its_unit(tmp_path: Path):
    """Rulebook "Hero": when a Hero joins a unit it counts as part of that unit, so the unit's size is increased
    by 1; it never leaves it. The General may be that hero."""
    state = new_game_state(load_scenario(scenario(tmp_path)))
    spears = state.units["spears"]
    assert "cap" not in state.units and spears.hero is not None and spears.hero.id == "cap"
    assert spears.models == spears.starting_models == 11 and spears.regulars == 10
    assert spears.cost == 100 and spears.total_cost == 160
    assert state.generals[1] == "cap" and state.host_of("cap") is spears
    assert state.phase.value == "strategy_1"  # the hero needs no pose of its own


def test_the_loader_checks_the_unit_with_its_hero_in_formation(tmp_path: Path):
    """Rulebook "Heroes & Units With Mixed Base Sizes": a hero whose base does not fit stands beside the unit,
    which makes it wider; the loader refuses an overlap it causes."""
    assert load_scenario(scenario(tmp_path, base="25, 50", x=24.5))  # 20 mm x 5 + 25 mm = 4.92" wide
    assert load_scenario(scenario(tmp_path, base="20, 20", x=24.0))
    with pytest.raises(ScenarioError) as e:
        load_scenario(scenario(tmp_path, base="25, 50", x=24.0))
    assert "overlaps unit 'spears'" in str(e.value)


def test_combined_units_follow_the_rulebook_limits(tmp_path: Path):
    """Rulebook "Combined Units": up to four copies, at most 20 models, units with Tough(X) two copies only."""
    path = scenario(tmp_path)
    text = path.read_text()
    path.write_text(text.replace("{id: other, profile: Spearmen, models: 10,", "{id: other, profile: Spearmen, "
                                                                              "models: 30,"))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert "at most 20 models" in str(e.value)


# --- formation -------------------------------------------------------------------------------------------------


def test_a_hero_on_the_units_base_stands_in_the_middle_of_the_front_row():
    """Rulebook "Heroes & Units With Mixed Base Sizes": if the footprint fits into formation, place it in the front
    row, displacing models to the back."""
    f = Formation(11, 5, 20, 20, 20, 20)
    assert f.row_counts() == (5, 5, 1) and f.rows == 3 and hero_index(f) == 2 and sergeant_index(f) == 1
    assert f.width == pytest.approx(100 / MM) and f.depth == pytest.approx(60 / MM)


def test_a_bigger_hero_that_fits_counts_as_the_places_it_takes():
    """Rulebook "Heroes & Units With Mixed Base Sizes": a model whose footprint fits into formation counts as that
    number of models for melee resolution (a 40 mm hero in 20 mm ranks: 4)."""
    f = Formation(9, 5, 20, 20, 40, 40)
    assert f.hero_slots == (2, 2) and f.row_counts() == (4, 3, 2)  # 3 + hero, 3 beside it, 2 behind
    assert model_sizes(f)[hero_index(f)] == pytest.approx((40 / MM, 40 / MM))
    s = mb.charge_setup(attacker_models=8)
    unit = join_hero(s, "a", profile("Ogre Chief", rules=("Hero",), size=1, base=(40, 40)))
    assert resolution_models(unit) == 12 and full_rows(unit) == 2  # without it: 8 // 5 = 1


def test_a_hero_that_does_not_fit_stands_beside_and_counts_in_the_last_row_only():
    """Rulebook "Heroes & Units With Mixed Base Sizes": if it doesn't fit, place it next to the unit; it doesn't
    count toward melee resolution until only the last row remains (and then counts as one model)."""
    f = Formation(11, 5, 20, 20, 25, 50)
    assert f.hero_slots is None and f.width == pytest.approx(125 / MM) and f.depth == pytest.approx(50 / MM)
    s = mb.charge_setup()
    unit = join_hero(s, "a", profile("Knight", rules=("Hero",), size=1, base=(25, 50)))
    assert resolution_models(unit) == 10 and full_rows(unit) == 2
    apply_wounds(s, unit, 5, "test")
    assert resolution_models(unit) == 6 and full_rows(unit) == 1


# --- wounds, Defense, morale -------------------------------------------------------------------------------------


def test_wounds_go_on_the_hero_last():
    """Rulebook "Tough(X)": if a model with tough joins a unit without it, it is removed last; heroes must be
    assigned wounds last."""
    s = face_off(12)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    apply_wounds(s, unit, 9, "test")
    assert unit.regulars == 1 and unit.hero.wounds == 0
    apply_wounds(s, unit, 2, "test")
    assert unit.regulars == 0 and unit.hero.wounds == 1 and unit.models == 1 and unit.removed is None
    apply_wounds(s, unit, 5, "test")
    assert unit.removed is Removal.DESTROYED and unit.hero.killed


def test_tough_models_take_wounds_most_wounded_first_and_the_hero_last():
    """Rulebook "Tough(X)": continue to put wounds on the tough model with most wounds until it is killed before
    the next; heroes must be assigned wounds last."""
    s = face_off(12, target=profile("Ogres", rules=("Tough(3)",), size=3), target_models=3)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    apply_wounds(s, unit, 4, "test")
    assert unit.regulars == 2 and unit.wounds == 1 and unit.hero.wounds == 0
    apply_wounds(s, unit, 6, "test")
    assert unit.regulars == 0 and unit.hero.wounds == 1


def test_the_hero_uses_the_units_defense_until_the_others_are_dead():
    """Rulebook "Hero": the hero must use the unit's Defense until all other models have been killed."""
    s = face_off(12, shooter_models=5)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    events = shoot(s, dice(4, 1, 1, 1, 1, 4), Shoot(1, "archers-1", "orcs-1"))
    assert rolls(events)[1].data["need"] == 5
    apply_wounds(s, unit, 10, "test")
    assert defense_profile(unit) is CAPTAIN
    s.units["archers-1"].weapons_fired.clear()  # a later Shooting Phase
    events = shoot(s, dice(4, 1, 1, 1, 1, 4), Shoot(1, "archers-1", "orcs-1", ("Longbow",)))
    assert rolls(events)[1].data["need"] == 3 and "Defense 3+ (Captain)" in rolls(events)[1].data["details"]


def test_the_hero_takes_the_morale_tests_of_the_unit():
    """Rulebook "Hero": the hero may take morale tests on behalf of the unit (its better Quality)."""
    s = face_off(12)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    assert morale_quality(unit) == (3, "taken by Captain (cap)")
    test = morale_test(dice(3), unit, [], "test")
    assert test.passed and test.events[0].data["details"][0] == "Quality 3+ (taken by Captain (cap))"


def test_a_hero_left_alone_tests_as_the_unit_at_half_strength():
    """Rulebook "Hero" (example): once all other models have been killed the hero takes a morale test whenever it
    takes wounds, and fails a melee one by fleeing (routing), being half or less of the unit's starting size."""
    s = face_off(12)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    apply_wounds(s, unit, 11, "test")
    assert unit.models == 1 and at_half_strength(unit)
    events = shooting_morale_tests(s, dice(2), 1)
    assert any(e.kind == "shaken" for e in events)
    outcome, _ = melee_morale_test(s, dice(6), unit, 1)
    assert outcome == "flees"


# --- the hero fights with its unit -------------------------------------------------------------------------------


def test_the_hero_shoots_with_its_own_weapon_and_quality():
    """Rulebook "Hero" (counts as part of the unit) and "Who Can Shoot": the hero in the front row fires its own
    weapons at its own Quality, alongside the unit's models."""
    s = face_off(10)
    join_hero(s, "archers-1", CAPTAIN)
    events = shoot(s, Dice(seed=5), Shoot(1, "archers-1", "orcs-1"))
    fired = [(e.data["weapon"], e.data["attacks"], e.data["hero"]) for e in rolls(events, "shoot")]
    assert fired == [("Longbow", 9, False), ("Pistol", 1, True)]  # 4 + 5 in the two front rows, and the hero
    pistol = [e for e in rolls(events) if "Pistol" in e.data["purpose"] and "to hit" in e.data["purpose"]][0]
    assert pistol.data["need"] == 3


def test_the_hero_strikes_with_its_own_weapons_in_melee():
    """Rulebook "Hero" and "Who Can Strike": the hero in the front row strikes with its own melee weapons at its
    own Quality."""
    s = mb.charge_setup(attacker_models=10, target_models=10)
    join_hero(s, "a", CAPTAIN)
    from game.engine.melee import fight

    events = fight(s, Dice(seed=2), ["a", "t"]).events
    strikes = [e for e in events if e.kind == "info" and e.data.get("unit") == "a" and "weapon" in e.data]
    assert {(e.data["weapon"], e.data["hero"]) for e in strikes} == {("Hand Weapon", False), ("Sword", True)}
    sword = next(e for e in strikes if e.data["weapon"] == "Sword")
    assert sword.data["attacks"] == 2
    hit = next(e for e in events if e.kind == "roll" and "Sword" in e.data["purpose"])
    assert hit.data["need"] == 3


# --- victory points, state file --------------------------------------------------------------------------------


def test_victory_points_count_the_hero_with_its_unit(tmp_path: Path):
    """Rulebook "Victory Conditions": a destroyed unit is worth its cost including heroes; at half strength 50%,
    including the hero only if it was killed (docs/rulings.md: a killed hero scores its own cost in full); +100 for
    the enemy General killed, who may be a joined hero."""
    state = new_game_state(load_scenario(scenario(tmp_path)))
    spears = state.units["spears"]
    apply_wounds(state, spears, 6, "test")
    assert victory_breakdown(state)[2] == [("Spearmen (spears) at half strength or less", 50)]
    apply_wounds(state, spears, 4 + 3, "test")  # the last spearmen, then the hero
    assert spears.removed is Removal.DESTROYED
    assert victory_breakdown(state)[2] == [("Spearmen (spears) destroyed with its hero Captain (cap)", 160),
                                           ("enemy General Captain (cap) killed", 100)]
    state = new_game_state(load_scenario(scenario(tmp_path)))
    state.units["spears"].hero.wounds = 2
    apply_wounds(state, state.units["spears"], 1, "a sniper", hero_only=True)
    assert victory_points(state)[2] == 60 + 100


def test_the_state_file_tells_about_the_hero(tmp_path: Path):
    """Rulebook "Hero": the state file lists the joined hero under its unit (optional key ``hero``) and its wounds
    in ``wounds`` when it carries the most."""
    state = new_game_state(load_scenario(scenario(tmp_path)))
    game = Game(state, Dice(seed=1))
    apply_wounds(state, state.units["spears"], 11, "test")
    entry = next(u for u in state_to_dict(game)["units"] if u["id"] == "spears")
    assert entry["models"] == 1 and entry["wounds"] == 1
    assert entry["hero"] == {"id": "cap", "wounds": 1, "killed": False}
    assert [u["id"] for u in state_to_dict(game)["units"]] == ["spears", "other", "boss"]


def test_hand_weapon_profile_is_the_melee_default():
    """Rulebook "Hero": a hero with only melee weapons adds no shooting to its unit."""
    s = face_off(12)
    join_hero(s, "archers-1", profile("Brute", weapons=(HAND_WEAPON,), rules=("Hero",), size=1))
    events = shoot(s, dice(*[1] * 9), Shoot(1, "archers-1", "orcs-1"))
    assert [e.data["weapon"] for e in rolls(events, "shoot")] == [LONGBOW.name]
