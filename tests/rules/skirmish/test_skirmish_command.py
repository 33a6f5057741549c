"""AoF: Skirmish "Command Groups" (../shared/rules/aof-skirmish-quick-rules.md): the Sergeant on fixed dice, the
command model that carries it, and the loader's "one model with one of the following upgrades" per army
(docs/rulings.md "AoF Skirmish": command models)."""

from __future__ import annotations

from pathlib import Path

import main
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.skirmish import attacks
from game.engine.skirmish.loose import command_index, new_models, state_dict, warband_of
from game.engine.state import make_unit
from game.scenario import load_scenario, new_game_state
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, skirmish_game, unit

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


def test_one_command_model_per_army_and_no_musician_or_banner_yet(tmp_path, capsys):
    """"Each army may only have one model with one of the following upgrades"; Musician and Banner are not played
    yet and stay refused at load."""
    text = PLACED.replace("      - id: swords\n", "      - id: archers\n        profile: Canton Archers\n"
                          "        models: 1\n        upgrades: [sergeant]\n        positions: [{x: 30, y: 5}]\n"
                          "      - id: swords\n        upgrades: [sergeant]\n", 1)
    file = _write(tmp_path, text)
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "armies[0].units[1].upgrades: " in out and "only have one model with one command group" in out
    file = _write(tmp_path, PLACED.replace("        models: 4\n", "        models: 4\n        upgrades: [banner]\n", 1))
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    assert "has no banner upgrade here; it plays: sergeant" in capsys.readouterr().out
