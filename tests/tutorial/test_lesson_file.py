"""Lesson files: a malformed lesson names the file, the line and the field; list and find lessons."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.tutorial import find_lesson, lesson_files, list_lessons
from game.tutorial.lesson import LESSONS_DIR, LessonError, check_lesson_file, load_lesson
from game.tutorial.progress import Progress

SCENARIO = LESSONS_DIR / "scenarios" / "01_moving.yaml"


def _write(tmp_path: Path, text: str, name: str = "01_bad.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text.replace("SCENARIO", str(SCENARIO)), encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(LessonError) as err:
        load_lesson(path)
    assert err.value.problems == check_lesson_file(path)
    return err.value.problems


GOOD = """\
format: regiments-lesson/1
title: A lesson
scenario: SCENARIO
dice: {sequence: []}
steps:
  - text: Press Done.
    expect: {type: done}
    solution: {type: done}
"""


def test_a_good_file_loads(tmp_path):
    lesson = load_lesson(_write(tmp_path, GOOD))
    assert lesson.id == "01_bad" and lesson.title == "A lesson" and lesson.learner == 1
    assert lesson.steps[0].id == "step-1" and lesson.steps[0].expect.type == "done"
    assert check_lesson_file(_write(tmp_path, GOOD)) == []


def test_problems_name_file_line_and_field(tmp_path):
    path = _write(tmp_path, """\
format: regiments-lesson/1
title: A lesson
scenario: SCENARIO
dice: {sequence: [1, 7]}
steps:
  - text: Move.
    expect: {type: move, unit: nobody-1, action: advance, near: {x: 1, y: 2}}
    solution: {type: move, unit: pikemen-1, action: advance, path: [{x: 8, y: 11, facing: 0}]}
    colour: red
  - text: Charge.
    expect: {type: fly, unit: pikemen-1}
    solution: {type: done}
  - text: Done.
    highlight: {buttons: [dance]}
    expect: {type: done}
""")
    problems = _problems(path)
    name = str(path)
    expected = [
        f"{name}:4: dice.sequence[1]: a die shows 1 to 6, got 7",
        f"{name}:9: steps[0].colour: unknown key",
        f"{name}:7: steps[0].expect.unit: no unit 'nobody-1' in the lesson's scenario",
        f"{name}:7: steps[0].expect.near: must be {{x, y, within}} in inches",
        f"{name}:11: steps[1].expect.type: unknown action type 'fly'",
        f"{name}:14: steps[2].highlight.buttons[0]: unknown button 'dance'",
        f"{name}:13: steps[2].solution: missing (required)",
    ]
    for want in expected:
        assert any(p.startswith(want) for p in problems), (want, problems)


def test_a_solution_must_do_what_the_step_expects(tmp_path):
    path = _write(tmp_path, GOOD.replace("solution: {type: done}",
                                         "solution: {type: move, unit: pikemen-1, action: hold, path: []}"))
    problems = _problems(path)
    assert problems == [f"{path}:8: steps[0].solution: does not do what the step expects (press Done)"]


def test_bad_action_fields_and_units_in_auto(tmp_path):
    path = _write(tmp_path, GOOD + "    auto:\n      - {type: declare_charge, unit: pikemen-1}\n"
                                  "      - {type: shoot, unit: pikemen-1, target: ghost}\n")
    problems = _problems(path)
    assert any(p.startswith(f"{path}:10: steps[0].auto[0].target: missing") for p in problems), problems
    assert any(p.startswith(f"{path}:11: steps[0].auto[1].target: no unit 'ghost'") for p in problems), problems


def test_missing_scenario_and_yaml_errors(tmp_path):
    path = _write(tmp_path, GOOD.replace("scenario: SCENARIO", "scenario: nowhere.yaml"))
    assert _problems(path) == [f"{path}:3: scenario: no such scenario file {tmp_path / 'nowhere.yaml'}"]
    path = _write(tmp_path, GOOD + "  - text: [unclosed\n")
    problems = _problems(path)
    assert len(problems) == 1 and problems[0].startswith(f"{path}:10: (yaml): not valid YAML")
    path = _write(tmp_path, GOOD.replace("format: regiments-lesson/1", "format: regiments-lesson/9"))
    assert _problems(path)[0].startswith(f"{path}:1: format: must be regiments-lesson/1")


def test_scenario_problems_are_reported_with_the_scenario_file(tmp_path):
    bad = tmp_path / "bad_scenario.yaml"
    bad.write_text("format: regiments-scenario/1\nname: x\nruleset: aowfbr-1.4\narmies: []\nrounds: 0\n",
                   encoding="utf-8")
    path = _write(tmp_path, GOOD.replace("scenario: SCENARIO", "scenario: bad_scenario.yaml"))
    problems = _problems(path)
    assert problems[0].startswith(f"{path}:3: scenario: the scenario")
    assert any(p.startswith(f"{bad}:5: rounds") for p in problems), problems


def test_any_steps_need_an_opponent_and_policy_solution(tmp_path):
    path = _write(tmp_path, GOOD.replace("expect: {type: done}", "expect: {type: any, until: round_end}"))
    problems = _problems(path)
    assert any(": steps[0].solution: an any step's solution must be 'policy'" in p for p in problems), problems
    assert any(": opponent: a lesson with any steps needs an opponent" in p for p in problems), problems
    path = _write(tmp_path, GOOD.replace("expect: {type: done}", "expect: {type: any, until: never}"))
    assert any("steps[0].expect.until: must be one of turn_end, round_end, game_end" in p for p in _problems(path))


def test_every_shipped_lesson_file_is_valid():
    for path in lesson_files():
        assert check_lesson_file(path) == [], path


def test_find_lesson_by_number_id_and_name():
    files = lesson_files()
    assert find_lesson("3") == files[2] == find_lesson("03") == find_lesson(files[2].stem)
    assert find_lesson("moving") == files[0]
    assert find_lesson(str(files[1])) == files[1]
    with pytest.raises(LookupError, match="01_moving"):
        find_lesson("no-such-lesson")


def test_list_lessons_reads_titles_and_progress(tmp_path):
    progress = Progress({"02_shooting"}, tmp_path / "p.yaml")
    infos = list_lessons(progress=progress)
    assert len(infos) == len(lesson_files()) >= 9
    assert [i.done for i in infos[:3]] == [False, True, False]
    assert all(i.title and not i.title.endswith(".yaml") for i in infos)
    broken = tmp_path / "lessons"
    broken.mkdir()
    (broken / "01_broken.yaml").write_text("format: [", encoding="utf-8")
    (broken / "notes.yaml").write_text("not a lesson", encoding="utf-8")
    assert [(i.id, i.title) for i in list_lessons(broken, progress)] == [("01_broken", "01_broken")]
