"""Aiming a spell at a point of the table, and showing where it fell (issue 12; game.engine.magic "point" spells).

With a caster selected and one of its ``point`` spells picked (the action bar's spell button), the spell's reach is
drawn around the caster (its footprint grown by the range), the area's circle follows the mouse, and the units the
spell would affect there are outlined; a note says which, or why the point may not be aimed at (the engine's own
words: off the table, out of range, no line of sight). A click casts at that point (rounded to 1/100 inch), or
shows the reason and casts nothing. After a cast (or a failed try) the area stays drawn on the table for a few
seconds, labelled with the spell and what happened; the dice are on the dice panel and the events in the log.

Self-contained: the battle scene calls ``click`` from its table click and ``draw`` from its frame; everything else
is read from the scene (selected caster, picked spell, mouse, view, game). The "pick a point on the table"
interaction of the artillery tool (game/ui/artillery_tool.py) is separate on purpose.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame
import shapely

from game.engine import magic
from game.engine.actions import CastSpell, TablePoint
from game.engine.errors import IllegalAction
from game.odds.spells import SpellOdds, spell_odds
from game.ui import describe, odds_panel, palette
from game.ui import label_layout as prio
from game.ui.label_layout import LabelLayout
from game.ui.overlays import (
    AlphaLayer,
    dashed_polyline,
    draw_note,
    faded,
    label_at,
    label_box,
    note_size,
    place_note,
    pulse,
)
from geometry.pose import Point

if TYPE_CHECKING:
    from game.ui.scene_protocols import BattleSceneLike

AREA = (255, 150, 60)
"""The area circle of a legal point, and the outline of the units it would affect."""
RANGE = (200, 170, 255)
"""The spell's reach around the caster."""
SHOW_RESULT = 6.0
"""Seconds the area of a cast stays drawn on the table (the last 1.5 fading)."""
CIRCLE_STEPS = 64
"""Segments of a drawn circle."""


@dataclass(frozen=True)
class AimPreview:
    """What casting the picked spell at ``point`` would do."""

    point: Point
    """The table point (inches, rounded as the cast will be)."""
    radius: float
    """The area's radius, inches."""
    problem: str | None
    """Why the point may not be aimed at (the engine's words), or None."""
    affected: tuple[str, ...]
    """Ids of the units in the area, nearest first (empty when ``problem``)."""
    odds: SpellOdds | None = None
    """The exact odds of casting there (``game.odds.spells``), None when the point may not be aimed at."""


@dataclass
class _Shown:
    """A cast point spell drawn on the table for a while."""

    point: Point
    radius: float
    text: str
    ok: bool
    affected: tuple[str, ...]
    since: float | None = None


@dataclass
class _State:
    """Per-scene memory: the preview cache, the range layer, the results being shown."""

    key: object = None
    preview: AimPreview | None = None
    reach: AlphaLayer = field(default_factory=AlphaLayer)
    area: AlphaLayer = field(default_factory=AlphaLayer)
    game_id: int = 0
    seen: int = 0
    shown: list[_Shown] = field(default_factory=list)


_STATES: weakref.WeakKeyDictionary[Any, _State] = weakref.WeakKeyDictionary()


def _state(scene: BattleSceneLike) -> _State:
    got = _STATES.get(scene)
    if got is None:
        got = _STATES[scene] = _State()
    return got


def aimed_spell(scene: BattleSceneLike) -> magic.Spell | None:
    """The picked spell of the selected caster if it is aimed at a point (strategy step, or within an activation
    before attacking: AoF:R 2.16 "Wizard(X)"; the deciding player's)."""
    pending = scene.game.pending
    if pending is None or pending.decision not in ("strategy", "action", "shoot") or scene.selected is None \
            or scene.spell is None:
        return None
    spell = magic.spells_of(scene.game.state, pending.player).get(scene.spell)
    if spell is None or spell.target != "point" or spell.area is None:
        return None
    return spell


def point_casters(scene: BattleSceneLike) -> set[str]:
    """Casters of the deciding player that may try a ``point`` spell now (anywhere: no target unit needed)."""
    pending = scene.game.pending
    if pending is None or pending.decision != "strategy":
        return set()
    s = scene.game.state
    spells = magic.spells_of(s, pending.player)
    return {c for c, name in magic.castable(s, pending.player) if spells[name].target == "point"}


