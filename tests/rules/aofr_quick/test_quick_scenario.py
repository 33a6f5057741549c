"""The AoF:R quick rules as a scenario's ruleset: special rules and upgrades it does not play, its "Regiments",
"Combined Units" and (``force_org: true``) "Force Org." are checked at load (FILE:LINE: PATH: message naming the
ruleset, exit 2); a whole game records under its ruleset and replays bit-identically, and never under another."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from game.autoplay import play_out
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.rulesets.aofr_quick_forces import army_problems
from game.engine.rulesets.base import ListedUnit
from game.record import RecordError, check_ruleset, load_record, replay
from game.saves import save_game
from game.scenario import load_scenario, new_game_state
from tests.rules.builders import HAND_WEAPON, profile

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "scenarios" / "aofr_quick_ford.yaml"


def _variant(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    text = SHIPPED.read_text().replace("armies/", str(ROOT / "scenarios" / "armies") + "/")
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "s.yaml"
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if new.splitlines()[-1].strip() in t)
    return path, line


QUICK = "Age of Fantasy: Regiments (quick rules) (aofr-quick)"


@pytest.mark.parametrize("old,new,where,words", [
    ("profile: Gyro Skimmer, models: 1}", "profile: Bolt Thrower, models: 1}", "armies[0].units[4].profile",
     "Bolt Thrower has Sniper (weapon Great Bolt)"),
    ("profile: Soot Archers, models: 20}", "profile: Ash Ghouls, models: 20}", "armies[1].units[4].profile",
     f"Ash Ghouls has Poison (weapon Filthy Claws), a special rule {QUICK} does not have here"),
    ("profile: Hold Warriors, models: 20, upgrades: [banner], joined_by: thane}",
     "profile: Hold Warriors, models: 20, per_row: 10, upgrades: [banner], joined_by: thane}",
     "armies[0].units[0].per_row",
     "Hold Warriors stands 5 models per row (the quick rules' \"Regiments\", aofr-quick), not 10"),
    ("profile: Hold Warriors, models: 20, upgrades: [banner], joined_by: thane}",
     "profile: Hold Warriors, models: 30, upgrades: [banner], joined_by: thane}", "armies[0].units[0].models",
     "combines 3 copies of Hold Warriors; the quick rules' \"Combined Units\" combine two"),
    ("{id: thane, profile: Thane of the Hold, models: 1}",
     "{id: thane, profile: Thane of the Hold, models: 1}\n      - {id: vets, profile: Longbeard Veterans, models: 5}",
     "armies[0].units[5]", "one unit too many: at most 5 units (the quick rules' \"Force Org.\" at 885 pts"),
    ("{id: warriors-1, profile: Hold Warriors, models: 20, upgrades: [banner], joined_by: thane}",
     "{id: warriors-1, profile: Hold Warriors, models: 10, upgrades: [banner], joined_by: thane}\n"
     "      - {id: colossus, profile: Stone Cannon, models: 1}",
     "armies[0].units[5]", "one unit too many: at most 5 units (the quick rules' \"Force Org.\" at 820 pts"),
])
def test_what_the_quick_rules_do_not_play_or_allow_is_refused_at_load(tmp_path, capsys, old, new, where, words):
    path, line = _variant(tmp_path, old, new)
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert words in out, out
    assert f"{path}:" in out and f": {where}: " in out, out
    if "\n" not in new:
        assert f"{path}:{line}: {where}: " in out, out


def test_force_org_is_refused_under_a_ruleset_that_does_not_check_it(tmp_path, capsys):
    """An option accepted but doing nothing is refused: ``force_org`` under AoF:R 2.16."""
    text = (ROOT / "scenarios" / "aofr_border_clash.yaml").read_text()
    text = text.replace("armies/", str(ROOT / "scenarios" / "armies") + "/").replace("rounds: 4\n",
                                                                                    "rounds: 4\nforce_org: true\n")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "force_org: Age of Fantasy: Regiments 2.16 (aofr-2.16) does not check a force organisation" in out


def _listed(name: str, cost: int, models: int = 10, size: int = 10, rules: tuple[str, ...] = (),
            joined_by: str | None = None, i: int = 0) -> ListedUnit:
    prof = profile(name, weapons=(HAND_WEAPON,), rules=rules, size=size, cost=cost)
    per_row = 1 if size == 1 else (3 if size in (3, 6) else 5)
    return ListedUnit(("armies", 0, "units", i), prof, models, per_row, joined_by, cost * max(1, models // size))


def test_force_org_limits_at_750_points():
    """"Force Org.": "up to 1 hero per 375pts ..., and only 1+X copies of the same unit, where X is 1 per 750pts
    ... No single unit may be worth over 35% of total points, and armies may only have max. 1 unit per 150pts"."""
    ok = [_listed("Warriors", 100, i=0), _listed("Warriors", 100, i=1), _listed("Lord", 80, 1, 1, ("Hero",), i=2),
          _listed("Captain", 80, 1, 1, ("Hero",), i=3), _listed("Knights", 260, 5, 5, i=4)]
    assert army_problems(ok, 750, True) == []
    too_many = ok + [_listed("Warriors", 100, i=5), _listed("Chief", 80, 1, 1, ("Hero",), i=6)]
    words = [m for _, m in army_problems(too_many, 750, True)]
    assert any("one unit too many: at most 5" in w for w in words)
    assert any("one hero too many: at most 2" in w for w in words)
    assert any("one Warriors too many: at most 2 copies" in w for w in words)
    big = [_listed("Giant", 300, 1, 1, i=0)]
    assert [m for _, m in army_problems(big, 750, True)] == [
        "Giant is worth 300 pts, over 35% of the army (262.5 pts) (the quick rules' \"Force Org.\" at 750 pts, "
        "aofr-quick)"]
    assert army_problems(too_many + big, 750, False) == []      # the optional rule not taken: only "Regiments"


