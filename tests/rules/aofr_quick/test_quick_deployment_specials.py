"""The AoF:R quick rules' "Scout" and "Ambush" (../shared/rules/aofr-quick-rules.md, "Special Rules Reference"),
played through AoF:R 2.16's deployment and round start with the quick rules' distances and order, on fixed dice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.autoplay import RandomPlayer
from game.engine import objectives
from game.engine.actions import Deploy, Done, SetAside
from game.engine.deployment import DeploymentState, progress, zone_polygon
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import GameState, Objective, Phase, Step, Table
from game.scenario import load_scenario, new_game_state
from geometry.pose import Pose
from tests.rules.aofr.helpers import unit
from tests.rules.builders import ORCS

ROOT = Path(__file__).resolve().parents[3]


def _ambush_game(both: bool = True, first: int = 1) -> Game:
    """Round 2 about to begin with ``first`` activating first; player 2's goblins (and with ``both`` player 1's
    rangers) waiting in Ambush; player 1's unit at the south edge, player 2's at the north edge."""
    units = [unit("a", 1, models=5), unit("b", 2, front_y=40.0, x=10.0, models=5),
             unit("gob", 2, ORCS, models=5, front_y=40.0, x=60.0)]
    reserves = {"gob": "Ambush"}
    if both:
        units.append(unit("rangers", 1, ORCS, models=5, front_y=20.0, x=60.0))
        reserves["rangers"] = "Ambush"
    for u in units:
        if u.id in reserves:
            u.pose = None
    s = GameState("test", Table(), terrain=[], units={u.id: u for u in units}, generals={1: None, 2: None})
    s.ruleset = "aofr-quick"
    s.phase, s.step, s.round, s.active_player = Phase.ACTIVATION, Step.ACTIVATION, 2, first
    s.deployment = DeploymentState(reserves=reserves, stage="done")
    return Game.start(s, Dice(sequence=[]))


def test_ambush_starts_with_the_player_that_activates_next_without_a_roll_off():
    """"Ambush": "Players alternate in placing Ambush units, starting with the player that activates next": the
    round's first player places first, no die is rolled (AoF:R 2.16 rolls off)."""
    for first in (1, 2):
        game = _ambush_game(first=first)
        assert game.pending is not None and (game.pending.player, game.pending.decision) == (first, "ambush")
        assert game.dice.consumed == 0
        game.apply(Done(first))
        assert game.pending is not None and (game.pending.player, game.pending.decision) == (3 - first, "ambush")


def test_ambush_is_placed_fully_within_6_of_a_table_edge_over_9_from_enemy_units():
    """"Ambush": "may be deployed fully within 6\" of any table edge, over 9\" away from enemy units"."""
    game = _ambush_game(both=False)
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "ambush")
    middle = Deploy(2, "gob", Pose(60.0, 26.0, 180.0))        # 20" from every edge, far from the enemy
    err = game.check_deploy(middle)
    assert err is not None and err.rule == "Ambush" and "6\"" in err.message
    near = Deploy(2, "gob", Pose(36.0, 3.0, 0.0))             # at the south edge, about 6" behind unit a
    err = game.check_deploy(near)
    assert err is not None and err.rule == "Ambush" and "over 9" in err.message
    # at the south edge about 10.3" from unit a's corner (38, 9.2): legal under the quick rules (over 9"), not
    # under AoF:R 2.16 (over 12")
    edge = Deploy(2, "gob", Pose(48.5, 3.0, 0.0))
    assert game.check_deploy(edge) is None
    with pytest.raises(IllegalAction):
        game.apply(middle)
    game.apply(edge)
    assert game.state.units["gob"].on_table
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (1, "activate")


def test_ambush_units_do_not_seize_or_contest_objectives_on_the_round_they_deploy():
    """"Ambush": "Units that deploy via Ambush can't seize or contest objectives on the round they deploy"
    (``objectives.may_seize``); from the next round they do."""
    game = _ambush_game(both=False)
    game.state.objectives.append(Objective(66.0, 5.0))
    game.apply(Deploy(2, "gob", Pose(66.0, 3.0, 0.0)))
    gob = game.state.units["gob"]
    assert not objectives.may_seize(game.state, gob)
    assert objectives.contesting(game.state, game.state.objectives[0])[2] == []
    game.state.round = 3
    assert objectives.may_seize(game.state, gob)


