"""The ruleset seam (issue 14, "The seam"): a scenario names its ruleset, the game is refereed by the ruleset
registered under that name, records and state files name it, a record of one ruleset is never replayed under
another, and a new ruleset is a new module (a toy one registered here drives a whole game through ``Game``)."""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest
import yaml

import main
from game.autoplay import play_out
from game.engine import rulesets
from game.engine.actions import Action, DeclareCharge, Done, Move
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.rulesets.aowfbr import AoWFBR
from game.engine.rulesets.base import Handler, Ruleset
from game.engine.state import GameState, MoveAction, Pending, Table, make_unit
from game.record import RecordError, load_record, replay
from game.saves import open_saved_game, save_game
from game.scenario import ScenarioError, load_scenario, load_scenario_mapping, new_game_state
from geometry.pose import Pose
from tests.rules.builders import profile

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


# --- a toy ruleset: each player in turn may Hold or Advance one unit straight ahead, `done` ends the round -----------
class Toy(Ruleset):
    """Two rounds; each round the active player moves units with ``move`` (advance straight ahead) then ``done``
    hands over; the winner has the unit furthest forward. Nothing of AoWFBR: no phases, no steps."""

    id: ClassVar[str] = "toy-1"
    title: ClassVar[str] = "Toy rules"
    morale_states: ClassVar[Mapping[str, str]] = {}

    def start(self) -> list[Event]:
        self.state.pending = Pending(1, "move")
        return [Event("phase", "Toy round 1", {"round": 1})]

    def handlers(self) -> Mapping[type[Action], Handler]:
        return {Move: self._move, Done: self._done}

    def units_to_move(self, player: int) -> list[str]:
        return [u.id for u in self.state.units_of(player) if u.move_action is None] \
            if self.state.pending is not None and player == self.state.pending.player else []

    def _move(self, action: Move) -> list[Event]:
        unit = self.own_unit(action)
        if unit.id not in self.units_to_move(action.player):
            raise IllegalAction("Toy moves", f"{unit.name} has moved this round")
        roll = self.dice.d6(1, f"Toy move of {unit.name}")[0]
        assert unit.pose is not None
        ahead = unit.pose.facing_to(unit.pose.facing)
        new = Pose(ahead.x, ahead.y + (roll if unit.player == 1 else -roll), ahead.facing)
        self.state.place(unit, new)
        unit.move_action = MoveAction.ADVANCE
        return [Event("move", f"{unit.name} moves {roll}\"", {"unit": unit.id, "roll": roll})]

    def _done(self, action: Done) -> list[Event]:
        s = self.state
        for u in s.units_of(action.player):
            u.move_action = None
        if action.player == 2:
            if s.round >= 2:
                s.game_over, s.pending = True, None
                return [Event("victory", "Toy game over", {})]
            s.round += 1
        s.pending = Pending(3 - action.player, "move")
        return [Event("phase", f"Toy round {s.round}, player {s.pending.player}", {})]

    def victory_points(self) -> dict[int, int]:
        s = self.state
        return {1: int(max((u.pose.y for u in s.units_of(1) if u.pose), default=0)),
                2: int(48 - min((u.pose.y for u in s.units_of(2) if u.pose), default=48))}


def _toy_state() -> GameState:
    a = make_unit("a", 1, profile("Spears", size=5), 5, Pose(20, 6, 0))
    b = make_unit("b", 2, profile("Orcs", size=5), 5, Pose(40, 42, 180))
    return GameState("toy", Table(), [], {"a": a, "b": b}, {1: None, 2: None}, ruleset=Toy.id)


def test_a_toy_ruleset_registered_in_a_test_drives_a_game_through_the_seam(monkeypatch):
    """A new ruleset is a new module: registered under its id, ``Game`` starts, applies, checks, clones and
    reports victory through it; AoWFBR's actions are refused as not actions of this game."""
    monkeypatch.setitem(rulesets.RULESETS, Toy.id, Toy)
    game = Game.start(_toy_state(), Dice(sequence=[3, 5, 2, 6]))
    assert game.pending == Pending(1, "move") and game.log[0].text == "Toy round 1"
    assert game.units_to_move(1) == ["a"] and game.units_to_move(2) == [] and game.charge_targets("a") == []
    move = Move(1, "a", "advance", (Pose(20, 6, 0),))
    assert game.check_move(move) is None and game.state.units["a"].pose == Pose(20, 6, 0)  # checked on a clone
    game.apply(move)
    assert game.state.units["a"].pose == Pose(20, 9, 0) and game.dice_used == [1]
    refused = game.check_move(move)
    assert refused is not None and refused.rule == "Toy moves"
    with pytest.raises(IllegalAction, match="not an action of this game"):
        game.apply(DeclareCharge(1, "a", "b"))
    twin = game.clone()
    for g in (game, twin):
        g.apply(Done(1))
        g.apply(Move(2, "b", "advance", (Pose(40, 42, 180),)))
        g.apply(Done(2))
        g.apply(Done(1))
        g.apply(Done(2))
    assert game.digests == twin.digests and game.pending is None and game.state.game_over
    assert game.victory_points() == {1: 9, 2: 11} and game.ruleset.winner() == 2
    assert game.victory_breakdown() == {1: [("total", 9)], 2: [("total", 11)]}


