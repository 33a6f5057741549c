"""Position evaluation and the rollout policy of the computer opponent for AoF: Skirmish (issue 18; loose models,
``game.engine.rulesets.skirmish``; ../shared/rules/aof-skirmish-quick-rules.md). One number, in points, good for
``seat`` when positive; zero-sum but for the approach term.

The mission decides the game ("Mission": D3+2 markers, seized at the end of each round, most markers after the last
round wins), so the terms are, for both sides (the other side's subtracted):

* markers held now: ``MARKER`` each; a marker that would change hands at the end of the round (a side alone within
  3", not Shaken, not arrived by Ambush this round: the engine's seizing rule; a Shaken unit whose activation is
  still to come this round spends it idle and seizes again, ``_seizer``) counts ``SEIZE`` of its worth
  (``SEIZE_LAST`` in the last round, where it is the result);
* the worth of each unit still in the game: ``MATERIAL`` x its cost x the share of its models and wounds left
  ("Wound Effects": each wound marker of a Tough model counts), less ``SHAKEN`` of it while Shaken (idle at its next
  activation, it can't seize or contest, it strikes back as fatigued);
* threats: each unit loses the expected share of its worth that the most dangerous enemy able to charge it
  (within its charge distance) or shoot it (a weapon within range) would take, from the attackers' Quality, the
  target's Defense, AP and Impact (``melee_wounds``, ``shot_wounds``): ``NEXT`` of it when that enemy's side
  activates next and it has not activated this round, ``LATER`` otherwise;
* the race to the markers: each marker not held by a side pulls it (``PULL``, by how much nearer its nearest
  unit able to seize stands than the enemy's), and a side's own units lose ``APPROACH`` per inch that its nearest
  unit still has to go to a marker it does not hold (so a far marker is still worth walking to).

Once the game is over only the markers count (the result, scaled to outweigh any estimate, plus ``WIN``). Only
public state is read (the search evaluates seat views: ``game.ai.view``).
"""

from __future__ import annotations

import functools
import math

from game.engine.actions import Action, Activate, DeclareCharge, Done, Shoot, StrikeBack
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.skirmish import moves
from game.engine.skirmish.loose import Warband, base_radius, points_of, unit_gap
from game.engine.state import Unit
from game.odds.exact import die_success

MARKER = 100.0
"""Points one objective marker held is worth."""
SEIZE = 0.6
"""Share of a marker's worth counted for the side that would seize it if the round ended now."""
SEIZE_LAST = 0.9
"""The same in the last round, where the markers held at its end are the result."""
MATERIAL = 1.5
"""Points per point of a unit's cost while its models live (a unit kept alive seizes and contests)."""
SHAKEN = 0.35
"""Share of its worth a Shaken unit loses."""
NEXT = 0.6
"""Weight of the threat of an enemy that activates next and has not activated this round."""
LATER = 0.25
"""Weight of the other threats (they come after the other side's activation, or next round)."""
PULL = 35.0
"""Points a marker not held is worth to the side whose nearest unit is nearer to it (``tanh`` of the inches)."""
PULL_SCALE = 8.0
"""Inches of difference that make most of ``PULL``."""
APPROACH = 1.0
"""Points per inch a side's nearest unit has still to go to a marker it does not hold (that side only)."""
MARKER_REACH = 3.0
""""Mission": a unit within 3" of a marker seizes it."""
WIN = 2000.0
"""Points a won game is worth on top of its margin."""


@functools.cache
def chance(need: int) -> float:
    """Chance that one die passes ``need``+ ("Modifiers": a 6 always passes, a 1 always fails;
    ``odds.exact.die_success``, the engine's own rule)."""
    return die_success(need, 0)


def worth(game: Game, unit: Unit) -> float:
    """Points ``unit`` is worth now: its cost x the share of its models' wounds left (0 once it is gone)."""
    w = game.state.activation
    if unit.removed is not None or unit.starting_models <= 0 or not isinstance(w, Warband):
        return 0.0
    tough = max(unit.tough, 1)
    models = w.models.get(unit.id)
    if not models:
        # set aside (Ambush, Scout) or not deployed yet: whole
        return float(unit.cost) if unit.removed is None else 0.0
    left = sum(max(0.0, 1.0 - m.wounds / (tough + 1.0)) for m in models)
    return unit.cost * left / unit.starting_models


def _hits(quality: int, defense: int, ap: int) -> float:
    """Expected wounds of one attack: hits on Quality, the target blocks on Defense + AP."""
    return chance(quality) * (1.0 - chance(defense + ap))


