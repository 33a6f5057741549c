"""AoF: Skirmish "Command Groups" (../shared/rules/aof-skirmish-quick-rules.md): the Sergeant on fixed dice, the
command model that carries it, and the loader's "one model with one of the following upgrades" per army
(docs/rulings.md "AoF Skirmish": command models)."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from game.engine.actions import Activate
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.skirmish import attacks, moves
from game.engine.skirmish.loose import command_index, has_command, new_models, points_of, state_dict, warband_of
from game.engine.state import make_unit
from game.scenario import load_scenario, new_game_state
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, move, skirmish_game, unit

ROOT = Path(__file__).resolve().parents[3]
PLACED = (Path(__file__).parent / "test_skirmish_files.py").read_text().split('PLACED = """')[1].split('"""')[0]


def _hits(events):
    return [e.data["hits"] for e in events if e.kind == "hits"]


def _with_sergeant(g: Game, uid: str) -> None:
    """Give ``uid`` the Sergeant, carried by its first model (as ``new_models`` places it)."""
    u = g.state.units[uid]
    u.upgrades = frozenset({"sergeant"})
    warband_of(g.state).models[uid][0].command = "sergeant"


def test_sergeant_six_to_hit_when_shooting_deals_one_extra_hit():
    """Sergeant: "When this model attacks, unmodified results of 6 to hit deal 1 extra hit": the other archers'
    dice first (1, 1), then the Sergeant's own (6): 1 hit + 1 extra."""
    a, w = unit("a", 1, ARCHER, 3), unit("w", 2, WARRIOR, 3)
    g = skirmish_game([(a, line(10, 10, 3)), (w, line(10, 20, 3))])
    _with_sergeant(g, "a")
    dice = Dice(sequence=[1, 1, 6, 6, 6])
    events = attacks.shoot(g.state, dice, a, w, [ARCHER.weapon("Bow")])
    assert _hits(events) == [2] and dice.consumed == 5
    assert any("to hit (Sergeant)" in e.text for e in events if e.kind == "roll")
    assert any("Sergeant, 1 extra hit" in e.text for e in events)


def test_sergeant_six_only_counts_for_its_own_dice():
    """Only the Sergeant model's 6s deal the extra hit: a 6 of another archer is one hit."""
    a, w = unit("a", 1, ARCHER, 3), unit("w", 2, WARRIOR, 3)
    g = skirmish_game([(a, line(10, 10, 3)), (w, line(10, 20, 3))])
    _with_sergeant(g, "a")
    dice = Dice(sequence=[6, 1, 4, 6, 6])
    events = attacks.shoot(g.state, dice, a, w, [ARCHER.weapon("Bow")])
    assert _hits(events) == [2] and dice.consumed == 5


def test_sergeant_extra_hit_in_melee_even_when_fatigued():
    """Sergeant in melee ("shooting and melee": "When this model attacks"); a fatigued model hits only on unmodified
    6s, and the Sergeant's 6 still deals its extra hit."""
    w, e = unit("w", 1, WARRIOR, 2), unit("e", 2, WARRIOR, 2)
    g = skirmish_game([(w, line(10, 10, 2)), (e, line(10, 11.5, 2))])
    _with_sergeant(g, "w")
    dice = Dice(sequence=[5, 6, 6, 6, 6])
    events = attacks.strike(g.state, dice, w, e, charging=False, fatigued=True)
    assert _hits(events) == [2]          # the other's 5 misses (fatigued), the Sergeant's 6: 1 hit + 1 extra


def test_sergeant_not_striking_or_killed_gives_no_extra_hit():
    """"When this model attacks": a Sergeant out of reach adds nothing; once its model is killed the upgrade is
    gone ("Groups & Wounds": each wound kills one model)."""
    w, e = unit("w", 1, WARRIOR, 2), unit("e", 2, WARRIOR, 2)
    g = skirmish_game([(w, [(20, 10), (10, 10)]), (e, line(10, 11.5, 2))])
    _with_sergeant(g, "w")
    dice = Dice(sequence=[6, 6])
    events = attacks.strike(g.state, dice, w, e, charging=False, fatigued=False)
    assert _hits(events) == [1] and dice.consumed == 2            # only the model at (10, 10) strikes
    assert not any("Sergeant" in ev.text for ev in events)
    attacks.take_wounds(g.state, Dice(sequence=[]), w, 1, (20, 12))  # the nearest model: the Sergeant
    assert command_index(g.state, w, "sergeant") is None and w.models == 1


def test_the_first_model_carries_the_upgrade_and_the_state_file_shows_it():
    u = make_unit("s", 1, WARRIOR, 3, None, upgrades=frozenset({"sergeant"}))
    ms = new_models(u, line(10, 10, 3))
    assert [m.command for m in ms] == ["sergeant", None, None]
    g = skirmish_game([(u, line(10, 10, 3))])
    warband_of(g.state).models["s"] = ms
    assert state_dict(g.state, u)["models_at"][0]["command"] == "sergeant"
    assert "command" not in state_dict(g.state, u)["models_at"][1]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("INCLUDE", str(ROOT / "scenarios" / "armies")))
    return path


def test_a_scenario_sergeant_is_placed_on_the_first_position(tmp_path):
    text = PLACED.replace("        models: 4\n        positions: [{x: 10, y: 5}",
                          "        models: 4\n        upgrades: [sergeant]\n        positions: [{x: 10, y: 5}", 1)
    game = Game.start(new_game_state(load_scenario(_write(tmp_path, text))), Dice(seed=1))
    assert command_index(game.state, game.state.units["swords"], "sergeant") == 0
    models = game.ruleset.state_keys()["skirmish"]["models"]
    assert models["swords"][0]["command"] == "sergeant" and "command" not in models["swords"][1]


