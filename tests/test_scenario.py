"""Scenario and army files: the shipped scenarios load and are legal armies and tables; bad files give exactly
the expected ``FILE:LINE: PATH: message`` problems (game/scenario/, docs/formats.md)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.state import Phase, Step
from game.file_check import check_scenario_file
from game.scenario import (
    Scenario,
    ScenarioError,
    load_army,
    load_scenario,
    load_scenario_mapping,
    new_game_state,
)
from game.terrain_kinds import KIND_TRAITS, blocks_sight
from geometry.formation import Formation
from geometry.shapes import footprint_polygon

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "scenarios" / "default.yaml"

# A small valid scenario; tests change one thing and expect exact lines (numbers in the comments).
BASE = """\
format: regiments-scenario/1
name: Test Field
ruleset: aowfbr-1.4
terrain:
  - name: Tower
    kind: building
    rect: {x: 36, y: 24, width: 4, depth: 4}
armies:
  - player: 1
    general: hero
    profiles:
      Spearmen:
        quality: 4
        defense: 4
        base: [20, 20]
        size: 10
        cost: 100
        weapons:
          - {name: Spear, attacks: 1, rules: [Counter]}
        rules: [Fearless]
      Captain:
        quality: 3
        defense: 3
        base: [25, 25]
        size: 1
        cost: 60
        rules: [Hero, "Tough(3)"]
    units:
      - id: spears-1
        profile: Spearmen
        models: 10
        pose: {x: 20, y: 6, facing: 0}
      - id: hero
        profile: Captain
        models: 1
        pose: {x: 30, y: 6, facing: 0}
  - player: 2
    include: army.yaml
    units:
      - id: goblins-1
        profile: Goblins
        models: 10
        pose: {x: 36, y: 42, facing: 180}
"""
# line numbers in BASE
L_QUALITY, L_RULES, L_UNITS_0_ID, L_UNITS_0_POSE, L_UNITS_1_ID = 13, 20, 29, 32, 33

ARMY = """\
format: regiments-army/1
name: Goblin Rabble
profiles:
  Goblins:
    quality: 5
    defense: 6
    base: [20, 20]
    size: 10
    cost: 60
    weapons:
      - {name: Stabba, attacks: 1}
