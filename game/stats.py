"""The story of a battle: statistics of a recorded (finished or unfinished) game.

``record_stats(record)`` replays a game record once and ``game_stats(start, actions)`` a game from its starting
position; both give a ``BattleStats``:

* per unit: hits scored, models killed ("kills"), wounds dealt and taken, models lost, charges declared and
  made, Victory Points earned (credited from the enemy units it broke) and given (what it is worth to the enemy);
* per player: dice luck, the successes of the rolls to hit and of the Defense rolls against their expectation
  given each roll's score needed and modifiers (rulebook "Quality Tests", "Modifiers": a natural 6 always
  succeeds, a natural 1 always fails), with the spread (standard deviation) of that expectation;
* the Victory Points the rules would score if the game ended at the end of each player turn and each round
  (``game.engine.victory``), and the units each side still has;
* the turning points: the player turns with the largest swings in Victory Point difference (then in units), each
  with the action that swung it most, so the replay viewer can jump there.

Everything is derived from the game's events (``game.engine.events``) and from the state after each action;
the engine is not changed. How wounds and Victory Points are credited to units is in docs/formats.md
("Statistics") and docs/rulings.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from game.engine.actions import Action
from game.engine.attacks import succeeds
from game.engine.dice import DiceExhausted
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, Phase, Removal, Unit
from game.engine.victory import hero_victory_points, unit_victory_points, victory_breakdown, victory_points
from game.record import Record, new_game
from game.replay import action_text

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


# --- replaying ----------------------------------------------------------------------------------------------------


def record_stats(record: Record) -> BattleStats:
    """The statistics of a game record, replayed from its start.

    Raises what ``game.record.new_game`` raises for a scenario that cannot be loaded (``ScenarioError``,
    ``RecordError``). An illegal action, dice that run out or an outcome that differs from the recorded digest end
    the replay there; ``problem`` says so and the figures cover the game up to that point.
    """
    return game_stats(new_game(record), record.actions, record.digests)


def game_stats(start: Game, actions: Sequence[Action], digests: Sequence[str | None] = ()) -> BattleStats:
    """The statistics of ``start`` (a game at its starting position, left unchanged) played on with ``actions``.

    ``digests``: the outcome digest recorded with each action, if known; the replay stops at the first that
    differs (as ``game.record.replay`` does).
    """
    game = start.clone()
    standings = [_standing(game.state, 0)]
    phases = [game.state.phase]
    problem = None
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except (IllegalAction, DiceExhausted) as e:
            problem = f"action {i} ({action.type}) is illegal: {e}"
            break
        want = digests[i] if i < len(digests) else None
        if want is not None and game.digests[-1] != want:
            problem = f"action {i} no longer gives the recorded outcome; the statistics stop there"
            break
        standings.append(_standing(game.state, i + 1))
        phases.append(game.state.phase)
    ledger = _Ledger(start.state)
    applied = len(standings) - 1
    log = game.log if applied >= len(game.log_index) else game.log[:game.log_index[applied]]
    ledger.read(log, game.log_index[:applied])
    return _assemble(start.state, game, standings, phases, ledger, problem)


def _standing(state: GameState, position: int) -> Standing:
    vp = victory_points(state)
    units = {p: sum(1 for u in state.units.values() if u.player == p and u.removed is None) for p in PLAYERS}
    return Standing(position, state.round, state.active_player, {p: vp.get(p, 0) for p in PLAYERS}, units)


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
class _Removal:
    action: int
    unit: str
    how: Removal
    causes: list[str]


class _Ledger:
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
        self.removals: list[_Removal] = []
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
                self.removals.append(_Removal(action, uid, Removal.DESTROYED, list(dict.fromkeys(killers))))
            return
        self._attack = None
        if kind == "shoot":
            self._attack = _Attack(str(d["unit"]), str(d["target"]), False)
        elif kind == "info" and "attacks" in d and "step" in d:
            self._attack = _Attack(str(d["unit"]), str(d["target"]), True)
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
        self.removals.append(_Removal(action, uid, how, causes))


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


# --- putting it together ------------------------------------------------------------------------------------------


def _status(unit: Unit) -> str:
    if unit.removed is not None:
        return unit.removed.value
    return "in reserve" if unit.pose is None else "in the game"


def _vp_given(unit: Unit) -> tuple[int, list[tuple[str, int]]]:
    lines = [s for s in (unit_victory_points(unit), hero_victory_points(unit)) if s is not None]
    return sum(p for _, p in lines), lines


def _assemble(start: GameState, game: Game, standings: list[Standing], phases: list[Phase], ledger: _Ledger,
              problem: str | None) -> BattleStats:
    state = game.state
    units: list[UnitStats] = []
    players = {p: PlayerStats(p) for p in PLAYERS}
    unit_lines: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    earned: dict[str, int] = defaultdict(int)
    last_removal = {r.unit: r for r in ledger.removals}
    for uid, unit in state.units.items():
        given, lines = _vp_given(unit)
        enemy = 3 - unit.player
        unit_lines[enemy] += lines
        weights: dict[str, Fraction] = {a: Fraction(w) for a, w in ledger.wounds_on.get(uid, {}).items()
                                        if ledger.player.get(a) == enemy and w > 0}
        removal = last_removal.get(uid)
        if unit.removed in (Removal.ROUTED, Removal.FLED) and removal is not None and removal.causes:
            left = sum(wound_capacities(unit))
            for c in removal.causes:
                weights[c] = weights.get(c, Fraction(0)) + Fraction(left, len(removal.causes))
        shares = apportion(given, weights) if given else {}
        if given and not shares:
            players[enemy].vp_unassigned += given
        for a, v in shares.items():
            earned[a] += v
    for uid, unit in state.units.items():
        first = start.units.get(uid)
        units.append(UnitStats(
            uid, unit_label(state, uid), unit.player, unit.total_cost,
            first.models if first is not None else unit.starting_models, max(0, unit.models), _status(unit),
            ledger.hits[uid], ledger.kills[uid], ledger.wounds_dealt[uid], ledger.wounds_taken[uid],
            ledger.models_lost[uid], ledger.charges[uid], ledger.declared[uid], earned[uid], _vp_given(unit)[0]))
    breakdown = victory_breakdown(state)
    final = standings[-1]
    for p in PLAYERS:
        ps = players[p]
        ps.vp = final.vp[p]
        ps.hits, ps.defense = ledger.luck[p]
        ps.units_left = final.units[p]
        ps.units_start = sum(1 for u in start.units.values() if u.player == p and u.removed is None)
        others = list(breakdown.get(p, []))
        for line in unit_lines[p]:
            if line in others:
                others.remove(line)
        ps.vp_other = others
    start_at, turns, turn_actions = _turns(standings, phases)
    rounds_end = [t for i, t in enumerate(turns) if i + 1 == len(turns) or turns[i + 1].round != t.round]
    points = _turning_points(game, standings, start_at, turns, turn_actions, ledger)
    return BattleStats(state.name, state.rounds, len(standings) - 1, state.game_over, problem, units, players,
                       start_at, turns, rounds_end, points, ledger.unattributed_wounds, ledger.unattributed_kills,
                       ledger.casualties)


def _turns(standings: list[Standing], phases: list[Phase]
           ) -> tuple[Standing | None, list[Standing], list[tuple[int, int, range]]]:
    """The standing at the start of the battle, at the end of each player turn, and each turn's (round, player,
    actions). A turn's actions are those taken while it was that player's turn; its end is the first position
    of the next turn (or the last position)."""
    keys = [None if phases[i] is Phase.DEPLOYMENT else (s.round, s.player) for i, s in enumerate(standings)]
    starts = [i for i, k in enumerate(keys) if k is not None and (i == 0 or keys[i - 1] != k)]
    if not starts:
        return None, [], []
    turns: list[Standing] = []
    spans: list[tuple[int, int, range]] = []
    for n, first in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(standings) - 1
        rnd, player = standings[first].round, standings[first].player
        e = standings[end]
        turns.append(Standing(e.position, rnd, player, e.vp, e.units))
        spans.append((rnd, player, range(first, end)))
    return standings[starts[0]], turns, spans


def _turning_points(game: Game, standings: list[Standing], start: Standing | None, turns: list[Standing],
                    spans: list[tuple[int, int, range]], ledger: _Ledger) -> list[TurningPoint]:
    if start is None:
        return []
    found: list[tuple[tuple[int, int, int], TurningPoint]] = []
    before = start
    for turn, (rnd, player, actions) in zip(turns, spans, strict=True):
        vp_swing = turn.vp_difference - before.vp_difference
        units_swing = turn.units_difference - before.units_difference
        before = turn
        if (vp_swing == 0 and units_swing == 0) or not actions:
            continue

        def weight(a: int) -> tuple[int, int, int]:
            x, y = standings[a], standings[a + 1]
            return (abs(y.vp_difference - x.vp_difference), abs(y.units_difference - x.units_difference), -a)

        key = max(actions, key=weight)
        favoured = 1 if (vp_swing or units_swing) > 0 else 2
        text = f"{headline(game, ledger, key, favoured)} ({swing_text(vp_swing, units_swing)})"
        point = TurningPoint(rnd, player, key, vp_swing, units_swing, text)
        found.append(((abs(vp_swing), abs(units_swing), -key), point))
    found.sort(key=lambda f: f[0], reverse=True)
    return [p for _, p in found[:MAX_TURNING_POINTS]]


def swing_text(vp_swing: int, units_swing: int) -> str:
    """"+250 VP to Player 1", or the units swing when no VP changed."""
    if vp_swing:
        return f"+{abs(vp_swing)} VP to Player {1 if vp_swing > 0 else 2}"
    return f"{abs(units_swing)} unit{'s' if abs(units_swing) != 1 else ''} swing to Player " \
           f"{1 if units_swing > 0 else 2}"


def unit_label(state: GameState, uid: str) -> str:
    """The unit's profile name, with its id when another unit of the game has the same name."""
    unit = state.units.get(uid)
    if unit is None:
        return uid
    same = sum(1 for u in state.units.values() if u.profile.name == unit.profile.name)
    return unit.profile.name if same == 1 else f"{unit.profile.name} ({uid})"


