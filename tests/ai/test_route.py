"""Routes round impassable terrain for the computer opponent's moves (game/ai/route.py; rulebook "Impassable
Terrain", "Advance": one pivot up to 90 degrees or two up to 45)."""

from __future__ import annotations

import math
from pathlib import Path

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.candidates import _route_move, allowances
from game.ai.route import detour, route
from game.engine.dice import Dice
from game.engine.game import Game
from game.players import make_player
from game.scenario import load_scenario, new_game_state
from geometry.pose import Pose, bearing_difference, bearing_to
from geometry.scene_data import SceneData
from geometry.terrain import TerrainShape

ROOT = Path(__file__).resolve().parents[2]
BLOCK = ((30.0, 20.0), (40.0, 20.0), (40.0, 28.0), (30.0, 28.0))


def _scene() -> SceneData:
    return SceneData(72.0, 48.0, [TerrainShape(0, "Mill", BLOCK, frozenset({"impassable"}))])


def test_a_free_straight_way_needs_no_route() -> None:
    assert route(_scene(), (10.0, 10.0), (60.0, 10.0), 2.5) is None
    assert detour(_scene(), (10.0, 10.0), (60.0, 10.0), 2.5) == 0.0


def test_the_route_goes_round_the_piece_and_ends_at_the_goal() -> None:
    pts = route(_scene(), (35.0, 10.0), (35.0, 40.0), 2.5)
    assert pts is not None and pts[-1] == (35.0, 40.0) and len(pts) >= 2
    # the first way point is beside the piece, at least the radius off it
    assert abs(pts[0][0] - 35.0) >= 5.0 + 2.5
    assert detour(_scene(), (35.0, 10.0), (35.0, 40.0), 2.5) > 5.0


@settings(max_examples=40, deadline=None)
@given(st.floats(3.0, 69.0), st.floats(3.0, 17.0), st.floats(3.0, 69.0), st.floats(31.0, 45.0))
def test_no_leg_of_a_route_enters_the_grown_piece(x0: float, y0: float, x1: float, y1: float) -> None:
    scene = _scene()
    pts = route(scene, (x0, y0), (x1, y1), 2.0)
    grown = shapely.buffer(shapely.Polygon(BLOCK), 2.0 - 0.01, join_style="mitre")
    legs = [(x0, y0), *(pts or [(x1, y1)])]
    for a, b in zip(legs, legs[1:], strict=False):
        assert not shapely.LineString([a, b]).intersects(grown)


def test_a_move_toward_a_goal_behind_the_burnt_mill_goes_round_it() -> None:
    """The Host's Brutes (default.yaml) aiming past the Burnt Mill: the move the engine accepts goes round."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "default.yaml")), Dice(seed=3))
    players = {1: make_player("simple", 1), 2: make_player("simple", 2)}
    while game.pending is not None and not (game.pending.decision == "move" and game.pending.player == 2):
        game.apply(players[game.pending.player].choose(game))
    brutes = game.state.units["brutes-1"]
    assert brutes.pose is not None and brutes.pose.xy == (22.5, 41.0)
    goal = (18.0, 20.0)     # straight there crosses the Mill (x 16-20, y 33-37) grown by the Brutes' size
    assert route(game.state.scene, brutes.pose.xy, goal, 2.75) is not None
    move = _route_move(game, brutes, "rush", goal, allowances(brutes)[1])     # Slow: a Rush of 8"
    assert move is not None and game.check_move(move) is None
    end = move.path[-1]
    assert end.x > 20.0 + 2.0          # east of the Mill: round it
    assert math.dist(end.xy, goal) < math.dist(brutes.pose.xy, goal)


def test_a_unit_facing_away_from_its_way_round_steps_there_sideways() -> None:
    """The Host's Spearmen (default.yaml) beside the Burnt Mill, turned east toward it, with the way round the
    Mill's west side behind their flank (more than the one 90-degree pivot of an Advance away): they step sideways
    or back toward it (rulebook "Advance": up to half the move) instead of only edging along the Mill."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "default.yaml")), Dice(seed=3))
    players = {1: make_player("simple", 1), 2: make_player("simple", 2)}
    while game.pending is not None and not (game.pending.decision == "move" and game.pending.player == 2):
        game.apply(players[game.pending.player].choose(game))
    s = game.state
    spearmen = s.units["spearmen-1"]
    s.place(spearmen, Pose(17.275, 41.596, 108.0))
    goal = (14.5, 16.0)
    pts = route(s.scene, (17.275, 41.596), goal, 2.75)
    assert pts is not None and pts[0][0] < 15.0        # round the Mill's west side, first way point behind
    move = _route_move(game, spearmen, "advance", goal, allowances(spearmen)[0])
    assert move is not None and game.check_move(move) is None
    end = move.path[-1]
    assert math.dist(end.xy, pts[0]) < math.dist((17.275, 41.596), pts[0]) - 2.0
    assert abs(bearing_difference(end.facing, bearing_to(end.xy, goal))) < 45.0   # and turned toward the way on


def test_a_route_graph_built_in_a_clone_serves_the_game_and_its_other_clones(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The graph depends on the terrain alone: built once in a look-ahead clone's scene (``SceneData.shared``), it
    is not built again for the scene it was copied from nor for that scene's other copies."""
    import game.ai.route as route_module

    scene = _scene()
    built: list[float] = []
    original_buffer = route_module.shapely.buffer

    def counting_buffer(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1.0)
        return original_buffer(*args, **kwargs)

    monkeypatch.setattr(route_module.shapely, "buffer", counting_buffer)
    first = route(scene.copy(), (35.0, 10.0), (35.0, 40.0), 2.5)
    grown = len(built)
    assert grown > 0                # the piece was grown for the graph
    assert route(scene, (35.0, 10.0), (35.0, 40.0), 2.5) == first
    assert route(scene.copy(), (34.0, 10.0), (36.0, 40.0), 2.5) is not None
    assert len(built) == grown      # and never again
