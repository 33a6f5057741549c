"""Running a lesson: the game, the current step, and the player's tries.

``LessonRun.try_action(action)`` is the only way the player acts in a lesson (the window routes every action
through it). The action is first applied to a clone of the game:

* illegal: the engine's rule message; nothing changes;
* legal but not what the step expects ("wrong"): the clone is thrown away, so the game is exactly as it was (undo
  by replay, never by hand-written reverse operations), and the step's hint is shown;
* expected ("accepted"): the clone becomes the game, the step's ``auto`` actions (the scripted opponent) are
  played, the computer opponent (if the lesson has one) answers its decisions, and the step's explanation is
  shown. The step advances because the ENGINE says the player did it, never because of a Next button.

Never trapping the player: every step has a ``solution`` that ``skip()`` plays, ``restart()`` starts the lesson
again, and the lesson keeps to its plan. The first time it is needed the run plays the lesson's own solutions once
(the "plan": the game at the start of every step, and every die rolled). When the player's action is accepted but
differs from the solution (a move that ends elsewhere in the marked zone...), the rest of the lesson is tried from
there with the solutions: if a later step became impossible, or the dice would be rolled for other purposes (so the
explanations would no longer be true), the step's own solution is played instead and the player is told why.

Free play (``expect: {type: any, until: ...}``) accepts every legal action; the computer opponent plays the other
side; the step ends when its turn, round or game is over.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from game.ai import LEVELS, SearchPlayer
from game.autoplay import Player
from game.engine.actions import Action
from game.engine.dice import Dice, Roll
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.movement import path_shape
from game.engine.state import GameState
from game.record import Record
from game.scenario import new_game_state
from game.state_file import state_to_dict
from game.tutorial.lesson import Area, Highlight, Lesson, Step, action_for, load_lesson
from game.tutorial.opponent import SimplePlayer
from game.tutorial.progress import Progress
from geometry.pose import Pose, bearing_difference

MAX_AUTOPLAY = 5000
"""Most actions the computer plays in one go (a guard against a game that never ends)."""


class LessonDice(Dice):
    """The lesson's dice: its fixed sequence, then (unless ``strict``) dice from a seeded generator.

    A lesson's sequence is exactly what its plan consumes; the generator only serves a player who went off the plan
    (the run then steers back to it). ``strict`` (for tests) raises ``DiceExhausted`` instead, like ``Dice``.
    """

    def __init__(self, seed: int | None = None, sequence: list[int] | None = None, *, fallback_seed: int = 0,
                 strict: bool = False) -> None:
        super().__init__(seed=seed, sequence=sequence)
        self.fallback_seed = fallback_seed
        """Seed of the dice rolled after the sequence ran out."""
        self.strict = strict
        """Raise when the sequence runs out."""
        self.off_plan = False
        """True once a die came from beyond the sequence."""

    def d6(self, count: int, purpose: str) -> list[int]:
        """Roll ``count`` D6 for ``purpose`` (see the class docstring)."""
        seq = self.sequence
        if seq is None or self.strict or count <= 0 or self.consumed + count <= len(seq):
            return super().d6(count, purpose)
        results = list(seq[self.consumed:])
        while len(results) < count:
            index = self.consumed + len(results)
            results.append(random.Random(f"{self.fallback_seed}:{index}").randint(1, 6))
        self.consumed += count
        self.rolls.append(Roll(purpose, tuple(results)))
        self.off_plan = True
        return results

    def clone(self) -> LessonDice:
        """An independent copy that rolls exactly what this one would roll next."""
        twin = LessonDice(self.seed, None if self.sequence is None else list(self.sequence),
                          fallback_seed=self.fallback_seed, strict=self.strict)
        if self._rng is not None:
            assert twin._rng is not None
            twin._rng.setstate(self._rng.getstate())
        twin.consumed = self.consumed
        twin.rolls = list(self.rolls)
        twin.off_plan = self.off_plan
        return twin


class Verdict(StrEnum):
    """What became of a try."""

    ACCEPTED = "accepted"
    """The step's expected action (or any legal action in free play): it stands."""
    WRONG = "wrong"
    """Legal, but not what the step asks: taken back, hint shown."""
    ILLEGAL = "illegal"
    """The rules do not allow it: the engine's message."""


