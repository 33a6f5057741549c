"""Labels over the table never overlap each other nor the panels, table overlays stay inside the table view, and no
unit hides under the view tools (issue 17): busy situations built with posted events, then the boxes the label
layout (``game.ui.label_layout``) placed are checked."""

from __future__ import annotations

from pathlib import Path

import pygame
import yaml

from game.engine.actions import DeclareCharge
from game.ui import battle_draw
from game.ui import label_layout as ll
from game.ui.label_layout import LabelLayout
from game.ui.scenes.battle import BattleScene
from tests.ui.test_ui_insight import _battle as face_off_battle
from tests.ui.test_ui_insight import _centre

ROOT = Path(__file__).resolve().parents[2]


def _battle(driver_factory, moves: dict[str, tuple[float, float, float]] | None = None):  # type: ignore[no-untyped-def]
    """The default armies face to face across the ford (``test_ui_insight``) in a 1600x1000 window."""
    return face_off_battle(driver_factory, 3, moves, (1600, 1000))


def _panels(scene: BattleScene) -> list[pygame.Rect]:
    lay = scene.layout
    assert lay is not None and scene.tools is not None
    return [lay.top, lay.actions, lay.card, lay.dice, lay.log, scene.tools.rect]


def _check_labels(scene: BattleScene) -> LabelLayout:
    """The last frame's labels: no two overlap, each inside the table view and off every panel."""
    labels = battle_draw.layers(scene).labels
    assert labels is not None and labels.placed
    placed = labels.placed
    for i, p in enumerate(placed):
        assert scene.view.rect.contains(p.rect), (p.kind, p.rect, scene.view.rect)
        for panel in _panels(scene):
            assert not p.rect.colliderect(panel), (p.kind, p.rect, panel)
        for q in placed[i + 1:]:
            assert not p.rect.colliderect(q.rect), (p.kind, p.rect, q.kind, q.rect)
    return labels


def _kinds(labels: LabelLayout) -> list[str]:
    return [p.kind for p in labels.placed]


def _declare_and_look(driver_factory):  # type: ignore[no-untyped-def]
    """Step 2.1: Mountain Riders declare a charge; the Swordsmen are selected (reach, contacted sides) and the mouse
    is over one of their targets (the note)."""
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)
    assert game.pending.decision == "declare_charge"
    target = game.charge_targets("riders-1")[0]
    d.click(_centre(d, game, "riders-1"))
    d.click(_centre(d, game, target))
    assert isinstance(game.history[-1], DeclareCharge)
    d.click(_centre(d, game, "swordsmen-1"))
    targets = game.charge_targets("swordsmen-1")
    assert len(targets) >= 2
    d.move(_centre(d, game, targets[0]), frames=2)
    return d, scene, game, targets


