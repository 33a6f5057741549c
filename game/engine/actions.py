"""Actions: every decision a player makes, as small frozen dataclasses (../shared/spec.md "Game record").

An action never carries an outcome. ``to_dict`` / ``action_from_dict`` give the record form
``{type: move, player: 1, unit: ..., ...}``; ``docs/formats.md`` lists every type.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from geometry.pose import Pose

MAX_PATH_POSES = 256
"""Poses in the path of one move action (the window sends one to three; docs/formats.md "Limits")."""


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 60, 60, 6, 6, 3


def field_path(where: str, key: object) -> str:
    """``where.key`` for a key read from a file, written so that any key stays on one line: ``where['a b']``
    for a key that is not a plain name."""
    if isinstance(key, str) and key.isidentifier():
        return f"{where}.{key}"
    return f"{where}[{show_value(key)}]"


def show_value(value: Any) -> str:
    """A short rendering of a value read from a file, for messages: at most about 60 characters a string and
    6 items a list, however large the value (a hostile file's aliases can make it huge)."""
    return _SHORT.repr(value)


class ActionFormatError(ValueError):
    """A record entry that is not a well-formed action; the message names the field."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: who acts."""

    type: ClassVar[str] = ""
    player: int
    """The acting player, 1 or 2."""

    def to_dict(self) -> dict[str, Any]:
        """The record form of this action."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Pose):
                value = pose_to_dict(value)
            elif isinstance(value, TablePoint):
                value = value.to_dict()
            elif isinstance(value, tuple) and value and isinstance(value[0], Pose):
                value = [pose_to_dict(p) for p in value]
            elif isinstance(value, tuple) and value and hasattr(value[0], "to_dict"):
                value = [v.to_dict() for v in value]  # magic: token spends and splits
            elif value == () and f.name in ("boost", "tokens", "casters"):
                continue  # magic: no tokens spent is the default
            elif value is False and f.name == "breath":
                continue  # AoF:R 2.16 "Breath Attack" not used is the default
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Place a unit during deployment (rulebook "Deploying Armies")."""

    type: ClassVar[str] = "deploy"
    unit: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class DeclareCharge(Action):
    """Step 2.1: declare that ``unit`` charges ``target``.

    ``model`` (the AoF:R quick rules' "Takedown", ``Ruleset.melee_picks``): the id of a hero joined to the target,
    picked by the charger's Takedown melee weapons and struck as a unit of one; refused under other rulesets."""

    type: ClassVar[str] = "declare_charge"
    unit: str
    target: str
    model: str | None = None
    breath: bool = False
    """AoF:R 2.16 "Breath Attack": the charger's models with the rule deal their 3 automatic hits in this melee
    (``Ruleset.breath_attacks``; refused under other rulesets)."""


@dataclass(frozen=True, slots=True)
class ChargeReaction(Action):
    """Step 2.2: the charged unit's reaction: hold, stand_and_shoot or flee."""

    type: ClassVar[str] = "charge_reaction"
    unit: str
    reaction: str


@dataclass(frozen=True, slots=True)
class Redirect(Action):
    """Rulebook "Flee": a charger whose target fled runs down (``target`` None) or tries to redirect."""

    type: ClassVar[str] = "redirect"
    unit: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class RollCharge(Action):
    """Random Charge Distances (rulebook "Optional Rules", step 5): "Pick one declared charge and roll 2D6"."""

    type: ClassVar[str] = "roll_charge"
    unit: str
    """The charging unit whose charge is rolled next."""


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Step 2.4: Hold, Advance or Rush along ``path`` (straight to each pose's x, y, then pivot to its facing)."""

    type: ClassVar[str] = "move"
    unit: str
    action: str
    path: tuple[Pose, ...] = ()


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """Step 4.2: one weapon group of ``unit`` fires at ``target`` (``weapons`` None = all ranged weapons).

    ``model``: rulebook "Sniper": the id of a hero joined to the target, picked by the group's Sniper weapons and
    shot as a unit of one (only Sniper weapons fire then)."""

    type: ClassVar[str] = "shoot"
    unit: str
    target: str
    weapons: tuple[str, ...] | None = None
    model: str | None = None
    breath: bool = False
    """AoF:R 2.16 "Breath Attack" when shooting: the unit's models with the rule deal their 3 automatic hits to
    ``target`` (within 12"); no weapon fires with it (``weapons`` and ``model`` stay unset)."""


@dataclass(frozen=True, slots=True)
class ShootPoint(Action):
    """Step 4.2 with Random Scatter for Artillery (rulebook "Optional Rules"): artillery of type 2 or 3 fires one
    weapon group at the target point (``x``, ``y``) inches (game.engine.artillery_scatter)."""

    type: ClassVar[str] = "shoot_point"
    unit: str
    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""
    weapons: tuple[str, ...] | None = None
    """The weapon group (None: every ranged weapon not fired yet that reaches the point)."""
    skip_test: bool = False
    """A cannon (type 3) skips its first Quality test and goes straight to the artillery die ("The player may
    choose to skip this Quality test")."""
    model: str | None = None
    """A Sniper's pick: the id of a hero joined to the unit hit, shot as a unit of one (rulebook "Sniper"; a hit
    on another unit, or without that hero, is resolved as usual)."""


@dataclass(frozen=True, slots=True)
class Embark(Action):
    """Step 2.4: ``unit`` gets into the friendly Transport ``transport`` with an ``advance`` or ``rush``
    (rulebook "Transport(X)"; game.engine.transport)."""

    type: ClassVar[str] = "embark"
    unit: str
    transport: str
    action: str = "advance"


@dataclass(frozen=True, slots=True)
class Disembark(Action):
    """Step 2.4: ``unit`` gets out of its Transport with an ``advance`` or ``rush`` and is placed at ``pose``,
    fully within 6" of the Transport (rulebook "Transport(X)"; game.engine.transport)."""

    type: ClassVar[str] = "disembark"
    unit: str
    pose: Pose
    action: str = "advance"


@dataclass(frozen=True, slots=True)
class Pursue(Action):
    """Rulebook "Consolidation Moves": the winner pursues its fleeing enemy, or not (then tests morale)."""

    type: ClassVar[str] = "pursue"
    unit: str
    pursue: bool = True
    target: str | None = None
    """Rulebook "Consolidation Moves and Multiple Units": which of several fleeing units to pursue (decision
    ``pursue_target``, after the flight moves); None: the only candidate."""


@dataclass(frozen=True, slots=True)
class FollowUp(Action):
    """Rulebook "Consolidation Moves": the winner follows up its retreating enemy, or not."""

    type: ClassVar[str] = "follow_up"
    unit: str
    follow_up: bool = True
    target: str | None = None
    """Rulebook "Consolidation Moves and Multiple Units": which of several retreating units to follow up (one of
    ``pending.options``); None: the only candidate."""


@dataclass(frozen=True, slots=True)
class Consolidate(Action):
    """Rulebook "Consolidation Moves": pivot up to 180 degrees or move up to 3" (a path of poses, as ``move``)."""

    type: ClassVar[str] = "consolidate"
    unit: str
    path: tuple[Pose, ...] = ()


@dataclass(frozen=True, slots=True)
class PivotToFace(Action):
    """Rulebook "Consolidation Moves": after a tie or a passed morale test, a unit with no enemy in its front
    pivots to face ``target``, an enemy in its flank or rear (None: the only candidate); ``done`` declines."""

    type: ClassVar[str] = "pivot_to_face"
    unit: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class RallyPivot(Action):
    """Rulebook "Shaken Units": a unit that rallied may pivot by up to 180 degrees to ``facing``."""

    type: ClassVar[str] = "rally_pivot"
    unit: str
    facing: float


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """AoF:R 2.16 "Activating Units": the player picks one of its units that has not been activated this round
    (decision ``activate``)."""

    type: ClassVar[str] = "activate"
    unit: str


@dataclass(frozen=True, slots=True)
class StrikeBack(Action):
    """AoF:R 2.16 "Return Strikes": the charged unit strikes back (decision ``strike_back``; ``done`` declines).

    ``model``: as ``DeclareCharge.model``, the hero joined to the charger picked by Takedown melee weapons."""

    type: ClassVar[str] = "strike_back"
    unit: str
    model: str | None = None
    breath: bool = False
    """AoF:R 2.16 "Breath Attack": as ``DeclareCharge.breath``, for the charged unit striking back."""


@dataclass(frozen=True, slots=True)
class Done(Action):
    """The acting player has nothing more to do in the current step."""

    type: ClassVar[str] = "done"


@dataclass(frozen=True, slots=True)
class ChooseDeployment(Action):
    """Rulebook "Deploying Armies": the deployment roll-off winner picks the long table edge they deploy on and
    who places the first unit (game.engine.deployment)."""

    type: ClassVar[str] = "choose_deployment"
    first: int
    """The player who places the first unit, 1 or 2."""
    edge: str | None = None
    """``south`` (y = 0) or ``north`` (y = depth) of the table as the scenario lays it out; None: the winner's own
    edge. Taking the other edge turns the terrain 180 degrees about the table centre."""


@dataclass(frozen=True, slots=True)
class SetAside(Action):
    """Rulebook "Scout", "Ambush": set ``unit`` aside before deployment (``rule`` Scout or Ambush; needed only
    when the unit has both)."""

    type: ClassVar[str] = "set_aside"
    unit: str
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class ScoutMove(Action):
    """Rulebook "Scout": the Scout unit just deployed is placed again at ``pose``, within 12" of its position."""

    type: ClassVar[str] = "scout_move"
    unit: str
    pose: Pose


@dataclass(frozen=True, slots=True)
class ChooseFirstTurn(Action):
    """Rulebook "Playing the Game": the first-turn roll-off winner decides who takes the first turn."""

    type: ClassVar[str] = "choose_first_turn"
    first: int
    """The player who takes the first turn of each round, 1 or 2."""


# --- objective markers (AoF:R 2.16 "Mission Objectives", "Placing Objectives"; game.engine.objectives) --------


@dataclass(frozen=True, slots=True)
class ChooseObjectiveOrder(Action):
    """"The players roll-off, and the winner picks who places the first objective marker"."""

    type: ClassVar[str] = "choose_objective_order"
    first: int
    """The player who places the first marker, 1 or 2."""


@dataclass(frozen=True, slots=True)
class PlaceObjective(Action):
    """One objective marker placed on the table (players alternate), a point in inches."""

    type: ClassVar[str] = "place_objective"
    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""


@dataclass(frozen=True, slots=True)
class SelectSideMission(Action):
    """AoF:R 2.16 "Side-Missions": the player selects a side-mission (openly or in secret, as the playstyle says;
    game.engine.side_missions)."""

    type: ClassVar[str] = "select_side_mission"
    mission: str
    """The side-mission's record name, e.g. ``conserve``, ``ground_war``, ``head_hunter``."""


# --- magic (rulebook "Caster(X)", "Spell and Dispel Tokens", "Pooled Tokens"; game.engine.magic) ---------------


@dataclass(frozen=True, slots=True)
class TokenSpend:
    """Spell or dispel tokens spent on a casting roll by one caster, or from the magic pool (``unit`` None)."""

    tokens: int
    """How many tokens, 1 or more (+1 each to the caster's roll, or -1 each against it)."""
    unit: str | None = None
    """The caster whose tokens are spent; None (left out) with Pooled Tokens: from the player's magic pool."""

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{unit, tokens}``."""
        return {"tokens": self.tokens} if self.unit is None else {"unit": self.unit, "tokens": self.tokens}


@dataclass(frozen=True, slots=True)
class TokenSplit:
    """Spell and dispel tokens given to one caster at the start of a round (Spell and Dispel Tokens)."""

    unit: str
    """The caster."""
    spell: int = 0
    """Spell tokens it gets."""
    dispel: int = 0
    """Dispel tokens it gets."""

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{unit, spell, dispel}``."""
        return {"unit": self.unit, "spell": self.spell, "dispel": self.dispel}


@dataclass(frozen=True, slots=True)
class TablePoint:
    """A point of the table in inches (a spell aimed at a point)."""

    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{x, y}``."""
        return {"x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True)
class CastSpell(Action):
    """Steps 1.3 / 3.2: caster ``unit`` tries ``spell`` on ``target`` (or, for a spell aimed at a point, at
    ``point``), paying the spell's value in tokens; ``boost`` spends more tokens of the caster or of friendly
    casters in reach (+1 each) before the roll."""

    type: ClassVar[str] = "cast_spell"
    unit: str
    """The caster."""
    spell: str
    """The spell's name (a spell of the caster's army)."""
    target: str | None = None
    """The target unit; may be left out for a ``self`` spell."""
    boost: tuple[TokenSpend, ...] = ()
    """Extra tokens for +1 each."""
    point: TablePoint | None = None
    """The point of the table a ``point`` spell is aimed at; None (left out) for the other spells."""


@dataclass(frozen=True, slots=True)
class Dispel(Action):
    """The opponent of a caster spends tokens against the casting roll (-1 each); ``tokens`` empty: none."""

    type: ClassVar[str] = "dispel"
    tokens: tuple[TokenSpend, ...] = ()
    """Tokens spent, per caster (or from the magic pool)."""


@dataclass(frozen=True, slots=True)
class AllocateTokens(Action):
    """Step 0.1 with "Spell and Dispel Tokens": ``casters`` says what each caster gets; with "Pooled Tokens":
    ``spell_tokens`` and ``dispel_tokens`` go to the magic pool."""

    type: ClassVar[str] = "allocate_tokens"
    casters: tuple[TokenSplit, ...] = ()
    """Spell and dispel tokens per caster (spell_and_dispel)."""
    spell_tokens: int | None = None
    """Spell tokens put in the pool (pooled)."""
    dispel_tokens: int | None = None
    """Dispel tokens put in the pool (pooled)."""


# --- loose models (Age of Fantasy: Skirmish; game.engine.rulesets.skirmish) -----------------------------------


@dataclass(frozen=True, slots=True)
class PlaceModels(Action):
    """AoF: Skirmish "Deployment" and "Ambush": place every model of ``unit`` at ``positions`` (one point per
    model, inches)."""

    type: ClassVar[str] = "place_models"
    unit: str
    positions: tuple[TablePoint, ...]


@dataclass(frozen=True, slots=True)
class MoveModels(Action):
    """AoF: Skirmish "Activation", "Movement": ``unit`` takes ``action`` (``advance`` or ``rush``; ``consolidate``
    after a melee) and each of its models moves straight to its point of ``positions`` (in model order)."""

    type: ClassVar[str] = "move_models"
    unit: str
    action: str
    positions: tuple[TablePoint, ...]


@dataclass(frozen=True, slots=True)
class PushModel(Action):
    """AoF: Skirmish "Pushing": the attacker tries to push the model of ``unit`` that rolled a Shaken result (one
    die, 4+), moving it straight to (``x``, ``y``), inches, up to 2" from where it stands; ``done`` does not try."""

    type: ClassVar[str] = "push_model"
    unit: str
    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Deploy, DeclareCharge, ChargeReaction, Redirect, Move, Shoot, Pursue, FollowUp, Consolidate,
                PivotToFace, RallyPivot, Done, ChooseDeployment, SetAside, ScoutMove, ChooseFirstTurn, CastSpell,
                Dispel, AllocateTokens, Embark, Disembark, ChooseObjectiveOrder, PlaceObjective, RollCharge,
                ShootPoint, SelectSideMission, Activate, StrikeBack, PlaceModels, MoveModels, PushModel)
}
"""Every action type by its record name."""