def test_one_command_model_per_army(tmp_path, capsys):
    """"Each army may only have one model with one of the following upgrades"."""
    text = PLACED.replace("      - id: swords\n", "      - id: archers\n        profile: Canton Archers\n"
                          "        models: 1\n        upgrades: [sergeant]\n        positions: [{x: 30, y: 5}]\n"
                          "      - id: swords\n        upgrades: [banner]\n", 1)
    file = _write(tmp_path, text)
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "armies[0].units[1].upgrades: " in out and "only have one model with one command group" in out
    file = _write(tmp_path, PLACED.replace("        models: 4\n", "        models: 4\n        upgrades: [banner, "
                                           "musician]\n", 1))
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    assert "has banner, musician: each army may only have one model" in capsys.readouterr().out


TWO = PLACED.replace("      - id: swords\n", "      - id: archers\n        profile: Canton Archers\n"
                     "        models: 2\n        positions: [{x: 30, y: 5}, {x: 31, y: 5}]\n"
                     "      - id: swords\n        upgrades: [UPGRADE]\n        command_picks: [archers]\n", 1)


@pytest.mark.parametrize("old,new,path,message", [
    ("command_picks: [archers]", "command_picks: [warriors]", "armies[0].units[1].command_picks[0]",
     "'warriors' is not another unit of this army"),
    ("command_picks: [archers]", "command_picks: [swords]", "armies[0].units[1].command_picks[0]",
     "'swords' is not another unit of this army"),
    ("command_picks: [archers]", "command_picks: [archers, archers]", "armies[0].units[1].command_picks[1]",
     "picked twice"),
    ("command_picks: [archers]", "command_picks: [a, b, c, d]", "armies[0].units[1].command_picks",
     "at most 3"),
    ("upgrades: [banner]", "upgrades: [sergeant]", "armies[0].units[1].command_picks",
     "only a Musician or Banner unit"),
])
def test_bad_command_picks_are_refused(tmp_path, capsys, old, new, path, message):
    """Musician/Banner: "This unit and up to 3 friendly units picked before the start of the game"."""
    text = TWO.replace("UPGRADE", "banner").replace(old, new, 1)
    file = _write(tmp_path, text)
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f": {path}: " in out and message in out, out


def _picked_game(tmp_path, upgrade: str, seed: int = 1) -> Game:
    sc = load_scenario(_write(tmp_path, TWO.replace("UPGRADE", upgrade)))
    return Game.start(new_game_state(sc), Dice(seed=seed))


def test_musician_moves_this_unit_and_its_picks_one_inch_more(tmp_path):
    """Musician: "This unit and up to 3 friendly units picked before the start of the game move +1" when using
    move actions"; the enemy does not."""
    g = _picked_game(tmp_path, "musician")
    s = g.state
    assert [moves.allowance(s, s.units[u], "advance") for u in ("swords", "archers", "warriors")] == [7.0, 7.0, 6.0]
    assert moves.allowance(s, s.units["archers"], "rush") == 13.0
    assert moves.allowance(s, s.units["archers"], "charge") == 13.0
    assert moves.allowance(s, s.units["archers"], "consolidate") == 3.0        # not a move action
    g.apply(Activate(1, "archers"))
    g.apply(move(1, "archers", "advance", [(30, 11.9), (31, 11.9)]))          # 6.9": only with the Musician
    assert points_of(s, "archers")[0] == (30, 11.9)
    assert "Musician (picked): +1\" with Advance" in " ".join(g.ruleset.in_force_words(s, s.units["archers"]))


def test_musician_killed_its_unit_and_deployed_picks_lose_the_rule(tmp_path):
    """"If this model is killed, picked models that are deployed lose the rule"; a picked unit not deployed yet
    keeps it."""
    g = _picked_game(tmp_path, "musician")
    s = g.state
    w = warband_of(s)
    w.models["archers"] = []                       # as if set aside (Ambush): not on the table
    s.units["archers"].pose = None
    assert not s.units["archers"].on_table
    events = attacks.take_wounds(s, Dice(sequence=[]), s.units["swords"], 1, (10, 4))   # the nearest: (10, 5)
    assert any(e.data.get("command_lost") == "musician" for e in events)
    assert not has_command(s, s.units["swords"], "musician") and has_command(s, s.units["archers"], "musician")
    assert moves.allowance(s, s.units["swords"], "advance") == 6.0


def test_banner_adds_one_to_morale_test_rolls(tmp_path):
    """Banner: "+1 to morale test rolls": a 4 passes the archers' Quality 5+ and a 3 the swordsmen's 4+; a 3 fails
    for the enemy."""
    g = _picked_game(tmp_path, "banner")
    s = g.state
    rs = g.ruleset
    w = warband_of(s)
    w.starting_units = {1: 4, 2: 2}       # both armies at half strength or less
    g.dice = Dice(sequence=[4, 3, 3])
    events = rs._morale()
    rolls = [e for e in events if e.kind == "roll"]
    assert [e.data["successes"] for e in rolls] == [1, 1, 0]
    assert "+1 Banner" in rolls[0].data["details"]
    assert not s.units["archers"].shaken and s.units["warriors"].shaken
