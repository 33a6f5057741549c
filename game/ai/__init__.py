"""The computer opponent (issue 13): a player that looks ahead with the engine itself.

``SearchPlayer`` (``game.ai.search``) answers every decision of a game. For each pending decision it builds a
small set of purposeful candidate actions (``game.ai.candidates``), keeps those the engine's own validators accept,
and judges each by playing it out on clones of the game with dice of its own (``game.ai.view``: the clone sees only
what its seat may see), followed by a cheap fixed policy to the end of the turn (``game.ai.rollout``), and scores
the position reached (``game.ai.evaluate``). The levels ``ai-easy``, ``ai`` and ``ai-hard`` differ only by how
much they think (``game.ai.search.LEVELS``): candidates, samples and look-ahead depth, never by what they see.
"""

from __future__ import annotations

from game.ai.search import LEVELS, Budget, SearchPlayer

__all__ = ["LEVELS", "Budget", "SearchPlayer"]
