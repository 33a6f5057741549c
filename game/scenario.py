"""Scenario and army files: loading, validation and the starting game state.

The formats are fixed by ``../shared/spec.md`` ("Scenario file") and documented key by key in ``docs/formats.md``
("Scenario file", "Army file"). A bad file is refused with every problem found, each as
``FILE:LINE: PATH: message`` (LINE 1-based, PATH like ``armies[0].units[2].models``)::

    scenarios/x.yaml:14: armies[0].profiles.Spearmen.quality: must be 2 to 6, got 7

Checks follow the rulebook: "Unit Stats" (Quality and Defense 2+ to 6+), "Combined Units" (up to four copies of a
multi-model unit, at most 20 models, two copies for units with Tough), "Command Groups" (one sergeant, musician and
banner per unit), "Hero" (heroes with up to Tough(6) may join one multi-model unit), "Victory Conditions" (the
General is one of the army's heroes), "Deploying Armies" and "Terrain Setup Guidelines" (``game/terrain_kinds.py``).
Distances are inches, angles degrees, base sizes millimetres.

Public API: ``load_scenario``, ``load_scenario_mapping``, ``load_army``, ``check_scenario_file``,
``new_game_state``, ``ScenarioError`` and the frozen dataclasses ``Scenario``, ``ArmySpec``, ``UnitSpec``,
``StartSpec`` and ``ArmyFile``.
"""

from __future__ import annotations

import difflib
import functools
import math
import os
import re
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, NamedTuple, get_args, get_origin

import shapely
import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from shapely import Polygon, box
from shapely.validation import explain_validity

from game.engine.actions import show_value
from game.engine.artillery_scatter import is_artillery_profile
from game.engine.deployment_styles import ALL_STYLES, DEFAULT_STYLE, STYLES
from game.engine.magic import (
    AFFECTS,
    DURATIONS,
    STATS,
    TARGETS,
    Spell,
    SpellArea,
    SpellHits,
    SpellModifier,
    new_magic_state,
)
from game.engine.objectives import ALL_MISSIONS, MARKER_SPACING, MAX_OBJECTIVES, fixed_markers
from game.engine.profiles import KNOWN_RULES, UPGRADES, VALUE_OPTIONAL, Profile, Weapon, parse_rule
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets import unplayable
from game.engine.rulesets.base import ListedUnit
from game.engine.rulesets.skirmish import ID as SKIRMISH_ID
from game.engine.side_missions import AOWFBR_SIDE_MISSIONS, PLAYSTYLES, SELECTIONS, SideMissionState
from game.engine.side_missions import RANDOM as SIDE_RANDOM
from game.engine.skirmish.loose import PICKING_UPGRADES, Warband, new_models
from game.engine.skirmish.loose import base_radius as loose_radius
from game.engine.skirmish.loose import coherency_problem as loose_coherency
from game.engine.state import DEPLOYMENT_DEPTH as OBJECTIVE_ZONE_DEPTH
from game.engine.state import GameState, JoinedHero, Objective, Phase, Step, Table, make_unit
from game.engine.transport import model_spaces
from game.files import FileProblems
from game.limits import (
    MAX_ARMIES,
    MAX_LIST_ITEMS,
    MAX_MODELS_PER_UNIT,
    MAX_POLYGON_POINTS,
    MAX_PROFILES,
    MAX_TERRAIN_PIECES,
    MAX_UNITS_PER_ARMY,
)
from game.reader import FileRefused, YamlFile, display_name, read_yaml
from game.terrain_kinds import ELEVATED, IMPASSABLE, KIND_HEIGHT, KIND_TRAITS, KINDS, KNOWN_TRAITS
from geometry.formation import Formation, default_per_row
from geometry.pose import Pose
from geometry.shapes import footprint_polygon, overlap_area
from geometry.terrain import TerrainShape, rect_to_polygon

SCENARIO_FORMAT = "regiments-scenario/1"
"""The ``format`` value of a scenario file."""
ARMY_FORMAT = "regiments-army/1"
"""The ``format`` value of an army file."""
RULESETS: frozenset[str] = frozenset(ENGINE_RULESETS)
"""Rulesets a scenario may name (``ruleset``): the playable ones (``game.engine.rulesets.RULESETS``); one known but
not playable yet (``PLANNED``) is refused saying so."""
OPTION_DEFAULTS: dict[str, object] = {
    "random_charge_distance": False,
    "artillery_scatter": False,
    "spell_tokens": "basic",
}
"""Scenario ``options`` and their defaults (rulebook "Optional Rules"); ``Scenario.options`` has every key."""
SPELL_TOKEN_MODES: tuple[str, ...] = ("basic", "spell_and_dispel", "pooled")
"""Values of ``options.spell_tokens`` (rulebook "Caster(X)", "Spell and Dispel Tokens", "Pooled Tokens")."""
MAX_COPIES = 4
"""Rulebook "Combined Units": up to four copies of the same multi-model unit."""
MAX_COMBINED_MODELS = 20
"""Rulebook "Combined Units": the maximum unit size is 20 models."""
MAX_TOUGH_COPIES = 2
"""Rulebook "Combined Units": units with Tough(X) may only combine two unit copies."""
MAX_JOINING_TOUGH = 6
"""Rulebook "Hero": heroes with up to Tough(6) may deploy as part of one multi-model unit."""

PHASE_FIRST_STEP: dict[Phase, Step] = {
    Phase.DEPLOYMENT: Step.DEPLOY,
    Phase.STRATEGY_1: Step.STRATEGY,
    Phase.MOVEMENT: Step.DECLARE_CHARGES,
    Phase.STRATEGY_2: Step.STRATEGY,
    Phase.SHOOTING: Step.RANGED_ATTACKS,
    Phase.CLOSE_COMBAT: Step.MELEE,
    Phase.RALLY: Step.RALLY,
    Phase.ACTIVATION: Step.ACTIVATION,
}
"""The first step of each phase: where a game given ``start: {phase: ...}`` begins."""

_AREA_EPS = 1e-6  # square inches: overlaps smaller than this are touching, not overlapping
_EDGE_EPS = 1e-6  # inches: tolerance on the table edge


# ---------------------------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------------------------


class ScenarioError(FileProblems):
    """A scenario or army file that cannot be used.

    ``problems`` lists every problem found, each formatted ``FILE:LINE: PATH: message`` with LINE 1-based.
    """


@dataclass(frozen=True)
class UnitSpec:
    """One unit as the scenario lists it (spec "Scenario file", ``armies[].units[]``)."""

    id: str
    """Unique id within the scenario."""
    profile: str
    """Name of its profile in the army's ``profiles``."""
    models: int
    """Starting size: profile size x copies (rulebook "Combined Units")."""
    per_row: int | None = None
    """Models per full row; None for the rulebook default (``geometry.formation.default_per_row``)."""
    upgrades: frozenset[str] = frozenset()
    """Command group: any of sergeant, musician, banner (rulebook "Command Groups")."""
    joined_by: str | None = None
    """Id of a hero deployed as part of this unit (rulebook "Hero"), or None."""
    embarked_in: str | None = None
    """Id of a Transport of the same army the unit starts inside (rulebook "Transport(X)"), or None."""
    pose: Pose | None = None
    """Where it starts (centre in inches, facing in degrees); None to deploy during the game."""
    positions: tuple[tuple[float, float], ...] = ()
    """AoF: Skirmish: where each model starts, (x, y) inches (loose models have no formation); empty to deploy
    during the game."""
    command_picks: tuple[str, ...] = ()
    """AoF: Skirmish: the up to 3 friendly units a Musician or Banner unit picks before the game ("Command Groups")."""

    @property
    def formation_per_row(self) -> int:
        """Models per row actually used: ``per_row`` or the rulebook default for ``models``."""
        return self.per_row or default_per_row(self.models)


