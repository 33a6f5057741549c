"""Random Scatter for Artillery in the battle window (AoWFBR 1.4 "Optional Rules"; game.engine.artillery_scatter).

In the shooting phase, selecting artillery of type 2 (stone throwers, mortars, rocket batteries) or 3 (cannons)
shows where it may aim: the area within its weapons' range in the front arcs of its firing models, tinted; the
note at the mouse says whether the point under it is a valid target point and, if not, the rule and the reason
(out of range, out of the arc, touching a unit in melee, no line of sight for a cannon). A click on the table
(not on one of the player's own units, which selects it) fires at that point (``shoot_point``). A cannon's
button "Skip first Quality test" toggles ``skip_test``. After the shot, the target point, the scatter path and
where each shot landed stay drawn until the next action; the rolls are in the dice panel and the log.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame
from shapely.geometry import Polygon, box
from shapely.ops import unary_union

from game.engine import artillery_scatter as scatter
from game.engine.actions import ShootPoint
from game.engine.events import Event
from game.ui import label_layout as prio
from game.ui import palette
from game.ui.action_bar import ButtonSpec
from game.ui.battle_draw import wrap_lines
from game.ui.label_layout import LabelLayout
from game.ui.overlays import AlphaLayer, dashed_polyline, draw_arrow, draw_note, label_at, label_box
from game.ui.picking import unit_at
from geometry.pose import Point, forward_vector, right_vector

if TYPE_CHECKING:
    from game.ui.scene_protocols import BattleSceneLike

AREA = (255, 196, 90)
"""Colour of the aiming area and the artillery's marks."""
SKIP_KEY = "artillery_skip"
"""The command of the cannon's "skip the first Quality test" toggle."""


