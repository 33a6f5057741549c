"""Terrain kinds and traits (rulebook "Terrain Rules" and "Terrain Setup Guidelines").

A scenario's terrain piece has a ``kind`` (what it looks like; the window colours terrain by kind) and a set of
``traits`` (which terrain rules apply). When the scenario gives no ``traits`` the kind's defaults below apply;
they follow the rulebook's guideline list:

======== =============================================  ===========================================
kind     default traits                                  rulebook guideline
======== =============================================  ===========================================
barricade cover                                          Barricades - Cover
building impassable, blocking                            Buildings - Impassable + Blocking
field    difficult, cover                                Fields - Difficult + Cover
forest   difficult, cover, see_into_not_through          Forests - Difficult + Cover + see into/out, not through
hill     cover, difficult, elevated                      Hills - Cover + Difficult when moving up + units on top
                                                          may ignore one unit/terrain for line of sight
lake     difficult                                       Lakes - Difficult (if shallow)
lava     dangerous                                       Lava - Dangerous
mountain impassable, blocking                            Mountains - Impassable + Blocking
river    dangerous_when_rushing                          Rivers - Dangerous when using rush/charge
rubble   difficult                                       Rubble - Difficult
ruins    cover, dangerous_when_rushing                   Ruins - Cover + Dangerous when using rush/charge
swamp    difficult                                       Swamps - Difficult
open     (none)                                          Open terrain: no special rules
======== =============================================  ===========================================

This module is the one place that table lives; the scenario loader, the rules and the window import it.
"""

from __future__ import annotations

from geometry.terrain import (
    BLOCKING,
    COVER,
    DANGEROUS,
    DANGEROUS_WHEN_RUSHING,
    DIFFICULT,
    ELEVATED,
    IMPASSABLE,
    SEE_INTO_NOT_THROUGH,
)

__all__ = [
    "BLOCKING", "COVER", "DANGEROUS", "DANGEROUS_WHEN_RUSHING", "DIFFICULT", "ELEVATED", "IMPASSABLE",
    "SEE_INTO_NOT_THROUGH", "KNOWN_TRAITS", "KIND_TRAITS", "KINDS", "KIND_HEIGHT", "default_traits",
    "blocks_sight", "is_dangerous",
]

KNOWN_TRAITS: frozenset[str] = frozenset(
    {IMPASSABLE, BLOCKING, COVER, DIFFICULT, DANGEROUS, DANGEROUS_WHEN_RUSHING, ELEVATED, SEE_INTO_NOT_THROUGH}
)
"""Every trait a scenario may give a terrain piece."""

KIND_TRAITS: dict[str, frozenset[str]] = {
    "barricade": frozenset({COVER}),
    "building": frozenset({IMPASSABLE, BLOCKING}),
    "field": frozenset({DIFFICULT, COVER}),
    "forest": frozenset({DIFFICULT, COVER, SEE_INTO_NOT_THROUGH}),
    "hill": frozenset({COVER, DIFFICULT, ELEVATED}),
    "lake": frozenset({DIFFICULT}),
    "lava": frozenset({DANGEROUS}),
    "mountain": frozenset({IMPASSABLE, BLOCKING}),
    "river": frozenset({DANGEROUS_WHEN_RUSHING}),
    "rubble": frozenset({DIFFICULT}),
    "ruins": frozenset({COVER, DANGEROUS_WHEN_RUSHING}),
    "swamp": frozenset({DIFFICULT}),
    "open": frozenset(),
}
"""Default traits of every terrain kind (the rulebook's Terrain Setup Guidelines); a scenario's ``traits``
replaces them."""

KINDS: tuple[str, ...] = tuple(sorted(KIND_TRAITS))
"""Every terrain kind a scenario may use, sorted."""

KIND_HEIGHT: dict[str, float] = {
    "barricade": 1.0,
    "building": 4.0,
    "field": 0.5,
    "forest": 4.0,
    "hill": 2.0,
    "lake": 0.0,
    "lava": 0.0,
    "mountain": 6.0,
    "river": 0.0,
    "rubble": 0.5,
    "ruins": 2.0,
    "swamp": 0.0,
    "open": 0.0,
}
"""Default height in inches when a scenario gives none (rulebook "Elevated Terrain": pieces over 3" tall are
impassable, up to 3" may be climbed, up to 1" may be ignored for movement)."""


def default_traits(kind: str) -> frozenset[str]:
    """Default traits of terrain ``kind``; raises ``KeyError`` for an unknown kind."""
    return KIND_TRAITS[kind]


def blocks_sight(traits: frozenset[str]) -> bool:
    """True if terrain with these traits blocks (or partly blocks) line of sight: blocking, forests, hills.

    Used to balance tables (rulebook "Terrain Placement": at least 50% should block line of sight).
    """
    return bool(traits & {BLOCKING, SEE_INTO_NOT_THROUGH})


def is_dangerous(traits: frozenset[str]) -> bool:
    """True if terrain with these traits is dangerous in some way (always, or when rushing/charging)."""
    return bool(traits & {DANGEROUS, DANGEROUS_WHEN_RUSHING})
