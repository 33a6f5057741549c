"""The effects of spells on a unit's stats, as the rules modules read them (rulebook "Rules Priority & Stacking
Effects"; casting and expiry are in ``game.engine.magic``).

Kept apart from ``magic`` so the modules that only read an effect (movement, morale, shooting, melee) do not import
the casting machinery, which itself applies wounds (``casualties``): imports point downwards only (issue 14).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.attacks import Modifier, total
from game.engine.state import Unit


@dataclass
class ActiveEffect:
    """A spell's ``modifier`` on a unit (kept in ``Unit.effects``) until the end of its duration."""

    spell: str
    """The spell's name (the source)."""
    caster: str
    """Id of the caster."""
    stat: str
    """One of ``game.engine.magic.STATS``."""
    value: int
    """The modifier."""
    duration: str
    """One of ``game.engine.magic.DURATIONS``."""
    expires_after: tuple[int, int, int]
    """The last (round, turn 0/1 within the round, phase order) at which the effect still applies."""

    def to_dict(self) -> dict[str, object]:
        """The state-file form."""
        return {"spell": self.spell, "caster": self.caster, "stat": self.stat, "value": self.value,
                "duration": self.duration, "until_round": self.expires_after[0]}


def effect_modifiers(unit: Unit, stat: str) -> list[Modifier]:
    """The active spell modifiers of ``unit`` to ``stat`` (one of ``STATS``), one ``Modifier`` per spell.

    Rulebook "Rules Priority & Stacking Effects": the same spell does not stack with itself (a second cast
    replaces the first, see ``add_effect``); different spells add up.
    """
    return [Modifier(f"{e.spell} (spell)", e.value) for e in unit.effects
            if isinstance(e, ActiveEffect) and e.stat == stat]


def effect_value(unit: Unit, stat: str) -> int:
    """The sum of ``unit``'s active spell modifiers to ``stat`` (inches for ``move``, attacks for ``attacks``)."""
    return total(effect_modifiers(unit, stat))


def move_bonus(unit: Unit, advance: bool) -> float:
    """Inches added to a move by spells (stat ``move``): the value for an Advance, twice it for a Rush or Charge
    (as Fast and Slow do; rulebook "Random Charge Distances": spell effects change the advance range)."""
    v = effect_value(unit, "move")
    return float(v if advance else 2 * v)


def melee_attacks(unit: Unit, attacks: int) -> int:
    """Attacks per model of a melee weapon with ``attacks`` after spells (stat ``attacks``), never below 0."""
    return max(0, attacks + effect_value(unit, "attacks"))