def melee_wounds(attacker: Unit, defender: Unit, strikers: int, charging: bool) -> float:
    """Expected wounds ``strikers`` models of ``attacker`` deal ``defender`` in one round of strikes ("Melee":
    every melee weapon; Impact(X) on a charge, a hit on 2+; AP; Reliable 2+). A rough figure for the evaluation
    only: the search plays real melees with the engine."""
    p = attacker.profile
    q = 2 if attacker.has("Reliable") else p.quality
    d = defender.profile.defense
    out = sum(strikers * wp.attacks * _hits(2 if wp.has("Reliable") else q, d, wp.ap) for wp in p.melee_weapons)
    if charging:
        out += strikers * p.value("Impact") * (5.0 / 6.0) * (1.0 - chance(d))
    return out


def shot_wounds(shooter: Unit, target: Unit, gap: float) -> float:
    """Expected wounds of ``shooter``'s ranged weapons with ``target`` within range (``gap`` inches, nearest
    models; line of sight is not checked here)."""
    q = 2 if shooter.has("Reliable") else shooter.profile.quality
    d = target.profile.defense
    return sum(shooter.models * wp.attacks * _hits(q, d, wp.ap) for wp in _ranged(shooter) if (wp.range or 0) >= gap)


def _ranged(unit: Unit) -> tuple[Weapon, ...]:
    return tuple(wp for wp in unit.profile.ranged_weapons if not (wp.has("Limited") and wp.name in unit.limited_used))


def share_lost(target: Unit, wounds: float) -> float:
    """Share (0..1) of ``target``'s worth ``wounds`` expected wounds take (a Tough model's markers count, and
    the last model's wound effects Shake or Knock it Out)."""
    return min(1.0, wounds / max(1.0, target.models * max(target.tough, 1)))


def charge_value(game: Game, charger: Unit, target: Unit) -> float:
    """Points ``charger``'s side expects from charging ``target`` now: the share of the target's worth its strikes
    take less the share of its own the target's strikes back take (each model within 2" of the other unit strikes;
    here every model of each side is counted, at most ``target.models`` x 2 of the charger)."""
    mine = melee_wounds(charger, target, charger.models, True)
    back = melee_wounds(target, charger, target.models, False) * (0.3 if target.shaken else 1.0)
    back *= 1.0 - share_lost(target, mine)
    return share_lost(target, mine) * worth(game, target) * (1.0 + SHAKEN) - share_lost(charger, back) * \
        worth(game, charger)


def _active_units(game: Game) -> list[Unit]:
    return [u for u in game.state.units.values() if u.on_table and points_of(game.state, u.id)]


def _seizer(game: Game, unit: Unit) -> bool:
    """Whether ``unit`` will seize or contest markers at the end of this round: not arrived by Ambush this round,
    and not Shaken, or Shaken with its activation still to come this round, which it spends idle and is no longer
    Shaken ("Shaken": "must spend one full activation idle to stop being Shaken"; "Mission")."""
    w = game.state.activation
    assert isinstance(w, Warband)
    if w.arrived.get(unit.id) == game.state.round:
        return False
    return not unit.shaken or unit.id not in w.activated


def marker_gap(game: Game, unit: Unit, at: tuple[float, float]) -> float:
    """Inches ``unit``'s nearest model still has to go to stand within 3" of the marker at ``at`` (0 when it
    does)."""
    r = base_radius(unit.profile)
    return max(0.0, min(math.hypot(x - at[0], y - at[1]) - r for x, y in points_of(game.state, unit.id))
               - MARKER_REACH)


