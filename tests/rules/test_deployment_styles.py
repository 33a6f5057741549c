"""Deployment styles (AoF:R 2.16 "Deployment Styles"; game/engine/deployment_styles.py; docs/rulings.md
"Deployment styles"), with fixed dice."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from shapely.affinity import rotate

from game.autoplay import play_out, state_is_consistent
from game.engine import deployment_styles, objectives
from game.engine.actions import ChooseDeployment, ChooseObjectiveOrder, Deploy, Done, PlaceObjective
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import Phase, Table
from game.scenario import ScenarioError, load_scenario_mapping, new_game_state
from geometry.pose import Pose

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "side_missions_open_field.yaml"
TABLE = Table(72.0, 48.0)


def scenario(**changes: object):
    """The side-missions test scenario with top-level keys changed (None removes one)."""
    data = yaml.safe_load(SCENARIO.read_text())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return load_scenario_mapping(data, SCENARIO)


def start(dice: list[int], **changes: object) -> Game:
    return Game.start(new_game_state(scenario(**changes)), Dice(sequence=dice))


@pytest.mark.parametrize("style", deployment_styles.RANDOM_STYLES)
def test_each_zone_is_an_army_sized_area_with_the_other_players_turned_half_round(style: str) -> None:
    """Ruling "Deployment styles": zones of 400 to 900 sq in, player 2's player 1's turned 180 degrees,
    at least 16" apart."""
    one, two = (deployment_styles.zone(style, TABLE, p) for p in (1, 2))
    assert 400 <= one.area <= 900
    assert one.symmetric_difference(rotate(two, 180, origin=(36, 24))).area < 1e-6
    assert one.distance(two) >= 16.0
    assert TABLE.width * TABLE.depth >= one.union(two).area


def test_front_line_is_the_standard_12_inch_strip() -> None:
    """"1. Front Line Note that this is the standard deployment from the core rules"."""
    assert deployment_styles.zone("front_line", TABLE, 1).bounds == (0, 0, 72, 12)
    assert deployment_styles.zone("front_line", TABLE, 2).bounds == (0, 36, 72, 48)


def test_random_style_is_rolled_first_then_the_mission() -> None:
    """"you must first roll to see which deployment style you will use, then roll for mission objectives, and only
    after you roll-off to see who picks where to deploy"."""
    game = start([2, 1, 6, 3, 4, 2], side_missions=None, mission="random")   # style 2, mission 1, D3+2...
    rolls = [r.purpose for r in game.dice.rolls]
    assert rolls[:2] == ["Random deployment style", "Random mission"]
    assert game.state.deployment_style == "long_haul" and game.state.mission == "standard"
    assert game.pending.decision == "choose_objective_order"


def _deploy_long_haul() -> Game:
    game = start([6, 3, 4, 2], side_missions=None, deployment="long_haul", objectives=[{"x": 36, "y": 24}])
    game.apply(ChooseDeployment(1, 1, "south"))
    while game.pending.decision == "set_aside":
        game.apply(Done(game.pending.player))
    return game


def test_long_haul_units_deploy_fully_within_12_inches_of_their_short_edge() -> None:
    """Ruling "Deployment styles": Long Haul, player 1 within 12" of the short edge x = 0."""
    game = _deploy_long_haul()
    assert game.pending.decision == "deploy" and game.pending.player == 1
    unit = game.state.units["crossbows-1"]
    refused = game.check_deploy(Deploy(1, unit.id, Pose(36.0, 5.0, 0.0)))   # Front Line's zone, not this one
    assert refused is not None and refused.rule == "Deploying Armies" and "Long Haul" in refused.message
    assert game.check_deploy(Deploy(1, unit.id, Pose(6.0, 24.0, 90.0))) is None
    game.apply(Deploy(1, unit.id, Pose(6.0, 24.0, 90.0)))
    assert game.state.units[unit.id].pose == Pose(6.0, 24.0, 90.0)


