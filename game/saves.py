"""Recording games played in the window: each game is a game record in the user's data folder.

The record is rewritten atomically after every action, so the last good copy survives a crash. The menu lists
the records (``list_saved_games``: unfinished ones can be resumed, every one can be watched); resuming replays the
record into a game (``open_saved_game``) and goes on recording into the same file. A file that cannot be read,
from another format version, or whose replay breaks off is refused with the reason, and never changed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game.computer_seat import LEVEL_WORDS, ComputerSeat, seat_from_record
from game.engine.game import Game
from game.files import FileProblems, fresh_path, records_dir, slug
from game.limits import MAX_RECORD_BYTES
from game.reader import FileRefused, display_name, parse_yaml, peek_mapping, read_text
from game.record import (
    RECORD_FORMAT,
    Record,
    RecordError,
    check_ruleset,
    load_record,
    new_game,
    save_record,
    scenario_of,
)
from game.replay import Rewinder
from game.scenario import ScenarioError

PROGRAM_VERSION = "0.1.0"
"""Written into every record as ``program``."""


STAMP = re.compile(r"-\d{8}-\d{6}(-\d+)?$")
"""The date and time the set-up adds to a scenario file's name (``border-battle-20261125-140233``)."""


def new_record_path(scenario_path: str | Path, when: datetime | None = None, title: str | None = None) -> Path:
    """A fresh file name in the records folder, after the battle and the date once:
    ``<battle>-<YYYY-MM-DD-HHMM>.yaml`` (local time; never an existing file). ``title`` (the battle's name) is
    used when given, else the scenario file's name without the date the set-up put in it."""
    when = when or datetime.now(UTC).astimezone()
    name = slug(title) if title else slug(STAMP.sub("", Path(scenario_path).stem), "game")
    return fresh_path(records_dir(), name, when.strftime("%Y-%m-%d-%H%M"))


def record_of(game: Game, scenario_path: str | Path | dict[str, Any], record_path: str | Path,
              computer: ComputerSeat | None = None) -> Record:
    """The game record of ``game``; the scenario is referred to relative to the record's folder (a mapping:
    an inline scenario, kept inline). ``computer``: the seat the computer opponent plays, if any."""
    if isinstance(scenario_path, dict):
        ref: str | dict[str, Any] = scenario_path
    else:
        scenario = Path(scenario_path).resolve()
        folder = Path(record_path).resolve().parent
        ref = os.path.relpath(scenario, folder)
    s = game.state
    pending = game.pending
    extra = {
        "program": f"battle-regiments {PROGRAM_VERSION}",
        "result": {
            "scenario_name": s.name,
            "round": s.round,
            "rounds": s.rounds,
            "player": pending.player if pending is not None else s.active_player,
            "phase": s.phase.value,
            "game_over": s.game_over,
            "victory_points": {str(k): v for k, v in game.victory_points().items()},
        },
    }
    return Record(ref, game.dice.to_record(), list(game.history), Path(record_path), extra, list(game.digests),
                  ruleset=s.ruleset, computer=computer)


def save_game(game: Game, scenario_path: str | Path | dict[str, Any], record_path: str | Path,
              computer: ComputerSeat | None = None) -> Path:
    """Write the record of ``game`` to ``record_path`` atomically and return the path (``OSError`` if it cannot
    be written; the previous file is then untouched). ``computer``: the seat the computer opponent plays."""
    path = Path(record_path)
    save_record(path, record_of(game, scenario_path, path, computer))
    return path


