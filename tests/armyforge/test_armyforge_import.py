"""Army Forge imports (game/armyforge/, docs/formats.md "Army Forge import"): both exports read from fixture files
written for these tests, mapped onto AoWFBR 1.4, written as an army file and an army list that load and pass
``check``; malformed and foreign files refused per unit with their lines; the ``import-army`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import main
from game.armyforge.convert import base_for, convert
from game.armyforge.export import ExportRefused, ExportRule, ExportUnit
from game.armyforge.importer import plan_import, read_export, write_import
from game.armyforge.rulesets import known_rules
from game.engine.profiles import KNOWN_RULES
from game.engine.rulesets import RULESETS
from game.file_check import check_scenario_file
from game.scenario import load_army
from game.setup.army_list import load_list, validate

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "armyforge"


def test_text_export_is_read_unit_by_unit() -> None:
    ex = read_export(FIX / "ironhelm_warband.txt")
    assert (ex.kind, ex.name, ex.system, ex.points_limit, ex.list_points) == (
        "text", "Ironhelm Warband", "AoF:R", 655, 655)
    thane, spears, crossbows, riders, thrower = ex.units
    assert (thane.size, thane.quality, thane.defense, thane.cost, thane.join_to) == (1, 3, 4, 80, "Ironhelm Spearmen")
    assert [r.label for r in thane.rules] == ["Hero", "Tough(3)", "Fearless"]
    assert crossbows.count == 2                                       # "2x Crossbowmen": two units
    bow = crossbows.weapons[0]
    assert (bow.name, bow.count, bow.range, bow.attacks, [r.label for r in bow.rules]) == (
        "Crossbow", 10, 24.0, 1, ["AP(1)"])
    # "1x Warhorse(Fast, Impact(1))": the upgrade's rules are the unit's
    assert [r.label for r in riders.rules] == ["Tough(3)", "Fast", "Impact(1)"]
    assert [w.name for w in riders.weapons] == ["Lance", "Hand Weapon"]
    assert spears.upgrades == [] and [r.name for r in spears.rules] == ["Musician", "Shield Wall"]
    assert thrower.line == 15


def test_text_export_maps_onto_aowfbr() -> None:
    plan = plan_import(FIX / "ironhelm_warband.txt")
    # the unknown rule is listed with its unit and line, and left out of the profile
    assert plan.unknown_messages() == [
        f"{FIX / 'ironhelm_warband.txt'}:6: unit 2 \"Ironhelm Spearmen\": rule Shield Wall: aowfbr-1.4 has no such "
        "special rule"]
    spears = plan.profiles["Ironhelm Spearmen"]
    assert "rules" not in spears and spears["weapons"] == [{"name": "Spear", "attacks": 1, "rules": ["Counter"]}]
    # the joined hero deploys with the unit; the Musician is a command group
    first = plan.entries[0]
    assert (first.profile, first.hero, first.upgrades) == ("Ironhelm Spearmen", "Thane", ["musician"])
    assert plan.general == first.hero_id
    assert [e.profile for e in plan.entries[1:]] == ["Crossbowmen", "Crossbowmen", "Outriders", "Stone Thrower"]
    # bases by kind: hero on foot, foot, mounted, artillery
    assert [plan.profiles[n]["base"] for n in ("Thane", "Crossbowmen", "Outriders", "Stone Thrower")] == [
        [20.0, 20.0], [20.0, 20.0], [25.0, 50.0], [50.0, 50.0]]
    assert plan.profiles["Stone Thrower"]["weapons"][0] == {"name": "Stone Thrower", "attacks": 3, "range": 36.0,
                                                           "rules": ["Blast(3)", "Indirect"]}
    assert plan.points == 655 and plan.points_used() == 655 and plan.notes == []


def test_json_export_combined_copies_joined_hero_and_bases() -> None:
    plan = plan_import(FIX / "ashen_host.json")
    guard = plan.entries[0]
    # the combined Grave Guard is a second copy; the Wight Lord (joinToUnit) deploys with them; the Banner item
    assert (guard.profile, guard.copies, guard.hero, guard.upgrades) == ("Grave Guard", 2, "Wight Lord", ["banner"])
    assert len(plan.entries) == 4
    # the export's square bases: "25x50" is 25 wide, 50 deep; "20" is 20 x 20
    assert plan.profiles["Bone Riders"]["base"] == [25.0, 50.0]
    assert plan.profiles["Grave Guard"]["base"] == [20.0, 20.0]
    assert plan.profiles["Bone Giant"]["rules"] == ["Tough(6)", "Fear(2)", "Fearless"]
    # Bane is not an AoWFBR rule: listed for both copies, with the line of each unit
    assert [(u.unit, u.line, u.what) for u in plan.unknown] == [(2, 91, "weapon rule Bane of Grave Blade"),
                                                               (3, 166, "weapon rule Bane of Grave Blade")]
    # points: the export's listPoints match (2 x 115 for the combined unit)
    assert plan.points_used() == 735 and plan.notes == []


def test_written_files_load_and_pass_check(tmp_path: Path) -> None:
    for name in ("ironhelm_warband.txt", "ashen_host.json", "ironhelm_clean.txt"):
        plan = plan_import(FIX / name)
        written = write_import(plan, tmp_path / f"{name}.yaml", tmp_path / f"{name}.army.yaml",
                               bases={next(iter(plan.profiles)): (32.0, 32.0)})
        assert check_scenario_file(written.list_path) == [] and check_scenario_file(written.army_path) == []
        lst = load_list(written.list_path)
        assert validate(lst) == [] and lst.points_used == plan.points_used()
        assert load_army(written.army_path).profiles[next(iter(plan.profiles))].base_width_mm == 32.0


def test_points_and_force_organisation_are_reported(tmp_path: Path) -> None:
    data = json.loads((FIX / "ashen_host.json").read_text())
    data["listPoints"] = 700
    bad = tmp_path / "points.json"
    bad.write_text(json.dumps(data))
    plan = plan_import(bad)
    assert any("700 points" in n and "735" in n for n in plan.notes)
    written = write_import(plan_import(FIX / "ironhelm_warband.txt"), tmp_path / "l.yaml", tmp_path / "a.yaml")
    assert written.problems == []
    assert written.force_org == ["2 units of Crossbowmen; at most 1 at 655 points, 1 + 1 per 750 (Force Organisation)",
                                 "6 units; at most 4 at 655 points, 1 per 150 (Force Organisation)"]


@pytest.mark.parametrize(("name", "expected"), [
    ("malformed.txt", [':6: unit 2 "Knights": the points must follow the stats',
                       ':6: unit 2 "Knights": a \'(\' without its \')\'',
                       ':7: unit 2 "Knights": weapon \'Lance\' has no attacks',
                       ':10: unit 3 "Archers": weapon \'Longbow 30"\' has no profile in parentheses']),
    ("malformed.json", [':9: unit 2 "Knights": quality: missing (required)',
                        ':11: unit 3 "Ghouls": size: must be a whole number']),
    ("share_as_file.json", [":1: (file): this is Army Forge's 'Share as File' save"]),
])
def test_malformed_files_are_refused_per_unit(name: str, expected: list[str]) -> None:
    with pytest.raises(ExportRefused) as err:
        plan_import(FIX / name)
    problems = err.value.problems
    assert len(problems) == len(expected)
    for got, want in zip(problems, expected, strict=True):
        assert got.startswith(str(FIX / name) + want), got
    if name == "share_as_file.json":
        assert "Share as Text" in problems[0] and "Tabletop Simulator" in problems[0]


def test_rules_the_ruleset_does_not_take() -> None:
    known = known_rules()
    assert known.canonical("tough") == "Tough" and known.canonical("Shield Wall") is None
    unit = ExportUnit(1, "Odd", 5, 4, 4, 50, rules=[ExportRule("Tough"), ExportRule("Fearless", 2),
                                                    ExportRule("AP", 1), ExportRule("Caster", 2),
                                                    ExportRule("Tough(+3)")])
    from game.armyforge.export import Export
    plan = convert(Export("f.txt", "text", "Odd", None, 500, None, [unit]))
    reasons = {u.what: u.reason for u in plan.unknown}
    assert reasons["rule Tough"] == "Tough needs a value, as in Tough(1)"
    assert reasons["rule Fearless(2)"] == "Fearless takes no value in aowfbr-1.4"
    assert "weapon rule" in reasons["rule AP(1)"]
    assert "no spells" in reasons["rule Caster(2)"]
    assert reasons["rule Tough(+3)"] == "aowfbr-1.4 has no such special rule"
    assert "rules" not in plan.profiles["Odd"]
    with pytest.raises(ValueError, match="'aofr-9' is not a known ruleset"):
        known_rules("aofr-9")


def test_base_sizes_by_kind() -> None:
    def unit(*rules: ExportRule) -> ExportUnit:
        return ExportUnit(1, "U", 1, 4, 4, 10, rules=list(rules))
    assert base_for(unit()) == ((20.0, 20.0), "foot")
    assert base_for(unit(ExportRule("Tough", 3)))[0] == (25.0, 25.0)
    assert base_for(unit(ExportRule("Hero"), ExportRule("Tough", 3)))[0] == (20.0, 20.0)
    assert base_for(unit(ExportRule("Hero"), ExportRule("Fast")))[0] == (25.0, 50.0)      # a hero as its mount
    assert base_for(unit(ExportRule("Tough", 6)))[0] == (50.0, 50.0)
    assert base_for(unit(ExportRule("Immobile"), ExportRule("Tough", 3)))[0] == (50.0, 50.0)


def test_import_army_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = tmp_path / "lists" / "iron.yaml"
    # unknown rules: listed per unit, nothing written, exit 2
    assert main.main(["import-army", str(FIX / "ironhelm_warband.txt"), "-o", str(out)]) == main.EXIT_PROBLEMS
    text = capsys.readouterr().out
    assert 'unit 2 "Ironhelm Spearmen": rule Shield Wall' in text and "--drop-unknown" in text
    assert not out.exists()
    # --drop-unknown: dropped, said per unit, both files written and passing check
    assert main.main(["import-army", str(FIX / "ironhelm_warband.txt"), "-o", str(out), "--drop-unknown"]) == 0
    text = capsys.readouterr().out
    assert "rule Shield Wall: aowfbr-1.4 has no such special rule (dropped)" in text
    assert "Force Organisation" in text
    assert main.main(["check", str(out), str(out.with_name("iron.army.yaml"))]) == 0
    # no -o: "My lists" and the imported armies folder of the user data folder
    assert main.main(["import-army", str(FIX / "ironhelm_clean.txt")]) == 0
    assert (tmp_path / "data" / "battle-regiments" / "lists" / "ironhelm-vanguard.yaml").is_file()
    assert (tmp_path / "data" / "battle-regiments" / "armies" / "ironhelm-vanguard.yaml").is_file()
    capsys.readouterr()
    # malformed and foreign files: exit 2 with the problems
    assert main.main(["import-army", str(FIX / "malformed.json")]) == main.EXIT_PROBLEMS
    assert 'unit 3 "Ghouls"' in capsys.readouterr().out
    assert main.main(["import-army", str(tmp_path / "missing.txt")]) == main.EXIT_PROBLEMS
    assert "no such file" in capsys.readouterr().out
    assert main.main(["import-army", str(FIX / "ashen_host.json"), "--ruleset", "aofr-9"]) == main.EXIT_PROBLEMS


def test_a_hero_joining_the_combined_copy_joins_the_combined_unit(tmp_path: Path) -> None:
    data = json.loads((FIX / "ashen_host.json").read_text())
    data["units"][0]["joinToUnit"] = "r5Tz9"        # the selectionId of the second Grave Guard copy
    data["units"][5]["joinToUnit"] = "nowhere"      # the Bone Giant (not a Hero) joining a unit that is not there
    path = tmp_path / "joins.json"
    path.write_text(json.dumps(data))
    plan = plan_import(path)
    assert (plan.entries[0].copies, plan.entries[0].hero) == (2, "Wight Lord")
    assert any('unit 6 "Bone Giant": joins another unit but is not a Hero' in n for n in plan.notes)
    data["units"][0]["joinToUnit"] = "nowhere"
    path.write_text(json.dumps(data))
    with pytest.raises(ExportRefused, match="joins unit 'nowhere', which is not in the list"):
        plan_import(path)


# --- every playable ruleset (issue 15: the import is generic over game.engine.rulesets.RULESETS) -----------------


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_what_a_ruleset_knows_is_what_its_scenarios_accept(ruleset: str) -> None:
    """The importer's rules and command groups are the scenario loader's per-ruleset ones (``ruleset_content``),
    not a copy."""
    from game.scenario import ruleset_content
    content = ruleset_content(ruleset)
    known = known_rules(ruleset)
    assert set(known.names.values()) == set(content.special_rules) & KNOWN_RULES
    assert set(known.upgrades.values()) == set(content.upgrades)
    assert known.ruleset == ruleset and ruleset in known.title


def test_a_newly_registered_ruleset_is_importable_with_no_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset registered in ``RULESETS`` (as ``aofr-quick`` will be) maps what its class says it plays."""
    from game.engine import rulesets
    from game.engine.rulesets.aofr import AoFR216

    class Toy(AoFR216):
        id = "toy-1"
        title = "Toy"
        special_rules = frozenset({"Tough", "AP"})
        upgrades = frozenset({"sergeant", "banner"})

    monkeypatch.setitem(rulesets.RULESETS, "toy-1", Toy)
    known_rules.cache_clear()
    try:
        plan = plan_import(FIX / "ironhelm_clean.txt", "toy-1")
        reasons = {(u.unit, u.what): u.reason for u in plan.unknown}
        assert reasons[(1, "rule Fearless")] == "toy-1 does not play Fearless here"
        assert reasons[(2, "rule Musician")] == "toy-1 has no musician command group here; it plays: banner, sergeant"
        assert (2, "rule Banner") not in reasons
        assert plan.profiles["Thane"]["rules"] == ["Tough(3)"]
        assert plan.entries[1].upgrades == ["banner"]
    finally:
        known_rules.cache_clear()


