"""Random Scatter for Artillery in the window (AoWFBR 1.4 "Optional Rules", p.19): the set-up's check box and the
artillery types, aiming at a target point (a refused point shows the rule), firing by a click, a cannon's "skip
first Quality test" toggle, and the shot drawn and rolled. Driven by posted events as a player would."""

from __future__ import annotations

from pathlib import Path

import pygame
import shapely

from game.engine.actions import ShootPoint
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "artillery_scatter.yaml"


def _battle(driver_factory, seed: int = 4):  # type: ignore[no-untyped-def]
    d = driver_factory(start_scenario=str(SCENARIO), seed=seed)
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert isinstance(d.scene, BattleScene)
    return d, d.scene, d.scene.game


def _past_handover(d) -> None:  # type: ignore[no-untyped-def]
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()


def test_aim_refuse_fire_and_show_the_shot(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    assert game.pending.decision == "shoot" and "lobber-1" in scene.actors
    d.click(d.table_px(game.state.units["lobber-1"].pose.xy))
    assert scene.selected == "lobber-1" and scene.artillery.unit() == "lobber-1"
    assert scene.banner is None or "no valid target" not in scene.banner[0]
    area = scene.artillery.area("lobber-1")
    assert shapely.covers(area, shapely.Point(24.0, 23.0)) and not shapely.covers(area, shapely.Point(12.0, 1.0))
    assert "artillery_skip" not in scene.actions.buttons            # a stone thrower has no test to skip
    # a point out of its front arc (behind it): refused, the rule shown, nothing rolled
    d.move(d.table_px((40.0, 1.0)))
    d.frames(2)
    assert "front arc" in (scene.artillery.problem((40.0, 1.0)) or "")
    d.click(d.table_px((40.0, 1.0)))
    assert scene.error is not None and "front arc" in scene.error.message and not game.history
    # a valid point in front of the Hold Warriors: fired
    d.move(d.table_px((24.0, 22.0)))
    d.frames(2)
    assert scene.artillery.problem((24.0, 22.0)) is None
    d.click(d.table_px((24.0, 22.0)))
    action = game.history[-1]
    assert isinstance(action, ShootPoint) and action.unit == "lobber-1"
    assert abs(action.x - 24.0) < 0.1 and abs(action.y - 22.0) < 0.1
    shots = scene.artillery.last_shots()
    assert len(shots) == 1 and shots[0].data["target"] == [action.x, action.y]
    assert any("scatter die" in str(r.data.get("purpose")) for r in scene.feed.rolls)
    d.frames(2)                                                     # the shot is drawn without error
    assert scene.last_exception is None


def test_cannon_skips_its_first_quality_test_with_the_toggle(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory, seed=7)
    for _ in range(12):                                              # to player 2's shooting phase
        _past_handover(d)
        if game.pending.player == 2 and game.pending.decision == "shoot":
            break
        d.key(pygame.K_SPACE, frames=3)
    _past_handover(d)
    scene = d.scene
    assert game.pending.decision == "shoot" and game.pending.player == 2
    d.click(d.table_px(game.state.units["cannon-1"].pose.xy))
    assert scene.artillery.is_cannon()
    d.click_button(scene.actions.buttons["artillery_skip"])
    assert scene.artillery.skip_test
    target = game.state.units["warriors-1"].pose.xy
    d.click(d.table_px(target))
    action = game.history[-1]
    assert isinstance(action, ShootPoint) and action.unit == "cannon-1" and action.skip_test
    assert not scene.artillery.skip_test                            # one shot only
    assert scene.last_exception is None


def test_set_up_box_and_artillery_types(driver_factory, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The Random scatter for artillery box writes the option and the battle plays it; each list shows its
    artillery's type."""
    from game.engine.artillery_scatter import active, profile_type
    from game.scenario import load_scenario
    from game.ui.scenes.setup_battle import artillery_types
    from tests.ui.test_ui_setup import _ready_state
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    st = _ready_state()
    lst = st.army_list(1)
    gun = next((n for n, p in lst.army.profiles.items() if profile_type(p) is not None), None)
    assert gun is not None
    lst.points = 1000
    entry = lst.add(gun)
    assert st.problems(1) == []
    d.app.open_setup(st, 4)
    d.frames(2)
    assert f"{gun}: type {profile_type(lst.army.profiles[gun])}" in artillery_types(st, 1)
    assert entry.profile == gun
    box = next(b for b, key in d.scene.option_boxes.items() if key == "artillery_scatter")
    d.click(box.rect.center, frames=4)
    assert st.options.get("artillery_scatter") is True
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    assert active(d.scene.back.game.state)
    assert load_scenario(d.scene.back.scenario_path).options["artillery_scatter"] is True
