"""Transport(X) (rulebook "Special Rules Reference": Transport(X)): getting in, getting out, and what happens to
the units inside when the Transport is destroyed.

A faithful minimal version, documented in docs/rulings.md ("Special rules and heroes") and docs/formats.md
(actions ``embark`` and ``disembark``, scenario key ``embarked_in``):

* **Spaces**: a Transport(X) holds X spaces. A model takes 1 space; a Hero with up to Tough(6) takes 1; a model
  that is not a Hero and has Tough(2) to Tough(5) takes 3; a non-Hero with Tough(6) or more, or a Hero with more
  than Tough(6), cannot be transported (``transport_spaces``). A Transport cannot carry another Transport.
* **Embark** (``embark {unit, transport, action}`` in step 2.4, action ``advance`` or ``rush``): the unit must be
  able to take that move action and the Transport (a friendly unit on the table) must be within its move
  allowance, measured between the closest points of the two footprints (only one model needs to reach it, and the
  1" rule is ignored); the path is not checked. The unit leaves the table (``Unit.embarked_in``) and counts as
  having taken that action.
* **Disembark** (``disembark {unit, pose, action}`` in step 2.4): the unit is placed at ``pose``, fully within 6"
  of its Transport (every corner of its footprint), on the table, not overlapping units or impassable terrain and
  at least 1" from every other unit; it counts as having taken that action (an Advance lets its front row shoot).
  It cannot Rush out with an enemy within 6" of the Transport. A unit may not embark and disembark in the same
  turn. A unit inside may also use a Charge action to get out (``game.engine.charge_out``).
* **Inside**: the unit is not on the table: it cannot be seen, shot at or charged, and cannot shoot out (no line
  of sight to the outside: ``shooting.shooting_restriction``). It keeps its last pose as a marker.
* **Destroyed Transport** (``casualties.unload_destroyed``, called by ``casualties.apply_wounds`` before the
  Transport is removed): each unit inside is put down by the engine fully within 6" of the Transport, as close as
  it fits (behind it, beside it, in front of it), facing as the Transport, then takes a dangerous terrain test (one
  die per model, Tough(X) models X dice; each 1 a wound) and is Shaken. A unit that fits nowhere is destroyed. A
  Transport that is routed or flees the table takes the units inside with it (``GameState.remove``).
"""

from __future__ import annotations

from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.movement import can_move, move_allowance
from game.engine.profiles import Profile
from game.engine.special_rules import immobile
from game.engine.state import GameState, MoveAction, Unit
from game.engine.transport_placement import placement_problem
from geometry.pose import Pose

HERO_MAX_TOUGH = 6
"""Rulebook "Transport(X)": Heroes with up to Tough(6) take one space."""
BIG_MODEL_SPACES = 3
"""Rulebook "Transport(X)": non-Heroes with up to Tough(3) occupy 3 spaces each."""
NON_HERO_MAX_TOUGH = 5
"""Non-Heroes with Tough(6) or more cannot be transported (the rulebook's example)."""


def model_spaces(profile: Profile) -> int | None:
    """Spaces one model of ``profile`` takes in a Transport, None if it cannot be transported."""
    tough = profile.tough
    if profile.is_hero:
        return 1 if tough <= HERO_MAX_TOUGH else None
    if tough <= 1:
        return 1
    return BIG_MODEL_SPACES if tough <= NON_HERO_MAX_TOUGH else None


def transport_spaces(unit: Unit) -> int | None:
    """Spaces ``unit`` (its models left and a living joined hero) takes, None if it cannot be transported."""
    if unit.profile.has("Transport"):
        return None
    own = model_spaces(unit.profile)
    if own is None and unit.regulars > 0:
        return None
    total = (own or 0) * unit.regulars
    if unit.hero_alive and unit.hero is not None:
        hero = model_spaces(unit.hero.profile)
        if hero is None:
            return None
        total += hero
    return total


def capacity(transport: Unit) -> int:
    """X of the Transport's Transport(X), 0 for other units."""
    return transport.profile.value("Transport")


def free_spaces(state: GameState, transport: Unit) -> int:
    """Spaces left in ``transport``."""
    used = sum(transport_spaces(u) or 0 for u in state.passengers(transport.id))
    return capacity(transport) - used


def _move_action(name: str) -> MoveAction:
    if name == "advance":
        return MoveAction.ADVANCE
    if name == "rush":
        return MoveAction.RUSH
    raise IllegalAction("Transport", f"a unit gets in or out of a Transport with an advance or a rush, not {name!r}")