def point_spells_of(scene: BattleSceneLike, caster: str) -> list[str]:
    """Names of the ``point`` spells ``caster`` may try now (for the action bar's spell buttons)."""
    pending = scene.game.pending
    if pending is None or pending.decision != "strategy":
        return []
    s = scene.game.state
    spells = magic.spells_of(s, pending.player)
    return [name for c, name in magic.castable(s, pending.player) if c == caster and spells[name].target == "point"]


def snap(point: Point) -> Point:
    """A table point as it goes into the record: 1/100 inch."""
    return (round(point[0], 2), round(point[1], 2))


def preview(scene: BattleSceneLike, point: Point) -> AimPreview | None:
    """What the picked point spell would do at ``point`` (cached per position, spell and 1/100 inch)."""
    spell = aimed_spell(scene)
    caster = scene.game.state.units.get(scene.selected) if scene.selected else None
    if spell is None or caster is None or spell.area is None:
        return None
    p = snap(point)
    st = _state(scene)
    key = (scene.insight.stamp, len(scene.game.history), caster.id, spell.name, p)
    if key == st.key and st.preview is not None:
        return st.preview
    s = scene.game.state
    problem = magic.point_problem(s, caster, spell, p)
    affected = () if problem else tuple(u.id for u in magic.units_in_area(s, caster, spell, p))
    odds = None
    pending = scene.game.pending
    if problem is None and pending is not None and pending.decision == "strategy":   # tokens' odds: AoWFBR
        try:        # the odds of the cast a click would make (game/ui/odds_panel.py words them)
            odds = spell_odds(s, CastSpell(player=pending.player, unit=caster.id, spell=spell.name,
                                           point=TablePoint(*p)))
        except IllegalAction:
            odds = None
    st.key, st.preview = key, AimPreview(p, spell.area.radius, problem, affected, odds)
    return st.preview


def click(scene: BattleSceneLike, point: Point) -> bool:
    """A left click on the table while a point spell is picked: cast it there, or say why not. True if the click
    was taken (a point spell is picked); False leaves the click to the scene."""
    spell = aimed_spell(scene)
    pending = scene.game.pending
    if spell is None or pending is None or scene.selected is None:
        return False
    p = snap(point)
    scene.act(CastSpell(player=pending.player, unit=scene.selected, spell=spell.name, point=TablePoint(*p)))
    return True


# --- drawing ----------------------------------------------------------------------------------------------------


def _circle(scene: BattleSceneLike, centre: Point, radius: float) -> list[tuple[float, float]]:
    view = scene.view
    return [view.to_screen((centre[0] + radius * math.cos(2 * math.pi * k / CIRCLE_STEPS),
                            centre[1] + radius * math.sin(2 * math.pi * k / CIRCLE_STEPS)))
            for k in range(CIRCLE_STEPS)]


def _draw_reach(scene: BattleSceneLike, screen: pygame.Surface, caster: str, spell: magic.Spell) -> None:
    """The caster's footprint grown by the spell's range: the point must lie inside (and be seen)."""
    s = scene.game.state
    view = scene.view
    st = _state(scene)

    def polys() -> list[Any]:
        reach = s.scene.footprint(caster).buffer(spell.range or 0.0, quad_segs=16)
        reach = reach.intersection(shapely.box(0.0, 0.0, s.table.width, s.table.depth))   # only the table counts
        if reach.is_empty or reach.geom_type != "Polygon":
            return []
        pts = [view.to_screen((x, y)) for x, y in reach.exterior.coords]
        return [(pts, RANGE + (14,), 0), (pts, RANGE + (150,), 2)]

    st.reach.blit(screen, (caster, spell.name, spell.range, scene.insight.stamp, view.key), polys)


