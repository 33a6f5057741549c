"""The computer opponent's knowledge of AoF: Skirmish (issue 18; ``game.ai.by_ruleset``): candidates and set-up
(``game.ai.skirmish_candidates``), evaluation and rollout policy (``game.ai.skirmish_evaluate``); a decision those
do not know is answered with the simple player's heuristics (``game.skirmish_play``), never a crash.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game import skirmish_play
from game.ai import skirmish_candidates, skirmish_evaluate
from game.engine.actions import Action, Done
from game.engine.game import Game

if TYPE_CHECKING:
    from game.ai.budget import Budget


class SkirmishAI:
    """``game.ai.by_ruleset.RulesetAI`` for AoF: Skirmish's loose models."""

    def setup(self, game: Game, me: int, rng: random.Random) -> Action | None:
        """The quick set-up rules (``skirmish_candidates.setup``), or None for a decision of the round."""
        return skirmish_candidates.setup(game, me, rng)

    def candidates(self, game: Game, me: int, budget: Budget, rng: random.Random) -> tuple[list[Action], int]:
        """``skirmish_candidates.candidates`` with the budget's figures; for a decision it does not know, the simple
        player's answer alone (judged by the engine before it is played)."""
        p = game.pending
        if p is not None and p.decision in ("action", "shoot"):
            # "Caster(X)": a caster casts by the simple player's rule of thumb (a spell on the nearest enemy in
            # sight first) before its action or its shots; the search judges the rest
            cast = skirmish_play.cast(game, me, None)
            if cast is not None:
                return [cast], 0
        got = skirmish_candidates.candidates(game, me, max(1, budget.candidates - 2), budget.per_unit,
                                             max(1, budget.moves // 3), budget.depth)
        if got is None:
            return [skirmish_play.choose(game, rng, simple=True)], 0
        return got

    def evaluate(self, game: Game, seat: int, next_to_act: int) -> float:
        """``skirmish_evaluate.evaluate``."""
        return skirmish_evaluate.evaluate(game, seat, next_to_act)

    def policy(self, game: Game, charge: bool) -> Action:
        """``skirmish_evaluate.policy`` over the ruleset's listed answers; the simple player's answer (with a fixed
        generator: the rollout stays a function of its dice) where nothing is listed."""
        p = game.pending
        if p is not None and p.decision == "action" and not charge:
            return Done(p.player)      # Hold (then shoot): the policy never moves, and charges only when asked
        listed = game.ruleset.decision_options()
        if not listed:
            return skirmish_play.choose(game, random.Random(0), simple=True)
        return skirmish_evaluate.policy(game, listed, charge)

    def rule_of_thumb(self, game: Game, action: Action) -> str:
        """``skirmish_play.reason``: the simple player's words for its answer."""
        return skirmish_play.reason(game, action)
