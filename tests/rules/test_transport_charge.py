"""Charging and shooting with Transports, through the turn sequence with fixed dice (rulebook "Special Rules
Reference": Transport(X): "Units may use Charge actions to disembark"; "Units inside/outside of Transports don't
have line of sight to the outside/inside, so they can't target each other for shooting, spells, etc."; "must stay
fully within 6" of it when exiting"). Rulings: docs/rulings.md "Charging out of a Transport".

Player 1's War Wagon (50 x 100 mm, facing 0) stands at (36, 20): its footprint spans x 35.02-36.98, y 18.03-21.97.
``foot`` (10 models, 5 wide) rides inside it. Player 2's units face 180.
"""

from __future__ import annotations

import pytest
from shapely.geometry import Point

from game.engine import random_charge, shooting
from game.engine.actions import ChargeReaction, DeclareCharge, Done, Redirect, Shoot
from game.engine.charge_out import charge_out_targets, plan_charge_out
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import GameState, MoveAction, Phase, Step, Table, Unit, make_unit
from geometry.arcs import Arc
from geometry.contact import in_base_contact
from geometry.pose import Pose
from geometry.terrain import TerrainShape
from tests.rules.builders import ARCHERS, HAND_WEAPON, ORCS, pose_with_front, profile

WAGON = profile("War Wagon", defense=3, weapons=(), rules=("Transport(11)", "Tough(6)"), size=1, base=(50, 100))
FOOT = profile("Foot", weapons=(HAND_WEAPON,))
WAGON_FRONT = 20.0 + 50 / 25.4  # y of the wagon's front edge


def enemy(uid: str, front: float, prof=ORCS, x: float = 36.0) -> Unit:  # type: ignore[no-untyped-def]
    """A player 2 unit of 10 facing 180 whose front edge is at y = ``front``."""
    return make_unit(uid, 2, prof, 10, pose_with_front(prof, 10, front, 180.0, x=x))


def state_with(*others: Unit, terrain: tuple[TerrainShape, ...] = (), shooter: bool = False) -> GameState:
    """The wagon with ``foot`` inside (``archers`` inside instead with ``shooter``), and ``others``."""
    wagon = make_unit("wagon", 1, WAGON, 1, Pose(36, 20, 0))
    rider = make_unit("foot", 1, ARCHERS if shooter else FOOT, 10, None)
    rider.embarked_in = "wagon"
    return GameState("transport", Table(), list(terrain), {u.id: u for u in (wagon, rider, *others)},
                     {1: None, 2: None})


def movement(state: GameState, dice: tuple[int, ...] = ()) -> Game:
    """A game at step 2.1 (declare charges) of player 1's movement phase."""
    state.phase = Phase.MOVEMENT
    return Game.start(state, Dice(sequence=list(dice)))


def corners_within(state: GameState, uid: str, of: str, distance: float) -> bool:
    fp = state.scene.footprint(of)
    return all(fp.distance(Point(c)) <= distance + 1e-6 for c in state.scene.footprint(uid).exterior.coords)


def test_a_unit_charges_out_of_its_transport():
    """Rulebook "Transport(X)": "Units may use Charge actions to disembark" and must stay fully within 6" of it when
    exiting. The charge is measured from the Transport; the unit ends flush against the target's side facing the
    Transport, locked in melee as a charger; the target cannot Stand and Shoot at a unit inside (no line of sight
    to the inside)."""
    game = movement(state_with(enemy("orcs", WAGON_FRONT + 3.0)))
    s = game.state
    assert game.charge_targets("foot") == ["orcs"] and "foot" in game.chargers(1)
    game.apply(DeclareCharge(1, "foot", "orcs"))
    foot = s.units["foot"]
    assert foot.embarked_in == "wagon" and foot.move_action is MoveAction.CHARGE  # still inside until the move
    game.apply(Done(1))
    assert game.pending.decision == "charge_reaction" and game.pending.options == ("hold", "flee")
    events = game.apply(ChargeReaction(2, "orcs", "hold"))
    charge = [e for e in events if e.kind == "charge"][-1]
    assert charge.data["disembark"] and charge.data["transport"] == "wagon"
    assert foot.on_table and foot.embarked_in is None and foot.embarked_this_turn
    assert foot.engaged_with == {"orcs"} and foot.contact_arcs["orcs"] is Arc.FRONT
    assert s.units["orcs"].contact_arcs["foot"] is Arc.FRONT and foot.fights_as_charger
    assert in_base_contact(s.scene, "foot", "orcs") and corners_within(s, "foot", "wagon", 6.0)
    assert foot.pose.facing == pytest.approx(0.0) and foot.pose.x == pytest.approx(36.0)
    assert s.step is Step.REMAINING_MOVES


