"""Short animations of what the engine did: units glide from where they were to where the rules put them
(charges, flights, pursuits, consolidations) and units hit by something flash. Purely visual: the game state
already holds the end positions; drawing only shows an in-between pose for half a second."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game.engine.events import Event
from geometry.pose import Pose, bearing_difference

MOVE_SECONDS = 0.5
"""How long a unit takes to glide to its new pose."""
FLASH_SECONDS = 1.4
"""How long a unit hit by something stays outlined."""
FLASH_KINDS = {"hits", "wounds", "casualties", "morale", "shaken", "flee", "rout", "destroyed", "charge",
               "resolution", "reaction"}
"""Event kinds whose units flash."""


def pose_from_event(data: Any) -> Pose | None:
    """The pose in an event's ``from``/``to`` data (``{x, y, facing}``), or None if it is not one."""
    if not isinstance(data, dict):
        return None
    try:
        return Pose(float(data["x"]), float(data["y"]), float(data["facing"]))
    except (KeyError, TypeError, ValueError):
        return None


def interpolate(a: Pose, b: Pose, t: float) -> Pose:
    """The pose a fraction ``t`` (0..1) of the way from ``a`` to ``b`` (turning the short way)."""
    t = max(0.0, min(1.0, t))
    t = t * t * (3 - 2 * t)  # ease in and out
    turn = bearing_difference(a.facing, b.facing)
    return Pose(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.facing + turn * t)


class Animations:
    """Moves and flashes in progress, keyed by unit id."""

    def __init__(self) -> None:
        self.moves: dict[str, tuple[Pose, Pose, float]] = {}
        self.flashes: dict[str, float] = {}

    def add(self, events: Iterable[Event], now: float, skip: str | None = None) -> None:
        """Start animations for ``events``; ``skip`` is a unit the player just placed by hand (no glide)."""
        for e in events:
            uid = e.data.get("unit")
            if not isinstance(uid, str):
                continue
            start, end = pose_from_event(e.data.get("from")), pose_from_event(e.data.get("to"))
            if start is not None and end is not None and uid != skip:
                first = self.moves[uid][0] if uid in self.moves and self.moves[uid][2] == now else start
                self.moves[uid] = (first, end, now)
            if e.kind in FLASH_KINDS:
                self.flashes[uid] = now
                target = e.data.get("target")
                if isinstance(target, str) and e.kind == "charge":
                    self.flashes[target] = now

    def poses(self, now: float) -> dict[str, Pose]:
        """Where units being animated are drawn now."""
        out: dict[str, Pose] = {}
        for uid, (a, b, t0) in list(self.moves.items()):
            t = (now - t0) / MOVE_SECONDS
            if t >= 1.0:
                del self.moves[uid]
                continue
            out[uid] = interpolate(a, b, t)
        return out

    def flash(self, now: float) -> dict[str, float]:
        """Units flashing now, with the strength 0..1 of their outline."""
        out: dict[str, float] = {}
        for uid, t0 in list(self.flashes.items()):
            t = (now - t0) / FLASH_SECONDS
            if t >= 1.0:
                del self.flashes[uid]
                continue
            out[uid] = 1.0 - t
        return out

    @property
    def busy(self) -> bool:
        """True while anything is animating."""
        return bool(self.moves or self.flashes)