"""


def write(tmp_path: Path, text: str, army: str = ARMY) -> Path:
    """Write a scenario (and its army file) into tmp_path; returns the scenario path."""
    (tmp_path / "army.yaml").write_text(army, encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def edit(old: str, new: str, text: str = BASE) -> str:
    """``text`` with the first ``old`` replaced by ``new`` (which must be there)."""
    assert old in text, old
    return text.replace(old, new, 1)


def problems(tmp_path: Path, text: str, army: str = ARMY) -> list[str]:
    path = write(tmp_path, text, army)
    found = check_scenario_file(path)
    prefix = f"{tmp_path}/"
    return [p.removeprefix(prefix) for p in found]


# --- the shipped files ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def default() -> Scenario:
    return load_scenario(DEFAULT)


def test_every_shipped_scenario_and_army_file_is_valid() -> None:
    files = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted((ROOT / "scenarios" / "armies").glob("*.yaml"))
    assert DEFAULT in files
    for f in files:
        assert check_scenario_file(f) == [], f


def test_default_scenario_basics(default: Scenario) -> None:
    assert default.name == "Battle of the Ashen Ford"
    assert default.ruleset == "aowfbr-1.4"
    assert (default.table.width, default.table.depth) == (72, 48)
    assert default.rounds == 4
    assert default.options == {"random_charge_distance": False, "artillery_scatter": False, "spell_tokens": "basic"}
    assert sorted(default.armies) == [1, 2]
    assert default.source == DEFAULT
    assert len(default.terrain_kinds) == len(default.terrain)
    assert [t.index for t in default.terrain] == list(range(len(default.terrain)))


@pytest.mark.parametrize("player", [1, 2])
def test_default_armies_are_legal_750_point_lists(default: Scenario, player: int) -> None:
    army = default.armies[player]
    assert 5 <= len(army.units) <= 7
    assert 700 <= army.points <= 750
    profiles = {u.id: army.profile_of(u) for u in army.units}
    # infantry block(s) of 10-20 with a command group
    blocks = [u for u in army.units if 10 <= u.models <= 20 and not profiles[u.id].ranged_weapons
              and profiles[u.id].base_width_mm == 20]
    assert blocks and any(u.upgrades == {"sergeant", "musician", "banner"} for u in blocks)
    # shooters
    shooters = [u for u in army.units if profiles[u.id].ranged_weapons]
    assert shooters
    # cavalry: Fast, Impact, 25 mm wide x 50 mm deep bases, 5 per row
    cavalry = [u for u in army.units if profiles[u.id].has("Fast") and profiles[u.id].has("Impact")]
    assert cavalry
    for u in cavalry:
        p = profiles[u.id]
        assert (p.base_width_mm, p.base_depth_mm) == (25, 50) and u.formation_per_row == 5
    # the General: a single-model Hero with Tough and Fear
    assert army.general is not None
    general = army.unit(army.general)
    gp = army.profile_of(general)
    assert general.models == 1 and gp.is_hero and gp.tough >= 3 and gp.has("Fear")
    # only the rules the engine implements first, and a Caster (game.engine.magic) with the army's spells
    allowed = {"Counter", "Impact", "AP", "Fast", "Slow", "Fearless", "Tough", "Fear", "Hero", "Caster"}
    assert 4 <= len(army.spells) <= 6
    from game.engine.profiles import parse_rule

    for p in profiles.values():
        for text in p.rules + tuple(r for w in p.weapons for r in w.rules):
            assert parse_rule(text)[0] in allowed


def test_default_armies_have_ap_and_counter(default: Scenario) -> None:
    weapons = [w for army in default.armies.values() for p in army.profiles.values() for w in p.weapons]
    assert any(w.is_ranged and w.ap for w in weapons)
    assert any(w.has("Counter") for w in weapons)


def test_default_deployment(default: Scenario) -> None:
    """Fully within 12" of the own edge, facing the enemy, 1"+ apart, not in impassable terrain."""
    footprints = []
    for army, u in default.units():
        p = army.profile_of(u)
        assert u.pose is not None
        fp = footprint_polygon(u.pose, Formation(u.models, u.formation_per_row, p.base_width_mm, p.base_depth_mm))
        x0, y0, x1, y1 = fp.bounds
        assert 0 <= x0 and x1 <= 72
        if army.player == 1:
            assert 0 <= y0 and y1 <= 12 and u.pose.facing == 0
        else:
            assert 36 <= y0 and y1 <= 48 and u.pose.facing == 180
        for t in default.terrain:
            if "impassable" in t.traits:
                assert not fp.intersects(t.shape), (u.id, t.name)
        footprints.append((u.id, fp))
    for (a, fa), (b, fb) in itertools.combinations(footprints, 2):
        assert fa.distance(fb) >= 1.0, (a, b)


def test_default_terrain_follows_the_placement_guidance(default: Scenario) -> None:
    terrain = default.terrain
    kinds = set(default.terrain_kinds)
    assert len(terrain) >= 12
    assert {"forest", "hill", "building", "river", "field", "lava", "barricade"} <= kinds
    assert sum(blocks_sight(t.traits) for t in terrain) * 2 >= len(terrain)
    assert sum("cover" in t.traits for t in terrain) * 3 >= len(terrain)
    assert sum("difficult" in t.traits for t in terrain) * 3 >= len(terrain)
    assert sum("dangerous" in t.traits for t in terrain) >= 1
    for t, kind in zip(terrain, default.terrain_kinds, strict=True):
        assert t.traits == KIND_TRAITS[kind]
    # gaps of at least 6" so units fit, except at the ford where the barricade stands between the river banks
    for a, b in itertools.combinations(terrain, 2):
        if "Ford Barricade" not in (a.name, b.name):
            d = a.shape.distance(b.shape)
            assert d >= 6 - 1e-9, (a.name, b.name, d)


def test_default_builds_a_game_state(default: Scenario) -> None:
    state = new_game_state(default)
    assert state.name == default.name
    assert state.phase is Phase.STRATEGY_1 and state.step is Step.STRATEGY
    assert (state.round, state.active_player) == (1, 1)
    assert state.pending is None
    assert state.generals == {1: "landvogt", 2: "cinder-lord"}
    assert len(state.units) == sum(len(a.units) for a in default.armies.values())
    assert list(state.units) == [u.id for _, u in default.units()]
    assert len(state.terrain) == len(default.terrain)
    pikes = state.unit("pikemen-1")
    assert (pikes.player, pikes.models, pikes.starting_models, pikes.cost) == (1, 20, 20, 180)
    assert pikes.upgrades == {"sergeant", "musician", "banner"}
    for army in default.armies.values():
        assert sum(u.cost for u in state.units.values() if u.player == army.player) == army.points
    # the geometry cache knows every unit
    for u in state.units.values():
        assert state.scene.has_unit(u.id)


def test_army_files_load() -> None:
    army = load_army(ROOT / "scenarios" / "armies" / "ashen_host.yaml")
    assert army.name == "The Ashen Host"
    assert "Cinder Lord" in army.profiles and army.profiles["Cinder Lord"].is_hero


# --- start position ------------------------------------------------------------------------------------------


def test_no_poses_means_deployment(tmp_path: Path) -> None:
    text = edit("        pose: {x: 20, y: 6, facing: 0}\n", "")
    state = new_game_state(load_scenario(write(tmp_path, text)))
    assert (state.round, state.active_player, state.phase, state.step) == (1, 1, Phase.DEPLOYMENT, Step.DEPLOY)
    assert state.unit("spears-1").pose is None


@pytest.mark.parametrize(
    "phase, step",
    [("strategy_1", Step.STRATEGY), ("movement", Step.DECLARE_CHARGES), ("strategy_2", Step.STRATEGY),
     ("shooting", Step.RANGED_ATTACKS), ("close_combat", Step.MELEE), ("rally", Step.RALLY)],
)
def test_start_is_used(tmp_path: Path, phase: str, step: Step) -> None:
    text = BASE + f"start: {{round: 3, player: 2, phase: {phase}}}\n"
    scenario = load_scenario(write(tmp_path, text))
    state = new_game_state(scenario)
    assert (state.round, state.active_player, state.phase, state.step) == (3, 2, Phase(phase), step)


# --- loading details -----------------------------------------------------------------------------------------


def test_included_profiles_merge_under_the_scenarios_own(tmp_path: Path) -> None:
    text = edit("    include: army.yaml\n", "    include: army.yaml\n    name: Rabble\n    profiles:\n"
                "      Goblins: {quality: 4, defense: 6, base: [20, 20], size: 10, cost: 70}\n")
    scenario = load_scenario(write(tmp_path, text))
    army = scenario.armies[2]
    assert army.name == "Rabble"
    assert army.profiles["Goblins"].quality == 4 and army.points == 70


def test_army_name_defaults_to_the_included_files(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, BASE))
    assert scenario.armies[2].name == "Goblin Rabble"
    assert scenario.armies[1].name == "Player 1"


def test_yaml_1_1_booleans(tmp_path: Path) -> None:
    """``no``/``yes`` stay strings where text is expected; boolean options accept them."""
    text = edit("id: spears-1", "id: no") + "options: {random_charge_distance: yes, artillery_scatter: off}\n"
    text = text.replace("general: hero", "general: no")
    with pytest.raises(ScenarioError) as e:  # 'no' is not a hero, but it is found as a unit id
        load_scenario(write(tmp_path, text))
    assert e.value.problems == [f"{tmp_path}/s.yaml:10: armies[0].general: 'no' is not a Hero (profile "
                                "'Spearmen' has no Hero rule); the General must be one of the army's heroes"]
    scenario = load_scenario(write(tmp_path, text.replace("general: no", "general: hero")))
    assert scenario.armies[1].units[0].id == "no"
    assert scenario.options["random_charge_distance"] is True and scenario.options["artillery_scatter"] is False


def test_winds_of_power_is_refused_by_name(tmp_path: Path) -> None:
    """AoWFBR "Optional Rules" points to Winds of Power in a book we do not have: a scenario asking for it is
    refused with the rule's name, never played without it; ``false`` changes nothing and is not kept."""
    found = problems(tmp_path, BASE + "options: {winds_of_power: true}\n")
    assert len(found) == 1 and "options.winds_of_power: Winds of Power" in found[0] and "cannot be played" in found[0]
    scenario = load_scenario(write(tmp_path, BASE + "options: {winds_of_power: false}\n"))
    assert "winds_of_power" not in scenario.options