@dataclass(frozen=True)
class ArmySpec:
    """One player's army: name, General, profiles and units."""

    player: int
    """1 or 2; player 1's table edge is y = 0."""
    name: str
    """Army name shown to players (the scenario's ``name``, else the included army file's, else "Player N")."""
    general: str | None
    """Id of the unit that is the army's General (a Hero; rulebook "Victory Conditions"), or None."""
    profiles: dict[str, Profile]
    """Profiles by name: the included army file's, overridden by the scenario's own."""
    units: tuple[UnitSpec, ...]
    """Units in file order."""
    include: str | None = None
    """The ``include`` path as written, or None."""
    spells: dict[str, Spell] = field(default_factory=dict)
    """Spells its casters may cast, by name: the included army file's, overridden by the scenario's own."""

    def profile_of(self, unit: UnitSpec) -> Profile:
        """The profile of ``unit``."""
        return self.profiles[unit.profile]

    def copies_of(self, unit: UnitSpec) -> int:
        """How many copies of its profile ``unit`` combines (rulebook "Combined Units")."""
        return max(1, -(-unit.models // max(self.profile_of(unit).size, 1)))

    def cost_of(self, unit: UnitSpec) -> int:
        """Points cost of ``unit``: profile cost x copies (command group upgrades are free)."""
        return self.profile_of(unit).cost * self.copies_of(unit)

    @property
    def points(self) -> int:
        """Total points cost of the army."""
        return sum(self.cost_of(u) for u in self.units)

    def unit(self, unit_id: str) -> UnitSpec:
        """The unit with this id; raises ``KeyError``."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)


@dataclass(frozen=True)
class StartSpec:
    """Where a game of the scenario starts (spec ``start``)."""

    round: int
    """Round, 1-based."""
    player: int
    """Whose turn, 1 or 2."""
    phase: Phase
    """Phase; the game starts at the phase's first step (``PHASE_FIRST_STEP``)."""

    @property
    def step(self) -> Step:
        """The first step of ``phase``."""
        return PHASE_FIRST_STEP[self.phase]


@dataclass(frozen=True)
class Scenario:
    """A validated scenario file (spec "Scenario file")."""

    name: str
    """Battle name."""
    ruleset: str
    """Ruleset id, e.g. ``aowfbr-1.4``."""
    table: Table
    """Table size, inches."""
    rounds: int = 4
    """Rounds in the game."""
    seed: int | None = None
    """Default dice seed, or None."""
    options: dict[str, object] = field(default_factory=lambda: dict(OPTION_DEFAULTS))
    """Optional rules; every key of ``OPTION_DEFAULTS`` is present."""
    terrain: tuple[TerrainShape, ...] = ()
    """Terrain pieces; ``terrain[i].index == i``."""
    terrain_kinds: tuple[str, ...] = ()
    """Kind of each terrain piece (parallel to ``terrain``), e.g. ``forest``: the window colours by kind."""
    armies: dict[int, ArmySpec] = field(default_factory=dict)
    """Armies by player, in file order."""
    start: StartSpec | None = None
    """Given start position, or None (deployment if any unit lacks a pose, else round 1, player 1, strategy_1)."""
    source: Path | None = None
    """The file it was read from."""
    description: str | None = None
    """Optional briefing text."""
    mission: str | None = None
    """The mission played (``standard``; game.engine.objectives), or None: no objective markers."""
    objectives: tuple[tuple[float, float], ...] = ()
    """Objective markers the scenario places, (x, y) in inches; empty: placed in the game when a mission is
    played."""
    deployment: str | None = None
    """The deployment style (game.engine.deployment_styles: ``front_line`` ... ``flank_assault``, ``random``), or
    None: Front Line."""
    side_missions: tuple[str, str] | None = None
    """(playstyle, selection) of AoF:R 2.16 "Side-Missions" (game.engine.side_missions), or None: not played."""

    def army(self, player: int) -> ArmySpec | None:
        """The army of ``player`` or None."""
        return self.armies.get(player)

    def units(self) -> Iterator[tuple[ArmySpec, UnitSpec]]:
        """Every (army, unit) pair, in file order."""
        for army in self.armies.values():
            for unit in army.units:
                yield army, unit

    def joined_heroes(self) -> dict[str, str]:
        """Hero id -> id of the unit it joined (rulebook "Hero"); such heroes are part of that unit in the game."""
        return {u.joined_by: u.id for _, u in self.units() if u.joined_by is not None}

    def needs_deployment(self) -> bool:
        """True if some unit must be placed during the game: it has no pose, is not a hero joined to a unit and does
        not start inside a Transport."""
        joined = self.joined_heroes()
        return any(u.pose is None and not u.positions and u.id not in joined and u.embarked_in is None
                   for _, u in self.units())


@dataclass(frozen=True)
class ArmyFile:
    """A validated army file (``format: regiments-army/1``; docs/formats.md "Army file")."""

    name: str
    """Army name."""
    profiles: dict[str, Profile]
    """Unit profiles by name."""
    source: Path | None = None
    """The file it was read from."""
    description: str | None = None
    """Optional text about the army."""
    upgrade_costs: dict[str, int] = field(default_factory=dict)
    """Points per unit for command group upgrades (``sergeant``, ``musician``, ``banner``) when the army file
    prices them (optional ``upgrade_costs``); an upgrade not listed is free. Used by army lists
    (``game.setup.army_list``); victory points still use profile cost x copies."""
    spells: dict[str, Spell] = field(default_factory=dict)
    """The army's spells by name (optional ``spells``; rulebook "Caster(X)": casters pick from their faction)."""


# ---------------------------------------------------------------------------------------------------------------
# YAML with node marks
# ---------------------------------------------------------------------------------------------------------------


_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Problem(NamedTuple):
    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.path}: {self.message}"


Loc = tuple[str | int, ...]

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def _path(loc: Loc) -> str:
    """``('armies', 0, 'units', 2, 'models')`` -> ``armies[0].units[2].models``; root -> ``(root)``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]" if out else repr(part)
    return out or "(root)"


@dataclass
class _Doc:
    """One YAML document: the name used in problems and its node tree (for line numbers)."""

    file: str
    root: yaml.Node | None

    def _find(self, loc: Loc) -> tuple[yaml.Node | None, yaml.Node | None]:
        """The deepest node along ``loc`` and, if the last step was a mapping key, that key's node."""
        node, key_node = self.root, None
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                        node, key_node = v, k
                        break
                else:
                    return node, None
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node, key_node = node.value[part], None
            else:
                return node, None
        return node, key_node

    def line(self, loc: Loc, key: bool = False) -> int:
        """1-based line of the value at ``loc`` (of its key if ``key``); the nearest enclosing node if absent."""
        node, key_node = self._find(loc)
        target = key_node if key and key_node is not None else node
        if target is None:
            return 1
        return int(target.start_mark.line) + 1

    def problem(self, loc: Loc, message: str, key: bool = False) -> _Problem:
        """A problem about the value at ``loc``."""
        return _Problem(self.file, self.line(loc, key), _path(loc), message)


_display = display_name


def _show(value: Any) -> str:
    """A short rendering of a YAML value for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value[:61])
    elif isinstance(value, float):
        if math.isnan(value):
            text = ".nan"
        elif math.isinf(value):
            text = ".inf" if value > 0 else "-.inf"
        else:
            text = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    else:
        text = show_value(value) if isinstance(value, (list, dict, tuple, set)) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_duplicates(doc: _Doc, node: yaml.Node | None, loc: Loc, out: list[_Problem], seen: set[int]) -> None:
    """Report duplicate mapping keys (PyYAML would silently keep the last one)."""
    if node is None or id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.tag != _MERGE_TAG:
                line = int(k.start_mark.line) + 1
                if k.value in first:
                    out.append(_Problem(doc.file, line, _path(loc + (k.value,)),
                                        f"duplicate key {k.value!r} (first at line {first[k.value]})"))
                else:
                    first[k.value] = line
                _check_duplicates(doc, v, loc + (k.value,), out, seen)
            else:
                _check_duplicates(doc, v, loc, out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _check_duplicates(doc, v, loc + (i,), out, seen)


def _read_yaml(path: Path, out: list[_Problem], read: YamlFile | None = None) -> tuple[_Doc, Any] | None:
    """Read and parse one YAML file with node marks (``game.reader``); None (and a problem) if it cannot be read
    or parsed. ``read``: the file already read (``check`` reads each file once)."""
    if read is None:
        try:
            read = read_yaml(path)
        except FileRefused as e:
            out.append(_Problem(e.file, e.line, e.path, e.message))
            return None
    doc = _Doc(read.name, read.root)
    _check_duplicates(doc, read.root, (), out, set())
    return doc, read.data


# ---------------------------------------------------------------------------------------------------------------
# Field types with plain-language messages
# ---------------------------------------------------------------------------------------------------------------


def _number(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"must be a number, got {_show(v)}")
    if not math.isfinite(v):
        raise ValueError(f"must be a finite number, got {_show(v)}")
    return v


def _integer(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"must be a whole number, got {_show(v)}")
    if isinstance(v, float):
        if not (math.isfinite(v) and v.is_integer()):
            raise ValueError(f"must be a whole number, got {_show(v)}")
        return int(v)
    return v


def _text(v: Any) -> Any:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    if not isinstance(v, str):
        raise ValueError(f"must be text, got {_show(v)}")
    if not v.strip():
        raise ValueError("must not be empty")
    return v


def _between(lo: float, hi: float) -> AfterValidator:
    def check(v: Any) -> Any:
        if not lo <= v <= hi:
            raise ValueError(f"must be {lo:g} to {hi:g}, got {_show(v)}")
        return v

    return AfterValidator(check)


def _at_least(lo: float) -> AfterValidator:
    def check(v: Any) -> Any:
        if v < lo:
            raise ValueError(f"must be at least {lo:g}, got {_show(v)}")
        return v

    return AfterValidator(check)


def _positive(v: Any) -> Any:
    if v <= 0:
        raise ValueError(f"must be greater than 0, got {_show(v)}")
    return v


def _hint(word: str, choices: typing.Iterable[str]) -> str:
    """`` (did you mean X?)`` for a near miss, else empty."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close and close[0] != word else ""


def _rule(v: str) -> str:
    """A special rule as written in the rulebook, ``Fearless`` or ``Tough(3)``; checked with ``parse_rule``."""
    try:
        name, value = parse_rule(v)
    except ValueError as e:
        m = re.match(r"\s*([A-Za-z][A-Za-z ]*?)\s*(?:\(|$)", v)
        hint = _hint(m.group(1), KNOWN_RULES) if m and m.group(1) not in KNOWN_RULES else ""
        raise ValueError(f"{e}{hint}") from None
    if value is not None and value < 1:
        raise ValueError(f"special rule {name}({value}) needs a value of at least 1")
    return v


def _upgrade(v: str) -> str:
    if v not in UPGRADES:
        raise ValueError(f"unknown upgrade {v!r} (upgrades: {', '.join(sorted(UPGRADES))})")
    return v


def _kind(v: str) -> str:
    if v not in KIND_TRAITS:
        raise ValueError(f"unknown terrain kind {v!r}{_hint(v, KINDS)} (kinds: {', '.join(KINDS)})")
    return v


def _trait(v: str) -> str:
    if v not in KNOWN_TRAITS:
        raise ValueError(f"unknown terrain trait {v!r}{_hint(v, KNOWN_TRAITS)} "
                         f"(traits: {', '.join(sorted(KNOWN_TRAITS))})")
    return v


def _unit_id(v: str) -> str:
    if any(c.isspace() for c in v):
        raise ValueError(f"a unit id may not contain spaces, got {v!r}")
    return v


def _player(v: int) -> int:
    if v not in (1, 2):
        raise ValueError(f"must be 1 or 2, got {v}")
    return v


def _one_of(*choices: str) -> AfterValidator:
    def check(v: str) -> str:
        if v not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}; got {v!r}")
        return v

    return AfterValidator(check)


def _playable_ruleset(v: str) -> str:
    """A ruleset the engine can play; a planned one is refused saying it is not playable yet (issue 14)."""
    if v not in ENGINE_RULESETS:     # the registry itself: a ruleset registered later is accepted too
        raise ValueError(unplayable(v))
    return v


def _not_playable_yet(rule: str) -> AfterValidator:
    """Refuse ``true`` for an optional rule the engine cannot play: a switch that changes nothing would make the
    players believe the rule is applied."""
    def check(v: bool) -> bool:
        if v:
            raise ValueError(f"{rule} cannot be played yet; remove the key or set it to false")
        return v

    return AfterValidator(check)


def _base(v: list[float]) -> list[float]:
    if len(v) != 2:
        raise ValueError(f"must be [width, depth] in millimetres, got {len(v)} numbers")
    if v[0] <= 0 or v[1] <= 0:
        raise ValueError(f"base sizes must be greater than 0 mm, got [{v[0]:g}, {v[1]:g}]")
    return v


def _point(v: list[float]) -> list[float]:
    if len(v) != 2:
        raise ValueError(f"a point must be [x, y] in inches, got {len(v)} numbers")
    return v


Number = Annotated[float, BeforeValidator(_number)]
Int = Annotated[int, BeforeValidator(_integer)]
Text = Annotated[str, BeforeValidator(_text)]
Score = Annotated[Int, _between(2, 6)]
RuleText = Annotated[Text, AfterValidator(_rule)]
UpgradeText = Annotated[Text, AfterValidator(_upgrade)]
KindText = Annotated[Text, AfterValidator(_kind)]
TraitText = Annotated[Text, AfterValidator(_trait)]
UnitId = Annotated[Text, AfterValidator(_unit_id)]
PlayerNo = Annotated[Int, AfterValidator(_player)]
Positive = Annotated[Number, AfterValidator(_positive)]
PhaseText = Annotated[Text, _one_of(*(p.value for p in Phase))]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)