def test_regiments_and_joined_heroes():
    """"Regiments": "5 models per row with 5/10 models, and 3 models per row with 3/6 models"; "Hero": heroes may
    join a unit, but a hero without Regeneration joining a unit with it is not played yet ("Regeneration": "a unit
    where all models have this rule", docs/rulings.md)."""
    odd = ListedUnit(("armies", 0, "units", 0), profile("Odd", size=4, cost=40), 4, 4, None, 40)
    assert "are of 3, 5, 6 or 10 models" in army_problems([odd], 750, False)[0][1]
    boss = profile("Boss", size=1, rules=("Hero", "Tough(3)"))
    trolls = ListedUnit(("armies", 0, "units", 0), profile("Trolls", size=3, cost=100, rules=("Regeneration",)), 6,
                        5, "boss", 200, boss)
    where = [w for w, _ in army_problems([trolls], 750, False)]
    assert where == [("armies", 0, "units", 0, "joined_by"), ("armies", 0, "units", 0, "per_row")]
    orcs = ListedUnit(("armies", 0, "units", 0), profile("Orcs", cost=100), 10, 5, "boss", 100, boss)
    assert army_problems([orcs], 750, False) == []


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_game_records_its_ruleset_and_replays_bit_identically(tmp_path, seed):
    game = Game.start(new_game_state(load_scenario(SHIPPED)), Dice(seed=seed))
    play_out(game, seed)
    assert game.state.game_over and game.state.round == 4
    path = tmp_path / "game.yaml"
    save_game(game, str(SHIPPED), path)
    record = load_record(path)
    assert record.ruleset == "aofr-quick" and "ruleset: aofr-quick" in path.read_text()
    result = replay(record)
    assert result.ok
    assert result.game.digests == game.digests and result.game.log == game.log
    assert main.main(["check", str(path)]) == 0
    with pytest.raises(RecordError, match="a record is never replayed under another ruleset"):
        check_ruleset(record, load_scenario(ROOT / "scenarios" / "aofr_border_clash.yaml"))


@pytest.mark.parametrize("ruleset,title", [("aowfbr-1.4", "Age of Warhammer Fantasy: Battle Regiments 1.4"),
                                           ("aofr-2.16", "Age of Fantasy: Regiments 2.16")])
def test_the_quick_rules_own_special_rules_are_refused_by_the_other_rulesets(tmp_path, capsys, ruleset, title):
    """Bane, Surge, Thrust and Unstoppable are the quick rules' own: a profile naming one under another ruleset is
    refused at load, naming that ruleset."""
    text = f"""format: regiments-scenario/1
name: Bane test
ruleset: {ruleset}
armies:
  - player: 1
    profiles:
      Banesmen: {{quality: 4, defense: 4, base: [20, 20], size: 10, cost: 100,
                  weapons: [{{name: Blade, attacks: 1, rules: [Bane]}}]}}
    units:
      - {{id: a, profile: Banesmen, models: 10, pose: {{x: 36, y: 10, facing: 0}}}}
"""
    path = tmp_path / "s.yaml"
    path.write_text(text)
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{path}:10: armies[0].units[0].profile: Banesmen has Bane (weapon Blade), a special rule {title} " \
           f"({ruleset}) does not have here" in out, out


def test_the_statistics_of_a_quick_rules_game_count_markers_and_melee_dice():
    """``main.py stats``: the score is the quick rules' objective markers ("Mission"), and the strikes of its melee
    count in each player's luck to hit like shots."""
    from game.stats import game_stats
    from game.stats.report import summary_text
    start = Game.start(new_game_state(load_scenario(SHIPPED)), Dice(seed=3))
    game = start.clone()
    play_out(game, 3)
    stats = game_stats(start, game.history)
    text = summary_text(stats)
    assert "objective markers held" in text and "victory points" not in text
    melee_dice = sum(len(e.data["dice"]) for e in game.log if e.kind == "roll" and " strikes " in e.data["purpose"]
                     and ": to hit" in e.data["purpose"])
    shot_dice = sum(len(e.data["dice"]) for e in game.log if e.kind == "roll" and " shoot " in e.data["purpose"]
                    and ": to hit" in e.data["purpose"])
    assert melee_dice and stats.players[1].hits.dice + stats.players[2].hits.dice == melee_dice + shot_dice
