"""Which lessons the player has finished, kept in the user's data folder as ``lessons.yaml``.

The file is written atomically (``game.files.atomic_write_text``): a crash never leaves half a file. It lives in
``game.files.user_data_dir()``, which honours ``XDG_DATA_HOME`` (tests point it at a temporary folder). A missing or
unreadable file counts as "no lesson done yet"; it is never an error.

```yaml
format: regiments-lessons/1
done: [01_moving, 02_shooting]
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from game.files import atomic_write_text, user_data_dir
from game.reader import peek_mapping

PROGRESS_FORMAT = "regiments-lessons/1"
"""The ``format`` value of the progress file."""
PROGRESS_FILE = "lessons.yaml"
"""Its name in the user's data folder."""


def progress_path() -> Path:
    """``user_data_dir() / "lessons.yaml"``."""
    return user_data_dir() / PROGRESS_FILE


RENAMED: dict[str, str] = {"09_free_play": "13_free_play", "10_free_play": "13_free_play",
                           "11_free_play": "13_free_play", "12_free_play": "13_free_play"}
"""Lesson ids that changed (lessons were inserted before free play): progress saved under the old id still counts."""


@dataclass
class Progress:
    """The lessons done; ``mark_done`` saves at once."""

    done: set[str] = field(default_factory=set)
    """Ids of the lessons finished (``01_moving``...)."""
    path: Path | None = None
    """Where it is saved; None: ``progress_path()`` at the time of saving."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> Progress:
        """Read the progress file (``progress_path()`` by default); missing or unreadable: nothing done."""
        where = Path(path) if path is not None else progress_path()
        done: set[str] = set()
        data = peek_mapping(where)
        if data.get("format") == PROGRESS_FORMAT and isinstance(data.get("done"), list):
            done = {RENAMED.get(str(x), str(x)) for x in data["done"] if isinstance(x, (str, int))}
        return cls(done, Path(path) if path is not None else None)

    def is_done(self, lesson_id: str) -> bool:
        """Whether the lesson was finished."""
        return lesson_id in self.done

    def mark_done(self, lesson_id: str) -> None:
        """Record the lesson as finished and save."""
        if lesson_id not in self.done:
            self.done.add(lesson_id)
            self.save()

    def forget(self, lesson_id: str | None = None) -> None:
        """Forget one lesson (or all with None) and save."""
        if lesson_id is None:
            self.done.clear()
        else:
            self.done.discard(lesson_id)
        self.save()

    def to_yaml(self) -> str:
        """The file's text."""
        return yaml.safe_dump({"format": PROGRESS_FORMAT, "done": sorted(self.done)}, sort_keys=False,
                              default_flow_style=None)

    def save(self) -> None:
        """Write the file atomically. Raises ``OSError`` (the old file is then untouched)."""
        atomic_write_text(self.path if self.path is not None else progress_path(), self.to_yaml())


__all__ = ["PROGRESS_FORMAT", "Progress", "progress_path"]
