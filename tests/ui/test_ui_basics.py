"""The window's parts without a full game: pygame-ce, transforms, caches, tools, words."""

from __future__ import annotations

import pygame
import pytest

from game.engine.events import Event, roll_event
from game.ui.dice_panel import die_succeeds, render_rolls, roll_result
from game.ui.draw_terrain import StaticLayer, terrain_kind
from game.ui.log_panel import MAX_LINES
from game.ui.move_tool import MoveTool
from game.ui.table_view import TableView
from game.ui.view_tools import view_below
from geometry.pose import Pose
from geometry.terrain import TerrainShape


def test_pygame_is_community_edition() -> None:
    assert getattr(pygame, "IS_CE", False)


def test_table_view_round_trip_and_zoom_keeps_the_point_under_the_mouse() -> None:
    view = TableView(pygame.Rect(0, 60, 1000, 700), 72, 48)
    for p in [(0.0, 0.0), (72.0, 48.0), (13.5, 40.25)]:
        q = view.to_table(view.to_screen(p))
        assert q == pytest.approx(p)
    # player 1's edge (y = 0) is at the bottom of the screen, facing 0 points up
    assert view.to_screen((0, 0))[1] > view.to_screen((0, 48))[1]
    pixel = (400, 300)
    before = view.to_table(pixel)
    view.zoom_at(pixel, 2.0)
    assert view.to_table(pixel) == pytest.approx(before)
    view.pan(30, -20)
    assert view.to_table((pixel[0] + 30, pixel[1] - 20)) == pytest.approx(before)
    view.fit()
    assert view.table_rect.w <= 1000 and view.table_rect.h <= 700


def test_turned_table_puts_player_2_edge_at_the_bottom() -> None:
    view = TableView(pygame.Rect(0, 60, 1000, 700), 72, 48)
    view.set_flipped(True)
    assert view.to_screen((0, 48))[1] > view.to_screen((0, 0))[1]
    assert view.to_screen((72, 24))[0] < view.to_screen((0, 24))[0]
    assert view.screen_facing(180.0) == 0.0
    for p in [(0.0, 0.0), (72.0, 48.0), (13.5, 40.25)]:
        assert view.to_table(view.to_screen(p)) == pytest.approx(p)
    pixel = (300, 500)
    before = view.to_table(pixel)
    view.zoom_at(pixel, 1.7)
    assert view.to_table(pixel) == pytest.approx(before)
    centre = view.to_table(view.rect.center)
    view.set_flipped(False)
    assert view.to_table(view.rect.center) == pytest.approx(centre)


def test_terrain_kind_from_the_name_or_traits() -> None:
    forest = TerrainShape(0, "Old Wood", ((0, 0), (4, 0), (4, 4)), frozenset({"difficult", "cover"}))
    lava = TerrainShape(1, "Pit", ((0, 0), (4, 0), (4, 4)), frozenset({"dangerous"}))
    assert terrain_kind(forest) == "forest"
    assert terrain_kind(lava) == "lava"
    layer = StaticLayer(72, 48, [forest, lava], ["swamp", "lava"])
    assert layer.kinds == ["swamp", "lava"]


def test_static_layer_is_rendered_once_per_zoom() -> None:
    surf = pygame.Surface((800, 600))
    t = TerrainShape(0, "Hill", ((10, 10), (20, 10), (15, 20)), frozenset({"elevated"}))
    layer = StaticLayer(72, 48, [t], ["hill"])
    view = TableView(pygame.Rect(0, 0, 800, 600), 72, 48)
    for _ in range(5):
        layer.draw(surf, view)
    view.pan(10, 10)
    layer.draw(surf, view)
    assert layer.renders == 1
    view.zoom_at((400, 300), 1.5)
    layer.draw(surf, view)                 # the frame of the zoom itself: the last render, scaled
    assert layer.renders == 1
    layer.draw(surf, view)                 # steady at the new zoom: rendered exactly, once
    layer.draw(surf, view)
    assert layer.renders == 2


def test_dice_colours_and_rendering() -> None:
    assert die_succeeds(4, 4, 0) is True
    assert die_succeeds(3, 4, 0) is False
    assert die_succeeds(6, 7, -3) is True       # a 6 always succeeds
    assert die_succeeds(1, 2, 3) is False       # a 1 always fails
    assert die_succeeds(3, None, 0) is None
    assert roll_result({"purpose": "Spearmen: Defense", "dice": [1, 5], "successes": 1, "wounds": 1}) == "→ 1 wound"
    assert roll_result({"purpose": "Morale test of Spearmen", "dice": [2], "successes": 0}) == "failed"
    assert roll_result({"purpose": "Flight range", "dice": [3, 4], "range": 9}) == '= 9"'
    e = roll_event("Archers hit rolls", [1, 4, 6, 3] * 10, need=4, successes=20)
    surf = render_rolls([e.data], (340, 180))
    assert surf.get_size() == (340, 180)


class _FakeGame:
    """Just enough of ``Game`` for the move tool: every path is legal."""

    def __init__(self) -> None:
        self.checked = 0

    def check_move(self, action):  # type: ignore[no-untyped-def]
        self.checked += 1
        return None

    def move_info(self, action):  # type: ignore[no-untyped-def]
        return None


