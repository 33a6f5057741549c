"""The computer opponent's consolidation moves (AoWFBR 1.4 and AoF:R 2.16 "Consolidation Moves": the survivor of a
melee whose enemy was destroyed or routed, or a winner that does not follow up or pursue, "may either pivot by up
to 180° or move by up to 3" in any direction", keeping 1" from other units; the engine keeps the facing on a move).

Three inches decide games where markers score: a unit that wins its melee beside an objective marker steps within
3" of it and seizes or contests it at the end of the round. So the candidates (``consolidation_candidates``) are:
skip it, pivot to face the nearest enemy, and a straight move keeping the facing toward the nearest marker the side
does not hold alone (``marker_step``); the search scores them. The look-ahead's fixed policy (``game.ai.rollout``)
takes ``marker_step`` too, so a charge whose consolidation would seize a marker is judged with it.

Each move is kept only if the engine accepts it (``Ruleset.check``: the action tried on a clone).
"""

from __future__ import annotations

import math

from shapely import Point

from game.ai.candidates import HAIR, SHORTER
from game.engine import objectives
from game.engine.actions import Action, Consolidate, Done, rounded_pose
from game.engine.game import Game
from game.engine.state import Unit
from geometry.pose import Pose, bearing_difference, bearing_to

CONSOLIDATION = 3.0
"""Inches a consolidation may move (rulebook "Consolidation Moves")."""
INSIDE = 0.25
"""Inches inside the 3" seizing distance a marker step aims for (the footprint's nearest point moves a little
less than the centre when the marker is off the unit's line)."""


def _step(game: Game, unit: Unit, bearing: float, want: float) -> Consolidate | None:
    """The longest straight consolidation of ``unit`` toward ``bearing`` (degrees) of up to ``want`` inches, keeping
    the facing, that the engine accepts (``SHORTER`` fractions), or None."""
    assert unit.pose is not None
    start = unit.pose
    r = math.radians(bearing)
    for f in SHORTER:
        d = min(want, CONSOLIDATION - HAIR) * f
        if d < 0.3:
            break
        end = rounded_pose(Pose(start.x + d * math.sin(r), start.y + d * math.cos(r), start.facing))
        action = Consolidate(unit.player, unit.id, (end,))
        if game.ruleset.check(action) is None:
            return action
    return None


def marker_step(game: Game, unit: Unit) -> Consolidate | None:
    """A consolidation of ``unit`` bringing it within 3" of the nearest objective marker its side does not hold
    alone (rulebook "Seizing Objectives"; under Sabotage its own marker only while an enemy is near it), when a
    mission is played, the unit may seize markers, it is within 3" of none such yet and a move of at most 3" gets
    it there; else None. Inches as the scene measures them (the unit's footprint to the marker)."""
    s = game.state
    if s.mission is None or unit.pose is None or not objectives.may_seize(s, unit):
        return None
    me = unit.player
    open_marks = []
    for o in s.objectives:
        if o.destroyed or o.carried_by is not None:
            continue
        near = objectives.contesting(s, o)
        if o.controller == me and not near[3 - me]:
            continue                   # held alone already (a Sabotage marker is held by its owner)
        gap = s.scene.distance_to_point(unit.id, Point(o.x, o.y))
        if gap <= objectives.SEIZE_DISTANCE:
            return None                # it seizes or contests one where it stands
        open_marks.append((gap, o.x, o.y))
    reachable = [m for m in open_marks if m[0] - objectives.SEIZE_DISTANCE + INSIDE <= CONSOLIDATION]
    if not reachable:
        return None
    gap, x, y = min(reachable)
    return _step(game, unit, bearing_to(unit.pose.xy, (x, y)), gap - objectives.SEIZE_DISTANCE + INSIDE)


def facing_nearest(game: Game, unit: Unit) -> Pose | None:
    """``unit``'s pose pivoted to face the nearest enemy, or None if it already does (within 2 degrees)."""
    s = game.state
    if unit.pose is None:
        return None
    enemies = [e for e in s.enemies_of(unit.player) if e.pose is not None]
    if not enemies:
        return None
    near = min(enemies, key=lambda e: (s.scene.distance(unit.id, e.id), e.id))
    assert near.pose is not None
    turn = bearing_difference(unit.pose.facing, bearing_to(unit.pose.xy, near.pose.xy))
    # the centre stays exactly where it is (a rounded centre would be a move as well as a pivot)
    return None if abs(turn) < 2.0 else Pose(unit.pose.x, unit.pose.y, round(unit.pose.turned(turn).facing, 3))


def consolidation_candidates(game: Game, unit: Unit) -> list[Action]:
    """The answers to ``unit``'s consolidation (see the module docstring), skipping it first: a pivot to face the
    nearest enemy (``facing_nearest``) and the step toward a marker (``marker_step``), each legal by the engine.

    Not offered, measured: a 3" step back from the nearest enemy and one toward it (README "Computer opponent")."""
    out: list[Action] = [Done(unit.player)]
    face = facing_nearest(game, unit)
    if face is not None:
        pivot = Consolidate(unit.player, unit.id, (face,))
        if game.ruleset.check(pivot) is None:
            out.append(pivot)
    step = marker_step(game, unit)
    if step is not None:
        out.append(step)
    return out
