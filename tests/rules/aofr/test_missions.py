"""AoF:R 2.16 "Extra Missions", "Mission Objectives" and "Side-Missions" under the activations of ``aofr-2.16``
and ``aofr-quick``: the mission decides the winner, or with side-missions victory points (game/engine/objectives.py,
game/engine/side_missions.py, game/engine/rulesets/aofr.py; docs/rulings.md "AoF:R 2.16"), with fixed dice."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from game.engine import objectives, side_missions
from game.engine.actions import Activate, Done, SelectSideMission
from game.engine.dice import Dice
from game.engine.events import Event
from game.engine.game import Game
from game.engine.objectives import fixed_markers
from game.engine.rulesets.aofr import SIDE_MISSION_RULES
from game.engine.side_missions import Pick, SideMissionState, completed
from game.engine.state import Objective, Removal, Table
from game.scenario import load_scenario_mapping, new_game_state
from game.state_file import state_to_dict
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.aofr_quick.helpers import quick_game

ROOT = Path(__file__).resolve().parents[3]
SKIRMISH = ROOT / "scenarios" / "tests" / "aofr_skirmish.yaml"


def last_round(mission: str, markers: list[Objective], quick: bool = False, x: float = 36.0) -> Game:
    """Round 4 with one unit a side (player 1's ``a`` at the south, ``x`` inches from the west edge, player 2's
    ``b`` at the north), the mission ``mission`` and its markers placed."""
    a, b = unit("a", 1, x=x), unit("b", 2, front_y=44)
    game = (quick_game if quick else aofr_game)([a, b], round_=4)
    game.state.mission = mission
    game.state.objectives = markers
    return game


def play_the_round(game: Game) -> list[Event]:
    """Both units activate and stay idle: the round ends, markers are seized, the game ends."""
    events: list[Event] = []
    for player, uid in ((1, "a"), (2, "b")):
        game.apply(Activate(player, uid))
        events += game.apply(Done(player))
    assert game.state.game_over and game.pending is None
    return events


def near_a(game: Game) -> tuple[float, float]:
    """A point 3.5" ahead of unit a's centre (within 3" of its front edge)."""
    pose = game.state.units["a"].pose
    assert pose is not None
    return pose.x, pose.y + 3.5


def verdict(events: list[Event]) -> str:
    return next(e.text for e in events if e.kind == "victory")


# --- the missions decide the winner -----------------------------------------------------------------------------


@pytest.mark.parametrize("quick", [False, True])
def test_relic_hunt_the_marker_seized_is_carried_and_counts_for_its_carrier(quick: bool) -> None:
    """"Relic Hunt": "If a unit seizes a marker, remove it from the table, and it counts as being carried by the
    unit ... the player that controls most markers wins" (the quick rules play the same missions)."""
    game = last_round("relic_hunt", [], quick)
    game.state.objectives = [Objective(*near_a(game)), Objective(60.0, 24.0), Objective(10.0, 24.0)]
    events = play_the_round(game)
    marker = game.state.objectives[0]
    assert marker.carried_by == "a" and marker.controller == 1
    assert game.victory_points() == {1: 1, 2: 0} and game.ruleset.winner() == 1
    assert "1 to 0 objective markers, player 1 wins" in verdict(events)
    assert game.victory_breakdown()[1] == [("objective marker 1 carried", 1)]


def test_relic_hunt_a_destroyed_carrier_drops_the_marker_on_the_spot() -> None:
    """"Relic Hunt": "If the unit is destroyed at any point, the marker is dropped on the spot" (neutral again)."""
    game = last_round("relic_hunt", [Objective(10.0, 24.0, controller=1, carried_by="a")])
    a = game.state.units["a"]
    assert a.pose is not None
    game.state.remove(a, Removal.DESTROYED)
    assert (game.state.objectives[0].x, game.state.objectives[0].y) == pytest.approx(a.pose.xy)
    assert game.victory_points() == {1: 0, 2: 0} and game.ruleset.winner() is None


def test_sabotage_destroying_the_enemy_marker_and_keeping_ones_own_wins() -> None:
    """"Sabotage": "if at any point a unit seizes the enemy objective marker, then the marker is destroyed ... the
    player that managed to destroy the enemy marker whilst keeping their own marker intact wins"."""
    game = last_round("sabotage", [])
    game.state.objectives = [Objective(10.0, 12.0, 1, 1, 1), Objective(*near_a(game), 2, 2, 2)]
    events = play_the_round(game)
    assert game.state.objectives[1].destroyed and not game.state.objectives[0].destroyed
    assert game.victory_points() == {1: 2, 2: 0} and game.ruleset.winner() == 1
    assert game.ruleset.score_names() == ("Sabotage points (enemy marker destroyed, own marker kept)", "points")
    assert "player 1 wins" in verdict(events)


