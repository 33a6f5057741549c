"""The shipped army files and the scenarios that use them (docs/formats.md "Army file", "Spells").

Every army file loads with 8 to 12 profiles and 4 to 6 spells and has a caster; every shipped scenario checks, its
armies keep within the battle's points, and a game of it can be played to the end by the computer players.
Spell entries with mistakes are refused with ``FILE:LINE: PATH: message`` problems.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.autoplay import play_out, state_is_consistent
from game.engine import magic
from game.engine.dice import Dice
from game.engine.game import Game
from game.file_check import check_scenario_file
from game.scenario import load_army, load_scenario, new_game_state

ROOT = Path(__file__).resolve().parent.parent
ARMIES = sorted((ROOT / "scenarios" / "armies").glob("*.yaml"))
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
POINTS = {
    "default.yaml": 750,
    "river_crossing.yaml": 750,
    "orcs_vs_dwarves.yaml": 1000,
    "undead_vs_humans_1500.yaml": 1500,
}
"""The points of each shipped battle (each army spends 90% to 100% of them)."""


@pytest.mark.parametrize("path", ARMIES, ids=lambda p: p.stem)
def test_every_army_file_loads_with_8_to_12_profiles_and_4_to_6_spells(path: Path) -> None:
    army = load_army(path)
    assert 8 <= len(army.profiles) <= 12
    assert 4 <= len(army.spells) <= 6
    casters = [p for p in army.profiles.values() if p.has("Caster")]
    assert casters and all(p.is_hero for p in casters)
    assert any(p.is_hero and not p.has("Caster") for p in army.profiles.values())  # a General
    for spell in army.spells.values():
        assert spell.hits or spell.modifier or spell.heal or spell.rally
        assert (spell.range is None) == (spell.target == "self")


def test_the_four_armies() -> None:
    names = {p.stem for p in ARMIES}
    assert {"free_cantons_of_aldmark", "ashen_host", "redtusk_horde", "ironroot_hold"} <= names
    kinds = {"hits", "modifier", "heal", "rally"}
    seen: set[str] = set()
    for path in ARMIES:
        for s in load_army(path).spells.values():
            seen |= {k for k in kinds if getattr(s, k)}
    assert seen == kinds


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_checks_and_keeps_within_its_points(path: Path) -> None:
    assert check_scenario_file(path) == []
    scenario = load_scenario(path)
    points = POINTS.get(path.name)
    if points is None:
        return
    for army in scenario.armies.values():
        assert 0.9 * points <= army.points <= points, (army.name, army.points)
        profiles = [army.profile_of(u) for u in army.units]
        assert any(p.has("Caster") for p in profiles), army.name
        assert army.spells


def test_the_new_scenarios_use_every_token_mode() -> None:
    modes = {load_scenario(ROOT / "scenarios" / name).options["spell_tokens"] for name in POINTS}
    assert modes == {"basic", "spell_and_dispel", "pooled"}


@pytest.mark.parametrize("name", [n for n in POINTS if n != "default.yaml"])
def test_a_game_of_each_new_scenario_plays_to_the_end(name: str) -> None:
    scenario = load_scenario(ROOT / "scenarios" / name)
    state = new_game_state(scenario)
    assert isinstance(state.magic, magic.MagicState)
    assert state.magic.mode == scenario.options["spell_tokens"]
    assert set(state.magic.spells[1]) == set(scenario.armies[1].spells)
    game = Game.start(state, Dice(seed=3))
    actions = play_out(game, 3)
    assert game.state.game_over
    assert state_is_consistent(game.state) == []
    assert any(a.type == "cast_spell" for a in actions)


# --- spells with mistakes ---------------------------------------------------------------------------------------

ARMY = """\
format: regiments-army/1
name: Test Army
profiles:
  Wizard:
    quality: 4
    defense: 5
    base: [25, 25]
    size: 1
    cost: 80
    rules: [Hero, "Caster(2)"]
spells:
  - name: Bolt
    value: 1
    range: 18
    target: enemy
    hits: {count: 3, ap: 1}
