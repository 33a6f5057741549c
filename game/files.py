"""Where the program keeps the user's files, and writing them atomically.

Saves and records go in the user's data folder (platformdirs; honours ``XDG_DATA_HOME``). A file is written to a
temporary file in the same folder, flushed and fsynced, then renamed over the old one, and the folder is
fsynced: a crash or a full disk never destroys the previous version.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import platformdirs

APP_NAME = "battle-regiments"


def user_data_dir() -> Path:
    """The folder for saves, records and lesson progress (created if missing)."""
    path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def scenarios_dir() -> Path:
    """Where the set-up writes the battles it builds (``user_data_dir()/scenarios``, created if missing)."""
    path = user_data_dir() / "scenarios"
    path.mkdir(parents=True, exist_ok=True)
    return path


def lists_dir() -> Path:
    """"My lists": where army lists are saved (``user_data_dir()/lists``, created if missing)."""
    path = user_data_dir() / "lists"
    path.mkdir(parents=True, exist_ok=True)
    return path


def imported_armies_dir() -> Path:
    """Where imported army files are written (``user_data_dir()/armies``, created if missing; the set-up offers
    them beside the shipped ones)."""
    path = user_data_dir() / "armies"
    path.mkdir(parents=True, exist_ok=True)
    return path


def records_dir() -> Path:
    """The folder where every game played in the window is recorded (created if missing)."""
    path = user_data_dir() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


class FileProblems(ValueError):
    """A file that cannot be used; ``problems`` lists every problem found as ``FILE:LINE: PATH: message``
    (LINE 1-based). The common base of the scenario, army list, record and lesson errors."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def slug(text: str, default: str = "battle") -> str:
    """``text`` as a file name: lower case letters, digits and dashes (``Border Battle!`` -> ``border-battle``)."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60] or default


def fresh_path(folder: Path, stem: str, stamp: str, suffix: str = ".yaml") -> Path:
    """``folder/<stem>-<stamp><suffix>``, or with ``-2``, ``-3``... added: a name no file has yet."""
    base = folder / f"{stem}-{stamp}"
    path = base.with_suffix(suffix)
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}{suffix}")
        n += 1
    return path


STALE_TEMP_SECONDS = 60.0
"""A temporary file of ``atomic_write_text`` this old was left by an interrupted save (a save takes
milliseconds)."""


def remove_stale_temp_files(folder: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove the temporary files (``.NAME.XXXX.tmp``) that interrupted saves left in ``folder`` (default: the
    user data folder and its records folder) and that are older than ``STALE_TEMP_SECONDS``. Returns what was
    removed; a file that cannot be removed is left (never raises ``OSError``)."""
    folders = [folder] if folder is not None else [user_data_dir(), records_dir()]
    now = time.time() if now is None else now
    removed = []
    for where in folders:
        try:
            candidates = list(where.glob(".*.tmp"))
        except OSError:
            continue
        for tmp in candidates:
            try:
                if tmp.is_file() and now - tmp.stat().st_mtime > STALE_TEMP_SECONDS:
                    tmp.unlink()
                    removed.append(tmp)
            except OSError:
                continue
    return removed


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically. Raises ``OSError``; the old file is then untouched."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
