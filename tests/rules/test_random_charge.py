"""Random Charge Distances with fixed dice (AoWFBR 1.4 "Optional Rules", p.18; ``game.engine.random_charge``).

Player 1 is active. Its units face 0 (+y), player 2's face 180; ``pose_with_front`` puts a unit's front edge on a
line y = const, so the distance between two units is the gap between their front edges. Orcs: Quality 4+,
Defense 5+, Advance 6", so the charge range is 12".
"""

from __future__ import annotations

import pytest

from game.engine.actions import ChargeReaction, DeclareCharge, Done, Move, Redirect, RollCharge
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.random_charge import chance, charge_range
from game.engine.state import GameState, MoveAction, Phase, Removal, Step, Table, Unit, make_unit
from tests.rules.builders import ARCHERS, ORCS, pose_with_front, profile

FAST = profile("Wolf Riders", weapons=ORCS.weapons, rules=("Fast",))


def unit(uid: str, player: int, prof=ORCS, front: float = 10.0, x: float = 36.0, models: int = 10) -> Unit:
    """A unit whose front edge is at y = ``front``; player 1 faces 0, player 2 faces 180."""
    return make_unit(uid, player, prof, models, pose_with_front(prof, models, front, 0.0 if player == 1 else 180.0,
                                                                x=x))


def movement(*units: Unit, dice: tuple[int, ...] = (), random_charges: bool = True) -> Game:
    """A game at step 2.1 (declare charges) of player 1's movement phase, Random Charge Distances on."""
    s = GameState("random charges", Table(), [], {u.id: u for u in units}, {1: None, 2: None})
    s.options = {"random_charge_distance": random_charges}
    s.phase = Phase.MOVEMENT
    return Game.start(s, Dice(sequence=list(dice)))


def kinds(events, kind):  # type: ignore[no-untyped-def]
    return [e for e in events if e.kind == kind]


def charge_roll(events):  # type: ignore[no-untyped-def]
    return next(e for e in kinds(events, "roll") if e.data["purpose"].startswith("Charge distance"))


# --- step 1: measure ------------------------------------------------------------------------------------------------


def test_charge_range_is_advance_plus_six_with_its_modifiers():
    """Step 1: "equal or less to the unit's advance range plus 6"; the Advance bonus of Fast counts (+2", not the
    +4" of its charge)."""
    assert charge_range(unit("c", 1)) == 12.0
    assert charge_range(unit("w", 1, FAST)) == 14.0


def test_fast_unit_out_of_charge_range_that_the_ordinary_rules_would_allow():
    """Step 1: "If the target unit is not within charge range it is not a valid target": a Fast unit 15" away
    charges it under the ordinary rules (16") but not with Random Charge Distances (8" + 6")."""
    game = movement(unit("w", 1, FAST), unit("t", 2, front=25.0))
    with pytest.raises(IllegalAction, match="at most 14"):
        game.apply(DeclareCharge(1, "w", "t"))
    ordinary = movement(unit("w", 1, FAST), unit("t", 2, front=25.0), random_charges=False, dice=(6,) * 20)
    ordinary.apply(DeclareCharge(1, "w", "t"))


def test_chance_of_highest_of_two_dice_plus_advance():
    """Step 5: highest of 2D6 + Advance must reach the distance measured."""
    assert chance(6.0, 7.0) == 1.0                       # any die
    assert chance(6.0, 8.0) == pytest.approx(35 / 36)    # not both 1s
    assert chance(6.0, 9.5) == pytest.approx(1 - (3 / 6) ** 2)   # highest 4+
    assert chance(6.0, 12.0) == pytest.approx(11 / 36)   # a 6
    assert chance(6.0, 12.1) == 0.0


# --- steps 2-4: declare, and react at once -------------------------------------------------------------------


def test_reaction_is_declared_and_carried_out_before_the_next_declaration():
    """Step 3: "The opposing player declares and immediately carries out a charge reaction"; step 4: then the next
    charge is declared."""
    game = movement(unit("c", 1), unit("d", 1, x=10.0), unit("t", 2, front=20.0), unit("u", 2, front=20.0, x=10.0))
    events = game.apply(DeclareCharge(1, "c", "t"))
    assert kinds(events, "charge")[0].data["measured"] == pytest.approx(10.0, abs=0.05)
    assert (game.pending.player, game.pending.decision, game.pending.unit) == (2, "charge_reaction", "t")
    game.apply(ChargeReaction(2, "t", "hold"))
    assert (game.pending.player, game.pending.decision) == (1, "declare_charge")   # step 4
    assert game.state.units["c"].pose.y < 10.0                                       # nobody has moved yet
    game.apply(DeclareCharge(1, "d", "u"))
    game.apply(ChargeReaction(2, "u", "hold"))
    game.apply(Done(1))
    assert (game.pending.decision, set(game.pending.options)) == ("roll_charge", {"c", "d"})


# --- steps 5-6: roll ---------------------------------------------------------------------------------------------


def test_successful_roll_moves_into_contact():
    """Steps 5 and 6a: highest 4 + Advance 6 = 10" reaches the 10" measured: the ordinary charge move."""
    game = movement(unit("c", 1), unit("t", 2, front=20.0), dice=(4, 2))
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "hold"))
    events = game.apply(Done(1))
    roll = charge_roll(events)
    assert roll.data["dice"] == [4, 2] and roll.data["made"] is True
    assert "t" in game.state.units["c"].engaged_with
    assert game.state.step is Step.REMAINING_MOVES