class WeaponModel(_Model):
    """``{name, attacks, range?, rules?}`` (rulebook "Weapons")."""

    name: Text
    attacks: Annotated[Int, _at_least(1)]
    range: Positive | None = None
    rules: Annotated[list[RuleText], Field(max_length=MAX_LIST_ITEMS)] = []


class ProfileModel(_Model):
    """A unit profile (rulebook "Unit Stats")."""

    quality: Score
    defense: Score
    base: Annotated[list[Number], AfterValidator(_base)]
    size: Annotated[Int, _at_least(1)]
    cost: Annotated[Int, _at_least(0)]
    weapons: Annotated[list[WeaponModel], Field(max_length=MAX_LIST_ITEMS)] = []
    rules: Annotated[list[RuleText], Field(max_length=MAX_LIST_ITEMS)] = []
    artillery_type: Annotated[Int, _between(1, 3)] | None = None


class PoseModel(_Model):
    """``{x, y, facing}``: centre in inches, facing bearing in degrees."""

    x: Number
    y: Number
    facing: Number


class PointModel(_Model):
    """``{x, y}``: a model's centre (AoF: Skirmish), inches."""

    x: Number
    y: Number


class UnitModel(_Model):
    """One unit of an army."""

    id: UnitId
    profile: Text
    models: Annotated[Int, _between(1, MAX_MODELS_PER_UNIT)]
    per_row: Annotated[Int, _at_least(1)] | None = None
    upgrades: Annotated[list[UpgradeText], Field(max_length=MAX_LIST_ITEMS)] = []
    joined_by: Text | None = None
    embarked_in: Text | None = None
    pose: PoseModel | None = None
    positions: Annotated[list[PointModel], Field(max_length=MAX_MODELS_PER_UNIT)] | None = None
    command_picks: Annotated[list[Text], Field(max_length=3)] = []


class SpellHitsModel(_Model):
    """Spell effect ``hits: {count, ap, cover}``."""

    count: Annotated[Int, _between(1, 40)]
    ap: Annotated[Int, _between(0, 6)] = 0
    cover: bool = False


def _nonzero(v: int) -> int:
    if v == 0:
        raise ValueError("must not be 0")
    return v


class SpellModifierModel(_Model):
    """Spell effect ``modifier: {stat, value, duration}``."""

    stat: Annotated[Text, _one_of(*STATS)]
    value: Annotated[Int, _between(-6, 6), AfterValidator(_nonzero)]
    duration: Annotated[Text, _one_of(*DURATIONS)] = "turn"


class SpellHealModel(_Model):
    """Spell effect ``heal: {wounds}``."""

    wounds: Annotated[Int, _between(1, 40)]


MAX_SPELL_RADIUS = 12.0
"""Largest ``area.radius`` of a spell aimed at a point, inches (the army books' areas are 3" to 6")."""


class SpellAreaModel(_Model):
    """Spell ``area: {radius, affects}`` of a spell aimed at a point."""

    radius: Annotated[Number, _between(0.5, MAX_SPELL_RADIUS)]
    affects: Annotated[Text, _one_of(*AFFECTS)]


class SpellModel(_Model):
    """A spell (rulebook "Caster(X)"; docs/formats.md "Spells")."""

    name: Text
    value: Annotated[Int, _between(1, 6)]
    target: Annotated[Text, _one_of(*TARGETS)]
    range: Positive | None = None
    hits: SpellHitsModel | None = None
    modifier: SpellModifierModel | None = None
    heal: SpellHealModel | None = None
    rally: bool = False
    description: Text | None = None
    area: SpellAreaModel | None = None
    values: Annotated[dict[Text, Int], Field(max_length=len(ENGINE_RULESETS))] = {}


class ArmyTopModel(_Model):
    """An army in a scenario; profiles and units are checked one by one."""

    player: PlayerNo
    name: Text | None = None
    general: Text | None = None
    include: Text | None = None
    profiles: Annotated[dict[Text, Any], Field(max_length=MAX_PROFILES)] = {}
    spells: Annotated[list[Any], Field(max_length=MAX_LIST_ITEMS)] = []
    units: Annotated[list[Any], Field(max_length=MAX_UNITS_PER_ARMY)]


def _upgrade_keys(v: dict[str, int]) -> dict[str, int]:
    for key in v:
        _upgrade(key)
    return v


class ArmyFileModel(_Model):
    """An army file; profiles are checked one by one."""

    format: Annotated[Text, _one_of(ARMY_FORMAT)]
    name: Text
    description: Text | None = None
    upgrade_costs: Annotated[dict[Text, Annotated[Int, _at_least(0)]], AfterValidator(_upgrade_keys)] = {}
    profiles: Annotated[dict[Text, Any], Field(max_length=MAX_PROFILES)]
    spells: Annotated[list[Any], Field(max_length=MAX_LIST_ITEMS)] = []


class TableModel(_Model):
    """``{width, depth}`` in inches."""

    width: Annotated[Number, _between(6, 240)] = 72.0
    depth: Annotated[Number, _between(6, 240)] = 48.0


class RectModel(_Model):
    """``{x, y, width, depth, angle}``: a rectangle centred on (x, y), turned clockwise by ``angle`` degrees."""

    x: Number
    y: Number
    width: Positive
    depth: Positive
    angle: Number = 0.0


class TerrainModel(_Model):
    """One terrain piece."""

    name: Text | None = None
    kind: KindText
    traits: list[TraitText] | None = None
    polygon: Annotated[list[Annotated[list[Number], AfterValidator(_point)]],
                       Field(max_length=MAX_POLYGON_POINTS)] | None = None
    rect: RectModel | None = None
    height: Annotated[Number, _at_least(0)] | None = None


class OptionsModel(_Model):
    """Optional rules (rulebook "Optional Rules")."""

    random_charge_distance: bool = False
    artillery_scatter: bool = False
    spell_tokens: Annotated[Text, _one_of(*SPELL_TOKEN_MODES)] = "basic"
    # AoWFBR's optional rules point to AoF:R's Advanced Rules p.34 for it, a page not among our rulebooks: refused by
    # name rather than as an unknown key, so that a group who agreed on it learns why
    winds_of_power: Annotated[bool, _not_playable_yet(
        "Winds of Power (AoWFBR \"Optional Rules\", from AoF:R Advanced Rules p.34, which this program does not "
        "have)")] = False

    def model_dump_options(self) -> dict[str, object]:
        """The options the engine plays (``winds_of_power`` is only ever false, and not kept)."""
        return self.model_dump(exclude={"winds_of_power"})


class ObjectiveModel(_Model):
    """``{x, y}``: an objective marker, inches."""

    x: Number
    y: Number


class SideMissionsModel(_Model):
    """``{playstyle, selection}``: AoF:R 2.16 "Side-Missions" (game.engine.side_missions)."""

    playstyle: Annotated[Text, _one_of(*PLAYSTYLES, SIDE_RANDOM)]
    selection: Annotated[Text, _one_of(*SELECTIONS, SIDE_RANDOM)]


class StartModel(_Model):
    """``{round, player, phase}``."""

    round: Annotated[Int, _at_least(1)]
    player: PlayerNo
    phase: PhaseText


class ScenarioTopModel(_Model):
    """A scenario; terrain pieces and armies are checked one by one."""

    format: Annotated[Text, _one_of(SCENARIO_FORMAT)]
    name: Text
    description: Text | None = None
    ruleset: Annotated[Text, AfterValidator(_playable_ruleset)]
    table: TableModel = TableModel()
    rounds: Annotated[Int, _between(1, 99)] = 4
    seed: Int | None = None
    options: OptionsModel = OptionsModel()
    mission: Annotated[Text, _one_of(*ALL_MISSIONS, "none")] | None = None
    objectives: Annotated[list[ObjectiveModel], Field(max_length=MAX_OBJECTIVES)] | None = None
    deployment: Annotated[Text, _one_of(*ALL_STYLES)] | None = None
    side_missions: SideMissionsModel | None = None
    force_org: bool = False
    terrain: Annotated[list[Any], Field(max_length=MAX_TERRAIN_PIECES)] = []
    armies: Annotated[list[Any], Field(max_length=MAX_ARMIES),
                      AfterValidator(lambda v: v if v else _raise("must list at least one army"))]
    start: StartModel | None = None


def _raise(message: str) -> Any:
    raise ValueError(message)


# ---------------------------------------------------------------------------------------------------------------
# Mapping pydantic errors to problems
# ---------------------------------------------------------------------------------------------------------------


def _unwrap(tp: Any) -> Any:
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model class validating the mapping at ``loc`` inside ``model``, if any."""
    tp: Any = model
    for part in loc:
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            f = tp.model_fields.get(part) if isinstance(part, str) else None
            if f is None:
                return None
            tp = f.annotation
        elif get_origin(tp) is list and isinstance(part, int):
            tp = get_args(tp)[0]
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        else:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _message(err: Mapping[str, Any], model: type[BaseModel]) -> str:
    kind = err["type"]
    value = err.get("input")
    loc = tuple(err["loc"])
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        allowed = f" (keys: {', '.join(parent.model_fields)})" if parent is not None else ""
        return f"unknown key{allowed}"
    if kind == "value_error":
        return str(err.get("ctx", {}).get("error", err["msg"]))
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be a mapping of keys, got {_show(value)}"
    if kind in ("list_type", "tuple_type"):
        return f"must be a list, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, got {_show(value)}"
    if kind == "too_long":
        ctx = err.get("ctx", {})
        return (f"{ctx.get('actual_length') or 'too many'} items; at most {ctx.get('max_length')} "
                "(docs/formats.md \"Limits\")")
    if kind == "finite_number":
        return f"must be a finite number, got {_show(value)}"
    if kind in ("string_type",):
        return f"must be text, got {_show(value)}"
    return f"{err['msg']}, got {_show(value)}"


_M = typing.TypeVar("_M", bound=BaseModel)


def _validate(model: type[_M], data: Any, doc: _Doc, prefix: Loc, out: list[_Problem]) -> _M | None:
    """Validate ``data`` with ``model``; problems (paths under ``prefix``) go to ``out``; None if invalid."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        for err in e.errors(include_url=False):
            loc = prefix + tuple(err["loc"])
            out.append(doc.problem(loc, _message(err, model), key=err["type"] == "extra_forbidden"))
        return None


