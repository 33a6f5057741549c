"""Shooting through the window: pick a shooter, choose weapon groups, click the target."""

from __future__ import annotations

from pathlib import Path

import pygame
import yaml

from game.engine.actions import Shoot

ROOT = Path(__file__).resolve().parents[2]


def _close_range_game():  # type: ignore[no-untyped-def]
    """The default battle with archers carrying two ranged weapons and an enemy unit 14" in front of them."""
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state

    path = ROOT / "scenarios" / "default.yaml"
    data = yaml.safe_load(path.read_text())
    cantons = next(a for a in data["armies"] if a["player"] == 1)
    cantons.setdefault("profiles", {})["Canton Archers"] = {
        "quality": 5, "defense": 5, "base": [20, 20], "size": 10, "cost": 80,
        "weapons": [{"name": "Longbow", "range": 24, "attacks": 1},
                    {"name": "Javelin", "range": 12, "attacks": 1},
                    {"name": "Dagger", "attacks": 1}],
    }
    archers = next(u for u in cantons["units"] if u["id"] == "archers-1")
    host = next(a for a in data["armies"] if a["player"] == 2)
    spear = host["units"][0]
    spear["pose"] = {"x": archers["pose"]["x"], "y": archers["pose"]["y"] + 16, "facing": 180}
    scenario = load_scenario_mapping(data, path)
    return Game.start(new_game_state(scenario), Dice(seed=2)), list(scenario.terrain_kinds), spear["id"]


def test_shoot_one_weapon_group_at_a_clicked_target(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    d = driver_factory()
    game, kinds, enemy = _close_range_game()
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.pass_handover()
    assert d.scene is scene
    for _ in range(4):                       # strategy, charges, moves, second strategy: Done
        d.key(pygame.K_SPACE)
    assert game.pending.decision == "shoot"
    assert "archers-1" in game.shooters(1)
    d.click(d.table_px(game.state.units["archers-1"].pose.xy))
    assert scene.selected == "archers-1"
    assert enemy in scene.targets_of("archers-1")
    assert {"weapon:Longbow", "weapon:Javelin"} <= set(scene.actions.buttons)
    d.click_button(scene.actions.buttons["weapon:Javelin"])      # fire the Longbow group only
    d.click(d.table_px(game.state.units[enemy].pose.xy))
    shot = game.history[-1]
    assert isinstance(shot, Shoot) and shot.unit == "archers-1" and shot.target == enemy
    assert shot.weapons == ("Longbow",)
    assert any(e.data.get("need") for e in scene.feed.rolls)         # the dice panel shows the hit rolls
    assert scene.last_exception is None
