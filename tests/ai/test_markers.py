"""The computer opponent's objective markers before the battle (``game.ai.markers``; AoF:R 2.16 "Placing
Objectives", "Deploying Armies"): who places first, where its markers go, which edge it takes. Never timed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from shapely import Point

from game.ai import SearchPlayer, markers
from game.engine import deployment_styles
from game.engine.actions import ChooseDeployment, ChooseObjectiveOrder, PlaceObjective
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import Objective
from game.scenario import load_scenario, new_game_state

ROOT = Path(__file__).resolve().parents[2]
BORDER = ROOT / "scenarios" / "aofr_border_clash.yaml"


def _border(seed: int = 1) -> Game:
    """``aofr_border_clash.yaml`` (Front Line: player 1's zone is y <= 12 on a 72" x 48" table) at its first
    decision, the choice of who places the first marker (player 1 won that roll-off with seed 1)."""
    game = Game.start(new_game_state(load_scenario(BORDER)), Dice(seed=seed))
    assert game.pending is not None and game.pending.decision == "choose_objective_order"
    return game


def _lean(game: Game, player: int, x: float, y: float) -> float:
    p = Point(x, y)
    return (deployment_styles.zone_of(game.state, 3 - player).distance(p)
            - deployment_styles.zone_of(game.state, player).distance(p))


def test_the_computer_places_the_first_marker() -> None:
    """"The winner picks who places the first objective marker": itself (D3+2 markers: an odd count gives the
    first placer one more)."""
    game = _border()
    action = SearchPlayer(5).choose(game)
    assert action == ChooseObjectiveOrder(1, 1)


@pytest.mark.parametrize("player", [1, 2])
def test_its_markers_go_on_its_own_side_and_are_legal(player: int) -> None:
    """Each marker it places is legal (outside both zones, over 9" from the others: the engine's check) and nearer
    its own deployment zone than the other side's; the second keeps the 9" spacing from the first."""
    game = _border()
    game.apply(ChooseObjectiveOrder(1, player))
    player_ai = SearchPlayer(7)
    for _ in range(2):
        assert game.pending is not None and game.pending.decision == "place_objective"
        me = game.pending.player
        action = player_ai.choose(game) if me == player else markers.place_marker(game, me, random.Random(3))
        assert isinstance(action, PlaceObjective)
        assert game.check_deploy(action) is None
        if me == player:
            assert _lean(game, player, action.x, action.y) > 12.0
        game.apply(action)


def test_the_roll_off_winner_takes_the_edge_the_markers_lean_to() -> None:
    """"The winner picks the edge": its own edge when the markers lie on its side of the table as laid out, the
    other edge when they lie on the other side (the table then turns 180 degrees and brings them to its zone), the
    first edge offered when they lie evenly; a marker a player owns (Sabotage) does not count."""
    game = _border()
    s = game.state
    options = ("south", "north")
    s.objectives = [Objective(20.0, 14.0), Objective(50.0, 16.0), Objective(36.0, 34.0)]
    assert markers.deployment_edge(s, 1, options) == "south"
    assert markers.deployment_edge(s, 2, options) == "south"      # player 2's own edge is north
    s.objectives = [Objective(20.0, 34.0), Objective(50.0, 32.0), Objective(36.0, 14.0)]
    assert markers.deployment_edge(s, 1, options) == "north"
    s.objectives = [Objective(20.0, 14.0), Objective(50.0, 34.0)]
    assert markers.edge_lean(s, 1) == pytest.approx(0.0)
    assert markers.deployment_edge(s, 2, options) == "south"       # evenly: the first offered
    s.objectives = [Objective(20.0, 34.0, owner=2, placed_by=2, controller=2)]
    assert markers.edge_lean(s, 1) == 0.0
    assert markers.deployment_edge(s, 1, ()) is None               # fixed edges


def test_the_computer_takes_the_edge_of_its_markers_when_it_wins_the_deployment_roll_off() -> None:
    """Played through: the computer places the first marker and its markers on its side; when it wins the
    deployment roll-off it chooses the edge the markers lean to."""
    for seed in range(1, 12):
        game = _border(seed)
        me = game.pending.player if game.pending is not None else 1
        players = {me: SearchPlayer(seed), 3 - me: SearchPlayer(seed + 100)}
        while game.pending is not None and game.pending.decision in ("choose_objective_order", "place_objective"):
            game.apply(players[game.pending.player].choose(game))
        assert game.pending is not None and game.pending.decision == "choose_deployment"
        winner = game.pending.player
        choice = players[winner].choose(game)
        assert isinstance(choice, ChooseDeployment)
        lean = markers.edge_lean(game.state, winner)
        own = "south" if winner == 1 else "north"
        if lean > 0:
            assert choice.edge == own
        elif lean < 0:
            assert choice.edge != own


def test_the_log_says_why_the_markers_went_where_they_did() -> None:
    """The window's log gives each set-up answer's reason ("shows why"): the first marker, its side of the table,
    the edge of the markers; an edge chosen with the markers lying evenly has none of these words."""
    game = _border()
    assert "first marker" in (markers.reason(game, ChooseObjectiveOrder(1, 1)) or "")
    game.apply(ChooseObjectiveOrder(1, 1))
    assert markers.reason(game, PlaceObjective(1, 36.0, 13.0)) == \
        "on its own side of the table: 22\" nearer its deployment zone than the enemy's"
    assert markers.reason(game, PlaceObjective(1, 36.0, 30.0)) is None
    game.state.objectives = [Objective(20.0, 34.0), Objective(50.0, 32.0)]
    assert "north edge" in (markers.reason(game, ChooseDeployment(1, 2, "north")) or "")
    game.state.objectives = []
    assert markers.reason(game, ChooseDeployment(1, 2, "south")) is None
