"""Actions: every decision a player makes, as small frozen dataclasses (../shared/spec.md "Game record").

An action never carries an outcome. ``to_dict`` / ``action_from_dict`` give the record form
``{type: move, player: 1, unit: ..., ...}``; ``docs/formats.md`` lists every type.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from geometry.pose import Pose


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
            elif isinstance(value, tuple) and value and isinstance(value[0], Pose):
                value = [pose_to_dict(p) for p in value]
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
    """Step 2.1: declare that ``unit`` charges ``target``."""

    type: ClassVar[str] = "declare_charge"
    unit: str
    target: str


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
class Move(Action):
    """Step 2.4: Hold, Advance or Rush along ``path`` (straight to each pose's x, y, then pivot to its facing)."""

    type: ClassVar[str] = "move"
    unit: str
    action: str
    path: tuple[Pose, ...] = ()


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """Step 4.2: one weapon group of ``unit`` fires at ``target`` (``weapons`` None = all ranged weapons)."""

    type: ClassVar[str] = "shoot"
    unit: str
    target: str
    weapons: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Pursue(Action):
    """Rulebook "Consolidation Moves": the winner pursues its fleeing enemy, or not (then tests morale)."""

    type: ClassVar[str] = "pursue"
    unit: str
    pursue: bool = True


@dataclass(frozen=True, slots=True)
class FollowUp(Action):
    """Rulebook "Consolidation Moves": the winner follows up its retreating enemy, or not."""

    type: ClassVar[str] = "follow_up"
    unit: str
    follow_up: bool = True


@dataclass(frozen=True, slots=True)
class Consolidate(Action):
    """Rulebook "Consolidation Moves": pivot up to 180 degrees or move up to 3" (a path of poses, as ``move``)."""

    type: ClassVar[str] = "consolidate"
    unit: str
    path: tuple[Pose, ...] = ()


@dataclass(frozen=True, slots=True)
class RallyPivot(Action):
    """Rulebook "Shaken Units": a unit that rallied may pivot by up to 180 degrees to ``facing``."""

    type: ClassVar[str] = "rally_pivot"
    unit: str
    facing: float


@dataclass(frozen=True, slots=True)
class Done(Action):
    """The acting player has nothing more to do in the current step."""

    type: ClassVar[str] = "done"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Deploy, DeclareCharge, ChargeReaction, Redirect, Move, Shoot, Pursue, FollowUp, Consolidate,
                RallyPivot, Done)
}
"""Every action type by its record name."""


def pose_to_dict(pose: Pose) -> dict[str, float]:
    """``{x, y, facing}`` with floats rounded to 1/10000 inch so records stay readable and exact."""
    return {"x": round(pose.x, 4), "y": round(pose.y, 4), "facing": round(pose.facing, 4)}


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


def action_from_dict(data: Any, where: str = "action") -> Action:
    """Build an action from its record mapping. Raises ``ActionFormatError`` naming the bad field."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"{where}: must be a mapping with a type")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"{where}.type: unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}")
    known = {f.name for f in fields(cls)}
    extra = sorted(set(data) - known - {"type", "digest"})
    if extra:
        raise ActionFormatError(f"{where}.{extra[0]}: not a field of {kind}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        path = f"{where}.{f.name}"
        if f.name == "player":
            if value not in (1, 2) or isinstance(value, bool):
                raise ActionFormatError(f"{path}: must be 1 or 2, got {value!r}")
        elif f.name == "pose":
            value = pose_from_dict(value, path)
        elif f.name == "path":
            if not isinstance(value, list):
                raise ActionFormatError(f"{path}: must be a list of poses")
            value = tuple(pose_from_dict(p, f"{path}[{i}]") for i, p in enumerate(value))
        elif f.name == "weapons":
            if value is not None:
                if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
                    raise ActionFormatError(f"{path}: must be a list of weapon names")
                value = tuple(value)
        elif f.name in ("pursue", "follow_up"):
            if not isinstance(value, bool):
                raise ActionFormatError(f"{path}: must be true or false")
        elif f.name == "facing":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ActionFormatError(f"{path}: must be a number of degrees")
            value = float(value)
        elif f.name == "target" and value is None and cls is Redirect:
            pass
        elif not isinstance(value, str):
            raise ActionFormatError(f"{path}: must be text, got {value!r}")
        kwargs[f.name] = value
    missing = [f.name for f in fields(cls) if f.name not in kwargs and f.default is MISSING]
    if missing:
        raise ActionFormatError(f"{where}.{missing[0]}: missing (a {kind} needs {', '.join(missing)})")
    return cls(**kwargs)
