"""Roll to Hit and Roll to Block, shared by shooting and melee (rulebook "The Shooting Sequence",
"The Melee Sequence", "Quality Tests", "Modifiers").

A natural 6 always succeeds and a natural 1 always fails, whatever the modifiers (rulebook "Modifiers").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.dice import Dice
from game.engine.events import Event, roll_event


@dataclass(frozen=True, slots=True)
class Modifier:
    """A named modifier to a roll, e.g. ``Modifier("Stand and Shoot", -1)``."""

    reason: str
    """Rule that applies it, in the rulebook's words."""
    value: int
    """Added to the roll."""

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason}"


def total(mods: list[Modifier] | tuple[Modifier, ...]) -> int:
    """Sum of the modifiers' values."""
    return sum(m.value for m in mods)


def succeeds(natural: int, need: int, modifier: int) -> bool:
    """A D6 test: natural 6 passes, natural 1 fails, otherwise ``natural + modifier >= need``."""
    if natural == 6:
        return True
    if natural == 1:
        return False
    return natural + modifier >= need


@dataclass
class HitRoll:
    """The outcome of one batch of Quality tests to hit."""

    dice: list[int]
    """Natural results."""
    hits: int
    """Successful tests."""
    sixes: int
    """Natural 6s among the successes."""
    events: list[Event] = field(default_factory=list)
    """The roll event."""


def roll_to_hit(
    dice: Dice,
    attacks: int,
    quality: int,
    modifiers: list[Modifier],
    purpose: str,
    *,
    only_sixes: str | None = None,
    need_text: str | None = None,
) -> HitRoll:
    """Take ``attacks`` Quality tests (rulebook "Roll to Hit"). Raises nothing; 0 attacks rolls nothing.

    ``only_sixes``: the reason hits need an unmodified 6 (rulebook "Fatigue", rear strikes in "Who Can Strike").
    ``need_text``: what the roll needs in words (default ``Quality N+``); the event's ``details`` list it first,
    then every modifier ("+1 Sergeant").
    """
    results = dice.d6(attacks, purpose)
    mod = total(modifiers)
    if only_sixes:
        hits = sum(1 for d in results if d == 6)
    else:
        hits = sum(1 for d in results if succeeds(d, quality, mod))
    sixes = sum(1 for d in results if d == 6)
    details = ([need_text or f"Quality {quality}+"] + [str(m) for m in modifiers]
               + ([f"hits only on 6: {only_sixes}"] if only_sixes else []))
    need = 6 if only_sixes else quality
    ev = roll_event(purpose, results, need, 0 if only_sixes else mod, hits, details)
    return HitRoll(results, hits, sixes, [ev])


@dataclass
class BlockRoll:
    """The outcome of the Defense rolls against a batch of hits."""

    dice: list[int]
    """Natural results."""
    wounds: int
    """Failed rolls: one wound each."""
    events: list[Event] = field(default_factory=list)
    """The roll event."""


def roll_to_block(dice: Dice, hits: int, defense: int, modifiers: list[Modifier], purpose: str, *,
                  need_text: str | None = None) -> BlockRoll:
    """Roll one Defense die per hit (rulebook "Roll to Block"); AP and cover come in as ``modifiers``.

    ``need_text``: what the roll needs in words (default ``Defense N+``), listed first in the event's details."""
    results = dice.d6(hits, purpose)
    mod = total(modifiers)
    blocked = sum(1 for d in results if succeeds(d, defense, mod))
    wounds = len(results) - blocked
    details = [need_text or f"Defense {defense}+"] + [str(m) for m in modifiers]
    ev = roll_event(purpose, results, defense, mod, wounds, details, wounds=wounds)
    return BlockRoll(results, wounds, [ev])
