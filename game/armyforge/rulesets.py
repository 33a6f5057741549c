"""What a ruleset knows: the one place the importer asks which special rules and command groups exist.

Every playable ruleset (``game.engine.rulesets.RULESETS``) may be imported onto. What it plays comes from the
same source the scenario loader checks a profile against (``game.scenario.ruleset_content``: the ruleset's
``special_rules`` and ``upgrades``), so a rule or ruleset added there is importable with no change here; how a
rule is written (with a value or not, on a unit or a weapon) comes from the rule registry
(``game.engine.profiles.RULES_WITH_VALUE``, ``game.engine.special_rules.RULES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from game.engine.profiles import KNOWN_RULES, RULES_WITH_VALUE
from game.engine.rulesets import DEFAULT, RULESETS
from game.engine.special_rules import RULES
from game.scenario import ruleset_content

DEFAULT_RULESET = DEFAULT
"""The ruleset an import maps onto unless told otherwise (AoWFBR 1.4)."""

COMMAND_GROUP_NAMES: dict[str, str] = {
    "sergeant": "sergeant", "musician": "musician", "banner": "banner", "standard bearer": "banner",
}
"""Army Forge upgrade or rule names (lower case) that are a command group of ours (docs/rulings.md "Army Forge
imports")."""


def import_rulesets() -> tuple[str, ...]:
    """The rulesets an import may map onto: every playable one, sorted by id."""
    return tuple(sorted(RULESETS))


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
    """Lower-case Army Forge name -> command group upgrade this ruleset plays (``sergeant``...)."""
    other_groups: dict[str, str]
    """Lower-case Army Forge name -> a command group of ours this ruleset does not play (AoF:R 2.16: Musician)."""
    title: str = ""
    """The ruleset's name and id for messages: ``Age of Fantasy: Regiments 2.16 (aofr-2.16)``."""

    def canonical(self, name: str) -> str | None:
        """The ruleset's spelling of rule ``name`` (any case), or None when it does not know it."""
        return self.names.get(name.strip().lower())


def _carried_by(name: str) -> str:
    """Where a profile writes rule ``name``: the registry's ``carried_by``; a rule a ruleset adds without a registry
    entry may be written on either."""
    rule = RULES.get(name)
    return rule.carried_by if rule is not None else "unit or weapon"


@lru_cache(maxsize=8)
def known_rules(ruleset: str = DEFAULT_RULESET) -> KnownRules:
    """The special rules and command groups of ``ruleset`` (module doc). Raises ``ValueError`` for a ruleset that
    is not playable (``game.engine.rulesets.unplayable``'s words)."""
    content = ruleset_content(ruleset)
    # A name the ruleset lists must also be one a profile can write (parse_rule), or the army file would not load.
    names = sorted(content.special_rules & KNOWN_RULES)
    unit = frozenset(n for n in names if "unit" in _carried_by(n))
    weapon = frozenset(n for n in names if "weapon" in _carried_by(n))
    upgrades = {k: v for k, v in COMMAND_GROUP_NAMES.items() if v in content.upgrades}
    others = {k: v for k, v in COMMAND_GROUP_NAMES.items() if v not in content.upgrades}
    return KnownRules(ruleset, {n.lower(): n for n in names}, frozenset(n for n in names if n in RULES_WITH_VALUE),
                      unit, weapon, upgrades, others, content.title)
