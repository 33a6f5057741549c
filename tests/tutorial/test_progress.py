"""Lesson progress: saved atomically as YAML in the user's data folder (XDG_DATA_HOME in tests)."""

from __future__ import annotations

import os

import pytest
import yaml

from game.tutorial.progress import PROGRESS_FORMAT, Progress, progress_path


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def test_progress_lives_in_the_user_data_folder(data_home):
    assert progress_path() == data_home / "battle-regiments" / "lessons.yaml"


def test_save_and_load(data_home):
    assert Progress.load().done == set()
    p = Progress.load()
    p.mark_done("02_shooting")
    p.mark_done("01_moving")
    data = yaml.safe_load(progress_path().read_text(encoding="utf-8"))
    assert data == {"format": PROGRESS_FORMAT, "done": ["01_moving", "02_shooting"]}
    again = Progress.load()
    assert again.done == {"01_moving", "02_shooting"} and again.is_done("01_moving")
    again.forget("01_moving")
    assert Progress.load().done == {"02_shooting"}
    again.forget()
    assert Progress.load().done == set()
    leftovers = [f for f in os.listdir(progress_path().parent) if f != "lessons.yaml"]
    assert leftovers == []


def test_a_failed_write_keeps_the_old_file(data_home, monkeypatch):
    p = Progress.load()
    p.mark_done("01_moving")
    before = progress_path().read_text(encoding="utf-8")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(os, "replace", boom)
        with pytest.raises(OSError):
            p.mark_done("02_shooting")
    assert progress_path().read_text(encoding="utf-8") == before
    assert [f for f in os.listdir(progress_path().parent) if f != "lessons.yaml"] == []


def test_unreadable_or_foreign_files_count_as_nothing_done(data_home):
    path = progress_path()
    for text in ("format: [", "just text", "format: other/1\ndone: [01_moving]\n", "\xff"):
        path.write_text(text, encoding="utf-8")
        assert Progress.load().done == set()


def test_explicit_path(tmp_path):
    where = tmp_path / "sub" / "mine.yaml"
    p = Progress(path=where)
    p.mark_done("03_charging")
    assert Progress.load(where).done == {"03_charging"}


def test_progress_saved_under_a_renamed_lesson_id_still_counts(tmp_path):
    from game.tutorial.progress import Progress
    path = tmp_path / "progress.yaml"
    path.write_text("format: regiments-lessons/1\ndone: [01_moving, 09_free_play]\n")
    progress = Progress.load(path)
    assert progress.is_done("13_free_play") and progress.is_done("01_moving")
    path.write_text("format: regiments-lessons/1\ndone: [12_free_play]\n")
    assert Progress.load(path).is_done("13_free_play")