def _field(model: type[BaseModel], data: Mapping[str, Any], name: str, fallback: Any) -> Any:
    """The validated value of one field of ``model`` in ``data`` (its default if absent), or ``fallback`` if
    it is invalid. Lets later checks use the good parts of a file whose other parts are bad."""
    info = model.model_fields[name]
    if name not in data:
        return fallback if info.is_required() else info.get_default(call_default_factory=True)
    try:
        return _adapter(model, name).validate_python(data[name])
    except ValidationError:
        return fallback


@functools.cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = model.model_fields[name]
    tp: Any = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
    return TypeAdapter(tp)


# ---------------------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _LoadedArmyFile:
    name: str | None
    description: str | None
    profiles: dict[str, Profile]
    broken: set[str]
    upgrade_costs: dict[str, int] = field(default_factory=dict)
    spells: dict[str, Spell] = field(default_factory=dict)


@dataclass
class _Session:
    """State of one load: the problems found and the army files read so far."""

    problems: list[_Problem] = field(default_factory=list)
    army_files: dict[str, _LoadedArmyFile | None] = field(default_factory=dict)

    def add(self, p: _Problem) -> None:
        self.problems.append(p)

    # --- profiles -------------------------------------------------------------------------------------------
    def profiles(self, raw: Mapping[Any, Any], doc: _Doc, prefix: Loc
                 ) -> tuple[dict[str, Profile], set[str]]:
        """Validate a ``profiles`` mapping: the good profiles by name and the names of bad ones."""
        good: dict[str, Profile] = {}
        broken: set[str] = set()
        for key, value in raw.items():
            name = str(key)
            loc = prefix + (name,)
            pm = _validate(ProfileModel, value, doc, loc, self.problems)
            if pm is None:
                broken.add(name)
                continue
            seen: dict[str, int] = {}
            for i, w in enumerate(pm.weapons):
                if w.name in seen:
                    self.add(doc.problem(loc + ("weapons", i, "name"),
                                         f"duplicate weapon name {w.name!r} (also weapons[{seen[w.name]}])"))
                seen.setdefault(w.name, i)
            good[name] = Profile(
                name=name,
                quality=pm.quality,
                defense=pm.defense,
                base_width_mm=float(pm.base[0]),
                base_depth_mm=float(pm.base[1]),
                size=pm.size,
                cost=pm.cost,
                weapons=tuple(Weapon(w.name, w.attacks, None if w.range is None else float(w.range), tuple(w.rules))
                              for w in pm.weapons),
                rules=tuple(pm.rules),
                artillery_type=pm.artillery_type,
            )
            if pm.artillery_type is not None and not is_artillery_profile(good[name]):
                self.add(doc.problem(loc + ("artillery_type",), "only artillery has an artillery type (Random "
                                     "Scatter for Artillery): a profile with Immobile and a ranged weapon"))
                del good[name]
                broken.add(name)
        return good, broken

    def spells(self, raw: list[Any], doc: _Doc, prefix: Loc) -> dict[str, Spell]:
        """Validate a ``spells`` list (docs/formats.md "Spells"): the good spells by name."""
        good: dict[str, Spell] = {}
        first: dict[str, int] = {}
        for i, item in enumerate(raw):
            loc = prefix + (i,)
            sm = _validate(SpellModel, item, doc, loc, self.problems)
            if sm is None:
                continue
            bad = False
            if sm.name in first:
                self.add(doc.problem(loc + ("name",), f"duplicate spell name {sm.name!r} "
                                                      f"(also {_path(prefix + (first[sm.name],))})"))
                bad = True
            first.setdefault(sm.name, i)
            if sm.hits is None and sm.modifier is None and sm.heal is None and not sm.rally:
                self.add(doc.problem(loc, "a spell needs at least one effect: hits, modifier, heal or rally"))
                bad = True
            if sm.target != "self" and sm.range is None:
                what = "a point" if sm.target == "point" else f"a unit ({sm.target})"
                self.add(doc.problem(loc, f"missing range: a spell that targets {what} needs a range in inches"))
                bad = True
            if sm.target == "point" and sm.area is None:
                self.add(doc.problem(loc, "missing area: a spell that targets a point needs area: {radius, affects}"))
                bad = True
            if sm.target != "point" and sm.area is not None:
                self.add(doc.problem(loc + ("area",), "an area needs target point"))
                bad = True
            affects = sm.area.affects if sm.area is not None and sm.target == "point" else None
            if sm.target == "self" and sm.range is not None:
                self.add(doc.problem(loc + ("range",), "a spell with target self has no range"))
                bad = True
            unknown = sm.target == "point" and affects is None    # reported as a missing area above
            if sm.hits is not None and sm.target != "enemy" and affects not in ("enemy", "all") and not unknown:
                self.add(doc.problem(loc + ("hits",), "hits need target enemy, or target point with area.affects "
                                                      "enemy or all"))
                bad = True
            for key, present in (("heal", sm.heal is not None), ("rally", sm.rally)):
                if present and (sm.target == "enemy" or (sm.target == "point" and affects != "friend" and not unknown)):
                    self.add(doc.problem(loc + (key,), f"{key} needs target friend or self, or target point with "
                                                       "area.affects friend"))
                    bad = True
            for rid, v in sm.values.items():
                if rid not in ENGINE_RULESETS:
                    self.add(doc.problem(loc + ("values", rid), f"a spell's value is given for a ruleset: "
                                                                f"{unplayable(rid)}"))
                    bad = True
                    continue
                lo, hi = getattr(ENGINE_RULESETS[rid], "spell_values", (1, 6))
                if not lo <= v <= hi:
                    self.add(doc.problem(loc + ("values", rid), f"a spell's value under {rid} must be {lo} to {hi}, "
                                                                f"got {v}"))
                    bad = True
            if bad:
                continue
            good[sm.name] = Spell(
                name=sm.name, value=sm.value, target=sm.target,
                range=None if sm.range is None else float(sm.range),
                hits=None if sm.hits is None else SpellHits(sm.hits.count, sm.hits.ap, sm.hits.cover),
                modifier=None if sm.modifier is None else SpellModifier(sm.modifier.stat, sm.modifier.value,
                                                                        sm.modifier.duration),
                heal=0 if sm.heal is None else sm.heal.wounds, rally=sm.rally, description=sm.description,
                area=None if sm.area is None else SpellArea(float(sm.area.radius), sm.area.affects),
                values=tuple(sorted(sm.values.items())))
        return good

    def army_file(self, path: Path, read: YamlFile | None = None) -> _LoadedArmyFile | None:
        """Read an army file once (a second include of the same file reuses it); ``read``: already read."""
        key = os.path.normcase(os.path.abspath(path))
        if key in self.army_files:
            return self.army_files[key]
        result: _LoadedArmyFile | None = None
        loaded = _read_yaml(path, self.problems, read)
        if loaded is not None:
            doc, data = loaded
            if not isinstance(data, dict):
                self.add(doc.problem((), "an army file must be a mapping of keys (format, name, profiles)"))
            else:
                _validate(ArmyFileModel, data, doc, (), self.problems)
                raw = _field(ArmyFileModel, data, "profiles", {})
                profiles, broken = self.profiles(raw, doc, ("profiles",))
                result = _LoadedArmyFile(_field(ArmyFileModel, data, "name", None),
                                         _field(ArmyFileModel, data, "description", None), profiles, broken,
                                         dict(_field(ArmyFileModel, data, "upgrade_costs", {})),
                                         self.spells(_field(ArmyFileModel, data, "spells", []), doc, ("spells",)))
        self.army_files[key] = result
        return result

    # --- terrain --------------------------------------------------------------------------------------------
    def terrain(self, raw: list[Any], doc: _Doc, table: Table | None) -> tuple[list[TerrainShape], list[str]]:
        shapes: list[TerrainShape] = []
        kinds: list[str] = []
        for i, item in enumerate(raw):
            loc: Loc = ("terrain", i)
            tm = _validate(TerrainModel, item, doc, loc, self.problems)
            if tm is None:
                continue
            if tm.polygon is None and tm.rect is None:
                self.add(doc.problem(loc, "needs a polygon or a rect"))
                continue
            if tm.polygon is not None and tm.rect is not None:
                self.add(doc.problem(loc + ("rect",), "give either polygon or rect, not both"))
                continue
            if tm.rect is not None:
                r = tm.rect
                points = rect_to_polygon(r.x, r.y, r.width, r.depth, r.angle)
                where: Loc = loc + ("rect",)
            else:
                assert tm.polygon is not None
                points = tuple((float(p[0]), float(p[1])) for p in tm.polygon)
                where = loc + ("polygon",)
                if len(points) < 3:
                    self.add(doc.problem(where, f"needs at least 3 points, got {len(points)}"))
                    continue
                poly = Polygon(points)
                if poly.convex_hull.area <= 0:
                    self.add(doc.problem(where, "outline has no area: its points lie on one line"))
                    continue
                if not poly.is_valid:
                    reason = explain_validity(poly)
                    m = re.search(r"\[([-\d.e+]+) ([-\d.e+]+)\]", reason)
                    near = f" near ({float(m.group(1)):g}, {float(m.group(2)):g})" if m else ""
                    self.add(doc.problem(where, f"outline crosses itself{near}: list the points in order "
                                                "around the piece"))
                    continue
            if table is not None and not Polygon(points).intersects(box(0, 0, table.width, table.depth)):
                self.add(doc.problem(where, "lies entirely off the table"))
                continue
            name = tm.name or f"{tm.kind.capitalize()} {i + 1}"
            traits = frozenset(tm.traits) if tm.traits is not None else KIND_TRAITS[tm.kind]
            height = float(tm.height) if tm.height is not None else KIND_HEIGHT[tm.kind]
            try:
                shapes.append(TerrainShape(len(shapes), name, points, traits, height))
            except ValueError as e:  # pragma: no cover - the checks above catch what TerrainShape refuses
                self.add(doc.problem(where, str(e)))
                continue
            kinds.append(tm.kind)
        return shapes, kinds


@dataclass
class _UnitEntry:
    army: int  # index in armies
    player: int
    index: int  # index in the army's units
    spec: UnitSpec
    profile: Profile | None


