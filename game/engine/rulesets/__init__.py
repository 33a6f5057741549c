"""The rulesets a game may be played under, by the id a scenario names in ``ruleset`` (issue 14; the interface:
``game.engine.rulesets.base``).

``RULESETS`` holds the playable ones; ``PLANNED`` the ones the program knows by name but cannot play yet, so that a
scenario naming one is refused with a clear message instead of a bare "must be one of".
"""

from __future__ import annotations

from game.engine.rulesets.aofr import AoFR216
from game.engine.rulesets.aofr_quick import AoFRQuick
from game.engine.rulesets.aowfbr import AoWFBR
from game.engine.rulesets.base import GameHost, Ruleset, RulesetFactory
from game.engine.rulesets.skirmish import AoFSkirmish

DEFAULT = AoWFBR.id
"""The ruleset of a state or record that names none (everything written before the seam)."""

RULESETS: dict[str, RulesetFactory] = {AoWFBR.id: AoWFBR, AoFR216.id: AoFR216, AoFRQuick.id: AoFRQuick,
                                       AoFSkirmish.id: AoFSkirmish}
"""Playable rulesets by id. A new ruleset is a new module registered here."""

PLANNED: dict[str, str] = {
}
"""Rulesets known by name that are not playable yet, with their titles (none today: a ruleset being built is
listed here so that a scenario naming it is refused clearly)."""


def make_ruleset(ruleset_id: str, game: GameHost) -> Ruleset:
    """The ruleset ``ruleset_id`` refereeing ``game``. Raises ``ValueError`` naming the problem for a ruleset
    that is planned but not playable yet, or unknown."""
    factory = RULESETS.get(ruleset_id)
    if factory is None:
        raise ValueError(f"ruleset: {unplayable(ruleset_id)}")
    return factory(game)


def unplayable(ruleset_id: str) -> str:
    """Why ``ruleset_id`` cannot be played: not playable yet (a planned one) or unknown."""
    playable = ", ".join(sorted(RULESETS))
    if ruleset_id in PLANNED:
        return (f"{ruleset_id!r} ({PLANNED[ruleset_id]}) is not playable yet; the playable "
                f"ruleset{'s are' if len(RULESETS) > 1 else ' is'}: {playable}")
    return f"{ruleset_id!r} is not a known ruleset; must be one of: {playable}"


__all__ = ["DEFAULT", "PLANNED", "RULESETS", "GameHost", "Ruleset", "RulesetFactory", "make_ruleset", "unplayable"]
