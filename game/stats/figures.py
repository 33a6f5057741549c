"""The figures of a battle's statistics: per unit, per player (dice luck), standings over time, turning points
(rulebook "Victory Conditions", "Modifiers"); plain dataclasses with their JSON form (docs/formats.md "Statistics").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from game.engine.attacks import succeeds

STATS_FORMAT = "regiments-stats/1"
"""The ``format`` value of the statistics written by ``main.py stats --json``."""

MAX_TURNING_POINTS = 5
"""How many turning points are kept."""

PLAYERS = (1, 2)


@dataclass
class UnitStats:
    """One unit's part in the battle."""

    id: str
    name: str
    """The unit's profile name, with its id when another unit of the game has the same name."""
    player: int
    cost: int
    """Points cost with its joined hero."""
    models_start: int
    models_left: int
    status: str
    """``in the game``, ``in reserve`` (never reached the table), ``destroyed``, ``routed`` or ``fled``."""
    hits: int = 0
    """Hits scored (after Furious, Relentless, Blast; spells' automatic hits too)."""
    kills: int = 0
    """Enemy models removed as casualties by its wounds (a joined hero counts as one)."""
    wounds_dealt: int = 0
    wounds_taken: int = 0
    models_lost: int = 0
    """Its models removed as casualties (a joined hero counts as one; a routed unit's survivors are not)."""
    charges: int = 0
    """Charges that reached their target (or ran it down)."""
    charges_declared: int = 0
    vp_earned: int = 0
    """Victory Points its player scores, credited to this unit (docs/formats.md "Statistics")."""
    vp_given: int = 0
    """Victory Points it is worth to the enemy at the end (rulebook "Victory Conditions")."""

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values."""
        return dict(self.__dict__)


CSV_COLUMNS = ("id", "name", "player", "cost", "models_start", "models_left", "status", "hits", "kills",
               "wounds_dealt", "wounds_taken", "models_lost", "charges", "charges_declared", "vp_earned",
               "vp_given")
"""Columns of the per-unit table (``main.py stats --csv``), in order."""


@dataclass
class Luck:
    """Successes of a kind of roll against their expectation."""

    dice: int = 0
    expected: float = 0.0
    actual: int = 0
    variance: float = 0.0

    def add(self, count: int, need: int, modifier: int, successes: int) -> None:
        """``count`` dice needing ``need``+ with ``modifier`` that gave ``successes``."""
        p = success_chance(need, modifier)
        self.dice += count
        self.expected += count * p
        self.variance += count * p * (1 - p)
        self.actual += successes

    @property
    def luck(self) -> float:
        """Actual minus expected successes: above 0, luckier than average."""
        return self.actual - self.expected

    @property
    def spread(self) -> float:
        """Standard deviation of the successes (how far from the expectation luck usually goes)."""
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values, rounded to 1/100."""
        return {"dice": self.dice, "expected": round(self.expected, 2), "actual": self.actual,
                "luck": round(self.luck, 2), "spread": round(self.spread, 2)}


def success_chance(need: int, modifier: int) -> float:
    """Chance that one D6 succeeds (rulebook "Modifiers": natural 6 always, natural 1 never)."""
    return sum(1 for d in range(1, 7) if succeeds(d, need, modifier)) / 6


