"""Remove Casualties (rulebook "Remove Casualties", "Tough(X)").

Each wound removes one model from the back row; models with Tough(X) take X wounds before they are removed,
and wounds go on the most-wounded Tough model until it dies. The front edge of the unit stays in place.
"""

from __future__ import annotations

from game.engine.events import Event
from game.engine.state import GameState, Removal, Unit


def apply_wounds(state: GameState, unit: Unit, wounds: int, source: str) -> list[Event]:
    """Put ``wounds`` wounds on ``unit``; returns the casualty events. A unit with no models left is destroyed.

    ``source`` says what caused them ("shooting by Archers (archers-1)"). Wounds beyond the last model are lost.
    """
    if wounds <= 0 or unit.removed is not None:
        return []
    unit.lost_models_this_turn = True
    tough = unit.tough
    killed = 0
    remaining = wounds
    models = unit.models
    carried = unit.wounds
    while remaining > 0 and models > 0:
        need = tough - carried
        if remaining >= need:
            remaining -= need
            models -= 1
            killed += 1
            carried = 0
        else:
            carried += remaining
            remaining = 0
    unit.wounds = carried if tough > 1 else 0
    events: list[Event] = []
    text = f"{unit.name} takes {wounds} wound{'s' if wounds != 1 else ''} from {source}"
    if killed:
        text += f": {killed} model{'s' if killed != 1 else ''} removed"
    if unit.wounds:
        text += f" ({unit.wounds}/{tough} wounds on a model)"
    events.append(Event("wounds", text, {"unit": unit.id, "wounds": wounds, "killed": killed,
                                         "carried": unit.wounds}))
    if killed:
        state.set_models(unit, models)
    if models == 0:
        state.remove(unit, Removal.DESTROYED)
        events.append(Event("destroyed", f"{unit.name} is destroyed", {"unit": unit.id}))
    return events


def remaining_strength(unit: Unit) -> int:
    """Models left, or for a unit that started as one model its remaining Tough value (rulebook "Morale")."""
    if unit.starting_models == 1:
        return max(0, unit.tough - unit.wounds) if unit.models > 0 else 0
    return unit.models


def starting_strength(unit: Unit) -> int:
    """Starting size, or the Tough value for a unit that started as one model."""
    return unit.tough if unit.starting_models == 1 else unit.starting_models


def at_half_strength(unit: Unit) -> bool:
    """True when the unit is at half or less of its starting size (or Tough value for single models)."""
    return remaining_strength(unit) * 2 <= starting_strength(unit)
