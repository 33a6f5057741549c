"""How much the computer opponent thinks per decision (its levels are budgets: ``game.ai.search.LEVELS``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How much a level thinks per decision."""

    candidates: int
    """Candidates judged at most per decision (charges, shots, casts...)."""
    samples: int
    """Dice samples per candidate whose outcome depends on dice."""
    moves: int
    """Candidate moves per unit."""
    move_depth: int
    """0: a move is scored right after it is made; 1: after the rest of the turn is played out; 2: and the
    other player's next turn (``game.ai.rollout.play_through_next_turn``)."""
    move_samples: int
    """Dice samples per candidate move (at depth 1 or 2)."""
    depth: int
    """Look-ahead of the other searched decisions: 0 scored right after the action (a charge by the evaluation's
    estimate of its melee, ``game.ai.evaluate.charge_value``), 1 to the end of the turn, 2 through the other
    player's next."""
    per_unit: int
    """Charge or shooting targets considered per unit (nearest first)."""
