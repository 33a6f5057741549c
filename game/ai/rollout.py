"""The cheap fixed policy the search plays after a candidate action, to the end of the turn.

After the candidate, both seats answer with this policy until the turn is over (the active player changes, a new
round begins or the game ends) or ``MAX_STEPS`` actions were taken: no further charges, moves, spells, dispels,
consolidation moves or pivots (``Done``), but a consolidation that brings the unit within 3" of an objective marker
its side does not hold alone (``game.ai.consolidation.marker_step``) is made, and every AoF:R 2.16 wizard that may
block a spell rolls to (a cast judged against no block would be judged too kindly); a charged unit Stands and
Shoots when it may, else Holds (or Flees, where the search weighs that answer: ``flee``); a charger whose target
fled runs it down; Random Charge Distances: the first charge left is rolled; every unit that may shoot fires one
weapon group at its nearest valid target (artillery firing at points does not); after a melee the winner pursues
and follows up (the first candidate); spell tokens are split the engine's default way. So a charge or a shot is
judged by its melee, its morale tests and its flight, and a move by what the turn's shooting and combat make of it.
``play_through_next_turn`` also plays the other player's next turn, where every unit that may charge a target it
expects to beat does (its best such target by ``game.ai.evaluate.charge_value``): so the answer to a position is
simulated, not guessed. An activation
ruleset's decisions (``Ruleset.decision_options``: AoF:R 2.16) are answered by ``listed_policy``. All dice are the
clone's own (``game.ai.view``).
"""

from __future__ import annotations

from game.ai.by_ruleset import ruleset_ai
from game.ai.consolidation import marker_step
from game.ai.evaluate import charge_value
from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    ChargeReaction,
    DeclareCharge,
    Dispel,
    Done,
    FollowUp,
    Pursue,
    Redirect,
    RollCharge,
    Shoot,
    StrikeBack,
    TokenSpend,
)
from game.engine.errors import IllegalAction
from game.engine.game import Game

MAX_STEPS = 120
"""Actions a rollout may take before it stops (a whole turn of the fixed policy takes far fewer)."""


def policy(game: Game, idle: set[str] | None = None, charge: bool = False,
           flee: frozenset[str] = frozenset()) -> Action:
    """The fixed policy's answer to ``game.pending`` (see the module docstring). ``idle``: units already found with
    no shooting target this phase (skipped, and added to as more are found; the hot path of a rollout). ``charge``:
    each unit that may charge a target it expects to beat does (``_best_charge``). ``flee``: units that Flee
    when charged, where they may (the other answer the search weighs a charge against, ``SearchPlayer._judge``)."""
    p = game.pending
    assert p is not None
    own = ruleset_ai(game)
    if own is not None:
        return own.policy(game, charge)
    player = p.player
    d = p.decision
    listed = game.ruleset.decision_options()
    if listed is not None:
        return listed_policy(game, listed, charge)
    if d == "charge_reaction":
        assert p.unit is not None
        if p.unit in flee and "flee" in p.options:
            return ChargeReaction(player, p.unit, "flee")
        return ChargeReaction(player, p.unit, "stand_and_shoot" if "stand_and_shoot" in p.options else "hold")
    if d == "redirect":
        assert p.unit is not None
        return Redirect(player, p.unit, None)
    if d == "roll_charge":
        return RollCharge(player, p.options[0])
    if d in ("pursue", "pursue_target"):
        assert p.unit is not None
        return Pursue(player, p.unit, True, p.options[0] if d == "pursue_target" and p.options else None)
    if d == "follow_up":
        assert p.unit is not None
        return FollowUp(player, p.unit, True, p.options[0] if p.options else None)
    if d == "declare_charge" and charge:
        s = game.state
        for uid in game.chargers(player):
            if not any(c.unit == uid for c in s.charges):
                best = _best_charge(game, [DeclareCharge(player, uid, t) for t in game.charge_targets(uid)])
                if best is not None:
                    return best
        return Done(player)
    if d == "consolidate":
        assert p.unit is not None
        step = marker_step(game, game.state.units[p.unit])
        return step if step is not None else Done(player)
    if d == "allocate_tokens":
        return magic.default_allocation(game.state, player)
    if d == "block_spell":
        return Dispel(player, tuple(TokenSpend(1, uid) for uid in p.options))
    if d == "shoot":
        shot = nearest_shot(game, player, idle)
        if shot is not None:
            return shot
    return Done(player)