def test_import_onto_aofr_2_16_then_play_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ruleset aofr-2.16``: what AoF:R 2.16 does not play here (AoWFBR's Counter and Lance; a Musician: its one
    "Musician / Battle Standard" upgrade is written ``banner``) is listed per unit; dropped, the list loads in an
    AoF:R 2.16 scenario that plays to the end (the Thane joins as a Hero, AoF:R 2.16 "Hero")."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = tmp_path / "lists" / "iron.yaml"
    assert main.main(["import-army", str(FIX / "ironhelm_clean.txt"), "-o", str(out), "--ruleset",
                      "aofr-2.16"]) == main.EXIT_PROBLEMS
    text = capsys.readouterr().out
    assert "Thane" not in text
    assert 'unit 2 "Ironhelm Spearmen": rule Musician: aofr-2.16 has no musician command group here' in text
    assert 'unit 2 "Ironhelm Spearmen": weapon rule Counter of Spear: aofr-2.16 does not play Counter here' in text
    assert "3 things aofr-2.16 cannot play" in text and not out.exists()
    assert main.main(["import-army", str(FIX / "ironhelm_clean.txt"), "-o", str(out), "--ruleset", "aofr-2.16",
                      "--drop-unknown"]) == 0
    capsys.readouterr()
    lst = load_list(out)
    assert "for aofr-2.16" in (lst.army.description or "")
    from game.setup.scenario_writer import write_scenario
    other = load_list(out)
    scenario = write_scenario(tmp_path / "s.yaml", "Imported", (72.0, 48.0), [], [lst, other], mission="standard",
                              ruleset="aofr-2.16")
    assert scenario.ruleset == "aofr-2.16"
    assert main.main(["autoplay", str(tmp_path / "s.yaml"), "--games", "1", "--check", "--seed", "3"]) == 0