def test_a_state_naming_an_unplayable_ruleset_is_refused(monkeypatch):
    state = _toy_state()
    with pytest.raises(ValueError, match="ruleset: 'toy-1' is not a known ruleset"):
        Game(state, Dice(seed=1))
    monkeypatch.setitem(rulesets.PLANNED, "aof-horde", "Age of Fantasy: Horde")
    state.ruleset = "aof-horde"
    with pytest.raises(ValueError, match="not playable yet"):
        Game(state, Dice(seed=1))


def test_aowfbr_is_the_ruleset_of_the_shipped_scenarios():
    game = Game.start(new_game_state(load_scenario(SMALL)), Dice(seed=1))
    assert game.state.ruleset == "aowfbr-1.4" and isinstance(game.ruleset, AoWFBR)
    assert rulesets.DEFAULT == "aowfbr-1.4" and set(rulesets.RULESETS) == {"aowfbr-1.4", "aofr-2.16", "aofr-quick",
                                                                          "aof-skirmish"}


# --- the scenario loader -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,title", [("aof-horde", "Horde")])
def test_a_scenario_naming_a_planned_ruleset_is_refused_as_not_playable_yet(tmp_path, capsys, monkeypatch, name,
                                                                           title):
    """Everything offered works: a ruleset the engine cannot play yet (listed in ``PLANNED``; none is today, so the
    test plants one) is refused with a clear message, exit 2."""
    monkeypatch.setitem(rulesets.PLANNED, name, f"Age of Fantasy: {title}")
    text = SMALL.read_text().replace("ruleset: aowfbr-1.4", f"ruleset: {name}")
    assert f"ruleset: {name}" in text
    path = tmp_path / "s.yaml"
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("ruleset:"))
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{path}:{line}: ruleset: '{name}'" in out and "is not playable yet" in out and title in out
    with pytest.raises(ScenarioError):
        load_scenario_mapping(yaml.safe_load(text), path)


# --- records and state files ---------------------------------------------------------------------------------------
def _played_record(tmp_path: Path) -> Path:
    game = Game.start(new_game_state(load_scenario(SMALL)), Dice(seed=4))
    play_out(game, 4)
    path = tmp_path / "game.yaml"
    save_game(game, SMALL, path)
    return path


def test_a_record_names_its_ruleset_and_the_state_file_too(tmp_path):
    path = _played_record(tmp_path)
    data = yaml.safe_load(path.read_text())
    assert data["ruleset"] == "aowfbr-1.4" and list(data)[:4] == ["format", "scenario", "ruleset", "dice"]
    record = load_record(path)
    assert record.ruleset == "aowfbr-1.4" and "ruleset" not in record.extra
    assert replay(record).ok
    out = tmp_path / "state.json"
    assert main.main(["run", str(path), "--state-out", str(out)]) == 0
    assert json.loads(out.read_text())["ruleset"] == "aowfbr-1.4"


def test_a_record_of_another_ruleset_is_refused_naming_the_line(tmp_path, capsys):
    """Issue 14: a record of one ruleset is never replayed under another (FILE:LINE: ruleset: ..., exit 2)."""
    path = _played_record(tmp_path)
    text = path.read_text().replace("ruleset: aowfbr-1.4", "ruleset: aofr-2.16")
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("ruleset:"))
    for command in (["check", str(path)], ["run", str(path), "--state-out", str(tmp_path / "s.json")]):
        assert main.main(command) == main.EXIT_PROBLEMS
        out = capsys.readouterr().out
        assert f"{path}:{line}: ruleset: the game was played under 'aofr-2.16'" in out
        assert "never replayed under another ruleset" in out
    with pytest.raises(RecordError, match=f"{line}: ruleset: "):
        open_saved_game(path)
    assert not (tmp_path / "s.json").exists()


def test_a_record_without_the_ruleset_key_is_its_scenarios(tmp_path):
    path = _played_record(tmp_path)
    text = "".join(t for t in path.read_text().splitlines(keepends=True) if not t.startswith("ruleset:"))
    path.write_text(text)
    record = load_record(path)
    assert record.ruleset is None and replay(record).ok
    assert open_saved_game(path).game.state.ruleset == "aowfbr-1.4"


@pytest.mark.parametrize("value", ["7", "''", "[aowfbr-1.4]"])
def test_a_malformed_ruleset_key_is_refused(tmp_path, value):
    path = _played_record(tmp_path)
    path.write_text(path.read_text().replace("ruleset: aowfbr-1.4", f"ruleset: {value}"))
    with pytest.raises(RecordError, match="ruleset: must be the id of the ruleset"):
        load_record(path)


def test_a_discarded_game_is_freed_at_once_without_the_garbage_collector():
    """The ruleset refers to its game weakly: no reference cycle, so the clones a searching player discards (and
    their states) go as soon as they are dropped, not at the next collection."""
    game = Game.start(new_game_state(load_scenario(SMALL)), Dice(seed=1))
    gc.disable()
    try:
        twin = game.clone()
        assert twin.pending is not None
        twin.apply(Done(twin.pending.player))       # its handler table (bound to its ruleset) built too
        gone = weakref.ref(twin)
        state = weakref.ref(twin.state)
        del twin
        assert gone() is None and state() is None
    finally:
        gc.enable()
    with pytest.raises(RuntimeError, match="no longer exists"):
        _ = AoWFBR(Game(new_game_state(load_scenario(SMALL)), Dice(seed=1))).state