def pose_to_dict(pose: Pose) -> dict[str, float]:
    """``{x, y, facing}`` exactly as in the action (YAML keeps a float's shortest exact form), so a record
    replays bit for bit. Players round what they propose (``rounded_pose``) to keep records readable."""
    return {"x": pose.x, "y": pose.y, "facing": pose.facing}


def rounded_pose(pose: Pose, places: int = 3) -> Pose:
    """``pose`` rounded to ``places`` decimals (1/1000 inch and degree by default), for proposing actions."""
    return Pose(round(pose.x, places), round(pose.y, places), round(pose.facing, places) % 360.0)


def pose_from_dict(data: Any, where: str) -> Pose:
    """Read a pose mapping; raises ``ActionFormatError`` naming ``where``."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"{where}: must be a mapping {{x, y, facing}}")
    try:
        vals = [float(data[k]) for k in ("x", "y", "facing")]
    except KeyError as e:
        raise ActionFormatError(f"{where}.{e.args[0]}: missing") from None
    except (TypeError, ValueError):
        raise ActionFormatError(f"{where}: x, y and facing must be numbers") from None
    if not all(math.isfinite(v) for v in vals):
        raise ActionFormatError(f"{where}: x, y and facing must be finite")
    return Pose(*vals)


def _table_point(value: Any, path: str) -> TablePoint:
    """``point: {x, y}`` in inches, finite numbers."""
    if not isinstance(value, Mapping):
        raise ActionFormatError(f"{path}: must be a mapping {{x, y}}")
    extra = sorted(set(value) - {"x", "y"}, key=str)
    if extra:
        raise ActionFormatError(f"{field_path(path, extra[0])}: not a key here (keys: x, y)")
    xy = []
    for k in ("x", "y"):
        if k not in value:
            raise ActionFormatError(f"{path}.{k}: missing")
        v = value[k]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ActionFormatError(f"{path}.{k}: must be a number of inches, got {show_value(v)}")
        xy.append(float(v))
    return TablePoint(xy[0], xy[1])


def _count(value: Any, path: str) -> int:
    """A whole number of tokens, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionFormatError(f"{path}: must be a whole number of tokens (0 or more), got {show_value(value)}")
    return value


