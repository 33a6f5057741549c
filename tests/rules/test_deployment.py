"""Deployment (rulebook "Deploying Armies", "Playing the Game", special rules "Scout" and "Ambush";
game/engine/deployment.py), driven by actions with fixed dice, and whole games autoplayed from deployment."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.autoplay import play_out, state_is_consistent
from game.engine import deployment
from game.engine.actions import (
    Action,
    ChooseDeployment,
    ChooseFirstTurn,
    Deploy,
    Done,
    ScoutMove,
    SetAside,
    action_from_dict,
)
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import Pending, Phase, Step
from game.record import Record, replay
from game.scenario import load_scenario, new_game_state
from geometry.pose import Pose

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "deployment_open_field.yaml"

P1_UNITS = ("pikemen-1", "crossbows-1", "landvogt", "scouts-1", "hunters-1")
P2_UNITS = ("spearmen-1", "archers-1", "cinder-lord", "outriders-1", "stalkers-1")


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


def start(scenario, dice: list[int]) -> Game:
    return Game.start(new_game_state(scenario), Dice(sequence=dice))


def zone_pose(game: Game, uid: str, start_x: float = 4.0) -> Pose:
    """The first legal pose for ``uid`` along the middle of its player's deployment zone, from ``start_x``."""
    unit = game.state.units[uid]
    p = unit.player
    x = start_x
    while x < 70:
        pose = Pose(x, 6.0, 0.0) if p == 1 else Pose(x, 42.0, 180.0)
        action = Deploy(p, uid, pose) if game.state.step is not Step.SCOUT_MOVE else ScoutMove(p, uid, pose)
        if game.check_deploy(action) is None:
            return pose
        x += 1.0
    raise AssertionError(f"no room for {uid}")


def deploy_next(game: Game) -> Action:
    """Deploy the first unit the pending ``deploy`` decision offers, at the first legal spot; returns the action."""
    p = game.pending
    assert p is not None and p.decision == "deploy", p
    uid = p.options[0]
    action = Deploy(p.player, uid, zone_pose(game, uid))
    game.apply(action)
    return action


def to_placement(scenario, first: int = 1, set_aside: tuple[str, ...] = (), dice: tuple[int, ...] = ()) -> Game:
    """Player 1 wins the deployment roll-off (5 to 2), keeps its edge and lets ``first`` place first; the units in
    ``set_aside`` are set aside, everything else is kept."""
    game = start(scenario, [5, 2, *dice])
    game.apply(ChooseDeployment(1, first=first))
    while game.pending.decision == "set_aside":
        p = game.pending
        mine = [u for u in set_aside if u in p.options]
        game.apply(SetAside(p.player, mine[0]) if mine else Done(p.player))
    return game


# --- the deployment roll-off and the winner's choice ---------------------------------------------------------


def test_deployment_roll_off_re_rolls_ties(scenario):
    """Rulebook: Deploying Armies: the players roll-off (ties are rolled again); the winner decides."""
    game = start(scenario, [3, 3, 2, 5])
    assert [r.purpose for r in game.dice.rolls] == [
        "Deployment roll-off: player 1", "Deployment roll-off: player 2",
        "Deployment roll-off: player 1 (re-roll 1)", "Deployment roll-off: player 2 (re-roll 1)"]
    assert any("a tie (3 each)" in e.text for e in game.log)
    assert game.state.phase is Phase.DEPLOYMENT and game.state.step is Step.CHOOSE_DEPLOYMENT
    assert game.pending == Pending(2, "choose_deployment", None, ("south", "north"))
    assert deployment.progress(game.state).roll_off_winner == 2


def test_only_the_roll_off_winner_chooses(scenario):
    """Rulebook: Deploying Armies: the winner decides who must start deploying."""
    game = start(scenario, [2, 5])
    with pytest.raises(IllegalAction) as e:
        game.apply(ChooseDeployment(1, first=1))
    assert e.value.rule == "Turn Sequence"
    game.apply(ChooseDeployment(2, first=1))
    assert deployment.progress(game.state).first_deployer == 1


@pytest.mark.parametrize("dice, winner, edge, rotated", [
    ([5, 2], 1, "south", False), ([5, 2], 1, "north", True), ([5, 2], 1, None, False),
    ([2, 5], 2, "north", False), ([2, 5], 2, "south", True)])
