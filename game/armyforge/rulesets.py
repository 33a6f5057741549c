"""What a ruleset knows: the one place the importer asks which special rules and command groups exist.

Today the only ruleset is AoWFBR 1.4 (``aowfbr-1.4``): its special rules are the registry
``game.engine.special_rules.RULES`` (the rulebook's Special Rules Reference) and its command groups
``game.engine.profiles.UPGRADES`` (rulebook "Command Groups"). A later ruleset (AoF:R) adds a branch to
``known_rules``; nothing else in ``game.armyforge`` names a ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from game.engine.profiles import AOWFBR_RULES, UPGRADES
from game.engine.special_rules import RULES

DEFAULT_RULESET = "aowfbr-1.4"
"""The ruleset an import maps onto unless told otherwise."""
RULESETS: tuple[str, ...] = ("aowfbr-1.4",)
"""Rulesets an import may map onto."""

COMMAND_GROUP_NAMES: dict[str, str] = {
    "sergeant": "sergeant", "musician": "musician", "banner": "banner", "standard bearer": "banner",
}
"""Army Forge upgrade or rule names (lower case) that are a command group of ours (docs/rulings.md "Army Forge
imports")."""


@dataclass(frozen=True)
class KnownRules:
    """The special rules and command groups of one ruleset, as the importer needs them."""

    ruleset: str
    names: dict[str, str]
    """Lower-case name -> the rulebook's spelling (``tough`` -> ``Tough``)."""
    with_value: frozenset[str]
    """Rules written with an (X) value, rulebook spelling."""
    unit_rules: frozenset[str]
    """Rules a unit profile may carry."""
    weapon_rules: frozenset[str]
    """Rules a weapon may carry."""
    upgrades: dict[str, str]
    """Lower-case Army Forge name -> command group upgrade (``sergeant``, ``musician``, ``banner``)."""

    def canonical(self, name: str) -> str | None:
        """The ruleset's spelling of rule ``name`` (any case), or None when it does not know it."""
        return self.names.get(name.strip().lower())


@lru_cache(maxsize=8)
def known_rules(ruleset: str = DEFAULT_RULESET) -> KnownRules:
    """The special rules and command groups of ``ruleset``. Raises ``ValueError`` for a ruleset not known."""
    if ruleset != "aowfbr-1.4":
        raise ValueError(f"unknown ruleset {ruleset!r} (rulesets: {', '.join(RULESETS)})")
    rules = [r for r in RULES.values() if r.name in AOWFBR_RULES]     # the registry holds other rulesets' too
    unit = frozenset(r.name for r in rules if "unit" in r.carried_by)
    weapon = frozenset(r.name for r in rules if "weapon" in r.carried_by)
    upgrades = {k: v for k, v in COMMAND_GROUP_NAMES.items() if v in UPGRADES}
    return KnownRules(ruleset, {r.name.lower(): r.name for r in rules},
                      frozenset(r.name for r in rules if r.takes_value), unit, weapon, upgrades)
