"""AoF:R 2.16 (``ruleset: aofr-2.16``): what the ruleset plays (its special rules, upgrades, terrain traits,
side-missions, decisions) and the state of a round of activations it keeps in ``GameState.activation``
(``Activations``). The book: ../shared/rules/aofr-2.16-full-rulebook.txt; the ruleset: ``aofr.AoFR216``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine import activation_magic
from game.engine.side_missions import SideMissionRules
from game.engine.state import Phase

SPECIAL_RULES = frozenset({
    "Ambush", "AP", "Artillery", "Blast", "Breath Attack", "Deadly", "Fast", "Fear", "Fearless", "Flying",
    "Furious", "Hero", "Immobile", "Impact", "Indirect", "Phalanx", "Poison", "Regeneration", "Rending", "Scout",
    "Slow", "Sniper", "Stealth", "Strider", "Tough", "Wizard",
})
"""AoF:R 2.16 "Special Rules" this ruleset plays: every rule of the book (unit and weapon rules; ``aofr_rules``
where the book's meaning differs from AoWFBR's; ``Wizard``: ``activation_magic``; ``Breath Attack``:
``aofr_breath``; ``Phalanx``: ``aofr_rules.phalanx_test``). AoWFBR's own (Counter, Lance, Caster...) are refused
when a scenario loads, naming the ruleset."""

UPGRADES = frozenset({"sergeant", "banner"})
"""AoF:R 2.16 "Command Groups" this ruleset plays: the Sergeant (+1 to hit for one model) and the "Musician / Battle
Standard" (+1 wound to the melee result), one upgrade written ``banner`` (``musician`` is refused at load, naming
``banner``: AoWFBR's Musician moves +1", which AoF:R's does not)."""

TERRAIN_TRAITS = frozenset({"impassable", "blocking", "cover", "difficult", "dangerous", "see_into_not_through",
                            "dangerous_when_rushing", "elevated"})
"""AoF:R 2.16 "Terrain" as this ruleset plays it: impassable, cover, difficult, dangerous terrain and sight blockers
(a forest is seen into, not through: docs/rulings.md), and the "Terrain Guidelines" kinds: rivers and ruins
(dangerous when crossing with Rush or Charge actions: ``dangerous_when_rushing``), hills (``elevated``: difficult
when going up, ``movement.crosses_difficult``; units on top ignore one unit or piece for line of sight). "Elevation":
a hill at least ``ELEVATION_HEIGHT`` tall counts its height toward the move (or charge) that climbs onto it
(``movement.elevation_climb``)."""

SIDE_MISSION_RULES = SideMissionRules(vp=1, melee_phases=frozenset({Phase.ACTIVATION.value}),
                                      spell_phases=frozenset())
"""AoF:R 2.16 "Side-Missions" under activations: "1 VP for each side-mission that they completed"; a melee is fought
within an activation and a unit routs only when it fails the morale test of a lost melee ("Morale"), so every rout
is "in melee" (Terrify); the core rules cast no spells (Sorcerer Supreme cannot be completed). docs/rulings.md
"AoF:R 2.16"."""

ELEVATION_HEIGHT = 3.0
"""AoF:R 2.16 "Elevation": "Any terrain piece that is at least 3\" taller than the surface of the table"."""

DECISIONS = frozenset({
    "choose_objective_order", "place_objective", "choose_deployment", "deploy",   # deployment (shared)
    "activate", "action", "shoot", "strike_back", "consolidate", "wavering",      # an activation
    "block_spell",                                                                # Wizard(X)
    "set_aside", "scout_move", "ambush",                                          # Scout and Ambush
    "select_side_mission",                                                        # side-missions (shared)
})
"""The ``pending`` decisions of an AoF:R 2.16 game (docs/formats.md "AoF:R 2.16 activations")."""

BACK_OFF = 1.0
"""AoF:R 2.16 "Consolidation Moves": the charging unit moves back by 1"."""

WAVERING_PIVOT = 90.0
"""AoF:R 2.16 "Wavering Units": an idle activation may pivot by up to 90°."""



@dataclass
class Activations:
    """The round of activations (``GameState.activation``): who activates, what has, what the current unit does."""

    first: int
    """The player who activated first this round."""
    activated: list[str] = field(default_factory=list)
    """Units activated this round, in order."""
    unit: str | None = None
    """The unit being activated, None between activations."""
    stage: str = "activate"
    """``activate``, ``action``, ``shoot``, ``strike_back``, ``consolidate`` or ``wavering``."""
    finished_first: int | None = None
    """The player who ran out of units to activate first this round (goes first next round)."""
    fatigued: list[str] = field(default_factory=list)
    """Units that attacked in melee this round ("Fatigue": later melees hit only on 6s)."""
    strength: dict[str, int] = field(default_factory=dict)
    """Each unit's remaining strength when the activation began (morale tests from wounds)."""
    melee: list[str] = field(default_factory=list)
    """[charger, target] of the melee of this activation."""
    caused: dict[str, int] = field(default_factory=dict)
    """Wounds caused by each unit of that melee."""
    ambush_passed: list[int] = field(default_factory=list)
    """Players who placed all the Ambush units they wanted this round ("Ambush"; stage ``ambush``)."""
    ambush_next: int | None = None
    """The player who places the next Ambush unit this round."""
    close: list[list[str]] = field(default_factory=list)
    """Enemy pairs a melee left within 1" of each other out of melee ("Moving back 1"", docs/rulings.md), kept from
    round to round while they stay that close."""
    spell_used: list[str] = field(default_factory=list)
    """Wizards that tried to cast or block a spell this round ("Wizard(X)": one or the other, once a round)."""
    cast: activation_magic.ActivationCast | None = None
    """The cast waiting for the other player's ``block_spell`` answer (stage ``block_spell``), or None."""
    breath_used: list[str] = field(default_factory=list)
    """Units whose models used their Breath Attack this round ("Breath Attack": once per round)."""
    breathing: str | None = None
    """The unit of the melee being fought that chose to use its Breath Attack in it (``_strike`` deals it)."""