def _unit():  # type: ignore[no-untyped-def]
    from game.engine.profiles import Profile
    from game.engine.state import make_unit
    prof = Profile("Spearmen", 4, 4, 20, 20, 10, 100)
    return make_unit("s1", 1, prof, 10, Pose(20, 10, 0))


def test_move_tool_builds_the_spec_path() -> None:
    game = _FakeGame()
    tool = MoveTool(game, _unit(), 1)
    # pivot in place first, then move: a pose at the start with the new facing, then a straight leg
    tool.pivot(30)
    tool.begin_drag((20, 10))
    tool.drag_to((21, 12))
    tool.drag_to((22, 14))          # same leg: replaced, not added
    tool.end_drag()
    assert tool.path == (Pose(20, 10, 30), Pose(22, 14, 30))
    # pivot at the end belongs to the last pose
    tool.pivot(-15)
    assert tool.path[-1] == Pose(22, 14, 15)
    ev = tool.evaluate()
    assert ev.legal and ev.action == "advance"
    assert ev.pivots == pytest.approx((30.0, -15.0))
    checks = game.checked
    tool.evaluate()
    assert game.checked == checks     # cached until the ghost changes
    tool.undo()
    assert tool.path == (Pose(20, 10, 30),)
    tool.reset()
    assert tool.path == () and not tool.changed


def test_log_is_capped() -> None:
    from collections import deque

    from game.ui.log_panel import event_html
    lines = deque(maxlen=MAX_LINES)
    lines.extend(event_html(Event("info", f"line {i} <b>")) for i in range(MAX_LINES * 3))
    assert len(lines) == MAX_LINES
    assert "&lt;b&gt;" in lines[-1]


def test_menu_starts_the_default_battle_with_one_click(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    assert isinstance(d.scene, MenuScene)
    d.click_button(d.scene.play_default)
    assert isinstance(d.scene, HandoverScene) and d.scene.player == 1
    d.click_button(d.scene.go)
    assert isinstance(d.scene, BattleScene)


def test_resize_zoom_pan_and_measure(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1100, 760), w=1100, h=760))
    battle.frames(2)
    assert battle.app.size == (1100, 760)
    assert scene.layout.table.right <= 1100 - 300
    # the table view is the table's area below the view tools' strip, which floats over no unit
    assert scene.view.rect == view_below(scene.layout.table)
    assert scene.layout.table.contains(scene.tools.rect)
    assert not scene.view.rect.colliderect(scene.tools.rect)
    # wheel over the table zooms about the mouse
    centre = scene.view.rect.center
    battle.move(centre)
    before_scale = scene.view.scale
    point = scene.view.to_table(centre)
    battle.wheel(2)
    assert scene.view.scale > before_scale
    assert scene.view.to_table(centre) == pytest.approx(point)
    # right-drag pans
    ox = scene.view.ox
    battle.drag(centre, (centre[0] + 40, centre[1]), steps=4, button=3)
    assert scene.view.ox == pytest.approx(ox + 40, abs=1)
    battle.key(pygame.K_f)
    assert scene.view.scale == pytest.approx(scene.view.fit_scale)
    # measure from a selected unit
    uid = next(iter(scene.game.state.units))
    battle.click(battle.table_px(scene.game.state.units[uid].pose.xy))
    battle.key(pygame.K_m)
    assert scene.measure
    battle.move((centre[0], centre[1] + 5))
    assert scene.last_exception is None


def test_a_drag_sticks_to_the_allowance() -> None:
    tool = MoveTool(_FakeGame(), _unit(), 1)
    tool.begin_drag((20, 10))
    tool.drag_to((20, 16.12))       # 6.12" forward: sticks to the 6" Advance
    assert tool.evaluate().distance == pytest.approx(6.0, abs=1e-5)
    assert tool.evaluate().distance <= 6.0
    tool.drag_to((20, 15.0))        # 5" is left alone
    assert tool.evaluate().distance == pytest.approx(5.0)
    tool.drag_to((20, 21.9))        # 11.9": sticks to the 12" Rush
    assert tool.evaluate().distance == pytest.approx(12.0, abs=1e-5)


def test_engine_moves_glide_and_end_where_the_state_says() -> None:
    from game.ui.animation import MOVE_SECONDS, Animations, interpolate
    a, b = Pose(0, 0, 350), Pose(10, 0, 20)
    mid = interpolate(a, b, 0.5)
    assert mid.x == pytest.approx(5) and mid.facing == pytest.approx(5)   # turns the short way
    anims = Animations()
    ev = Event("charge", "x charges", {"unit": "u", "target": "t", "from": {"x": 0, "y": 0, "facing": 0},
                                       "to": {"x": 4, "y": 0, "facing": 0}})
    anims.add([ev], now=1.0)
    assert "u" in anims.poses(1.1) and set(anims.flash(1.1)) == {"u", "t"}
    assert anims.poses(1.0 + MOVE_SECONDS + 0.01) == {}
    anims.add([ev], now=5.0, skip="u")          # a move the player made by hand does not glide
    assert anims.poses(5.1) == {}


def test_menu_plays_a_scenario_picked_from_the_list(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.handover import HandoverScene
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.by_label
    item = menu.list.item_list[0]["button_element"]
    d.click_button(item)
    assert menu.play_selected.is_enabled
    d.click_button(menu.play_selected)
    assert isinstance(d.scene, HandoverScene)
