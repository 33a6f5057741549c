"""The headless commands of ../shared/spec.md: check, autoplay, run; and game records round-tripping."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

import main
from game.engine.actions import Done
from game.record import load_record, replay

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "scenarios" / "default.yaml"


def test_check_accepts_the_shipped_scenarios(capsys):
    files = [str(p) for p in sorted((ROOT / "scenarios").glob("*.yaml"))]
    assert main.main(["check", *files]) == 0
    assert "OK" in capsys.readouterr().out


def test_check_reports_problems_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: regiments-scenario/1\nname: x\nruleset: aowfbr-1.4\narmies: 7\n")
    assert main.main(["check", str(bad)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{bad}:4: armies" in out


def test_autoplay_writes_a_record_that_run_replays(tmp_path, capsys):
    record = tmp_path / "game.yaml"
    assert main.main(["autoplay", str(DEFAULT), "--seed", "3", "--record", str(record)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[0]
    assert line.startswith("seed 3: rounds 4, victory points ")
    data = yaml.safe_load(record.read_text())
    assert data["format"] == "regiments-record/1" and data["dice"] == {"seed": 3}
    assert all("digest" in a for a in data["actions"])
    state_out = tmp_path / "state.json"
    assert main.main(["run", str(record), "--state-out", str(state_out)]) == 0
    state = json.loads(state_out.read_text())
    assert state["format"] == "regiments-state/1"
    assert state["game_over"] is True and state["pending"] is None
    assert {"id", "player", "models", "wounds", "pose", "shaken", "fleeing", "removed", "engaged_with"} \
        <= set(state["units"][0])
    assert main.main(["check", str(record)]) == 0


def test_run_stops_at_an_illegal_action_naming_it(tmp_path, capsys):
    record = tmp_path / "r.yaml"
    record.write_text(yaml.safe_dump({
        "format": "regiments-record/1",
        "scenario": str(DEFAULT),
        "dice": {"seed": 1},
        "actions": [Done(1).to_dict(), {"type": "shoot", "player": 1, "unit": "archers-1", "target": "x"}],
    }))
    state_out = tmp_path / "s.json"
    assert main.main(["run", str(record), "--state-out", str(state_out)]) == main.EXIT_ILLEGAL
    out = capsys.readouterr().out
    # issue 16: FILE:LINE: actions[N]: rule: message, with the line of that action in the record
    assert out.startswith(f"{record}:4: actions[1]: Turn Sequence: ")
    assert "(action 1, shoot, is illegal)" in out
    assert json.loads(state_out.read_text())["phase"] == "movement"


def test_record_round_trip_and_digest_mismatch_is_reported(tmp_path):
    record_path = tmp_path / "g.yaml"
    main.main(["autoplay", str(DEFAULT), "--seed", "5", "--record", str(record_path)])
    record = load_record(record_path)
    first = replay(record)
    assert first.ok and first.game.state.game_over
    record_path.write_text(record.to_yaml())
    again = load_record(record_path)
    assert [a.to_dict() for a in again.actions] == [a.to_dict() for a in record.actions]
    again.digests[10] = "0000000000"
    result = replay(again)
    assert result.diverged_index == 10 and "no longer gives the recorded outcome" in result.describe()


def test_malformed_record_names_file_line_and_field(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("format: regiments-record/1\nscenario: x.yaml\ndice: {seed: 1}\nactions:\n"
                    "  - {type: move, player: 3, unit: a, action: advance, path: []}\n")
    try:
        load_record(path)
    except ValueError as e:
        assert f"{path}:5: actions[0].player: must be 1 or 2, got 3" in str(e)
    else:
        raise AssertionError("a bad player was accepted")


def test_run_reports_fixed_dice_running_out(tmp_path, capsys):
    """Spec: running out of fixed dice is an error that names the roll that needed one."""
    record = tmp_path / "r.yaml"
    assert main.main(["autoplay", str(DEFAULT), "--seed", "2", "--record", str(record)]) == 0
    data = yaml.safe_load(record.read_text())
    data["dice"] = {"sequence": [6]}
    for action in data["actions"]:
        action.pop("digest", None)
    data.pop("length", None)
    record.write_text(yaml.safe_dump(data))
    capsys.readouterr()
    code = main.main(["run", str(record), "--state-out", str(tmp_path / "s.json")])
    out = capsys.readouterr().out
    assert code == main.EXIT_ILLEGAL
    assert "Dice: fixed dice ran out:" in out and "needed" in out


def test_autoplay_seats_the_named_players_checks_invariants_and_tallies(capsys):
    """Spec "Command line": ``--players P1,P2``, ``--check``, one line per game, then the tally."""
    small = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"
    assert main.main(["autoplay", str(small), "--games", "2", "--players", "simple,random", "--check"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 and lines[0].startswith("seed 1:") and lines[1].startswith("seed 2:")
    assert lines[2].startswith("P1 (simple) won ") and ", P2 (random) won " in lines[2] and "drawn" in lines[2]
    assert "invariants held" in lines[2]


def test_autoplay_refuses_a_player_it_cannot_seat(capsys):
    """An unknown player name is refused, never replaced by another player."""
    assert main.main(["autoplay", str(DEFAULT), "--players", "random,random,random"]) == main.EXIT_PROBLEMS
    assert main.main(["autoplay", str(DEFAULT), "--players", "wizard"]) == main.EXIT_PROBLEMS
    assert "unknown player 'wizard'" in capsys.readouterr().out


def test_autoplay_check_names_the_game_action_and_invariant(monkeypatch, capsys):
    """``--check`` exits 1 at the first broken invariant, naming the seed, the action and the invariant."""
    import game.autoplay

    monkeypatch.setattr(game.autoplay, "state_is_consistent", lambda state: ["u-1 overlaps u-2"])
    small = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"
    assert main.main(["autoplay", str(small), "--seed", "4", "--check"]) == 1
    out = capsys.readouterr().out
    assert "seed 4: after action 0 ({'type':" in out and "u-1 overlaps u-2" in out