def _names(state: GameState, uids: list[str]) -> tuple[str, bool]:
    """The units' names joined ("Knights and Archers") and whether they take a plural verb (several units, or
    one unit of several models)."""
    names = [unit_label(state, u) for u in uids]
    if not names:
        return "", False
    if len(names) == 1:
        unit = state.units.get(uids[0])
        return names[0], unit is not None and unit.starting_models > 1
    return ", ".join(names[:-1]) + " and " + names[-1], True


def _verb(verb: str, plural: bool) -> str:
    return verb if plural else verb + "s"


def headline(game: Game, ledger: _Ledger, action: int, favoured: int | None = None) -> str:
    """What action ``action`` did, in a few words: the units it removed and who removed them, else the wounds
    it dealt, else the action itself ("Knights rout Spearmen", "Archers kill 3 models of Spearmen").

    ``favoured``: the player the turn favoured; what their units did is told first."""
    state = game.state

    def first_theirs(items: list[Any], uid: Any) -> list[Any]:
        return sorted(items, key=lambda x: ledger.player.get(uid(x)) != favoured)

    parts = []
    removals = first_theirs([r for r in ledger.removals if r.action == action], lambda r: r.causes[0] if r.causes
                            else None)
    for r in removals[:2]:
        victim, plural = _names(state, [r.unit])
        who, many = _names(state, r.causes)
        if r.how is Removal.DESTROYED:
            parts.append(f"{who} {_verb('destroy', many)} {victim}" if who else f"{victim} is destroyed")
        elif r.how is Removal.ROUTED:
            parts.append(f"{who} {_verb('rout', many)} {victim}" if who else f"{victim} is routed")
        else:
            parts.append(f"{victim} {'flee' if plural else 'flees'} the battlefield" + (f" from {who}" if who else ""))
    if parts:
        return "; ".join(parts)
    totals: dict[tuple[str, str], list[int]] = {}
    for striker, target, wounds, kills in ledger.action_wounds.get(action, []):
        if striker is not None:
            pair = totals.setdefault((striker, target), [0, 0])
            pair[0] += wounds
            pair[1] += kills
    hurt = [(a, t, w, k) for (a, t), (w, k) in totals.items()]
    mine = [w for w in hurt if ledger.player.get(w[0]) == favoured]
    if mine or hurt:
        attacker, target, wounds, kills = max(mine or hurt, key=lambda w: (w[3], w[2]))
        a, many = _names(state, [attacker])
        t, _ = _names(state, [target])
        if kills:
            return f"{a} {_verb('kill', many)} {kills} model{'s' if kills != 1 else ''} of {t}"
        return f"{a} {_verb('deal', many)} {wounds} wound{'s' if wounds != 1 else ''} to {t}"
    if action < len(game.history):
        return action_text(game, game.history[action])
    return f"action {action}"