def _token_list(value: Any, path: str, splits: bool) -> tuple[Any, ...]:
    """``boost``/``tokens``: a list of ``{unit?, tokens}``; ``casters``: a list of ``{unit, spell?, dispel?}``."""
    if not isinstance(value, list):
        raise ActionFormatError(f"{path}: must be a list")
    out: list[Any] = []
    keys = {"unit", "spell", "dispel"} if splits else {"unit", "tokens"}
    for i, item in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            raise ActionFormatError(f"{where}: must be a mapping ({', '.join(sorted(keys))})")
        extra = sorted(set(item) - keys, key=str)
        if extra:
            raise ActionFormatError(f"{field_path(where, extra[0])}: not a key here (keys: {', '.join(sorted(keys))})")
        unit = item.get("unit")
        if (unit is not None or splits) and not isinstance(unit, str):
            raise ActionFormatError(f"{where}.unit: must be a unit id, got {show_value(unit)}")
        if isinstance(unit, str) and splits:
            out.append(TokenSplit(unit, _count(item.get("spell", 0), f"{where}.spell"),
                                  _count(item.get("dispel", 0), f"{where}.dispel")))
        else:
            if "tokens" not in item:
                raise ActionFormatError(f"{where}.tokens: missing")
            out.append(TokenSpend(_count(item["tokens"], f"{where}.tokens"), unit))
    return tuple(out)