@dataclass
class Outcome:
    """The result of ``try_action`` or ``skip``."""

    verdict: Verdict
    """Accepted, wrong or illegal."""
    messages: list[str] = field(default_factory=list)
    """What to tell the player, in order (rule message, explanation, hint, notes)."""
    events: list[Event] = field(default_factory=list)
    """Events of what now stands (accepted: the action, the opponent's answers...), or of the wrong try that was
    taken back (for the window to show before it puts things back)."""
    step_completed: bool = False
    """The step is done (the run moved to the next one)."""
    lesson_completed: bool = False
    """That was the last step."""
    rule: str | None = None
    """The rulebook section an illegal action breaks."""

    @property
    def accepted(self) -> bool:
        """The action was the one expected: it stands."""
        return self.verdict is Verdict.ACCEPTED

    @property
    def wrong(self) -> bool:
        """A legal action, but not the one asked for: it was taken back."""
        return self.verdict is Verdict.WRONG

    @property
    def illegal(self) -> bool:
        """The rules refused the action."""
        return self.verdict is Verdict.ILLEGAL


def state_digest(game: Game) -> str:
    """A digest of everything a player can see of the game (the state file's content), to compare positions."""
    data = state_to_dict(game)
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


class LessonRun:
    """One lesson being played (see the module docstring).

    ``lesson`` is a ``Lesson`` or the path of a lesson file. ``progress`` (optional) records the lesson as done
    when its last step is completed. ``strict_dice`` makes running out of the lesson's fixed dice an error (tests).
    """

    def __init__(self, lesson: Lesson | str | Path, progress: Progress | None = None, *,
                 strict_dice: bool = False) -> None:
        self.lesson: Lesson = lesson if isinstance(lesson, Lesson) else load_lesson(lesson)
        """The lesson."""
        self.progress = progress
        """Where finishing the lesson is recorded, if anywhere."""
        self.strict_dice = strict_dice
        self._start_state: GameState = new_game_state(self.lesson.scenario)
        steps = self.lesson.steps
        self._planned = next((i for i, s in enumerate(steps) if s.expect.is_any), len(steps))
        self._plan: list[Game] | None = None
        self.paced_opponent = False
        """The window plays the opponent's decisions of free play itself, one at a time at a pace the learner can
        follow (``opponent_acts``); otherwise they are played at once after each of the learner's actions."""
        self._pacing = False
        self._opponent = self._new_opponent()
        self.game: Game = self._fresh()
        """The lesson's game (replace, never mutate behind the run's back: use ``try_action``)."""
        self.step_index = 0
        """Index of the current step; ``len(lesson.steps)`` once finished."""
        self.hint_visible = False
        """True after a wrong try at the current step."""
        self.wrong_tries = 0
        """Wrong tries at the current step."""
        self.explanation: str | None = None
        """The explanation of the step just completed (shown until the next one is done)."""
        self._any_mark: tuple[int, int] | None = None
        self._enter_step()

    # --- what the window shows -----------------------------------------------------------------------------------
    @property
    def learner(self) -> int:
        """The player the learner plays."""
        return self.lesson.learner

    @property
    def finished(self) -> bool:
        """All steps are done."""
        return self.step_index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        """The current step, or None once finished."""
        return None if self.finished else self.lesson.steps[self.step_index]

    @property
    def step_number(self) -> int:
        """1-based number of the current step (the step count once finished)."""
        return min(self.step_index + 1, len(self.lesson.steps))

    @property
    def step_count(self) -> int:
        """How many steps the lesson has."""
        return len(self.lesson.steps)

    @property
    def text(self) -> str:
        """The current step's text (the lesson's outro once finished)."""
        step = self.step
        if step is None:
            return self.lesson.outro or "Lesson complete."
        return step.text

    @property
    def hint(self) -> str | None:
        """The current step's hint, once a wrong try made it visible (else None)."""
        step = self.step
        if step is None or not self.hint_visible:
            return None
        return step.hint or f"This step asks you to {self._describe(step)}."

    @property
    def expected(self) -> str:
        """What the current step expects, in plain words."""
        step = self.step
        return "" if step is None else self._describe(step)

    @property
    def highlights(self) -> Highlight:
        """What to point at now: the step's highlights, plus the zone a move must end in (``goal`` area) and, when
        the step names no units, the expected unit and target."""
        step = self.step
        if step is None:
            return Highlight()
        h = step.highlight
        areas = list(h.areas)
        e = step.expect
        if e.near is not None:
            areas.append(Area("circle", ((e.near.x, e.near.y),), e.near.within, "here", goal=True))
        units = list(h.units)
        if not units:
            for key in ("unit", "target"):
                v = e.fields.get(key)
                if isinstance(v, str) and v in self.game.state.units:
                    units.append(v)
        return Highlight(tuple(units), h.points, tuple(areas), h.buttons)

    @property
    def goal(self) -> tuple[str, Pose] | None:
        """For a move step: the unit and where the step's solution puts it (the window draws its outline there as
        the target), else None."""
        step = self.step
        if step is None or step.expect.type not in ("move", "consolidate") or isinstance(step.solution, str):
            return None
        try:
            action = self._solution_action(step, self.game)
        except ValueError:
            return None
        path = getattr(action, "path", ())
        unit = getattr(action, "unit", None)
        if not path or not isinstance(unit, str):
            return None
        end = path_shape(self.game.state.units[unit].pose or path[0], path).end
        return unit, end

    @property
    def waiting_for_learner(self) -> bool:
        """The engine waits for a decision of the learner (the window should let them act)."""
        p = self.game.pending
        return not self.finished and p is not None and p.player == self.learner

    def record(self) -> Record:
        """The lesson's game so far as a game record (``game.record``)."""
        return Record(str(self.lesson.scenario_path), dict(self.lesson.dice), list(self.game.history),
                      ruleset=self.game.state.ruleset)

    # --- acting --------------------------------------------------------------------------------------------------
    def try_action(self, action: Action) -> Outcome:
        """The player's action: accepted (it stands), wrong (taken back, hint) or illegal (the rule's message)."""
        step = self.step
        if step is None:
            return Outcome(Verdict.ILLEGAL, ["The lesson is over: restart it or choose another lesson."])
        if self.game.pending is None:
            return Outcome(Verdict.ILLEGAL, ["The game is over."])
        trial = self.game.clone()
        try:
            events = trial.apply(action)
        except IllegalAction as e:
            return Outcome(Verdict.ILLEGAL, [f"{e.rule}: {e.message}"], rule=e.rule)
        except Exception as e:  # a referee bug must not end the lesson; tests (strict) see it
            if self.strict_dice:
                raise
            return Outcome(Verdict.ILLEGAL, [f"The referee could not apply this action ({e}). Try another one, or "
                                             f"skip the step."])
        if step.expect.is_any:
            return self._free_play(trial, events)
        why = self._mismatch(step, action, trial)
        if why is not None:
            self.hint_visible = True
            self.wrong_tries += 1
            messages = [why + " It has been taken back."]
            if self.hint is not None:
                messages.append(self.hint)
            return Outcome(Verdict.WRONG, messages, events)
        on_solution = action == self._solution_action(step, self.game)
        return self._complete(step, trial, events, check_plan=not on_solution)

    def skip(self) -> Outcome:
        """Let the lesson do the current step (it plays the step's ``solution``)."""
        step = self.step
        if step is None:
            return Outcome(Verdict.ILLEGAL, ["The lesson is over: restart it or choose another lesson."])
        if step.expect.is_any:
            return self._free_play(self.game.clone(), [], autoplay_learner=True)
        trial = self.game.clone()
        try:
            events = trial.apply(self._solution_action(step, trial))
        except Exception:
            trial, events = self._planned_game(self.step_index + 1), []
            return self._finish_step(step, trial, events, ["The lesson put everything where it planned."])
        return self._complete(step, trial, events, check_plan=False, skipped=True)

    def restart(self) -> None:
        """Start the lesson again from its first step."""
        self._opponent = self._new_opponent()
        self.game = self._fresh()
        self.step_index = 0
        self.explanation = None
        self._enter_step()

    @property
    def opponent_to_play(self) -> bool:
        """True when a free-play step waits for the opponent and the window plays it (``paced_opponent``)."""
        step = self.step
        p = self.game.pending
        return (self.paced_opponent and step is not None and step.expect.is_any and p is not None
                and p.player != self.learner and self._opponent is not None)

    def opponent_acts(self, action: Action) -> Outcome:
        """One decision of the opponent in free play, chosen by the window's computer player: it stands, and the
        step ends when its turn, round or game is over. An illegal one is refused with the rule's message."""
        step = self.step
        if step is None or not step.expect.is_any:
            return Outcome(Verdict.ILLEGAL, ["The opponent plays only in free play."])
        trial = self.game.clone()
        try:
            events = trial.apply(action)
        except IllegalAction as e:
            return Outcome(Verdict.ILLEGAL, [f"{e.rule}: {e.message}"], rule=e.rule)
        self.game = trial
        if not self._reached(step, trial):
            return Outcome(Verdict.ACCEPTED, [], events)
        return self._finish_step(step, trial, events, [])

    # --- internals -----------------------------------------------------------------------------------------------
    def _new_opponent(self) -> Player | None:
        """The lesson's opponent: the simple player, or the computer opponent at the policy's level."""
        o = self.lesson.opponent
        if o is None:
            return None
        if o.policy == "simple":
            return SimplePlayer(o.seed)
        return SearchPlayer(o.seed, LEVELS[o.policy])

    def _dice(self) -> Dice:
        d = self.lesson.dice
        if "sequence" in d:
            return LessonDice(sequence=list(d["sequence"]), fallback_seed=len(d["sequence"]), strict=self.strict_dice)
        return LessonDice(seed=int(d["seed"]))

    def _fresh(self) -> Game:
        """A new game at the lesson's start: the scenario, the opening actions, the opponent's answers."""
        game = Game.start(self._start_state.clone(), self._dice())
        for i, raw in enumerate(self.lesson.opening):
            game.apply(action_for(raw, game.pending, f"opening[{i}]"))
        self._run_opponent(game)
        return game

    def _enter_step(self) -> None:
        self.hint_visible = False
        self.wrong_tries = 0
        s = self.game.state
        self._any_mark = (s.round, s.active_player)

    def _describe(self, step: Step) -> str:
        return step.expect.describe({u.id: u.profile.name for u in self.game.state.units.values()})

    def _solution_action(self, step: Step, game: Game) -> Action:
        """The step's solution as an action for ``game`` (scripted steps only: free play has none)."""
        if isinstance(step.solution, str) or not step.solution:
            raise ValueError(f"step {step.id} is free play: it has no solution action")
        return action_for(step.solution[0], game.pending, f"{step.id}.solution")

    def _mismatch(self, step: Step, action: Action, after: Game) -> str | None:
        """Why a legal action is not the one the step expects, or None if it is."""
        e = step.expect
        if not e.matches_action(action):
            return f"That is allowed, but this step asks you to {self._describe(step)}."
        if e.near is None and e.facing is None:
            return None
        unit = after.state.units.get(getattr(action, "unit", ""))
        if unit is None or unit.pose is None:
            return None
        pose = unit.pose
        if e.near is not None:
            d = math.hypot(pose.x - e.near.x, pose.y - e.near.y)
            if d > e.near.within + 1e-6:
                return (f"{unit.name} would end {d:.1f}\" from the marked spot; this step asks it to end within "
                        f"{e.near.within:g}\" of it.")
        if e.facing is not None:
            off = abs(bearing_difference(pose.facing, e.facing.value))
            if off > e.facing.within + 1e-6:
                return (f"{unit.name} would end facing {pose.facing:.0f}°; this step asks it to face "
                        f"{e.facing.value:g}° (give or take {e.facing.within:g}°).")
        return None

    def _play_auto(self, game: Game, step: Step) -> list[Event]:
        events: list[Event] = []
        for i, raw in enumerate(step.auto):
            events += game.apply(action_for(raw, game.pending, f"{step.id}.auto[{i}]"))
        return events + self._run_opponent(game)

    def _run_opponent(self, game: Game) -> list[Event]:
        """The computer opponent answers every decision of the other player."""
        events: list[Event] = []
        player = self._opponent
        if player is None or self._pacing:
            return events
        for _ in range(MAX_AUTOPLAY):
            p = game.pending
            if p is None or p.player == self.learner:
                return events
            events += game.apply(player.choose(game))
        raise RuntimeError("the computer opponent did not finish its turn")

    def _complete(self, step: Step, trial: Game, events: list[Event], *, check_plan: bool,
                  skipped: bool = False) -> Outcome:
        """The step's action stands in ``trial``: play its autos, keep to the plan, move to the next step."""
        notes: list[str] = []
        before = self.game
        try:
            events = events + self._play_auto(trial, step)
            ok = not check_plan or self._on_plan(trial, self.step_index + 1)
        except Exception:
            ok = False
        if not ok:
            # The player's version derails the lesson: play the step's own solution from where the game was.
            trial = before.clone()
            try:
                events = trial.apply(self._solution_action(step, trial))
                events += self._play_auto(trial, step)
            except Exception:
                trial, events = self._planned_game(self.step_index + 1), []
            notes.append("Well done. To keep the lesson as planned, the lesson made the move its own way: "
                         "a different spot would change what happens next.")
        if skipped:
            notes.insert(0, f"Skipped: the lesson did it for you ({self._describe(step)}).")
        return self._finish_step(step, trial, events, notes)

    def _finish_step(self, step: Step, game: Game, events: list[Event], notes: list[str]) -> Outcome:
        self.game = game
        self.explanation = step.explain
        messages = list(notes)
        if step.explain:
            messages.append(step.explain)
        self.step_index += 1
        self._enter_step()
        self._complete_free_steps()
        done = self.finished
        if done:
            if self.progress is not None:
                self.progress.mark_done(self.lesson.id)
            if self.lesson.outro:
                messages.append(self.lesson.outro)
        return Outcome(Verdict.ACCEPTED, messages, events, step_completed=True, lesson_completed=done)

    def _free_play(self, trial: Game, events: list[Event], autoplay_learner: bool = False) -> Outcome:
        """An ``any`` step: the action stands; the opponent answers; the step ends with its turn/round/game."""
        step = self.step
        assert step is not None
        learner_player = SimplePlayer(self.lesson.opponent.seed if self.lesson.opponent else 1)
        self._pacing = self.paced_opponent and not autoplay_learner     # the window plays the opponent then
        try:
            for _ in range(MAX_AUTOPLAY):
                events = events + self._run_opponent(trial)
                if self._reached(step, trial) or not autoplay_learner:
                    break
                events = events + trial.apply(learner_player.choose(trial))
        finally:
            self._pacing = False
        self.game = trial
        if not self._reached(step, trial):
            return Outcome(Verdict.ACCEPTED, [], events)
        notes = [f"Skipped: the computer played for you ({self._describe(step)})."] if autoplay_learner else []
        return self._finish_step(step, trial, events, notes)

    def _reached(self, step: Step, game: Game) -> bool:
        s = game.state
        if game.pending is None or s.game_over:
            return True
        mark = self._any_mark or (s.round, s.active_player)
        until = step.expect.until
        if until == "round_end":
            return s.round != mark[0]
        if until == "turn_end":
            return (s.round, s.active_player) != mark
        return False

    def _complete_free_steps(self) -> None:
        """Free-play steps whose end has come already (the game is over) are done at once."""
        while not self.finished:
            step = self.step
            assert step is not None
            if not (step.expect.is_any and (self.game.pending is None or self.game.state.game_over)):
                return
            self.step_index += 1
            self._enter_step()

    # --- the plan --------------------------------------------------------------------------------------------------
    def _plan_games(self) -> list[Game]:
        """The game at the start of each planned step (and after the last), following the lesson's solutions."""
        if self._plan is None:
            game = self._fresh()
            plan = [game.clone()]
            for step in self.lesson.steps[:self._planned]:
                game.apply(self._solution_action(step, game))
                self._play_auto(game, step)
                plan.append(game.clone())
            self._plan = plan
        return self._plan

    def _planned_game(self, index: int) -> Game:
        plan = self._plan_games()
        return plan[min(index, len(plan) - 1)].clone()

    def _on_plan(self, game: Game, index: int) -> bool:
        """Whether the lesson's solutions from step ``index`` on still work from ``game`` and roll the planned dice
        for the planned purposes."""
        if index > self._planned:
            return True
        plan = self._plan_games()
        sim = game.clone()
        try:
            for step in self.lesson.steps[index:self._planned]:
                sim.apply(self._solution_action(step, sim))
                self._play_auto(sim, step)
        except Exception:
            return False
        final = plan[-1]
        return _rolls(sim.dice.rolls) == _rolls(final.dice.rolls) and sim.dice.consumed == final.dice.consumed


def _rolls(rolls: list[Roll]) -> list[tuple[str, tuple[int, ...]]]:
    return [(r.purpose, tuple(r.dice)) for r in rolls]


__all__ = ["LessonDice", "LessonRun", "Outcome", "Verdict", "state_digest"]