def draw(scene: BattleSceneLike, screen: pygame.Surface, labels: LabelLayout | None = None) -> bool:
    """Draw the aim of a picked point spell (reach, area at the mouse, affected units, note) and the results of
    recent point casts; their labels and note are asked of the frame's ``labels`` layout when given. True if a
    note was drawn next to the mouse (the scene then draws no other note)."""
    _draw_results(scene, screen, labels)
    _draw_pending_cast(scene, screen, labels)
    spell = aimed_spell(scene)
    if spell is None or spell.area is None or scene.selected is None:
        return False
    _draw_reach(scene, screen, scene.selected, spell)
    view = scene.view
    if not view.rect.collidepoint(scene.mouse) or scene.panning:
        return False
    aim = preview(scene, view.to_table(scene.mouse))
    if aim is None:
        return False
    s = scene.game.state
    ok = aim.problem is None
    colour = AREA if ok else palette.ILLEGAL
    ring = _circle(scene, aim.point, aim.radius)
    _state(scene).area.blit(screen, (aim, view.key), [(ring, colour + (40 if ok else 22,), 0),
                                                       (ring, colour + (220,), 2)])
    pygame.draw.circle(screen, colour, view.to_screen(aim.point), 3)
    if ok:
        scene.painter.draw_outlines(screen, view, s, {uid: (AREA, 3) for uid in aim.affected})
    head = f"{spell.name}: {spell.summary().split(': ', 1)[-1]}"
    if not ok:
        lines = [(f"✗ Caster(X): {aim.problem}", palette.ILLEGAL), (head, (220, 220, 220))]
    elif aim.affected:
        names = [describe.unit_name(s, u) for u in aim.affected]
        lines = [(f"Click to cast {spell.name} here", palette.LEGAL), (head, (220, 220, 220)),
                 (f"Within {aim.radius:g}\": " + ", ".join(names[:4]) + (" …" if len(names) > 4 else ""),
                  AREA)]
        if aim.odds is not None:
            lines += odds_panel.point_spell_lines(s, aim.odds)
    else:
        lines = [(f"Click to cast {spell.name} here", palette.LEGAL), (head, (220, 220, 220)),
                 (f"No unit it affects within {aim.radius:g}\" of this point", palette.SHAKEN)]
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    around = pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
    at = place_note(note_size(lines, 13), around, view.rect, _unit_boxes(scene))   # beside the area, not on it
    draw_note(screen, scene.mouse, lines, view.rect, 13, at=at, layout=labels)
    return True


def _draw_pending_cast(scene: BattleSceneLike, screen: pygame.Surface, labels: LabelLayout | None) -> None:
    """While the opponent decides whether to spend tokens against a cast (decision ``dispel``) or to block it (AoF:R
    2.16 ``block_spell``): what it is aimed at, dashed: the point and the units it would affect, or the target
    unit outlined with a dashed line from the caster."""
    pending = scene.game.pending
    s = scene.game.state
    cast: Any = None
    if pending is not None and pending.decision == "dispel":
        cast = getattr(s.magic, "cast", None)
    elif pending is not None and pending.decision == "block_spell":
        cast = getattr(s.activation, "cast", None)
    caster = s.units.get(cast.caster) if cast is not None else None
    if cast is None or caster is None or caster.pose is None:
        return
    spell = magic.spells_of(s, caster.player).get(cast.spell)
    if spell is None:
        return
    colour = AREA if pulse(scene.time) > 0.5 else faded(AREA, 0.7)
    if cast.point is not None and spell.area is not None:
        point = (float(cast.point[0]), float(cast.point[1]))
        ring = _circle(scene, point, spell.area.radius)
        dashed_polyline(screen, colour, ring, 2, closed=True)
        affected = [u.id for u in magic.units_in_area(s, caster, spell, point)]
        scene.painter.draw_outlines(screen, scene.view, s, {u: (AREA, 2) for u in affected})
        pygame.draw.circle(screen, AREA, scene.view.to_screen(point), 3)
        text = f"{spell.name} aimed here"
        label_at(screen, text, _label_spot(scene, text, ring), AREA, 12, layout=labels, priority=prio.DECLARED,
                 kind="spell")
        return
    target = s.units.get(cast.target) if cast.target is not None else None
    if target is None or target.pose is None:
        return
    scene.painter.draw_outlines(screen, scene.view, s, {target.id: (AREA, 2)})
    ends = [scene.view.to_screen(caster.pose.xy), scene.view.to_screen(target.pose.xy)]
    if target.id != caster.id:
        dashed_polyline(screen, colour, ends, 2)
    text = f"{spell.name} on {describe.unit_name(s, target.id)}"
    mid = ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
    label_at(screen, text, (round(mid[0]), round(mid[1]) - 14), AREA, 12, layout=labels, priority=prio.DECLARED,
             kind="spell")