def _load_army(raw: Any, ai: int, doc: _Doc, source: Path, state: _Session, first_army_of: dict[int, int],
               entries: list[_UnitEntry], broken_ids: set[str]) -> ArmySpec | None:
    """Validate ``armies[ai]``: its player, its profiles (the included army file's, then its own over them), its
    spells and its units (added to ``entries``; the ids of units too broken to read to ``broken_ids``). Problems go
    to ``state``; the army if it names its player."""
    out = state.problems
    aloc: Loc = ("armies", ai)
    if not isinstance(raw, dict):
        out.append(doc.problem(aloc, f"an army must be a mapping of keys, got {_show(raw)}"))
        return None
    _validate(ArmyTopModel, raw, doc, aloc, out)
    player = _field(ArmyTopModel, raw, "player", None)
    if player is not None:
        if player in first_army_of:
            out.append(doc.problem(aloc + ("player",),
                                   f"player {player} already has an army (armies[{first_army_of[player]}])"))
        else:
            first_army_of[player] = ai
    include = _field(ArmyTopModel, raw, "include", None)
    included, profiles, broken = _army_profiles(raw, aloc, include, doc, source, state)
    spells = dict(included.spells) if included is not None else {}
    spells.update(state.spells(_field(ArmyTopModel, raw, "spells", []), doc, aloc + ("spells",)))
    name = _field(ArmyTopModel, raw, "name", None) or (included.name if included else None) \
        or f"Player {player or ai + 1}"
    units: list[UnitSpec] = []
    for ui, uraw in enumerate(_field(ArmyTopModel, raw, "units", [])):
        loaded = _load_unit(uraw, aloc + ("units", ui), doc, profiles, broken, out)
        if loaded is None:
            if isinstance(uraw, dict) and isinstance(uraw.get("id"), str):
                broken_ids.add(uraw["id"])
            continue
        spec, profile = loaded
        units.append(spec)
        entries.append(_UnitEntry(ai, player or 0, ui, spec, profile))
    general = _field(ArmyTopModel, raw, "general", None)
    if player is None:
        return None
    return ArmySpec(player, name, general, profiles, tuple(units), include, spells)


def _army_profiles(raw: dict[str, Any], aloc: Loc, include: str | None, doc: _Doc, source: Path, state: _Session
                   ) -> tuple[_LoadedArmyFile | None, dict[str, Profile], set[str]]:
    """An army's profiles: the included army file's, then its own over them; returns the included file (None if
    none or unreadable), the profiles by name and the names of broken ones (``*``: any unknown name may be one)."""
    out = state.problems
    included: _LoadedArmyFile | None = None
    profiles: dict[str, Profile] = {}
    broken: set[str] = set()
    if include is not None:
        inc_path = Path(include)
        if not inc_path.is_absolute():
            inc_path = source.parent / inc_path
        if not inc_path.is_file():
            out.append(doc.problem(aloc + ("include",), f"no army file {_display(inc_path)}"))
            broken.add("*")  # every unknown profile may come from the missing file: don't report them
        else:
            included = state.army_file(inc_path)
            if included is None:
                broken.add("*")
            else:
                profiles.update(included.profiles)
                broken |= included.broken
    own, own_broken = state.profiles(_field(ArmyTopModel, raw, "profiles", {}), doc, aloc + ("profiles",))
    profiles.update(own)
    broken |= own_broken
    return included, profiles, broken


def _load_unit(uraw: Any, uloc: Loc, doc: _Doc, profiles: dict[str, Profile], broken: set[str], out: list[_Problem]
               ) -> tuple[UnitSpec, Profile | None] | None:
    """Validate one ``armies[].units[]`` entry against the army's profiles; None if it cannot be read at all."""
    um = _validate(UnitModel, uraw, doc, uloc, out)
    if um is None:
        return None
    spec = UnitSpec(
        id=um.id,
        profile=um.profile,
        models=um.models,
        per_row=um.per_row,
        upgrades=frozenset(um.upgrades),
        joined_by=um.joined_by,
        embarked_in=um.embarked_in,
        pose=Pose(float(um.pose.x), float(um.pose.y), float(um.pose.facing)) if um.pose else None,
        positions=tuple((float(p.x), float(p.y)) for p in um.positions or ()),
        command_picks=tuple(um.command_picks),
    )
    profile = profiles.get(um.profile)
    if profile is None:
        if um.profile not in broken and "*" not in broken:
            known = ", ".join(sorted(profiles)) or "none"
            out.append(doc.problem(uloc + ("profile",),
                                   f"unknown profile {um.profile!r}{_hint(um.profile, profiles)} "
                                   f"(profiles: {known})"))
    else:
        _check_models(doc, uloc, um, profile, out)
    for i, up in enumerate(um.upgrades):
        if up in um.upgrades[:i]:
            out.append(doc.problem(uloc + ("upgrades", i),
                                   f"{up} listed twice (rulebook Command Groups: one of each per unit)"))
    return spec, profile


def _load(data: Any, doc: _Doc, source: Path, state: _Session) -> Scenario | None:
    """Validate a scenario mapping; problems go to ``state``; the Scenario if there were none."""
    out = state.problems
    if not isinstance(data, dict):
        out.append(doc.problem((), "a scenario file must be a mapping of keys (format, name, ruleset, armies, ...)"))
        return None
    _validate(ScenarioTopModel, data, doc, (), out)
    table_m = _field(ScenarioTopModel, data, "table", None)
    table = Table(float(table_m.width), float(table_m.depth)) if table_m is not None else None
    rounds = _field(ScenarioTopModel, data, "rounds", None)
    start_m: StartModel | None = _field(ScenarioTopModel, data, "start", None)

    terrain, kinds = state.terrain(_field(ScenarioTopModel, data, "terrain", []), doc, table)

    armies_raw = _field(ScenarioTopModel, data, "armies", [])
    armies: list[tuple[int, ArmySpec]] = []  # (index in file, army)
    entries: list[_UnitEntry] = []
    broken_ids: set[str] = set()
    first_army_of: dict[int, int] = {}
    for ai, raw in enumerate(armies_raw):
        army = _load_army(raw, ai, doc, source, state, first_army_of, entries, broken_ids)
        if army is not None:
            armies.append((ai, army))

    _check_ids(doc, entries, out)
    _check_generals(doc, armies, entries, broken_ids, out)
    _check_joins(doc, entries, broken_ids, out)
    _check_transports(doc, entries, broken_ids, out)
    if table is not None:
        _check_poses(doc, entries, table, terrain, out)
    start = _check_start(doc, start_m, rounds, entries, out)
    mission, markers = _check_mission(doc, data, table, terrain, out)
    _check_ruleset_rules(doc, _field(ScenarioTopModel, data, "ruleset", ""), entries, terrain, start_m, out)
    if table is not None:
        _check_loose(doc, _field(ScenarioTopModel, data, "ruleset", ""), entries, table, terrain, out)
    _check_ruleset_game(doc, data, mission, out)
    _check_ruleset_armies(doc, data, armies, entries, out)

    if out:
        return None
    assert table is not None and rounds is not None
    options = dict(OPTION_DEFAULTS)
    options.update(_field(ScenarioTopModel, data, "options", OptionsModel()).model_dump_options())
    by_player = {army.player: army for _, army in armies}
    scenario = Scenario(
        name=_field(ScenarioTopModel, data, "name", ""),
        ruleset=_field(ScenarioTopModel, data, "ruleset", ""),
        table=table,
        rounds=rounds,
        seed=_field(ScenarioTopModel, data, "seed", None),
        options=options,
        terrain=tuple(terrain),
        terrain_kinds=tuple(kinds),
        armies=by_player,
        start=start,
        source=source,
        description=_field(ScenarioTopModel, data, "description", None),
        mission=mission,
        objectives=markers,
        deployment=_field(ScenarioTopModel, data, "deployment", None),
        side_missions=_side_missions(data),
    )
    starts_deploying = scenario.start.phase is Phase.DEPLOYMENT if scenario.start is not None \
        else scenario.needs_deployment()
    if mission is not None and not markers and mission not in FIXED_MISSIONS and not starts_deploying:
        out.append(doc.problem(("mission",), "the players place the objective markers before deployment, but this "
                                             "scenario starts with every unit placed: give the markers with "
                                             "objectives: [{x, y}, ...]"))
        return None
    for key, what in (("deployment", "a deployment style is chosen"), ("side_missions", "side-missions are "
                                                                                         "selected")):
        if data.get(key) is not None and not starts_deploying:
            out.append(doc.problem((key,), f"{what} before deployment, but this scenario starts with every unit "
                                           "placed: leave it out or let the players deploy"))
            return None
    return scenario


@dataclass(frozen=True)
class RulesetContent:
    """What the profiles of a scenario under one ruleset may use (``ruleset_content``)."""

    ruleset: str
    """The ruleset's id (``aowfbr-1.4``)."""
    title: str
    """``Age of Fantasy: Regiments 2.16 (aofr-2.16)``: the name messages give."""
    special_rules: frozenset[str]
    """Special rule names (unit and weapon rules) a profile may carry."""
    upgrades: frozenset[str]
    """Command group upgrades a unit may take."""
    valueless_rules: frozenset[str] = frozenset()
    """Rules of ``profiles.VALUE_OPTIONAL`` this ruleset writes without a value (AoF:R 2.16 ``Fear``)."""
    upgrade_hints: Mapping[str, str] = field(default_factory=dict)
    """Per refused upgrade, what to write instead (AoF:R 2.16: ``musician`` -> ``banner``)."""
    rule_hints: Mapping[str, str] = field(default_factory=dict)
    """Per refused special rule, why or what to write instead (AoF:R 2.16: ``Caster`` -> ``Wizard(X)``)."""


def ruleset_content(ruleset: str) -> RulesetContent:
    """The special rules and upgrades a scenario of the playable ruleset ``ruleset`` may use: the ruleset's own
    ``special_rules`` and ``upgrades`` (``game.engine.rulesets.base.Ruleset``; None there: every one the program
    knows, ``profiles.KNOWN_RULES`` / ``UPGRADES``). The one source of what the loader accepts per ruleset
    (``_check_ruleset_rules``) and of what an Army Forge import maps onto (``game.armyforge.rulesets``). Raises
    ``ValueError`` naming the problem for a ruleset not playable (``unplayable``)."""
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        raise ValueError(unplayable(ruleset))
    rules: frozenset[str] | None = getattr(factory, "special_rules", None)
    upgrades: frozenset[str] | None = getattr(factory, "upgrades", None)
    return RulesetContent(ruleset, f"{getattr(factory, 'title', ruleset)} ({ruleset})",
                          KNOWN_RULES if rules is None else frozenset(rules),
                          UPGRADES if upgrades is None else frozenset(upgrades),
                          frozenset(getattr(factory, "valueless_rules", frozenset())),
                          dict(getattr(factory, "upgrade_hints", {})), dict(getattr(factory, "rule_hints", {})))


