"""Game records: scenario + dice + actions (../shared/spec.md "Game record").

A replay, a save and a test script are all game records. ``load_record`` validates a file and reports every
problem as ``FILE:LINE: PATH: message``; ``replay`` applies the actions to a fresh game and stops at the first
illegal one, naming its index and the rule it breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from game.computer_seat import ComputerSeat, seat_from_record
from game.engine.actions import Action, ActionFormatError, action_from_dict, show_value
from game.engine.dice import Dice, DiceExhausted
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.files import FileProblems, atomic_write_text
from game.limits import MAX_ACTIONS, MAX_RECORD_BYTES
from game.reader import FileRefused, YamlFile, display_name, mapping_nodes, node_line, read_yaml
from game.scenario import ScenarioError, load_scenario, load_scenario_mapping, new_game_state

if TYPE_CHECKING:
    from game.scenario import Scenario

RECORD_FORMAT = "regiments-record/1"
"""The ``format`` value of a game record."""

_DIGEST = re.compile(r"[0-9a-f]{10}")
_MAX_PROBLEMS = 50   # a file with thousands of bad actions lists the first ones


class RecordError(FileProblems):
    """A record file that cannot be used; ``problems`` lists each as ``FILE:LINE: PATH: message``."""


@dataclass
class Record:
    """A game record in memory."""

    scenario: str | dict[str, Any]
    """Path of the scenario relative to the record file, or the scenario mapping inline."""
    dice: dict[str, Any]
    """``{seed: N}`` or ``{sequence: [...]}``."""
    actions: list[Action] = field(default_factory=list)
    """Every decision, in order."""
    source: Path | None = None
    """The file it was read from, if any (relative scenario paths are resolved against it)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Optional keys kept as they were (program version, players' names, result...)."""
    digests: list[str | None] = field(default_factory=list)
    """For each action, the digest of its outcome when it was recorded (None where unknown)."""
    lines: list[int] = field(default_factory=list)
    """For each action read from a file, its 1-based line there (empty for a record built in memory)."""
    ruleset: str | None = None
    """The ruleset the game was played under (key ``ruleset``); None for a record written before records named it
    (it is then its scenario's)."""
    ruleset_line: int = 1
    """The line of the ``ruleset`` key in the file it was read from."""
    computer: ComputerSeat | None = None
    """The seat the computer opponent played and its level (key ``computer``), None in a game of two people."""

    def where(self, index: int) -> str:
        """``FILE:LINE: actions[N]`` for the action at ``index``, as problems name it (``FILE`` is the record
        file, or ``<record>``; the line is 1 when unknown)."""
        name = display_name(self.source) if self.source is not None else "<record>"
        line = self.lines[index] if 0 <= index < len(self.lines) else 1
        return f"{name}:{line}: actions[{index}]"

    def scenario_path(self) -> Path:
        """Absolute path of the scenario file. Raises ``RecordError`` for an inline scenario."""
        if not isinstance(self.scenario, str):
            raise RecordError(["inline scenarios are resolved by new_game()"])
        path = Path(self.scenario)
        if not path.is_absolute() and self.source is not None:
            path = self.source.parent / path
        return path

    def to_yaml(self) -> str:
        """The record as YAML text."""
        data: dict[str, Any] = {"format": RECORD_FORMAT, "scenario": self.scenario}
        if self.ruleset is not None:
            data["ruleset"] = self.ruleset
        data["dice"] = self.dice
        if self.computer is not None:
            data["computer"] = self.computer.to_record()
        data.update(self.extra)
        data.pop("length", None)
        if self.actions and len(self.digests) >= len(self.actions) and all(self.digests[:len(self.actions)]):
            data["length"] = len(self.actions)   # lets a reader tell a truncated file (docs/formats.md)
        actions = []
        for i, a in enumerate(self.actions):
            entry = a.to_dict()
            digest = self.digests[i] if i < len(self.digests) else None
            if digest:
                entry["digest"] = digest
            actions.append(entry)
        data["actions"] = actions
        return yaml.safe_dump(_plain(data), sort_keys=False, default_flow_style=None, width=120)


def _plain(value: Any) -> Any:
    """``value`` with numpy scalars (from geometry) turned into Python numbers, which YAML can write exactly."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or type(value) in (str, bool, int, float):
        return value
    if isinstance(value, float):              # numpy.float64 is a float that YAML cannot write
        return float(value)
    item = getattr(value, "item", None)       # numpy.int64 ...
    if callable(item):
        plain = item()
        if isinstance(plain, (bool, int, float)):
            return plain
    return value


def load_record(path: str | Path, read: YamlFile | None = None) -> Record:
    """Read and validate a record file (``game.reader``: at most ``MAX_RECORD_BYTES``, ``MAX_ACTIONS`` actions).

    ``read``: the file already read with ``read_yaml``. Raises ``RecordError`` listing every problem found, each
    ``FILE:LINE: PATH: message``; the line of an action's problem is that action's own line.
    """
    path = Path(path)
    if read is None:
        try:
            read = read_yaml(path, MAX_RECORD_BYTES)
        except FileRefused as e:
            raise RecordError(e.problems) from None
    name, text, root, data = read.name, read.text, read.root, read.data
    if not isinstance(data, dict) or root is None:
        raise RecordError([f"{name}:1: (root): a game record must be a mapping (format, scenario, dice, actions)"])
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError([f"{name}:1: (file): the file is larger than {MAX_RECORD_BYTES:,} bytes"])
    nodes = mapping_nodes(root)
    problems: list[str] = []
    _check_record_format(name, data, nodes, problems)
    scenario = _record_scenario(name, data, nodes, problems)
    dice = data.get("dice")
    try:
        Dice.from_record(dice if isinstance(dice, dict) else {})
    except ValueError as e:
        problems.append(f"{name}:{node_line(nodes.get('dice'))}: dice: {e}")
    actions = _record_actions(name, text, data, nodes, problems)
    if "length" in data and not problems:
        _check_length(name, data, nodes, actions, problems)
    ruleset = data.get("ruleset")
    if "ruleset" in data and not (isinstance(ruleset, str) and ruleset.strip()):
        problems.append(f"{name}:{node_line(nodes.get('ruleset'))}: ruleset: must be the id of the ruleset the game "
                        f"was played under (such as aowfbr-1.4), got {show_value(ruleset)}")
    computer: ComputerSeat | None = None
    if "computer" in data:
        try:
            computer = seat_from_record(data["computer"])
        except ValueError as e:
            problems.append(f"{name}:{node_line(nodes.get('computer'))}: computer: {e}")
    if problems:
        raise RecordError(problems)
    extra = {k: v for k, v in data.items()
             if k not in ("format", "scenario", "ruleset", "dice", "actions", "length", "computer")}
    assert isinstance(scenario, (str, dict)) and isinstance(dice, dict)
    return Record(scenario, dice, actions.actions, path, extra, actions.digests, actions.lines,
                  ruleset if isinstance(ruleset, str) else None, node_line(nodes.get("ruleset")), computer)


def _check_record_format(name: str, data: dict[Any, Any], nodes: dict[str, yaml.Node], problems: list[str]) -> None:
    """``format`` is ``RECORD_FORMAT``; another version of the record format is refused at once (``RecordError``)."""
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("regiments-record/") and fmt != RECORD_FORMAT:
        program = data.get("program")
        by = f" (written by {show_value(program)})" if isinstance(program, str) else ""
        raise RecordError([f"{name}:{node_line(nodes.get('format'))}: format: this is a {show_value(fmt)} game record"
                           f"{by}; this program reads {RECORD_FORMAT} only"])
    if fmt != RECORD_FORMAT:
        problems.append(f"{name}:{node_line(nodes.get('format'))}: format: must be {RECORD_FORMAT}, "
                        f"got {show_value(fmt)}")


def _record_scenario(name: str, data: dict[Any, Any], nodes: dict[str, yaml.Node], problems: list[str]) -> Any:
    """The ``scenario`` value (a path or a mapping when well formed; anything else comes with a problem)."""
    scenario = data.get("scenario")
    if not isinstance(scenario, (str, dict)):
        problems.append(f"{name}:{node_line(nodes.get('scenario'))}: scenario: must be a path or a scenario mapping")
    elif isinstance(scenario, str) and "\x00" in scenario:
        problems.append(f"{name}:{node_line(nodes.get('scenario'))}: scenario: the path contains a NUL character")
        scenario = None
    return scenario


@dataclass
class _ReadActions:
    """The actions of a record as read: each action, its digest (None when absent or bad) and its line."""

    actions: list[Action] = field(default_factory=list)
    digests: list[str | None] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    nodes: list[yaml.Node] = field(default_factory=list)
    """The YAML nodes of ``actions`` (for lines), as many as the file has."""


def _record_actions(name: str, text: str, data: dict[Any, Any], nodes: dict[str, yaml.Node],
                    problems: list[str]) -> _ReadActions:
    """Read ``actions`` (at most ``MAX_ACTIONS``; problems listed up to ``_MAX_PROBLEMS`` in all)."""
    if "actions" not in data:
        problems.append(f"{name}:{_last_line(text)}: actions: missing (the file is incomplete)")
    raw_actions = data.get("actions", [])
    if raw_actions is None:     # "actions:" with nothing after it
        raw_actions = []
    if not isinstance(raw_actions, list):
        problems.append(f"{name}:{node_line(nodes.get('actions'))}: actions: must be a list")
        raw_actions = []
    elif len(raw_actions) > MAX_ACTIONS:
        problems.append(f"{name}:{node_line(nodes.get('actions'))}: actions: {len(raw_actions):,} actions; a record "
                        f"holds at most {MAX_ACTIONS:,} (docs/formats.md \"Limits\")")
        raw_actions = []
    out = _ReadActions(nodes=nodes["actions"].value if isinstance(nodes.get("actions"), yaml.SequenceNode) else [])
    for i, raw in enumerate(raw_actions):
        node = out.nodes[i] if i < len(out.nodes) else None
        try:
            out.actions.append(action_from_dict(raw, f"actions[{i}]"))
        except ActionFormatError as e:
            problems.append(f"{name}:{node_line(node)}: {e}")
            if len(problems) >= _MAX_PROBLEMS:
                problems.append(f"{name}:{node_line(node)}: actions[{i}]: too many problems; the rest are not listed")
                break
            continue
        out.lines.append(node_line(node))
        digest = raw.get("digest")
        if digest is not None and not (isinstance(digest, str) and _DIGEST.fullmatch(digest)):
            problems.append(f"{name}:{node_line(node)}: actions[{i}].digest: must be 10 hex digits, "
                            f"got {show_value(digest)}")
            digest = None
        out.digests.append(digest)
    return out


def _check_length(name: str, data: dict[Any, Any], nodes: dict[str, yaml.Node], read: _ReadActions,
                  problems: list[str]) -> None:
    """``length`` (written with the digests) matches the actions read, each with its digest: else the file was
    truncated or edited."""
    length = data.get("length")
    where = f"{name}:{node_line(nodes.get('length'))}: length"
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        problems.append(f"{where}: must be a whole number, got {show_value(length)}")
    elif length != len(read.actions):
        problems.append(f"{where}: the record says it holds {length} actions but {len(read.actions)} were read: "
                        "the file is truncated or was edited (remove `length` after editing it on purpose)")
    else:
        missing = [i for i, d in enumerate(read.digests) if d is None]
        if missing:
            node = read.nodes[missing[0]] if missing[0] < len(read.nodes) else None
            problems.append(f"{name}:{node_line(node)}: actions[{missing[0]}].digest: missing: the file is truncated "
                            "or was edited (remove `length` after editing it on purpose)")


def _last_line(text: str) -> int:
    return max(1, text.count("\n") + (0 if text.endswith("\n") else 1))


def save_record(path: str | Path, record: Record) -> None:
    """Write ``record`` to ``path`` atomically (a crash never destroys the previous file)."""
    atomic_write_text(path, record.to_yaml())


def scenario_of(record: Record) -> Scenario:
    """The record's scenario, read and validated (from its file, or inline).

    Raises ``ScenarioError`` if the scenario is invalid or its file cannot be read.
    """
    if isinstance(record.scenario, dict):
        base = record.source.parent if record.source is not None else Path.cwd()
        return load_scenario_mapping(record.scenario, base / "<inline scenario>")
    return load_scenario(record.scenario_path())


def new_game(record: Record, scenario: Scenario | None = None) -> Game:
    """A fresh game at the record's starting position (no actions applied); ``scenario``: already loaded.

    Raises ``ScenarioError`` if the scenario is invalid, ``RecordError`` for an inline scenario that cannot be read.
    """
    if scenario is None:
        scenario = scenario_of(record)
    check_ruleset(record, scenario)
    return Game.start(new_game_state(scenario), Dice.from_record(record.dice))


def check_ruleset(record: Record, scenario: Scenario) -> None:
    """Refuse a record played under another ruleset than its scenario's (issue 14: a record of one ruleset is never
    replayed under another). Raises ``RecordError`` naming ``FILE:LINE: ruleset``; a record without the key (written
    before records named their ruleset) is its scenario's."""
    if record.ruleset is None or record.ruleset == scenario.ruleset:
        return
    name = display_name(record.source) if record.source is not None else "<record>"
    raise RecordError([f"{name}:{record.ruleset_line}: ruleset: the game was played under {record.ruleset!r} but "
                       f"its scenario {scenario.name!r} is played under {scenario.ruleset!r}; a record is never "
                       "replayed under another ruleset"])


