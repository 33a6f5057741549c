"""Charge reactions through the turn sequence, with fixed dice (rulebook "Charge Reactions": Hold, Stand and Shoot,
Flee; running down and redirecting; several chargers against one unit).

Player 1 is active. Its units face 0 (+y), player 2's face 180; ``pose_with_front`` puts a unit's front edge on a
line y = const. Orcs: Quality 4+, Defense 5+, one Hand Weapon; Archers also carry a Longbow (24").
"""

from __future__ import annotations

import pytest

from game.engine.actions import ChargeReaction, Consolidate, DeclareCharge, Done, Redirect
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.state import GameState, MoveAction, Phase, Removal, Step, Table, Unit, make_unit
from geometry.pose import Pose
from tests.rules.builders import ARCHERS, HAND_WEAPON, ORCS, pose_with_front, profile

PISTOLS = profile("Pistoliers", weapons=(Weapon("Pistol", attacks=1, range=6.0), HAND_WEAPON))
"""A 6" weapon: Stand and Shoot fires "even if over the weapons maximum range"."""


def unit(uid: str, player: int, prof=ORCS, front: float = 10.0, x: float = 36.0, models: int = 10,
         per_row: int | None = None) -> Unit:
    """A unit whose front edge is at y = ``front``; player 1 faces 0, player 2 faces 180."""
    return make_unit(uid, player, prof, models, pose_with_front(prof, models, front, 0.0 if player == 1 else 180.0,
                                                                x=x, per_row=per_row), per_row=per_row)


def movement(*units: Unit, dice: tuple[int, ...] = ()) -> Game:
    """A game at step 2.1 (declare charges) of player 1's movement phase."""
    s = GameState("reactions", Table(), [], {u.id: u for u in units}, {1: None, 2: None})
    s.phase = Phase.MOVEMENT
    return Game.start(s, Dice(sequence=list(dice)))


def declare(game: Game, *charges: tuple[str, str]) -> list:
    for c, t in charges:
        game.apply(DeclareCharge(1, c, t))
    return game.apply(Done(1))


def kinds(events, kind):  # type: ignore[no-untyped-def]
    return [e for e in events if e.kind == kind]


# --- Stand and Shoot -----------------------------------------------------------------------------------------------


def test_stand_and_shoot_front_row_at_minus_one_even_beyond_range():
    """Rulebook: Charge Reactions: Stand and Shoot: the charger is at least 6" away and seen; all models in the front
    row fire at it with -1 to hit, even over the weapon's maximum range; then the charge hits home."""
    game = movement(unit("c", 1), unit("t", 2, PISTOLS, front=19.0),
                    dice=(6, 5, 4, 4, 1,   # 5 front-row Pistols at 4+ -1: 6 and 5 hit
                          1, 2))           # the Orcs' Defense 5+: both fail
    declare(game, ("c", "t"))
    assert game.pending.options == ("hold", "stand_and_shoot", "flee")
    events = game.apply(ChargeReaction(2, "t", "stand_and_shoot"))
    hit = kinds(events, "roll")[0]
    assert hit.data["dice"] == [6, 5, 4, 4, 1] and hit.data["modifier"] == -1 and hit.data["successes"] == 2
    assert game.state.units["c"].models == 8
    assert kinds(events, "charge")[0].data["target"] == "t"          # then the charge move
    assert "t" in game.state.units["c"].engaged_with
    assert game.state.step is Step.REMAINING_MOVES


