"""Remove Casualties (rulebook "Remove Casualties", "Tough(X)").

Each wound removes one model from the back row; models with Tough(X) take X wounds before they are removed,
and wounds go on the most-wounded Tough model until it dies; a joined hero takes wounds last (rulebook "Hero").
The front edge of the unit stays in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.morale import make_shaken
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, Removal, Unit
from game.engine.transport_placement import candidate_poses, placement_problem
from geometry.formation import hero_index


def apply_wounds(state: GameState, unit: Unit, wounds: int, source: str, dice: Dice | None = None, *,
                 hero_only: bool = False) -> list[Event]:
    """Put ``wounds`` wounds on ``unit``; returns the casualty events. A unit with no models left is destroyed.

    ``source`` says what caused them ("shooting by Archers (archers-1)"). Wounds beyond the last model are lost.
    A joined hero takes wounds last, once every other model is dead (rulebook "Hero", "Tough(X)": heroes must be
    assigned wounds last); ``hero_only`` puts them on the hero alone (a Sniper's unit of one). With ``dice``, a
    destroyed Transport first puts down the units inside (rulebook "Transport(X)"; ``unload_destroyed``).
    """
    if wounds <= 0 or unit.removed is not None:
        return []
    if hero_only and not unit.hero_alive:
        return []
    unit.lost_models_this_turn = True
    tough = unit.tough
    killed = 0
    remaining = wounds
    regulars = 0 if hero_only else unit.regulars
    carried = unit.wounds
    while remaining > 0 and regulars > 0:
        need = tough - carried
        if remaining >= need:
            remaining -= need
            regulars -= 1
            killed += 1
            carried = 0
        else:
            carried += remaining
            remaining = 0
    if not hero_only:
        unit.wounds = carried if tough > 1 and regulars > 0 else 0
    hero_hit = 0
    hero_killed = False
    hero = unit.hero
    if remaining > 0 and unit.hero_alive and hero is not None:
        hero_hit = min(remaining, hero.tough - hero.wounds)
        hero.wounds += hero_hit
        remaining -= hero_hit
        hero_killed = hero.wounds >= hero.tough
    events: list[Event] = []
    text = f"{unit.name} takes {wounds} wound{'s' if wounds != 1 else ''} from {source}"
    if killed:
        text += f": {killed} model{'s' if killed != 1 else ''} removed"
    if unit.wounds:
        text += f" ({unit.wounds}/{tough} wounds on a model)"
    if hero is not None and hero_hit:
        text += (f"; its hero {hero.name} is killed" if hero_killed
                 else f"; its hero {hero.name} has {hero.wounds}/{hero.tough} wounds")
    data = {"unit": unit.id, "wounds": wounds, "killed": killed + (1 if hero_killed else 0), "carried": unit.wounds}
    if hero is not None:
        data.update({"hero": hero.id, "hero_wounds": hero.wounds, "hero_killed": hero_killed})
    events.append(Event("wounds", text, data))
    if killed:
        state.set_models(unit, unit.models - killed)
    if hero_killed:
        state.kill_hero(unit)
        events.append(Event("hero_killed", f"{hero.name} is killed" if hero is not None else "the hero is killed",
                            {"unit": unit.id, "hero": hero.id if hero is not None else None}))
    if unit.models <= 0:
        if dice is not None and state.passengers(unit.id):
            events += unload_destroyed(state, dice, unit)
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


def strength_after(unit: Unit, wounds: int, hero_only: bool = False) -> tuple[int, int]:
    """What ``wounds`` more wounds would leave of ``unit``, without changing it: (models removed, remaining strength
    as ``remaining_strength`` counts it, 0 when destroyed). Wounds fill the models in ``apply_wounds``' order, the
    most wounded first and a joined hero last (``special_rules.wound_capacities``). ``hero_only``: a Sniper's unit
    of one (its hero alone)."""
    removed = 0
    left = max(0, wounds)
    for cap in wound_capacities(unit, hero_only):
        if cap <= 0 or left < cap:
            break
        left -= cap
        removed += 1
    models = unit.models - removed
    if models <= 0:
        return removed, 0
    if unit.starting_models == 1:
        return removed, max(0, unit.tough - unit.wounds - max(0, wounds))
    return removed, models


def dangerous_test_purpose(unit_name: str) -> str:
    """The purpose a dangerous terrain test of the unit named ``unit_name`` is rolled under (``Dice.rolls``; the
    computer opponent's ``game.ai.danger`` knows the test by it)."""
    return f"Dangerous terrain test of {unit_name}"


def dangerous_terrain_test(state: GameState, dice: Dice, unit: Unit, models: Sequence[int],
                           reason: str = "in dangerous terrain") -> list[Event]:
    """Rulebook "Dangerous Terrain": each of ``models`` (indices in ``model_centres`` order) rolls one die, or as
    many as its Tough value (a joined hero its own); each 1 is one wound on the unit."""
    hero = hero_index(unit.formation)
    count = sum(unit.hero.tough if (m == hero and unit.hero is not None) else unit.tough for m in models)
    purpose = dangerous_test_purpose(unit.name)
    results = dice.d6(count, purpose)
    wounds = sum(1 for d in results if d == 1)
    n = len(models)
    who = f"{n} model{'s' if n != 1 else ''} {reason}"
    if count != n:      # Tough models roll as many dice as their Tough value: say so, or 9 dice for 3 models puzzle
        tough = sorted({unit.hero.tough if (m == hero and unit.hero is not None) else unit.tough for m in models})
        who += f" × Tough({'/'.join(str(t) for t in tough)}) = {count} dice"
    events = [roll_event(purpose, results, None, 0, wounds, [who, "each 1 is a wound"], unit=unit.id)]
    events += apply_wounds(state, unit, wounds, "dangerous terrain", dice)
    return events


def unload_destroyed(state: GameState, dice: Dice, transport: Unit) -> list[Event]:
    """Rulebook "Transport(X)": when a Transport is destroyed, the units inside are placed fully within 6" of it
    before it is removed, take a dangerous terrain test and are Shaken (see the module docstring)."""
    events: list[Event] = []
    for unit in state.passengers(transport.id):
        pose = next((p for p in candidate_poses(state, unit, transport)
                     if placement_problem(state, unit, p, transport) is None), None)
        if pose is None:
            unit.embarked_in = None
            state.remove(unit, Removal.DESTROYED)
            events.append(Event("destroyed", f"{unit.name} finds no room to get out of the wreck of "
                                             f"{transport.name} and is destroyed", {"unit": unit.id}))
            continue
        unit.embarked_in = None
        unit.pose = None
        state.place(unit, pose)
        events.append(Event("disembark", f"{unit.name} scrambles out of the wreck of {transport.name}",
                            {"unit": unit.id, "transport": transport.id, "destroyed": True,
                             "to": {"x": pose.x, "y": pose.y, "facing": pose.facing}}))
        events += dangerous_terrain_test(state, dice, unit, list(range(unit.models)),
                                         f"getting out of the wrecked {transport.name}")
        if unit.removed is None:
            events.append(make_shaken(unit))
    return events