def test_charge_out_refusals():
    """Rulebook "Transport(X)": the unit must end fully within 6" of the Transport; units can't both embark and
    disembark in the same turn; "Melee: Picking Targets": line of sight from the unit or a friend within 6" (units
    inside see nothing outside, so the Transport or a friend near it must see the target)."""
    far = state_with(enemy("orcs", WAGON_FRONT + 7.0))
    game = movement(far)
    assert game.charge_targets("foot") == []
    with pytest.raises(IllegalAction) as e:
        game.apply(DeclareCharge(1, "foot", "orcs"))
    assert "within 6\"" in e.value.message and far.units["foot"].move_action is None
    near = state_with(enemy("orcs", WAGON_FRONT + 3.0))
    near.units["foot"].embarked_this_turn = True
    assert charge_out_targets(near, near.units["foot"]) == []
    with pytest.raises(IllegalAction, match="got into its Transport this turn"):
        plan_charge_out(near, near.units["foot"], near.units["orcs"])
    wall = TerrainShape(0, "Wall", ((30.0, 22.5), (42.0, 22.5), (42.0, 22.7), (30.0, 22.7)), frozenset({"blocking"}))
    hidden = state_with(enemy("orcs", WAGON_FRONT + 3.0), terrain=(wall,))
    with pytest.raises(IllegalAction, match="cannot see out"):
        plan_charge_out(hidden, hidden.units["foot"], hidden.units["orcs"])
    rolled = state_with(enemy("orcs", WAGON_FRONT + 3.0))
    rolled.options[random_charge.OPTION] = True
    with pytest.raises(IllegalAction, match="Random Charge Distances"):
        plan_charge_out(rolled, rolled.units["foot"], rolled.units["orcs"])


def test_a_target_that_flees_out_of_reach_leaves_the_charger_inside():
    """Rulebook "Charge Reactions": Flee (the target flees from the charger, here from its Transport, and the
    charger must run down or redirect); "Transport(X)": a unit that cannot end fully within 6" of the Transport
    does not get out: the charge ends and it stays inside (docs/rulings.md)."""
    game = movement(state_with(enemy("orcs", WAGON_FRONT + 3.0)), dice=(6, 6))  # flight 12"
    s = game.state
    game.apply(DeclareCharge(1, "foot", "orcs"))
    game.apply(Done(1))
    game.apply(ChargeReaction(2, "orcs", "flee"))
    orcs = s.units["orcs"]
    assert orcs.pose.y > WAGON_FRONT + 12.0 and orcs.pose.facing == pytest.approx(0.0)  # straight away from it
    assert game.pending.decision == "redirect" and game.pending.unit == "foot"
    events = game.apply(Redirect(1, "foot", None))
    assert any(e.data.get("inside") for e in events)
    foot = s.units["foot"]
    assert foot.embarked_in == "wagon" and not foot.on_table and foot.move_action is MoveAction.CHARGE


def test_a_caught_fleeing_target_is_run_down_out_of_the_transport():
    """Rulebook "Flee": the charger runs the fleeing unit down with its charge; from a Transport it gets out in
    contact with it (fully within 6") and the fleeing unit is routed."""
    game = movement(state_with(enemy("orcs", WAGON_FRONT + 1.5)), dice=(1, 1))  # flight 2"
    s = game.state
    game.apply(DeclareCharge(1, "foot", "orcs"))
    game.apply(Done(1))
    game.apply(ChargeReaction(2, "orcs", "flee"))
    events = game.apply(Redirect(1, "foot", None))
    ran = [e for e in events if e.data.get("ran_down")]
    assert ran and ran[0].data.get("disembark")
    assert s.units["orcs"].removed is not None and s.units["foot"].on_table
    assert corners_within(s, "foot", "wagon", 6.0)


def test_units_inside_cannot_shoot_out_and_cannot_be_shot_from_outside():
    """Rulebook "Transport(X)": "Units inside/outside of Transports don't have line of sight to the outside/inside,
    so they can't target each other for shooting" (units inside may target only units inside and the Transport
    itself, never an enemy)."""
    s = state_with(enemy("archers", WAGON_FRONT + 10.0, ARCHERS), shooter=True)
    rider = s.units["foot"]
    rule, why = shooting.shooting_restriction(rider) or ("", "")
    assert rule == "Transport" and "no line of sight to the outside" in why
    assert shooting.valid_targets(s, "foot") == []
    with pytest.raises(IllegalAction, match="no line of sight to the outside"):
        shooting.shoot(s, Dice(sequence=[6] * 20), Shoot(1, "foot", "archers"))
    assert "foot" not in shooting.valid_targets(s, "archers") and "wagon" in shooting.valid_targets(s, "archers")
    with pytest.raises(IllegalAction, match="no line of sight to the inside"):
        shooting.shoot(s, Dice(sequence=[6] * 20), Shoot(2, "archers", "foot"))


def test_a_caster_inside_a_transport_is_refused_with_the_reason():
    """Transport(X): a unit inside may target only its Transport and the units inside; casting from inside is not
    played yet (docs/rulings.md "Casting inside a Transport"), and the refusal says so rather than "not on the
    table"."""
    from game.engine.magic import cast_problem
    mage = make_unit("mage", 1, profile("Mage", weapons=(HAND_WEAPON,), rules=("Hero", "Caster(2)"), size=1),
                     1, None)
    mage.embarked_in = "wagon"
    s = state_with(mage)
    assert "inside a Transport" in (cast_problem(s, s.units["mage"]) or "")