def test_sabotage_both_markers_destroyed_is_a_draw() -> None:
    """"Sabotage": only destroying the enemy marker *whilst keeping one's own intact* wins: both destroyed (or both
    kept) leaves nobody the winner."""
    game = last_round("sabotage", [])
    b = game.state.units["b"].pose
    assert b is not None
    game.state.objectives = [Objective(b.x, b.y - 3.5, 1, 1, 1), Objective(*near_a(game), 2, 2, 2)]
    events = play_the_round(game)
    assert all(o.destroyed for o in game.state.objectives)
    assert game.victory_points() == {1: 1, 2: 1} and game.ruleset.winner() is None
    assert "the game is a draw" in verdict(events)


def test_king_of_the_hill_the_player_who_controls_the_marker_wins() -> None:
    """"King of the Hill": "the player that controls the marker wins"; "Markers remain seized even if the unit
    moves away" (nobody within 3" at the end: it stays with player 2)."""
    game = last_round("king_of_the_hill", [Objective(36.0, 24.0, controller=2)])
    events = play_the_round(game)
    assert game.victory_points() == {1: 0, 2: 1} and game.ruleset.winner() == 2
    assert "0 to 1 objective markers, player 2 wins" in verdict(events)


@pytest.mark.parametrize("mission,count", [("seize_ground", 4), ("breakthrough", 2)])
def test_seize_ground_and_breakthrough_place_their_markers_and_most_markers_win(mission: str, count: int) -> None:
    """"Seize Ground": "place one marker at the center of each" of the 4 quarters of the non-deployment area;
    "Breakthrough": "at the center of each player's deployment zone, 12" away from the table edge"; "the player
    that controls most markers wins"."""
    markers = fixed_markers(mission, Table())
    assert len(markers) == count
    markers[0].controller = 2
    game = last_round(mission, markers, x=6.0)     # nobody within 3" of a marker at the end
    play_the_round(game)
    assert game.ruleset.winner() == 2


def _scenario(**changes: object) -> dict:
    """The AoF:R skirmish scenario deployed in the game (no start, no poses, no markers), with ``changes``."""
    data = yaml.safe_load(SKIRMISH.read_text())
    data.pop("start")
    data.pop("objectives")
    for army in data["armies"]:
        for u in army["units"]:
            u.pop("pose")
    data.update(changes)
    return data


@pytest.mark.parametrize("die,mission", list(enumerate(objectives.RANDOM_MISSIONS, start=1)))
def test_random_mission_one_die_picks_it(die: int, mission: str) -> None:
    """"Random Mission Selection": "simply roll one die: 1. Duel 2. Seize Ground 3. Relic Hunt 4. Sabotage
    5. Breakthrough 6. King of the Hill" (the first die of the game with the Front Line deployment)."""
    s = new_game_state(load_scenario_mapping(_scenario(mission="random"), SKIRMISH))
    game = Game.start(s, Dice(sequence=[die] + [3, 2, 5, 1, 4, 6] * 10))
    assert game.state.mission == mission
    assert any(e.kind == "objective" and objectives.MISSIONS[mission].name in e.text for e in game.log)
    assert len(game.state.objectives) == {"seize_ground": 4, "breakthrough": 2}.get(mission, 0)


# --- side-missions: victory points instead of the mission's conditions -------------------------------------------


def test_with_side_missions_victory_points_decide_not_the_mission() -> None:
    """"Playing with Side-Missions": "the scoring at the end of the game is done using a Victory Points (VP) system,
    instead of winning based on the mission's conditions": "Duel - 1 VP per controlled marker" and "1 VP for each
    side-mission that they completed". Player 2 holds the only marker (the mission alone would make them win),
    player 1 completed their hidden Conserve: 1 VP each, a draw."""
    game = last_round("standard", [Objective(36.0, 24.0, controller=2)])
    game.state.side_missions = SideMissionState("hidden", "free", [Pick("conserve", 1, True),
                                                                   Pick("attrition", 2, True)],
                                                rules=SIDE_MISSION_RULES)
    events = play_the_round(game)
    assert game.victory_breakdown() == {1: [("hidden side-mission Conserve completed", 1)],
                                        2: [("objective marker 1 held", 1)]}
    assert game.ruleset.winner() is None and game.ruleset.score_names() == ("victory points", "VP")
    assert "1 to 1 victory points, the game is a draw" in verdict(events)
    assert any(e.kind == "side_mission" and "Conserve" in e.text for e in events)   # revealed at the end