def _check_ruleset_rules(doc: _Doc, ruleset: str, entries: list[_UnitEntry], terrain: list[TerrainShape],
                         start_m: StartModel | None, out: list[_Problem]) -> None:
    """A unit whose profile uses a special rule (its own or a weapon's) or an upgrade, or a terrain piece with a
    trait, that the scenario's ruleset does not play is refused, naming the ruleset (issue 14;
    ``ruleset_content``, ``Ruleset.terrain_traits``)."""
    factory = ENGINE_RULESETS.get(ruleset)
    content = ruleset_content(ruleset) if factory is not None else None
    traits: frozenset[str] | None = getattr(factory, "terrain_traits", None)
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    phases: frozenset[str] | None = getattr(factory, "start_phases", None)
    if phases is None:
        phases = frozenset(p.value for p in Phase if p is not Phase.ACTIVATION)
    if start_m is not None and start_m.phase not in phases:
        out.append(doc.problem(("start", "phase"), f"{title} has no {start_m.phase} phase; a game of it may start "
                               f"in: {', '.join(sorted(phases))}"))
    if traits is not None:
        for i, piece in enumerate(terrain):
            extra = sorted(piece.traits - traits)
            if extra:
                out.append(doc.problem(("terrain", i), f"{piece.name} is {', '.join(extra)} terrain, which {title} "
                                       f"does not play here; it plays: {', '.join(sorted(traits))}"))
    elevation: float | None = getattr(factory, "elevation_height", None)
    if elevation is not None:
        for i, piece in enumerate(terrain):
            if ELEVATED in piece.traits and piece.height >= elevation:
                out.append(doc.problem(("terrain", i), f"{piece.name} is {piece.height:g}\" tall: {title} counts "
                                       f"pieces {elevation:g}\" or taller as Elevation (vertical movement counted), "
                                       f"which is not played here; give it a height under {elevation:g}\""))
    for e in entries:
        loc: Loc = ("armies", e.army, "units", e.index)
        if e.profile is not None and content is not None:
            problem = profile_rule_problem(e.profile, content)
            if problem is not None:
                out.append(doc.problem(loc + ("profile",), problem))
        if content is not None:
            for message in upgrade_problems(e.spec.upgrades, content):
                out.append(doc.problem(loc + ("upgrades",), message))


def profile_rule_problem(profile: Profile, content: RulesetContent) -> str | None:
    """Why a unit of ``profile`` cannot be played under ``content``'s ruleset: its first special rule (its own or a
    weapon's) the ruleset does not play, in the words the loader refuses it with; None when it plays them all
    (issue 14; the battle set-up flags list entries with it before "Start battle")."""
    used = [(r, None) for r in profile.rules] + [(r, w.name) for w in profile.weapons for r in w.rules]
    for text, weapon in used:
        why = rule_refusal(text, content)
        if why is not None:
            where = f" (weapon {weapon})" if weapon else ""
            return f"{profile.name} has {text}{where}{why}"
    return None


def rule_refusal(text: str, content: RulesetContent) -> str | None:
    """Why the special rule ``text`` (as written: ``Fear``, ``Tough(3)``) is not played under ``content``'s ruleset,
    as the end of the loader's sentence (", a special rule ... does not have here; ..." or ": ... writes Fear,
    without a value"); None when it is played as written."""
    name, value = parse_rule(text)
    if name not in content.special_rules:
        hint = content.rule_hints.get(name)
        return (f", a special rule {content.title} does not have here" + (f" ({hint})" if hint else "") +
                f"; it plays: {', '.join(sorted(content.special_rules))}")
    if name in VALUE_OPTIONAL and (value is None) != (name in content.valueless_rules):
        how = f"{name}, without a value" if name in content.valueless_rules else f"{name}(X), with a value"
        return f": {content.title} writes {how}"
    return None


def upgrade_problems(upgrades: Iterable[str], content: RulesetContent) -> list[str]:
    """The loader's message for each of ``upgrades`` (command group upgrades of a unit) ``content``'s ruleset does
    not play, in order."""
    out = []
    for up in sorted(upgrades):
        if up not in content.upgrades:
            hint = content.upgrade_hints.get(up, "")
            out.append(f"{content.title} has no {up} upgrade here; it plays: "
                       f"{', '.join(sorted(content.upgrades)) or 'none'}" + (f" ({hint})" if hint else ""))
    return out


def _check_picks(doc: _Doc, loose: bool, e: _UnitEntry, entries: list[_UnitEntry], loc: Loc,
                 out: list[_Problem]) -> None:
    """AoF: Skirmish "Command Groups": a Musician or Banner unit's ``command_picks`` are up to 3 other units of its
    army, each once; other units and other rulesets have none."""
    picks = e.spec.command_picks
    if not picks:
        return
    if not loose or not e.spec.upgrades & PICKING_UPGRADES:
        out.append(doc.problem(loc + ("command_picks",), "only a Musician or Banner unit of AoF: Skirmish "
                               f"(ruleset: {SKIRMISH_ID}) picks friendly units (\"Command Groups\")"))
        return
    friends = {o.spec.id for o in entries if o.army == e.army and o.spec.id != e.spec.id}
    for i, uid in enumerate(picks):
        if uid in picks[:i]:
            out.append(doc.problem(loc + ("command_picks", i), f"{uid!r} picked twice"))
        elif uid not in friends:
            out.append(doc.problem(loc + ("command_picks", i), f"{uid!r} is not another unit of this army "
                                   f"(its units: {', '.join(sorted(friends)) or 'none'})"))


def _check_loose(doc: _Doc, ruleset: str, entries: list[_UnitEntry], table: Table, terrain: list[TerrainShape],
                 out: list[_Problem]) -> None:
    """AoF: Skirmish's loose models (issue 18): units are placed by ``positions`` (one ``{x, y}`` per model, each
    base on the table, off impassable terrain, not overlapping, in coherency), never by ``pose``, and the table
    lets the armies deploy 24" apart ("The Battlefield"); other rulesets place units by ``pose`` only."""
    loose = ruleset == SKIRMISH_ID
    if loose and min(table.width, table.depth) < 48.0:
        out.append(doc.problem(("table",), "AoF: Skirmish is played on a 4'x4' table (48 x 48); on a smaller one "
                               "the armies must still deploy at least 24\" apart: both sides need 48\""))
    placed: list[tuple[str, Profile, list[tuple[float, float]]]] = []
    for e in entries:
        loc: Loc = ("armies", e.army, "units", e.index)
        _check_picks(doc, loose, e, entries, loc, out)
        if not loose:
            if e.spec.positions:
                out.append(doc.problem(loc + ("positions",), "model positions are for loose models (ruleset: "
                                       f"{SKIRMISH_ID}); place this unit with pose"))
            continue
        for key, bad in (("pose", e.spec.pose is not None), ("per_row", e.spec.per_row is not None),
                         ("joined_by", e.spec.joined_by is not None), ("embarked_in", e.spec.embarked_in is not None)):
            if bad:
                out.append(doc.problem(loc + (key,), f"AoF: Skirmish has loose models: no {key} (give positions: "
                                       "[{x, y}, ...], one per model, or leave them out to deploy in the game)"))
        if not e.spec.positions or e.profile is None:
            continue
        pts = list(e.spec.positions)
        if len(pts) != e.spec.models:
            out.append(doc.problem(loc + ("positions",), f"{len(pts)} positions for {e.spec.models} models"))
            continue
        r = loose_radius(e.profile)
        for i, (x, y) in enumerate(pts):
            if not (r - _EDGE_EPS <= x <= table.width - r + _EDGE_EPS and r - _EDGE_EPS <= y
                    <= table.depth - r + _EDGE_EPS):
                out.append(doc.problem(loc + ("positions", i), "the model's base is not fully on the table"))
            for t in terrain:
                if IMPASSABLE in t.traits and t.shape.distance(shapely.Point(x, y)) < r - 1e-3:
                    out.append(doc.problem(loc + ("positions", i), f"the model stands in impassable terrain "
                                           f"{t.name!r}"))
        why = loose_coherency(pts, r)
        if why is not None:
            out.append(doc.problem(loc + ("positions",), f"not in coherency: {why}"))
        for oid, oprof, opts in placed:
            ro = loose_radius(oprof)
            if any(math.dist(p, q) < r + ro - 1e-3 for p in pts for q in opts):
                out.append(doc.problem(loc + ("positions",), f"a model's base overlaps unit {oid!r}"))
        placed.append((e.spec.id, e.profile, pts))


def _check_ruleset_game(doc: _Doc, data: Mapping[str, Any], mission: str | None, out: list[_Problem]) -> None:
    """The mission, optional rules and side-missions must be ones the scenario's ruleset plays (``Ruleset.missions``,
    ``optional_rules``, ``side_missions``): AoF:R 2.16 plays every mission but ``none`` (its mission decides the
    winner)."""
    ruleset = _field(ScenarioTopModel, data, "ruleset", "")
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        return
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    missions: frozenset[str] | None = getattr(factory, "missions", None)
    if missions is not None and (mission or "none") not in missions:     # "none": a ruleset may play no mission
        where: Loc = ("mission",) if "mission" in data else ("ruleset",)
        out.append(doc.problem(where, f"{title} is played with a mission (it decides the winner): give mission: "
                               f"{', '.join(sorted(missions))}" + (f", not {mission}" if mission else "")))
    options = data.get("options")
    if not getattr(factory, "optional_rules", True) and isinstance(options, dict):
        for key in options:
            out.append(doc.problem(("options", key), f"{title} has no such optional rule here (AoWFBR 1.4's "
                                   "optional rules are not part of it)"))
    styles: frozenset[str] | None = getattr(factory, "deployment_styles", None)
    deployment = data.get("deployment")
    if styles is not None and isinstance(deployment, str) and deployment not in styles:
        out.append(doc.problem(("deployment",), f"{title} has no {deployment} deployment here; it plays: "
                               f"{', '.join(sorted(styles))}"))
    if not getattr(factory, "side_missions", True) and data.get("side_missions") is not None:
        out.append(doc.problem(("side_missions",), f"{title} is played without side-missions here: the mission "
                               "alone decides the winner"))


def _check_ruleset_armies(doc: _Doc, data: Mapping[str, Any], armies: list[tuple[int, ArmySpec]],
                          entries: list[_UnitEntry], out: list[_Problem]) -> None:
    """Each army as the scenario's ruleset checks it (``Ruleset.army_problems``: the AoF:R quick rules' regiments,
    combined units and, with ``force_org: true``, its force organisation); ``force_org`` is refused under a
    ruleset that does not check it (``Ruleset.scenario_force_org``)."""
    ruleset = _field(ScenarioTopModel, data, "ruleset", "")
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        return
    force_org = bool(_field(ScenarioTopModel, data, "force_org", False))
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    if force_org and not getattr(factory, "scenario_force_org", False):
        out.append(doc.problem(("force_org",), f"{title} does not check a force organisation here: leave it out"))
        return
    check = getattr(factory, "army_problems", None)
    if check is None:
        return
    for ai, army in armies:
        listed = [ListedUnit(("armies", e.army, "units", e.index), e.profile, e.spec.models,
                             e.spec.formation_per_row, e.spec.joined_by, army.cost_of(e.spec),
                             _hero_profile(army, e.spec.joined_by), e.spec.upgrades)
                  for e in entries if e.army == ai and e.profile is not None]
        points = sum(army.cost_of(u) for u in army.units if u.profile in army.profiles)   # a broken unit: refused
        for where, message in check(listed, points, force_org):
            out.append(doc.problem(where, message))


