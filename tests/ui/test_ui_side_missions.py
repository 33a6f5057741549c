"""Deployment styles and side-missions in the window (AoF:R 2.16 "Deployment Styles", "Side-Missions"): chosen in
the set-up, selected behind the hand-over screen, zones drawn as their style says. Real input events."""

from __future__ import annotations

from pathlib import Path

import pygame
import yaml

from game.engine.actions import SelectSideMission

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "side_missions_open_field.yaml"


def _battle(d, changes: dict, seed: int = 3):  # type: ignore[no-untyped-def]
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state
    from game.ui.scenes.battle import BattleScene
    data = yaml.safe_load(SCENARIO.read_text())
    data.update(changes)
    sc = load_scenario_mapping(data, SCENARIO)
    game = Game.start(new_game_state(sc), Dice(seed=seed))
    scene = BattleScene(d.app, game, None, list(sc.terrain_kinds))
    d.app.switch(scene)
    d.frames(2)
    return game, scene


def test_set_up_offers_deployment_styles_and_side_missions_and_the_battle_plays_them(  # type: ignore[no-untyped-def]
        driver_factory, tmp_path: Path, monkeypatch) -> None:
    """The Deployment and Side-missions drop-downs next to Mission write the scenario keys the battle plays."""
    from game.scenario import load_scenario
    from game.ui.scenes.handover import HandoverScene
    from tests.ui.test_ui_setup import _pick, _ready_state
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    st = _ready_state()
    d.app.open_setup(st, 4)
    d.frames(2)
    assert not d.scene.selection_menu.is_enabled          # no side-missions: no selection method to pick
    _pick(d, d.scene.deployment_menu, "Long Haul")
    _pick(d, d.scene.side_menu, "Hidden")
    _pick(d, d.scene.selection_menu, "Limited")
    assert (st.deployment, st.side_missions) == ("long_haul", ("hidden", "limited"))
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    battle = d.scene.back
    state = battle.game.state
    assert state.deployment_style == "long_haul" and state.side_missions.playstyle == "hidden"
    assert battle.game.pending.decision == "select_side_mission"
    written = load_scenario(battle.scenario_path)
    assert written.deployment == "long_haul" and written.side_missions == ("hidden", "limited")


def test_hidden_side_missions_are_selected_behind_the_hand_over_and_never_shown_to_the_other_seat(  # type: ignore[no-untyped-def]
        driver_factory) -> None:
    """"Hidden - Each player selects 1 side-mission in secret": each selection comes after a hand-over screen, and
    the other seat's view names only that a hidden one exists."""
    from game.ui.draw_side_missions import seat_line
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory()
    game, scene = _battle(d, {"deployment": "front_line",
                              "side_missions": {"playstyle": "hidden", "selection": "free"}})
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    assert game.pending.decision == "select_side_mission" and scene.seat == 1
    bar = scene.actions.buttons
    assert set(bar) >= {"side_category:1", "side_category:2", "side_category:3"}
    d.click_button(bar["side_category:3"])
    d.frames(2)
    bar = scene.actions.buttons
    assert "side_mission:head_hunter" in bar and "side_mission:sorcerer_supreme" not in bar   # no caster
    d.click_button(bar["side_mission:head_hunter"])
    assert isinstance(game.history[-1], SelectSideMission) and game.history[-1].mission == "head_hunter"
    assert isinstance(d.scene, HandoverScene)                  # player 2 takes the seat before choosing
    assert "Head Hunter" not in " ".join(d.scene.recent) and "head_hunter" not in " ".join(d.scene.recent)
    d.pass_handover()
    assert scene.seat == 2
    line = seat_line(game.state, scene.seat)
    assert "player 1: hidden" in line and "Head Hunter" not in line
    d.click_button(scene.actions.buttons["side_category:1"])
    d.frames(2)
    d.click_button(scene.actions.buttons["side_mission:conserve"])
    assert [(p.mission, p.player) for p in game.state.side_missions.picks] == [("head_hunter", 1), ("conserve", 2)]
    assert "yours: Conserve (hidden)" in seat_line(game.state, 2)
    assert "Conserve" not in seat_line(game.state, 1) and "yours: Head Hunter (hidden)" in seat_line(game.state, 1)
    # The markers are placed in the open, both players at the screen: neither hidden side-mission is shown.
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert game.pending.decision == "choose_objective_order"
    d.click_button(scene.actions.buttons[f"objective_first:{game.pending.player}"])
    first = game.pending.player
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    d.click(d.table_px((50.0, 24.0)))
    assert game.pending.player == 3 - first and len(game.state.objectives) == 1
    assert scene.seat is None
    line = seat_line(game.state, scene.seat)
    assert "Conserve" not in line and "Head Hunter" not in line and "player 2: hidden" in line
    assert scene.last_exception is None


def test_limited_selection_offers_only_the_category_rolled(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """"Limited - Players must roll a D3 to get a category, and may then freely select any side-mission"."""
    from game.engine import side_missions
    d = driver_factory()
    game, scene = _battle(d, {"deployment": "front_line",
                              "side_missions": {"playstyle": "shared", "selection": "limited"}})
    d.pass_handover()
    sm = side_missions.progress(game.state)
    keys = {k for k in scene.actions.buttons if k.startswith("side_mission:")}
    assert keys == {f"side_mission:{k}" for k in side_missions.offered(game.state)}
    assert all(side_missions.SIDE_MISSIONS[k.split(":")[1]].category == sm.category for k in keys)
    assert "side_back" not in scene.actions.buttons


def _blue_pixels(screen: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixels of ``rect`` (every 6th) tinted by player 1's translucent blue: the green table has blue about 33
    under green, the zone about 8 under."""
    return sum(1 for x in range(rect.left, rect.right, 6) for y in range(rect.top, rect.bottom, 6)
               if screen.get_at((x, y)).b - screen.get_at((x, y)).g > -20)


def test_a_long_haul_zone_is_drawn_along_the_short_edge(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The deploying player's zone is drawn as the style's polygon (Long Haul: 12" from a short edge)."""
    from game.engine.actions import ChooseDeployment, Done
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory()
    game, scene = _battle(d, {"deployment": "long_haul", "side_missions": None, "mission": "none"})
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    p = game.pending.player
    scene.act(ChooseDeployment(p, 1, "south"))
    while game.pending.decision == "set_aside":
        scene.act(Done(game.pending.player))
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert game.pending.decision == "deploy" and game.pending.player == 1
    scene.tool = None                         # only the zone, no ghost
    d.frames(3)
    screen = pygame.display.get_surface()
    a, b = d.table_px((0.5, 47.5)), d.table_px((11.5, 0.5))
    west = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]), abs(b[1] - a[1]))
    a, b = d.table_px((20.0, 11.0)), d.table_px((52.0, 1.0))
    south = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]), abs(b[1] - a[1]))
    assert _blue_pixels(screen, west) > 0.8 * (west.w // 6) * (west.h // 6)
    assert _blue_pixels(screen, south) < 0.05 * (south.w // 6) * (south.h // 6)