def test_no_stand_and_shoot_within_six_inches():
    """Rulebook: Charge Reactions: only "if the charging unit is at least 6" away before the charge move"."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=15.5))
    declare(game, ("c", "t"))
    assert game.pending.options == ("hold", "flee")


@pytest.mark.parametrize(("shooter", "front"), [(PISTOLS, 19.0), (ARCHERS, 15.5)])
def test_the_reactions_a_charge_would_meet_are_those_offered_once_declared(shooter, front):  # type: ignore[no-untyped-def]
    """Rulebook: Charge Reactions: ``Ruleset.charge_reactions`` (what the computer opponent asks before it
    declares) answers as the ``charge_reaction`` decision does after the charge is declared."""
    game = movement(unit("c", 1), unit("t", 2, shooter, front=front))
    before = game.ruleset.charge_reactions("c", "t")
    declare(game, ("c", "t"))
    assert before == game.pending.options and "flee" in before


def test_no_stand_and_shoot_for_shaken_entrenched_or_artillery_units():
    """Rulebook: Charge Reactions: "Shaken units and units already in melee combat as well as artillery and/or
    entrenched units cannot Stand and Shoot" (artillery: an Immobile war machine, docs/rulings.md; it cannot Flee
    either: Immobile)."""
    shaken = unit("t", 2, ARCHERS, front=20.0)
    shaken.shaken = True
    game = movement(unit("c", 1), shaken)
    declare(game, ("c", "t"))
    assert game.pending.options == ("hold", "flee")
    dug_in = unit("t", 2, profile("Guards", rules=("Entrenched",)), front=20.0)
    game = movement(unit("c", 1), dug_in)
    declare(game, ("c", "t"))
    assert game.pending.options == ("hold", "flee")
    cannon = profile("Cannon", weapons=(Weapon("Cannon", 1, 36.0, ("Blast(3)",)),), rules=("Immobile", "Tough(3)"),
                     size=1, base=(50.0, 50.0))
    game = movement(unit("c", 1), unit("t", 2, cannon, front=20.0, models=1))
    events = declare(game, ("c", "t"))
    assert kinds(events, "reaction")[0].data["reaction"] == "hold"   # no choice: Hold is applied
    assert "t" in game.state.units["c"].engaged_with


def test_unit_already_in_melee_can_only_hold():
    """Rulebook: Charge Reactions: units already in melee cannot Stand and Shoot (nor Flee: docs/rulings.md)."""
    t = unit("t", 2, ARCHERS, front=20.0)
    other = unit("o", 1, ORCS, front=20.0 + 2 * 20 / 25.4, x=36.0)
    other.pose = Pose(36.0, t.pose.y + 2 * 20 / 25.4, 180.0)  # behind t, facing it: in base contact with its rear
    game = movement(unit("c", 1), t, other)
    s = game.state
    from geometry.arcs import Arc
    s.engage(s.units["o"], s.units["t"], Arc.FRONT, Arc.REAR)
    events = declare(game, ("c", "t"))
    assert kinds(events, "reaction")[0].data["reaction"] == "hold"


# --- Flee ----------------------------------------------------------------------------------------------------------


def test_flee_then_run_down_routs_and_allows_a_consolidation_move():
    """Rulebook: Charge Reactions: Flee: the unit becomes Shaken and flees 2D6" before the charge move; running down,
    the charger makes its charge move and on contact the fleeing unit is routed "and the charging unit may either
    pivot by up to 180° or move by up to 3" in any direction"."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), dice=(2, 1))   # flight 3"
    declare(game, ("c", "t"))
    events = game.apply(ChargeReaction(2, "t", "flee"))
    t = game.state.units["t"]
    assert kinds(events, "shaken") and kinds(events, "flee")[0].data["travelled"] == pytest.approx(3.0, abs=1e-3)
    assert t.shaken and t.fleeing and t.pose.facing == pytest.approx(0.0)   # turned 180° away from the charger
    assert (game.pending.decision, game.pending.options) == ("redirect", ("run_down", "redirect"))
    events = game.apply(Redirect(1, "c"))
    assert t.removed is Removal.ROUTED
    assert kinds(events, "charge")[0].data["ran_down"] is True
    p = game.pending
    assert (p.player, p.decision, p.unit) == (1, "consolidate", "c")
    c = game.state.units["c"]
    with pytest.raises(IllegalAction, match="at most 3"):
        game.apply(Consolidate(1, "c", (c.pose.moved(0.0, 4.0),)))
    events = game.apply(Consolidate(1, "c", (c.pose.turned(180.0),)))
    assert kinds(events, "consolidate")[0].data["kind"] == "pivot"
    assert c.pose.facing == pytest.approx(180.0)
    assert game.pending.decision == "move" and c.move_action is MoveAction.CHARGE


