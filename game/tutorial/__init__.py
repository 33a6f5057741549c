"""Guided lessons (``python main.py tutorial [LESSON]``): lesson files, the lesson runner, the player's progress.

Lessons are data (``scenarios/lessons/NN_name.yaml``, format ``regiments-lesson/1``, docs/formats.md "Lesson
file"); ``game.tutorial.runner.LessonRun`` plays one; ``list_lessons()`` lists them with the player's progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from game.limits import MAX_FILE_BYTES
from game.reader import FileRefused, peek_mapping, read_text
from game.tutorial.lesson import LESSON_FORMAT, LESSONS_DIR, Lesson, LessonError, load_lesson
from game.tutorial.progress import Progress
from game.tutorial.runner import LessonRun, Outcome, Verdict

_LESSON_NAME = re.compile(r"^\d\d_[A-Za-z0-9_-]+\.yaml$")
_STEP_LINE = re.compile(r"^  - id:", re.MULTILINE)
"""The first line of each step in a lesson file, as the shipped lessons write them."""


@dataclass(frozen=True)
class LessonInfo:
    """One lesson in the list."""

    id: str
    """Lesson id: the file name without ``.yaml`` (``01_moving``)."""
    title: str
    """Its title."""
    done: bool
    """The player finished it."""
    path: Path
    """The lesson file."""
    summary: str | None = None
    """One line: what it teaches."""
    steps: int | None = None
    """How many steps it has (None when the file cannot be read)."""
    free_play: bool = False
    """A free game against the computer (seeded dice, any legal action) rather than scripted steps."""


def lesson_files(directory: str | Path | None = None) -> list[Path]:
    """The lesson files (``NN_name.yaml``) of ``directory`` (default: the shipped lessons), in order."""
    folder = Path(directory) if directory is not None else LESSONS_DIR
    return sorted(p for p in folder.glob("*.yaml") if _LESSON_NAME.match(p.name))


def list_lessons(directory: str | Path | None = None, progress: Progress | None = None) -> list[LessonInfo]:
    """Every lesson with its title and whether the player finished it (``progress``, default: the saved one).

    Only the head of each file is read (a broken lesson is listed with its file name; opening it reports why)."""
    progress = progress if progress is not None else Progress.load()
    out = []
    for path in lesson_files(directory):
        title, summary = path.stem, None
        data = peek_mapping(path)
        steps, free = None, False
        if data.get("format") == LESSON_FORMAT:
            title = str(data.get("title") or title)
            summary = str(data["summary"]) if data.get("summary") else None
            free = "opponent" in data
            try:      # counted, not parsed: the list must come up at once (a lesson is checked when opened)
                steps = len(_STEP_LINE.findall(read_text(path, MAX_FILE_BYTES))) or None
            except FileRefused:
                steps = None
        out.append(LessonInfo(path.stem, title, progress.is_done(path.stem), path, summary, steps, free))
    return out


def find_lesson(name: str | Path, directory: str | Path | None = None) -> Path:
    """The lesson file ``name`` means: a path, a lesson id (``03_charging``), or its number (``3``, ``03``).

    Raises ``LookupError`` naming the lessons there are."""
    path = Path(name)
    if path.suffix == ".yaml" and path.exists():
        return path
    files = lesson_files(directory)
    text = str(name)
    for p in files:
        if p.stem == text:
            return p
    if text.isdigit():
        for p in files:
            if int(p.stem[:2]) == int(text):
                return p
    for p in files:
        if p.stem.split("_", 1)[-1] == text or p.stem.startswith(text):
            return p
    raise LookupError(f"no lesson {text!r}; lessons: {', '.join(p.stem for p in files)}")


__all__ = [
    "LESSONS_DIR", "Lesson", "LessonError", "LessonInfo", "LessonRun", "Outcome", "Progress", "Verdict",
    "find_lesson", "lesson_files", "list_lessons", "load_lesson",
]