def test_edge_choice_turns_the_terrain_when_the_winner_takes_the_other_edge(scenario, dice, winner, edge, rotated):
    """Rulebook: Deploying Armies: the winner chooses one long table edge. Player 1 stays at y = 0 (spec): taking
    the other edge turns the terrain 180 degrees about the table centre (docs/rulings.md)."""
    game = start(scenario, dice)
    game.apply(ChooseDeployment(winner, first=winner, edge=edge))
    d = deployment.progress(game.state)
    assert d.rotated is rotated and d.edge == (edge or ("south" if winner == 1 else "north"))
    farmhouse = game.state.terrain[0]
    centre = farmhouse.shape.centroid
    assert (round(centre.x, 6), round(centre.y, 6)) == ((52.0, 24.0) if rotated else (20.0, 24.0))
    assert game.state.scene.terrain[0].polygon == farmhouse.polygon  # the geometry cache follows
    assert any(e.kind == "terrain" for e in game.log) is rotated


def test_edges_are_fixed_when_the_scenario_placed_units(scenario):
    """docs/rulings.md: with units already placed by the scenario the edges stay as laid out."""
    state = new_game_state(scenario)
    state.place(state.units["pikemen-1"], Pose(30, 6, 0))
    game = Game.start(state, Dice(sequence=[5, 2, 6, 1]))
    assert game.pending == Pending(1, "choose_deployment", None, ())
    error = game.check_deploy(ChooseDeployment(1, first=2, edge="north"))
    assert error is not None and error.rule == "Deploying Armies"
    game.apply(ChooseDeployment(1, first=2, edge="south"))
    assert not deployment.progress(game.state).rotated


# --- setting aside, alternating placement --------------------------------------------------------------------


def test_scout_and_ambush_units_may_be_set_aside_first_deployer_first(scenario):
    """Rulebook: Scout, Ambush: "May be set aside before deployment"."""
    game = start(scenario, [5, 2])
    game.apply(ChooseDeployment(1, first=2))
    assert game.pending == Pending(2, "set_aside", None, ("outriders-1", "stalkers-1"))
    error = game.check_deploy(SetAside(2, "spearmen-1"))
    assert error is not None and error.rule == "Deploying Armies" and "Scout or Ambush" in error.message
    game.apply(SetAside(2, "outriders-1"))
    assert game.pending == Pending(2, "set_aside", None, ("stalkers-1",))
    game.apply(Done(2))
    assert game.pending == Pending(1, "set_aside", None, ("scouts-1", "hunters-1"))
    game.apply(SetAside(1, "scouts-1"))
    game.apply(SetAside(1, "hunters-1"))  # nothing left to set aside: placement starts
    assert deployment.progress(game.state).reserves == {"outriders-1": "Scout", "scouts-1": "Scout",
                                                          "hunters-1": "Ambush"}
    assert game.pending == Pending(2, "deploy", None, ("spearmen-1", "archers-1", "cinder-lord", "stalkers-1"))


def test_players_alternate_one_unit_each_then_the_other_finishes(scenario):
    """Rulebook: Deploying Armies: the chosen player places one unit, then the other, alternating until all units
    have been deployed (a player with none left is skipped)."""
    game = to_placement(scenario, first=2, set_aside=("outriders-1", "scouts-1", "hunters-1"))
    order = []
    while game.pending.decision == "deploy" and deployment.progress(game.state).stage == "place":
        order.append(game.pending.player)
        deploy_next(game)
    assert order == [2, 1, 2, 1, 2, 1, 2]  # player 1 has 3 units to place, player 2 four