@dataclass
class PlayerStats:
    """One player's side of the battle."""

    player: int
    vp: int = 0
    units_start: int = 0
    units_left: int = 0
    hits: Luck = field(default_factory=Luck)
    """Rolls to hit (Quality tests, Impact)."""
    defense: Luck = field(default_factory=Luck)
    """Defense rolls: successes are blocked hits."""
    vp_other: list[tuple[str, int]] = field(default_factory=list)
    """Victory Points not won from a unit: the enemy General bonus, objective markers."""
    vp_unassigned: int = 0
    """Victory Points from enemy units that no unit of this player caused (dangerous terrain, a rout with no
    known cause)."""

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values."""
        return {"vp": self.vp, "units_start": self.units_start, "units_left": self.units_left,
                "luck": {"hits": self.hits.to_dict(), "defense": self.defense.to_dict()},
                "vp_other": [{"text": t, "vp": v} for t, v in self.vp_other], "vp_unassigned": self.vp_unassigned}


@dataclass(frozen=True)
class Standing:
    """Victory Points and units left of both players at one position of the game."""

    position: int
    """Actions applied."""
    round: int
    player: int
    """Active player (whose turn it is, or was when the game ended)."""
    vp: dict[int, int]
    units: dict[int, int]
    """Units still in the game (not destroyed, routed or fled)."""

    @property
    def vp_difference(self) -> int:
        """Player 1's Victory Points minus player 2's."""
        return self.vp[1] - self.vp[2]

    @property
    def units_difference(self) -> int:
        """Player 1's units minus player 2's."""
        return self.units[1] - self.units[2]

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON values (players as string keys)."""
        return {"round": self.round, "player": self.player, "position": self.position,
                "vp": {str(p): self.vp[p] for p in PLAYERS}, "units": {str(p): self.units[p] for p in PLAYERS}}


@dataclass(frozen=True)
class TurningPoint:
    """A player turn with one of the largest swings, and the action that swung it most."""

    round: int
    player: int
    """Whose turn it was."""
    action: int
    """Index of the action in the record (0-based) that swung the turn most."""
    vp_swing: int
    """Change of (player 1's VP - player 2's VP) over the turn."""
    units_swing: int
    """Change of (player 1's units - player 2's units) over the turn."""
    text: str
    """What happened, in one line."""

    @property
    def position(self) -> int:
        """The replay position just after the action (actions applied)."""
        return self.action + 1

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON values."""
        return {"round": self.round, "player": self.player, "action": self.action, "position": self.position,
                "vp_swing": self.vp_swing, "units_swing": self.units_swing, "text": self.text}


@dataclass
class BattleStats:
    """Everything ``game_stats`` works out (see the module docstring)."""

    name: str
    rounds: int
    """Rounds the scenario plays."""
    actions: int
    """Actions replayed."""
    game_over: bool
    problem: str | None
    """Why the replay stopped before the end of the record, or None."""
    units: list[UnitStats]
    players: dict[int, PlayerStats]
    start: Standing | None
    """At the start of the battle (after deployment); None if the record never gets there."""
    turns: list[Standing]
    """At the end of each player turn (the last one may be in progress when the game is not over)."""
    rounds_end: list[Standing]
    """At the end of each round (the last one may be in progress)."""
    turning_points: list[TurningPoint]
    """Largest swings first."""
    unattributed_wounds: int = 0
    """Wounds no unit caused (dangerous terrain...)."""
    unattributed_kills: int = 0
    casualties: int = 0
    """Models removed as casualties in the whole log."""
    score_words: tuple[str, str] = ("victory points", "VP")
    """What the score counts, in full and short (``Ruleset.score_words``: AoF:R's objective markers held)."""

    def unit(self, uid: str) -> UnitStats:
        """The figures of unit ``uid``; raises ``KeyError``."""
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def to_dict(self) -> dict[str, Any]:
        """All figures as plain JSON values (docs/formats.md "Statistics")."""
        vp = {p: self.players[p].vp for p in PLAYERS}
        return {
            "format": STATS_FORMAT, "name": self.name, "rounds": self.rounds, "actions": self.actions,
            "game_over": self.game_over, "problem": self.problem,
            "victory_points": {str(p): vp[p] for p in PLAYERS},
            "winner": None if vp[1] == vp[2] else (1 if vp[1] > vp[2] else 2),
            "players": {str(p): self.players[p].to_dict() for p in PLAYERS},
            "units": [u.to_dict() for u in self.units],
            "start": self.start.to_dict() if self.start is not None else None,
            "turns": [t.to_dict() for t in self.turns],
            "rounds_end": [t.to_dict() for t in self.rounds_end],
            "turning_points": [t.to_dict() for t in self.turning_points],
            "unattributed": {"wounds": self.unattributed_wounds, "kills": self.unattributed_kills},
            "casualties": self.casualties,
        }