class ArtilleryTool:
    """The artillery's aiming and its last shots for one battle scene (reads the game, acts through the scene)."""

    def __init__(self, scene: BattleSceneLike) -> None:
        self.scene = scene
        self.skip_test = False
        """A cannon skips its first Quality test on the next shot (``ShootPoint.skip_test``)."""
        self.layer = AlphaLayer()
        self._area: tuple[object, object] | None = None
        self._problem: tuple[object, str | None] | None = None

    # --- what is selected ---------------------------------------------------------------------------------
    def unit(self) -> str | None:
        """The selected artillery that fires at target points now, or None."""
        scene = self.scene
        pending = scene.game.pending
        uid = scene.selected
        if pending is None or pending.decision != "shoot" or uid is None or scene.watch_only:
            return None
        return uid if scene.game.point_shooter(uid) else None

    def is_cannon(self) -> bool:
        """The selected artillery is a cannon (type 3)."""
        uid = self.unit()
        return uid is not None and scatter.artillery_type(self.scene.game.state.units[uid]) == scatter.CANNON

    def action(self, point: Point) -> ShootPoint | None:
        """The ``shoot_point`` a click at table ``point`` would send (None without artillery selected)."""
        uid = self.unit()
        pending = self.scene.game.pending
        if uid is None or pending is None:
            return None
        from game.ui import decisions
        return ShootPoint(player=pending.player, unit=uid, x=round(point[0], 2), y=round(point[1], 2),
                          weapons=decisions.shot_weapons(self.scene, uid),
                          skip_test=self.skip_test and self.is_cannon())

    def problem(self, point: Point) -> str | None:
        """Why the selected artillery may not fire at ``point`` ("rule: reason"), or None (cached per 0.05")."""
        action = self.action(point)
        if action is None:
            return "no artillery selected"
        key = (len(self.scene.game.history), action.unit, action.weapons, round(point[0] * 20), round(point[1] * 20))
        if self._problem is None or self._problem[0] != key:
            err = self.scene.game.check_shoot_point(action)
            self._problem = (key, None if err is None else f"{err.rule}: {err.message}")
        return self._problem[1]

    # --- input ---------------------------------------------------------------------------------------------
    def click(self, point: Point) -> bool:
        """A left click at table ``point``: fire at it when artillery is selected and the click is not on one of
        the player's own units. True if the click was taken (fired, or refused with the rule shown)."""
        scene = self.scene
        action = self.action(point)
        if action is None:
            return False
        s = scene.game.state
        clicked = unit_at(s, point)
        if clicked is not None and s.units[clicked].player == action.player:
            return False
        err = scene.game.check_shoot_point(action)
        if err is not None:
            scene.show_error(err)
            return True
        if scene.act(action):
            scene.fire.pop(action.unit, None)
            self.skip_test = False
        return True

    def buttons(self) -> list[ButtonSpec]:
        """The cannon's toggle for its first Quality test."""
        if not self.is_cannon():
            return []
        return [ButtonSpec(SKIP_KEY, "Skip first Quality test", "Cannons: \"The player may choose to skip this "
                           "Quality test\" and go straight to the artillery die (the shot then scatters along the "
                           "line of fire)", "#toggle_on" if self.skip_test else None, short="Skip test")]

    def run(self, key: str) -> bool:
        """Do a button's command; True if it was this tool's."""
        if key != SKIP_KEY:
            return False
        self.skip_test = not self.skip_test
        return True

    # --- drawing -------------------------------------------------------------------------------------------
    def area(self, uid: str) -> object:
        """The region the selected artillery may aim into: within range of a firing model's base and in its front
        arc (sight not checked: the note says), on the table. A shapely geometry, cached per position."""
        s = self.scene.game.state
        key = (uid, len(self.scene.game.history))
        if self._area is not None and self._area[0] == key:
            return self._area[1]
        unit = s.units[uid]
        scene = s.scene
        pose = unit.pose
        parts = []
        reach = scatter.max_range(unit)
        if pose is not None and reach is not None:
            f = unit.formation
            fwd, right = forward_vector(pose.facing), right_vector(pose.facing)
            w, d = f.base_width, f.base_depth
            length = reach + w + d
            for i, (cx, cy) in enumerate(scene.model_centres(uid).tolist()):
                if int(scene.model_rows(uid)[i]) >= 2:
                    continue
                local = [(-w / 2, d / 2), (w / 2, d / 2), (w / 2 + length, d / 2 + length),
                         (-w / 2 - length, d / 2 + length)]
                wedge = Polygon([(cx + u * right[0] + v * fwd[0], cy + u * right[1] + v * fwd[1]) for u, v in local])
                parts.append(wedge.intersection(scene.model_polygons(uid)[i].buffer(reach, quad_segs=16)))
        area = unary_union(parts).intersection(box(0, 0, s.table.width, s.table.depth)) if parts else Polygon()
        self._area = (key, area)
        return area

    def draw(self, screen: pygame.Surface, labels: LabelLayout | None = None) -> bool:
        """Draw the aiming area and the note at the mouse (when artillery is selected) and the last shots, their
        labels and note asked of the frame's ``labels`` layout when given; True if a note was drawn at the mouse."""
        scene = self.scene
        view = scene.view
        self._draw_last_shots(screen, labels)
        uid = self.unit()
        if uid is None:
            return False
        area = self.area(uid)
        rings = [list(p.exterior.coords) for p in getattr(area, "geoms", [area]) if isinstance(p, Polygon)
                 and not p.is_empty]
        polys = [([view.to_screen(pt) for pt in ring], AREA + (34,), 0) for ring in rings] + \
                [([view.to_screen(pt) for pt in ring], AREA + (200,), 2) for ring in rings]
        self.layer.blit(screen, (view.key, uid, len(scene.game.history)), polys)
        unit = scene.game.state.units[uid]
        kind = scatter.artillery_type(unit) or 0
        if rings and unit.pose is not None:      # the label just in front of the machine, inside the table view
            ahead = forward_vector(unit.pose.facing)
            lead = unit.formation.depth / 2 + 1.2
            x, y = view.to_screen((unit.pose.x + ahead[0] * lead, unit.pose.y + ahead[1] * lead))
            text = f"Type {kind}: {scatter.TYPE_NAMES.get(kind, '')} · {scatter.max_range(unit):g}\" range"
            half = label_box(text, (0, 0), AREA).w // 2 + 4
            label_at(screen, text, (min(max(x, view.rect.left + half), view.rect.right - half), y), AREA,
                     layout=labels, priority=prio.AID, kind="artillery")
        if not view.rect.collidepoint(scene.mouse) or scene.panning:
            return False
        point = view.to_table(scene.mouse)
        over = unit_at(scene.game.state, point)
        if over is not None and scene.game.state.units[over].player == unit.player:
            return False
        if kind == scatter.CANNON and unit.pose is not None:
            dashed_polyline(screen, AREA, [view.to_screen(unit.pose.xy), view.to_screen(point)], 1)
        problem = self.problem(point)
        if problem is not None:
            rule, _, why = problem.partition(": ")
            lines = wrap_lines([(f"✗ {rule}", palette.ILLEGAL), (why, (230, 230, 230))], 360)
        else:
            first = ("scatter die: 1-2 hit, else artillery die" if kind == scatter.STONE_THROWER else
                     "artillery die at once (test skipped)" if self.skip_test else
                     f"Quality test {unit.profile.quality}+ to hit, else artillery die")
            lines = [("Target point: click to fire", palette.LEGAL), (first, (230, 230, 230)),
                     ("scatter: one Quality test per 2\", 2\" off each", (200, 206, 210))]
        draw_note(screen, scene.mouse, lines, view.rect, 13, layout=labels)
        return True

    def last_shots(self) -> list[Event]:
        """The ``artillery`` events of the last action (its shots at target points), oldest first."""
        game = self.scene.game
        if not game.log_index:
            return []
        return [e for e in game.log[game.log_index[-1]:] if e.kind == "artillery"]

    def _draw_last_shots(self, screen: pygame.Surface, labels: LabelLayout | None) -> None:
        """Each shot of the last action: the target point (a ring), the path it scattered along (an arrow) and
        where it landed (filled: a hit; a cross: wasted or misfired), with a label."""
        view = self.scene.view
        s = self.scene.game.state
        for e in self.last_shots():
            d = e.data
            target = view.to_screen(tuple(d["target"]))
            final = view.to_screen(tuple(d["final"]))
            pygame.draw.circle(screen, (0, 0, 0), target, 9, 4)
            pygame.draw.circle(screen, AREA, target, 8, 2)
            pygame.draw.line(screen, AREA, (target[0] - 12, target[1]), (target[0] + 12, target[1]), 1)
            pygame.draw.line(screen, AREA, (target[0], target[1] - 12), (target[0], target[1] + 12), 1)
            if d.get("misfire"):
                text = f"misfire: {d['misfire']}"
            else:
                if final != target:
                    draw_arrow(screen, target, final, AREA, 2)
                hit = d.get("hit_unit")
                colour = palette.ILLEGAL if hit is None else palette.FLASH
                pygame.draw.circle(screen, (0, 0, 0), final, 7)
                pygame.draw.circle(screen, colour, final, 5 if hit else 6, 0 if hit else 2)
                where = s.units[hit].profile.name if hit in s.units else "nothing"
                moved = f"scattered {d['remaining']:g}\"" if d["remaining"] else "on target"
                text = f"{d['weapon']}: {moved}, hits {where}" if hit else f"{d['weapon']}: {moved}, wasted"
            # the label on the open side of the target ring: back along the scatter path, or toward the shooter
            # when the shot did not move (the unit hit lies the other way)
            shooter = s.units.get(d["unit"])
            back = (target[0] - final[0], target[1] - final[1])
            if math.hypot(*back) < 1.0 and shooter is not None and shooter.pose is not None:
                at = view.to_screen(shooter.pose.xy)
                back = (at[0] - target[0], at[1] - target[1])
            length = math.hypot(*back)
            ux, uy = (back[0] / length, back[1] / length) if length >= 1.0 else (0.0, 1.0)
            rect = label_box(text, (0, 0), AREA)
            label_at(screen, text, (target[0] + ux * (rect.w / 2 + 14), target[1] + uy * (rect.h / 2 + 14)), AREA,
                     layout=labels, priority=prio.TRAIL, kind="artillery")

