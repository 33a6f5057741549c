"""Drawing the battle scene: the table, units, outlines of actors and targets, the move ghost and its note,
declared charges, measuring tapes, the broken rule and the banner. Everything here only reads the game and the
scene's interaction state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import palette
from game.ui.draw_terrain import TRAIT_WORDS
from game.ui.move_tool import MoveTool
from game.ui.overlays import (
    draw_banner,
    draw_cross,
    draw_note,
    draw_tape,
    draw_zone,
    note_size,
    place_note,
    pulse,
)
from game.ui.picking import closest_point_on_unit, closest_points_between
from geometry.formation import footprint_corners
from geometry.pose import Point

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene


def draw(scene: BattleScene, screen: pygame.Surface) -> None:
    """Draw the battle scene: table, units, highlights, ghost, labels, tapes and notes. Reads, never changes."""
    screen.fill(palette.BACKGROUND)
    view = scene.view
    s = scene.game.state
    pending = scene.game.pending
    scene.static.draw(screen, view)
    clip = screen.get_clip()
    screen.set_clip(view.rect)
    if pending is not None and pending.decision == "deploy":
        draw_zone(screen, view, *scene.deploy_zone(pending.player), palette.PLAYER[pending.player])
    own_done: set[str] = set()
    if pending is not None and pending.decision in ("move", "declare_charge", "shoot"):
        own_done = {u.id for u in s.units_of(pending.player) if u.id not in scene.actors}
    scene.painter.draw_units(screen, view, s, dimmed=own_done, poses=scene.anims.poses(scene.time))
    outlines: dict[str, tuple[tuple[int, int, int], int]] = {}
    for uid in scene.actors:
        outlines[uid] = (palette.LEGAL, 1)
    targets = scene.targets_of(scene.selected) if scene.selected else []
    if pending is not None and pending.decision == "redirect" and pending.unit:
        targets = scene.targets_of(pending.unit)
    glow = pulse(scene.time)
    tcol = tuple(int(c * (0.6 + 0.4 * glow)) for c in palette.TARGET)
    for uid in targets:
        outlines[uid] = (tcol, 3)  # type: ignore[assignment]
    if scene.selected:
        outlines[scene.selected] = (palette.SELECT, 2)
    for uid, strength in scene.anims.flash(scene.time).items():
        if uid not in outlines or outlines[uid][1] < 3:
            outlines[uid] = (palette.FLASH, 2 + round(2 * strength))
    scene.painter.draw_outlines(screen, view, s, outlines)
    _draw_declared_charges(scene, screen)
    # distances to the valid targets
    if scene.selected and targets and scene.selected in s.units and s.units[scene.selected].on_table:
        for uid in targets:
            if uid != scene.selected and uid in s.units and s.units[uid].on_table:
                a, b = closest_points_between(s.units[scene.selected], s.units[uid])
                draw_tape(screen, view, a, b, f'{s.scene.distance(scene.selected, uid):.1f}"', palette.TARGET, 1)
    t = scene.tool
    if t is not None and (t.kind != "move" or t.changed or t.dragging or t.legs):
        ev = t.evaluate()
        if t.kind in ("move", "consolidate"):
            path = [t.start] + list(t.legs)
        elif t.kind == "scout" and t.unit.pose is not None:
            path = [t.unit.pose, t.start]
        else:
            path = []
        scene.painter.draw_ghost(screen, view, t.unit, t.ghost, ev.legal, path)
    scene.painter.draw_labels(screen, view, s, scene.selected)
    _draw_tapes(scene, screen)
    if t is not None:
        _draw_ghost_note(scene, screen, t)
    if scene.error is not None and scene.error.where is not None:
        draw_cross(screen, view, scene.error.where, palette.ILLEGAL)
    if scene.hover_terrain is not None and not scene.panning and (t is None or not (t.dragging or t.changed)) \
            and not scene.measure:
        head, traits = scene.static.describe(scene.hover_terrain)
        draw_note(screen, scene.mouse, [(head, (235, 235, 235)), (traits, (200, 206, 210))], view.rect, 13)
    screen.set_clip(clip)
    if scene.banner is not None:
        text, colour, until = scene.banner
        alpha = max(0.0, min(1.0, (until - scene.time) / 0.6))
        draw_banner(screen, view.rect, text, colour, alpha)
    if scene.last_exception is not None:
        draw_banner(screen, pygame.Rect(view.rect.x, view.rect.y, view.rect.w, 60),
                    f"Engine error (see the terminal): {scene.last_exception}", palette.ILLEGAL)

def _draw_declared_charges(scene: BattleScene, screen: pygame.Surface) -> None:
    """Charges declared this movement phase and not yet moved: an amber tape from charger to target."""
    s = scene.game.state
    if s.phase.value != "movement":
        return
    for charge in s.charges:
        if charge.resolved:
            continue
        a, b = s.units.get(charge.unit), s.units.get(charge.target)
        if a is None or b is None or not a.on_table or not b.on_table:
            continue
        pa, pb = closest_points_between(a, b)
        scene.painter.draw_outlines(screen, scene.view, s, {a.id: (palette.SHAKEN, 3)})
        draw_tape(screen, scene.view, pa, pb, f"charge {s.scene.distance(a.id, b.id):.1f}\"", palette.SHAKEN, 3)

def _draw_tapes(scene: BattleScene, screen: pygame.Surface) -> None:
    s = scene.game.state
    view = scene.view
    sel = s.units.get(scene.selected) if scene.selected else None
    if sel is None or not sel.on_table:
        return
    if scene.measure and view.rect.collidepoint(scene.mouse):
        p = view.to_table(scene.mouse)
        q = closest_point_on_unit(sel, p)
        draw_tape(screen, view, q, p, f'{s.scene.distance_to_point(sel.id, p):.1f}"')
    elif scene.hover and scene.hover != scene.selected and scene.hover in s.units and s.units[scene.hover].on_table \
            and scene.hover not in scene._targets.get(scene.selected or "", []):
        a, b = closest_points_between(sel, s.units[scene.hover])
        draw_tape(screen, view, a, b, f'{s.scene.distance(sel.id, scene.hover):.1f}"')

def _draw_ghost_note(scene: BattleScene, screen: pygame.Surface, t: MoveTool) -> None:
    if t.kind == "move" and not (t.changed or t.legs):
        return
    ev = t.evaluate()
    corners = [scene.view.to_screen(p) for p in _corners(t)]
    anchor = (max(c[0] for c in corners), max(c[1] for c in corners))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    around = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if t.kind == "move":
        name = ev.action.capitalize()
        head = f"{name}: {ev.distance:.1f}\""
        if ev.allowance is not None and ev.action == "advance":
            head += f" of {ev.allowance:g}\""
        elif ev.action == "rush" and ev.allowance is not None:
            head += f" (Advance {ev.allowance:g}\")"
    elif t.kind == "consolidate":
        head = f"Consolidation: {ev.distance:.1f}\" of 3\""
    elif t.kind == "rally":
        head = f"Rally pivot to {t.ghost.facing:.0f}°"
    elif t.kind == "scout":
        head = f"Scout: {ev.distance:.1f}\" of 12\""
    else:
        head = f"Deploy at ({t.ghost.x:.1f}, {t.ghost.y:.1f}) facing {t.ghost.facing:.0f}°"
    colour = palette.LEGAL if ev.legal else palette.ILLEGAL
    lines.append(((("✔ " if ev.legal else "✘ ") + head), colour))
    if ev.pivots:
        lines.append(("Pivots " + ", ".join(f"{p:+.0f}°" for p in ev.pivots), (230, 230, 230)))
    if ev.terrain:
        traits = f": {', '.join(TRAIT_WORDS.get(x, x) for x in ev.traits)}" if ev.traits else ""
        lines.append((f"Through {', '.join(ev.terrain)}{traits}", (230, 230, 230)))
    rushing = t.kind == "move" and ev.action == "rush"
    if "dangerous" in ev.traits or (rushing and "dangerous_when_rushing" in ev.traits):
        lines.append(("⚠ Dangerous terrain: a test for every model moving through", palette.SHAKEN))
    if ev.error is not None:
        lines.append((f"{ev.error.rule}: {ev.error.message}", palette.ILLEGAL))
        for name, other in ev.others:
            lines.append((f"As {name.capitalize()}: {other.rule}: {other.message}", (240, 150, 140)))
        if ev.error.where is not None:
            draw_cross(screen, scene.view, ev.error.where, palette.ILLEGAL)
    else:
        lines.append(("Enter confirms · Esc cancels", (170, 178, 184)))
    avoid = []
    for u in scene.game.state.units.values():
        if u.on_table and u.id != t.unit.id:
            assert u.pose is not None
            pts = [scene.view.to_screen(p) for p in footprint_corners(u.pose, u.formation)]
            px, py = [p[0] for p in pts], [p[1] for p in pts]
            avoid.append(pygame.Rect(min(px), min(py) - 16, max(px) - min(px) + 1, max(py) - min(py) + 32))
    at = place_note(note_size(lines), around, scene.view.rect, avoid)
    draw_note(screen, anchor, lines, scene.view.rect, at=at)


def _corners(t: MoveTool) -> list[Point]:
    return list(footprint_corners(t.ghost, t.unit.formation))