def test_failed_roll_moves_the_highest_die_toward_the_target_and_nothing_else():
    """Steps 5 and 6b: highest 3 + 6 = 9" falls short of 10": the unit moves 3" toward its target, "the charge failed
    and the charging unit can not do anything else this turn"."""
    game = movement(unit("c", 1), unit("t", 2, front=20.0), dice=(1, 3))
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "hold"))
    c = game.state.units["c"]
    before = c.pose.y
    events = game.apply(Done(1))
    assert charge_roll(events).data["made"] is False
    assert kinds(events, "charge")[-1].data["failed"] is True
    assert c.pose.y - before == pytest.approx(3.0, abs=1e-3)
    assert not c.engaged_with and c.move_action is MoveAction.CHARGE
    with pytest.raises(IllegalAction):
        game.apply(Move(1, "c", (c.pose.moved(0.0, 1.0),)))


def test_failed_roll_stops_one_inch_short_of_the_target():
    """Step 6b moves "in the direction of the target enemy"; it does not touch it (the 1" rule, docs/rulings.md)."""
    game = movement(unit("c", 1), unit("t", 2, front=13.0), dice=(1, 1))   # 3" away, needs 3: any roll makes it
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "hold"))
    game.apply(Done(1))
    assert "t" in game.state.units["c"].engaged_with
    game = movement(unit("c", 1), unit("t", 2, front=22.5), dice=(6, 6))   # 12.5": out of range, refused
    with pytest.raises(IllegalAction):
        game.apply(DeclareCharge(1, "c", "t"))


def test_charging_player_picks_the_order_of_the_rolls():
    """Step 5: "Pick one declared charge and roll"; step 7: "Repeat steps 5 & 6 until all charging units have
    moved"."""
    game = movement(unit("c", 1), unit("d", 1, x=10.0), unit("t", 2, front=20.0), unit("u", 2, front=20.0, x=10.0),
                    dice=(1, 1,     # d first: 1 + 6 = 7" of 10": fails
                          6, 5))    # then c: 12": made
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "hold"))
    game.apply(DeclareCharge(1, "d", "u"))
    game.apply(ChargeReaction(2, "u", "hold"))
    game.apply(Done(1))
    with pytest.raises(IllegalAction, match="Random Charge Distances"):
        game.apply(RollCharge(1, "t"))
    events = game.apply(RollCharge(1, "d"))
    assert charge_roll(events).data["unit"] == "d"
    assert not game.state.units["d"].engaged_with
    assert "t" in game.state.units["c"].engaged_with            # the last charge is rolled without asking
    assert game.pending.decision == "move"


def test_flee_then_measure_again_and_roll_to_run_down():
    """Step 5, "If the target unit chose Flee ... measure again (as in step 1) before rolling": the fleeing unit
    moved 3" away (13" now, beyond the 12" range), so the roll is made and the charge fails (6b)."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=20.0),
                    dice=(2, 1,      # the flight: 3"
                          6, 6))     # the charge roll: 12" cannot reach a target out of range
    game.apply(DeclareCharge(1, "c", "t"))
    events = game.apply(ChargeReaction(2, "t", "flee"))
    assert kinds(events, "flee") and game.state.units["t"].fleeing
    assert game.pending.decision == "declare_charge"       # step 4; the flight is answered at the roll (step 5)
    game.apply(Done(1))
    assert (game.pending.decision, game.pending.options) == ("redirect", ("run_down", "redirect"))
    c = game.state.units["c"]
    before = c.pose.y
    events = game.apply(Redirect(1, "c"))
    roll = charge_roll(events)
    assert roll.data["made"] is False and roll.data["needed"] is None      # out of range
    assert c.pose.y - before == pytest.approx(6.0, abs=1e-3)               # the highest die
    assert game.state.units["t"].on_table and game.pending.decision == "move"


def test_flee_caught_by_a_good_roll_is_run_down():
    """Step 5 after a Flee, then 6a: the charge reaches the fleeing unit, which is routed (rulebook "Flee")."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=16.0),
                    dice=(1, 1,      # the flight: 2" (8" away now)
                          4, 1))     # 4 + 6 = 10": caught
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    game.apply(Done(1))
    events = game.apply(Redirect(1, "c"))
    assert charge_roll(events).data["made"] is True
    assert game.state.units["t"].removed is Removal.ROUTED
    assert game.pending.decision == "consolidate"


def test_ordinary_rules_roll_nothing():
    """Without the option the charge is the ordinary 12" move, no dice, reactions after every declaration."""
    game = movement(unit("c", 1), unit("t", 2, front=20.0), random_charges=False)
    game.apply(DeclareCharge(1, "c", "t"))
    assert game.pending.decision == "declare_charge"
    game.apply(Done(1))
    events = game.apply(ChargeReaction(2, "t", "hold"))
    assert not kinds(events, "roll") and "t" in game.state.units["c"].engaged_with


def test_redirect_after_a_flee_reacts_then_rolls():
    """Step 5: "You may now try to redirect the charge (see p.10; repeat steps 1 to 3 for the redirected charge)": a
    passed morale test, the new target's reaction, then the roll for the new target."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=20.0), unit("u", 2, front=19.0, x=27.0),
                    dice=(2, 1,      # the flight: 3"
                          5,         # the morale test to redirect (Quality 4+): passed
                          6, 1))     # the roll: 12"
    game.apply(DeclareCharge(1, "c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    game.apply(Done(1))
    assert "u" in game.redirect_targets("c")
    events = game.apply(Redirect(1, "c", "u"))
    assert kinds(events, "charge")[-1].data.get("redirect") is True
    assert (game.pending.player, game.pending.decision, game.pending.unit) == (2, "charge_reaction", "u")
    events = game.apply(ChargeReaction(2, "u", "hold"))
    assert charge_roll(events).data["made"] is True
    assert "u" in game.state.units["c"].engaged_with
