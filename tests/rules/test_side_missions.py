"""Side-missions (AoF:R 2.16 "Side-Missions", 100 VP each by AoWFBR 1.4 "Victory Points"; game/engine/
side_missions.py; docs/rulings.md "Side-missions"), with fixed dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from game.autoplay import play_out
from game.engine import side_missions
from game.engine.actions import SelectSideMission
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.rulesets.aowfbr import AoWFBR
from game.engine.side_missions import Pick, SideMissionState, completed
from game.engine.state import GameState, Objective, Phase, Removal, Step
from game.engine.victory import victory_breakdown
from game.scenario import ScenarioError, load_scenario_mapping, new_game_state
from game.state_file import state_to_dict
from geometry.pose import Pose

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "side_missions_open_field.yaml"
LOREMASTER = {"id": "loremaster", "profile": "Canton Loremaster", "models": 1}


def scenario(playstyle: str = "hidden", selection: str = "free", caster: bool = False, **changes: object):
    """The test scenario with the side-missions given (and player 1's Loremaster, a caster hero, if asked)."""
    data = yaml.safe_load(SCENARIO.read_text())
    data["side_missions"] = {"playstyle": playstyle, "selection": selection}
    data["deployment"] = "front_line"
    data.update(changes)
    if caster:
        data["armies"][0]["units"].append(dict(LOREMASTER))
    return load_scenario_mapping(data, SCENARIO)


def start(dice: list[int], **kwargs: object) -> Game:
    return Game.start(new_game_state(scenario(**kwargs)), Dice(sequence=dice))


# --- selecting -----------------------------------------------------------------------------------------------------


def test_hidden_free_each_player_selects_in_secret_and_the_log_never_names_it() -> None:
    """"Hidden - Each player selects 1 side-mission in secret"; "Free - Players may freely select any side-mission
    from any of the categories"."""
    game = start([1, 6, 3])
    assert game.pending.decision == "select_side_mission" and game.pending.player == 1
    assert game.state.step is Step.SIDE_MISSION
    assert game.pending.options == ()                   # a hidden selection shows no options to the other seat
    assert "conserve" in side_missions.offered(game.state) and "ground_war" in side_missions.offered(game.state)
    game.apply(SelectSideMission(1, "ground_war"))
    assert game.pending.decision == "select_side_mission" and game.pending.player == 2
    game.apply(SelectSideMission(2, "head_hunter"))
    assert game.pending.decision == "choose_objective_order"     # then the markers (D3+2 = 3, roll-off 6-3)
    text = json.dumps([[e.text, e.data] for e in game.log], default=str)
    assert "ground_war" not in text and "Ground War" not in text and "Head Hunter" not in text
    assert [(p.mission, p.player, p.hidden) for p in game.state.side_missions.picks] == \
        [("ground_war", 1, True), ("head_hunter", 2, True)]


def test_each_seat_sees_only_its_own_hidden_side_mission() -> None:
    game = start([1, 6, 3])
    game.apply(SelectSideMission(1, "ground_war"))
    game.apply(SelectSideMission(2, "head_hunter"))
    s = game.state
    assert [p and p.mission for p in side_missions.visible_picks(s, 1)] == ["ground_war", None]
    assert [p and p.mission for p in side_missions.visible_picks(s, 2)] == [None, "head_hunter"]
    assert side_missions.visible_picks(s, None) == [None, None]
    written = state_to_dict(game)["side_missions"]
    assert written == {"playstyle": "hidden", "selection": "free",
                       "picks": [{"player": 1, "hidden": True}, {"player": 2, "hidden": True}]}
    assert state_to_dict(game, seat=1)["side_missions"]["picks"][0]["mission"] == "ground_war"


def test_shared_side_missions_are_open_and_both_players_can_complete_them() -> None:
    """"Shared - Each player selects 1 side-mission openly, both players can complete any of the side-missions"."""
    game = start([1, 6, 3], playstyle="shared")
    assert set(game.pending.options) == set(side_missions.offered(game.state))
    game.apply(SelectSideMission(1, "conserve"))
    assert "Conserve" in game.log[-1].text
    game.apply(SelectSideMission(2, "attrition"))
    s = game.state
    s.game_over = True
    lines = {p: [t for t, _ in victory_breakdown(s)[p] if "side-mission" in t] for p in (1, 2)}
    # Nobody lost a unit: both keep 50% alive (Conserve), neither killed 50% (Attrition).
    assert lines == {1: ["shared side-mission Conserve completed"], 2: ["shared side-mission Conserve completed"]}


def test_shared_plus_hidden_rolls_off_for_the_shared_one_then_each_selects_in_secret() -> None:
    """"Shared + Hidden - Players roll-off, and the winner selects 1 side-mission openly ... Then each player
    selects 1 side-mission in secret"."""
    game = start([2, 5, 1, 6, 3], playstyle="shared_hidden")     # roll-off 2 v 5: player 2 selects first
    assert game.pending.player == 2 and game.pending.options != ()
    game.apply(SelectSideMission(2, "seize"))
    assert (game.pending.player, game.pending.options) == (1, ())
    game.apply(SelectSideMission(1, "overrun"))
    assert game.pending.player == 2
    game.apply(SelectSideMission(2, "defend"))
    assert [(p.mission, p.player, p.hidden) for p in game.state.side_missions.picks] == \
        [("seize", 2, False), ("overrun", 1, True), ("defend", 2, True)]


def test_limited_rolls_a_d3_category_then_the_player_picks_in_it() -> None:
    """"Limited - Players must roll a D3 to get a category, and may then freely select any side-mission"."""
    game = start([3, 6, 1, 6, 3], playstyle="shared", selection="limited")  # D3 = 2 (a 3); player 2 D3 = 3 (a 6)
    assert game.pending.options == ("dominate", "ground_war", "overrun", "defend", "invade", "seize")
    with pytest.raises(IllegalAction, match="Tactical Genius"):
        game.apply(SelectSideMission(1, "conserve"))
    game.apply(SelectSideMission(1, "invade"))
    # Heroic Intervention for player 2, who has a hero but no caster: Sorcerer Supreme cannot be completed.
    assert game.pending.options == ("slay", "sacrifice", "head_hunter", "ancient_heirlooms", "secret_mission")


def test_randomized_rerolls_a_side_mission_that_cannot_be_completed() -> None:
    """"Randomized - ... roll a D3 to get a random category, and then roll a D6 to get a side-mission"; "if you roll
    a side-mission that cannot be completed, then you must re-roll until you get one that can be"."""
    # Player 1: D3 = 3 (a 6), D6 4 = Sorcerer Supreme (no caster: re-roll), D6 1 = Slay.
    # Player 2: D3 = 1 (a 2), D6 3 = Obliterate. Then the markers: D3+2 = 3 (a 1), roll-off 6-3.
    game = start([6, 4, 1, 2, 3, 1, 6, 3], selection="randomized")
    assert [(p.mission, p.player) for p in game.state.side_missions.picks] == [("slay", 1), ("obliterate", 2)]
    assert game.pending.decision == "choose_objective_order"
    text = " ".join(e.text for e in game.log)
    assert "Slay" not in text and "Obliterate" not in text and "Sorcerer" not in text


def test_randomized_rerolls_the_category_when_none_of_it_can_be_completed() -> None:
    """Ruling "Side-missions": no hero on either side, so Heroic Intervention is rolled again."""
    data = yaml.safe_load(SCENARIO.read_text())
    data["side_missions"] = {"playstyle": "shared", "selection": "randomized"}
    data["deployment"] = "front_line"
    for army in data["armies"]:
        army["units"] = [u for u in army["units"] if u["id"] not in ("landvogt", "cinder-lord")]
        army.pop("general")
    game = Game.start(new_game_state(load_scenario_mapping(data, SCENARIO)), Dice(sequence=[5, 1, 1, 3, 2, 1, 6, 3]))
    assert [p.mission for p in game.state.side_missions.picks] == ["conserve", "ground_war"]
    assert any("Side-mission category: player 1: 5" in e.text for e in game.log)     # shared rolls are shown


def test_a_selection_out_of_turn_or_unknown_changes_nothing() -> None:
    game = start([1, 6, 3])
    before = len(game.state.side_missions.picks)
    with pytest.raises(IllegalAction, match="no side-mission"):
        game.apply(SelectSideMission(1, "glory"))
    with pytest.raises(IllegalAction, match="player 1 must decide"):
        game.apply(SelectSideMission(2, "conserve"))
    with pytest.raises(IllegalAction, match="cannot be completed"):
        game.apply(SelectSideMission(1, "sorcerer_supreme"))     # player 1 has no caster
    assert len(game.state.side_missions.picks) == before and game.pending.player == 1


@pytest.mark.parametrize("value, path", [
    ({"playstyle": "secret", "selection": "free"}, "side_missions.playstyle"),
    ({"playstyle": "shared", "selection": "draft"}, "side_missions.selection"),
    ({"playstyle": "shared"}, "side_missions.selection"),
    ("shared", "side_missions"),
])
def test_bad_side_missions_are_refused_with_file_line_path(value, path) -> None:
    data = yaml.safe_load(SCENARIO.read_text())
    data["side_missions"] = value
    with pytest.raises(ScenarioError) as e:
        load_scenario_mapping(data, SCENARIO)
    assert f"side_missions_open_field.yaml:1: {path}:" in str(e.value)


# --- scoring at the end of the game --------------------------------------------------------------------------------


def ended(caster: bool = False) -> GameState:
    """Every unit deployed along its own edge, the game over, no side-mission picked yet."""
    s = new_game_state(scenario(caster=caster))
    for player in (1, 2):
        units = [u for u in s.units.values() if u.player == player]
        for i, u in enumerate(units):
            y = 6.0 if player == 1 else 42.0
            s.place(u, Pose(8.0 + 14.0 * i, y, 0.0 if player == 1 else 180.0))
    s.side_missions = SideMissionState("shared", "free")
    s.phase = Phase.RALLY
    s.game_over = True
    return s


def test_conserve_and_attrition_count_units_out_of_the_game() -> None:
    """Conserve "At least 50% of friendly units alive"; Attrition "At least 50% of enemy units killed"."""
    s = ended()
    enemy = [u for u in s.units.values() if u.player == 2]
    for u in enemy[:2]:
        s.remove(u, Removal.DESTROYED)
    assert completed(s, "conserve", 2) and not completed(s, "attrition", 1)   # 3 of 5 alive; 2 of 5 killed
    s.remove(enemy[2], Removal.FLED)
    assert not completed(s, "conserve", 2) and completed(s, "attrition", 1)


def test_obliterate_needs_three_kills_in_one_round() -> None:
    """Obliterate "Killed 3+ enemy units in one round"."""
    s = ended()
    enemy = [u for u in s.units.values() if u.player == 2]
    for rnd, u in zip((1, 2, 2), enemy, strict=False):
        s.round = rnd
        s.remove(u, Removal.DESTROYED)
    assert not completed(s, "obliterate", 1)
    s.remove(enemy[3], Removal.ROUTED)
    assert completed(s, "obliterate", 1)


def test_terrify_is_a_rout_in_the_close_combat_phase() -> None:
    """Terrify "Enemy unit routs in melee"."""
    s = ended()
    enemy = [u for u in s.units.values() if u.player == 2]
    s.phase = Phase.MOVEMENT
    s.remove(enemy[0], Removal.ROUTED)       # run down after fleeing from a charge: not in melee
    assert not completed(s, "terrify", 1)
    s.phase = Phase.CLOSE_COMBAT
    s.remove(enemy[1], Removal.ROUTED)
    assert completed(s, "terrify", 1) and not completed(s, "terrify", 2)


def test_onslaught_is_a_melee_won_by_three_more_wounds() -> None:
    """Onslaught "Won melee by 3+ wounds" (ruling: the wounds of the melee resolution)."""
    s = ended()

    def resolution(winner: int, w1: int, w2: int, total1: int, total2: int) -> Event:
        return Event("resolution", "", {"winner": winner, "scores": {1: {"wounds": w1, "total": total1},
                                                                     2: {"wounds": w2, "total": total2}}})
    rules = object.__new__(AoWFBR)     # AoWFBR's reading of its resolution events needs no game
    side_missions.observe(s, rules.melee_wins([resolution(1, 4, 2, 9, 2)]))    # won by 7 points, but by 2 wounds
    assert not completed(s, "onslaught", 1)
    side_missions.observe(s, rules.melee_wins([resolution(2, 1, 4, 1, 6)]))
    assert completed(s, "onslaught", 2) and not completed(s, "onslaught", 1)


def test_ground_war_overrun_defend_and_invade_read_the_table() -> None:
    s = ended()
    pikes, spears = s.units["pikemen-1"], s.units["spearmen-1"]
    assert completed(s, "ground_war", 1) and completed(s, "defend", 1) and not completed(s, "invade", 1)
    s.place(spears, Pose(36.0, 27.0, 180.0))          # within 6" of the centre
    assert not completed(s, "ground_war", 1)
    s.place(spears, Pose(60.0, 6.0, 180.0))          # fully inside player 1's zone
    assert not completed(s, "defend", 1) and completed(s, "invade", 2)
    assert not completed(s, "overrun", 1)
    for uid, xy in (("pikemen-1", (15.0, 8.0)), ("crossbows-1", (55.0, 16.0)), ("scouts-1", (15.0, 36.0)),
                    ("hunters-1", (60.0, 40.0))):
        s.place(s.units[uid], Pose(*xy, 0.0))
    assert completed(s, "overrun", 1)
    assert pikes.on_table


def test_dominate_and_seize_read_the_markers() -> None:
    s = ended()
    s.objectives = [Objective(20, 24, 1), Objective(40, 24, 2), Objective(60, 24, 1)]
    assert completed(s, "seize", 1) and not completed(s, "seize", 2) and not completed(s, "dominate", 1)
    s.objectives[1].controller = None
    assert completed(s, "dominate", 1) and completed(s, "dominate", 2) is False


def test_heroes_slay_head_hunter_sacrifice_and_sorcerer_supreme() -> None:
    """Slay, Head Hunter, Sacrifice, Sorcerer Supreme "Enemy hero killed by spell" (ruling: in a strategy
    phase)."""
    s = ended(caster=True)
    lord = s.units["cinder-lord"]
    assert not completed(s, "slay", 1) and not completed(s, "head_hunter", 1)
    s.phase = Phase.SHOOTING
    s.remove(lord, Removal.DESTROYED)
    assert completed(s, "slay", 1) and completed(s, "head_hunter", 1) and completed(s, "sacrifice", 2)
    assert not completed(s, "sorcerer_supreme", 1)
    s2 = ended(caster=True)
    s2.phase = Phase.STRATEGY_2
    s2.remove(s2.units["cinder-lord"], Removal.DESTROYED)
    assert completed(s2, "sorcerer_supreme", 1)
    assert not completed(s2, "sorcerer_supreme", 2)     # player 2 has no caster: it cannot be completed


def test_ancient_heirlooms_and_secret_mission_place_a_hero() -> None:
    """Ancient Heirlooms "Friendly hero within 6" of the center"; Secret Mission "Friendly hero within 3" of enemy
    table edge inside deployment zone"."""
    s = ended()
    lord = s.units["landvogt"]
    assert not completed(s, "ancient_heirlooms", 1) and not completed(s, "secret_mission", 1)
    s.place(lord, Pose(38.0, 27.0, 0.0))
    assert completed(s, "ancient_heirlooms", 1)
    s.place(lord, Pose(66.0, 46.0, 0.0))
    assert completed(s, "secret_mission", 1)
    s.place(lord, Pose(66.0, 40.0, 0.0))               # in the zone but 6" from the edge
    assert not completed(s, "secret_mission", 1)


def test_nothing_is_scored_before_the_end_and_a_hidden_one_only_for_its_player() -> None:
    s = ended()
    s.side_missions.picks = [Pick("conserve", 1, True), Pick("conserve", 2, False)]
    lines = victory_breakdown(s)
    assert [t for t, v in lines[1] if "side-mission" in t] == ["hidden side-mission Conserve completed",
                                                               "shared side-mission Conserve completed"]
    assert [t for t, v in lines[2] if "side-mission" in t] == ["shared side-mission Conserve completed"]
    s.game_over = False
    assert not any("side-mission" in t for p in (1, 2) for t, _ in victory_breakdown(s)[p])


def test_whole_games_replay_with_side_missions_and_reveal_them_at_the_end() -> None:
    """A game record (scenario + dice + actions) replays exactly with select_side_mission actions."""
    sc = scenario(playstyle="shared_hidden", selection="limited", mission="random", deployment="random")
    game = Game.start(new_game_state(sc), Dice(seed=7))
    play_out(game, 7)
    assert game.state.game_over
    twin = Game.start(new_game_state(sc), Dice(seed=7))
    for action in game.history:
        twin.apply(action)
    assert twin.digests == game.digests and twin.victory_points() == game.victory_points()
    revealed = [e for e in game.log if e.kind == "side_mission" and "mission" in e.data and e.data["hidden"]]
    assert len(revealed) == 2
    written = state_to_dict(game)["side_missions"]["picks"]
    assert all("mission" in p and "completed" in p for p in written)


def test_a_scenario_that_starts_placed_cannot_play_side_missions() -> None:
    data = yaml.safe_load(SCENARIO.read_text())
    data.pop("deployment")
    data["objectives"] = [{"x": 36, "y": 24}]
    for i, army in enumerate(data["armies"]):
        army["units"] = [dict(u, pose={"x": 8 + 14 * j, "y": 6 if i == 0 else 42, "facing": 0 if i == 0 else 180})
                         for j, u in enumerate(army["units"])]
    with pytest.raises(ScenarioError, match="side_missions: side-missions are selected before deployment"):
        load_scenario_mapping(data, SCENARIO)


def test_check_refuses_bad_new_keys_with_file_line_path(tmp_path: Path, capsys) -> None:
    """``main.py check`` names the file, the line and the key of a bad deployment style or side-missions value."""
    import main

    text = SCENARIO.read_text().replace("../armies/", str(ROOT / "scenarios" / "armies") + "/")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("deployment: random", "deployment: diagonal")
                   .replace("selection: randomized", "selection: draft"))
    assert main.main(["check", str(bad)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{bad}:7: deployment: must be one of front_line" in out
    assert f"{bad}:8: side_missions.selection: must be one of free, limited, randomized, random; got 'draft'" in out


def test_random_playstyle_and_selection_roll_a_d3_each_first() -> None:
    """"pick one of the following playstyles, or roll a D3 to randomly get one"; the same for the selection
    methods. A 4 (D3 = 2): Hidden; a 1 (D3 = 1): Free."""
    game = start([4, 1, 1, 6, 3], playstyle="random", selection="random")
    sm = game.state.side_missions
    assert (sm.playstyle, sm.selection) == ("hidden", "free")
    assert [r.purpose for r in game.dice.rolls[:2]] == ["Side-mission playstyle", "Side-mission selection method"]
    assert game.pending.decision == "select_side_mission" and game.pending.options == ()


def test_sorcerer_supreme_counts_a_joined_hero_gone_with_its_unit() -> None:
    """A spell that destroys the unit an enemy hero joined kills the hero with it (ruling "Side-missions")."""
    from game.engine.state import JoinedHero
    s = ended(caster=True)
    spears = s.units["spearmen-1"]
    lord = s.units.pop("cinder-lord")
    spears.hero = JoinedHero(lord.id, lord.profile, lord.cost)
    s.phase = Phase.STRATEGY_1
    s.remove(spears, Removal.DESTROYED)
    assert completed(s, "sorcerer_supreme", 1)
