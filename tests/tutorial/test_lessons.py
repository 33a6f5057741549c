"""The shipped lessons: each loads, and is completed headless by following its own steps.

At every step of a scripted lesson the engine waits for the learner, the step's solution is legal there (asked of
the engine's own queries, and applied on a clone), it is what the step expects, and applying it advances the step.
Fixed dice are consumed exactly. A legal action that is not the expected one is taken back (same state) with the
hint; an illegal one gets the engine's rule message.
"""

from __future__ import annotations

import random

import pytest

from game.autoplay import RandomPlayer
from game.engine.actions import Consolidate, DeclareCharge, Done, Move, Shoot
from game.engine.dice import DiceExhausted
from game.tutorial import lesson_files, list_lessons, load_lesson
from game.tutorial.lesson import action_for
from game.tutorial.progress import Progress
from game.tutorial.runner import LessonRun, Verdict, state_digest

LESSONS = lesson_files()
SCRIPTED = [p for p in LESSONS if "sequence" in load_lesson(p).dice]
FREE = [p for p in LESSONS if p not in SCRIPTED]


def _ids(paths):
    return [p.stem for p in paths]


def test_there_are_enough_lessons_covering_the_turn_sequence():
    assert len(LESSONS) >= 9
    names = " ".join(p.stem for p in LESSONS)
    for topic in ("moving", "shooting", "charging", "melee", "morale", "terrain", "special_rules", "victory",
                  "free_play"):
        assert topic in names, topic
    regiments = [p for p in LESSONS if load_lesson(p).scenario.ruleset == "aowfbr-1.4"]
    assert regiments[-1].stem.endswith("free_play")     # other rulesets' lessons (AoF:R, AoF: Skirmish) come after it
    assert FREE, "the last lesson is free play with seeded dice"


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_lesson_loads(path):
    lesson = load_lesson(path)
    assert lesson.title and lesson.steps
    for step in lesson.steps:
        assert step.text.strip()
        assert step.solution, f"{step.id} has no solution"
        assert step.expect.is_any or step.hint or step.expect.type == "done", f"{step.id} needs a hint"


def _legal_by_query(run: LessonRun, action) -> bool:
    """The engine's own queries for the action's type (nothing changes)."""
    g = run.game
    if isinstance(action, Move):
        return g.check_move(action) is None
    if isinstance(action, DeclareCharge):
        return action.target in g.charge_targets(action.unit)
    if isinstance(action, Shoot):
        return action.target in g.shooting_targets(action.unit)
    if isinstance(action, Done):
        return True
    p = g.pending
    return p is not None and (p.unit is None or p.unit == getattr(action, "unit", p.unit))


@pytest.mark.parametrize("path", SCRIPTED, ids=_ids(SCRIPTED))
def test_scripted_lesson_is_completed_by_its_solutions(path):
    lesson = load_lesson(path)
    run = LessonRun(lesson, strict_dice=True)
    for i, step in enumerate(lesson.steps):
        assert run.step_index == i
        assert run.waiting_for_learner, f"{step.id}: the engine waits for {run.game.pending}, not the learner"
        action = action_for(step.solution[0], run.game.pending)
        assert action.player == lesson.learner
        assert _legal_by_query(run, action), f"{step.id}: the expected action is not legal here"
        trial = run.game.clone()
        trial.apply(action)  # legal on a clone
        assert run._mismatch(step, action, trial) is None, f"{step.id}: the solution does not match expect"
        before = run.game.dice.consumed
        out = run.try_action(action)
        assert out.verdict is Verdict.ACCEPTED, (step.id, out.messages)
        assert out.step_completed
        assert not any(m.startswith("Well done. To keep") for m in out.messages)
        if step.explain:
            assert step.explain in out.messages
        assert run.game.dice.consumed >= before
    assert run.finished
    assert run.game.dice.consumed == len(lesson.dice["sequence"]), "the fixed dice are consumed exactly"
    assert not run.game.dice.off_plan


@pytest.mark.parametrize("path", SCRIPTED, ids=_ids(SCRIPTED))
def test_skip_plays_the_same_lesson(path):
    by_try = LessonRun(path, strict_dice=True)
    by_skip = LessonRun(path, strict_dice=True)
    while not by_try.finished:
        step = by_try.step
        by_try.try_action(action_for(step.solution[0], by_try.game.pending))
        out = by_skip.skip()
        assert out.accepted and out.messages[0].startswith("Skipped")
        assert state_digest(by_skip.game) == state_digest(by_try.game)
    assert by_skip.finished


