"""The computer opponent's evaluation of time and fire (issue 13): heroes close in, the last turn has nothing to
hold back for, shooting still to come costs the unit it will hit. Never timed."""

from __future__ import annotations

from game.ai import SearchPlayer
from game.ai.evaluate import MATERIAL, at_stake, charge_value, evaluate, turns_left, volley, worth
from game.engine.actions import Done, Move
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.state import GameState, Table, Unit, make_unit
from tests.rules.builders import LONGBOW, pose_with_front, profile

HERO = profile("Captain", quality=3, defense=3, weapons=(Weapon("Sword", attacks=3),), rules=("Hero", "Tough(3)"),
               size=1, cost=100, base=(40.0, 40.0))
ORCS = profile("Orc Boyz", quality=4, defense=5, weapons=(Weapon("Choppa", attacks=1),), size=10, cost=100)
ARCHERS = profile("Archers", quality=4, defense=5, weapons=(LONGBOW,), size=10, cost=100)


def _game(units: list[Unit], rounds: int = 4) -> Game:
    state = GameState("ai test", Table(), terrain=[], units={u.id: u for u in units}, generals={1: None, 2: None})
    state.rounds = rounds
    return Game.start(state, Dice(seed=1))


def _until_move(game: Game, player: int) -> None:
    while game.pending is not None and not (game.pending.decision == "move" and game.pending.player == player):
        game.apply(Done(game.pending.player))


def test_a_lone_hero_with_no_threat_closes_in() -> None:
    """A hero (one model) 30" from the only enemy, nothing able to reach it: it advances or rushes toward the
    enemy rather than holding (a hero that never closes in never fights)."""
    units = [
        make_unit("captain", 1, HERO, 1, pose_with_front(HERO, 1, 6.0, 0.0, x=36.0)),
        make_unit("orcs-1", 2, ORCS, 10, pose_with_front(ORCS, 10, 40.0, 180.0, x=36.0)),
    ]
    game = _game(units)
    _until_move(game, 1)
    before = game.state.scene.distance("captain", "orcs-1")
    action = SearchPlayer(1).choose(game)
    assert isinstance(action, Move) and action.action in ("advance", "rush")
    game.apply(action)
    assert game.state.scene.distance("captain", "orcs-1") < before - 3.0


def test_turns_left_counts_each_sides_turns_to_the_end_of_the_game() -> None:
    """AoWFBR: player 1 takes the first turn of each round; in the last round, once player 2's turn is done the
    game ends, so a side with no turn left can neither charge nor shoot again."""
    units = [
        make_unit("captain", 1, HERO, 1, pose_with_front(HERO, 1, 6.0, 0.0, x=36.0)),
        make_unit("orcs-1", 2, ORCS, 10, pose_with_front(ORCS, 10, 40.0, 180.0, x=36.0)),
    ]
    game = _game(units, rounds=2)
    _until_move(game, 1)
    # mid-turn of player 1 in round 1: player 2 next (rounds 1 and 2), then player 1 (round 2)
    assert turns_left(game, 2) == {2: 2, 1: 1}
    game.state.round = 2
    assert turns_left(game, 2) == {2: 1, 1: 0}
    game.state.active_player = 2
    # mid-turn of player 2 in the last round: nobody plays again
    assert turns_left(game, 1) == {1: 0, 2: 0}


def test_the_charges_of_a_side_with_no_turn_left_count_for_nothing() -> None:
    """In the last turn of the game, a unit standing in the charge reach of an enemy that would beat it loses
    nothing by it (the enemy never acts again), while earlier it does."""
    units = [
        make_unit("captain", 1, HERO, 1, pose_with_front(HERO, 1, 20.0, 0.0, x=36.0)),
        make_unit("orcs-1", 2, ORCS, 10, pose_with_front(ORCS, 10, 26.0, 180.0, x=36.0)),
    ]
    game = _game(units, rounds=1)
    _until_move(game, 1)
    orcs, captain = game.state.units["orcs-1"], game.state.units["captain"]
    threat = charge_value(orcs, captain)
    assert threat > 10.0 and charge_value(captain, orcs) < 0.0
    material = MATERIAL * (worth(captain) - worth(orcs))
    # round 1 of 1, player 1 moving: player 2's turn is still to come, and its charge counts fully
    assert evaluate(game, 1, 2) == material - threat
    # player 2's turn, the last: neither side acts again, only what is on the table counts
    game.state.active_player = 2
    assert turns_left(game, 1) == {1: 0, 2: 0}
    assert evaluate(game, 1, 1) == material


def test_a_volley_takes_the_expected_worth() -> None:
    """Ten archers (Quality 4+, one attack each) at Defense 5+ models worth 10 points each: 10 x 1/2 x 2/3 wounds,
    so about 33 points; never more than the target is worth (a lone model worth 100 loses at most 100)."""
    archers = make_unit("archers-1", 1, ARCHERS, 10, pose_with_front(ARCHERS, 10, 6.0, 0.0))
    orcs = make_unit("orcs-1", 2, ORCS, 10, pose_with_front(ORCS, 10, 20.0, 180.0))
    assert abs(volley(archers, orcs) - 10 * 0.5 * (2 / 3) * 10.0) < 1e-6
    few = make_unit("orcs-2", 2, ORCS, 1, pose_with_front(ORCS, 1, 20.0, 180.0))
    assert volley(archers, few) == worth(few) == 100.0


def test_a_general_and_a_banner_are_at_stake_beyond_their_cost() -> None:
    """Rulebook "Victory Conditions": a unit with a banner scores +50 once destroyed, routed or fled, the General
    +100 (for a player with a General of their own): the charge and shooting risks count them."""
    captain = make_unit("captain", 1, HERO, 1, pose_with_front(HERO, 1, 6.0, 0.0, x=36.0))
    orcs = make_unit("orcs-1", 2, ORCS, 10, pose_with_front(ORCS, 10, 40.0, 180.0, x=36.0),
                     upgrades=frozenset({"banner"}))
    boss = make_unit("boss", 2, HERO, 1, pose_with_front(HERO, 1, 44.0, 180.0, x=20.0))
    state = GameState("ai test", Table(), terrain=[], units={u.id: u for u in (captain, orcs, boss)},
                      generals={1: "captain", 2: "boss"})
    assert at_stake(captain, state) == worth(captain) + 100.0
    assert at_stake(orcs, state) == worth(orcs) + 50.0
    assert at_stake(orcs) == worth(orcs)                     # no state: the worth alone
    state.generals[2] = None                                 # an army without a General cannot score the bonus
    assert at_stake(captain, state) == worth(captain)
