"""Unit profiles and weapons (rulebook "Unit Stats", "Weapons"), and parsing of special rule names.

A special rule is written as in the rulebook: ``Fearless`` or, for rules with a value, ``Tough(3)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_RULE_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*(?:\(\s*(\d+)\s*\))?\s*$")

AOWFBR_RULES: frozenset[str] = frozenset({
    "Ambush", "AP", "Blast", "Caster", "Counter", "Deadly", "Entrenched", "Fast", "Fear", "Fearless", "Flying",
    "Furious", "Hero", "Immobile", "Impact", "Indirect", "Lance", "Limited", "Poison", "Regeneration", "Relentless",
    "Reliable", "Rending", "Scout", "Slow", "Sniper", "Stealth", "Strider", "Tough", "Transport",
})
"""Names of the special rules of AoWFBR 1.4's Special Rules Reference (only these: ``AoWFBR.special_rules``)."""

QUICK_ONLY_RULES: frozenset[str] = frozenset({"Artillery", "Bane", "Surge", "Takedown", "Thrust", "Unstoppable"})
"""Rules of the AoF:R quick rules' "Special Rules Reference" that AoWFBR 1.4 does not have (played by the
``aofr-quick`` ruleset, and ``Artillery`` by AoF:R 2.16 too; a ruleset refuses at load the rules it does not play:
``Ruleset.special_rules``)."""

AOFR216_ONLY_RULES: frozenset[str] = frozenset({"Breath Attack", "Phalanx", "Wizard"})
"""Rules of AoF:R 2.16's "Special Rules" that AoWFBR 1.4 and the quick rules do not have (played by ``aofr-2.16``
only: ``Wizard(X)``, casting within an activation, ``game.engine.activation_magic``; ``Breath Attack``,
``game.engine.rulesets.aofr_breath``; ``Phalanx``, ``aofr_rules.phalanx_test``)."""

KNOWN_RULES: frozenset[str] = AOWFBR_RULES | QUICK_ONLY_RULES | AOFR216_ONLY_RULES
"""Names of every special rule a profile may name (each ruleset plays its own: ``Ruleset.special_rules``)."""

RULES_WITH_VALUE: frozenset[str] = frozenset(
    {"AP", "Blast", "Caster", "Deadly", "Fear", "Impact", "Tough", "Transport", "Wizard"}
)
"""Rules written with an (X) value."""

VALUE_OPTIONAL: frozenset[str] = frozenset({"Fear"})
"""Rules one book writes with an (X) value and another without: AoWFBR 1.4's ``Fear(X)`` (+X wounds), AoF:R 2.16's
``Fear`` (+D3 wounds). Both spellings parse; the scenario's ruleset refuses the one its book does not use
(``Ruleset.valueless_rules``)."""

UPGRADES: frozenset[str] = frozenset({"sergeant", "musician", "banner"})
"""Command group upgrades (rulebook "Command Groups")."""


@lru_cache(maxsize=1024)
def parse_rule(text: str) -> tuple[str, int | None]:
    """Split ``"Tough(3)"`` into ``("Tough", 3)`` and ``"Fearless"`` into ``("Fearless", None)``.

    Raises ``ValueError`` for text that is not a rule name, an unknown rule, or a value missing or misplaced.
    """
    m = _RULE_RE.match(text)
    if not m:
        raise ValueError(f"not a special rule: {text!r}")
    name, value = m.group(1), m.group(2)
    if name not in KNOWN_RULES:
        raise ValueError(f"unknown special rule {name!r}")
    if name in RULES_WITH_VALUE and value is None and name not in VALUE_OPTIONAL:
        raise ValueError(f"special rule {name} needs a value, as in {name}(1)")
    if name not in RULES_WITH_VALUE and value is not None:
        raise ValueError(f"special rule {name} takes no value")
    return name, (int(value) if value is not None else None)


@lru_cache(maxsize=8192)     # asked about a million times a searched game, of a few hundred profiles' rules
def rule_value(rules: tuple[str, ...], name: str) -> int | None:
    """The X of rule ``name`` in ``rules`` (the highest if written twice), or None when absent.

    For rules without a value, returns 1 when present. Raises ``ValueError`` for a text that is not a known
    special rule (``parse_rule``).
    """
    best: int | None = None
    for text in rules:
        n, v = parse_rule(text)
        if n == name:
            v = 1 if v is None else v
            best = v if best is None else max(best, v)
    return best


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile: ``Name (Range, Attacks, Special Rules)``."""

    name: str
    """Weapon name, unique within its profile."""
    attacks: int
    """Attacks per model."""
    range: float | None = None
    """Range in inches for ranged weapons; None for melee weapons."""
    rules: tuple[str, ...] = ()
    """Weapon special rules, e.g. ``("AP(1)",)``."""

    @property
    def is_ranged(self) -> bool:
        """True for a ranged weapon (it has a range)."""
        return self.range is not None

    def has(self, rule: str) -> bool:
        """True if the weapon has special rule ``rule`` (by name, any value)."""
        return rule_value(self.rules, rule) is not None

    @property
    def ap(self) -> int:
        """Armour piercing value X of AP(X), 0 without it."""
        return rule_value(self.rules, "AP") or 0


@dataclass(frozen=True, slots=True)
class Profile:
    """A unit profile: Quality, Defense, equipment, special rules, base size and cost."""

    name: str
    """Profile name as written in the army list."""
    quality: int
    """Quality value, 2..6 (the "4+")."""
    defense: int
    """Defense value, 2..6."""
    base_width_mm: float
    """Base width, millimetres."""
    base_depth_mm: float
    """Base depth, millimetres."""
    size: int
    """Models in one copy of the unit."""
    cost: int
    """Points for one copy."""
    weapons: tuple[Weapon, ...] = ()
    """Weapons every model carries."""
    rules: tuple[str, ...] = ()
    """Unit special rules, e.g. ``("Fearless", "Tough(3)")``."""
    artillery_type: int | None = None
    """Random Scatter for Artillery (rulebook "Optional Rules", "Artillery Types"): the type agreed for this
    artillery, 1, 2 or 3; None: derived from the weapons (``game.engine.artillery_scatter.artillery_type``)."""

    def has(self, rule: str) -> bool:
        """True if the unit has special rule ``rule`` (by name)."""
        return rule_value(self.rules, rule) is not None

    def value(self, rule: str) -> int:
        """X of a unit rule ``rule(X)``; 0 when absent."""
        return rule_value(self.rules, rule) or 0

    @property
    def tough(self) -> int:
        """Wounds each model takes before it is killed: X of Tough(X), else 1."""
        return rule_value(self.rules, "Tough") or 1

    @property
    def is_hero(self) -> bool:
        """True for heroes (rule Hero)."""
        return self.has("Hero")

    @property
    def melee_weapons(self) -> tuple[Weapon, ...]:
        """Weapons without range."""
        return tuple(w for w in self.weapons if not w.is_ranged)

    @property
    def ranged_weapons(self) -> tuple[Weapon, ...]:
        """Weapons with a range."""
        return tuple(w for w in self.weapons if w.is_ranged)

    def weapon(self, name: str) -> Weapon:
        """The weapon called ``name``; raises ``KeyError`` if the profile has none."""
        for w in self.weapons:
            if w.name == name:
                return w
        raise KeyError(name)