def test_a_declared_charge_with_reach_and_a_note_lays_every_label_apart(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game, targets = _declare_and_look(driver_factory)
    labels = _check_labels(scene)
    kinds = _kinds(labels)
    assert kinds.count("note") == 1
    assert kinds.count("declared charge") == 1
    assert kinds.count("charge side") == len(targets)
    assert "reach" in kinds
    on_table = [u for u in game.state.units.values() if u.on_table]
    assert kinds.count("unit") == len(on_table)          # at the fitted view every unit keeps a label
    assert kinds.count("terrain") >= len(scene.static.terrain) - 2
    assert scene.last_exception is None


def test_zoomed_in_on_a_charge_the_labels_still_lie_apart_and_inside_the_view(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game, targets = _declare_and_look(driver_factory)
    for _ in range(4):
        d.wheel(1)
        d.frames(1)
    d.move(_centre(d, game, targets[1]), frames=3)
    labels = _check_labels(scene)
    assert "charge side" in _kinds(labels) and "note" in _kinds(labels)
    # panned so the table's corner sits under the view tools: the strip is above the view, not over it
    scene.view.pan(scene.view.rect.left - scene.view.to_screen((0, 48))[0] + 5,
                   scene.view.rect.top - scene.view.to_screen((0, 48))[1] + 5)
    d.frames(3)
    _check_labels(scene)
    assert scene.tools is not None and not scene.view.rect.colliderect(scene.tools.rect)
    assert scene.last_exception is None


def test_a_terrain_name_never_sits_under_a_unit_or_its_name(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The Canton Archers stand on Watch Hill's centre, where its name would go: the name moves off them, or is
    dropped."""
    d, scene, game = _battle(driver_factory, {"archers-1": (31.7, 12.5, 0)})
    for zoom in (0, 2, 4):
        for _ in range(zoom):
            d.wheel(1)
        d.move(scene.view.rect.bottomleft, frames=3)
        scene.view.centre_on((31.7, 12.5))
        d.frames(3)
        labels = _check_labels(scene)
        bodies = battle_draw._body_boxes(scene)
        for rect in labels.rects("terrain"):
            assert rect.collidelist(bodies) < 0
        hill = scene.view.to_screen((31.7, 12.5))
        archers = [p for p in labels.placed if p.kind == "unit" and p.rect.inflate(300, 300).collidepoint(hill)]
        assert archers


def test_measuring_and_sight_labels_lie_apart(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    d.click(_centre(d, game, "pikemen-1"))
    d.key(pygame.K_a)
    d.key(pygame.K_v)
    d.key(pygame.K_m)
    d.move(_centre(d, game, "spearmen-1"), frames=3)
    labels = _check_labels(scene)
    kinds = _kinds(labels)
    assert "measure" in kinds and "arc" in kinds
    assert scene.last_exception is None


def test_table_overlays_never_draw_outside_the_table_view(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Reach, ghosts, tapes, arcs, sight lines and notes zoomed in and panned: every pixel outside the view is
    left as it was."""
    d, scene, game, targets = _declare_and_look(driver_factory)
    scene.show_arcs = scene.show_sight = True
    for zoom, pan in ((1.0, (0, 0)), (2.5, (0, 0)), (2.5, (300, -250)), (4.0, (-500, 400))):
        scene.view.fit()
        scene.view.zoom_at(_centre(d, game, "swordsmen-1"), zoom)
        scene.view.pan(*pan)
        d.move(_centre(d, game, targets[0]), frames=3)
        magenta = (255, 0, 255)
        surf = pygame.Surface(d.app.screen.get_size())
        for _ in range(2):            # the second frame blits the cached base
            surf.fill(magenta)
            battle_draw.draw(scene, surf)
            w, h = surf.get_size()
            v = scene.view.rect
            outside = [pygame.Rect(0, 0, w, v.top), pygame.Rect(0, v.bottom, w, h - v.bottom),
                       pygame.Rect(0, v.top, v.left, v.h), pygame.Rect(v.right, v.top, w - v.right, v.h)]
            for r in outside:
                if r.w <= 0 or r.h <= 0:
                    continue
                mask = pygame.mask.from_threshold(surf.subsurface(r), magenta, (1, 1, 1, 255))
                assert mask.count() == r.w * r.h, (zoom, pan, r)
    assert scene.last_exception is None


# --- the layout itself ---------------------------------------------------------------------------------------


def _surf(w: int, h: int) -> pygame.Surface:
    return pygame.Surface((w, h))


def test_the_more_important_label_keeps_its_spot_and_the_other_is_nudged() -> None:
    lay = LabelLayout(pygame.Rect(0, 0, 400, 300))
    low = lay.add_at("terrain", ll.TERRAIN, _surf(60, 14), (100, 100))
    lay.add_at("unit", ll.UNIT, _surf(80, 14), (110, 100))
    placed = lay.solve()
    unit = next(p for p in placed if p.kind == "unit")
    terrain = next(p for p in placed if p.kind == "terrain")
    assert unit.rect.center == (110, 100)
    assert terrain.rect.center != (100, 100) and not terrain.rect.colliderect(unit.rect)
    assert low not in lay.dropped


def test_a_label_with_no_free_spot_is_shortened_then_dropped() -> None:
    lay = LabelLayout(pygame.Rect(0, 0, 400, 300))
    lay.add("unit", ll.UNIT, _surf(100, 20), [pygame.Rect(100, 100, 100, 20)])
    short = lay.add("unit", ll.UNIT - 1, _surf(100, 20), [pygame.Rect(150, 100, 100, 20)],
                    short=[(_surf(40, 20), [pygame.Rect(210, 100, 40, 20)])])
    gone = lay.add("terrain", ll.TERRAIN, _surf(100, 20), [pygame.Rect(120, 105, 100, 20)])
    placed = lay.solve()
    assert [p.form for p in placed] == [0, 1]
    assert lay.dropped == [gone]
    assert short not in lay.dropped


def test_labels_stay_inside_the_bounds_off_the_panels_and_a_note_always_shows() -> None:
    bounds = pygame.Rect(0, 0, 400, 300)
    panel = pygame.Rect(0, 0, 200, 40)
    lay = LabelLayout(bounds, panels=[panel], shy_of=[pygame.Rect(300, 200, 50, 50)])
    lay.add_at("tape", ll.MEASURE, _surf(60, 14), (100, 20))              # under the panel: nudged below
    lay.add_at("edge", ll.AID, _surf(60, 14), (395, 150))                  # past the right edge: nudged left
    lay.add("terrain", ll.TERRAIN, _surf(40, 14), [pygame.Rect(305, 210, 40, 14)], shy="never")
    lay.add("note", ll.NOTE, None, [pygame.Rect(0, 0, 100, 30)], required=True, shy="ignore")
    placed = {p.kind: p for p in lay.solve()}
    assert not placed["tape"].rect.colliderect(panel) and bounds.contains(placed["tape"].rect)
    assert bounds.contains(placed["edge"].rect)
    assert "terrain" not in placed                                          # never over a unit's body
    assert placed["note"].rect == pygame.Rect(0, 0, 100, 30)                # shown, even over the panel


def test_the_layout_is_deterministic() -> None:
    def build() -> list[tuple[str, tuple[int, int, int, int]]]:
        lay = LabelLayout(pygame.Rect(0, 0, 300, 200))
        for i in range(30):
            lay.add_at("unit" if i % 3 else "terrain", ll.UNIT if i % 3 else ll.TERRAIN, _surf(50, 12),
                       (40 + (i * 37) % 220, 30 + (i * 53) % 140))
        return [(p.kind, tuple(p.rect)) for p in lay.solve()]  # type: ignore[misc]

    first = build()
    assert first == build()
    rects = [pygame.Rect(r) for _, r in first]
    assert all(a.collidelist(rects[i + 1:]) < 0 for i, a in enumerate(rects))


def test_labels_keep_clear_of_objective_markers(driver_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A unit just beyond a marker would put its name on the marker's number: the name goes elsewhere."""
    from game.ui.scenes.handover import HandoverScene

    src = ROOT / "scenarios" / "lessons" / "scenarios" / "09_objectives.yaml"
    data = yaml.safe_load(src.read_text())
    for army in data["armies"]:
        army["include"] = str((src.parent / army["include"]).resolve())
        for u in army["units"]:
            if u["id"] == "pikemen-1":
                u["pose"] = {"x": 24, "y": 19.6, "facing": 0}
    path = tmp_path / "markers.yaml"
    path.write_text(yaml.safe_dump(data))
    d = driver_factory(size=(1600, 1000), start_scenario=path, seed=2)
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene) and scene.game.state.objectives
    for zoom in (0, 3):
        for _ in range(zoom):
            d.wheel(1)
        scene.view.centre_on((24, 18))
        d.move(scene.view.rect.bottomleft, frames=3)
        labels = _check_labels(scene)
        assert len(labels.rects("marker")) == len(scene.game.state.objectives)
        assert labels.rects("unit")
    assert scene.last_exception is None


def test_unit_names_at_the_bottom_edge_stay_clear_of_the_ruler(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Units of player 1 standing 0.6" to 2" from their own edge (at the bottom of the screen): their names are
    placed on the table and off the strip along that edge (the edge's colour and the inch marks), in front of the
    unit rather than half over the ruler (at two window sizes)."""
    edge = {"pikemen-1": (26.0, 3.6, 0.0), "landvogt": (42.0, 1.7, 0.0), "swordsmen-1": (58.0, 2.4, 0.0),
            "archers-1": (10.0, 1.5, 0.0)}
    for size in ((1600, 1000), (1280, 800)):
        d = driver_factory(size=size)
        game, kinds = face_off_battle.__globals__["_face_off"](3, moves=edge)
        scene = BattleScene(d.app, game, None, kinds)
        d.app.switch(scene)
        d.pass_handover()
        d.move((5, 5), frames=2)
        labels = _check_labels(scene)
        band = scene.static.ruler_band(scene.view)
        table = scene.view.table_rect
        assert band.bottom == table.bottom and band.h > 5
        names = {game.state.units[u].profile.name for u in edge}
        units = [p for p in labels.placed if p.kind == "unit"]
        near = [p for p in units if p.surface is not None and p.rect.bottom > table.bottom - 80]
        assert len(near) >= len(edge) - 1, names
        for p in units:
            assert not p.rect.colliderect(band), (p.rect, band)
            assert table.contains(p.rect), (p.rect, table)


def test_a_zone_label_slides_off_an_objective_marker_placed_where_it_stands(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """A deployment zone's label stands just outside the zone's middle, where markers are often placed (the
    computer places its own there: ``game.ai.markers``): with a marker under it, the label slides along the width
    until it covers no marker's disc, and stays in the table view."""
    from game.computer_seat import ComputerSeat
    from game.engine.state import Objective
    from game.ui.assets import text_cache
    from game.ui.draw_objectives import marker_boxes
    from game.ui.palette import PLAYER

    d = driver_factory(size=(1600, 1000), seed=5)
    d.frames(2)
    d.app.start_battle(str(ROOT / "scenarios" / "aofr_border_clash.yaml"), ComputerSeat(1, "ai"))
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, BattleScene)
    for player in (1, 2):
        _, at = scene.zone_outline(player)
        scene.game.state.objectives = [Objective(at[0], at[1]), Objective(at[0] + 3.0, at[1])]
        label = f"Player {player}'s zone"
        moved = battle_draw._clear_of_markers(scene, label, PLAYER[player], at)
        text = text_cache.get(label, 13, (255, 255, 255), True, PLAYER[player] + (210,), 3)
        rect = pygame.Rect(0, 0, text.get_width(), text.get_height())
        rect.center = tuple(round(v) for v in scene.view.to_screen(moved))
        assert moved != at
        assert rect.collidelist(marker_boxes(scene.view, scene.game.state)) < 0
        assert scene.view.rect.contains(rect)
        scene.game.state.objectives = []
        assert battle_draw._clear_of_markers(scene, label, PLAYER[player], at) == at
    d.frames(2)     # and the frame draws