"""


def write(tmp_path: Path, text: str, name: str = "army.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_spell_list_loads(tmp_path: Path) -> None:
    army = load_army(write(tmp_path, ARMY))
    bolt = army.spells["Bolt"]
    assert (bolt.value, bolt.range, bolt.target, bolt.hits.count, bolt.hits.ap) == (1, 18.0, "enemy", 3, 1)


def test_a_point_spell_loads(tmp_path: Path) -> None:
    army = load_army(write(tmp_path, ARMY + "  - {name: Storm, value: 2, range: 18, target: point, "
                                            "area: {radius: 3, affects: all}, hits: {count: 3, ap: 1}}\n"))
    storm = army.spells["Storm"]
    assert (storm.target, storm.range, storm.area.radius, storm.area.affects) == ("point", 18.0, 3.0, "all")
    assert "point within 18\"" in storm.summary() and "all units within 3\"" in storm.summary()


@pytest.mark.parametrize(("spell", "line", "path", "message"), [
    ("  - {name: X, value: 7, range: 6, target: enemy, hits: {count: 1}}", 17, "spells[1].value",
     "must be 1 to 6, got 7"),
    ("  - {name: X, value: 1, range: 6, target: foes, hits: {count: 1}}", 17, "spells[1].target",
     "must be one of enemy, friend, self, point; got 'foes'"),
    ("  - {name: X, value: 1, target: enemy, hits: {count: 1}}", 17, "spells[1]", "missing range"),
    ("  - {name: X, value: 1, range: 6, target: self, rally: true}", 17, "spells[1].range",
     "a spell with target self has no range"),
    ("  - {name: X, value: 1, range: 6, target: enemy}", 17, "spells[1]", "a spell needs at least one effect"),
    ("  - {name: X, value: 1, range: 6, target: friend, hits: {count: 2}}", 17, "spells[1].hits",
     "hits need target enemy"),
    ("  - {name: X, value: 1, range: 6, target: enemy, heal: {wounds: 2}}", 17, "spells[1].heal",
     "heal needs target friend or self"),
    ("  - {name: X, value: 1, range: 6, target: friend, modifier: {stat: luck, value: 1}}", 17,
     "spells[1].modifier.stat", "must be one of to_hit, defense, morale, move, attacks; got 'luck'"),
    ("  - {name: X, value: 1, range: 6, target: friend, modifier: {stat: to_hit, value: 0}}", 17,
     "spells[1].modifier.value", "must not be 0"),
    ("  - {name: X, value: 1, range: 6, target: friend, modifier: {stat: to_hit, value: 1, duration: game}}", 17,
     "spells[1].modifier.duration", "must be one of phase, turn, round; got 'game'"),
    ("  - {name: Bolt, value: 1, range: 6, target: enemy, hits: {count: 1}}", 17, "spells[1].name",
     "duplicate spell name 'Bolt' (also spells[0])"),
    ("  - {name: X, value: 1, range: 6, target: enemy, hits: {count: 1}, colour: red}", 17, "spells[1].colour",
     "unknown key"),
    # spells aimed at a point (docs/formats.md "Spells": target point, area {radius, affects})
    ("  - {name: X, value: 1, range: 6, target: point, hits: {count: 1}}", 17, "spells[1]", "missing area"),
    ("  - {name: X, value: 1, target: point, area: {radius: 3, affects: enemy}, hits: {count: 1}}", 17, "spells[1]",
     "missing range: a spell that targets a point"),
    ("  - {name: X, value: 1, range: 6, target: enemy, area: {radius: 3, affects: enemy}, hits: {count: 1}}", 17,
     "spells[1].area", "an area needs target point"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 0, affects: enemy}, hits: {count: 1}}", 17,
     "spells[1].area.radius", "must be 0.5 to 12, got 0"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 13, affects: enemy}, hits: {count: 1}}", 17,
     "spells[1].area.radius", "must be 0.5 to 12, got 13"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 3, affects: foes}, hits: {count: 1}}", 17,
     "spells[1].area.affects", "must be one of enemy, friend, all; got 'foes'"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 3}, hits: {count: 1}}", 17,
     "spells[1].area.affects", "missing"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 3, affects: friend}, hits: {count: 1}}", 17,
     "spells[1].hits", "hits need target enemy, or target point with area.affects enemy or all"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 3, affects: all}, rally: true}", 17,
     "spells[1].rally", "rally needs target friend or self, or target point with area.affects friend"),
    ("  - {name: X, value: 1, range: 6, target: point, area: {radius: 3, affects: enemy, shape: cone}, "
     "hits: {count: 1}}", 17, "spells[1].area.shape", "unknown key"),
])
def test_spell_problems_name_file_line_and_path(tmp_path: Path, spell: str, line: int, path: str,
                                                message: str) -> None:
    army = write(tmp_path, ARMY + spell + "\n")
    found = check_scenario_file(army)
    assert len(found) == 1, found
    assert found[0].startswith(f"{army}:{line}: {path}: {message}"), found[0]


def test_scenario_armies_add_spells_to_the_included_ones(tmp_path: Path) -> None:
    write(tmp_path, ARMY)
    scenario = write(tmp_path, """\
format: regiments-scenario/1
name: Test
ruleset: aowfbr-1.4
armies:
  - player: 1
    include: army.yaml
    spells:
      - {name: Haste, value: 1, range: 12, target: friend, modifier: {stat: move, value: 2, duration: phase}}
      - {name: Bolt, value: 2, range: 24, target: enemy, hits: {count: 5}}
      - {name: Oops, value: 1, target: enemy}
    units:
      - {id: wiz, profile: Wizard, models: 1, pose: {x: 36, y: 6, facing: 0}}
""", "scenario.yaml")
    found = check_scenario_file(scenario)
    assert found == [f"{scenario}:10: armies[0].spells[2]: a spell needs at least one effect: hits, modifier, "
                     f"heal or rally",
                     f"{scenario}:10: armies[0].spells[2]: missing range: a spell that targets a unit (enemy) "
                     f"needs a range in inches"]
    scenario.write_text(scenario.read_text().replace("      - {name: Oops, value: 1, target: enemy}\n", ""))
    spells = load_scenario(scenario).armies[1].spells
    assert sorted(spells) == ["Bolt", "Haste"] and spells["Bolt"].value == 2
    state = new_game_state(load_scenario(scenario))
    assert sorted(state.magic.spells[1]) == ["Bolt", "Haste"] and state.magic.spells.get(2) in (None, {})