def _deploy_until_scouts(seed: int) -> Game:
    """The shipped Scout/Ambush scenario deployed by a random player, player 2 setting its Pass Wardens aside (and
    player 1 keeping its Tunnel Rangers on the table), up to the first Scout placement."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "aofr_quick_outriders.yaml")),
                      Dice(seed=seed))
    player = RandomPlayer(random.Random(seed))
    while True:
        p = game.pending
        assert p is not None and game.state.phase is Phase.DEPLOYMENT
        d = progress(game.state)
        assert d is not None
        if d.stage == "scout":
            return game
        if p.decision == "set_aside":
            action = SetAside(p.player, "wardens-1") if "wardens-1" in p.options else Done(p.player)
        else:
            action = player.choose(game)
        game.apply(action)


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_scout_is_placed_after_all_others_within_12_of_its_zone_by_the_player_that_activates_next(seed: int):
    """"Scout": "May be set aside before deployment. After all other units are deployed, may be deployed anywhere
    fully within 12\" of their deployment zone. Players alternate in placing Scout units, starting with the player
    that activates next" (the deployment roll-off winner activates first): placed once, with no Scout move after."""
    game = _deploy_until_scouts(seed)
    s = game.state
    d = progress(s)
    assert d is not None and s.pending is not None
    assert s.pending.player == 2 and s.pending.options == ("wardens-1",)
    assert all(u.on_table for u in s.units.values() if u.id not in ("wardens-1",) and u.removed is None
               and u.id not in d.reserves)
    zone = zone_polygon(s, 2)
    x0, y0, x1, y1 = zone.bounds
    inward = 1.0 if y0 > 1.0 else -1.0       # player 2's zone may be either long edge (the table may be turned)
    edge_y = y1 if inward > 0 else y0        # its table edge
    facing = 180.0 if inward > 0 else 0.0
    deep = edge_y - inward * 22.0            # 22" from the edge: 10" outside the zone, the unit's back 1" deeper
    too_deep = edge_y - inward * 26.0
    for x in (36.0, 20.0, 52.0, 8.0, 64.0):
        ok = Deploy(2, "wardens-1", Pose(x, deep, facing))
        if game.check_deploy(ok) is None:
            break
    else:
        pytest.skip("no free spot 22\" out in this deployment")
    err = game.check_deploy(Deploy(2, "wardens-1", Pose(ok.pose.x, too_deep, facing)))
    assert err is not None and err.rule in ("Scout", "General Movement", "Impassable Terrain")
    game.apply(ok)
    assert s.units["wardens-1"].on_table
    assert s.pending is not None and s.pending.decision != "scout_move"


def test_scouts_of_both_players_start_with_the_deployment_roll_off_winner_then_alternate():
    """"Scout": "Players alternate in placing Scout units, starting with the player that activates next": the
    deployment roll-off winner (who activates first in round 1), not the player who would have placed next
    (AoWFBR), and no roll-off (AoF:R 2.16); then the other player."""
    from game.engine.deployment import _next
    units = [unit("a", 1, models=5), unit("b", 2, front_y=40.0, models=5),
             unit("s1", 1, ORCS, models=5), unit("s2", 2, ORCS, models=5)]
    for u in units[2:]:
        u.pose = None
    s = GameState("test", Table(), terrain=[], units={u.id: u for u in units}, generals={1: None, 2: None})
    s.ruleset = "aofr-quick"
    s.phase = Phase.DEPLOYMENT
    s.deployment = DeploymentState(reserves={"s1": "Scout", "s2": "Scout"}, stage="place", roll_off_winner=2,
                                   first_deployer=2, last_placer=2, scout_reach=12.0, first_turn_roll_off=False)
    dice = Dice(sequence=[])
    _next(s, dice)
    assert s.pending is not None and (s.pending.player, s.pending.options) == (2, ("s2",))
    assert dice.consumed == 0
    game = Game(s, dice)
    game.apply(Deploy(2, "s2", Pose(36.0, 26.0, 180.0)))     # 22" from the north edge: 10" outside the zone
    assert s.pending is not None and (s.pending.player, s.pending.options) == (1, ("s1",))
    err = game.check_deploy(Deploy(1, "s1", Pose(20.0, 25.0, 0.0)))    # 25" from its edge: over 12" outside
    assert err is not None and err.rule == "Scout"
    game.apply(Deploy(1, "s1", Pose(20.0, 23.0, 0.0)))
    assert s.units["s1"].on_table and s.first_player == 2
