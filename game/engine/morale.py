"""Morale tests and the Shaken status (rulebook "Morale", "Taking Morale Tests", "Shaken Units",
"Command Groups: Banner", "Fearless").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.attacks import Modifier, succeeds, total
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.special_rules import FEARLESS_NEED, banner_modifier, fearless_roll, morale_quality
from game.engine.spell_effects import effect_modifiers
from game.engine.state import Unit


@dataclass
class MoraleResult:
    """The outcome of one morale test."""

    passed: bool
    """True if the test was passed (after Fearless)."""
    events: list[Event] = field(default_factory=list)
    """Roll and outcome events."""


@dataclass(frozen=True)
class MoraleTerms:
    """What a morale test of a unit needs, before any die is rolled (``morale_terms``)."""

    quality: int
    """The Quality the test needs (the unit's, or its joined hero's)."""
    who: str
    """Empty, or who takes the test ("taken by ...")."""
    modifiers: tuple[Modifier, ...]
    """Every modifier: those given, then the Banner's, then spells'."""
    fearless: bool
    """A failure is saved on 4+ (rulebook "Fearless")."""
    automatic_fail: bool
    """The unit is Shaken: it fails without rolling."""


def morale_terms(unit: Unit, modifiers: list[Modifier]) -> MoraleTerms:
    """The terms of a morale test of ``unit`` with ``modifiers`` (rulebook "Taking Morale Tests", "Command Groups:
    Banner", "Shaken Units", "Fearless", "Hero"); pure: used by ``morale_test`` and by the odds advisor."""
    mods = list(modifiers)
    banner = banner_modifier(unit)
    if banner is not None:
        mods.append(banner)
    mods += effect_modifiers(unit, "morale")  # spells (game.engine.magic)
    quality, who = morale_quality(unit)
    return MoraleTerms(quality, who, tuple(mods), unit.most_have("Fearless"), unit.shaken)


def morale_fail_estimate(terms: MoraleTerms, modifier: int = 0) -> float:
    """Chance (0..1) a morale test with ``terms`` and a further ``modifier`` fails, before any die: the Quality
    test with its modifiers (a natural 6 passes, a 1 fails: ``attacks.succeeds``), a Fearless re-roll on 4+, a
    Shaken unit's automatic failure (rulebook "Taking Morale Tests", "Fearless", "Shaken Units")."""
    if terms.automatic_fail:
        return 1.0
    mod = total(list(terms.modifiers)) + modifier
    passes = sum(1 for roll in range(1, 7) if succeeds(roll, terms.quality, mod)) / 6.0
    fail = 1.0 - passes
    if terms.fearless:
        fail *= (FEARLESS_NEED - 1) / 6.0
    return fail


def morale_test(dice: Dice, unit: Unit, modifiers: list[Modifier], reason: str, *,
                fearless_all: bool = False) -> MoraleResult:
    """Take a morale test for ``unit``: one Quality test with ``modifiers`` (rulebook "Taking Morale Tests").

    A Banner adds +1 (rulebook "Command Groups"). A Shaken unit always fails without rolling (rulebook "Shaken
    Units"). A unit with Fearless that fails rolls one die and passes on 4+ (rulebook "Fearless"); this does
    not save a Shaken unit's automatic failure (docs/rulings.md). A joined hero may take the test with its own
    Quality (rulebook "Hero"; ``special_rules.morale_quality``). ``fearless_all``: Fearless needs every model of
    the unit (the AoF:R quick rules), not most.
    """
    terms = morale_terms(unit, modifiers)
    mods = list(terms.modifiers)
    if terms.automatic_fail:
        ev = Event("morale", f"{unit.name} is Shaken and automatically fails its morale test ({reason})",
                   {"unit": unit.id, "passed": False, "automatic": True, "reason": reason})
        return MoraleResult(False, [ev])
    quality, who = terms.quality, terms.who
    roll = dice.one(f"Morale test of {unit.name} ({reason})")
    passed = succeeds(roll, quality, total(mods))
    need = f"Quality {quality}+" + (f" ({who})" if who else "")
    events = [roll_event(f"Morale test of {unit.name} ({reason})", [roll], quality, total(mods),
                         1 if passed else 0, [need] + [str(m) for m in mods], unit=unit.id)]
    if not passed:
        passed, fearless = fearless_roll(dice, unit, fearless_all)
        events += fearless
    verdict = "passes" if passed else "fails"
    events.append(Event("morale", f"{unit.name} {verdict} its morale test ({reason})",
                        {"unit": unit.id, "passed": passed, "reason": reason}))
    return MoraleResult(passed, events)


def make_shaken(unit: Unit) -> Event:
    """Mark ``unit`` Shaken this turn (it cannot rally in the turn it became Shaken)."""
    unit.shaken = True
    unit.became_shaken_this_turn = True
    return Event("shaken", f"{unit.name} is Shaken", {"unit": unit.id})
