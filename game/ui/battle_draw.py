"""Drawing the battle scene: the table, units, outlines of actors and targets, and everything the table's geometry
says about the selected unit (``game.ui.insight``): facing arcs, sight lines, charge reach with each valid target's
contacted side and final pose, the reason an enemy may not be charged or shot, the models that can fire, the
measuring tape, exclusion zones and terrain crossed while dragging a move, the move ghost and its note, the last
combat's moves (``game.ui.trails``) and the banner. Everything here only reads the game and the scene's
interaction state; what is expensive is cached per game position and view (``AlphaLayer``, ``Insight``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.engine import shooting
from game.engine.actions import CastSpell, DeclareCharge, Shoot
from game.engine.errors import IllegalAction
from game.engine.movement import move_allowance, pivot_text
from game.engine.state import GameState, MoveAction, Phase
from game.ui import decisions, odds_panel, palette, spell_aim
from game.ui import label_layout as prio
from game.ui.assets import text_cache
from game.ui.draw_objectives import draw_marker_ghost, draw_objectives, marker_boxes
from game.ui.draw_side_missions import draw_seat_line, draw_selection_card, seat_line
from game.ui.draw_terrain import TRAIT_WORDS
from game.ui.insight import (
    ChargePreview,
    Measurement,
    ShotPreview,
    SightPreview,
    arc_wedges,
    contact_side,
    corners,
)
from game.ui.label_layout import Label, LabelLayout
from game.ui.move_tool import MoveTool
from game.ui.overlays import (
    AlphaLayer,
    dashed_polyline,
    draw_arrow,
    draw_cross,
    draw_news,
    draw_note,
    draw_tape,
    draw_zone_polygon,
    faded,
    label_at,
    note_size,
    place_note,
    pulse,
    zone_label,
)
from game.ui.picking import closest_points_between
from game.ui.trails import Fate, Trail
from game.ui.view_tools import BAND
from geometry.arcs import Arc
from geometry.formation import footprint_corners
from geometry.pose import Point

if TYPE_CHECKING:
    from game.ui.scene_protocols import BattleSceneLike

ARC_COLOURS = {Arc.FRONT: (90, 220, 120), Arc.LEFT: (255, 214, 64), Arc.RIGHT: (255, 214, 64),
               Arc.REAR: (240, 90, 70)}
"""Tint of each facing arc."""
ARC_NAMES = {Arc.FRONT: "FRONT", Arc.LEFT: "LEFT FLANK", Arc.RIGHT: "RIGHT FLANK", Arc.REAR: "REAR"}
"""Label of each facing arc."""
REACH = (255, 196, 60)
FIRE = (120, 200, 255)
"""The range and front arc of a shooter without a target."""
"""Charge reach outline."""
SIGHT = (150, 225, 255)
"""Sight lines."""
ZONE = (255, 255, 255)
"""Exclusion zones (1" around units) while dragging."""
CROSSED = (255, 230, 140)
"""Outline of terrain a move crosses."""
FIRING = (120, 255, 160)
"""Outline of the models that can fire at the target under the mouse."""
TRAIL_COLOURS = {"flee": palette.FLEEING, "pursuit": (255, 110, 60), "retreat": palette.SHAKEN,
                 "follow_up": (255, 230, 120), "charge": (255, 230, 120), "consolidate": palette.MEASURE}
"""Arrow colour of each kind of trail."""
GREY = (170, 178, 184)
"""Secondary text in notes."""
COMBAT_DECISIONS = ("redirect", "pursue", "follow_up", "consolidate")
"""Decisions during which the last combat's moves stay drawn (the flight the charger may run down, the fight the
winner pursues, follows up or consolidates after)."""


# --- what to show ------------------------------------------------------------------------------------------------


@dataclass
class Aids:
    """What the table shows about the selected unit this frame (all answers cached by ``Insight``)."""

    subject: str | None = None
    """The unit the aids are about (selected, or the charger redirecting)."""
    charge: ChargePreview | None = None
    """Charge reach and valid targets (step 2.1 with an own unit selected; 2.3 redirect)."""
    charge_problem: IllegalAction | None = None
    """Why the enemy under the mouse may not be charged."""
    shot: ShotPreview | None = None
    """The shooter's models that can fire at the enemy under the mouse, or why not (step 4.2)."""
    sight: SightPreview | None = None
    """Enemies the subject sees (V)."""
    measurement: Measurement | None = None
    """The tape (M)."""


def aids(scene: BattleSceneLike) -> Aids:
    """Work out (from the cache) what the table shows about the selected unit now."""
    s = scene.game.state
    pending = scene.game.pending
    d = pending.decision if pending is not None else None
    subject = scene.selected if scene.selected in s.units and (s.units[scene.selected].on_table or inside_transport(
        s, scene.selected)) else None
    if d == "redirect" and pending is not None and pending.unit in s.units:
        subject = pending.unit
    out = Aids(subject)
    if subject is None:
        return out
    insight = scene.insight
    unit = s.units[subject]
    hover = scene.hover if scene.hover in s.units and scene.hover != subject else None
    own = pending is not None and unit.player == pending.player
    if own and d in ("declare_charge", "redirect", "action"):   # "action": an activated unit may charge
        out.charge = insight.charge(subject)
        if hover is not None and s.units[hover].player != unit.player and out.charge is not None \
                and hover not in out.charge.plans and d in ("declare_charge", "action"):
            out.charge_problem = insight.charge_problem(subject, hover)
    if own and d == "shoot" and hover is not None and s.units[hover].player != unit.player:
        out.shot = insight.shot(subject, hover, decisions.shot_weapons(scene, subject))
    if scene.show_sight and unit.on_table:
        out.sight = insight.sight(subject)
    if scene.measure and unit.on_table and scene.view.rect.collidepoint(scene.mouse):
        out.measurement = insight.measure(subject, scene.view.to_table(scene.mouse), hover)
    return out


ZONE_KINDS = ("move", "consolidate", "deploy", "scout", "rally")
"""Tools that show the exclusion zones while the ghost is moved."""


class _Layers:
    """Cached layers of one scene."""

    def __init__(self) -> None:
        self.base: pygame.Surface | None = None
        self.base_key: object = None
        self.base_renders = 0
        """Times the base (table, units, labels) was redrawn into the cache (tests, benchmarks)."""
        self.last_view: object = None
        self.boxes: tuple[object, list[pygame.Rect]] = (None, [])
        self.bodies: tuple[object, tuple[int, int], list[pygame.Rect]] = (None, (0, 0), [])
        self.labels: LabelLayout | None = None
        self.standing: tuple[object, tuple[int, int], list[Label]] = (None, (0, 0), [])
        """The label layout of the last frame (tests check what it placed)."""
        self.arcs = AlphaLayer()
        self.reach = AlphaLayer()
        self.fire = AlphaLayer()
        self.zones = AlphaLayer()
        self.ghosts: dict[object, pygame.Surface] = {}
        self.near: tuple[object, list[str]] = (None, [])


_LAYERS: weakref.WeakKeyDictionary[Any, _Layers] = weakref.WeakKeyDictionary()


def layers(scene: BattleSceneLike) -> _Layers:
    """The cached layers of ``scene``."""
    got = _LAYERS.get(scene)
    if got is None:
        got = _LAYERS[scene] = _Layers()
    return got


# --- the frame ------------------------------------------------------------------------------------------------


def clear_band(scene: BattleSceneLike, screen: pygame.Surface) -> None:
    """Paint the band of the view strip over the table (``game.ui.view_tools.view_below``), which ``draw`` leaves
    alone (it draws inside the view only): else the last screen's pixels show there."""
    if scene.tools is not None:
        v = scene.view.rect
        screen.fill(palette.BACKGROUND, (v.x, v.y - BAND, v.w, BAND))


def draw(scene: BattleSceneLike, screen: pygame.Surface,
         over_table: Callable[[pygame.Surface, LabelLayout], None] | None = None) -> None:
    """Draw the battle scene: table, aids, units, highlights, ghost, labels, tapes and notes. Reads, never changes.

    ``over_table(screen, labels)`` draws more over the table (a lesson's highlights) before the labels are laid
    out, asking ``labels`` for its own labels so that they too keep clear of the others.

    The table, the aids under the units (arcs, charge reach, exclusion zones), the units and their labels form the
    *base*, cached on one surface while the view, the game position and what is shown stay the same; a frame in
    which nothing changed blits it and draws the small things over it (pulsing outlines, tapes, notes)."""
    view = scene.view
    s = scene.game.state
    pending = scene.game.pending
    a = aids(scene)
    t = scene.tool
    moving = t is not None and (t.kind != "move" or t.changed or t.dragging or bool(t.legs))
    zoned = t is not None and moving and (t.dragging or t.changed) and t.kind in ZONE_KINDS
    own_done: set[str] = set()
    if pending is not None and pending.decision in ("move", "declare_charge", "shoot", "activate"):
        own_done = {u.id for u in s.units_of(pending.player) if u.id not in scene.actors}
    dimmed = own_done | set(a.sight.unseen if a.sight is not None else ())
    poses = scene.anims.poses(scene.time)
    lay = layers(scene)
    key = (view.key, scene.insight.stamp, id(scene.static), frozenset(dimmed), scene.selected,
           a.subject if scene.show_arcs else None, a.charge.unit if a.charge is not None and a.charge.reach else None,
           (t.unit.id, _zone_reach(t)) if zoned and t is not None else None)
    steady = lay.last_view == view.key
    lay.last_view = view.key
    if poses or not steady:
        _draw_base(scene, screen, a, dimmed, poses, zoned)       # animating, panning or zooming: draw directly
    else:
        if key != lay.base_key or lay.base is None or lay.base.get_size() != screen.get_size():
            if lay.base is None or lay.base.get_size() != screen.get_size():
                lay.base = pygame.Surface(screen.get_size(), 0, screen)
            _draw_base(scene, lay.base, a, dimmed, poses, zoned)
            lay.base_key = key
            lay.base_renders += 1
        screen.blit(lay.base, view.rect.topleft, view.rect)
    clip = screen.get_clip()
    screen.set_clip(view.rect)
    labels = LabelLayout(view.rect, shy_of=_body_boxes(scene))
    lay.labels = labels
    if zoned and t is not None:
        _draw_broken_zones(scene, screen, t)
        _draw_crossed(scene, screen, t)
    _draw_outlines(scene, screen, a)
    if a.shot is not None and a.shot.models:
        _draw_firing_models(scene, screen, a.shot)
    if scene.show_arcs and a.subject is not None:
        _ask_arc_labels(scene, labels, a.subject)
    if (aimless := _aimless(scene, a)) is not None:
        _ask_fire_zone_label(scene, labels, aimless)
    if a.charge is not None:
        if a.charge.reach:     # the outline is in the cached layer below
            _ask_reach_label(scene, labels, a.charge)
        _draw_charge_plans(scene, screen, a.charge, labels)
    if a.sight is not None:
        _draw_sight(scene, screen, a.sight, labels)
    _draw_declared_charges(scene, screen, labels)
    _draw_trails(scene, screen, labels)
    if t is not None and moving:
        ev = t.evaluate()
        if t.kind in ("move", "consolidate"):
            path = [t.start] + list(t.legs)
        elif t.kind == "scout" and t.unit.pose is not None:
            path = [t.unit.pose, t.start]
        else:
            path = []
        scene.painter.draw_ghost(screen, view, t.unit, t.ghost, ev.legal, path)
    _draw_target_tapes(scene, screen, a, labels)
    _draw_tapes(scene, screen, a, labels)
    noted = spell_aim.draw(scene, screen, labels)  # a spell aimed at a point: its area at the mouse, recent casts
    noted = scene.artillery.draw(screen, labels) or noted  # Random Scatter for Artillery (artillery_tool.py)
    if pending is not None and pending.decision == "place_objective" and view.rect.collidepoint(scene.mouse):
        point = view.to_table(scene.mouse)
        problem = draw_marker_ghost(screen, view, s, point, pending.player)
        note = ([(f"✗ {problem.rule}", palette.ILLEGAL), (problem.message, (230, 230, 230))] if problem else
                [(f"Objective marker {len(s.objectives) + 1}: click to place it here", palette.LEGAL)])
        draw_note(screen, scene.mouse, note, view.rect, 13, layout=labels)
        noted = True
    if t is not None:
        noted = _draw_ghost_note(scene, screen, t, labels)
    if not noted and not scene.panning:
        noted = _draw_hover_note(scene, screen, a, labels)
    if scene.error is not None and scene.error.where is not None:
        draw_cross(screen, view, scene.error.where, palette.ILLEGAL)
    if scene.hover_terrain is not None and not scene.panning and (t is None or not (t.dragging or t.changed)) \
            and not scene.measure and not noted:
        head, traits = scene.static.describe(scene.hover_terrain)
        note = [(head, (235, 235, 235)), (traits, (200, 206, 210))]
        piece = s.terrain[scene.hover_terrain] if scene.hover_terrain < len(s.terrain) else None
        tall = s.elevation_height
        if piece is not None and tall is not None and "elevated" in piece.traits and piece.height >= tall:
            note.append((f"Elevation ({tall:g}\" or taller): a move onto it counts its {piece.height:g}\" climb "
                         "as moved", palette.SHAKEN))      # AoF:R 2.16 "Elevation"
        draw_note(screen, scene.mouse, note, view.rect, 13, layout=labels)
    if over_table is not None:
        over_table(screen, labels)
    _standing_labels(scene, labels, poses)
    labels.solve()
    labels.draw(screen)
    # panels over the table, above every label: the side-mission card and the seat's side-missions line
    if pending is not None and pending.decision == "select_side_mission":
        draw_selection_card(screen, view.rect, s, scene.side_mission_category())
    tools = scene.tools.rect.right if scene.tools is not None else view.rect.x
    draw_seat_line(screen, view.rect, tools, seat_line(s, scene.seat))
    screen.set_clip(clip)
    draw_news(screen, view.rect, scene.banner, scene.time, scene.last_exception)


def _standing_labels(scene: BattleSceneLike, labels: LabelLayout, poses: Any) -> None:
    """Ask ``labels`` for the labels that change only with the view and the game (objective markers, units):
    asked of a layout of their own, cached while nothing moves and moved along while the view pans; then the
    terrain names (cached by the static layer per view)."""
    lay = layers(scene)
    view = scene.view
    key = (round(view.scale, 4), view.flipped, view.rect.size, scene.insight.stamp, scene.selected,
           id(scene.static))
    origin = (round(view.ox), round(view.oy))
    if poses or lay.standing[0] != key:
        own = LabelLayout(view.rect)
        s = scene.game.state
        for box in marker_boxes(view, s):
            own.reserve("marker", box)
        scene.painter.ask_labels(own, view, s, scene.selected, poses, keep_off=scene.static.ruler_band(view))
        lay.standing = (None if poses else key, origin, own.asked)
    was = lay.standing[1]
    labels.extend(lay.standing[2], (origin[0] - was[0], origin[1] - was[1]))
    scene.static.ask_labels(labels, view)     # terrain on its own: a piece half off the view is named where seen


def _draw_deployment_zone(scene: BattleSceneLike, surf: pygame.Surface, player: int) -> None:
    """``player``'s deployment zone as its style draws it (game.engine.deployment_styles), labelled."""
    outline, label_at = scene.zone_outline(player)
    label = f"Player {player}'s zone"
    label_at = _clear_of_markers(scene, label, palette.PLAYER[player], label_at)
    draw_zone_polygon(surf, scene.view, outline, palette.PLAYER[player], label, label_at)


def _clear_of_markers(scene: BattleSceneLike, label: str, colour: tuple[int, int, int], at: Point) -> Point:
    """Where a zone's ``label`` goes (table inches): ``at``, or slid along the screen's width by a label's width at a
    time (either way, nearest first) where an objective marker's disc would lie under it: markers are often placed
    just outside a zone, where its label stands."""
    view = scene.view
    boxes = marker_boxes(view, scene.game.state)
    if not boxes:
        return at
    text = zone_label(label, colour)
    cx, cy = view.to_screen(at)
    step = text.get_width() + 8
    for k in (0, 1, -1, 2, -2, 3, -3):
        rect = pygame.Rect(0, 0, text.get_width(), text.get_height())
        rect.center = (round(cx + k * step), round(cy))
        if rect.collidelist(boxes) < 0 and view.rect.contains(rect):
            return view.to_table((cx + k * step, cy))
    return at


def _draw_base(scene: BattleSceneLike, surf: pygame.Surface, a: Aids, dimmed: set[str], poses: Any,
               zoned: bool) -> None:
    """The table, deployment zone, the aids that lie under the units, the units and their labels."""
    view = scene.view
    s = scene.game.state
    pending = scene.game.pending
    surf.fill(palette.BACKGROUND, view.rect)
    scene.static.draw(surf, view)
    clip = surf.get_clip()
    surf.set_clip(view.rect)
    if pending is not None and pending.decision == "deploy":
        _draw_deployment_zone(scene, surf, pending.player)
    if pending is not None and pending.decision in ("place_objective", "choose_deployment"):
        for player in (1, 2):           # no marker goes in either zone; the roll-off winner sees both sides
            _draw_deployment_zone(scene, surf, player)
    draw_objectives(surf, view, s)
    if scene.show_arcs and a.subject is not None:
        _draw_arcs(scene, surf, a.subject)
    if a.charge is not None and a.charge.reach:
        _draw_reach(scene, surf, a.charge)
    if (uid := _aimless(scene, a)) is not None:
        _draw_fire_zone(scene, surf, uid)
    if zoned and scene.tool is not None:
        _draw_zones(scene, surf, scene.tool)
    scene.painter.draw_units(surf, view, s, dimmed=dimmed, poses=poses)
    draw_objectives(surf, view, s, carried=True)      # a carried relic rides on its unit
    surf.set_clip(clip)


def _draw_outlines(scene: BattleSceneLike, screen: pygame.Surface, a: Aids) -> None:
    s = scene.game.state
    outlines: dict[str, tuple[tuple[int, int, int], int]] = {}
    for uid in scene.actors:
        outlines[uid] = (palette.LEGAL, 1)
    targets = target_ids(scene)
    glow = pulse(scene.time)
    tcol = tuple(int(c * (0.6 + 0.4 * glow)) for c in palette.TARGET)
    for uid in targets:
        outlines[uid] = (tcol, 3)  # type: ignore[assignment]
    if a.charge_problem is not None and scene.hover:
        outlines[scene.hover] = (palette.ILLEGAL, 2)
    if a.shot is not None and a.shot.reason is not None:
        outlines[a.shot.target] = (palette.ILLEGAL, 2)
    if scene.selected:
        # a unit inside a Transport is shown by its Transport (rulebook "Transport(X)")
        outlines[inside_transport(s, scene.selected) or scene.selected] = (palette.SELECT, 2)
    if a.measurement is not None and a.measurement.target is not None:
        outlines[a.measurement.target] = (palette.MEASURE, 2)     # the tape snapped to this unit
    for uid, strength in scene.anims.flash(scene.time).items():
        if uid not in outlines or outlines[uid][1] < 3:
            outlines[uid] = (palette.FLASH, 2 + round(2 * strength))
    scene.painter.draw_outlines(screen, scene.view, s, outlines)


def inside_transport(state: GameState, uid: str | None) -> str | None:
    """The id of the Transport on the table that unit ``uid`` is inside, or None."""
    unit = state.units.get(uid) if uid else None
    if unit is None or unit.embarked_in is None or unit.removed is not None:
        return None
    transport = state.units.get(unit.embarked_in)
    return transport.id if transport is not None and transport.on_table else None


def measured_from(state: GameState, uid: str) -> str:
    """The unit distances are measured from: ``uid``, or its Transport when it is inside one."""
    return inside_transport(state, uid) or uid


def target_ids(scene: BattleSceneLike) -> list[str]:
    """The valid targets highlighted now: of the selected unit, or of the charger redirecting."""
    pending = scene.game.pending
    if pending is not None and pending.decision == "redirect" and pending.unit:
        return scene.targets_of(pending.unit)
    return scene.targets_of(scene.selected) if scene.selected else []


# --- arcs, reach, zones ------------------------------------------------------------------------------------------


def _draw_arcs(scene: BattleSceneLike, screen: pygame.Surface, uid: str) -> None:
    """The four facing arcs (rulebook "Unit Facing"): tinted quadrants from the unit's corners, labelled."""
    wedges = scene.insight.arcs(uid)
    if wedges is None:
        return
    view = scene.view
    unit = scene.game.state.units[uid]

    def polys() -> list[Any]:
        out: list[Any] = []
        for arc, quad in wedges.items():
            pts = [view.to_screen(p) for p in quad]
            out.append((pts, ARC_COLOURS[arc] + (34,), 0))
        for arc, quad in wedges.items():
            pts = [view.to_screen(p) for p in quad]
            out.append(([pts[1], pts[2]], ARC_COLOURS[arc] + (150,), -2))
        return out

    layers(scene).arcs.blit(screen, (uid, unit.pose, view.key), polys)


def _ask_arc_labels(scene: BattleSceneLike, labels: LabelLayout, uid: str) -> None:
    """Each facing arc's name, a little way out along the middle of its wedge (nudged outward when crowded)."""
    wedges = scene.insight.arcs(uid)
    if wedges is None:
        return
    view = scene.view
    for arc, quad in wedges.items():
        mid_side = ((quad[0][0] + quad[1][0]) / 2, (quad[0][1] + quad[1][1]) / 2)
        mid_far = ((quad[2][0] + quad[3][0]) / 2, (quad[2][1] + quad[3][1]) / 2)
        spots = [view.to_screen((mid_side[0] + (mid_far[0] - mid_side[0]) * f,
                                 mid_side[1] + (mid_far[1] - mid_side[1]) * f)) for f in (0.55, 0.4, 0.7, 0.85)]
        _ask(labels, "arc", prio.ARC, ARC_NAMES[arc], ARC_COLOURS[arc], spots, 11)


def _ask(labels: LabelLayout, kind: str, priority: int, text: str, colour: tuple[int, int, int],
         centres: list[tuple[float, float]], size: int = 12, bold: bool = True, shy: str = "prefer") -> None:
    """Ask for a small dark label centred on the first free of the screen points ``centres``."""
    surf = text_cache.get(text, size, colour, bold, (12, 14, 16, 215), 3)
    labels.add(kind, priority, surf, [surf.get_rect(center=(round(x), round(y))) for x, y in centres], shy=shy)


def _ask_reach_label(scene: BattleSceneLike, labels: LabelLayout, preview: ChargePreview) -> None:
    """The reach outline's label: just above the outline's top (or a little to either side), else below its
    bottom, else beside its left or right end, else just inside its top or bottom."""
    pts = [scene.view.to_screen(p) for p in preview.reach[0]]
    text = (f"charge range {preview.allowance:g}\" (Advance {preview.advance:g}\" + 6\")" if preview.random
            else f"charge reach {preview.allowance:g}\"")
    if preview.transport is not None:
        text = "charge out: within 6\""
    surf = text_cache.get(text, 12, REACH, True, (12, 14, 16, 215), 3)
    w, h = surf.get_size()
    top = min(pts, key=lambda q: q[1])
    bottom = max(pts, key=lambda q: q[1])
    left = min(pts, key=lambda q: q[0])
    right = max(pts, key=lambda q: q[0])
    above = top[1] - h / 2 - 3
    centres = [(top[0], above), (top[0] - w * 0.75, above), (top[0] + w * 0.75, above),
               (bottom[0], bottom[1] + h / 2 + 3), (left[0] - w / 2 - 4, left[1]), (right[0] + w / 2 + 4, right[1])]
    # inside the outline: a view zoomed in may show none of its outside
    centres += [(top[0], top[1] + h / 2 + 3), (bottom[0], bottom[1] - h / 2 - 3)]
    labels.add("reach", prio.REACH, surf, [surf.get_rect(center=(round(x), round(y))) for x, y in centres])


def _draw_reach(scene: BattleSceneLike, screen: pygame.Surface, preview: ChargePreview) -> None:
    """The footprint grown by the charge distance: enemies touching it may be in reach."""
    view = scene.view
    ring = preview.reach[0]

    def polys() -> list[Any]:
        pts = [view.to_screen(p) for p in ring]
        return [(pts, REACH + (20,), 0), (pts, REACH + (190,), 2)]

    layers(scene).reach.blit(screen, (preview.unit, scene.insight.stamp, view.key), polys)


def _aimless(scene: BattleSceneLike, a: Aids) -> str | None:
    """The selected shooter that may still shoot but has no valid target (step 4.2), or None."""
    pending = scene.game.pending
    uid = a.subject
    if pending is None or pending.decision != "shoot" or uid is None:
        return None
    unit = scene.game.state.units[uid]
    if unit.player != pending.player or unit.shot_targets or unit.engaged or scene.targets_of(uid):
        return None
    return uid if shooting.ranged_arms(unit) else None


def _fire_zone(scene: BattleSceneLike, uid: str) -> tuple[float, list[Point]]:
    """The longest range of ``uid``'s ranged weapons and the outline of where it reaches in the front arc
    (rulebook "Picking Targets": targets in the front arc, within range), measured from the footprint."""
    from shapely.geometry import Polygon

    unit = scene.game.state.units[uid]
    assert unit.pose is not None
    longest = _longest_range(scene, uid)
    wedge = arc_wedges(unit.pose, unit.formation.width, unit.formation.depth, 3 * longest + 10)[Arc.FRONT]
    body = Polygon(footprint_corners(unit.pose, unit.formation))
    zone = Polygon(wedge).intersection(body.buffer(longest, 16))
    ring = list(zone.exterior.coords) if zone.geom_type == "Polygon" and not zone.is_empty else []
    return longest, ring


def _longest_range(scene: BattleSceneLike, uid: str) -> float:
    """The longest range of ``uid``'s ranged weapons, inches."""
    return max((arm.weapon.range or 0) for arm in shooting.ranged_arms(scene.game.state.units[uid]))


def _draw_fire_zone(scene: BattleSceneLike, screen: pygame.Surface, uid: str) -> None:
    """A shooter without a valid target: its front arc out to its longest range, so the player sees at a glance
    which enemies lie outside (the banner gives each one's reason)."""
    view = scene.view
    unit = scene.game.state.units[uid]

    def polys() -> list[Any]:
        _, ring = _fire_zone(scene, uid)
        pts = [view.to_screen(p) for p in ring]
        return [(pts, FIRE + (22,), 0), (pts, FIRE + (170,), 2)] if len(pts) >= 3 else []

    layers(scene).fire.blit(screen, (uid, unit.pose, view.key), polys)


def _ask_fire_zone_label(scene: BattleSceneLike, labels: LabelLayout, uid: str) -> None:
    unit = scene.game.state.units[uid]
    assert unit.pose is not None
    longest = _longest_range(scene, uid)
    front = unit.formation.depth / 2
    spots = [scene.view.to_screen(unit.pose.advanced(front + longest * f).xy) for f in (0.85, 0.7, 0.5, 0.3)]
    _ask(labels, "fire zone", prio.AID, f'range {longest:g}" · front arc', FIRE, spots, 11)


def _zone_reach(t: MoveTool) -> float:
    if t.kind == "consolidate":
        return 3.0
    if t.kind == "move":
        return move_allowance(t.unit, MoveAction.RUSH)
    return 100.0


def _draw_zones(scene: BattleSceneLike, screen: pygame.Surface, t: MoveTool) -> None:
    """1" around the other units near the moving one (rulebook "General Movement")."""
    view = scene.view
    zones = scene.insight.exclusion_zones(t.unit.id, _zone_reach(t))
    if not zones:
        return

    def polys() -> list[Any]:
        out: list[Any] = []
        for _, ring in zones:
            pts = [view.to_screen(p) for p in ring]
            out.append((pts, ZONE + (16,), 0))
            out.append((pts, ZONE + (95,), 1))
        return out

    layers(scene).zones.blit(screen, (t.unit.id, scene.insight.stamp, view.key, _zone_reach(t)), polys)


def _draw_broken_zones(scene: BattleSceneLike, screen: pygame.Surface, t: MoveTool) -> None:
    """The 1" zones the ghost enters, in red."""
    zones = scene.insight.exclusion_zones(t.unit.id, _zone_reach(t))
    for oid in _zones_broken(scene, t, zones):
        ring = next(r for z, r in zones if z == oid)
        pygame.draw.polygon(screen, palette.ILLEGAL, [scene.view.to_screen(p) for p in ring], 2)


def _zones_broken(scene: BattleSceneLike, t: MoveTool, zones: list[tuple[str, list[Point]]]) -> list[str]:
    """Units whose 1" zone the ghost's final footprint enters (cached per ghost pose)."""
    lay = layers(scene)
    key = (t.unit.id, t.ghost, scene.insight.stamp)
    if lay.near[0] == key:
        return lay.near[1]
    from geometry.shapes import footprint_polygon
    s = scene.game.state
    ghost = footprint_polygon(t.ghost, t.unit.formation)
    near = [oid for oid, _ in zones
            if oid in s.units and s.units[oid].on_table
            and float(ghost.distance(s.scene.footprint(oid))) < 1.0 - 1e-3
            and not (t.unit.on_table and oid in t.unit.engaged_with)]
    lay.near = (key, near)
    return near


def _draw_crossed(scene: BattleSceneLike, screen: pygame.Surface, t: MoveTool) -> None:
    """Outline the terrain pieces the ghost's path crosses."""
    ev = t.evaluate()
    if not ev.terrain:
        return
    names = set(ev.terrain)
    for piece in scene.static.terrain:
        if piece.name in names:
            pts = [scene.view.to_screen(p) for p in piece.polygon]
            pygame.draw.polygon(screen, CROSSED, pts, 2)


# --- over the units -----------------------------------------------------------------------------------------------


def _draw_firing_models(scene: BattleSceneLike, screen: pygame.Surface, shot: ShotPreview) -> None:
    """Outline the shooter's models that can fire at the target under the mouse."""
    s = scene.game.state
    model_corners = s.scene.model_corners(shot.unit)
    for m in shot.models:
        if m < len(model_corners):
            pts = [scene.view.to_screen((float(x), float(y))) for x, y in model_corners[m]]
            pygame.draw.polygon(screen, FIRING, pts, 2)


def _ghost_sprite(scene: BattleSceneLike, uid: str, pose: Any) -> tuple[pygame.Surface, tuple[int, int]]:
    view = scene.view
    unit = scene.game.state.units[uid]
    lay = layers(scene)
    key = (uid, pose, view.scale, view.flipped)
    surf = lay.ghosts.get(key)
    if surf is None:
        sprite = scene.painter.sprites.get(unit.formation, unit.player, view.scale, view.screen_facing(pose.facing))
        surf = sprite.copy()
        surf.set_alpha(95)
        if len(lay.ghosts) > 64:
            lay.ghosts.clear()
        lay.ghosts[key] = surf
    cx, cy = view.to_screen(pose.xy)
    return surf, (round(cx - surf.get_width() / 2), round(cy - surf.get_height() / 2))


def _draw_charge_plans(scene: BattleSceneLike, screen: pygame.Surface, preview: ChargePreview,
                       labels: LabelLayout) -> None:
    """For each valid target: the side the charge would contact, the path and the charger's final pose; the side's
    label is asked of ``labels``."""
    s = scene.game.state
    view = scene.view
    unit = s.units[preview.unit]
    hover = scene.hover
    for tid, plan in preview.plans.items():
        if tid not in s.units:
            continue
        hot = hover == tid
        colour = palette.TARGET
        start = s.units[measured_from(s, unit.id)].pose  # a unit inside a Transport gets out from it
        path = [start.xy] + [p.xy for p in plan.path] if start is not None else []
        if len(path) >= 2:
            dashed_polyline(screen, colour if hot else faded(colour, 0.55), [view.to_screen(p) for p in path],
                            2 if hot else 1)
        surf, at = _ghost_sprite(scene, preview.unit, plan.end)
        screen.blit(surf, at)
        ghost = [view.to_screen(p) for p in corners(unit, plan.end)]
        pygame.draw.polygon(screen, colour if hot else faded(colour, 0.6), ghost, 2 if hot else 1)
        a, b = contact_side(s, tid, plan.side)
        pa, pb = view.to_screen(a), view.to_screen(b)
        pygame.draw.line(screen, palette.TARGET, pa, pb, 5)
        side = plan.side.value + (" flank" if plan.side.is_flank else "")
        # the label just behind the ghost's rear edge, clear of the target and its contacted side
        rear = view.to_screen(plan.end.to_world((0.0, -unit.formation.depth / 2)))
        centre = view.to_screen(plan.end.xy)
        dx, dy = rear[0] - centre[0], rear[1] - centre[1]
        norm = max(1.0, (dx * dx + dy * dy) ** 0.5)
        out = (rear[0] + dx / norm * 12, rear[1] + dy / norm * 12)
        odds = preview.chance(tid)
        text = f"{side} {plan.distance:.1f}\"" if odds is None else \
            f"{side} {preview.measured[tid]:.1f}\" · {odds:.0%}"
        # then further behind, then beside the ghost's left and right (its sides, seen on screen)
        left = view.to_screen(plan.end.to_world((-unit.formation.width / 2, 0.0)))
        right = view.to_screen(plan.end.to_world((unit.formation.width / 2, 0.0)))
        far = (out[0] + dx / norm * 16, out[1] + dy / norm * 16)
        sides = [(q[0] + (q[0] - centre[0]) / max(1.0, abs(q[0] - centre[0]) + abs(q[1] - centre[1])) * 40,
                  q[1] + (q[1] - centre[1]) / max(1.0, abs(q[0] - centre[0]) + abs(q[1] - centre[1])) * 14)
                 for q in (left, right)]
        _ask(labels, "charge side", prio.CHARGE_SIDE, text, palette.TARGET, [out, far] + sides)


def _draw_sight(scene: BattleSceneLike, screen: pygame.Surface, sight: SightPreview, labels: LabelLayout) -> None:
    """A clear sight line to each enemy the subject sees; the others are dimmed and marked."""
    s = scene.game.state
    view = scene.view
    for p, q in sight.seen.values():
        pa, pb = view.to_screen(p), view.to_screen(q)
        pygame.draw.line(screen, SIGHT, pa, pb, 1)
        pygame.draw.circle(screen, SIGHT, (round(pa[0]), round(pa[1])), 3)
        pygame.draw.circle(screen, SIGHT, (round(pb[0]), round(pb[1])), 4, 1)
    for tid in sight.unseen:
        unit = s.units.get(tid)
        if unit is None or unit.pose is None:
            continue
        dashed_polyline(screen, (150, 150, 150), [view.to_screen(c) for c in corners(unit)], 1, closed=True)
        label_at(screen, "not in sight", view.to_screen(unit.pose.xy), (200, 200, 200), 11, False, labels,
                 prio.AID, "not in sight")


def _draw_declared_charges(scene: BattleSceneLike, screen: pygame.Surface, labels: LabelLayout) -> None:
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
        draw_tape(screen, scene.view, pa, pb, f"charge {s.scene.distance(a.id, b.id):.1f}\"", palette.SHAKEN, 3,
                  labels, prio.DECLARED, "declared charge")


def _draw_trails(scene: BattleSceneLike, screen: pygame.Surface, labels: LabelLayout) -> None:
    """Flight, pursuit, retreat, follow-up, charge and consolidation moves: an arrow from where the unit was to
    where it ended, with what happened; units caught or routed marked where they were last."""
    pending = scene.game.pending
    deciding = pending is not None and pending.decision in COMBAT_DECISIONS
    shown = scene.trails.shown(scene.time, scene.show_trails or deciding)
    if not shown:
        return
    view = scene.view
    s = scene.game.state
    Pt = tuple[float, float]
    said: list[tuple[str, tuple[Pt, Pt], tuple[int, int, int]]] = []   # text, (arrow start, end), colour
    for item, alpha in shown:
        if alpha <= 0.02:
            continue
        if isinstance(item, Trail):
            unit = s.units.get(item.unit)
            colour = faded(TRAIL_COLOURS.get(item.kind, palette.MEASURE), alpha)
            if unit is not None:
                was = [view.to_screen(p) for p in footprint_corners(item.start, unit.formation)]
                dashed_polyline(screen, colour, was, 1, closed=True)
            a, b = view.to_screen(item.start.xy), view.to_screen(item.end.xy)
            draw_arrow(screen, a, b, colour, 3)
            if alpha > 0.35:
                said.append((item.label, (a, b), colour))
        elif isinstance(item, Fate):
            unit = s.units.get(item.unit)
            if unit is None or item.pose is None:
                continue
            colour = faded(palette.ILLEGAL, alpha)
            pts = [view.to_screen(p) for p in footprint_corners(item.pose, unit.formation)]
            dashed_polyline(screen, colour, pts, 2, closed=True)
            pygame.draw.line(screen, colour, pts[0], pts[2], 2)
            pygame.draw.line(screen, colour, pts[1], pts[3], 2)
            if alpha > 0.35:
                centre = view.to_screen(item.pose.xy)
                said.insert(0, (f"☠ {unit.profile.name}: {item.label}", (centre, centre), colour))
    for text, (p, q), colour in said:
        surf = text_cache.get(text, 12, colour, True, (12, 14, 16, 215), 3)
        h = surf.get_height() + 2
        # along the arrow first (its middle, then toward either end), then stacked; clear of the units' bodies
        # where there is room
        spots = [(p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f) for f in (0.5, 0.35, 0.65, 0.2, 0.8)]
        rects = [surf.get_rect(center=(round(x), round(y))) for x, y in spots]
        rects += [rects[0].move(0, k * h) for k in (1, -1, 2, -2, 3, -3)]
        labels.add("trail", prio.TRAIL, surf, rects)


# --- tapes and notes -----------------------------------------------------------------------------------------------


def _draw_target_tapes(scene: BattleSceneLike, screen: pygame.Surface, a: Aids, labels: LabelLayout) -> None:
    """Distances to the valid targets (shooting, redirect without a plan); charge plans carry their own."""
    s = scene.game.state
    sel = a.subject
    if sel is None:
        return
    planned = set(a.charge.plans) if a.charge is not None else set()
    for uid in target_ids(scene):
        if uid == sel or uid in planned or uid not in s.units or not s.units[uid].on_table:
            continue
        origin = measured_from(s, sel)
        pa, pb = closest_points_between(s.units[origin], s.units[uid])
        draw_tape(screen, scene.view, pa, pb, f'{s.scene.distance(origin, uid):.1f}"', palette.TARGET, 1, labels,
                  prio.TARGET_TAPE, "target tape")


def _draw_tapes(scene: BattleSceneLike, screen: pygame.Surface, a: Aids, labels: LabelLayout) -> None:
    s = scene.game.state
    view = scene.view
    if scene.measure:
        m = a.measurement
        if m is not None:
            text = f'{m.distance:.1f}"'
            if m.target is not None:
                text += f" to {s.units[m.target].profile.name}"
            draw_tape(screen, view, m.a, m.b, text, layout=labels, priority=prio.MEASURE, kind="measure")
        elif a.subject is None and view.rect.collidepoint(scene.mouse):
            draw_note(screen, scene.mouse, [("Measure: click a unit to measure from it", palette.MEASURE)],
                      view.rect, 13, layout=labels)
        return
    sel = s.units.get(measured_from(s, a.subject)) if a.subject else None
    if sel is None:
        return
    hover = scene.hover
    declared = any(c.unit == a.subject and c.target == hover and not c.resolved for c in s.charges)
    if hover and hover != sel.id and hover in s.units and s.units[hover].on_table \
            and hover not in target_ids(scene) and not declared:     # a declared charge has its own tape
        pa, pb = closest_points_between(sel, s.units[hover])
        draw_tape(screen, view, pa, pb, f'{s.scene.distance(sel.id, hover):.1f}"', layout=labels,
                  priority=prio.MEASURE, kind="measure")


def _draw_hover_note(scene: BattleSceneLike, screen: pygame.Surface, a: Aids, labels: LabelLayout) -> bool:
    """Next to the mouse: why the enemy under it may not be charged or shot at (the engine's rule and words, with a
    cross where it breaks), or what a charge or a shot at it would be. True if a note was drawn."""
    s = scene.game.state
    view = scene.view
    hover = scene.hover
    lines: list[tuple[str, tuple[int, int, int]]] = []
    can_act = (a.charge is not None and hover in a.charge.plans) or (a.shot is not None and a.shot.reason is None)
    done = [] if can_act else _done_to(scene, a.subject, hover)
    if done:      # after the action, the target shows what happened, not why it cannot happen again
        lines = done
    elif (spell := _spell_target(scene)) is not None:     # a spell's target: its odds (game/ui/odds_panel.py)
        lines = [(f"✔ Cast {spell.spell} on {s.units[spell.target or ''].profile.name}", palette.LEGAL),
                 *odds_panel.spell_lines(scene.game, spell), ("Click to cast", GREY)]
    elif a.charge is not None and hover is not None and hover in s.units:
        name = s.units[hover].profile.name
        plan = a.charge.plans.get(hover)
        if plan is not None:
            side = plan.side.value + (" flank" if plan.side.is_flank else "")
            odds = a.charge.chance(hover)
            if a.charge.transport is not None:
                lines.append((f"✔ Charge out: {name}, its {side}, {plan.distance:.1f}\"", palette.LEGAL))
                lines.append((f"Gets out of {a.charge.transport} in contact, within 6\"", GREY))
            elif odds is None:
                lines.append((f"✔ Charge {name}: its {side}, {plan.distance:.1f}\" of {plan.allowance:g}\"",
                              palette.LEGAL))
            else:   # Random Charge Distances: the roll decides (game.engine.random_charge)
                need = a.charge.measured[hover]
                lines.append((f"✔ Charge {name}: its {side}, {need:.1f}\" within the {plan.allowance:g}\" charge "
                              "range", palette.LEGAL))
                lines.append((f"Random charge: highest of 2D6 + {a.charge.advance:g}\" must reach {need:.1f}\": "
                              f"{odds:.0%} chance", palette.SHAKEN if odds < 1 else palette.LEGAL))
            if "difficult" in plan.traits_crossed:
                lines.append(("Crosses difficult terrain: at most 6\"", palette.SHAKEN))
            if plan.climb:       # AoF:R 2.16 "Elevation": the climb counts as movement
                lines.append((f"Elevation: climbs {plan.climb:g}\" ({plan.travel + plan.climb:.1f}\" moved with "
                              "the climb)", palette.SHAKEN))
            if plan.also_contacts:
                others = ", ".join(s.units[o].profile.name for o in plan.also_contacts if o in s.units)
                lines.append((f"Also ends in contact with {others}", palette.SHAKEN))
            pending = scene.game.pending
            verb = "redirect the charge" if pending is not None and pending.decision == "redirect" else \
                "declare the charge"
            # the odds of declaring it, whichever decision declares charges in the game's ruleset (AoWFBR's
            # declare_charge, AoF:R's action): the advisor asks the engine and shows nothing when it is refused
            if pending is not None and pending.decision != "redirect" and a.subject is not None:
                lines += odds_panel.charge_lines(scene.game, DeclareCharge(
                    pending.player, a.subject, hover, breath=scene.breath and scene.game.breath_in_melee(a.subject)))
            lines.append((f"Click to {verb}", GREY))
        elif a.charge_problem is not None:
            e = a.charge_problem
            lines.append((f"✘ Cannot charge {name}", palette.ILLEGAL))
            lines.append((f"{e.rule}: {e.message}", (240, 150, 140)))
            if e.where is not None:
                draw_cross(screen, view, e.where, palette.ILLEGAL)
    elif a.shot is not None:
        shot = a.shot
        name = s.units[shot.target].profile.name
        if shot.reason is not None:
            lines.append((f"✘ Cannot shoot {name}", palette.ILLEGAL))
            lines.append((shot.reason, (240, 150, 140)))
        else:
            lines.append((f"✔ Shoot {name} ({shot.distance:.1f}\")", palette.LEGAL))
            for weapon, n in shot.weapons:
                lines.append((f"{weapon}: {n} model{'s' if n != 1 else ''} can fire" if n else
                              f"{weapon}: no model in range and sight", (230, 230, 230) if n else GREY))
            hit = ", ".join([shot.quality] + shot.to_hit) if shot.quality else ", ".join(shot.to_hit)
            if hit:
                lines.append((f"To hit ({shot.weapon}): {hit}", (230, 230, 230)))
            if shot.defense:
                lines.append((f"{name} Defense: {', '.join(shot.defense)}", (230, 230, 230)))
            if scene.pending is not None and a.subject is not None:
                lines += odds_panel.shot_lines(scene.game, Shoot(scene.pending.player, a.subject, shot.target,
                                                                 decisions.shot_weapons(scene, a.subject)))
            lines.append(("Click to shoot", GREY))
    elif a.charge is not None and a.charge.cannot and scene.selected == a.charge.unit:
        unit = s.units[a.charge.unit]
        if unit.pose is not None:
            label_at(screen, f"Cannot charge: {a.charge.cannot}", view.to_screen(unit.pose.xy), palette.SHAKEN, 12,
                     layout=labels, priority=prio.AID, kind="cannot charge")
        return False
    if not lines:
        return False
    _note_beside(scene, screen, lines, hover, a, labels)
    return True


def _spell_target(scene: BattleSceneLike) -> CastSpell | None:
    """The cast a click on the unit under the mouse would make (the chosen spell of the selected caster), or
    None."""
    pending = scene.game.pending
    sel, hover = scene.selected, scene.hover
    if pending is None or pending.decision != "strategy" or scene.spell is None or sel is None or hover is None:
        return None
    if hover not in decisions.spell_targets(scene, sel, scene.spell):
        return None
    return CastSpell(player=pending.player, unit=sel, spell=scene.spell, target=hover)


def _done_to(scene: BattleSceneLike, subject: str | None, hover: str | None) -> list[tuple[str, tuple[int, int, int]]]:
    """What the subject already did to the enemy under the mouse this phase (a declared charge, a shot), in words;
    empty when it did nothing to it."""
    s = scene.game.state
    if subject is None or hover is None or subject not in s.units or hover not in s.units:
        return []
    name = s.units[hover].profile.name
    charge = next((c for c in s.charges if c.unit == subject and c.target == hover), None)
    if charge is not None and s.phase is Phase.MOVEMENT:
        if charge.resolved:
            state = "charged it" if hover in s.units[subject].engaged_with else "its charge is made"
        else:
            state = {"flee": "it fled", "stand_and_shoot": "it stood and shot", "hold": "it holds"}.get(
                charge.reaction or "", "waiting for its reaction" if charge.reaction is None else "declared")
        return [(f"✔ Charge declared against {name}", palette.LEGAL), (state.capitalize(), (230, 230, 230))]
    if hover in s.units[subject].shot_targets and s.phase is Phase.SHOOTING:
        return [(f"✔ Shot at {name} this phase", palette.LEGAL),
                ("The rolls are in the dice panel and the log", GREY)]
    return []


def wrap_lines(lines: list[tuple[str, tuple[int, int, int]]], width: int, size: int = 13
               ) -> list[tuple[str, tuple[int, int, int]]]:
    """Lines of a note broken at spaces to fit ``width`` pixels (the first line, bold, is kept whole)."""
    from game.ui.assets import font
    out: list[tuple[str, tuple[int, int, int]]] = []
    f = font(size)
    for i, (text, colour) in enumerate(lines):
        if i == 0 or f.size(text)[0] <= width:
            out.append((text, colour))
            continue
        words = text.split(" ")
        line = ""
        for w in words:
            trial = f"{line} {w}" if line else w
            if line and f.size(trial)[0] > width:
                out.append((line, colour))
                line = "   " + w
            else:
                line = trial
        if line:
            out.append((line, colour))
    return out


def _screen_box(scene: BattleSceneLike, pts: list[Point]) -> pygame.Rect:
    sp = [scene.view.to_screen(p) for p in pts]
    xs, ys = [p[0] for p in sp], [p[1] for p in sp]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def _note_beside(scene: BattleSceneLike, screen: pygame.Surface, lines: list[tuple[str, tuple[int, int, int]]],
                 uid: str | None, a: Aids, labels: LabelLayout) -> None:
    """A note next to unit ``uid`` (not under the mouse), clear of the subject and the charge ghosts (the other
    labels make way for it)."""
    s = scene.game.state
    unit = s.units.get(uid) if uid else None
    if unit is None or unit.pose is None:
        draw_note(screen, scene.mouse, lines, scene.view.rect, 13, layout=labels)
        return
    around = _screen_box(scene, corners(unit)).inflate(8, 30)
    avoid: list[pygame.Rect] = []
    if a.subject is not None and s.units[a.subject].pose is not None:
        avoid.append(_screen_box(scene, corners(s.units[a.subject])).inflate(10, 40))
    if a.charge is not None:
        charger = s.units[a.charge.unit]
        for plan in a.charge.plans.values():
            avoid.append(_screen_box(scene, corners(charger, plan.end)).inflate(10, 40))
    lines = wrap_lines(lines, min(460, scene.view.rect.w // 2), 13)
    size = note_size(lines, 13)
    at = place_note(size, around, scene.view.rect, avoid * 3 + _unit_boxes(scene, None))
    draw_note(screen, scene.mouse, lines, scene.view.rect, 13, at=at, layout=labels)


def _draw_ghost_note(scene: BattleSceneLike, screen: pygame.Surface, t: MoveTool, labels: LabelLayout) -> bool:
    if t.kind == "move" and not (t.changed or t.legs):
        return False
    ev = t.evaluate()
    corner_pts = [scene.view.to_screen(p) for p in _corners(t)]
    anchor = (max(c[0] for c in corner_pts), max(c[1] for c in corner_pts))
    xs, ys = [c[0] for c in corner_pts], [c[1] for c in corner_pts]
    around = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if t.kind == "move":
        name = ev.action.capitalize()
        head = f"{name}: {ev.distance + ev.climb.inches:.1f}\""
        if ev.climb.inches:      # AoF:R 2.16 "Elevation": the climb is part of the move's distance
            head += f" ({ev.distance:.1f}\" + {ev.climb.inches:g}\" climb)"
        if ev.allowance is not None and ev.action == "advance":
            head += f" of {ev.allowance:g}\""
        elif ev.action == "rush" and ev.allowance is not None:
            head += f" (Advance {ev.allowance:g}\")"
    elif t.kind == "consolidate":
        if ev.pivots and ev.distance < 1e-6:
            head = f"Consolidation pivot: {sum(abs(p) for p in ev.pivots):.0f}° of 180°"
        else:
            head = f"Consolidation: {ev.distance:.1f}\" of 3\""
    elif t.kind == "rally":
        pending = scene.game.pending
        word = "Pivot" if pending is not None and pending.decision == "wavering" else "Rally pivot"
        head = f"{word} to {t.ghost.facing:.0f}°"
    elif t.kind == "scout":
        head = f"Scout: {ev.distance:.1f}\" of 12\""
    else:
        head = f"Deploy at ({t.ghost.x:.1f}, {t.ghost.y:.1f}) facing {t.ghost.facing:.0f}°"
    colour = palette.LEGAL if ev.legal else palette.ILLEGAL
    lines.append(((("✔ " if ev.legal else "✘ ") + head), colour))
    if t.pulled is not None and ev.legal:      # dropped just past the legal: say where it went and why
        lines.append((f"↩ Pulled back {t.pulled[0]:.1f}\" to the nearest legal spot ({t.pulled[1]})", palette.SHAKEN))
    if ev.pivots and t.kind != "consolidate":
        lines.append(("Pivots " + ", ".join(pivot_text(p) for p in ev.pivots), (230, 230, 230)))
    if ev.terrain:
        traits = f": {', '.join(TRAIT_WORDS.get(x, x) for x in ev.traits)}" if ev.traits else ""
        lines.append((f"Through {', '.join(ev.terrain)}{traits}", CROSSED))
    if ev.climb.inches and ev.legal:     # AoF:R 2.16 "Elevation" (an illegal move's reason names it already)
        lines.append((f"Elevation: {ev.climb.words()}, counted as moved", palette.SHAKEN))
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
        lines.append(("Enter confirms · Esc cancels", GREY))
    lines = wrap_lines(lines, min(520, scene.view.rect.w // 2), 14)
    at = place_note(note_size(lines), around, scene.view.rect, _unit_boxes(scene, t))
    draw_note(screen, anchor, lines, scene.view.rect, at=at, layout=labels)
    return True


def _unit_boxes(scene: BattleSceneLike, t: MoveTool | None) -> list[pygame.Rect]:
    """Screen boxes of the units (with room for their labels) that notes should not cover (cached)."""
    lay = layers(scene)
    skip = t.unit.id if t is not None else None
    key = (scene.view.key, scene.insight.stamp, skip)
    if lay.boxes[0] == key:
        return lay.boxes[1]
    avoid = []
    for u in scene.game.state.units.values():
        if u.on_table and u.id != skip:
            assert u.pose is not None
            pts = [scene.view.to_screen(p) for p in footprint_corners(u.pose, u.formation)]
            px, py = [p[0] for p in pts], [p[1] for p in pts]
            avoid.append(pygame.Rect(min(px), min(py) - 16, max(px) - min(px) + 1, max(py) - min(py) + 32))
    lay.boxes = (key, avoid)
    return avoid


def _body_boxes(scene: BattleSceneLike) -> list[pygame.Rect]:
    """Screen boxes of the units' bodies (labels keep off them where they can; terrain names always; cached, and
    moved along while the view pans)."""
    lay = layers(scene)
    view = scene.view
    key = (round(view.scale, 4), view.flipped, scene.insight.stamp)
    origin = (round(view.ox), round(view.oy))
    if lay.bodies[0] != key:
        out = []
        for u in scene.game.state.units.values():
            if u.on_table and u.pose is not None:
                pts = [view.to_screen(p) for p in footprint_corners(u.pose, u.formation)]
                px, py = [p[0] for p in pts], [p[1] for p in pts]
                out.append(pygame.Rect(round(min(px)), round(min(py)), round(max(px) - min(px)) + 1,
                                       round(max(py) - min(py)) + 1))
        lay.bodies = (key, origin, out)
    was = lay.bodies[1]
    if was == origin:
        return lay.bodies[2]
    dx, dy = origin[0] - was[0], origin[1] - was[1]
    return [r.move(dx, dy) for r in lay.bodies[2]]


def _corners(t: MoveTool) -> list[Point]:
    return list(footprint_corners(t.ghost, t.unit.formation))

