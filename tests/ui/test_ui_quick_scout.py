"""The window places a Scout unit as the AoF:R quick rules write it (issue 14, ``ruleset: aofr-quick``): after all
other units, a click 10" outside the player's deployment zone (within 12" of it) and Enter place it there, with no
Scout move after; the header and the instruction say so."""

from __future__ import annotations

import random

import pygame

from tests.ui.conftest import ROOT

OUTRIDERS = ROOT / "scenarios" / "aofr_quick_outriders.yaml"


def test_a_scout_is_placed_beyond_the_zone_by_a_click_and_enter(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.autoplay import RandomPlayer
    from game.engine.actions import Deploy, Done, SetAside
    from game.engine.deployment import progress, zone_polygon
    from game.ui.describe import instruction, position
    from game.ui.scenes.handover import HandoverScene
    from geometry.pose import Pose
    d = driver_factory(start_scenario=OUTRIDERS, seed=2)
    d.frames(2)
    game = d.scene.game if not isinstance(d.scene, HandoverScene) else None
    player = RandomPlayer(random.Random(2))
    while True:
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
            continue
        game = d.scene.game
        dep = progress(game.state)
        p = game.pending
        if dep is not None and dep.stage == "scout":
            break
        if p.decision == "set_aside":
            action = SetAside(p.player, "wardens-1") if "wardens-1" in p.options else Done(p.player)
        else:
            action = player.choose(game)
        assert d.scene.act(action)
        d.frames(1)
    assert game.pending.options == ("wardens-1",)
    assert "within 12\" of your deployment zone" in instruction(game.state, game.pending)
    assert "Scouts" in position(game.state)
    zone = zone_polygon(game.state, 2)
    x0, y0, x1, y1 = zone.bounds
    inward = 1.0 if y0 > 1 else -1.0
    y = (y1 if inward > 0 else y0) - inward * 21.0        # 9" outside the 12" zone
    facing = 180.0 if inward > 0 else 0.0
    x = next(x for x in (36.0, 24.0, 48.0, 14.0, 58.0)
             if game.check_deploy(Deploy(2, "wardens-1", Pose(x, y, facing))) is None)
    px = d.table_px((x, y))
    pygame.mouse.set_pos(px)
    d.click(px)
    d.key(pygame.K_RETURN)
    last = game.history[-1]
    assert isinstance(last, Deploy) and last.unit == "wardens-1"
    assert abs(last.pose.y - y) < 0.5 and abs(last.pose.x - x) < 0.5
    assert game.pending is None or game.pending.decision != "scout_move"


def test_the_set_up_force_organisation_box_applies_the_quick_rules_own(driver_factory, tmp_path,  # type: ignore[no-untyped-def]
                                                                       monkeypatch) -> None:
    """Under aofr-quick the set-up's "Force Organisation" box (a real click) applies the quick rules' "Force Org."
    (its words, its problems), not AoWFBR's."""
    from game.ui.scenes.setup_state import SetupState
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    d.frames(2)
    st = SetupState(seed=3)
    st.set_ruleset("aofr-quick")
    lst = st.choose_army(1, ROOT / "scenarios" / "armies" / "ironroot_hold.yaml")
    for name in ["Hold Warriors", "Tunnel Rangers", "Thunder Guns", "Tunnel Rangers"]:
        lst.add(name)
    d.app.open_setup(st, 1)
    d.frames(3)
    assert st.problems(1) == []
    pygame.mouse.set_pos(d.scene.force_box.rect.center)
    d.click(d.scene.force_box.rect.center, frames=4)
    assert st.force_org
    assert "300 pts: at most 0 heroes, 2 units" in d.scene.force_text.html_text
    assert any("Force Org." in p and "one unit too many" in p for p in st.problems(1))