def test_a_unit_outside_the_12_inch_zone_is_refused_naming_the_rule(scenario):
    """Rulebook: Deploying Armies: each unit is placed fully within 12" of its own table edge."""
    game = to_placement(scenario, first=1)
    before = (game.pending, len(game.history))
    bad = Deploy(1, "pikemen-1", Pose(30, 11, 0))  # 4 rows, 3.15" deep: the rear is in, the front reaches 12.6"
    error = game.check_deploy(bad)
    assert error is not None and error.rule == "Deploying Armies" and "12\"" in error.message
    assert (game.pending, len(game.history)) == before and game.state.units["pikemen-1"].pose is None
    with pytest.raises(IllegalAction) as e:
        game.apply(bad)
    assert e.value.rule == "Deploying Armies"
    assert game.check_deploy(Deploy(1, "pikemen-1", Pose(30, 10, 0))) is None
    game.apply(Deploy(1, "pikemen-1", Pose(30, 10, 0)))
    error = game.check_deploy(Deploy(2, "spearmen-1", Pose(30, 34, 180)))
    assert error is not None and error.rule == "Deploying Armies"
    error = game.check_deploy(Deploy(2, "spearmen-1", Pose(20, 45, 180)))  # 1" from the edge is fine
    assert error is None
    error = game.check_deploy(Deploy(1, "crossbows-1", Pose(40, 5, 0)))  # player 2 places the next unit
    assert error is not None and error.rule == "Turn Sequence"


def test_set_aside_units_are_not_placed_with_the_others(scenario):
    """Rulebook: Scout: Scout units are deployed after all other units."""
    game = to_placement(scenario, first=1, set_aside=("scouts-1",))
    error = game.check_deploy(Deploy(1, "scouts-1", Pose(30, 6, 0)))
    assert error is not None and error.rule == "Scout"


# --- Scouts ----------------------------------------------------------------------------------------------------


def place_all_but_scouts(game: Game) -> None:
    while game.pending.decision == "deploy" and deployment.progress(game.state).stage == "place":
        deploy_next(game)


def test_scouts_are_placed_last_alternating_and_may_be_placed_again_within_12_inches(scenario):
    """Rulebook: Scout: after all other units are deployed, Scout units are deployed, alternating starting with the
    player that activates next, and may then be placed anywhere within 12" of their position."""
    game = to_placement(scenario, first=2, set_aside=("outriders-1", "scouts-1", "hunters-1"), dice=(1, 2, 6, 1))
    place_all_but_scouts(game)
    # player 2 (4 units) placed the last ordinary unit, so player 1 (3 units) places the first Scout unit
    assert deployment.progress(game.state).last_placer == 2
    assert game.pending == Pending(1, "deploy", None, ("scouts-1",))
    start_pose = zone_pose(game, "scouts-1", start_x=60.0)
    game.apply(Deploy(1, "scouts-1", start_pose))
    assert game.pending == Pending(1, "scout_move", "scouts-1")
    too_far = ScoutMove(1, "scouts-1", Pose(start_pose.x, start_pose.y + 12.5, 0.0))
    error = game.check_deploy(too_far)
    assert error is not None and error.rule == "Scout" and "12.5\"" in error.message
    moved = Pose(start_pose.x - 5.0, start_pose.y + 10.0, 30.0)  # 11.2" away, out of the deployment zone
    assert game.check_deploy(moved_action := ScoutMove(1, "scouts-1", moved)) is None
    game.apply(moved_action)
    assert game.state.units["scouts-1"].pose == moved
    # then player 2's Scout unit; it stays where it was placed
    assert game.pending == Pending(2, "deploy", None, ("outriders-1",))
    p2_pose = zone_pose(game, "outriders-1", start_x=60.0)
    game.apply(Deploy(2, "outriders-1", p2_pose))
    game.apply(Done(2))
    assert game.state.units["outriders-1"].pose == p2_pose
    assert game.pending.decision == "choose_first_turn"


POSES = {"pikemen-1": Pose(30, 6, 0), "crossbows-1": Pose(10, 6, 0), "landvogt": Pose(50, 6, 0),
         "hunters-1": Pose(60, 6, 0), "scouts-1": Pose(40, 6, 0),
         "spearmen-1": Pose(30, 42, 180), "archers-1": Pose(10, 42, 180), "cinder-lord": Pose(50, 42, 180),
         "outriders-1": Pose(60, 42, 180), "stalkers-1": Pose(40, 42, 180)}


def deploy_at(game: Game, poses: dict[str, Pose]) -> None:
    """Answer every pending ``deploy`` with the pose given for the first unit offered."""
    while game.pending.decision == "deploy":
        uid = game.pending.options[0]
        game.apply(Deploy(game.pending.player, uid, poses[uid]))


