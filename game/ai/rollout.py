"""The cheap fixed policy the search plays after a candidate action, to the end of the turn.

After the candidate, both seats answer with this policy until the turn is over (the active player changes, a new
round begins or the game ends) or ``MAX_STEPS`` actions were taken: no further charges, moves, spells, dispels,
consolidation moves or pivots (``Done``); a charged unit Stands and Shoots when it may, else Holds; a charger whose
target fled runs it down; Random Charge Distances: the first charge left is rolled; every unit that may shoot fires
one weapon group at its nearest valid target (artillery firing at points does not); after a melee the winner
pursues and follows up (the first candidate); spell tokens are split the engine's default way. So a charge or a shot
is judged by its melee, its morale tests and its flight, and a move by what the turn's shooting and combat make of
it. All dice are the clone's own (``game.ai.view``).
"""

from __future__ import annotations

from game.engine import magic
from game.engine.actions import (
    Action,
    ChargeReaction,
    Done,
    FollowUp,
    Pursue,
    Redirect,
    RollCharge,
    Shoot,
)
from game.engine.errors import IllegalAction
from game.engine.game import Game

MAX_STEPS = 120
"""Actions a rollout may take before it stops (a whole turn of the fixed policy takes far fewer)."""


def policy(game: Game) -> Action:
    """The fixed policy's answer to ``game.pending`` (see the module docstring)."""
    p = game.pending
    assert p is not None
    player = p.player
    d = p.decision
    if d == "charge_reaction":
        assert p.unit is not None
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
    if d == "allocate_tokens":
        return magic.default_allocation(game.state, player)
    if d == "shoot":
        shot = nearest_shot(game, player)
        if shot is not None:
            return shot
    return Done(player)


def nearest_shot(game: Game, player: int) -> Shoot | None:
    """A shot at the nearest valid target by the first unit of ``player`` that has not fired yet, or None."""
    s = game.state
    for unit in s.units_of(player):
        if unit.shot_targets:
            continue
        targets = game.shooting_targets(unit.id)
        if targets:
            return Shoot(player, unit.id, min(targets, key=lambda t: (s.scene.distance(unit.id, t), t)))
    return None


def play_to_turn_end(game: Game, max_steps: int = MAX_STEPS) -> None:
    """Play ``game`` (a clone rolling the AI's own dice) with ``policy`` until the turn is over (see the module
    docstring). An action the engine refuses ends the rollout where it stands."""
    s = game.state
    start = (s.round, s.active_player)
    for _ in range(max_steps):
        if game.pending is None or (s.round, s.active_player) != start:
            return
        try:
            game.apply(policy(game))
        except IllegalAction:
            return