# --- the saved games listed by the menu ---------------------------------------------------------------------------
@dataclass
class SavedGame:
    """One record file of the records folder, as the menu lists it (read from its header only)."""

    path: Path
    """The file."""
    modified: datetime
    """When it was last written (local time)."""
    title: str = ""
    """The scenario's name (or the file's name when unknown)."""
    round: int | None = None
    """Round reached, when known."""
    rounds: int | None = None
    """Rounds of the game, when known."""
    player: int | None = None
    """The player to decide next, when known."""
    phase: str | None = None
    """Phase reached (``Phase`` value), when known."""
    finished: bool = False
    """The game is over."""
    victory_points: dict[int, int] = field(default_factory=dict)
    """Victory points when last saved."""
    actions: int | None = None
    """Number of actions, when the header gives it."""
    problem: str | None = None
    """Why the file cannot be used, when that shows already in its header (damaged, other format), or once
    ``verify_saved_game`` has read the whole file."""
    verified: bool = False
    """The whole file has been read and checked (``verify_saved_game``)."""
    computer: ComputerSeat | None = None
    """The seat the computer opponent plays, when the header names one."""

    @property
    def name(self) -> str:
        """The file's name without ``.yaml``."""
        return self.path.stem

    def score(self) -> str:
        """"120–45" (player 1 first), or "" when unknown."""
        if not self.victory_points:
            return ""
        return f"{self.victory_points.get(1, 0)}–{self.victory_points.get(2, 0)}"

    def status(self) -> str:
        """"finished", "unfinished" or "damaged"."""
        return "damaged" if self.problem else "finished" if self.finished else "unfinished"

    def summary(self) -> str:
        """One line for the list: title, round, score, status, date."""
        parts = [self.title or self.name]
        if self.computer is not None and not self.problem:
            parts.append(f"vs computer ({LEVEL_WORDS[self.computer.level]}, player {self.computer.player})")
        if self.problem:
            parts.append("⚠ cannot be read")
        elif self.finished:
            parts.append(f"finished after round {self.round}" if self.round else "finished")
        elif self.round is not None:
            parts.append(f"round {self.round}" + (f"/{self.rounds}" if self.rounds else ""))
        if self.score() and not self.problem:
            parts.append(self.score())
        parts.append(self.modified.strftime("%d %b %Y %H:%M"))
        return "  ·  ".join(parts)


_HEADER_CACHE: dict[Path, tuple[float, int, SavedGame]] = {}


