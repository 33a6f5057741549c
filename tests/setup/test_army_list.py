"""Army lists (game/setup/army_list.py): points, "Combined Units", "Command Groups", "Hero", "Victory Conditions",
"Force Organisation", and the list file format (docs/formats.md "Army list file")."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.scenario import load_army
from game.setup.army_list import (
    LIST_FORMAT,
    ArmyList,
    ArmyListError,
    ListEntry,
    allowed_copies,
    force_org_limits,
    load_list,
    save_list,
    validate,
)

ARMY = """\
format: regiments-army/1
name: Test Host
upgrade_costs: {sergeant: 10, banner: 15}
profiles:
  Spearmen: {quality: 4, defense: 5, base: [20, 20], size: 10, cost: 100}
  Skirmishers: {quality: 4, defense: 5, base: [20, 20], size: 5, cost: 50}
  Knights: {quality: 3, defense: 3, base: [25, 50], size: 5, cost: 200, rules: ["Tough(3)"]}
  Captain: {quality: 3, defense: 3, base: [25, 25], size: 1, cost: 80, rules: [Hero, "Tough(3)"]}
  Giant Lord: {quality: 3, defense: 2, base: [50, 50], size: 1, cost: 300, rules: [Hero, "Tough(8)"]}
  Cannon: {quality: 4, defense: 4, base: [50, 50], size: 1, cost: 120}
"""

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def army(tmp_path: Path):
    path = tmp_path / "armies" / "test_host.yaml"
    path.parent.mkdir()
    path.write_text(ARMY, encoding="utf-8")
    return load_army(path)


def test_points_used_counts_copies_upgrades_and_joined_heroes(army):
    """Rulebook: Preparing Your Army: sum the point cost of units and upgrades (upgrade costs from the army file)."""
    lst = ArmyList(army, 750)
    spears = lst.add("Spearmen", copies=2, upgrades=["sergeant", "musician", "banner"], hero="Captain")
    lst.add("Cannon")
    assert lst.unit_cost(spears) == 2 * 100 + 10 + 0 + 15
    assert lst.entry_cost(spears) == 225 + 80
    assert lst.points_used == 305 + 120
    assert lst.points_left == 750 - 425
    assert lst.models(spears) == 20
    assert spears.id == "spearmen-1" and spears.hero_id == "captain-1"
    assert lst.unit_ids() == ["spearmen-1", "captain-1", "cannon-1"]
    assert lst.heroes() == [("captain-1", "Captain")]


def test_upgrades_are_free_without_costs_in_the_army_file():
    """docs/formats.md "Army file": without upgrade_costs command group upgrades cost nothing."""
    cantons = load_army(ROOT / "scenarios" / "armies" / "free_cantons_of_aldmark.yaml")
    lst = ArmyList(cantons, 750)
    lst.add("Canton Pikemen", copies=2, upgrades=["sergeant", "musician", "banner"])
    assert lst.points_used == 180


def test_a_good_list_has_no_problems(army):
    lst = ArmyList(army, 750)
    spears = lst.add("Spearmen", copies=2, upgrades=["banner"])
    lst.join_hero(spears.id, "Captain")
    lst.add("Knights", copies=2)
    lst.general = spears.hero_id
    assert lst.points_used == 215 + 80 + 400
    assert validate(lst) == []
    assert validate(lst, force_org=True) == ["knights-1 (Knights): worth 400 points, over 35% of 750 (262.5) "
                                             "(Force Organisation)"]


def test_every_problem_in_words(army):
    """Rulebook: Preparing Your Army, Combined Units, Command Groups, Hero, Victory Conditions."""
    lst = ArmyList(army, 750)
    lst.entries = [
        ListEntry("spearmen-1", "Spearmen", copies=3),                          # 30 models
        ListEntry("skirm-1", "Skirmishers", copies=5),                          # 5 copies
        ListEntry("knights-1", "Knights", copies=3),                            # Tough: 2 copies
        ListEntry("cannon-1", "Cannon", copies=2),                              # single model
        ListEntry("spearmen-2", "Spearmen", copies=0),
        ListEntry("spearmen-3", "Spearmen", upgrades=["banner", "banner", "drummer"]),
        ListEntry("spearmen-4", "Spearmen", hero="Giant Lord", hero_id="giant-1"),
        ListEntry("spearmen-5", "Spearmen", hero="Cannon", hero_id="cannon-9"),
        ListEntry("captain-1", "Captain", hero="Captain", hero_id="captain-2"),
        ListEntry("cannon-2", "Cannon", hero="Captain", hero_id="captain-3"),
        ListEntry("ghost-1", "Ghosts"),
        ListEntry("spearmen-1", "Spearmen"),
    ]
    lst.general = "cannon-1"
    assert validate(lst) == [
        "2600 points used, 1850 over the limit of 750 (Preparing Your Army)",
        "unit id 'spearmen-1' is used twice",
        "spearmen-1 (Spearmen): 30 models; a combined unit has at most 20 (Combined Units)",
        "skirm-1 (Skirmishers): 5 copies combined; at most 4 (Combined Units)",
        "knights-1 (Knights): 3 copies combined; units with Tough(3) may combine only 2 (Combined Units)",
        "cannon-1 (Cannon): Cannon is a single model; only multi-model units may be combined (Combined Units)",
        "spearmen-2 (Spearmen): copies must be at least 1, got 0",
        "spearmen-3 (Spearmen): unknown upgrade 'drummer' (upgrades: sergeant, musician, banner)",
        "spearmen-3 (Spearmen): banner taken 2 times; a unit may have one of each upgrade (Command Groups)",
        "spearmen-4 (Spearmen): Giant Lord has Tough(8); only heroes with up to Tough(6) may join a unit (Hero)",
        "spearmen-5 (Spearmen): Cannon is not a Hero; only heroes may join a unit (Hero)",
        "captain-1 (Captain): Captain may only join a multi-model unit without another Hero (Hero)",
        "cannon-2 (Cannon): Captain may only join a multi-model unit without another Hero (Hero)",
        "ghost-1: the army 'Test Host' has no profile 'Ghosts'",
        "the General cannon-1 (Cannon) is not a Hero (Victory Conditions)",
    ]


@pytest.mark.parametrize("general, problem", [
    (None, "no General chosen; one of the heroes (captain-1) must be the General (Victory Conditions)"),
    ("nobody", "the General 'nobody' is not a unit of the list"),
    ("spearmen-1", "the General spearmen-1 (Spearmen) is not a Hero (Victory Conditions)"),
    ("captain-1", None),
])
def test_the_general_is_one_of_the_heroes(army, general, problem):
    """Rulebook: Victory Conditions: both players must define one of their heroes as their army's General."""
    lst = ArmyList(army, 750, general=general)
    lst.add("Spearmen")
    lst.add("Captain")
    assert validate(lst) == ([problem] if problem else [])