def _player_number(value: Any, path: str) -> Any:
    if value not in (1, 2) or isinstance(value, bool):
        raise ActionFormatError(f"{path}: must be 1 or 2, got {show_value(value)}")
    return value


def _move_path(value: Any, path: str) -> tuple[Pose, ...]:
    if not isinstance(value, list):
        raise ActionFormatError(f"{path}: must be a list of poses")
    if len(value) > MAX_PATH_POSES:
        raise ActionFormatError(f"{path}: {len(value)} poses; a move path has at most {MAX_PATH_POSES} "
                                "(docs/formats.md \"Limits\")")
    return tuple(pose_from_dict(p, f"{path}[{i}]") for i, p in enumerate(value))


def _weapon_names(value: Any, path: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise ActionFormatError(f"{path}: must be a list of weapon names")
    return tuple(value)


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ActionFormatError(f"{path}: must be true or false")
    return value


def _degrees(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionFormatError(f"{path}: must be a number of degrees")
    return float(value)


def _inches(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionFormatError(f"{path}: must be a number of inches, got {show_value(value)}")
    return float(value)


def _points(value: Any, path: str) -> tuple[TablePoint, ...]:
    if not isinstance(value, list) or not value:
        raise ActionFormatError(f"{path}: must be a non-empty list of points {{x, y}}")
    if len(value) > MAX_PATH_POSES:
        raise ActionFormatError(f"{path}: {len(value)} points; at most {MAX_PATH_POSES} "
                                "(docs/formats.md \"Limits\")")
    return tuple(_table_point(p, f"{path}[{i}]") for i, p in enumerate(value))


def _optional_point(value: Any, path: str) -> TablePoint | None:
    return None if value is None else _table_point(value, path)


def _optional_count(value: Any, path: str) -> int | None:
    return None if value is None else _count(value, path)


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ActionFormatError(f"{path}: must be text, got {show_value(value)}")
    return value


def _optional_text(value: Any, path: str) -> str | None:
    return None if value is None else _text(value, path)


_FIELD_READERS: dict[str, Callable[[Any, str], Any]] = {
    "player": _player_number, "first": _player_number, "pose": pose_from_dict, "path": _move_path,
    "weapons": _weapon_names, "pursue": _flag, "follow_up": _flag, "skip_test": _flag, "breath": _flag,
    "facing": _degrees, "x": _inches, "y": _inches,
    "boost": lambda v, p: _token_list(v, p, False), "tokens": lambda v, p: _token_list(v, p, False),
    "casters": lambda v, p: _token_list(v, p, True),
    "positions": _points, "point": _optional_point, "spell_tokens": _optional_count, "dispel_tokens": _optional_count,
    "edge": _optional_text, "rule": _optional_text, "model": _optional_text,
}
"""Action field name -> its reader (value, path) -> value, raising ``ActionFormatError``; other fields are text."""

_OPTIONAL_TARGET: tuple[type, ...] = (Redirect, CastSpell, Pursue, FollowUp, PivotToFace)
"""Actions whose ``target`` may be null."""


def _field_value(cls: type, name: str, value: Any, path: str) -> Any:
    """The value of field ``name`` of action class ``cls`` read from the record (``path`` names it in errors)."""
    if name == "target" and value is None and cls in _OPTIONAL_TARGET:
        return None
    read: Callable[[Any, str], Any] = _FIELD_READERS.get(name, _text)
    return read(value, path)


def action_from_dict(data: Any, where: str = "action") -> Action:
    """Build an action from its record mapping. Raises ``ActionFormatError`` naming the bad field."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"{where}: must be a mapping with a type")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"{where}.type: unknown action type {show_value(kind)}; "
                                f"known: {', '.join(sorted(ACTION_TYPES))}")
    known = {f.name for f in fields(cls)}
    extra = sorted(set(data) - known - {"type", "digest"}, key=str)
    if extra:
        raise ActionFormatError(f"{field_path(where, extra[0])}: not a field of {kind}")
    kwargs = {f.name: _field_value(cls, f.name, data[f.name], f"{where}.{f.name}") for f in fields(cls)
              if f.name in data}
    missing = [f.name for f in fields(cls) if f.name not in kwargs and f.default is MISSING]
    if missing:
        raise ActionFormatError(f"{where}.{missing[0]}: missing (a {kind} needs {', '.join(missing)})")
    return cls(**kwargs)