def test_markers_go_outside_the_zones_of_the_style_played() -> None:
    """"Then the players alternate in placing one marker each outside of the deployment zones": Long Haul frees the
    long edges and takes the short ones."""
    game = start([1, 6, 3], side_missions=None, deployment="long_haul")
    game.apply(ChooseObjectiveOrder(1, 1))
    inside = game.check_deploy(PlaceObjective(1, 6.0, 24.0))
    assert inside is not None and "outside the deployment zones" in inside.message
    assert game.check_deploy(PlaceObjective(1, 36.0, 4.0)) is None


def test_seize_ground_and_breakthrough_place_their_markers_from_the_zones() -> None:
    """"Divide the non-deployment zone area of the table into 4 equal quarters, and place one marker at the center
    of each"; Breakthrough "at the center of each player's deployment zone, 12" away from the table edge"."""
    front = [(o.x, o.y) for o in objectives.fixed_markers("seize_ground", TABLE)]
    assert front == [(18.0, 18.0), (54.0, 18.0), (18.0, 30.0), (54.0, 30.0)]
    haul = [(o.x, o.y) for o in objectives.fixed_markers("seize_ground", TABLE, "long_haul")]
    assert haul == [(24.0, 12.0), (48.0, 12.0), (24.0, 36.0), (48.0, 36.0)]
    assert [(o.x, o.y) for o in objectives.fixed_markers("breakthrough", TABLE)] == [(36.0, 12.0), (36.0, 36.0)]
    assert [(o.x, o.y) for o in objectives.fixed_markers("breakthrough", TABLE, "long_haul")] == \
        [(12.0, 24.0), (60.0, 24.0)]


def test_sabotage_line_follows_the_short_edge_in_long_haul() -> None:
    """Sabotage "1 objective marker each 12" away from their table edge": the home edge of Long Haul is short."""
    state = new_game_state(scenario(side_missions=None, deployment="long_haul", mission="sabotage"))
    assert objectives.placement_point(state, 1, 30.0, 20.0) == (12.0, 20.0)
    assert objectives.placement_point(state, 2, 30.0, 20.0) == (60.0, 20.0)


@pytest.mark.parametrize("value, words", [
    ("diagonal", "must be one of front_line"),
    (3, "must be"),
])
def test_a_bad_deployment_style_is_refused_with_file_line_path(value, words) -> None:
    with pytest.raises(ScenarioError) as e:
        scenario(deployment=value)
    text = str(e.value)
    assert "side_missions_open_field.yaml:" in text and "deployment" in text and words in text


def test_a_deployment_style_needs_a_scenario_that_deploys(tmp_path: Path) -> None:
    data = yaml.safe_load(SCENARIO.read_text())
    data["deployment"] = "ambush"
    data.pop("side_missions")
    data["objectives"] = [{"x": 36, "y": 24}]
    for i, army in enumerate(data["armies"]):
        army["units"] = [dict(u, pose={"x": 10 + 12 * j, "y": 6 if i == 0 else 42, "facing": 0 if i == 0 else 180})
                         for j, u in enumerate(army["units"])]
    with pytest.raises(ScenarioError, match="deployment: a deployment style is chosen before deployment"):
        load_scenario_mapping(data, SCENARIO)


@pytest.mark.parametrize("style", deployment_styles.RANDOM_STYLES)
def test_autoplay_deploys_in_every_style_and_keeps_the_invariants(style: str) -> None:
    """Every unit placed in deployment stands fully within its player's zone; whole games keep the invariants."""
    sc = scenario(deployment=style)
    zone = {p: deployment_styles.zone(style, TABLE, p).buffer(1e-6) for p in (1, 2)}
    placed: list[str] = []

    def check(g: Game, action: object) -> None:
        assert state_is_consistent(g.state) == []
        if isinstance(action, Deploy) and g.state.phase is Phase.DEPLOYMENT:
            unit = g.state.units[action.unit]
            assert zone[unit.player].covers(g.state.scene.footprint(unit.id)) or unit.has("Scout")
            placed.append(unit.id)

    for seed in (1, 2):
        game = Game.start(new_game_state(sc), Dice(seed=seed))
        play_out(game, seed, check)
        assert game.state.game_over
    assert len(placed) >= 10