def _collect(scene: BattleSceneLike) -> list[_Shown]:
    """The point casts among the game's new events since the last frame (all forgotten when the game object is
    replaced, by undo or a jump)."""
    st = _state(scene)
    log = scene.game.log
    if st.game_id != id(scene.game) or len(log) < st.seen:
        st.game_id, st.seen, st.shown = id(scene.game), len(log), []
        return st.shown
    for e in list(log)[st.seen:]:
        point = e.data.get("point") if e.kind == "spell" else None
        if not isinstance(point, list) or "cast" not in e.data:
            continue
        spell = e.data.get("spell")
        radius = float(e.data.get("radius", 0.0))
        affected = tuple(e.data.get("affected", ()))
        ok = bool(e.data.get("cast"))
        text = f"{spell}: " + (f"cast on {len(affected)} unit{'s' if len(affected) != 1 else ''}" if ok and affected
                               else "cast, nobody in the area" if ok else "fails")
        st.shown.append(_Shown((float(point[0]), float(point[1])), radius, text, ok, affected))
    st.seen = len(log)
    return st.shown


def _draw_results(scene: BattleSceneLike, screen: pygame.Surface, labels: LabelLayout | None) -> None:
    shown = _collect(scene)
    if not shown:
        return
    now = scene.time
    keep: list[_Shown] = []
    for r in shown:
        if r.since is None:
            r.since = now
        left = SHOW_RESULT - (now - r.since)
        if left <= 0:
            continue
        keep.append(r)
        alpha = min(1.0, left / 1.5)
        colour = faded(AREA if r.ok else (200, 200, 200), alpha)
        ring = _circle(scene, r.point, r.radius)
        if r.ok:
            pygame.draw.polygon(screen, colour, ring, 2)
        else:
            dashed_polyline(screen, colour, ring, 2, closed=True)
        centre = scene.view.to_screen(r.point)
        pygame.draw.circle(screen, colour, centre, 3)
        if r.ok and r.affected:
            s = scene.game.state
            scene.painter.draw_outlines(screen, scene.view, s,
                                        {u: (colour, 2) for u in r.affected if u in s.units and s.units[u].on_table})
        label_at(screen, r.text, _label_spot(scene, r.text, ring, r.affected), colour, 12, layout=labels,
                 priority=prio.TRAIL, kind="spell")
    _state(scene).shown = keep


def _unit_boxes(scene: BattleSceneLike) -> list[pygame.Rect]:
    """Screen boxes of the units on the table (labels and notes keep clear of them)."""
    s = scene.game.state
    boxes = []
    for u in s.units.values():
        if u.on_table:
            pts = [scene.view.to_screen(c) for c in s.scene.footprint(u.id).exterior.coords]
            px, py = [p[0] for p in pts], [p[1] for p in pts]
            boxes.append(pygame.Rect(min(px), min(py), max(px) - min(px), max(py) - min(py)))
    return boxes


def _label_spot(scene: BattleSceneLike, text: str, ring: list[tuple[float, float]],
                gone: tuple[str, ...] = ()) -> tuple[float, float]:
    """Where a circle's label goes: above it, else below, else on its left or right, the first that covers no
    unit on the table nor the fate label of a unit of ``gone`` just removed (game/ui/trails.py; above when all
    do)."""
    s = scene.game.state
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    size = label_box(text, (0, 0), AREA, 12).size
    spots = [(cx, min(ys) - 10), (cx, max(ys) + 10), (min(xs) - size[0] / 2 - 6, cy), (max(xs) + size[0] / 2 + 6, cy)]
    boxes = _unit_boxes(scene)
    for uid in gone:
        u = s.units.get(uid)
        if u is not None and not u.on_table and u.pose is not None:    # its "destroyed" label stands there
            x, y = scene.view.to_screen(u.pose.xy)
            boxes.append(pygame.Rect(round(x) - 120, round(y) - 30, 240, 60))
    for spot in spots:
        box = label_box(text, spot, AREA, 12)
        if box.collidelist(boxes) < 0 and scene.view.rect.contains(box):
            return spot
    return spots[0]


__all__ = ["AimPreview", "aimed_spell", "click", "draw", "point_casters", "point_spells_of", "preview", "snap"]
