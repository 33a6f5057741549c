"""What the computer opponent knows of a ruleset beyond the ruleset seam (``Ruleset.decision_options``, the
engine's checks): for a ruleset whose armies are not regiments in formation, its own candidate moves, set-up rules,
position evaluation and rollout policy, found here by the ruleset's id, the one place the search asks
(``game.ai.search``, ``game.ai.evaluate``, ``game.ai.rollout``). A ruleset not listed is played with the
formations' knowledge (``game.ai.candidates``, ``game.ai.evaluate``, ``game.ai.rollout``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from game.ai.skirmish import SkirmishAI
from game.engine.actions import Action
from game.engine.game import Game
from game.engine.rulesets.skirmish import ID as SKIRMISH

if TYPE_CHECKING:
    from game.ai.budget import Budget


class RulesetAI(Protocol):
    """The computer opponent's knowledge of one ruleset."""

    def setup(self, game: Game, me: int, rng: random.Random) -> Action | None:
        """A quick answer to a set-up decision, or None for a decision the search judges."""
        ...

    def candidates(self, game: Game, me: int, budget: Budget, rng: random.Random) -> tuple[list[Action], int]:
        """(candidates, depth) for the pending decision (``SearchPlayer._candidates``'s contract); a decision it
        does not know gets a heuristic player's answer as the single candidate, never an exception."""
        ...

    def evaluate(self, game: Game, seat: int, next_to_act: int) -> float:
        """The position for ``seat`` (``game.ai.evaluate.evaluate``'s contract)."""
        ...

    def policy(self, game: Game, charge: bool) -> Action:
        """The rollout's fixed answer to the pending decision (``game.ai.rollout.policy``'s contract)."""
        ...

    def rule_of_thumb(self, game: Game, action: Action) -> str:
        """Why the heuristic answer ``action`` (a decision the search does not judge) was given, in a few words for
        the log (``game`` before the action)."""
        ...


_KNOWN: dict[str, RulesetAI] = {SKIRMISH: SkirmishAI()}


def ruleset_ai(game: Game) -> RulesetAI | None:
    """The knowledge of ``game``'s ruleset, or None for the formations' (AoWFBR 1.4, AoF:R 2.16 and its quick
    rules)."""
    return _KNOWN.get(game.ruleset.id)