def test_scout_move_keeps_1_inch_from_other_units(scenario):
    """Rulebook: General Movement (as for every placement): at least 1" from other units."""
    game = to_placement(scenario, first=1, set_aside=("scouts-1",))
    deploy_at(game, POSES)
    assert game.pending == Pending(1, "scout_move", "scouts-1")
    # pikemen-1: 4 rows of 20 mm, front edge at y 7.57; scouts-1: one row 0.79" deep, rear edge 0.5" from it
    close = ScoutMove(1, "scouts-1", Pose(30, 7.575 + 0.5 + 0.394, 0.0))
    error = game.check_deploy(close)
    assert error is not None and error.rule == "General Movement"
    fine = ScoutMove(1, "scouts-1", Pose(30, 7.575 + 1.0 + 0.394, 0.0))
    assert game.check_deploy(fine) is None


# --- the first-turn roll-off ---------------------------------------------------------------------------------


def test_first_turn_roll_off_gives_plus_one_to_who_finished_deploying_first(scenario):
    """Rulebook: Playing the Game: the player that finished deploying first adds +1; the winner decides who takes
    the first turn. Here player 1 (3 units) finishes before player 2 (4 units): 3+1 ties 4, re-roll, 2+1 beats 2."""
    game = to_placement(scenario, first=2, set_aside=("outriders-1", "scouts-1", "hunters-1"), dice=(3, 4, 2, 2))
    place_all_but_scouts(game)
    # Scouts: player 1 first (player 2 placed last), each stays where placed
    for _ in range(2):
        game.apply(Deploy(game.pending.player, game.pending.options[0],
                          zone_pose(game, game.pending.options[0], start_x=55.0)))
        game.apply(Done(game.pending.player))
    d = deployment.progress(game.state)
    assert d.placements == [2, 1, 2, 1, 2, 1, 2, 1, 2]
    assert d.finished_first == 1
    rolls = [(r.purpose, r.dice) for r in game.dice.rolls[2:]]
    assert rolls == [("First-turn roll-off: player 1", (3,)), ("First-turn roll-off: player 2", (4,)),
                     ("First-turn roll-off: player 1 (re-roll 1)", (2,)),
                     ("First-turn roll-off: player 2 (re-roll 1)", (2,))]
    assert game.pending == Pending(1, "choose_first_turn", None, ("1", "2"))
    game.apply(ChooseFirstTurn(1, first=2))
    s = game.state
    assert (s.first_player, s.active_player, s.round, s.phase, s.step) == (2, 2, 1, Phase.STRATEGY_1, Step.STRATEGY)
    assert game.pending == Pending(2, "strategy")
    assert deployment.finished(s)


def test_a_player_with_nothing_to_place_finished_first(scenario):
    """docs/rulings.md: a player whose units are all set aside in Ambush finished deploying at once."""
    state = new_game_state(scenario)
    for uid in ("pikemen-1", "crossbows-1", "landvogt", "scouts-1"):
        state.place(state.units[uid], POSES[uid])
    game = Game.start(state, Dice(sequence=[5, 2, 1, 1]))
    game.apply(ChooseDeployment(1, first=1))
    game.apply(SetAside(1, "hunters-1"))
    game.apply(Done(2))
    order = []
    while game.pending.decision == "deploy":
        order.append(game.pending.player)
        uid = game.pending.options[0]
        game.apply(Deploy(2, uid, POSES[uid]))
    assert order == [2, 2, 2, 2, 2]
    d = deployment.progress(game.state)
    assert d.finished_first == 1
    assert [r.purpose for r in game.dice.rolls[2:]] == ["First-turn roll-off: player 1",
                                                        "First-turn roll-off: player 2"]
    assert game.pending == Pending(1, "choose_first_turn", None, ("1", "2"))  # 1 + 1 beats 1


# --- Ambush ------------------------------------------------------------------------------------------------------


def to_round(game: Game, rnd: int) -> None:
    """Players end every step until round ``rnd`` begins (no unit acts)."""
    while game.state.round < rnd:
        game.apply(Done(game.pending.player))


