"""Recording games played in the window: each game is a game record in the user's data folder.

The record is rewritten atomically after every action, so the last good copy survives a crash.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from game.engine.game import Game
from game.files import records_dir
from game.record import Record, save_record

PROGRAM_VERSION = "0.1.0"
"""Written into every record as ``program``."""


def new_record_path(scenario_path: str | Path, when: datetime | None = None) -> Path:
    """A fresh file name in the records folder: ``<scenario>-<UTC date and time>.yaml`` (never an existing file)."""
    when = when or datetime.now(timezone.utc)
    stem = Path(scenario_path).stem
    base = records_dir() / f"{stem}-{when.strftime('%Y%m%d-%H%M%S')}"
    path = base.with_suffix(".yaml")
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}.yaml")
        n += 1
    return path


def record_of(game: Game, scenario_path: str | Path, record_path: str | Path) -> Record:
    """The game record of ``game``; the scenario is referred to relative to the record's folder."""
    scenario = Path(scenario_path).resolve()
    folder = Path(record_path).resolve().parent
    ref = os.path.relpath(scenario, folder)
    s = game.state
    extra = {
        "program": f"battle-regiments {PROGRAM_VERSION}",
        "result": {
            "round": s.round,
            "game_over": s.game_over,
            "victory_points": {str(k): v for k, v in game.victory_points().items()},
        },
    }
    return Record(ref, game.dice.to_record(), list(game.history), Path(record_path), extra, list(game.digests))


def save_game(game: Game, scenario_path: str | Path, record_path: str | Path) -> Path:
    """Write the record of ``game`` to ``record_path`` atomically and return the path."""
    path = Path(record_path)
    save_record(path, record_of(game, scenario_path, path))
    return path