def test_inline_mapping(tmp_path: Path) -> None:
    data = yaml.safe_load(BASE)
    (tmp_path / "army.yaml").write_text(ARMY, encoding="utf-8")
    scenario = load_scenario_mapping(data, tmp_path / "<inline scenario>")
    assert scenario.armies[2].profiles["Goblins"].defense == 6
    with pytest.raises(ScenarioError) as e:
        load_scenario_mapping({**data, "rounds": 0}, tmp_path / "<inline scenario>")
    assert e.value.problems == [f"{tmp_path}/<inline scenario>:1: rounds: must be 1 to 99, got 0"]


def test_scenario_error_is_a_value_error(tmp_path: Path) -> None:
    path = write(tmp_path, edit("quality: 4", "quality: 7"))
    with pytest.raises(ValueError) as e:
        load_scenario(path)
    assert isinstance(e.value, ScenarioError)
    assert str(e.value) == "\n".join(e.value.problems)


# --- bad files: exact problems -------------------------------------------------------------------------------


def test_base_is_valid(tmp_path: Path) -> None:
    assert problems(tmp_path, BASE) == []


def test_quality_out_of_range(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("quality: 4", "quality: 7")) == [
        f"s.yaml:{L_QUALITY}: armies[0].profiles.Spearmen.quality: must be 2 to 6, got 7"]