def test_a_ruleset_not_playable_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.engine import rulesets
    monkeypatch.setitem(rulesets.PLANNED, "aof-horde", "Age of Fantasy: Horde")
    with pytest.raises(ValueError, match="'aof-horde' .* not playable yet"):
        known_rules("aof-horde")


# --- the shapes public readers of Army Forge's exports parse (issue 15: checked against real examples) ----------
# 'Share as Text' (cinder_host_real_shape.txt): the header ``++ NAME - FACTION (VERSION) [SYSTEM POINTSpts]
# [N Units] ++`` and a hero's ``| Joined to:`` on a line of its own, followed by the unit it joins, are the shape
# read by public parsers of the export found by a code search of public repositories (2026-11): a Rust list reader
# whose test reads "Champion [1] Q4+ D4+
# | 95pts | Hero, ... / Hand Weapon (A3) / | Joined to: / Drained Archers [10] ..."), a GDScript reader ("Parse
# header: ++ Army Name - Faction (version) [GF 3000pts] [8 Units] ++", skipping "| Joined to:" lines) and a Python
# one (``lines[i].strip() == '| Joined to:'`` then the host unit's header).
# JSON (cinder_host_tts_2023.json): the shape of https://army-forge.onepagerules.com/api/tts?id=... as stored in a
# public Rust project's test data ("// from https://army-forge.onepagerules.com/api/tts?id=...", lists modified in
# 2023-11) and read by thomascgray/opr-af-to-tts (src/utils.tsx, src/army-forge-types.ts): per-unit rules in
# ``specialRules`` with ratings as text ("3", "" or none), ``points`` for the list's points, ``equipment`` and
# ``loadout`` both present, ``attacks`` sometimes text, items (``ArmyBookItem``) with their rules in ``content``,
# ``upgrades`` holding upgrade package ids (not names), ``cost`` before upgrades with ``selectedUpgrades[].option``
# carrying ``cost`` / ``costs`` per unit id and the ``gains``, an option gaining only a rule being absent from the
# loadout (opr-af-to-tts: "some of the upgrades that a unit can take DON'T appear in the loadout").


