"""The consequences of charges and close combat drawn on the table: flight and pursuit lines, retreats, follow
ups, charge and consolidation moves, and who was caught or routed where.

Each engine event with a ``from`` and ``to`` pose becomes a ``Trail``; each ``rout``/``destroyed`` event a ``Fate``
at the unit's last place. They are shown for ``FRESH_SECONDS`` after they happen, and the trails of the last phase
that had any ("last combat") stay available for the persistent overlay (key C). Reads events only; no pygame.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game.engine.events import Event
from game.engine.state import GameState
from game.ui.animation import pose_from_event
from geometry.pose import Pose

FRESH_SECONDS = 6.0
"""How long new trails are drawn without asking."""
FADE_SECONDS = 1.5
"""The last part of ``FRESH_SECONDS`` over which they fade out."""

TRAIL_KINDS = {"flee": "fled", "pursuit": "pursued", "retreat": "retreated", "follow_up": "followed up",
               "charge": "charged", "consolidate": "consolidated"}
"""Event kinds drawn as trails, with the verb of their label."""
COMBAT_KINDS = {"flee", "pursuit", "retreat", "follow_up", "rout"}
"""Kinds that start a new "last combat" when they come after a phase change."""


@dataclass(frozen=True)
class Trail:
    """A unit's move the engine made (or the player's consolidation), from one pose to another."""

    kind: str
    """Event kind: flee, pursuit, retreat, follow_up, charge, consolidate."""
    unit: str
    """The unit that moved."""
    start: Pose
    """Where it was."""
    end: Pose
    """Where it ended."""
    label: str
    """A few words for the table: 'fled 7"', 'pursued 9": caught'."""
    time: float
    """Scene time when it happened (seconds)."""
    player: int = 0
    """The unit's player (colours)."""


@dataclass(frozen=True)
class Fate:
    """A unit that left the game at a place on the table: caught, routed, fled off, destroyed."""

    unit: str
    """The unit."""
    pose: Pose | None
    """Its last pose."""
    label: str
    """'Caught by Knights: routed', 'Fled the battlefield', 'Destroyed'."""
    time: float
    """Scene time when it happened."""


def _name(state: GameState, uid: Any) -> str:
    unit = state.units.get(uid) if isinstance(uid, str) else None
    return unit.profile.name if unit is not None else str(uid)


def trail_label(state: GameState, e: Event, start: Pose, end: Pose) -> str:
    """The words drawn at the end of a trail."""
    d = e.data
    moved = start.distance_to(end) if hasattr(start, "distance_to") else 0.0
    rolled = d.get("range", d.get("distance"))
    if e.kind == "flee":
        text = f"fled {rolled}\"" if rolled is not None else f"fled {moved:.1f}\""
        if d.get("off_table"):
            text += ": off the table"
        elif rolled is not None and float(d.get("travelled", rolled)) + 1e-6 < float(rolled):
            text += f", stopped at {float(d.get('travelled', 0)):.1f}\""
        return text
    if e.kind == "pursuit":
        text = f"pursued {rolled}\"" if rolled is not None else f"pursued {moved:.1f}\""
        if d.get("caught"):
            text += f": caught {_name(state, d['caught'])}"
        return text
    if e.kind == "retreat":
        return f"retreated {float(d.get('travelled', moved)):.1f}\""
    if e.kind == "follow_up":
        return "followed up"
    if e.kind == "charge":
        if d.get("failed"):
            return f"failed charge, moved {moved:.1f}\""
        if "side" in d:
            return f"charged the {d['side']}"
        return "ran down" if d.get("target") else "charged"
    if e.kind == "consolidate":
        kind = d.get("kind")
        if kind == "pivot" or kind == "pivot_to_face":
            return "pivoted"
        if kind == "close_gap":
            return "closed the gap"
        return f"consolidation {moved:.1f}\""
    return TRAIL_KINDS.get(e.kind, e.kind)


class CombatTrails:
    """Trails and fates from the events seen so far; ``last`` holds those of the latest phase that had any."""

    def __init__(self) -> None:
        self.fresh: list[Trail | Fate] = []
        """Shown for ``FRESH_SECONDS``."""
        self.last: list[Trail | Fate] = []
        """The last combat's (or charge phase's) trails and fates, for the persistent overlay."""
        self._phase_seen = True
        self.version = 0
        """Bumped whenever something is added (for caches)."""

    def add(self, state: GameState, events: Iterable[Event], now: float, fresh: bool = True) -> None:
        """Read ``events`` (``fresh`` False: old events replayed from the log, never shown as new)."""
        for e in events:
            if e.kind == "phase":
                self._phase_seen = True
                continue
            item = self._item(state, e, now)
            if item is None:
                continue
            if self._phase_seen:
                self.last = []
                self._phase_seen = False
            self.last.append(item)
            if fresh:
                self.fresh.append(item)
            self.version += 1

    def _item(self, state: GameState, e: Event, now: float) -> Trail | Fate | None:
        d = e.data
        uid = d.get("unit")
        if not isinstance(uid, str):
            return None
        unit = state.units.get(uid)
        if e.kind in TRAIL_KINDS:
            start, end = pose_from_event(d.get("from")), pose_from_event(d.get("to"))
            if start is None or end is None:
                return None
            if e.kind == "consolidate" and start == end:
                return None
            player = unit.player if unit is not None else 0
            return Trail(e.kind, uid, start, end, trail_label(state, e, start, end), now, player)
        if e.kind in ("rout", "destroyed"):
            pose = unit.pose if unit is not None else None
            by = d.get("by")
            reason = d.get("reason")
            if reason == "fled" or d.get("removed") == "fled":
                label = "fled the battlefield"
            elif by:
                label = "caught and routed"
            elif e.kind == "destroyed":
                label = "destroyed"
            else:
                label = "routed"
            return Fate(uid, pose, label, now)
        return None

    def shown(self, now: float, persistent: bool) -> list[tuple[Trail | Fate, float]]:
        """What to draw now with its opacity 0..1: fresh items fading out, plus ``last`` when ``persistent``."""
        self.fresh = [t for t in self.fresh if now - t.time < FRESH_SECONDS]
        out: dict[int, tuple[Trail | Fate, float]] = {}
        if persistent:
            for t in self.last:
                out[id(t)] = (t, 1.0)
        for t in self.fresh:
            left = FRESH_SECONDS - (now - t.time)
            alpha = 1.0 if left > FADE_SECONDS else max(0.0, left / FADE_SECONDS)
            if id(t) not in out:
                out[id(t)] = (t, alpha)
        return list(out.values())