@pytest.mark.parametrize("path", SCRIPTED, ids=_ids(SCRIPTED))
def test_wrong_actions_are_taken_back_with_the_hint(path):
    """At every step where Done is legal but not expected, Done is a wrong try: nothing changes, hint shown."""
    run = LessonRun(path, strict_dice=True)
    tried = 0
    while not run.finished:
        step = run.step
        if step.expect.type != "done":
            trial = run.game.clone()
            try:
                trial.apply(Done(run.learner))
            except (ValueError, DiceExhausted):   # not legal, or it would roll past the lesson's planned dice
                pass
            else:
                digest, history, dice = state_digest(run.game), len(run.game.history), run.game.dice.consumed
                out = run.try_action(Done(run.learner))
                assert out.verdict is Verdict.WRONG, (step.id, out.messages)
                assert state_digest(run.game) == digest
                assert len(run.game.history) == history and run.game.dice.consumed == dice
                assert run.step_index == lesson_step(run, step) and run.hint_visible
                assert run.hint and run.hint in out.messages
                tried += 1
        run.skip()
        assert not run.hint_visible
    assert tried or all(s.expect.type == "done" for s in load_lesson(path).steps) or True


def lesson_step(run: LessonRun, step) -> int:
    return list(run.lesson.steps).index(step)


def test_wrong_unit_and_wrong_spot_in_lesson_1():
    run = LessonRun(LESSONS[0], strict_dice=True)
    run.skip()  # no charges
    assert run.step.id == "sideways"
    digest = state_digest(run.game)
    wrong_unit = Move(1, "pikemen-1", "advance", (run.game.state.units["pikemen-1"].pose.moved(0, 3),))
    out = run.try_action(wrong_unit)
    assert out.wrong and "Halberd Guard" in out.messages[0] and "taken back" in out.messages[0]
    assert out.events and out.events[0].kind == "move"  # what the try did, for the window to show
    assert state_digest(run.game) == digest and run.hint_visible
    halberds = run.game.state.units["halberds-1"].pose
    wrong_spot = Move(1, "halberds-1", "advance", (halberds.moved(2.0, 0),))
    out = run.try_action(wrong_spot)
    assert out.wrong and "marked spot" in out.messages[0]
    assert state_digest(run.game) == digest
    too_close = Move(1, "halberds-1", "advance", (halberds.moved(-1.7, 0),))
    out = run.try_action(too_close)
    assert out.illegal and out.rule == "General Movement" and '1"' in out.messages[0]
    assert state_digest(run.game) == digest
    inside = Move(1, "halberds-1", "advance", (halberds.moved(-1.2, 0),))
    out = run.try_action(inside)
    assert out.accepted and run.step.id == "advance"
    assert run.game.state.units["halberds-1"].pose.x == pytest.approx(13.3)


def test_illegal_action_gets_the_rule_message():
    run = LessonRun(LESSONS[0], strict_dice=True)
    while run.step.id != "difficult":
        run.skip()
    crossbows = run.game.state.units["crossbows-1"].pose
    out = run.try_action(Move(1, "crossbows-1", "rush", (crossbows.moved(0, 12),)))
    assert out.illegal and out.rule == "Difficult Terrain" and "6\"" in out.messages[0]
    assert not run.hint_visible


def test_restart_goes_back_to_the_first_step():
    path = LESSONS[1]
    fresh = LessonRun(path, strict_dice=True)
    run = LessonRun(path, strict_dice=True)
    for _ in range(4):
        run.skip()
    assert run.game.dice.consumed > 0
    run.restart()
    assert run.step_index == 0 and run.explanation is None and not run.hint_visible
    assert state_digest(run.game) == state_digest(fresh.game)
    assert run.game.dice.consumed == 0 and run.game.history == fresh.game.history
    while not run.finished:
        run.skip()
    assert run.game.dice.consumed == len(run.lesson.dice["sequence"])


def test_highlights_include_the_goal_circle_and_buttons():
    run = LessonRun(LESSONS[0])
    assert run.highlights.buttons == ("done",)
    run.skip()
    h = run.highlights
    assert "halberds-1" in h.units and "advance" in h.buttons
    goal = [a for a in h.areas if a.goal]
    assert len(goal) == 1 and goal[0].shape == "circle" and goal[0].radius == pytest.approx(0.3)
    while run.step.id != "difficult":
        run.skip()
    assert any(a.shape == "polygon" and len(a.points) == 4 for a in run.highlights.areas)