def test_unknown_special_rule(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("rules: [Fearless]", "rules: [Fearless, Berserk, Feerless]")) == [
        f"s.yaml:{L_RULES}: armies[0].profiles.Spearmen.rules[1]: unknown special rule 'Berserk'",
        f"s.yaml:{L_RULES}: armies[0].profiles.Spearmen.rules[2]: unknown special rule 'Feerless' "
        "(did you mean Fearless?)",
    ]


def test_bad_rule_value(tmp_path: Path) -> None:
    assert problems(tmp_path, edit('"Tough(3)"', '"Tough"')) == [
        "s.yaml:27: armies[0].profiles.Captain.rules[1]: special rule Tough needs a value, as in Tough(1)"]


def test_unknown_profile(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("profile: Spearmen", "profile: Spearman")) == [
        "s.yaml:30: armies[0].units[0].profile: unknown profile 'Spearman' (did you mean Spearmen?) "
        "(profiles: Captain, Spearmen)"]


def test_duplicate_ids(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("id: goblins-1", "id: spears-1")) == [
        f"s.yaml:40: armies[1].units[0].id: duplicate unit id 'spears-1' (first at line {L_UNITS_0_ID})"]


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("        defense: 4\n", "        defense: 4\n        defense: 5\n")) == [
        "s.yaml:15: armies[0].profiles.Spearmen.defense: duplicate key 'defense' (first at line 14)"]


def test_overlapping_units(tmp_path: Path) -> None:
    # spears-1 spans x 18.03-21.97; the hero at x 21.5 overlaps it
    assert problems(tmp_path, edit("pose: {x: 30, y: 6, facing: 0}", "pose: {x: 21.5, y: 6, facing: 0}")) == [
        "s.yaml:36: armies[0].units[1].pose: unit overlaps unit 'spears-1'"]


def test_touching_units_do_not_overlap(tmp_path: Path) -> None:
    # the hero (0.98" wide) touches spears-1's right edge exactly
    x = 20 + 5 * 20 / 25.4 / 2 + 25 / 25.4 / 2
    assert problems(tmp_path, edit("pose: {x: 30, y: 6, facing: 0}", f"pose: {{x: {x!r}, y: 6, facing: 0}}")) == []


def test_unit_off_table(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("pose: {x: 20, y: 6, facing: 0}", "pose: {x: 20, y: 0.5, facing: 0}")) == [
        f"s.yaml:{L_UNITS_0_POSE}: armies[0].units[0].pose: unit is not fully on the table: its footprint spans "
        "x 18.03 to 21.97, y -0.29 to 1.29 (table 72 x 48)"]


def test_unit_in_impassable_terrain(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("pose: {x: 36, y: 42, facing: 180}", "pose: {x: 36, y: 25, facing: 180}")) == [
        "s.yaml:43: armies[1].units[0].pose: unit stands in impassable terrain 'Tower' (terrain[0])"]