def _hero_profile(army: ArmySpec, hero_id: str | None) -> Profile | None:
    """The profile of the hero ``hero_id`` of ``army`` (None when there is none or it is broken)."""
    hero = next((u for u in army.units if u.id == hero_id), None) if hero_id is not None else None
    return army.profiles.get(hero.profile) if hero is not None else None


def _side_missions(data: Mapping[str, Any]) -> tuple[str, str] | None:
    given: SideMissionsModel | None = _field(ScenarioTopModel, data, "side_missions", None)
    return None if given is None else (given.playstyle, given.selection)


FIXED_MISSIONS = ("seize_ground", "breakthrough")
"""Missions whose markers their own rule places (game.engine.objectives.fixed_markers)."""


def _check_mission(doc: _Doc, data: Mapping[str, Any], table: Table | None, terrain: list[TerrainShape],
                   out: list[_Problem]) -> tuple[str | None, tuple[tuple[float, float], ...]]:
    """The mission and the markers the file places (AoF:R 2.16 "Extra Missions", "Mission Objectives"): a mission
    this program cannot play yet is refused by name; markers must be on the table and not in impassable terrain;
    markers placed in the game need room outside the deployment zones."""
    mission = _field(ScenarioTopModel, data, "mission", None)
    given: list[ObjectiveModel] | None = _field(ScenarioTopModel, data, "objectives", None)
    if given and mission not in (None, "standard", "none"):
        out.append(doc.problem(("objectives",), f"the {mission} mission places its markers by its own rule; "
                                                "objectives can only be given for the standard mission"))
        return None, ()
    if mission == "none":
        if given:
            out.append(doc.problem(("objectives",), "objective markers are only used when a mission is played "
                                                    "(mission: none)"))
        return None, ()
    if given is not None and mission is None:
        mission = "standard"    # markers in the file: the standard mission's seizing and scoring
    markers = tuple((float(o.x), float(o.y)) for o in given or ())
    if table is not None:
        impassable = [t for t in terrain if IMPASSABLE in t.traits]
        for i, (x, y) in enumerate(markers):
            if not (0 <= x <= table.width and 0 <= y <= table.depth):
                out.append(doc.problem(("objectives", i), f"({x:g}, {y:g}) is off the table ({table.width:g} x "
                                                          f"{table.depth:g})"))
            elif any(Polygon(t.polygon).covers(shapely.Point(x, y)) for t in impassable):
                out.append(doc.problem(("objectives", i), "a marker may not stand in impassable terrain"))
        room = 2 * OBJECTIVE_ZONE_DEPTH + (2 * MARKER_SPACING if mission == "king_of_the_hill" else 0)
        if mission not in (None, "sabotage", *FIXED_MISSIONS) and not markers and table.depth <= room:
            out.append(doc.problem(("mission",), f"markers are placed outside the deployment zones, which leave no "
                                                 f"room on this {table.depth:g}\" deep table"))
    return mission, markers


def _check_models(doc: _Doc, uloc: Loc, um: UnitModel, profile: Profile, out: list[_Problem]) -> None:
    """Rulebook "Combined Units": models = size x copies, up to 4 copies and 20 models, 2 copies with Tough."""
    where = uloc + ("models",)
    size = profile.size
    if um.models % size:
        out.append(doc.problem(where, f"must be a multiple of profile {profile.name!r}'s size {size} "
                                      f"(one copy or a combined unit of 2 to {MAX_COPIES}), got {um.models}"))
    else:
        copies = um.models // size
        if copies > 1:
            if size == 1:
                out.append(doc.problem(where, f"must be 1: only multi-model units may be combined "
                                              f"(rulebook Combined Units), got {um.models}"))
            elif copies > MAX_COPIES:
                out.append(doc.problem(where, f"combines {copies} copies of {profile.name!r}; at most {MAX_COPIES} "
                                              f"(rulebook Combined Units)"))
            elif um.models > MAX_COMBINED_MODELS:
                out.append(doc.problem(where, f"a combined unit has at most {MAX_COMBINED_MODELS} models "
                                              f"(rulebook Combined Units), got {um.models}"))
            elif profile.tough > 1 and copies > MAX_TOUGH_COPIES:
                out.append(doc.problem(where, f"combines {copies} copies; units with Tough may combine only "
                                              f"{MAX_TOUGH_COPIES} (rulebook Combined Units)"))
    if um.per_row is not None and um.per_row > um.models:
        out.append(doc.problem(uloc + ("per_row",), f"must be at most the unit's models ({um.models}), "
                                                    f"got {um.per_row}"))


def _check_ids(doc: _Doc, entries: list[_UnitEntry], out: list[_Problem]) -> None:
    first: dict[str, _UnitEntry] = {}
    for e in entries:
        if e.spec.id in first:
            f = first[e.spec.id]
            line = doc.line(("armies", f.army, "units", f.index, "id"))
            out.append(doc.problem(("armies", e.army, "units", e.index, "id"),
                                   f"duplicate unit id {e.spec.id!r} (first at line {line})"))
        else:
            first[e.spec.id] = e


