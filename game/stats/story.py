"""Replaying a game for its statistics: the standings after every action, the events read by the ``Ledger``,
the Victory Points credited to units, the turns and the turning points in words (docs/formats.md "Statistics").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from game.engine.actions import Action
from game.engine.dice import DiceExhausted
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, Phase, Removal, Unit
from game.engine.victory import hero_victory_points, unit_victory_points
from game.record import Record, new_game
from game.replay import action_text
from game.stats.figures import (
    MAX_TURNING_POINTS,
    PLAYERS,
    BattleStats,
    PlayerStats,
    Standing,
    TurningPoint,
    UnitStats,
)
from game.stats.ledger import Ledger, apportion

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
    standings = [_standing(game, 0)]
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
        standings.append(_standing(game, i + 1))
        phases.append(game.state.phase)
    ledger = Ledger(start.state)
    applied = len(standings) - 1
    log = game.log if applied >= len(game.log_index) else game.log[:game.log_index[applied]]
    ledger.read(log, game.log_index[:applied])
    return _assemble(start.state, game, standings, phases, ledger, problem)


def _standing(game: Game, position: int) -> Standing:
    """The score (the ruleset's victory points: AoWFBR's, or AoF:R's markers) and units left after ``position``."""
    state = game.state
    vp = game.victory_points()
    units = {p: sum(1 for u in state.units.values() if u.player == p and u.removed is None) for p in PLAYERS}
    return Standing(position, state.round, state.active_player, {p: vp.get(p, 0) for p in PLAYERS}, units)


# --- putting it together ------------------------------------------------------------------------------------------


def _status(unit: Unit) -> str:
    if unit.removed is not None:
        return unit.removed.value
    return "in reserve" if unit.pose is None else "in the game"


def _vp_given(unit: Unit, units_score: bool = True) -> tuple[int, list[tuple[str, int]]]:
    if not units_score:     # a ruleset whose mission alone scores (AoF:R 2.16)
        return 0, []
    lines = [s for s in (unit_victory_points(unit), hero_victory_points(unit)) if s is not None]
    return sum(p for _, p in lines), lines


def _assemble(start: GameState, game: Game, standings: list[Standing], phases: list[Phase], ledger: Ledger,
              problem: str | None) -> BattleStats:
    state = game.state
    units: list[UnitStats] = []
    players = {p: PlayerStats(p) for p in PLAYERS}
    unit_lines: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    earned: dict[str, int] = defaultdict(int)
    last_removal = {r.unit: r for r in ledger.removals}
    for uid, unit in state.units.items():
        given, lines = _vp_given(unit, game.ruleset.units_score)
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
    units_score = game.ruleset.units_score
    for uid, unit in state.units.items():
        first = start.units.get(uid)
        units.append(UnitStats(
            uid, unit_label(state, uid), unit.player, unit.total_cost,
            first.models if first is not None else unit.starting_models, max(0, unit.models), _status(unit),
            ledger.hits[uid], ledger.kills[uid], ledger.wounds_dealt[uid], ledger.wounds_taken[uid],
            ledger.models_lost[uid], ledger.charges[uid], ledger.declared[uid], earned[uid],
            _vp_given(unit, units_score)[0]))
    breakdown = game.victory_breakdown()
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
    rules = game.ruleset
    names = rules.score_names()
    words = (names[0], names[1])
    points = _turning_points(game, standings, start_at, turns, turn_actions, ledger, words[1])
    return BattleStats(state.name, state.rounds, len(standings) - 1, state.game_over, problem, units, players,
                       start_at, turns, rounds_end, points, ledger.unattributed_wounds, ledger.unattributed_kills,
                       ledger.casualties, words, rules.units_score, rules.turn_word)


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
                    spans: list[tuple[int, int, range]], ledger: Ledger, short: str = "VP") -> list[TurningPoint]:
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
        text = f"{headline(game, ledger, key, favoured)} ({swing_text(vp_swing, units_swing, short)})"
        point = TurningPoint(rnd, player, key, vp_swing, units_swing, text)
        found.append(((abs(vp_swing), abs(units_swing), -key), point))
    found.sort(key=lambda f: f[0], reverse=True)
    return [p for _, p in found[:MAX_TURNING_POINTS]]


def swing_text(vp_swing: int, units_swing: int, short: str = "VP") -> str:
    """"+250 VP to Player 1" (``short``: the score's short word, "+1 marker to Player 1" in AoF:R 2.16), or the
    units swing when the score did not change."""
    if vp_swing:
        word = short[:-1] if abs(vp_swing) == 1 and short.endswith("s") else short
        return f"+{abs(vp_swing)} {word} to Player {1 if vp_swing > 0 else 2}"
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


def headline(game: Game, ledger: Ledger, action: int, favoured: int | None = None) -> str:
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