def test_king_of_the_hill_is_worth_two_victory_points_with_side_missions() -> None:
    """"Side-Missions": "King of the Hill - 2VP for controlling the marker"; a shared side-mission completed by both
    scores for both."""
    game = last_round("king_of_the_hill", [])
    game.state.objectives = [Objective(*near_a(game))]
    game.state.side_missions = SideMissionState("shared", "free", [Pick("conserve", 1, False)],
                                                rules=SIDE_MISSION_RULES)
    play_the_round(game)
    assert game.victory_points() == {1: 3, 2: 1} and game.ruleset.winner() == 1


def test_terrify_under_activations_is_any_rout() -> None:
    """"Terrify - Enemy unit routs in melee": AoF:R 2.16 "Morale": a unit routs only when it fails the morale test
    of a lost melee, fought within an activation (docs/rulings.md "AoF:R 2.16")."""
    game = last_round("standard", [])
    s = game.state
    s.side_missions = SideMissionState("shared", "free", [Pick("terrify", 1, False)], rules=SIDE_MISSION_RULES)
    assert not completed(s, "terrify", 1)
    s.remove(s.units["b"], Removal.ROUTED)
    assert completed(s, "terrify", 1) and not completed(s, "terrify", 2)


@pytest.mark.parametrize("quick", [False, True])
def test_onslaught_reads_the_melee_result_of_an_activation(quick: bool) -> None:
    """"Onslaught - Won melee by 3+ wounds": the wounds caused of the melee result (not full rows, Fear or the
    Musician: docs/rulings.md), as the ruleset reads its own melee events (``Ruleset.melee_wins``)."""
    game = last_round("standard", [], quick)
    s = game.state
    s.side_missions = SideMissionState("shared", "free", [Pick("onslaught", 1, False)], rules=SIDE_MISSION_RULES)
    won_by = {"units": ["a", "b"], "winner": 1, "scores": {"a": 6, "b": 1}}
    assert game.ruleset.melee_wins([Event("melee", "", {**won_by, "caused": {"a": 4, "b": 2}})]) == [(1, 2)]
    side_missions.observe(s, game.ruleset.melee_wins([Event("melee", "", {**won_by, "caused": {"a": 4, "b": 2}})]))
    s.game_over = True
    assert not completed(s, "onslaught", 1)
    side_missions.observe(s, game.ruleset.melee_wins([Event("melee", "", {**won_by, "caused": {"a": 5, "b": 2}})]))
    assert completed(s, "onslaught", 1)


def test_hidden_side_missions_are_selected_in_an_aofr_game_and_stay_in_their_seat() -> None:
    """"Hidden - Each player selects 1 side-mission in secret": selected before the markers, under AoF:R 2.16; each
    seat's state file names only its own until the game is over; Sorcerer Supreme is never offered (the core
    rules cast no spells: it cannot be completed); each is worth 1 VP."""
    data = _scenario(side_missions={"playstyle": "hidden", "selection": "free"})
    game = Game.start(new_game_state(load_scenario_mapping(data, SKIRMISH)), Dice(sequence=[1, 6, 3, 2, 5, 4] * 5))
    assert game.pending is not None and (game.pending.decision, game.pending.player) == ("select_side_mission", 1)
    assert "sorcerer_supreme" not in side_missions.offered(game.state)
    game.apply(SelectSideMission(1, "conserve"))
    game.apply(SelectSideMission(2, "attrition"))
    assert game.pending is not None and game.pending.decision == "choose_objective_order"
    text = json.dumps([[e.text, e.data] for e in game.log], default=str)
    assert "Conserve" not in text and "Attrition" not in text and "worth 1 VP" in text
    seen = {seat: state_to_dict(game, seat=seat)["side_missions"]["picks"] for seat in (1, 2)}
    assert seen[1] == [{"player": 1, "hidden": True, "mission": "conserve"}, {"player": 2, "hidden": True}]
    assert seen[2] == [{"player": 1, "hidden": True}, {"player": 2, "hidden": True, "mission": "attrition"}]


def test_a_scenario_of_each_mission_and_side_mission_playstyle_loads_under_both_rulesets() -> None:
    """Every mission, ``random`` and every side-mission playstyle is accepted under ``aofr-2.16`` and ``aofr-quick``
    (what the set-up offers, ``Ruleset.missions``/``side_missions``); ``none`` is refused (no winner)."""
    for ruleset in ("aofr-2.16", "aofr-quick"):
        for mission in (*objectives.RANDOM_MISSIONS, "random"):
            load_scenario_mapping(_scenario(ruleset=ruleset, mission=mission), SKIRMISH)
        for style in side_missions.PLAYSTYLES:
            data = copy.deepcopy(_scenario(ruleset=ruleset, side_missions={"playstyle": style,
                                                                         "selection": "randomized"}))
            assert new_game_state(load_scenario_mapping(data, SKIRMISH)).side_missions.rules.vp == 1
