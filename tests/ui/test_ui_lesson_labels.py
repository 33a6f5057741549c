"""Labels the labels pass left over (issue 17): a lesson's goal and point labels are laid out with the battle's
labels (never over another label or a panel), and a terrain piece whose centre is off the zoomed-in view is named
on its visible part. Real input events (clicks, wheel, a right-drag pan), then the placed boxes are checked."""

from __future__ import annotations

import pygame

from game.ui import battle_draw
from game.ui.draw_terrain import point_in_polygon
from game.ui.scenes.lesson import LessonScene, start_lesson
from tests.ui.test_ui_labels import _battle, _check_labels


def test_a_lesson_goal_label_is_laid_out_with_the_battle_labels(driver_factory, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    d = driver_factory(size=(1600, 1000))
    assert start_lesson(d.app, "1")
    scene = d.scene
    assert isinstance(scene, LessonScene) and scene.desk.panel is not None
    d.frames(2)
    d.click_button(scene.desk.panel.buttons["skip"])       # step 2: move the Halberds into the goal circle
    goal = [a for a in scene.run.highlights.areas if a.goal]
    assert goal, "lesson 1 step 2 shows a goal area"
    halberds = scene.game.state.units["halberds-1"]
    d.move(d.table_px(halberds.pose.xy), frames=2)           # the hover note too
    for zoom in (0, 2):
        for _ in range(zoom):
            d.wheel(1)
        d.move(d.table_px(goal[0].points[0]), frames=2)      # the mouse on the goal: its note and the goal label
        placed = _check_labels(scene)                        # apart, inside the view, off the panels
        kinds = [p.kind for p in placed.placed]
        assert kinds.count("lesson goal") == 1, kinds
        got = next(p for p in placed.placed if p.kind == "lesson goal")
        assert got.priority > battle_draw.prio.UNIT        # a lesson goal outranks unit and terrain names
    assert scene.last_exception is None


def test_a_terrain_piece_half_off_the_zoomed_view_is_named_on_its_visible_part(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    pieces = scene.static.terrain
    big = max(range(len(pieces)), key=lambda i: _area(pieces[i].polygon))
    centre = scene.static._centres[big]
    d.move(d.table_px(centre))
    for _ in range(4):
        d.wheel(1)                                           # zoomed in on the piece's centre
    view = scene.view.rect
    # pan (a right-button drag) until the centre lies left of the view, a strip of the piece still showing
    for _ in range(20):
        cx = d.table_px(centre)[0]
        if cx < view.left - 40:
            break
        start = (view.centerx, view.centery)
        d.drag(start, (start[0] - min(300, cx - view.left + 60), start[1]), button=3)
    assert d.table_px(centre)[0] < view.left
    d.move((view.right - 20, view.bottom - 20), frames=2)
    labels = _check_labels(scene)
    named = [p for p in labels.placed if p.kind == "terrain"
             and point_in_polygon(scene.view.to_table(p.rect.center), pieces[big].polygon)]
    assert len(named) == 1, [p.rect for p in labels.placed if p.kind == "terrain"]
    assert view.contains(named[0].rect)
    assert scene.last_exception is None


def _area(poly) -> float:  # type: ignore[no-untyped-def]
    n = len(poly)
    return abs(sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))) / 2


def test_a_lesson_greys_undo_and_points_to_restart(driver_factory, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Lessons have no Undo (a wrong try is taken back by the lesson): the greyed button says so, and Ctrl+Z
    changes nothing."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    d = driver_factory(size=(1600, 1000))
    assert start_lesson(d.app, "1")
    scene = d.scene
    d.frames(2)
    d.click_button(scene.actions.buttons["done"])               # step 1: Done, no charges
    assert scene.run.step_index == 1
    undo = scene.actions.buttons["undo"]
    assert not undo.is_enabled and undo.text == "↶ Undo: see Restart", undo.text
    assert "Restart" in undo.tool_tip_text
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert scene.run.step_index == 1 and "Restart" in scene.banner[0]