def test_real_text_shape_version_unit_count_and_joined_to_line() -> None:
    ex = read_export(FIX / "cinder_host_real_shape.txt")
    assert (ex.name, ex.system, ex.points_limit) == ("Cinder Host - Ashen Dead", "AoF:R", 590)
    captain, guard = ex.units[0], ex.units[1]
    assert captain.join_to is not None and captain.join_to in guard.keys
    plan = convert(ex)
    assert [(e.profile, e.copies, e.hero, e.upgrades) for e in plan.entries] == [
        ("Grave Guard", 1, "Wight Captain", ["sergeant"]), ("Skeleton Archers", 1, None, []),
        ("Skeleton Archers", 1, None, []), ("Bone Riders", 1, None, [])]
    assert plan.points_used() == 590 and not plan.notes and not plan.unknown
    assert plan.profiles["Bone Riders"]["rules"] == ["Fearless", "Tough(3)", "Fast", "Impact(1)"]


def test_real_text_shape_joined_to_with_nothing_after_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_text("++ Cut (v1.0) [AoF:R 90pts] [1 Units] ++\n\nCaptain [1] Q3+ D4+ | 90pts | Hero\n"
                    "Blade (A3)\n| Joined to:\n")
    with pytest.raises(ExportRefused) as e:
        read_export(path)
    assert e.value.problems == [f'{path}:3: unit 1 "Captain": \'| Joined to:\' with no unit after it']


def test_real_tts_json_shape_upgrade_costs_and_rules() -> None:
    plan = plan_import(FIX / "cinder_host_tts_2023.json")
    ex = plan.export
    assert (ex.system, ex.points_limit, ex.list_points) == ("aofr", 400, 375)
    # cost before upgrades + the option's cost for this unit id (5, not its cost of 10 for another unit)
    assert plan.profiles["Grave Guard"]["cost"] == 120
    assert plan.profiles["Bone Riders"]["cost"] == 175
    # the Sergeant is only in selectedUpgrades; the steeds' rules come once from the loadout item
    assert plan.entries[0].upgrades == ["sergeant"] and plan.entries[0].hero == "Wight Captain"
    assert plan.profiles["Bone Riders"]["rules"] == ["Fearless", "Tough(3)", "Fast", "Impact(1)"]
    assert plan.profiles["Wight Captain"]["weapons"] == [{"name": "Great Blade", "attacks": 3, "rules": ["AP(1)"]}]
    assert plan.points_used() == 375 and not plan.notes and not plan.unknown