def check_embark(state: GameState, unit: Unit, transport_id: str, action: str) -> Unit:
    """The Transport ``unit`` may embark into with ``action`` now; raises ``IllegalAction`` naming the rule."""
    move = _move_action(action)
    why = can_move(state, unit)
    if why:
        raise IllegalAction("Movement", why)
    if unit.embarked_this_turn:
        raise IllegalAction("Transport", f"{unit.name} got out of a Transport this turn and cannot get in again")
    if immobile(unit):
        raise IllegalAction("Immobile", f"{unit.name} may only take Hold actions")
    transport = state.units.get(transport_id)
    if transport is None or transport.player != unit.player or not transport.on_table or transport is unit:
        raise IllegalAction("Transport", f"{transport_id!r} is not a friendly unit on the table")
    if not capacity(transport):
        raise IllegalAction("Transport", f"{transport.name} has no Transport rule")
    spaces = transport_spaces(unit)
    if spaces is None:
        raise IllegalAction("Transport", f"{unit.name} cannot be transported (too tough, or a Transport itself)")
    free = free_spaces(state, transport)
    if spaces > free:
        raise IllegalAction("Transport", f"{unit.name} needs {spaces} spaces; {transport.name} has {free} left")
    if move is MoveAction.RUSH:
        close = state.scene.units_within(unit.id, 6.0, players=[3 - unit.player])
        if close:
            raise IllegalAction("Rushing", f"may not Rush with an enemy unit within 6\" ({state.units[close[0]].name})")
    allowance = move_allowance(unit, move)
    distance = state.scene.distance(unit.id, transport.id)
    if distance > allowance + 1e-6:
        raise IllegalAction("Transport", f"{transport.name} is {distance:.1f}\" away; {unit.name} moves at most "
                                         f"{allowance:g}\" with this action")
    return transport


def embark(state: GameState, unit: Unit, transport_id: str, action: str) -> list[Event]:
    """``unit`` gets into the Transport ``transport_id`` (see the module docstring). Raises ``IllegalAction``."""
    transport = check_embark(state, unit, transport_id, action)
    unit.embarked_in = transport.id
    if state.scene.has_unit(unit.id):
        state.scene.remove_unit(unit.id)
    unit.move_action = _move_action(action)
    unit.embarked_this_turn = True
    unit.moved_since_activation = True
    return [Event("embark", f"{unit.name} gets into {transport.name}",
                  {"unit": unit.id, "transport": transport.id, "action": action})]


def check_disembark(state: GameState, unit: Unit, pose: Pose, action: str) -> Unit:
    """The Transport ``unit`` may get out of at ``pose`` with ``action``; raises ``IllegalAction``."""
    move = _move_action(action)
    if unit.embarked_in is None:
        raise IllegalAction("Transport", f"{unit.name} is not inside a Transport")
    transport = state.units.get(unit.embarked_in)
    if transport is None or not transport.on_table:
        raise IllegalAction("Transport", f"{unit.name}'s Transport is not on the table")
    if unit.shaken:
        raise IllegalAction("Shaken Units", "Shaken units must stay idle")
    if unit.move_action is not None:
        raise IllegalAction("Movement", "the unit has already taken its action this turn")
    if unit.embarked_this_turn:
        raise IllegalAction("Transport", f"{unit.name} got into a Transport this turn and cannot get out again")
    if immobile(unit):
        raise IllegalAction("Immobile", f"{unit.name} may only take Hold actions")
    if move is MoveAction.RUSH:
        close = state.scene.units_within(transport.id, 6.0, players=[3 - unit.player])
        if close:
            raise IllegalAction("Rushing", f"may not Rush out with an enemy unit within 6\" of {transport.name}")
    problem = placement_problem(state, unit, pose, transport)
    if problem:
        raise IllegalAction("Transport", problem, pose.xy)
    return transport


def disembark(state: GameState, unit: Unit, pose: Pose, action: str) -> list[Event]:
    """``unit`` gets out of its Transport at ``pose`` (see the module docstring). Raises ``IllegalAction``."""
    transport = check_disembark(state, unit, pose, action)
    unit.embarked_in = None
    unit.pose = None  # a placement, not a move from the stale marker pose
    state.place(unit, pose)
    unit.move_action = _move_action(action)
    unit.embarked_this_turn = True
    unit.moved_since_activation = True
    return [Event("disembark", f"{unit.name} gets out of {transport.name}",
                  {"unit": unit.id, "transport": transport.id, "action": action,
                   "to": {"x": pose.x, "y": pose.y, "facing": pose.facing}})]