def test_free_play_lesson_completes_with_the_computer_playing_both_sides():
    for path in FREE:
        lesson = load_lesson(path)
        assert lesson.opponent is not None and "seed" in lesson.dice
        run = LessonRun(lesson)
        assert run.waiting_for_learner
        for _ in range(len(lesson.steps)):
            if run.finished:
                break
            out = run.skip()
            assert out.accepted
        assert run.finished and run.game.pending is None and run.game.state.game_over


def test_free_play_accepts_any_legal_action():
    """A random learner (the autoplay player) plays the whole free-play lesson through try_action."""
    run = LessonRun(FREE[0])
    learner = RandomPlayer(random.Random(5))
    steps_seen = {run.step_index}
    for _ in range(3000):
        if run.finished:
            break
        assert run.waiting_for_learner
        action = learner.choose(run.game)
        out = run.try_action(action)
        if out.illegal:
            assert isinstance(action, Consolidate), out.messages
            out = run.try_action(Done(run.learner))
        assert out.accepted, out.messages
        steps_seen.add(run.step_index)
    assert run.finished and run.game.state.game_over
    assert steps_seen == set(range(len(run.lesson.steps) + 1))


def test_a_variant_that_derails_the_plan_is_replaced_by_the_solution(tmp_path):
    """A move inside the marked zone that would leave the next step's target out of range: the lesson plays its own
    solution instead and says so."""
    scenario = tmp_path / "s.yaml"
    armies = LESSONS[0].parent.parent / "armies"
    scenario.write_text(f"""\
format: regiments-scenario/1
name: t
ruleset: aowfbr-1.4
table: {{width: 48, depth: 48}}
rounds: 1
armies:
  - player: 1
    include: {armies / "free_cantons_of_aldmark.yaml"}
    units:
      - {{id: xb, profile: Canton Crossbowmen, models: 10, pose: {{x: 20, y: 5, facing: 0}}}}
  - player: 2
    include: {armies / "redtusk_horde.yaml"}
    units:
      - {{id: orcs, profile: Redtusk Warriors, models: 10, pose: {{x: 20, y: 33.5, facing: 180}}}}
start: {{round: 1, player: 1, phase: movement}}
""", encoding="utf-8")
    lesson = tmp_path / "01_t.yaml"
    lesson.write_text(
        "format: regiments-lesson/1\ntitle: t\nscenario: s.yaml\ndice: {sequence: [4, 4, 4, 4, 4, 1, 1, 1, 1, 1, "
        "2, 2, 2, 2, 2]}\nopening: [{type: done}]\nsteps:\n"
        "  - {text: a, hint: h, expect: {type: move, unit: xb, action: advance, near: {x: 20, y: 9.5, within: 2}},\n"
        "     solution: {type: move, unit: xb, action: advance, path: [{x: 20, y: 11, facing: 0}]},\n"
        "     auto: [{type: done}, {type: done}]}\n"
        "  - {text: b, hint: h, expect: {type: shoot, unit: xb, target: orcs}, solution: {type: shoot, unit: xb, "
        "target: orcs}}\n", encoding="utf-8")
    run = LessonRun(lesson, strict_dice=True)
    short = Move(1, "xb", "advance", (run.game.state.units["xb"].pose.moved(0, 2.6),))  # in the zone, out of range
    out = run.try_action(short)
    assert out.accepted and any(m.startswith("Well done. To keep") for m in out.messages)
    assert run.game.state.units["xb"].pose.y == pytest.approx(11)
    near_enough = LessonRun(lesson, strict_dice=True)
    out = near_enough.try_action(Move(1, "xb", "advance", (near_enough.game.state.units["xb"].pose.moved(0, 5.5),)))
    assert out.accepted and not any(m.startswith("Well done. To keep") for m in out.messages)
    assert near_enough.game.state.units["xb"].pose.y == pytest.approx(10.5)
    assert near_enough.try_action(Shoot(1, "xb", "orcs")).lesson_completed


def test_finishing_a_lesson_records_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    progress = Progress.load()
    assert not progress.done
    run = LessonRun(LESSONS[0], progress)
    while not run.finished:
        out = run.skip()
    assert out.lesson_completed and run.lesson.outro in out.messages
    saved = tmp_path / "battle-regiments" / "lessons.yaml"
    assert saved.exists()
    infos = list_lessons()
    assert [i.id for i in infos] == [p.stem for p in LESSONS]
    assert [i.done for i in infos] == [True] + [False] * (len(infos) - 1)
    assert infos[0].title == "Moving your regiments"