def test_bad_include(tmp_path: Path) -> None:
    # the missing file is reported once; the units using its profiles are not reported again
    assert problems(tmp_path, edit("include: army.yaml", "include: armies/nothere.yaml")) == [
        "s.yaml:38: armies[1].include: no army file " f"{tmp_path}/armies/nothere.yaml"]


def test_problems_in_an_included_file_name_that_file(tmp_path: Path) -> None:
    army = edit("    quality: 5", "    quality: 1", ARMY)
    army = edit("      - {name: Stabba, attacks: 1}", "      - {name: Stabba, attacks: 1, rules: [Sneaky]}", army)
    assert problems(tmp_path, BASE, army) == [
        "army.yaml:5: profiles.Goblins.quality: must be 2 to 6, got 1",
        "army.yaml:11: profiles.Goblins.weapons[0].rules[0]: unknown special rule 'Sneaky'",
    ]


def test_included_file_of_the_wrong_format(tmp_path: Path) -> None:
    assert problems(tmp_path, BASE, edit("format: regiments-army/1", "format: regiments-army/9", ARMY)) == [
        "army.yaml:1: format: must be one of regiments-army/1; got 'regiments-army/9'"]


def test_missing_required_field(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("        models: 10\n", "")) == [
        f"s.yaml:{L_UNITS_0_ID}: armies[0].units[0].models: missing (required)"]
    assert problems(tmp_path, edit("name: Test Field\n", "")) == ["s.yaml:1: name: missing (required)"]


def test_unknown_key(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("        models: 10\n", "        models: 10\n        colour: red\n")) == [
        "s.yaml:32: armies[0].units[0].colour: unknown key "
        "(keys: id, profile, models, per_row, upgrades, joined_by, embarked_in, pose, positions, command_picks)"]


def test_bad_terrain_kind(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("kind: building", "kind: buildin")) == [
        "s.yaml:6: terrain[0].kind: unknown terrain kind 'buildin' (did you mean building?) (kinds: barricade, "
        "building, field, forest, hill, lake, lava, mountain, open, river, rubble, ruins, swamp)"]


def test_bad_terrain_shapes(tmp_path: Path) -> None:
    text = edit("    rect: {x: 36, y: 24, width: 4, depth: 4}\n",
                "    rect: {x: 36, y: 24, width: 0, depth: 4}\n"
                "  - {kind: forest, polygon: [[0, 10], [4, 14], [4, 10], [0, 14]]}\n"
                "  - {kind: hill, polygon: [[0, 10], [4, 14]]}\n"
                "  - {kind: swamp}\n"
                "  - {kind: open, traits: [cover, spooky], rect: {x: 1, y: 1, width: 1, depth: 1}}\n")
    assert problems(tmp_path, text) == [
        "s.yaml:7: terrain[0].rect.width: must be greater than 0, got 0",
        "s.yaml:8: terrain[1].polygon: outline crosses itself near (2, 12): list the points in order around the "
        "piece",
        "s.yaml:9: terrain[2].polygon: needs at least 3 points, got 2",
        "s.yaml:10: terrain[3]: needs a polygon or a rect",
        "s.yaml:11: terrain[4].traits[1]: unknown terrain trait 'spooky' (traits: blocking, cover, dangerous, "
        "dangerous_when_rushing, difficult, elevated, impassable, see_into_not_through)",
    ]


def test_traits_replace_the_kinds_defaults(tmp_path: Path) -> None:
    text = edit("    kind: building\n", "    kind: building\n    traits: [blocking]\n    height: 3\n")
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.terrain[0].traits == {"blocking"} and scenario.terrain[0].height == 3
    assert scenario.terrain_kinds == ("building",)


