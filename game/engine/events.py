"""Events: what an action caused, in words for the log and as data for the window and tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``kind`` is a short tag the window can react to: ``phase``, ``move``, ``charge``, ``reaction``, ``roll``,
    ``shoot``, ``hits``, ``wounds``, ``casualties``, ``morale``, ``shaken``, ``flee``, ``rout``, ``destroyed``,
    ``rally``, ``resolution``, ``pursuit``, ``retreat``, ``follow_up``, ``consolidate``, ``victory``, ``info``; magic:
    ``tokens``, ``spell``, ``effect``, ``heal``; special rules: ``hero_killed`` (a joined hero dies), ``embark``,
    ``disembark`` (Transport(X)); Random Scatter for Artillery: ``artillery`` (one shot at a target point: where
    it landed), ``misfire``.
    """

    kind: str
    """Short tag (see class docstring)."""
    text: str
    """The event in words, for the log."""
    data: dict[str, Any] = field(default_factory=dict)
    """Details: unit ids, dice, needed score, modifiers, poses..."""


def roll_event(purpose: str, dice: list[int], need: int | None = None, modifier: int = 0,
               successes: int | None = None, details: list[str] | None = None, **data: Any) -> Event:
    """An event for a roll: ``purpose`` in words, the dice, the score needed and the total modifier."""
    text = f"{purpose}: {' '.join(str(d) for d in dice) if dice else 'no dice'}"
    if need is not None:
        text += f" (need {need}+{'' if not modifier else f', {modifier:+d}'})"
    if successes is not None:
        text += f" -> {successes}"
    return Event("roll", text, {"purpose": purpose, "dice": list(dice), "need": need, "modifier": modifier,
                                "successes": successes, "details": details or [], **data})
