"""Reading a game's events once: who scored the hits, dealt the wounds and removed the models, the charges, the
dice of each player against their expectation, and what removed each unit (docs/formats.md "Statistics").
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from game.engine.events import Event
from game.engine.state import GameState, Removal
from game.stats.figures import PLAYERS, Luck

# --- reading the events -------------------------------------------------------------------------------------------


@dataclass
class _Attack:
    """The batch of attacks being rolled: who strikes whom, and whether it is melee (wounds put on at the end of
    the step) or shooting and spells (wounds put on at once)."""

    unit: str
    target: str
    melee: bool
    blocking: bool = False
    """The hits are rolled; Defense rolls come next."""
    used: bool = False
    """Its wounds were put on the target."""


@dataclass
class UnitRemoval:
    """A unit destroyed, routed or fled, by the action that removed it, and the enemy units that caused it."""

    action: int
    unit: str
    how: Removal
    causes: list[str]


class Ledger:
    """Walks the log once and credits hits, wounds, casualties, charges and dice to units and players."""

    def __init__(self, start: GameState) -> None:
        self.player = {uid: u.player for uid, u in start.units.items()}
        self.hits: dict[str, int] = defaultdict(int)
        self.wounds_dealt: dict[str, int] = defaultdict(int)
        self.wounds_taken: dict[str, int] = defaultdict(int)
        self.kills: dict[str, int] = defaultdict(int)
        self.models_lost: dict[str, int] = defaultdict(int)
        self.charges: dict[str, int] = defaultdict(int)
        self.declared: dict[str, int] = defaultdict(int)
        self.wounds_on: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        """Target -> attacker -> wounds over the whole game."""
        self.luck = {p: (Luck(), Luck()) for p in PLAYERS}
        """Player -> (to hit, Defense)."""
        self.removals: list[UnitRemoval] = []
        self.action_wounds: dict[int, list[tuple[str | None, str, int, int]]] = defaultdict(list)
        """Action -> (attacker or None, target, wounds, kills)."""
        self.unattributed_wounds = 0
        self.unattributed_kills = 0
        self.casualties = 0
        self._attack: _Attack | None = None
        self._melee: dict[str, dict[str, int]] = {}
        self._flee_causes: dict[str, list[str]] = {}
        self._opponents: dict[str, list[str]] = {}

    def enemies(self, uid: str, others: list[str]) -> list[str]:
        """``others`` that belong to the enemy of ``uid``, without repeats."""
        mine = self.player.get(uid)
        return list(dict.fromkeys(o for o in others if o in self.player and self.player[o] != mine))

    def read(self, log: list[Event], log_index: list[int]) -> None:
        """Credit every event of ``log``; ``log_index[i]`` is where action ``i``'s events begin (events before the
        first action are the deployment's)."""
        boundaries = {index: i for i, index in enumerate(log_index)}
        action = -1
        for n, event in enumerate(log):
            if n in boundaries:
                action = boundaries[n]
                self._attack = None
                self._melee = {}
            self._event(action, event)

    def _event(self, action: int, e: Event) -> None:
        d = e.data
        kind = e.kind
        if kind == "roll":
            self._roll(d)
            return
        if kind == "hits":
            self._hits(d)
            return
        if kind == "wounds":
            self._wounds(action, d)
            return
        if kind in ("hero_killed", "destroyed"):
            if kind == "destroyed":
                uid = str(d.get("unit"))
                killers = [a for a, t, w, _ in self.action_wounds.get(action, []) if t == uid and a and w]
                self.removals.append(UnitRemoval(action, uid, Removal.DESTROYED, list(dict.fromkeys(killers))))
            return
        self._attack = None
        if kind == "shoot":
            self._attack = _Attack(str(d["unit"]), str(d["target"]), False)
        elif kind == "info" and "attacks" in d and "step" in d:
            self._attack = _Attack(str(d["unit"]), str(d["target"]), True)
        elif kind == "info" and "attacks" in d and "weapon" in d:    # AoF:R's strikes: wounds put on at once
            self._attack = _Attack(str(d["unit"]), str(d["target"]), False)
        elif kind == "info" and set(d) == {"step"}:
            self._melee = {}
        elif kind == "charge":
            uid = str(d.get("unit"))
            if d.get("declared"):
                self.declared[uid] += 1
            elif "side" in d or d.get("ran_down"):
                self.charges[uid] += 1
        elif kind == "flee":
            uid = str(d.get("unit"))
            self._flee_causes[uid] = self.enemies(uid, [str(a) for a in d.get("attackers", [])])
        elif kind == "resolution":
            units = [str(u) for u in d.get("units", [])]
            for u in units:
                self._opponents[u] = self.enemies(u, units)
        elif kind == "rout":
            self._rout(action, d)

    def _roll(self, d: dict[str, Any]) -> None:
        a = self._attack
        if a is None:
            return
        dice = d.get("dice") or []
        need, mod = d.get("need"), int(d.get("modifier") or 0)
        if not a.blocking:
            if need is None or "wounds" in d:
                self._attack = None
                return
            if a.unit in self.player:
                self.luck[self.player[a.unit]][0].add(len(dice), int(need), mod, int(d.get("successes") or 0))
            return
        if "wounds" in d and need is not None:
            wounds = int(d["wounds"])
            if a.target in self.player:
                self.luck[self.player[a.target]][1].add(len(dice), int(need), mod, len(dice) - wounds)
            if a.melee:
                self._melee.setdefault(a.target, defaultdict(int))[a.unit] += wounds
        elif str(d.get("purpose", "")).endswith("Regeneration"):
            if a.melee:
                pending = self._melee.setdefault(a.target, defaultdict(int))
                pending[a.unit] = max(0, pending[a.unit] - int(d.get("successes") or 0))
        else:
            self._attack = None

    def _hits(self, d: dict[str, Any]) -> None:
        uid, target = str(d.get("unit")), str(d.get("target"))
        self.hits[uid] += int(d.get("hits") or 0)
        a = self._attack
        if a is None or a.unit != uid or a.target != target:   # a spell's automatic hits
            a = self._attack = _Attack(uid, target, "step" in d)
        a.blocking = True

    def _wounds(self, action: int, d: dict[str, Any]) -> None:
        target = str(d.get("unit"))
        wounds, killed = int(d.get("wounds") or 0), int(d.get("killed") or 0)
        self.wounds_taken[target] += wounds
        self.models_lost[target] += killed
        self.casualties += killed
        a = self._attack
        shares: dict[str, int] = {}
        if a is not None and not a.melee and a.target == target and not a.used:
            a.used = True
            shares = {a.unit: wounds}
            kill_shares = {a.unit: killed}
        else:
            pending = {k: v for k, v in self._melee.pop(target, {}).items() if v > 0}
            if pending:
                shares = apportion(wounds, pending)
                kill_shares = apportion(killed, pending)
        if not shares:
            self.unattributed_wounds += wounds
            self.unattributed_kills += killed
            self.action_wounds[action].append((None, target, wounds, killed))
            return
        for uid, w in shares.items():
            k = kill_shares.get(uid, 0)
            self.wounds_dealt[uid] += w
            self.kills[uid] += k
            self.wounds_on[target][uid] += w
            self.action_wounds[action].append((uid, target, w, k))

    def _rout(self, action: int, d: dict[str, Any]) -> None:
        uid = str(d.get("unit"))
        by = d.get("by")
        if d.get("reason") == "fled":
            how, causes = Removal.FLED, self._flee_causes.get(uid, [])
        elif by is not None:
            how, causes = Removal.ROUTED, self.enemies(uid, [str(by)])
        else:
            how, causes = Removal.ROUTED, self._opponents.get(uid, [])
        self.removals.append(UnitRemoval(action, uid, how, causes))


def apportion(total: int, weights: dict[str, int] | dict[str, Fraction]) -> dict[str, int]:
    """``total`` split in proportion to ``weights`` (largest remainder; ties to the first key), summing to
    ``total`` exactly. Returns {} when the weights sum to 0."""
    whole = sum(weights.values())
    if whole <= 0 or total == 0:
        return {k: 0 for k in weights} if whole > 0 else {}
    exact = {k: Fraction(total) * Fraction(w) / Fraction(whole) for k, w in weights.items()}
    out = {k: math.floor(v) for k, v in exact.items()}
    left = total - sum(out.values())
    for k in sorted(exact, key=lambda k: -(exact[k] - out[k]))[:left]:
        out[k] += 1
    return out