def evaluate(game: Game, seat: int, next_to_act: int) -> float:
    """The position for ``seat`` (points, positive = good), ``next_to_act`` activating next. See the module
    docstring for the terms."""
    s = game.state
    vp = game.victory_points()
    score = float(vp[seat] - vp[3 - seat]) * MARKER
    if s.game_over:
        return score * 10.0 + (WIN if vp[seat] > vp[3 - seat] else -WIN if vp[seat] < vp[3 - seat] else 0.0)
    w = s.activation
    if not isinstance(w, Warband):
        return score
    on = _active_units(game)
    done = set(w.activated)
    worths: dict[str, float] = {}
    for u in s.units.values():
        value = worths[u.id] = worth(game, u)
        if value <= 0.0:
            continue
        value *= MATERIAL * (1.0 - (SHAKEN if u.shaken else 0.0))
        score += value if u.player == seat else -value
    pts = {u.id: points_of(s, u.id) for u in on}
    radius = {u.id: base_radius(u.profile) for u in on}
    reach = {u.id: -1.0 if u.has("Immobile") or u.shaken else moves.allowance(s, u, "charge") for u in on}
    for u in on:
        worst = 0.0
        for e in on:
            if e.player == u.player or e.shaken:
                continue
            g = _gap(pts[u.id], radius[u.id], pts[e.id], radius[e.id])
            loss = 0.0
            if g <= reach[e.id]:
                loss = share_lost(u, melee_wounds(e, u, e.models, True)) * worths[u.id]
            if e.profile.ranged_weapons:
                loss = max(loss, share_lost(u, shot_wounds(e, u, g)) * worths[u.id])
            weight = NEXT if e.player == next_to_act and e.id not in done else LATER
            worst = max(worst, loss * weight)
        score += -worst if u.player == seat else worst
    last = s.round >= s.rounds
    for o in s.objectives:
        at = (o.x, o.y)
        near = {1: False, 2: False}
        nearest = {1: 48.0, 2: 48.0}
        for u in on:
            if not _seizer(game, u):
                continue
            g = marker_gap(game, u, at)
            nearest[u.player] = min(nearest[u.player], g)
            if g <= 1e-6:
                near[u.player] = True
        holder = o.controller
        if near[1] != near[2]:
            holder = 1 if near[1] else 2
        elif near[1]:
            holder = None
        if holder != o.controller:
            gain = _side(holder, seat) - _side(o.controller, seat)
            score += (SEIZE_LAST if last else SEIZE) * MARKER * gain
        mine, theirs = nearest[seat], nearest[3 - seat]
        if holder != seat:
            score += PULL * math.tanh((theirs - mine) / PULL_SCALE)
            score -= APPROACH * min(mine, 30.0)
        else:
            # held: the enemy closing in is a threat to it
            score -= PULL * 0.5 * max(0.0, 1.0 - theirs / 12.0)
    return score


def _gap(a: list[tuple[float, float]], ra: float, b: list[tuple[float, float]], rb: float) -> float:
    """Inches between the nearest models of two groups (``loose.unit_gap`` over points already read)."""
    return min(math.hypot(p[0] - q[0], p[1] - q[1]) for p in a for q in b) - ra - rb


def _side(holder: int | None, seat: int) -> float:
    return 0.0 if holder is None else (1.0 if holder == seat else -1.0)


# --- the rollout policy --------------------------------------------------------------------------------------
def policy(game: Game, listed: list[Action], charge: bool) -> Action:
    """The fixed policy the search plays after a candidate (``game.ai.rollout``) for a skirmish decision whose
    answers the ruleset lists: activate the unit with the best charge (when ``charge``) or nearest the enemy;
    charge the best target when ``charge`` and it is expected to pay (``charge_value``), else Hold; shoot the target
    that loses most; strike back; else the first answer listed (done)."""
    s = game.state
    acts = [a for a in listed if isinstance(a, Activate)]
    if acts:
        def nearest(a: Activate) -> float:
            u = s.units[a.unit]
            if u.shaken or not points_of(s, u.id):
                return 1e9
            return min((unit_gap(s, u, e) for e in s.enemies_of(u.player) if e.on_table), default=1e9)
        return min(acts, key=lambda a: (nearest(a), a.unit))
    charges = [a for a in listed if isinstance(a, DeclareCharge)]
    if charge and charges:
        best = max(charges, key=lambda a: charge_value(game, s.units[a.unit], s.units[a.target]))
        if charge_value(game, s.units[best.unit], s.units[best.target]) > 0.0:
            return best
    shots = [a for a in listed if isinstance(a, Shoot)]
    if shots:
        return max(shots, key=lambda a: (shot_value(game, a), a.target))
    strike = [a for a in listed if isinstance(a, StrikeBack)]
    if strike:
        return strike[0]
    done = [a for a in listed if isinstance(a, Done)]
    return done[0] if done else listed[0]


def shot_value(game: Game, shot: Shoot) -> float:
    """Points the shot is expected to take from its target (``shot_wounds`` over the nearest models' gap)."""
    s = game.state
    unit, target = s.units[shot.unit], s.units[shot.target]
    g = unit_gap(s, unit, target)
    return share_lost(target, shot_wounds(unit, target, g)) * worth(game, target)
