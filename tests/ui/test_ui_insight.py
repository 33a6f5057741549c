"""The table's geometry made visible, driven by posted events as a player would: arcs, measuring tape, charge
reach and targets before declaring, reasons for illegal targets, shooters in range, expandable rolls, the unit
card's rules, and the consequences of close combat (flight, pursuit, consolidation)."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pygame
import pytest
import yaml

from game.engine.actions import (
    ChargeReaction,
    Consolidate,
    DeclareCharge,
    Done,
    FollowUp,
    Pursue,
    Redirect,
    Shoot,
)
from game.ui import battle_draw
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene
from game.ui.trails import Fate, Trail

ROOT = Path(__file__).resolve().parents[2]

FACE_OFF = {"pikemen-1": (30, 17, 0), "swordsmen-1": (40, 16, 0), "riders-1": (55, 17, 0),
            "archers-1": (14, 18, 0), "crossbows-1": (47, 19, 10),
            "spearmen-1": (31, 29, 180), "brutes-1": (39, 28.5, 200), "soot-archers-1": (47, 31, 180),
            "dread-riders-1": (61, 29, 200)}
"""The default armies face to face across the ford, within charge and shooting range."""


def _face_off(seed: int = 3, options: dict | None = None,  # type: ignore[no-untyped-def]
              moves: dict[str, tuple[float, float, float]] | None = None):
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state

    path = ROOT / "scenarios" / "default.yaml"
    data = yaml.safe_load(path.read_text())
    data.pop("start", None)
    data["options"].update(options or {})
    poses = dict(FACE_OFF, **(moves or {}))     # ``moves``: other poses for some units
    for army in data["armies"]:
        for u in army["units"]:
            if u["id"] in poses:
                x, y, f = poses[u["id"]]
                u["pose"] = {"x": x, "y": y, "facing": f}
    scenario = load_scenario_mapping(data, path)
    return Game.start(new_game_state(scenario), Dice(seed=seed)), list(scenario.terrain_kinds)


def _battle(driver_factory, seed: int = 3, moves: dict[str, tuple[float, float, float]] | None = None,  # type: ignore[no-untyped-def]
            size: tuple[int, int] = (1400, 900)):
    d = driver_factory(size=size)
    game, kinds = _face_off(seed, moves=moves)
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.pass_handover()
    assert d.scene is scene
    return d, scene, game


def _centre(d, game, uid: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return d.table_px(game.state.units[uid].pose.xy)


def test_arcs_toggle_draws_the_quadrants(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    uid = "pikemen-1"
    unit = game.state.units[uid]
    battle.click(battle.table_px(unit.pose.xy))
    assert scene.selected == uid
    ahead = battle.table_px(unit.pose.advanced(unit.formation.depth / 2 + 3.0).xy)
    battle.move((ahead[0] + 200, ahead[1] + 400))       # the mouse away from the table
    before = tuple(battle.app.screen.get_at(ahead))
    battle.key(pygame.K_a)
    assert scene.show_arcs
    assert battle_draw.layers(scene).arcs.renders >= 1
    after = tuple(battle.app.screen.get_at(ahead))
    assert after != before                               # the front arc is tinted
    wedges = scene.insight.arcs(uid)
    assert wedges is not None and len(wedges) == 4
    assert scene.tools.buttons["arcs"].object_ids[-1] == "#tool_on"
    battle.key(pygame.K_a)
    assert not scene.show_arcs
    assert tuple(battle.app.screen.get_at(ahead)) == before
    assert scene.last_exception is None


def test_measure_snaps_to_the_unit_under_the_mouse(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    s = game.state
    battle.key(pygame.K_m)
    assert scene.measure
    battle.click(battle.table_px(s.units["archers-1"].pose.xy))      # picks the unit to measure from
    assert scene.selected == "archers-1"
    assert len(game.history) == 0                                      # and does nothing else
    battle.move(battle.table_px(s.units["spearmen-1"].pose.xy))
    m = battle_draw.aids(scene).measurement
    assert m is not None and m.target == "spearmen-1"
    assert m.distance == pytest.approx(s.scene.distance("archers-1", "spearmen-1"))
    assert abs(((m.a[0] - m.b[0]) ** 2 + (m.a[1] - m.b[1]) ** 2) ** 0.5 - m.distance) < 1e-6
    point = (40.0, 30.0)
    battle.move(battle.table_px(point))
    m = battle_draw.aids(scene).measurement
    assert m is not None and m.target is None
    here = scene.view.to_table(scene.mouse)
    assert m.distance == pytest.approx(s.scene.distance_to_point("archers-1", here))
    battle.key(pygame.K_m)
    assert not scene.measure
    assert scene.last_exception is None


def test_selecting_a_unit_in_step_2_1_shows_exactly_its_charge_targets(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)                                  # strategy: Done
    assert game.pending.decision == "declare_charge"
    uid = "riders-1"
    expected = game.charge_targets(uid)
    assert expected
    d.click(_centre(d, game, uid))
    assert scene.selected == uid
    a = battle_draw.aids(scene)
    assert a.charge is not None and a.charge.reach            # the reach outline
    assert sorted(battle_draw.target_ids(scene)) == sorted(expected)
    assert sorted(a.charge.plans) == sorted(expected)         # side and final pose of each
    for tid, plan in a.charge.plans.items():
        assert plan.target == tid and plan.distance <= a.charge.allowance
    # nothing is computed again while nothing changes
    computed = scene.insight.computed
    renders = battle_draw.layers(scene).base_renders
    d.frames(10)
    assert scene.insight.computed == computed
    assert battle_draw.layers(scene).base_renders == renders
    # a valid target under the mouse: no reason, the plan's side in the note; a click declares
    d.move(_centre(d, game, expected[0]))
    assert battle_draw.aids(scene).charge_problem is None
    d.click(_centre(d, game, expected[0]))
    assert isinstance(game.history[-1], DeclareCharge) and game.history[-1].target == expected[0]
    assert scene.last_exception is None


def test_hovering_an_enemy_that_cannot_be_charged_says_why_and_where(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)
    uid = "pikemen-1"
    d.click(_centre(d, game, uid))
    assert scene.selected == uid
    for enemy in ("spearmen-1", "dread-riders-1"):
        assert enemy not in game.charge_targets(uid)
        d.move(_centre(d, game, enemy))
        problem = battle_draw.aids(scene).charge_problem
        assert problem is not None and problem.rule and problem.message
        assert game.state.units[enemy].profile.name in problem.message
        assert problem.where is not None                      # a cross marks the place
    assert len(game.history) == 1                            # hovering changes nothing
    assert scene.last_exception is None


def test_shooting_highlights_the_models_that_can_fire_and_rolls_open_to_their_modifiers(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    for _ in range(4):
        d.key(pygame.K_SPACE)
    assert game.pending.decision == "shoot"
    uid, target = "crossbows-1", "soot-archers-1"
    d.click(_centre(d, game, uid))
    d.move(_centre(d, game, target))
    shot = battle_draw.aids(scene).shot
    assert shot is not None and shot.reason is None
    rows = 2
    assert shot.models == sorted(game.state.scene.models_with_sight(uid, target, rows, 24.0))
    assert shot.quality.startswith("Quality")
    d.click(_centre(d, game, target))
    assert isinstance(game.history[-1], Shoot)
    d.move(_centre(d, game, target))
    shot = battle_draw.aids(scene).shot
    assert shot is not None and shot.reason is not None       # every weapon has fired
    # a roll of the log opens to its modifiers with a click on it
    d.frames(2)
    log = scene.log
    rolls = log.roll_numbers()
    assert rolls
    box = log.box
    base_x, base_y = box._calculate_hyperlinks_offsets()
    chunks = [c for c in box.link_hover_chunks if c.href.startswith("roll:")]
    visible = [c for c in chunks if box.rect.collidepoint(base_x + c.x + 4, base_y + c.y + c.size[1] // 2)]
    assert visible
    chunk = visible[-1]
    n = int(chunk.href.split(":")[1])
    d.click((round(base_x + chunk.x + 6), round(base_y + chunk.y + chunk.size[1] // 2)), frames=4)
    assert n in log.expanded
    roll = next(item for k, item in log.entries if k == n)
    text = "<br>".join(log.lines)
    for detail in roll.data["details"]:
        assert escape(detail) in text
    assert "Dice " in text
    log.toggle(n)
    assert n not in log.expanded
    assert scene.last_exception is None


def test_unit_card_lists_the_special_rules_and_what_is_in_force(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.special_rules import RULES, describe
    d, scene, game = _battle(driver_factory)
    uid = "riders-1"
    d.click(_centre(d, game, uid))
    assert scene.selected == uid
    d.frames(1)
    card = scene.card.html
    unit = game.state.units[uid]
    rules = describe(unit)
    assert rules
    for label, summary in rules:
        assert escape(label) in card
        assert escape(summary) in card
    assert "Fast" in card and escape(RULES["Fast"].summary) in card
    assert "In force" in card
    # an enemy under the mouse: the modifiers between them
    d.move(_centre(d, game, "soot-archers-1"))
    assert "Against Soot Archers" in scene.card.html
    assert scene.last_exception is None


def _to_consolidation(seed: int = 2):  # type: ignore[no-untyped-def]
    """Charge with the riders and the swordsmen, hold, fight; pursue: stop at the first consolidation."""
    game, kinds = _face_off(seed)
    game.apply(Done(player=1))
    game.apply(DeclareCharge(player=1, unit="riders-1", target="soot-archers-1"))
    game.apply(DeclareCharge(player=1, unit="swordsmen-1", target="brutes-1"))
    for _ in range(80):
        p = game.pending
        if p.decision == "consolidate":
            return game, kinds
        if p.decision == "charge_reaction":
            game.apply(ChargeReaction(player=p.player, unit=p.unit, reaction="hold"))
        elif p.decision == "pursue":
            game.apply(Pursue(player=p.player, unit=p.unit, pursue=True))
        elif p.decision == "follow_up":
            game.apply(FollowUp(player=p.player, unit=p.unit, follow_up=False))
        elif p.decision == "redirect":
            game.apply(Redirect(player=p.player, unit=p.unit, target=None))
        else:
            game.apply(Done(player=p.player))
    raise AssertionError("no consolidation decision")


def test_flight_pursuit_and_consolidation_are_shown_and_the_move_is_checked(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory()
    game, kinds = _to_consolidation()
    scene = BattleScene(d.app, game, None, kinds)
    scene.turn_with_seat = False
    d.app.switch(scene)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert d.scene is scene
    pending = game.pending
    assert pending.decision == "consolidate"
    # the last combat: the flight and the pursuit lines, and the unit caught
    kinds_shown = {t.kind for t in scene.trails.last if isinstance(t, Trail)}
    assert {"flee", "pursuit"} <= kinds_shown
    assert any(isinstance(t, Fate) and "routed" in t.label for t in scene.trails.last)
    d.key(pygame.K_c)
    assert scene.show_trails
    assert scene.trails.shown(scene.time, True)
    # the consolidation ghost: 5" is refused by the engine's rule, at its place; 2" is fine
    tool = scene.tool
    assert tool is not None and tool.kind == "consolidate" and tool.unit.id == pending.unit
    unit = game.state.units[pending.unit]
    start = d.table_px(unit.pose.xy)
    d.drag(start, d.table_px(unit.pose.advanced(5.0).xy))
    ev = tool.evaluate()
    assert not ev.legal and ev.error.rule == "Consolidation Moves" and ev.error.where is not None
    tool.reset()
    d.drag(start, d.table_px(unit.pose.advanced(2.0).xy))
    ev = scene.tool.evaluate()
    assert ev.legal, ev.error
    n = len(game.history)
    d.key(pygame.K_RETURN)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert len(game.history) == n + 1 and isinstance(game.history[n], Consolidate)
    assert any(isinstance(t, Trail) and t.kind == "consolidate" for t in scene.trails.last)
    assert scene.last_exception is None


def test_sight_lines_go_to_exactly_the_enemies_the_geometry_sees(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    uid = "pikemen-1"
    d.click(_centre(d, game, uid))
    d.key(pygame.K_v)
    assert scene.show_sight
    sight = battle_draw.aids(scene).sight
    assert sight is not None
    s = game.state
    enemies = [e.id for e in s.enemies_of(1) if e.on_table]
    assert sorted(sight.seen) == sorted(s.scene.visible_units(uid, enemies))
    assert sorted(sight.unseen) == sorted(set(enemies) - set(sight.seen))
    for tid, (p, q) in sight.seen.items():
        assert s.scene.line_clear(p, q, ignore_units=(tid,), looker_id=uid)
    d.key(pygame.K_v)
    assert battle_draw.aids(scene).sight is None
    assert scene.last_exception is None


def test_after_declaring_the_target_shows_the_charge_not_a_refusal(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Right after a charge is declared, hovering its target says what was done (green), not why a second charge
    is impossible (red)."""
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)
    uid = "riders-1"
    target = game.charge_targets(uid)[0]
    d.click(_centre(d, game, uid))
    d.click(_centre(d, game, target))
    assert isinstance(game.history[-1], DeclareCharge)
    d.click(_centre(d, game, uid))
    d.move(_centre(d, game, target))
    assert scene.selected == uid
    assert battle_draw.aids(scene).charge_problem is not None          # the engine would refuse a second one
    lines = battle_draw._done_to(scene, uid, target)
    assert lines and lines[0][0].startswith("✔ Charge declared against")
    assert scene.last_exception is None


def test_a_unit_without_targets_says_why_for_each_nearby_enemy(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Selecting an own unit with no valid target names, for the nearest enemies, the reason each is not one."""
    d, scene, game = _battle(driver_factory)
    for _ in range(4):                                  # strategy, no charges, no moves, second strategy
        d.key(pygame.K_SPACE)
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    assert game.pending.decision == "shoot"
    uid = next(u.id for u in game.state.units_of(1) if u.on_table and not game.shooting_targets(u.id))
    d.click(_centre(d, game, uid))
    text = scene.banner[0]
    assert text.startswith(f"{game.state.units[uid].profile.name}: no valid target (Picking Targets) — "), text
    nearest = min((e for e in game.state.enemies_of(1) if e.on_table),
                  key=lambda e: game.state.scene.distance(uid, e.id))
    from game.ui.dice_panel import short_purpose
    rule, _, why = short_purpose(scene.insight.shot(uid, nearest.id).reason).partition(": ")
    assert rule == "Picking Targets" and why in text      # the rule named once, each enemy's reason after it