def read_saved_game(path: str | Path) -> SavedGame:
    """What the menu shows of one record file, read from the keys before its actions (fast; cached by mtime)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as e:
        return SavedGame(path, datetime.now(), path.stem, problem=f"cannot read ({e.strerror})")
    cached = _HEADER_CACHE.get(path)
    if cached is not None and cached[0] == st.st_mtime and cached[1] == st.st_size:
        return cached[2]
    item = SavedGame(path, datetime.fromtimestamp(st.st_mtime), path.stem)
    cut = -1
    try:
        text = read_text(path, MAX_RECORD_BYTES)
        cut = text.find("\nactions:")
        head = parse_yaml(text if cut < 0 else text[:cut + 1], display_name(path))[1]
    except FileRefused as e:
        head = e.message
    if isinstance(head, str):
        item.problem = f"the file is damaged ({head})"
    elif not isinstance(head, dict):
        item.problem = "the file is damaged (not a game record)"
    elif head.get("format") != RECORD_FORMAT:
        item.problem = f"format {head.get('format')!r}: this program reads {RECORD_FORMAT}"
    elif cut < 0:
        item.problem = "the file is incomplete (no actions)"
    else:
        result = head.get("result") if isinstance(head.get("result"), dict) else {}
        assert isinstance(result, dict)
        item.title = str(result.get("scenario_name") or _scenario_title(head.get("scenario"), path) or path.stem)
        item.round = _int(result.get("round"))
        item.rounds = _int(result.get("rounds"))
        item.player = _int(result.get("player"))
        item.phase = result.get("phase") if isinstance(result.get("phase"), str) else None
        item.finished = result.get("game_over") is True
        vp = result.get("victory_points")
        if isinstance(vp, dict):
            item.victory_points = {int(k): v for k, v in vp.items() if str(k) in ("1", "2") and isinstance(v, int)}
        item.actions = _int(head.get("length"))
        if "computer" in head:
            try:
                item.computer = seat_from_record(head["computer"])
            except ValueError as e:
                item.problem = f"the file is damaged (computer: {e})"
    _HEADER_CACHE[path] = (st.st_mtime, st.st_size, item)
    return item


def verify_saved_game(item: SavedGame) -> SavedGame:
    """Read the whole file of ``item`` (without replaying it) and set ``problem`` if it is damaged or truncated;
    done once per version of the file. Returns ``item``."""
    if item.verified or item.problem:
        return item
    item.verified = True
    try:
        load_record(item.path)
    except FileProblems as e:
        first = e.problems[0]
        prefix = f"{item.path}:"
        if first.startswith(prefix):
            line, _, rest = first[len(prefix):].partition(": ")
            first = f"line {line}: {rest}"
        more = f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else ""
        item.problem = f"the file is damaged — {first}{more}"
    return item


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _scenario_title(ref: Any, record_path: Path) -> str | None:
    if isinstance(ref, dict):
        name = ref.get("name")
        return str(name) if name else None
    if not isinstance(ref, str):
        return None
    path = Path(ref) if Path(ref).is_absolute() else record_path.parent / ref
    name = peek_mapping(path).get("name")
    return str(name) if name else None


def list_saved_games(folder: str | Path | None = None) -> list[SavedGame]:
    """Every record in ``folder`` (default: the records folder), newest first."""
    folder = Path(folder) if folder is not None else records_dir()
    if not folder.is_dir():
        return []
    items = [read_saved_game(p) for p in folder.glob("*.yaml") if p.is_file() and not p.name.startswith(".")]
    return sorted(items, key=lambda g: (g.modified, g.name), reverse=True)


def delete_saved_game(path: str | Path) -> None:
    """Remove a record file (``OSError`` if it cannot be removed)."""
    path = Path(path)
    path.unlink()
    _HEADER_CACHE.pop(path, None)


# --- resuming --------------------------------------------------------------------------------------------------
@dataclass
class OpenedGame:
    """A saved game replayed to where it was left, ready to go on."""

    record: Record
    """The record read from the file."""
    game: Game
    """The game after every recorded action."""
    rewinder: Rewinder
    """Snapshots of the replay, for taking actions back."""
    scenario: str | dict[str, Any]
    """The scenario to record with: an absolute path, or the inline mapping."""
    kinds: list[str]
    """Terrain kinds of the scenario (for drawing)."""


def refusal(path: str | Path, problems: list[str], what: str = "resume") -> str:
    """The message shown when a file is refused: what was asked, the file, and every problem."""
    lines = [f"Cannot {what} {path}:"] + [f"  {p}" for p in problems]
    return "\n".join(lines)


def open_saved_game(path: str | Path) -> OpenedGame:
    """Read the record at ``path`` and replay it into a game to continue.

    Raises ``RecordError`` (its problems name the file) when the file cannot be read, is of another format
    version, its scenario cannot be loaded, or its replay breaks off (an illegal action, or an outcome that differs
    from the recorded one: such a game can still be watched up to there, not resumed). The file is never changed.
    """
    path = Path(path)
    record = load_record(path)
    try:
        scenario = scenario_of(record)
    except ScenarioError as e:
        raise RecordError([f"{path}:1: scenario: cannot be loaded"] + e.problems) from None
    except RecordError as e:
        raise RecordError([f"{path}:1: scenario: {p}" for p in e.problems]) from None
    check_ruleset(record, scenario)   # its own FILE:LINE: ruleset problem
    try:
        start = new_game(record, scenario)
    except ScenarioError as e:
        raise RecordError([f"{path}:1: scenario: cannot be loaded"] + e.problems) from None
    except RecordError as e:
        raise RecordError([f"{path}:1: scenario: {p}" for p in e.problems]) from None
    rewinder = Rewinder(start)
    game = start.clone()
    for i, action in enumerate(record.actions):
        try:
            game.apply(action)
        except Exception as e:  # noqa: BLE001 - an illegal action, dice run out, an engine error
            raise RecordError([f"{path}:1: actions[{i}]: action {i} ({action.type}) is illegal now: {e}; the game "
                               "can be watched up to there but not resumed"]) from None
        want = record.digests[i] if i < len(record.digests) else None
        if want is not None and game.digests[-1] != want:
            raise RecordError([f"{path}:1: actions[{i}]: action {i} ({action.type}) no longer gives the recorded "
                               "outcome (the rules changed since it was played); the game can be watched up to "
                               "there but not resumed"])
        rewinder.remember(game)
    ref: str | dict[str, Any] = record.scenario if isinstance(record.scenario, dict) \
        else str(record.scenario_path().resolve())
    return OpenedGame(record, game, rewinder, ref, list(scenario.terrain_kinds))
