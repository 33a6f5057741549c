"""Random Charge Distances (AoWFBR 1.4 "Optional Rules", p.18; scenario ``options.random_charge_distance``).

"These rules randomise the distance of charge moves and add the possibility of failed charges." The steps as
written, and where each is played:

1. **Measure**: a target is within charge range when the shortest movement path to it, with the one pivot of up
   to 90 degrees a charge allows, is at most the unit's Advance distance + 6" (``charge_range``: Fast, Slow, the
   musician and spells modify the Advance distance), or 6" when the path crosses or starts in difficult terrain
   (``game.engine.charge.plan_charge`` with this allowance).
2. **Declare** the charge (``declare_charge``).
3. **Charge reaction**, declared and carried out at once (``Game._declare_charge``): one Stand and Shoot or Flee
   per charged unit.
4. Further declarations; ``done`` closes them.
5. **Roll**: the charging player picks a declared charge (decision ``roll_charge`` when there is a choice) and
   rolls 2D6, keeps the highest and adds the Advance distance (``roll_charge_distance``); a charge whose target
   fled is measured again, may be redirected (steps 1-3 for the new target), and rolls.
6. **a** the roll reaches the distance measured (``measured_distance``): the ordinary charge move into contact;
   **b** it does not: the unit moves the highest die in inches toward its target, stopping 1" short of other
   units, and does nothing else this turn (``game.engine.charge.failed_charge``).
7. Repeat until every declared charge has moved.

Interpretations are in docs/rulings.md, "Random Charge Distances".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.movement import move_allowance
from game.engine.state import GameState, MoveAction, Unit

OPTION = "random_charge_distance"
"""The scenario option (``options``) that turns the rule on."""
CHARGE_BONUS = 6.0
"""Inches added to the Advance distance for the charge range ("advance range plus 6")."""


def active(state: GameState) -> bool:
    """Whether the game plays Random Charge Distances."""
    return bool(state.options.get(OPTION, False))


def charge_range(unit: Unit) -> float:
    """The charge range in inches: the unit's Advance distance (with every modifier of it) + 6."""
    return move_allowance(unit, MoveAction.ADVANCE) + CHARGE_BONUS


def measured_distance(distance: float, travel: float) -> float:
    """The distance a charge must roll, inches: the longer of the distance to the contacted side and the travel of
    the unit along its charge path up to contact (the "shortest possible movement path")."""
    return max(distance, travel)


def charge_allowance(state: GameState, unit: Unit) -> float:
    """How far ``unit`` may charge in inches: its charge range with Random Charge Distances, else its charge
    distance (12", with Fast, Slow, the musician and spells)."""
    return charge_range(unit) if active(state) else move_allowance(unit, MoveAction.CHARGE)


def chance(advance: float, distance: float) -> float:
    """The probability that the highest of 2D6 + ``advance`` reaches ``distance`` (inches), 0 to 1."""
    need = distance - advance           # the highest die must be at least this
    if need <= 1:
        return 1.0
    if need > 6:
        return 0.0
    below = int(-(-need // 1)) - 1      # dice faces under the need: highest < ceil(need)
    return 1.0 - (below / 6) ** 2


@dataclass(frozen=True, slots=True)
class ChargeRoll:
    """One roll for a charge's distance."""

    dice: tuple[int, int]
    """The two D6."""
    highest: int
    """The highest of them: the distance a failed charge moves, inches."""
    total: float
    """Highest + the Advance distance: the charge distance, inches."""


def roll_charge_distance(dice: Dice, unit: Unit, distance: float) -> tuple[ChargeRoll, list[Event]]:
    """Roll 2D6 for ``unit``'s charge, keep the highest and add its Advance distance; the events say whether it
    reaches ``distance`` (inches, the measured path)."""
    advance = move_allowance(unit, MoveAction.ADVANCE)
    a, b = dice.d6(2, f"Charge distance of {unit.name} (2D6, highest + Advance)")
    highest = max(a, b)
    result = ChargeRoll((a, b), highest, highest + advance)
    made = result.total + 1e-6 >= distance
    details = [f"highest {highest} + Advance {advance:g}\" = {result.total:g}\"",
               "the target is out of charge range: the charge fails" if math.isinf(distance) else
               f"needed {distance:.1f}\": {'made' if made else 'failed'}"]
    events = [roll_event(f"Charge distance of {unit.name}", [a, b], total=result.total, details=details,
                         unit=unit.id, made=made, needed=None if math.isinf(distance) else round(distance, 3))]
    return result, events