def test_combined_units(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("models: 10", "models: 15")) == [
        "s.yaml:31: armies[0].units[0].models: must be a multiple of profile 'Spearmen''s size 10 (one copy or a "
        "combined unit of 2 to 4), got 15"]
    assert problems(tmp_path, edit("models: 10", "models: 30")) == [
        "s.yaml:31: armies[0].units[0].models: a combined unit has at most 20 models (rulebook Combined Units), "
        "got 30"]
    assert problems(tmp_path, edit("models: 1\n", "models: 2\n")) == [
        "s.yaml:35: armies[0].units[1].models: must be 1: only multi-model units may be combined (rulebook "
        "Combined Units), got 2"]
    tough = edit("size: 10", "size: 5", edit("rules: [Fearless]", 'rules: [Fearless, "Tough(3)"]'))
    assert problems(tmp_path, edit("models: 10", "models: 15", tough)) == [
        "s.yaml:31: armies[0].units[0].models: combines 3 copies; units with Tough may combine only 2 (rulebook "
        "Combined Units)"]
    assert problems(tmp_path, edit("models: 10", "models: 10", tough)) == []


def test_general_must_be_a_hero_of_the_army(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("general: hero", "general: goblins-1")) == [
        "s.yaml:10: armies[0].general: 'goblins-1' is not a unit of this army"]
    assert problems(tmp_path, edit("general: hero", "general: spears-1")) == [
        "s.yaml:10: armies[0].general: 'spears-1' is not a Hero (profile 'Spearmen' has no Hero rule); the "
        "General must be one of the army's heroes"]


def test_joined_by(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("        models: 10\n", "        models: 10\n        joined_by: hero\n")) == []
    assert problems(tmp_path, edit("        models: 10\n", "        models: 10\n        joined_by: ghost\n")) == [
        "s.yaml:32: armies[0].units[0].joined_by: 'ghost' is not a unit of this army"]


def test_upgrades(tmp_path: Path) -> None:
    text = edit("        models: 10\n", "        models: 10\n        upgrades: [banner, standard, banner]\n")
    assert problems(tmp_path, text) == [
        "s.yaml:32: armies[0].units[0].upgrades[1]: unknown upgrade 'standard' (upgrades: banner, musician, "
        "sergeant)"]
    text = edit("        models: 10\n", "        models: 10\n        upgrades: [banner, banner]\n")
    assert problems(tmp_path, text) == [
        "s.yaml:32: armies[0].units[0].upgrades[1]: banner listed twice (rulebook Command Groups: one of each "
        "per unit)"]


def test_numbers(tmp_path: Path) -> None:
    text = edit("pose: {x: 20, y: 6, facing: 0}", "pose: {x: .inf, y: six, facing: .nan}")
    text = edit("cost: 100", "cost: 99.5", text)
    assert problems(tmp_path, text) == [
        "s.yaml:17: armies[0].profiles.Spearmen.cost: must be a whole number, got 99.5",
        f"s.yaml:{L_UNITS_0_POSE}: armies[0].units[0].pose.x: must be a finite number, got .inf",
        f"s.yaml:{L_UNITS_0_POSE}: armies[0].units[0].pose.y: must be a number, got 'six'",
        f"s.yaml:{L_UNITS_0_POSE}: armies[0].units[0].pose.facing: must be a finite number, got .nan",
    ]


def test_start_checks(tmp_path: Path) -> None:
    assert problems(tmp_path, BASE + "start: {round: 5, player: 3, phase: combat}\n") == [
        "s.yaml:44: start.player: must be 1 or 2, got 3",
        "s.yaml:44: start.phase: must be one of deployment, strategy_1, movement, strategy_2, shooting, "
        "close_combat, rally, activation; got 'combat'",
    ]
    assert problems(tmp_path, BASE + "start: {round: 5, player: 1, phase: movement}\n") == [
        "s.yaml:44: start.round: must be at most rounds (4), got 5"]
    no_pose = edit("        pose: {x: 20, y: 6, facing: 0}\n", "")
    assert problems(tmp_path, no_pose + "start: {round: 1, player: 1, phase: movement}\n") == [
        "s.yaml:43: start.phase: units without a pose (spears-1) can only be placed in the deployment phase"]


def test_duplicate_player(tmp_path: Path) -> None:
    assert problems(tmp_path, edit("  - player: 2", "  - player: 1")) == [
        "s.yaml:37: armies[1].player: player 1 already has an army (armies[0])"]


def test_yaml_syntax_error(tmp_path: Path) -> None:
    """The parser's own words differ between libyaml and pure Python; the file, line and kind do not."""
    (problem,) = problems(tmp_path, edit("name: Test Field", "name: [Test Field"))
    assert problem.startswith("s.yaml:3: (yaml): not valid YAML: ")
    assert "flow sequence" in problem