@dataclass
class ReplayResult:
    """The outcome of applying a record."""

    game: Game
    """The game after the last action applied."""
    failed_index: int | None = None
    """Index of the first action that could not be applied, or None."""
    error: IllegalAction | None = None
    """Why it could not be applied."""
    diverged_index: int | None = None
    """Index of the first action whose outcome differs from the digest recorded with it, or None."""

    @property
    def ok(self) -> bool:
        """True when every action applied and gave the recorded outcome."""
        return self.failed_index is None and self.diverged_index is None

    def describe(self) -> str:
        """The problem in words, or "" when the replay went through."""
        if self.failed_index is not None and self.error is not None:
            return f"action {self.failed_index} is illegal: {self.error}"
        if self.diverged_index is not None:
            return (f"action {self.diverged_index} no longer gives the recorded outcome (the rules changed since "
                    f"the game was recorded); the replay stops there")
        return ""


def replay(record: Record, upto: int | None = None) -> ReplayResult:
    """Apply the record's actions (the first ``upto`` of them) to a fresh game.

    Stops at the first illegal action, or at the first whose outcome digest differs from the recorded one. A
    fixed dice sequence that runs out stops the replay at that action too, its error naming the roll.
    """
    game = new_game(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except IllegalAction as e:
            return ReplayResult(game, i, e)
        except DiceExhausted as e:
            return ReplayResult(game, i, IllegalAction("Dice", str(e)))
        want = record.digests[i] if i < len(record.digests) else None
        if want is not None and game.digests[-1] != want:
            return ReplayResult(game, None, None, i)
    return ReplayResult(game, None, None)


__all__ = ["Record", "RecordError", "ReplayResult", "ScenarioError", "check_ruleset", "load_record", "new_game",
           "replay", "save_record", "scenario_of", "RECORD_FORMAT"]
