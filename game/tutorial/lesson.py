"""Lesson files (``format: regiments-lesson/1``; docs/formats.md "Lesson file"): loading and validation.

A lesson is an ordinary scenario (which may start at any phase with ``start:``), a dice source (a fixed sequence so
the lesson goes as planned, or a seed for free play), and a list of steps. Each step says what to do and why
(``text``), what to point at (``highlight``), which action completes it (``expect``), the action that does it
(``solution``, played by "skip" and by the tests), what the scripted opponent plays afterwards (``auto``) and what
to tell the player once the engine has resolved it (``explain``). Tutorials in the manner of Battle for Wesnoth:
ordinary scenarios plus event handlers, never a Next button the engine did not agree with.

A bad file is refused with every problem found, each ``FILE:LINE: PATH: message`` like the scenario loader
(``game.scenario``), whose YAML-with-marks helpers are reused here.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from game.engine.actions import ACTION_TYPES, Action, ActionFormatError, action_from_dict, show_value
from game.engine.state import Pending
from game.files import FileProblems
from game.limits import MAX_LESSON_STEPS
from game.reader import YamlFile
from game.scenario import Scenario, ScenarioError, load_scenario
from game.scenario.fields import Int, Number, Text
from game.scenario.models import _Model
from game.scenario.validation import _field, _validate
from game.scenario.yaml_doc import _display, _Doc, _Problem, _read_yaml

LESSON_FORMAT = "regiments-lesson/1"
"""The ``format`` value of a lesson file."""

LESSONS_DIR = Path(__file__).resolve().parents[2] / "scenarios" / "lessons"
"""Where the shipped lessons live (``NN_name.yaml``; their scenarios are in ``scenarios/`` below it)."""

UNTIL = ("turn_end", "round_end", "game_end")
"""Conditions that end an ``any`` step: the player turn, the round, or the game is over."""

SPECIAL_EXPECT_KEYS = {"type", "player", "near", "facing", "until"}
"""Keys of ``expect`` that are not fields of the action."""

KNOWN_BUTTONS = frozenset({
    "done", "hold", "advance", "rush", "charge", "shoot", "confirm", "cancel", "reset", "measure", "fit", "turn",
    "run_down", "redirect", "pursue", "no_pursue", "follow_up", "stay", "next_unit", "restart", "skip", "hint",
    "artillery_skip",
})
"""Button names a step may highlight; names with a prefix (``react:hold``, ``weapon:Longbow``, ``spell:NAME``) name
a button of one choice."""
BUTTON_PREFIXES = ("react:", "weapon:", "spell:", "dispel:", "roll_charge:")

OPPONENT_POLICIES = ("simple", "ai-easy", "ai", "ai-hard")
"""Opponent policies: ``simple`` (``game.tutorial.opponent``), or the computer opponent at a level
(``game.ai.LEVELS``: a thinking opponent, for a lesson whose scenario wants one)."""

POLICY = "policy"
"""The ``solution`` of an ``any`` step: the opponent's policy plays the learner's side until the step ends."""


class LessonError(FileProblems):
    """A lesson file that cannot be used; ``problems`` lists each as ``FILE:LINE: PATH: message``."""


# ---------------------------------------------------------------------------------------------------------------
# The lesson in memory
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TablePoint:
    """A point of the table to mark, inches."""

    x: float
    y: float
    label: str | None = None
    """Short text drawn next to it."""


@dataclass(frozen=True)
class Area:
    """An area of the table to draw: a circle, or a polygon (a ``rect`` is stored as its four corners)."""

    shape: str
    """``circle`` or ``polygon``."""
    points: tuple[tuple[float, float], ...]
    """The centre (circle) or the corners in order (polygon), inches."""
    radius: float = 0.0
    """Circle radius, inches."""
    label: str | None = None
    """Short text drawn with it."""
    goal: bool = False
    """True for the end zone of an expected move (``expect.near``), drawn as the target."""


@dataclass(frozen=True)
class Highlight:
    """What the window points at during a step."""

    units: tuple[str, ...] = ()
    """Unit ids to outline."""
    points: tuple[TablePoint, ...] = ()
    """Table points to mark."""
    areas: tuple[Area, ...] = ()
    """Table areas to draw."""
    buttons: tuple[str, ...] = ()
    """Buttons to pulse, by name (``KNOWN_BUTTONS``)."""


@dataclass(frozen=True)
class Near:
    """``expect.near``: the unit must end its move with its centre within ``within`` inches of (x, y)."""

    x: float
    y: float
    within: float


@dataclass(frozen=True)
class FacingGoal:
    """``expect.facing``: the unit must end facing ``value`` degrees, give or take ``within``."""

    value: float
    within: float = 10.0


@dataclass(frozen=True)
class Expect:
    """Which action completes a step.

    ``type`` is an action type (``move``, ``declare_charge``, ``done``...) or ``any`` (every legal action, until
    ``until`` holds). ``fields`` must equal the action's fields (a list means any of them). ``near`` and
    ``facing`` test where the unit stands after the engine made the action.
    """

    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    player: int | None = None
    near: Near | None = None
    facing: FacingGoal | None = None
    until: str | None = None

    @property
    def is_any(self) -> bool:
        """True for a free-play step (``type: any``)."""
        return self.type == "any"

    def matches_action(self, action: Action) -> bool:
        """Whether ``action`` has the expected type and fields (``near`` and ``facing`` are not checked here)."""
        if self.is_any:
            return True
        if action.type != self.type:
            return False
        if self.player is not None and action.player != self.player:
            return False
        for key, want in self.fields.items():
            have = getattr(action, key, None)
            if isinstance(have, tuple):
                have = list(have)
            if isinstance(want, list) and key != "weapons":
                if have not in want:
                    return False
            elif have != want:
                return False
        return True

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """The expected action in plain words; ``names`` gives display names of unit ids."""
        f = self.fields
        t = self.type

        def name(key: str, default: str) -> str:
            v = f.get(key)
            if isinstance(v, list):
                return " or ".join(names.get(x, x) if names else x for x in v)
            if not isinstance(v, str):
                return default
            return names.get(v, v) if names else v

        if t == "any":
            return {"turn_end": "play your turn", "round_end": "play until the end of the round",
                    "game_end": "play until the end of the game"}.get(self.until or "", "play on")
        if t == "done":
            return "press Done"
        if t == "move":
            what = f.get("action", "move")
            what = " or ".join(what) if isinstance(what, list) else str(what)
            text = f"{what.capitalize()} with {name('unit', 'the unit')}"
            if self.near is not None:
                text += f" to the marked circle around ({self.near.x:g}, {self.near.y:g})"
            if self.facing is not None:
                text += f", ending facing {self.facing.value:g}°"
            return text
        if t == "declare_charge":
            return f"declare a charge with {name('unit', 'a unit')} against {name('target', 'the enemy')}"
        if t == "charge_reaction":
            return f"answer the charge against {name('unit', 'your unit')} with {_words(f.get('reaction', ''))}"
        if t == "shoot":
            return f"shoot with {name('unit', 'a unit')} at {name('target', 'the enemy')}"
        if t == "redirect":
            return "run down the fleeing unit" if f.get("target") is None else \
                f"redirect the charge to {name('target', 'another unit')}"
        if t == "pursue":
            return "pursue" if f.get("pursue", True) else "not pursue"
        if t == "follow_up":
            return "follow up" if f.get("follow_up", True) else "stay"
        return t.replace("_", " ")


def _words(value: Any) -> str:
    if isinstance(value, list):
        return " or ".join(_words(v) for v in value)
    return str(value).replace("_", " ").title()


@dataclass(frozen=True)
class Step:
    """One step of a lesson."""

    id: str
    """Short name (``steps[i].id``, default ``step-N``)."""
    text: str
    """What to do and why, citing the rule by its rulebook name."""
    expect: Expect
    """The action that completes the step."""
    solution: tuple[Mapping[str, Any], ...] | str
    """The action that does it (record form; ``player`` may be left out), or ``policy`` for an ``any`` step."""
    highlight: Highlight = Highlight()
    """What to point at."""
    hint: str | None = None
    """Shown after a wrong try."""
    auto: tuple[Mapping[str, Any], ...] = ()
    """Actions played after the step (the scripted opponent, or phases the lesson passes through)."""
    explain: str | None = None
    """Shown once the engine has resolved the step."""
    line: int = 1
    """Line of the step in the lesson file."""


@dataclass(frozen=True)
class Opponent:
    """A computer opponent that plays whenever it must decide (``game.tutorial.opponent``)."""

    policy: str = "simple"
    """``simple``: the small deterministic rule-based player of ``game.tutorial.opponent``; ``ai-easy``, ``ai``,
    ``ai-hard``: the computer opponent (``game.ai``) at that level."""
    seed: int = 1
    """Seed of its own generator (never the game's dice)."""


@dataclass(frozen=True)
class Lesson:
    """A validated lesson file."""

    id: str
    """Lesson id (the file name without ``.yaml``, e.g. ``01_moving``)."""
    title: str
    """Title shown in the lesson list."""
    scenario_path: Path
    """The lesson's scenario file."""
    scenario: Scenario
    """The loaded scenario."""
    dice: Mapping[str, Any]
    """``{sequence: [...]}`` or ``{seed: N}`` (a game record's ``dice``)."""
    steps: tuple[Step, ...]
    """The steps, in order."""
    learner: int = 1
    """The player the learner plays."""
    summary: str | None = None
    """One line: what the lesson teaches."""
    intro: str | None = None
    """Shown before the first step."""
    outro: str | None = None
    """Shown when the lesson is done."""
    opening: tuple[Mapping[str, Any], ...] = ()
    """Actions played before the first step."""
    opponent: Opponent | None = None
    """A computer opponent that answers every decision of the other player, or None (scripted ``auto`` only)."""
    source: Path | None = None
    """The lesson file."""

    @property
    def number(self) -> int | None:
        """The ``NN`` of ``NN_name``, or None."""
        m = re.match(r"^(\d+)", self.id)
        return int(m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------------------------
# Validation models (pydantic, messages in plain words through game.scenario's helpers)
# ---------------------------------------------------------------------------------------------------------------


def _positive(v: float) -> float:
    if v <= 0:
        raise ValueError(f"must be greater than 0, got {v:g}")
    return v


def _die(v: int) -> int:
    if not 1 <= v <= 6:
        raise ValueError(f"a die shows 1 to 6, got {v}")
    return v


def _learner(v: int) -> int:
    if v not in (1, 2):
        raise ValueError(f"must be 1 or 2, got {v}")
    return v


def _policy(v: str) -> str:
    if v not in OPPONENT_POLICIES:
        raise ValueError(f"must be one of {', '.join(OPPONENT_POLICIES)}; got {show_value(v)}")
    return v


def _format(v: str) -> str:
    if v != LESSON_FORMAT:
        raise ValueError(f"must be {LESSON_FORMAT}, got {show_value(v)}")
    return v


Positive = Annotated[Number, AfterValidator(_positive)]
Die = Annotated[Int, AfterValidator(_die)]


class PointModel(_Model):
    """A table point to mark: ``{x, y, label?}`` in inches."""

    x: Number
    y: Number
    label: Text | None = None


class CircleModel(_Model):
    """A circular area: centre ``x, y`` and ``radius``, inches."""

    x: Number
    y: Number
    radius: Positive


class RectAreaModel(_Model):
    """A rectangular area: centre, ``width`` x ``depth`` inches, ``angle`` degrees."""

    x: Number
    y: Number
    width: Positive
    depth: Positive
    angle: Number = 0.0


class AreaModel(_Model):
    """An area to highlight: one of ``circle``, ``rect`` or ``polygon``, with an optional label."""

    circle: CircleModel | None = None
    rect: RectAreaModel | None = None
    polygon: list[list[Number]] | None = None
    label: Text | None = None


class HighlightModel(_Model):
    """What a step highlights: units by id, table points, areas and buttons by name."""

    units: list[Text] = []
    points: list[PointModel] = []
    areas: list[AreaModel] = []
    buttons: list[Text] = []


class StepModel(_Model):
    """One step of a lesson (docs/formats.md "Lesson file")."""

    id: Text | None = None
    text: Text
    highlight: HighlightModel = HighlightModel()
    expect: dict[str, Any]
    hint: Text | None = None
    solution: Any
    auto: list[Any] = []
    explain: Text | None = None


class DiceModel(_Model):
    """The lesson's dice: a fixed ``sequence`` of D6 results, or a ``seed``."""

    sequence: list[Die] | None = None
    seed: Int | None = None


class OpponentModel(_Model):
    """The scripted opponent: its ``policy`` and the seed of its choices."""

    policy: Annotated[Text, AfterValidator(_policy)] = "simple"
    seed: Int = 1


class LessonModel(_Model):
    """A whole lesson file, format ``regiments-lesson/1``."""

    format: Annotated[Text, AfterValidator(_format)]
    title: Text
    summary: Text | None = None
    scenario: Text
    learner: Annotated[Int, AfterValidator(_learner)] = 1
    dice: DiceModel
    opponent: OpponentModel | None = None
    intro: Text | None = None
    outro: Text | None = None
    opening: Annotated[list[Any], Field(max_length=MAX_LESSON_STEPS)] = []
    steps: Annotated[list[Any], Field(max_length=MAX_LESSON_STEPS)]


# ---------------------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------------------

Loc = tuple[str | int, ...]
_PATH_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _loc_of(path: str) -> Loc:
    """``steps[2].solution.unit`` -> ``('steps', 2, 'solution', 'unit')``."""
    out: list[str | int] = []
    for m in _PATH_PART.finditer(path):
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
    return tuple(out)


class _Checker:
    """Collects the problems of one lesson file."""

    def __init__(self, doc: _Doc) -> None:
        self.doc = doc
        self.problems: list[_Problem] = []
        self.unit_ids: set[str] | None = None  # known once the scenario loaded

    def add(self, loc: Loc, message: str, key: bool = False) -> None:
        self.problems.append(self.doc.problem(loc, message, key))

    def action(self, raw: Any, loc: Loc) -> Action | None:
        """Check one action mapping (``player`` may be left out); None if it is not well formed."""
        if not isinstance(raw, Mapping):
            self.add(loc, "must be an action mapping like {type: done}")
            return None
        data = dict(raw)
        data.setdefault("player", 1)
        where = _path_text(loc)
        try:
            action = action_from_dict(data, where)
        except ActionFormatError as e:
            text = str(e)
            path, _, message = text.partition(": ")
            self.add(_loc_of(path) if path.startswith(where) else loc, message or text)
            return None
        self.units_in(action, loc)
        return action

    def units_in(self, action: Action, loc: Loc) -> None:
        if self.unit_ids is None:
            return
        for name in ("unit", "target"):
            value = getattr(action, name, None)
            if isinstance(value, str) and value not in self.unit_ids:
                self.add(loc + (name,), f"no unit {show_value(value)} in the lesson's scenario")

    def unit(self, value: Any, loc: Loc) -> None:
        if self.unit_ids is not None and isinstance(value, str) and value not in self.unit_ids:
            self.add(loc, f"no unit {show_value(value)} in the lesson's scenario")


def _path_text(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _expect(raw: Mapping[str, Any], loc: Loc, c: _Checker) -> Expect | None:
    kind = raw.get("type")
    if kind is None:
        c.add(loc + ("type",), "missing (required): an action type such as move, declare_charge, done, or any")
        return None
    if kind == "any":
        extra = sorted(set(raw) - {"type", "until"})
        for k in extra:
            c.add(loc + (k,), "unknown key (keys of an any step: type, until)", key=True)
        until = raw.get("until")
        if until not in UNTIL:
            c.add(loc + ("until",), f"must be one of {', '.join(UNTIL)}; got {show_value(until)}")
            return None
        return None if extra else Expect("any", until=until)
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        c.add(loc + ("type",), f"unknown action type {show_value(kind)}; known: any, {', '.join(sorted(ACTION_TYPES))}")
        return None
    names = {f.name for f in fields(cls)} - {"player"}
    ok = True
    flds: dict[str, Any] = {}
    near = facing = None
    player = None
    for key, value in raw.items():
        kloc = loc + (key,)
        if key == "type":
            continue
        if key == "player":
            if value not in (1, 2) or isinstance(value, bool):
                c.add(kloc, f"must be 1 or 2, got {show_value(value)}")
                ok = False
            player = value
        elif key == "near":
            near = _near(value, kloc, c)
            ok = ok and near is not None
            if kind not in ("move", "consolidate", "move_models"):   # move_models: loose models (AoF: Skirmish)
                c.add(kloc, "only a move or consolidate can be expected near a point")
                ok = False
        elif key == "facing" and isinstance(value, Mapping):
            facing = _facing(value, kloc, c)
            ok = ok and facing is not None
        elif key == "until":
            c.add(kloc, "only an any step has until", key=True)
            ok = False
        elif key not in names:
            allowed = ", ".join(sorted(names | {"player"} | ({"near", "facing"} if kind in ("move", "consolidate")
                                                              else set())))
            c.add(kloc, f"unknown key for a {kind} (keys: {allowed or 'none'})", key=True)
            ok = False
        else:
            if key in ("unit", "target"):
                for v in value if isinstance(value, list) else [value]:
                    c.unit(v, kloc)
            flds[key] = value
    return Expect(kind, flds, player, near, facing) if ok else None


def _near(value: Any, loc: Loc, c: _Checker) -> Near | None:
    if not isinstance(value, Mapping) or set(value) != {"x", "y", "within"}:
        c.add(loc, "must be {x, y, within} in inches")
        return None
    nums = [value[k] for k in ("x", "y", "within")]
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in nums):
        c.add(loc, "x, y and within must be numbers")
        return None
    if nums[2] <= 0:
        c.add(loc + ("within",), f"must be greater than 0, got {nums[2]:g}")
        return None
    return Near(float(nums[0]), float(nums[1]), float(nums[2]))


def _facing(value: Mapping[str, Any], loc: Loc, c: _Checker) -> FacingGoal | None:
    extra = set(value) - {"value", "within"}
    if extra or "value" not in value:
        c.add(loc, "must be {value, within} in degrees")
        return None
    v, w = value["value"], value.get("within", 10.0)
    if any(isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) for n in (v, w)) or w <= 0:
        c.add(loc, "value and within must be numbers, within greater than 0")
        return None
    return FacingGoal(float(v) % 360.0, float(w))


def _highlight(m: HighlightModel, loc: Loc, c: _Checker) -> Highlight:
    for i, u in enumerate(m.units):
        c.unit(u, loc + ("units", i))
    for i, b in enumerate(m.buttons):
        if b not in KNOWN_BUTTONS and not b.startswith(BUTTON_PREFIXES):
            c.add(loc + ("buttons", i), f"unknown button {show_value(b)} "
                                        f"(buttons: {', '.join(sorted(KNOWN_BUTTONS))}, or "
                                        f"react:REACTION, weapon:NAME, spell:NAME)")
    areas: list[Area] = []
    for i, a in enumerate(m.areas):
        aloc = loc + ("areas", i)
        given = [k for k in ("circle", "rect", "polygon") if getattr(a, k) is not None]
        if len(given) != 1:
            c.add(aloc, "give exactly one of circle, rect, polygon")
            continue
        if a.circle is not None:
            areas.append(Area("circle", ((a.circle.x, a.circle.y),), a.circle.radius, a.label))
        elif a.rect is not None:
            r = a.rect
            ang = math.radians(r.angle)
            corners = []
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                dx, dy = sx * r.width / 2, sy * r.depth / 2
                corners.append((r.x + dx * math.cos(ang) + dy * math.sin(ang),
                                r.y - dx * math.sin(ang) + dy * math.cos(ang)))
            areas.append(Area("polygon", tuple(corners), 0.0, a.label))
        else:
            pts = a.polygon or []
            if len(pts) < 3 or any(len(p) != 2 for p in pts):
                c.add(aloc + ("polygon",), "must be at least 3 points [x, y]")
                continue
            areas.append(Area("polygon", tuple((float(p[0]), float(p[1])) for p in pts), 0.0, a.label))
    return Highlight(tuple(m.units), tuple(TablePoint(p.x, p.y, p.label) for p in m.points), tuple(areas),
                     tuple(m.buttons))


def _actions(raw: list[Any], loc: Loc, c: _Checker) -> tuple[Mapping[str, Any], ...]:
    out = []
    for i, item in enumerate(raw):
        if c.action(item, loc + (i,)) is not None:
            out.append(dict(item))
    return tuple(out)


def _step_model(raw: Any, i: int, c: _Checker) -> StepModel | None:
    """The step's fields; a step with problems (already reported) keeps its good fields, so they are checked too."""
    model = _validate(StepModel, raw, c.doc, ("steps", i), c.problems)
    if model is not None or not isinstance(raw, Mapping):
        return model
    values = {name: _field(StepModel, raw, name, None) for name in StepModel.model_fields}
    if not isinstance(values.get("expect"), dict) or not isinstance(values.get("text"), str):
        return None
    if values["highlight"] is None:
        values["highlight"] = HighlightModel()
    if values["auto"] is None:
        values["auto"] = []
    return StepModel.model_construct(**values)


def _step(m: StepModel, i: int, c: _Checker, raw: Any) -> Step | None:
    loc: Loc = ("steps", i)
    line = c.doc.line(loc)
    expect = _expect(m.expect, loc + ("expect",), c)
    solution: tuple[Mapping[str, Any], ...] | str = ()
    sloc = loc + ("solution",)
    if expect is not None and expect.is_any:
        if m.solution != POLICY:
            c.add(sloc, f"an any step's solution must be {POLICY!r} (the computer plays your side until it ends)")
    elif isinstance(m.solution, Mapping):
        action = c.action(m.solution, sloc)
        if action is not None:
            solution = (dict(m.solution),)
            if expect is not None and not expect.matches_action(_with_player(action, expect)):
                c.add(sloc, f"does not do what the step expects ({expect.describe()})")
    elif isinstance(raw, Mapping) and "solution" in raw:  # a missing solution is reported by the model
        c.add(sloc, "must be one action mapping, e.g. {type: done}")
    highlight = _highlight(m.highlight, loc + ("highlight",), c)
    auto = _actions(m.auto, loc + ("auto",), c)
    if expect is None:
        return None
    return Step(m.id or f"step-{i + 1}", m.text, expect, solution if expect.is_any is False else POLICY, highlight,
                m.hint, auto, m.explain, line)


def _with_player(action: Action, expect: Expect) -> Action:
    """The solution with the expected player, when the file left ``player`` out."""
    if expect.player is None:
        return action
    return dataclasses.replace(action, player=expect.player) if action.player != expect.player else action


def load_lesson(path: str | Path, read: YamlFile | None = None) -> Lesson:
    """Read and validate a lesson file (``read``: already read with ``game.reader.read_yaml``). Raises
    ``LessonError`` listing every problem (``FILE:LINE: PATH: msg``), the problems of its scenario file included
    (with that file's own name and lines)."""
    path = Path(path)
    out: list[_Problem] = []
    loaded = _read_yaml(path, out, read)
    if loaded is None:
        raise LessonError([str(p) for p in out])
    doc, data = loaded
    c = _Checker(doc)
    c.problems = out
    if not isinstance(data, Mapping):
        c.add((), "a lesson file must be a mapping of keys (format, title, scenario, dice, steps)")
        raise LessonError([str(p) for p in c.problems])
    model = _validate(LessonModel, data, doc, (), c.problems)
    scenario_problems: list[str] = []
    scenario: Scenario | None = None
    scenario_path = None
    raw_scenario = data.get("scenario")
    if isinstance(raw_scenario, str):
        scenario_path = Path(raw_scenario)
        if not scenario_path.is_absolute():
            scenario_path = path.parent / scenario_path
        if not scenario_path.exists():
            c.add(("scenario",), f"no such scenario file {_display(scenario_path)}")
        else:
            try:
                scenario = load_scenario(scenario_path)
            except ScenarioError as e:
                c.add(("scenario",), f"the scenario {_display(scenario_path)} has problems (below)")
                scenario_problems = list(e.problems)
    if scenario is not None:
        c.unit_ids = {u.id for _, u in scenario.units()}
    raw_steps = data.get("steps")
    raw_steps = raw_steps[:MAX_LESSON_STEPS] if isinstance(raw_steps, list) else []
    raw_opening = data.get("opening")
    opening = _actions(raw_opening[:MAX_LESSON_STEPS] if isinstance(raw_opening, list) else [], ("opening",), c)
    steps = []
    for i, raw in enumerate(raw_steps):
        sm = _step_model(raw, i, c)
        step = _step(sm, i, c, raw) if sm is not None else None
        if step is not None:
            steps.append(step)
    if model is not None:
        if (model.dice.sequence is None) == (model.dice.seed is None):
            c.add(("dice",), "give exactly one of sequence (fixed D6 results) or seed")
        if not model.steps:
            c.add(("steps",), "a lesson needs at least one step")
        if any(s.expect.is_any for s in steps) and model.opponent is None:
            c.add(("opponent",), "a lesson with any steps needs an opponent (e.g. {policy: simple, seed: 1}) to "
                                 "play the other side")
    ids = [s.id for s in steps]
    for i, s in enumerate(steps):
        if ids.index(s.id) != i:
            c.add(("steps", i, "id"), f"duplicate step id {s.id!r}")
    if c.problems or scenario_problems or model is None or scenario is None or scenario_path is None:
        raise LessonError(_sorted(c.problems) + scenario_problems)
    dice: dict[str, Any] = ({"sequence": list(model.dice.sequence)} if model.dice.sequence is not None
                            else {"seed": model.dice.seed})
    opponent = Opponent(model.opponent.policy, model.opponent.seed) if model.opponent is not None else None
    return Lesson(path.stem, model.title, scenario_path, scenario, dice, tuple(steps), model.learner, model.summary,
                  model.intro, model.outro, opening, opponent, path)


def _sorted(problems: list[_Problem]) -> list[str]:
    """Problems in line order, without repeats."""
    seen: set[_Problem] = set()
    unique = [p for p in problems if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
    return [str(p) for p in sorted(unique, key=lambda p: p.line)]


def check_lesson_file(path: str | Path, read: YamlFile | None = None) -> list[str]:
    """Problems of a lesson file ([] if it is valid; ``read``: already read); never raises for a bad file."""
    try:
        load_lesson(path, read)
    except LessonError as e:
        return list(e.problems)
    return []


def action_for(raw: Mapping[str, Any], pending: Pending | None, where: str = "action") -> Action:
    """The action of a lesson mapping; a missing ``player`` is the player the engine waits for."""
    data = dict(raw)
    if "player" not in data:
        data["player"] = pending.player if pending is not None else 1
    return action_from_dict(data, where)


__all__ = [
    "Area", "Expect", "FacingGoal", "Highlight", "LESSONS_DIR", "LESSON_FORMAT", "Lesson", "LessonError", "Near",
    "Opponent", "Step", "TablePoint", "action_for", "check_lesson_file", "load_lesson",
]
