"""Deployment through the window: roll-off choices, placing units by clicking in the zone, who goes first."""

from __future__ import annotations

from pathlib import Path

import pygame
import yaml

from game.engine.actions import Deploy
from game.engine.deployment import deploy_zone

ROOT = Path(__file__).resolve().parents[2]


def _deployment_game():  # type: ignore[no-untyped-def]
    """The default battle with two units a side still to deploy."""
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state

    path = ROOT / "scenarios" / "default.yaml"
    data = yaml.safe_load(path.read_text())
    data.pop("start", None)
    for army in data["armies"]:
        for unit in army["units"][:2]:
            unit.pop("pose", None)
    scenario = load_scenario_mapping(data, path)
    return Game.start(new_game_state(scenario), Dice(seed=4)), list(scenario.terrain_kinds)


def test_deploy_every_unit_with_clicks_and_buttons(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory()
    game, kinds = _deployment_game()
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    decisions_seen = []
    handed_over_for = []
    deployers = set()
    x = {1: 8.0, 2: 8.0}
    for _ in range(60):
        if isinstance(d.scene, HandoverScene):
            handed_over_for.append(game.pending.decision)
            d.pass_handover()
            continue
        if game.pending is not None and game.pending.decision == "deploy":
            deployers.add(game.pending.player)
        pending = game.pending
        if pending is None or pending.decision == "strategy":
            break
        decisions_seen.append(pending.decision)
        bar = scene.actions.buttons
        if pending.decision == "deploy":
            assert scene.tool is not None and scene.tool.kind == "deploy"
            zone = deploy_zone(game.state, pending.player)
            y = (zone[1] + zone[3]) / 2
            point = (x[pending.player], y)
            x[pending.player] += 9.0
            d.click(d.table_px(point))
            ev = scene.tool.evaluate()
            if not ev.legal:            # try further along the zone
                continue
            n = len(game.history)
            d.key(pygame.K_RETURN)
            assert len(game.history) == n + 1 and isinstance(game.history[-1], Deploy)
        else:
            key = next((k for k in bar if k.startswith(("deployment:", "first:"))), "done")
            d.click_button(bar[key])
    else:
        raise AssertionError(f"deployment did not finish: {decisions_seen}")
    assert "deploy" in decisions_seen
    assert all(u.pose is not None for u in game.state.units.values())
    # placing units is open information: the seat changes with a banner, not a hand-over screen per unit
    assert deployers == {1, 2} and handed_over_for.count("deploy") <= 1, handed_over_for
    assert scene.last_exception is None


def test_objective_markers_are_placed_by_clicking_the_table(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The standard mission (game.engine.objectives): the roll-off winner picks who places first with a button,
    then each click on the table places a marker; a click in a deployment zone is refused naming the rule."""
    from game.engine.actions import ChooseObjectiveOrder, PlaceObjective
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario, new_game_state
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene

    scenario = load_scenario(ROOT / "scenarios" / "tests" / "objectives_open_field.yaml")
    game = Game.start(new_game_state(scenario), Dice(seed=4))
    d = driver_factory()
    scene = BattleScene(d.app, game, None, list(scenario.terrain_kinds))
    d.app.switch(scene)
    points = iter([(36.0, 5.0), (10.0, 24.0), (30.0, 20.0), (50.0, 28.0), (64.0, 18.0), (20.0, 32.0), (44.0, 33.0)])
    for _ in range(40):
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
            continue
        pending = game.pending
        if pending.decision == "choose_objective_order":
            d.click_button(scene.actions.buttons[f"objective_first:{pending.player}"])
            assert isinstance(game.history[-1], ChooseObjectiveOrder)
        elif pending.decision == "place_objective":
            before = len(game.state.objectives)
            point = next(points)
            d.click(d.table_px(point))
            if point == (36.0, 5.0):             # player 1's deployment zone
                assert len(game.state.objectives) == before
                assert scene.error is not None and scene.error.rule == "Placing Objectives"
            else:
                assert isinstance(game.history[-1], PlaceObjective)
                placed = game.state.objectives[-1]
                assert abs(placed.x - point[0]) < 0.2 and abs(placed.y - point[1]) < 0.2
        else:
            break
    assert game.pending.decision == "choose_deployment"
    assert 3 <= len(game.state.objectives) <= 5
    assert scene.last_exception is None


def test_a_held_key_does_not_skip_the_hand_over(driver_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The Space that ended the last action, still held (key repeat), does not dismiss the hand-over; a fresh
    press after releasing it does."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import KEY_DELAY, HandoverScene

    class Held(dict):   # pygame.key.get_pressed() with Space down
        def __getitem__(self, key):  # type: ignore[no-untyped-def]
            return key == pygame.K_SPACE

    d = driver_factory()
    game, kinds = _deployment_game()
    monkeypatch.setattr(pygame.key, "get_pressed", lambda: Held())
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    monkeypatch.undo()
    d.frames(int(KEY_DELAY * 60) + 2)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    d.frames(2)                                     # a repeat of the held key: still here
    assert isinstance(d.scene, HandoverScene)
    d.key(pygame.K_SPACE)                           # released (KEYUP), pressed again: gone
    assert isinstance(d.scene, HandoverScene)       # the KEYUP came after the KEYDOWN of the same press
    d.key(pygame.K_SPACE)
    assert d.scene is scene