def test_a_list_without_heroes_needs_no_general_but_needs_units(army):
    lst = ArmyList(army, 750)
    assert validate(lst) == ["the list has no units"]
    lst.add("Spearmen")
    assert validate(lst) == []
    assert validate(ArmyList(army, 0, [ListEntry("s", "Spearmen")])) == [
        "the points limit must be a positive whole number, got 0"]


def test_combined_unit_options(army):
    """Rulebook: Combined Units: up to four copies of a multi-model unit, 20 models at most, 2 with Tough(X)."""
    assert allowed_copies(army.profiles["Spearmen"]) == [1, 2]
    assert allowed_copies(army.profiles["Skirmishers"]) == [1, 2, 3, 4]
    assert allowed_copies(army.profiles["Knights"]) == [1, 2]
    assert allowed_copies(army.profiles["Captain"]) == [1]


def test_join_and_detach_a_hero_keep_its_id_and_general_status(army):
    """Rulebook: Hero: a hero with up to Tough(6) joins one multi-model unit without another hero."""
    lst = ArmyList(army, 750)
    spears = lst.add("Spearmen")
    captain = lst.add("Captain")
    lst.add("Cannon")
    lst.general = captain.id
    assert lst.joinable_units("Captain") == ["spearmen-1"]
    assert lst.joinable_units("Giant Lord") == []
    lst.join_hero(spears.id, "Captain")
    assert [e.id for e in lst.entries] == ["spearmen-1", "cannon-1"]
    assert spears.hero_id == "captain-1" and lst.general == "captain-1"
    assert validate(lst) == []
    hero = lst.detach_hero(spears.id)
    assert hero is not None and hero.id == "captain-1"
    assert [e.id for e in lst.entries] == ["spearmen-1", "captain-1", "cannon-1"]
    lst.remove("captain-1")
    assert lst.general is None