def test_run_down_consolidation_may_be_skipped():
    """Rulebook: Charge Reactions: the run-down charger "may" pivot or move 3": done skips it."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), dice=(2, 1))
    declare(game, ("c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    game.apply(Redirect(1, "c"))
    c = game.state.units["c"]
    before = c.pose
    events = game.apply(Done(1))
    assert kinds(events, "consolidate")[0].data["kind"] == "skip" and c.pose == before
    assert game.pending.decision == "move"


def test_run_down_that_falls_short_moves_the_full_charge_distance():
    """Rulebook: Charge Reactions: if the run down makes no contact "it has to move its full pursuit-range/charge
    distance"; no consolidation move then."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), dice=(6, 6))   # flight 12"
    declare(game, ("c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    events = game.apply(Redirect(1, "c"))
    ev = kinds(events, "charge")[0]
    assert ev.data["failed"] is True and game.state.units["t"].on_table
    c = game.state.units["c"]
    assert c.pose.y - ev.data["from"]["y"] == pytest.approx(12.0, abs=1e-3)
    assert game.pending.decision == "move"


def test_flee_off_the_table_and_the_charger_still_moves():
    """Rulebook: Flight Moves: a fleeing unit that reaches the table edge flees the battlefield and is routed; the
    charger running it down still has to move its full charge distance (toward where it left)."""
    game = movement(unit("c", 1, front=34.0), unit("t", 2, ARCHERS, front=42.0), dice=(3, 3))   # 6": off the table
    declare(game, ("c", "t"))
    events = game.apply(ChargeReaction(2, "t", "flee"))
    assert game.state.units["t"].removed is Removal.FLED and kinds(events, "rout")
    events = game.apply(Redirect(1, "c"))
    assert kinds(events, "charge")[0].data["failed"] is True
    c = game.state.units["c"]
    assert c.pose.y + c.formation.depth / 2 == pytest.approx(34.0 + 12.0, abs=1e-3)   # its full 12"
    assert game.pending.decision == "move"


def test_redirect_after_a_passed_morale_test_and_the_new_target_reacts():
    """Rulebook: Charge Reactions: if attempting to redirect, the charger must first pass a morale test; "the newly
    charged unit also has to declare and resolve a Charge reaction"."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), unit("u", 2, ARCHERS, front=18.0, x=44.0),
                    dice=(6, 6,           # t flees 12"
                          4,              # the redirect morale test (Quality 4+): passed
                          1, 1, 1, 1, 1))  # u stands and shoots: five misses
    declare(game, ("c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    assert game.redirect_targets("c") == ["u"]
    events = game.apply(Redirect(1, "c", "u"))
    assert kinds(events, "charge")[0].data["redirect"] is True
    p = game.pending
    assert (p.player, p.decision, p.unit) == (2, "charge_reaction", "u")
    assert "stand_and_shoot" in p.options and "flee" in p.options
    events = game.apply(ChargeReaction(2, "u", "stand_and_shoot"))
    assert kinds(events, "roll")[0].data["modifier"] == -1
    assert "u" in game.state.units["c"].engaged_with and game.state.units["t"].on_table


def test_failed_redirect_test_means_running_down():
    """Rulebook: Charge Reactions: "the charging unit must first pass a morale test, else it has to attempt to run
    down"."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), unit("u", 2, ARCHERS, front=18.0, x=44.0),
                    dice=(1, 1, 3))   # t flees 2"; the redirect test fails (3)
    declare(game, ("c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    events = game.apply(Redirect(1, "c", "u"))
    assert kinds(events, "morale") or [e for e in kinds(events, "roll") if "redirect" in e.data["purpose"]]
    assert game.state.units["t"].removed is Removal.ROUTED
    assert game.state.units["u"].on_table and not game.state.units["c"].engaged
    assert game.pending.decision == "consolidate"


def test_no_second_redirect():
    """Rulebook: Charge Reactions: if the newly charged unit also flees, "the charging unit is not allowed to
    redirect its charge a second time and has to attempt to run down"."""
    game = movement(unit("c", 1), unit("t", 2, ARCHERS, front=18.0), unit("u", 2, ARCHERS, front=18.0, x=44.0),
                    unit("w", 2, ARCHERS, front=18.0, x=28.0),
                    dice=(6, 6, 5, 6, 6))   # t flees 12"; the test passes; u flees 12"
    declare(game, ("c", "t"))
    game.apply(ChargeReaction(2, "t", "flee"))
    game.apply(Redirect(1, "c", "u"))
    game.apply(ChargeReaction(2, "u", "flee"))
    assert (game.pending.decision, game.pending.options) == ("redirect", ("run_down",))
    assert game.redirect_targets("c") == []
    with pytest.raises(IllegalAction, match="only once"):
        game.apply(Redirect(1, "c", "w"))


# --- several chargers ----------------------------------------------------------------------------------------------


def test_one_stand_and_shoot_or_flee_against_several_chargers():
    """Rulebook: Charge Reactions: "If charged by multiple units only one charge reaction may be Stand and Shoot or
    Flee, all others have to be Hold"; the unit fires once, then both chargers hit home."""
    game = movement(unit("a", 1, x=32.0), unit("b", 1, x=40.0),
                    unit("t", 2, ARCHERS, front=19.0, x=36.0, models=20, per_row=10),
                    dice=(1,) * 10)   # the Stand and Shoot (10 front-row models) misses
    declare(game, ("a", "t"), ("b", "t"))
    assert game.pending.options == ("hold", "stand_and_shoot", "flee")
    events = game.apply(ChargeReaction(2, "t", "stand_and_shoot"))
    reactions = [e.data["reaction"] for e in kinds(events, "reaction")]
    assert reactions == ["stand_and_shoot", "hold"]          # the second charger: Hold, without asking
    assert len([e for e in kinds(events, "roll") if "stand and shoot" in e.data["purpose"]]) == 1
    t = game.state.units["t"]
    assert t.engaged_with == {"a", "b"}


def test_unit_that_stood_and_shot_cannot_do_it_again_against_a_redirected_charge():
    """Rulebook: Charge Reactions: only one Stand and Shoot or Flee per charged unit, also when a redirected charge
    reaches it later in step 2.3."""
    game = movement(unit("a", 1, x=30.0), unit("b", 1, x=42.0), unit("t", 2, ARCHERS, front=19.0, x=30.0),
                    unit("u", 2, ARCHERS, front=19.0, x=40.0, models=20, per_row=10),
                    dice=(1,) * 10 + (    # u stands and shoots against b (all reactions first): misses
                          6, 6,            # t flees 12"
                          5))              # a's redirect test passes
    declare(game, ("a", "t"), ("b", "u"))
    game.apply(ChargeReaction(2, "t", "flee"))
    game.apply(ChargeReaction(2, "u", "stand_and_shoot"))
    # a's target fled before any charge move: a redirects to u, which already stood and shot against b (b has not
    # charged home yet, so u is not in melee)
    assert not game.state.units["u"].engaged and "u" in game.redirect_targets("a")
    events = game.apply(Redirect(1, "a", "u"))
    assert [e.data["reaction"] for e in kinds(events, "reaction")] == ["hold"]   # Hold, without asking
    assert not [e for e in kinds(events, "roll") if "stand and shoot" in e.data["purpose"]]
    assert game.state.units["u"].engaged_with == {"a", "b"}


def test_flee_from_several_chargers_each_runs_down_or_redirects():
    """Rulebook: Charge Reactions, Flight Moves: the unit that flees from one charger flees away from all the units
    charging it (split the difference), before any charge move; every one of them then has to run down or
    redirect (docs/rulings.md). The second to run down finds it already routed."""
    game = movement(unit("a", 1, x=36.0), unit("b", 2 - 1, x=36.0, front=10.0), unit("t", 2, ARCHERS, front=18.0),
                    dice=(1, 1))
    # b stands beside the target's flank: put it 3" to the target's right, facing it
    s = game.state
    t = s.units["t"]
    b = s.units["b"]
    s.place(b, Pose(t.pose.x - t.formation.width / 2 - 3.0 - b.formation.depth / 2, t.pose.y, 90.0))
    declare(game, ("a", "t"), ("b", "t"))
    events = game.apply(ChargeReaction(2, "t", "flee"))
    flee = kinds(events, "flee")[0]
    assert flee.data["attackers"] == ["a", "b"]
    assert t.pose.facing == pytest.approx(45.0)     # 0 (away from the front) and 90 (away from the right flank)
    assert game.pending.unit == "a" and game.pending.decision == "redirect"
    game.apply(Redirect(1, "a"))
    assert t.removed is Removal.ROUTED
    game.apply(Done(1))                             # a makes no consolidation move
    assert game.pending.unit == "b" and game.pending.decision == "redirect"
    events = game.apply(Redirect(1, "b"))
    assert "already run down" in kinds(events, "charge")[0].text
    assert game.pending.decision == "move"