def _check_generals(doc: _Doc, armies: list[tuple[int, ArmySpec]], entries: list[_UnitEntry],
                    broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Victory Conditions": the General is one of the army's heroes."""
    for ai, army in armies:
        if army.general is None or army.general in broken_ids:
            continue
        mine = [e for e in entries if e.army == ai and e.spec.id == army.general]
        if not mine:
            out.append(doc.problem(("armies", ai, "general"), f"{army.general!r} is not a unit of this army"))
        elif mine[0].profile is not None and not mine[0].profile.is_hero:
            out.append(doc.problem(("armies", ai, "general"),
                                   f"{army.general!r} is not a Hero (profile {mine[0].profile.name!r} has no Hero "
                                   f"rule); the General must be one of the army's heroes"))


def _check_joins(doc: _Doc, entries: list[_UnitEntry], broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Hero": heroes with up to Tough(6) may deploy as part of one multi-model unit without a hero."""
    joined: dict[str, str] = {}
    for e in entries:
        hero_id = e.spec.joined_by
        if hero_id is None or hero_id in broken_ids:
            continue
        where = ("armies", e.army, "units", e.index, "joined_by")
        hero = next((h for h in entries if h.army == e.army and h.spec.id == hero_id), None)
        if hero_id == e.spec.id:
            out.append(doc.problem(where, "a unit cannot join itself"))
        elif hero is None:
            out.append(doc.problem(where, f"{hero_id!r} is not a unit of this army"))
        elif hero.profile is None or e.profile is None:
            continue
        elif not hero.profile.is_hero:
            out.append(doc.problem(where, f"{hero_id!r} is not a Hero; only heroes may join a unit"))
        elif hero.profile.tough > MAX_JOINING_TOUGH:
            out.append(doc.problem(where, f"{hero_id!r} has Tough({hero.profile.tough}); only heroes with up to "
                                          f"Tough({MAX_JOINING_TOUGH}) may join a unit"))
        elif e.profile.is_hero or e.spec.models < 2:
            out.append(doc.problem(where, "only a multi-model unit without a hero may be joined by a hero"))
        elif hero_id in joined:
            out.append(doc.problem(where, f"{hero_id!r} already joins unit {joined[hero_id]!r}"))
        elif hero.spec.joined_by is not None:
            out.append(doc.problem(where, f"{hero_id!r} is joined by another unit itself"))
        else:
            joined[hero_id] = e.spec.id


def _check_transports(doc: _Doc, entries: list[_UnitEntry], broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Transport(X)": transports may deploy with units inside. A unit starting inside names a Transport of
    its army that the scenario places (it has a pose), has no pose itself, and they fit (``transport_spaces``)."""
    used: dict[str, int] = {}
    joined = {e.spec.joined_by: e for e in entries if e.spec.joined_by is not None}
    for e in entries:
        tid = e.spec.embarked_in
        if tid is None or tid in broken_ids:
            continue
        where = ("armies", e.army, "units", e.index, "embarked_in")
        t = next((h for h in entries if h.army == e.army and h.spec.id == tid), None)
        if t is None:
            out.append(doc.problem(where, f"{tid!r} is not a unit of this army"))
            continue
        if t.profile is None or e.profile is None:
            continue
        capacity = t.profile.value("Transport")
        if not capacity:
            out.append(doc.problem(where, f"{tid!r} has no Transport rule"))
        elif e.spec.id in joined:
            out.append(doc.problem(where, "a hero joined to a unit goes where its unit goes; put the unit inside"))
        elif t.spec.pose is None:
            out.append(doc.problem(where, f"Transport {tid!r} has no pose: units can start inside a Transport only "
                                          f"when the scenario places it"))
        elif e.spec.pose is not None:
            out.append(doc.problem(("armies", e.army, "units", e.index, "pose"),
                                   "a unit inside a Transport has no pose"))
        else:
            per = model_spaces(e.profile)
            hero = joined.get(e.spec.id)
            hero_entry = next((h for h in entries if hero is not None and h.spec.id == e.spec.joined_by), None)
            hero_spaces = model_spaces(hero_entry.profile) if hero_entry and hero_entry.profile else 0
            if per is None or hero_spaces is None or e.profile.has("Transport"):
                out.append(doc.problem(where, f"{e.spec.id!r} cannot be transported (too tough, or a Transport)"))
                continue
            need = per * e.spec.models + (hero_spaces or 0)
            used[tid] = used.get(tid, 0) + need
            if used[tid] > capacity:
                out.append(doc.problem(where, f"Transport({capacity}) {tid!r} has no room for {e.spec.id!r} "
                                              f"({need} spaces; {used[tid]} asked in all)"))


def _check_poses(doc: _Doc, entries: list[_UnitEntry], table: Table, terrain: list[TerrainShape],
                 out: list[_Problem]) -> None:
    """Footprints fully on the table, not overlapping each other nor impassable terrain (rulebook
    "Unit Formations", "Impassable Terrain"). A hero joined to a unit stands in that unit's formation (its own
    pose, if any, is ignored)."""
    placed: list[tuple[_UnitEntry, Polygon]] = []
    impassable = [t for t in terrain if IMPASSABLE in t.traits]
    joined = {e.spec.joined_by for e in entries if e.spec.joined_by is not None}
    for e in entries:
        if e.spec.pose is None or e.profile is None or e.spec.id in joined:
            continue
        formation = Formation(e.spec.models, e.spec.formation_per_row, e.profile.base_width_mm,
                              e.profile.base_depth_mm)
        hero = next((h for h in entries if e.spec.joined_by is not None and h.army == e.army
                     and h.spec.id == e.spec.joined_by), None)
        if hero is not None and hero.profile is not None:
            formation = Formation(e.spec.models + 1, e.spec.formation_per_row, e.profile.base_width_mm,
                                  e.profile.base_depth_mm, hero.profile.base_width_mm, hero.profile.base_depth_mm)
        fp = footprint_polygon(e.spec.pose, formation)
        where = ("armies", e.army, "units", e.index, "pose")
        x0, y0, x1, y1 = fp.bounds
        if x0 < -_EDGE_EPS or y0 < -_EDGE_EPS or x1 > table.width + _EDGE_EPS or y1 > table.depth + _EDGE_EPS:
            out.append(doc.problem(where, f"unit is not fully on the table: its footprint spans x {x0:.2f} to "
                                          f"{x1:.2f}, y {y0:.2f} to {y1:.2f} (table {table.width:g} x "
                                          f"{table.depth:g})"))
        for t in impassable:
            if overlap_area(fp, t.shape) > _AREA_EPS:
                out.append(doc.problem(where, f"unit stands in impassable terrain {t.name!r} (terrain[{t.index}])"))
        for other, ofp in placed:
            if e.spec.joined_by == other.spec.id or other.spec.joined_by == e.spec.id:
                continue
            if overlap_area(fp, ofp) > _AREA_EPS:
                out.append(doc.problem(where, f"unit overlaps unit {other.spec.id!r}"))
        placed.append((e, fp))


def _check_start(doc: _Doc, start_m: StartModel | None, rounds: int | None, entries: list[_UnitEntry],
                 out: list[_Problem]) -> StartSpec | None:
    if start_m is None:
        return None
    phase = Phase(start_m.phase)
    if rounds is not None and start_m.round > rounds:
        out.append(doc.problem(("start", "round"), f"must be at most rounds ({rounds}), got {start_m.round}"))
    if phase is Phase.DEPLOYMENT and start_m.round != 1:
        out.append(doc.problem(("start", "round"), f"deployment comes before round 1: must be 1, got {start_m.round}"))
    joined = {e.spec.joined_by for e in entries if e.spec.joined_by is not None}
    undeployed = [e.spec.id for e in entries
                  if e.spec.pose is None and not e.spec.positions and e.spec.id not in joined
                  and e.spec.embarked_in is None]
    if phase is not Phase.DEPLOYMENT and undeployed:
        shown = ", ".join(undeployed[:5]) + (", ..." if len(undeployed) > 5 else "")
        out.append(doc.problem(("start", "phase"), f"units without a pose ({shown}) can only be placed in the "
                                                   "deployment phase"))
    return StartSpec(start_m.round, start_m.player, phase)


def _finish(state: _Session, main_file: str) -> list[str]:
    """Problems sorted by file (the scenario first) and line, without repeats."""
    seen: set[_Problem] = set()
    unique = [p for p in state.problems if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
    unique.sort(key=lambda p: (p.file != main_file, p.file, p.line))
    return [str(p) for p in unique]


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def load_scenario(path: str | Path, read: YamlFile | None = None) -> Scenario:
    """Read and validate a scenario file (spec "Scenario file"; docs/formats.md).

    ``include:`` paths are relative to the scenario file. ``read``: the file already read with
    ``game.reader.read_yaml``. Raises ``ScenarioError`` listing every problem found, each
    ``FILE:LINE: PATH: message``; problems in an included army file name that file and its lines.
    """
    path = Path(path)
    state = _Session()
    loaded = _read_yaml(path, state.problems, read)
    scenario = None
    if loaded is not None:
        doc, data = loaded
        scenario = _load(data, doc, path, state)
    if state.problems or scenario is None:
        raise ScenarioError(_finish(state, _display(path)))
    return scenario


def load_scenario_mapping(data: Any, path: str | Path, node: yaml.Node | None = None) -> Scenario:
    """Validate a scenario given as an already-parsed mapping (e.g. inline in a game record).

    ``path`` names it in problems and anchors relative ``include:`` paths (its folder). ``node`` is the
    mapping's YAML node, if known, for line numbers; without it every problem is reported at line 1.
    Raises ``ScenarioError`` like ``load_scenario``.
    """
    path = Path(path)
    state = _Session()
    doc = _Doc(_display(path), node)
    scenario = _load(data, doc, path, state)
    if state.problems or scenario is None:
        raise ScenarioError(_finish(state, doc.file))
    return scenario


def load_army(path: str | Path, read: YamlFile | None = None) -> ArmyFile:
    """Read and validate an army file (``format: regiments-army/1``; docs/formats.md "Army file").

    ``read``: the file already read with ``game.reader.read_yaml``. Raises ``ScenarioError`` listing every
    problem, each ``FILE:LINE: PATH: message``.
    """
    path = Path(path)
    state = _Session()
    loaded = state.army_file(path, read)
    if state.problems or loaded is None:
        raise ScenarioError(_finish(state, _display(path)))
    return ArmyFile(loaded.name or path.stem, loaded.profiles, path, loaded.description,
                    dict(loaded.upgrade_costs), dict(loaded.spells))


def check_scenario_file(path: str | Path, read: YamlFile | None = None) -> list[str]:
    """Problems of a scenario file, or of an army file if its ``format`` is ``regiments-army/1``, or of an army list
    (``regiments-list/1``: ``game.setup.army_list.check_list_file``); [] if valid.

    Each problem is ``FILE:LINE: PATH: message``. ``read``: the file already read. Never raises for a bad file
    (the ``check`` command uses it).
    """
    path = Path(path)
    if read is None:
        try:
            read = read_yaml(path)
        except FileRefused as e:
            return list(e.problems)
    if isinstance(read.data, dict) and read.data.get("format") == "regiments-list/1":
        from game.setup.army_list import check_list_file  # army lists are built on army files: imported late
        return check_list_file(path)
    try:
        if isinstance(read.data, dict) and read.data.get("format") == ARMY_FORMAT:
            load_army(path, read)
        else:
            load_scenario(path, read)
    except ScenarioError as e:
        return list(e.problems)
    return []


def command_units(specs: Iterable[UnitSpec]) -> dict[str, list[str]]:
    """AoF: Skirmish's Musician and Banner ("Command Groups"): per upgrade, the units that have its rule at the
    start: the unit carrying it and its ``command_picks``."""
    out: dict[str, list[str]] = {}
    for spec in specs:
        for up in sorted(spec.upgrades & PICKING_UPGRADES):
            out.setdefault(up, []).extend([spec.id, *spec.command_picks])
    return out


def new_game_state(scenario: Scenario) -> GameState:
    """The game state at the scenario's start: units built with ``make_unit`` (cost = profile cost x copies,
    starting size = models), Generals, table, terrain, options and rounds.

    A hero ``joined_by`` a unit becomes part of it (``Unit.hero``; the unit's size grows by one) and is no unit of
    its own; a General may be such a hero (``GameState.host_of``). A unit ``embarked_in`` a Transport starts inside
    it (``Unit.embarked_in``, off the table, with the Transport's pose as a marker).

    The start is ``scenario.start`` (at the first step of its phase) if given; otherwise deployment if any unit
    lacks a pose (rulebook "Deploying Armies"), else round 1, player 1, strategy phase 1. ``pending`` is left for
    the engine to set.
    """
    units = {}
    joined = scenario.joined_heroes()
    poses = {spec.id: spec.pose for _, spec in scenario.units()}
    for army, spec in scenario.units():
        if spec.id in joined:
            continue  # part of the unit it joined (rulebook "Hero")
        hero = None
        if spec.joined_by is not None:
            hspec = army.unit(spec.joined_by)
            hero = JoinedHero(hspec.id, army.profile_of(hspec), army.cost_of(hspec))
        pose = spec.pose if spec.embarked_in is None else poses.get(spec.embarked_in)
        unit = make_unit(spec.id, army.player, army.profile_of(spec), spec.models, pose, spec.per_row,
                         spec.upgrades, hero)
        unit.embarked_in = spec.embarked_in
        units[spec.id] = unit
    generals: dict[int, str | None] = {1: None, 2: None}
    for player, army in scenario.armies.items():
        generals[player] = army.general
    if scenario.start is not None:
        rnd, player, phase, step = scenario.start.round, scenario.start.player, scenario.start.phase, \
            scenario.start.step
    elif scenario.needs_deployment():
        rnd, player, phase, step = 1, 1, Phase.DEPLOYMENT, Step.DEPLOY
    else:
        rnd, player, phase, step = 1, 1, Phase.STRATEGY_1, Step.STRATEGY
    state = GameState(
        name=scenario.name,
        ruleset=scenario.ruleset,
        table=scenario.table,
        terrain=list(scenario.terrain),
        units=units,
        generals=generals,
        rounds=scenario.rounds,
        round=rnd,
        first_player=1,
        active_player=player,
        phase=phase,
        step=step,
        options=dict(scenario.options),
        mission=scenario.mission,
        objectives=[Objective(x, y) for x, y in scenario.objectives] if scenario.objectives else
        fixed_markers(scenario.mission or "", scenario.table, scenario.deployment
                      if scenario.deployment in STYLES else DEFAULT_STYLE),
        deployment_style=scenario.deployment,
        side_missions=None if scenario.side_missions is None else SideMissionState(
            *scenario.side_missions, rules=getattr(ENGINE_RULESETS.get(scenario.ruleset), "side_mission_rules",
                                                   AOWFBR_SIDE_MISSIONS)),
        magic=new_magic_state(str(scenario.options.get("spell_tokens", "basic")),
                              {p: dict(a.spells) for p, a in scenario.armies.items()}, scenario.ruleset),
    )
    if scenario.ruleset == SKIRMISH_ID:
        # loose models: each model's position lives in the warband state, the unit's pose marks their centre
        state.activation = Warband(models={spec.id: new_models(state.units[spec.id], spec.positions)
                                           for _, spec in scenario.units() if spec.positions},
                                   inspired=command_units(spec for _, spec in scenario.units()))
        for uid, ms in state.activation.models.items():
            unit = state.units[uid]
            unit.pose = Pose(sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms), 0.0)
    return state


__all__ = [
    "ARMY_FORMAT", "ArmyFile", "ArmySpec", "OPTION_DEFAULTS", "PHASE_FIRST_STEP", "RULESETS", "SCENARIO_FORMAT",
    "RulesetContent", "Scenario", "ScenarioError", "StartSpec", "UnitSpec", "check_scenario_file", "load_army",
    "load_scenario", "load_scenario_mapping", "new_game_state", "profile_rule_problem", "ruleset_content",
    "upgrade_problems",
]