def test_not_a_mapping_and_missing_file(tmp_path: Path) -> None:
    assert problems(tmp_path, "- just\n- a list\n") == [
        "s.yaml:1: (root): a scenario file must be a mapping of keys (format, name, ruleset, armies, ...)"]
    assert check_scenario_file(tmp_path / "nothing.yaml") == [f"{tmp_path}/nothing.yaml:1: (file): no such file"]


def test_all_problems_are_collected(tmp_path: Path) -> None:
    text = edit("quality: 4", "quality: 7")
    text = edit("profile: Spearmen", "profile: Spearman", text)
    text = edit("kind: building", "kind: castle", text)
    text = edit("id: goblins-1", "id: hero", text)
    found = problems(tmp_path, text)
    assert [p.split(":")[1] for p in found] == ["6", str(L_QUALITY), "30", "40"]


def test_degenerate_polygons(tmp_path: Path) -> None:
    text = edit("    rect: {x: 36, y: 24, width: 4, depth: 4}\n",
                "    rect: {x: 36, y: 24, width: 4, depth: 4}\n"
                "  - {kind: lake, polygon: [[0, 0], [1, 1], [2, 2]]}\n"
                "  - {kind: lake, polygon: [[0, 0], [4, 0], [4, 4], [2, 0], [0, 4]]}\n"
                "  - {kind: lake, polygon: [[-9, -9], [-5, -9], [-5, -5]]}\n")
    assert problems(tmp_path, text) == [
        "s.yaml:8: terrain[1].polygon: outline has no area: its points lie on one line",
        "s.yaml:9: terrain[2].polygon: outline crosses itself near (2, 0): list the points in order around the "
        "piece",
        "s.yaml:10: terrain[3].polygon: lies entirely off the table",
    ]


JUNK = ["7", "-1", "0", "2.5", ".inf", "-.inf", ".nan", "yes", "no", "on", "null", "~", "[]", "{}", "[1, 2]",
        "[[1, 2], [3]]", "abc", "''", "1e400", '"Tough(x)"', "2024-01-01", "{x: 1}", "[Hero, Hero]"]
PROBLEM_LINE = re.compile(r"^.+?:[1-9]\d*: [^:]+: \S.*$")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, BASE.count("\n") - 1), st.sampled_from(JUNK + ["<delete>"])),
                min_size=1, max_size=3))
def test_mangled_files_give_well_formed_problems(tmp_path: Path, changes: list[tuple[int, str]]) -> None:
    """Whatever a value is changed to, loading never crashes and every problem is FILE:LINE: PATH: message."""
    lines = BASE.splitlines()
    for index, junk in changes:
        line = lines[index]
        if junk == "<delete>":
            lines[index] = ""
        elif ": " in line:
            lines[index] = line[: line.index(": ") + 2] + junk
        elif line.lstrip().startswith("- "):
            lines[index] = line[: line.index("- ") + 2] + junk
    text = "\n".join(lines) + "\n"
    path = write(tmp_path, text)
    found = check_scenario_file(path)
    for p in found:
        assert PROBLEM_LINE.match(p), p
    if not found:
        new_game_state(load_scenario(path))


def test_the_documented_example_loads(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    example = text.split("### Example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    # the example's includes are relative to scenarios/
    scenario = load_scenario_mapping(yaml.safe_load(example), ROOT / "scenarios" / "<docs example>")
    assert scenario.armies[1].points == 180 + 85
    state = new_game_state(scenario)
    assert state.phase is Phase.DEPLOYMENT


def test_a_key_ending_in_a_newline_is_quoted_so_each_problem_stays_on_one_line(tmp_path: Path) -> None:
    """Hostile files (brief: every problem is ``FILE:LINE: PATH: message``): ``$`` also matches before a final
    newline, so the key ``"A\\n"`` once passed as a plain name and broke its problem over two lines."""
    path = tmp_path / "army.yaml"
    path.write_text('format: regiments-army/1\n"A\\n": 1\n', encoding="utf-8")
    found = check_scenario_file(path)
    assert f"{path}:2: 'A\\n': unknown key (keys: format, name, description, upgrade_costs, profiles, spells)" in found
    assert all("\n" not in p for p in found)