# --- Force Organisation ------------------------------------------------------------------------------------------


def test_force_org_limits_follow_the_rulebook_example():
    """Rulebook: Force Organisation: at 1500pts max. 4 heroes, 3 copies of each unit, 525pts per unit, 10 units."""
    assert force_org_limits(1500) == {"heroes": 4, "copies": 3, "units": 10}
    assert force_org_limits(750) == {"heroes": 2, "copies": 2, "units": 5}


def test_force_org_problems(army):
    """Rulebook: Force Organisation: 1 hero per 375pts, 1+X copies (X = 1 per 750pts), no unit over 35%,
    1 unit per 150pts (joined heroes count as units and as copies of their profile)."""
    lst = ArmyList(army, 750)
    for _ in range(3):
        lst.add("Skirmishers")
    lst.add("Spearmen", copies=2, upgrades=["sergeant", "banner"], hero="Captain")  # 225 + 80
    lst.add("Captain")
    lst.add("Captain")
    lst.general = "captain-2"
    assert lst.points_used == 150 + 305 + 160
    assert validate(lst) == []
    assert validate(lst, force_org=True) == [
        "3 heroes; at most 2 at 750 points, 1 per 375 (Force Organisation)",
        "3 units of Skirmishers; at most 2 at 750 points, 1 + 1 per 750 (Force Organisation)",
        "3 units of Captain; at most 2 at 750 points, 1 + 1 per 750 (Force Organisation)",
        "7 units; at most 5 at 750 points, 1 per 150 (Force Organisation)",
    ]
    # 35%: the unit with its upgrades (225) is under 262.5; the joined hero (80) counts as a unit of its own
    big = ArmyList(army, 750, general="captain-1")
    big.add("Spearmen", copies=2, upgrades=["sergeant", "musician", "banner"], hero="Captain")
    assert validate(big, force_org=True) == []
    big.add("Knights", copies=2)
    assert validate(big, force_org=True) == [
        "knights-1 (Knights): worth 400 points, over 35% of 750 (262.5) (Force Organisation)"]


# --- files ---------------------------------------------------------------------------------------------------------


def test_save_and_load_round_trip(army, tmp_path: Path):
    """docs/formats.md "Army list file": a saved list loads back the same, army file relative to the list."""
    lst = ArmyList(army, 1500, name="Spear Wall")
    spears = lst.add("Spearmen", copies=2, upgrades=["banner", "sergeant"])
    lst.join_hero(spears.id, "Captain")
    lst.add("Knights", copies=2)
    lst.general = spears.hero_id
    path = tmp_path / "lists" / "spear_wall.yaml"
    save_list(path, lst)
    text = path.read_text(encoding="utf-8")
    assert f"format: {LIST_FORMAT}" in text and "army: ../armies/test_host.yaml" in text
    assert "upgrades: [sergeant, banner]" in text
    back = load_list(path)
    assert (back.name, back.points, back.general) == ("Spear Wall", 1500, "captain-1")
    assert back.entries[0].upgrades == ["sergeant", "banner"]  # saved in the rulebook's order
    spears.upgrades = ["sergeant", "banner"]
    assert back.entries == lst.entries
    assert back.army.name == "Test Host" and back.points_used == lst.points_used
    assert not list(path.parent.glob(".*.tmp"))


def test_loading_a_bad_list_names_every_problem(army, tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("format: regiments-list/1\narmy: armies/nowhere.yaml\npoints: -5\ncolour: red\n"
                    "units:\n  - {id: a, copies: two}\n  - {id: b, profile: Spearmen, upgrades: banner}\n",
                    encoding="utf-8")
    with pytest.raises(ArmyListError) as e:
        load_list(path)
    name = str(path)
    assert e.value.problems == [
        f"{name}:4: colour: unknown key (keys: format, name, army, points, general, units)",
        f"{name}:3: points: must be a positive whole number, got -5",
        f"{name}:2: army: no army file {tmp_path / 'armies' / 'nowhere.yaml'}",
        f"{name}:6: units[0].profile: missing (required)",
        f"{name}:6: units[0].copies: must be a whole number, got 'two'",
        f"{name}:7: units[1].upgrades: must be a list of upgrade names",
    ]