def test_ambush_units_deploy_from_round_2_within_6_inches_of_an_edge(scenario):
    """Rulebook: Ambush: at the start of any of your turns after the first, this unit may be deployed fully within
    6" of any table edge (Turn Sequence 1.1 Deploy Ambusher Units)."""
    game = to_placement(scenario, first=1, set_aside=("hunters-1",), dice=(6, 1))
    place_all_but_scouts(game)
    game.apply(ChooseFirstTurn(1, first=1))
    # round 1: no Ambush step, and a deploy is refused naming the rule
    assert game.pending == Pending(1, "strategy")
    with pytest.raises(IllegalAction) as e:
        game.apply(Deploy(1, "hunters-1", Pose(3, 24, 90)))
    assert e.value.rule == "Ambush"
    to_round(game, 2)
    s = game.state
    assert (s.round, s.active_player, s.phase, s.step) == (2, 1, Phase.STRATEGY_1, Step.AMBUSH)
    assert game.pending == Pending(1, "ambush", None, ("hunters-1",))
    middle = Deploy(1, "hunters-1", Pose(36, 30, 0))
    error = game.check_deploy(middle)
    assert error is not None and error.rule == "Ambush" and "6\"" in error.message
    edge = Deploy(1, "hunters-1", Pose(2.5, 30, 90))  # one row facing east: x 2.1 to 2.9, within 6" of x = 0
    assert game.check_deploy(edge) is None
    game.apply(edge)
    assert s.units["hunters-1"].pose == edge.pose
    assert game.pending == Pending(1, "strategy") and s.step is Step.STRATEGY
    assert deployment.reserves_of(s, 1) == []


def test_ambush_step_may_be_passed_and_is_offered_again_next_turn(scenario):
    """Rulebook: Ambush: "may be deployed" at the start of any of your turns after the first."""
    game = to_placement(scenario, first=1, set_aside=("hunters-1",), dice=(6, 1))
    place_all_but_scouts(game)
    game.apply(ChooseFirstTurn(1, first=2))
    to_round(game, 2)
    while game.pending.decision != "ambush":
        game.apply(Done(game.pending.player))
    assert game.pending.player == 1 and game.state.round == 2
    game.apply(Done(1))
    assert game.pending == Pending(1, "strategy")
    to_round(game, 3)
    while game.pending.decision != "ambush":
        game.apply(Done(game.pending.player))
    assert (game.state.round, game.pending.player) == (3, 1)


# --- records and whole games ---------------------------------------------------------------------------------


def test_deployment_actions_round_trip_through_the_record_form():
    """spec "Game record": every decision is an action with a record form."""
    for action in (ChooseDeployment(1, first=2, edge="north"), ChooseDeployment(2, first=2),
                   SetAside(1, "scouts-1"), SetAside(2, "x", rule="Ambush"),
                   ScoutMove(1, "scouts-1", Pose(1.5, 2.25, 90.0)), ChooseFirstTurn(2, first=1)):
        assert action_from_dict(action.to_dict()) == action


def _invariants(game: Game, action: Action) -> None:
    problems = state_is_consistent(game.state)
    assert not problems, f"after {action.to_dict()}: {problems}"
    assert (game.pending is None) == game.state.game_over


@pytest.mark.parametrize("seed", range(1, 9))
def test_whole_game_autoplayed_from_deployment(scenario, seed):
    """A scenario without poses: the random players go through the whole deployment and play the game out; the
    record (scenario + dice + actions) replays to the same outcomes."""
    game = Game.start(new_game_state(scenario), Dice(seed=seed))
    actions = play_out(game, seed, after_action=_invariants)
    s = game.state
    assert s.game_over and s.round == s.rounds
    assert deployment.finished(s)
    types = {a.type for a in actions}
    assert {"choose_deployment", "deploy", "choose_first_turn"} <= types
    record = Record(str(SCENARIO), {"seed": seed}, actions, digests=list(game.digests))
    result = replay(record)
    assert result.ok, result.describe()
    assert result.game.state.terrain == s.terrain


def test_autoplay_sets_aside_and_scouts_over_many_seeds(scenario):
    """The random players exercise every deployment decision (set aside, Scout move, Ambush)."""
    seen: set[str] = set()
    for seed in range(1, 16):
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        seen |= {a.type for a in play_out(game, seed)}
        seen |= {"ambush" for e in game.log if e.data.get("ambush") is True}
        seen |= {"rotated" for e in game.log if e.kind == "terrain"}
    assert {"set_aside", "scout_move", "ambush", "rotated"} <= seen