def listed_policy(game: Game, listed: list[Action], charge: bool = False) -> Action:
    """The fixed policy for a decision whose answers the ruleset lists (``Ruleset.decision_options``: AoF:R 2.16's
    activations): activate the unit nearest the enemy; charge its nearest target when ``charge`` (else stay idle:
    the policy never moves); shoot the nearest target; strike back; else the first answer listed."""
    scene = game.state.scene

    def gap(uid: str, target: str) -> float:
        return scene.distance(uid, target)

    acts = [a for a in listed if isinstance(a, Activate)]
    if acts:
        s = game.state

        def nearest(a: Activate) -> float:
            unit = s.units[a.unit]
            return min((gap(a.unit, e.id) for e in s.enemies_of(unit.player) if e.pose is not None and
                        unit.pose is not None), default=1e9)

        return min(acts, key=lambda a: (nearest(a), a.unit))
    p = game.pending
    if p is not None and p.decision == "consolidate" and p.unit is not None:
        step = marker_step(game, game.state.units[p.unit])
        if step is not None:
            return step
    charges = [a for a in listed if isinstance(a, DeclareCharge)]
    best = _best_charge(game, charges) if charge else None
    if best is not None:
        return best
    shots = [a for a in listed if isinstance(a, Shoot)]
    if shots:
        return min(shots, key=lambda a: (gap(a.unit, a.target), a.target))
    strike = [a for a in listed if isinstance(a, StrikeBack)]
    if strike:
        return strike[0]
    done = [a for a in listed if isinstance(a, Done)]
    return done[0] if done else listed[0]


def _best_charge(game: Game, charges: list[DeclareCharge]) -> DeclareCharge | None:
    """The charge of ``charges`` the evaluation expects most of (``evaluate.charge_value``), if it expects a gain
    (an opponent who charges only what it would beat, as a thinking one does), else None."""
    units = game.state.units
    best: tuple[float, DeclareCharge] | None = None
    for c in charges:
        value = charge_value(game, units[c.unit], units[c.target])
        if value > 0.0 and (best is None or value > best[0]):
            best = (value, c)
    return None if best is None else best[1]


def nearest_shot(game: Game, player: int, idle: set[str] | None = None) -> Shoot | None:
    """A shot at the nearest valid target by the first unit of ``player`` that has not fired yet, or None. Units in
    ``idle`` are skipped; units found without a target are added to it (targets only go away within a phase)."""
    s = game.state
    for unit in s.units_of(player):
        if unit.shot_targets or (idle is not None and unit.id in idle):
            continue
        targets = game.shooting_targets(unit.id, nearest=True)
        if targets:
            return Shoot(player, unit.id, targets[0])
        if idle is not None:
            idle.add(unit.id)
    return None


def play_to_turn_end(game: Game, max_steps: int = MAX_STEPS, charge: bool = False,
                     turn: tuple[int, int] | None = None, flee: frozenset[str] = frozenset()) -> bool:
    """Play ``game`` (a clone rolling the AI's own dice) with ``policy`` until the turn is over (see the module
    docstring); ``charge``: the side playing charges what it expects to beat. ``turn``: the (round, active player)
    whose turn is played out, by default the one now; a game already past it is left as it is (a candidate that
    ended its own activation, as AoF:R's idle does: the other side's next activation is not its to play out, and
    played by this passive policy it would flatter the candidate). ``flee``: units that Flee when charged (``policy``).
    An action the engine refuses ends the rollout where it stands. Returns whether the turn is over (or the
    game)."""
    s = game.state
    start = turn if turn is not None else (s.round, s.active_player)
    idle: set[str] = set()
    phase = s.phase
    for _ in range(max_steps):
        if game.pending is None or (s.round, s.active_player) != start:
            return True
        if s.phase is not phase:
            idle.clear()
            phase = s.phase
        try:
            game.apply(policy(game, idle, charge, flee))
        except IllegalAction:
            return False
    return False


def play_through_next_turn(game: Game, turn: tuple[int, int] | None = None,
                           flee: frozenset[str] = frozenset()) -> bool:
    """The rest of this turn (``play_to_turn_end``; ``turn`` and ``flee`` as there), then the other player's whole
    next turn with its charges: what the enemy's charges would make of the position. Returns whether both turns
    were played out."""
    return play_to_turn_end(game, turn=turn, flee=flee) and (game.pending is None or
                                                           play_to_turn_end(game, charge=True))
