"""AoF: Skirmish files (issue 18): scenarios with per-model positions, refusals with FILE:LINE: PATH: message,
records that replay exactly, the state file's models, and the invariants of ``autoplay --check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import main
from game.autoplay import play_out, state_is_consistent
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.skirmish.loose import points_of, warband_of
from game.record import load_record, replay
from game.saves import save_game
from game.scenario import load_scenario, new_game_state

ROOT = Path(__file__).resolve().parents[3]
CROSSROADS = ROOT / "scenarios" / "skirmish_crossroads.yaml"
VILLAGE = ROOT / "scenarios" / "skirmish_burnt_village.yaml"

PLACED = """format: regiments-scenario/1
name: Placed
ruleset: aof-skirmish
mission: standard
table: {width: 48, depth: 48}
objectives: [{x: 24, y: 24}]
start: {round: 1, player: 1, phase: activation}
armies:
  - player: 1
    include: INCLUDE/skirmish/aldmark_warband.yaml
    units:
      - id: swords
        profile: Canton Swordsmen
        models: 4
        positions: [{x: 10, y: 5}, {x: 11, y: 5}, {x: 12, y: 5}, {x: 13, y: 5}]
  - player: 2
    include: INCLUDE/skirmish/redtusk_warband.yaml
    units:
      - id: warriors
        profile: Redtusk Warriors
        models: 4
        positions: [{x: 10, y: 40}, {x: 11, y: 40}, {x: 12, y: 40}, {x: 13, y: 40}]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("INCLUDE", str(ROOT / "scenarios" / "armies")))
    return path


def test_shipped_scenarios_load_with_20_plus_terrain_pieces_and_150_250_point_warbands():
    """"The Battlefield": a 4'x4' area with 20+ pieces of terrain; "The Armies": 150 and 250 points."""
    for path, points in ((CROSSROADS, 150), (VILLAGE, 250)):
        sc = load_scenario(path)
        assert sc.ruleset == "aof-skirmish" and (sc.table.width, sc.table.depth) == (48, 48)
        assert len(sc.terrain) >= 20
        assert sc.armies[1].points == points and sc.armies[2].points == points


def test_positions_place_each_model_and_the_state_file_lists_them(tmp_path):
    sc = load_scenario(_write(tmp_path, PLACED))
    game = Game.start(new_game_state(sc), Dice(seed=1))
    assert points_of(game.state, "swords") == [(10, 5), (11, 5), (12, 5), (13, 5)]
    assert game.pending.decision == "activate"
    keys = game.ruleset.state_keys()["skirmish"]
    assert keys["models"]["warriors"][0] == {"x": 10.0, "y": 40.0, "wounds": 0}


@pytest.mark.parametrize("old,new,path,message", [
    ("{x: 13, y: 5}]", "{x: 16, y: 5}]", "armies[0].units[0].positions", "not in coherency"),
    ("{x: 12, y: 5}, {x: 13, y: 5}]", "{x: 12, y: 5}]", "armies[0].units[0].positions", "3 positions for 4 models"),
    ("{x: 10, y: 5},", "{x: 0.1, y: 5},", "armies[0].units[0].positions[0]", "not fully on the table"),
    ("        models: 4\n        positions: [{x: 10, y: 40}", "        models: 4\n        pose: {x: 10, y: 40, "
     "facing: 0}\n        positions: [{x: 10, y: 40}", "armies[1].units[0].pose", "loose models: no pose"),
    ("table: {width: 48, depth: 48}", "table: {width: 72, depth: 30}", "table", "4'x4' table"),
])
def test_bad_positions_are_refused_with_file_line_path(tmp_path, capsys, old, new, path, message):
    text = PLACED.replace(old, new, 1)
    assert text != PLACED
    file = _write(tmp_path, text)
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f": {path}: " in out and message in out and f"{file}:" in out


def test_positions_under_another_ruleset_are_refused(tmp_path, capsys):
    """Regiments are placed by pose: ``positions`` is for loose models only."""
    text = (ROOT / "scenarios" / "tests" / "small_skirmish.yaml").read_text()
    old = "pose: {x: 14, y: 8, facing: 0}}"
    assert "ruleset: aowfbr-1.4" in text and old in text
    text = text.replace(old, "pose: {x: 14, y: 8, facing: 0}, positions: [{x: 1, y: 1}]}")
    file = tmp_path / "s.yaml"
    file.write_text(text.replace("include: armies/", f"include: {ROOT}/scenarios/armies/"))
    assert main.main(["check", str(file)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "armies[0].units[0].positions: model positions are for loose models" in out


@pytest.mark.parametrize("scenario,seed", [(CROSSROADS, 3), (VILLAGE, 8)])
def test_records_replay_exactly_and_the_invariants_hold(tmp_path, scenario, seed):
    """A game record = scenario + dice + actions replays bit-identically; coherency and the other invariants hold
    after every action (``autoplay --check``)."""
    game = Game.start(new_game_state(load_scenario(scenario)), Dice(seed=seed))
    play_out(game, seed, after_action=lambda g, a: _no_problems(g))
    assert game.state.game_over
    path = tmp_path / "game.yaml"
    save_game(game, scenario, path)
    result = replay(load_record(path))
    assert result.ok
    out = tmp_path / "state.json"
    assert main.main(["run", str(path), "--state-out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["ruleset"] == "aof-skirmish" and "models" in data["skirmish"]


def _no_problems(game: Game) -> None:
    problems = state_is_consistent(game.state)
    assert not problems, problems


def test_the_coherency_invariant_catches_a_broken_unit(tmp_path):
    sc = load_scenario(_write(tmp_path, PLACED))
    game = Game.start(new_game_state(sc), Dice(seed=1))
    warband_of(game.state).models["swords"][3].x = 20.0
    assert any("out of coherency" in p for p in state_is_consistent(game.state))


def test_elevated_pieces_load_with_their_heights_and_a_game_with_jumps_replays(tmp_path):
    """Elevation (docs/rulings.md "AoF Skirmish": elevation): `elevated` terrain is played under aof-skirmish (no
    longer refused), its `height` the level of its top; a game whose models jump and fall replays exactly."""
    sc = load_scenario(VILLAGE)
    tops = {t.name: t.height for t in sc.terrain if "elevated" in t.traits}
    assert tops["Ruined Tower (upper floor)"] == 6 and tops["Mill Loft"] == 4.5 and len(tops) == 6
    game = Game.start(new_game_state(sc), Dice(seed=7))        # seed 7: a model jumps off a roof and falls
    play_out(game, 7, after_action=lambda g, a: _no_problems(g))
    assert any(e.kind == "roll" and " jumps (" in e.text for e in game.log)
    assert any(e.kind == "fall" for e in game.log)
    path = tmp_path / "game.yaml"
    save_game(game, VILLAGE, path)
    assert replay(load_record(path)).ok


def test_the_invariants_catch_a_model_inside_impassable_terrain(tmp_path):
    """No model ever stands in a wall (a fall or a jump never lands in one)."""
    keep = "terrain:\n  - {name: Keep, kind: building, rect: {x: 30, y: 30, width: 4, depth: 4}}\narmies:"
    text = PLACED.replace("armies:", keep)
    game = Game.start(new_game_state(load_scenario(_write(tmp_path, text))), Dice(seed=1))
    warband_of(game.state).models["warriors"][0].x, warband_of(game.state).models["warriors"][0].y = 30.0, 30.0
    assert any("inside Keep (impassable)" in p for p in state_is_consistent(game.state))
