"""What still stumbled in a newcomer's walk through the battle screen (issue 17), with posted input events: a unit
that already declared its charge says so rather than "no enemy within charge reach" three times over; a shooter
without a valid target shows its range and front arc on the table."""

from __future__ import annotations

import pygame

from game.engine.actions import DeclareCharge
from game.ui import battle_draw
from game.ui.scenes.handover import HandoverScene
from tests.ui.test_ui_insight import _battle, _centre


def test_clicking_a_unit_that_declared_its_charge_says_what_it_did(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)
    target = game.charge_targets("riders-1")[0]
    d.click(_centre(d, game, "riders-1"))
    d.click(_centre(d, game, target))
    assert isinstance(game.history[-1], DeclareCharge)
    d.click(_centre(d, game, "riders-1"))
    text = scene.banner[0]
    name = game.state.units[target].profile.name
    assert text == f"Mountain Riders has declared its charge this phase (against {name}).", text
    assert scene.last_exception is None


def test_a_shooter_without_a_target_shows_its_range_and_front_arc(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    for _ in range(4):                                  # strategy, no charges, no moves, second strategy
        d.key(pygame.K_SPACE)
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    assert game.pending.decision == "shoot"
    uid = next(u.id for u in game.state.units_of(1) if u.on_table and not game.shooting_targets(u.id)
               and battle_draw.shooting.ranged_arms(u))
    fire = battle_draw.layers(scene).fire
    d.click(_centre(d, game, uid))
    d.frames(2)
    assert fire.renders == 1 and fire.surface is not None
    longest, ring = battle_draw._fire_zone(scene, uid)
    assert longest == 24 and len(ring) > 4
    unit = game.state.units[uid]
    ahead = d.table_px(unit.pose.advanced(unit.formation.depth / 2 + longest - 1).xy)
    behind = d.table_px(unit.pose.advanced(-unit.formation.depth / 2 - 3).xy)
    from game.ui.draw_terrain import point_in_polygon
    assert point_in_polygon(scene.view.to_table(ahead), ring)             # in range straight ahead
    assert not point_in_polygon(scene.view.to_table(behind), ring)        # not behind
    kinds = [p.kind for p in battle_draw.layers(scene).labels.placed]
    assert "fire zone" in kinds
    shooter = next(u.id for u in game.state.units_of(1) if u.on_table and game.shooting_targets(u.id))
    d.click(_centre(d, game, shooter))                  # a unit with targets: no zone, its targets instead
    d.frames(2)
    assert battle_draw._aimless(scene, battle_draw.aids(scene)) is None
    assert "fire zone" not in [p.kind for p in battle_draw.layers(scene).labels.placed]
    assert scene.last_exception is None


def test_a_greyed_undo_says_why_on_the_button(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Words that agree: after a shot's dice, Undo is greyed and its label says why, not only its tooltip."""
    d, scene, game = _battle(driver_factory)
    undo = scene.actions.buttons["undo"]
    assert not undo.is_enabled and undo.text == "↶ Undo: nothing yet"
    for _ in range(4):
        d.key(pygame.K_SPACE)
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    shooter = next(u.id for u in game.state.units_of(1) if u.on_table and game.shooting_targets(u.id))
    d.click(_centre(d, game, shooter))
    d.click(_centre(d, game, game.shooting_targets(shooter)[0]))
    assert type(game.history[-1]).__name__ == "Shoot" and game.dice.consumed > 0
    undo = scene.actions.buttons["undo"]
    assert not undo.is_enabled and undo.text == "↶ Undo: dice rolled", undo.text
    assert "Dice were rolled" in undo.tool_tip_text
    assert scene.last_exception is None


def _text_box(button) -> pygame.Rect:  # type: ignore[no-untyped-def]
    """The box of a button's bright (text) pixels, in the button's own coordinates."""
    img = button.image
    w, h = img.get_size()
    xs = [x for x in range(w) for y in range(4, h - 4) if sum(img.get_at((x, y))[:3]) > 600]
    ys = [y for x in range(w) for y in range(4, h - 4) if sum(img.get_at((x, y))[:3]) > 600]
    assert xs and ys
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def test_the_menu_shows_the_whole_new_battle_label(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The set-up button's label was laid out for a button twice as wide, then cut ("New batt")."""
    d = driver_factory(size=(1600, 1000))
    d.frames(2)
    menu = d.scene
    for button in (menu.setup_button, menu.lessons_button):
        box = _text_box(button)
        w = button.rect.w
        assert box.left > 4 and box.right < w - 4, (button.text, box, w)     # not cut at either side
        assert abs(box.centerx - w / 2) < 8, (button.text, box, w)           # centred
    d.click_button(menu.setup_button)
    assert type(d.scene).__name__ == "ArmyScene", type(d.scene)        # the set-up opens


def _text_width(surf: pygame.Surface, rect: pygame.Rect) -> int:
    """Width of the light (text) pixels inside ``rect``: the felt and the forest are darker."""
    xs = [x for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
          if min(surf.get_at((x, y))[:3]) > 120]
    return max(xs) - min(xs) + 1 if xs else 0


def test_a_terrain_piece_at_the_table_edge_keeps_its_words_whole_in_the_table_editor() -> None:
    """The set-up's table paints names into the terrain layer: a piece at the edge had "over, difficult, sight in"
    cut; its name and traits now stay whole on the table."""
    from game.ui.draw_terrain import StaticLayer
    from game.ui.table_view import TableView
    from geometry.terrain import TerrainShape

    def wood(x0: float) -> TerrainShape:
        return TerrainShape(0, "Alder Grove", ((x0, 20), (x0 + 7, 20), (x0 + 7, 27), (x0, 27)),
                            frozenset({"cover", "difficult", "see_into_not_through"}))

    widths = []
    for x0 in (0.0, 30.0, 65.0):                    # left edge, middle, right edge
        surf = pygame.Surface((1200, 800))
        view = TableView(pygame.Rect(0, 0, 1200, 800), 72, 48)
        view.fit()
        StaticLayer(72, 48, [wood(x0)], ["forest"]).draw(surf, view)
        top, bottom = view.to_screen_int((0, 27))[1], view.to_screen_int((0, 20))[1]
        band = pygame.Rect(view.table_rect.left, top, view.table_rect.w, bottom - top)   # the piece's rows
        widths.append(_text_width(surf, band))
    assert widths[1] > 120, widths                 # the traits line is wider than the 7" piece
    assert abs(widths[0] - widths[1]) <= 2 and abs(widths[2] - widths[1]) <= 2, widths


def test_the_first_hand_over_shows_the_deployment_roll_off_and_its_dice(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """A new battle opens on a hand-over that says who won the deployment roll-off, with the dice."""
    from game.ui.scenes.battle import BattleScene
    from tests.ui.test_ui_deployment import _deployment_game

    d = driver_factory()
    game, kinds = _deployment_game()
    rolls = [e for e in game.log if e.kind == "roll" and "roll-off" in str(e.data.get("purpose", "")).lower()]
    assert rolls and not game.history
    d.app.switch(BattleScene(d.app, game, None, kinds))
    d.frames(2)
    hand = d.scene
    assert isinstance(hand, HandoverScene)
    text = " ".join(hand.recent)
    assert "roll-off" in text.lower() and any(str(v) in text for v in rolls[0].data["dice"]), text
    d.pass_handover()
    assert isinstance(d.scene, BattleScene)


def test_choosing_advance_after_a_drag_just_past_it_pulls_the_ghost_back(battle) -> None:  # type: ignore[no-untyped-def]
    """A drag of 6.3" is a legal Rush; pressing Advance then pulls the ghost back to 6" (not a red ghost)."""
    from game.engine.actions import Move
    from game.engine.movement import move_allowance
    from game.engine.state import MoveAction
    from tests.ui.test_ui_turn import _to_movement

    scene = _to_movement(battle)
    game = scene.game
    uid = next(u for u in game.units_to_move(1)
               if game.check_move(Move(1, u, "rush", (game.state.units[u].pose.advanced(
                   move_allowance(game.state.units[u], MoveAction.ADVANCE) + 0.4),))) is None)
    unit = game.state.units[uid]
    advance = move_allowance(unit, MoveAction.ADVANCE)
    battle.drag(battle.table_px(unit.pose.xy), battle.table_px(unit.pose.advanced(advance + 0.4).xy))
    tool = scene.tool
    assert tool.evaluate().legal and tool.evaluate().action == "rush"
    battle.click_button(scene.actions.buttons["advance"])
    ev = tool.evaluate()
    assert tool.forced == "advance" and ev.legal and ev.action == "advance", ev.error
    assert advance - 0.1 < ev.distance <= advance + 1e-6 and tool.pulled is not None
    battle.key(pygame.K_RETURN)
    assert isinstance(game.history[-1], Move) and game.history[-1].action == "advance"
    assert scene.last_exception is None


def test_a_greyed_undo_keeps_its_reason_in_a_crowded_bar(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Moving a unit fills the bar (Hold, Advance, Rush, Confirm, Cancel, Done): the right-hand buttons take their
    short labels, and a greyed Undo's short label still says why."""
    from tests.ui.conftest import DEFAULT_SCENARIO
    from tests.ui.test_ui_turn import _to_movement

    d = driver_factory(size=(1600, 1000), start_scenario=DEFAULT_SCENARIO, seed=11)
    d.frames(2)
    d.pass_handover()
    scene = _to_movement(d)
    game = scene.game
    unit = game.state.units[game.units_to_move(1)[0]]
    d.drag(d.table_px(unit.pose.xy), d.table_px(unit.pose.advanced(2.0).xy))
    assert scene.tool is not None and "rush" in scene.actions.buttons
    assert scene.actions.buttons["save"].text == "Save"                 # shortened: the bar is crowded
    scene.rewinder = None                                              # nothing of this game can be taken back
    scene._sync()
    d.frames(2)
    undo = scene.actions.buttons["undo"]
    assert not undo.is_enabled and undo.text == "↶ Undo: made earlier", undo.text


def test_a_lesson_says_press_done_only_where_the_button_is_called_done() -> None:
    """Words that agree: a lesson step that says "Press Done" is answered by a button whose label starts with Done
    (the consolidation's is "Skip: stay in place")."""
    from game.tutorial import LessonRun, lesson_files
    from game.ui.decisions import DONE_LABELS

    checked = 0
    for path in lesson_files():
        run = LessonRun(path)
        while not run.finished:
            words = " ".join(filter(None, (run.text, run.step.hint)))
            pending = run.game.pending
            if "Press Done" in words and pending is not None:
                label = DONE_LABELS.get(pending.decision, "")
                assert label.startswith("Done"), (path.name, run.step.id, pending.decision, label)
                checked += 1
            run.skip()
    assert checked >= 15


def test_a_tough_unit_in_dangerous_terrain_rolls_dice_the_panel_explains(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Dice you can read: Mountain Riders (Tough(3)) rush across the river (dangerous when rushing): the dice panel
    shows one die per wound point and says why ("5 models ... × Tough(3) = 15 dice"), on 24 px dice."""
    from game.ui import dice_panel

    d, scene, game = _battle(driver_factory, moves={"riders-1": (55, 18, 0)})
    d.key(pygame.K_SPACE)                                   # strategy: Done
    d.key(pygame.K_SPACE)                                   # no charges
    assert game.pending.decision == "move"
    unit = game.state.units["riders-1"]
    d.drag(_centre(d, game, "riders-1"), d.table_px(unit.pose.advanced(9.0).xy))
    ev = scene.tool.evaluate()
    assert ev.legal and ev.action == "rush" and ev.terrain, (ev.error, ev.terrain)
    d.key(pygame.K_RETURN)
    rolls = [e for e in game.log if e.kind == "roll" and "angerous" in str(e.data.get("purpose", ""))]
    assert rolls, [e.text for e in game.log[-5:]]
    data = rolls[-1].data
    why = " ".join(data["details"])
    n = int(why.split(" model")[0])
    assert f"× Tough(3) = {3 * n} dice" in why and len(data["dice"]) == 3 * n, why
    shown = [r for r in scene.dice.rolls if "Tough(3)" in " ".join(r.get("details", []))]
    assert shown, scene.dice.rolls                          # the panel has the roll with its words
    full = dice_panel.render_rolls(shown, (400, 200))
    lean = dice_panel.render_rolls(shown, (400, 200), die=12)
    assert full.get_bounding_rect().h > lean.get_bounding_rect().h   # 24 px dice by default
    assert scene.last_exception is None


def test_the_move_preview_and_the_log_name_a_pivot_alike(battle) -> None:  # type: ignore[no-untyped-def]
    """Words that agree: three presses of Q turn the ghost 15° left; the preview's words are the log's."""
    from game.engine.movement import pivot_text
    from tests.ui.test_ui_turn import _to_movement

    scene = _to_movement(battle)
    game = scene.game
    uid = game.units_to_move(1)[0]
    unit = game.state.units[uid]
    battle.drag(battle.table_px(unit.pose.xy), battle.table_px(unit.pose.advanced(3.0).xy))
    for _ in range(3):
        battle.key(pygame.K_q)
    ev = scene.tool.evaluate()
    assert ev.legal and len(ev.pivots) == 1
    words = pivot_text(ev.pivots[0])
    assert words == "15° left", words                       # not "-15°"
    battle.key(pygame.K_RETURN)
    assert any(f"pivots {words}" in e.text for e in game.log[-3:]), [e.text for e in game.log[-3:]]
