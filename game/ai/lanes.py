"""Whether terrain leaves a charge in the offing open, for the computer opponent's evaluation (AoWFBR 1.4 and AoF:R
2.16 "Charge Moves", "Difficult Terrain", "Impassable Terrain").

The evaluation counts each unit's best charge on the enemies within its charge reach. Measured in a straight line,
a regiment behind a hill "threatens" the enemy beyond it, though a charge that crosses difficult terrain moves at
most 6", and a unit behind a building has further to go than the gap says: on ``orcs_vs_dwarves.yaml`` the orcs'
Brutes, Trolls and Boar Riders stood behind Redstone Hill and the Old Mine Head for three rounds, scoring charges the
engine refused them, and never fought. Here a lane is judged cheaply, never by the engine's path search (the
engine alone decides legality when a charge is declared):

* the corridor between the two units is the convex hull of their footprints;
* if it enters difficult terrain (not for a Strider or Flying charger; under AoF:R 2.16 not the hill the charger
  stands on, "Hills - difficult terrain when going up"), the charge reaches at most ``DIFFICULT_CAP`` inches;
* if it enters impassable terrain (not for a Flying charger), the inches round it (``route.detour``) count too.
"""

from __future__ import annotations

import shapely

from game.ai.route import clearance, detour
from game.engine.movement import DIFFICULT_CAP, ignores_difficult, stands_on_hill
from game.engine.special_rules import flying
from game.engine.state import GameState, Unit
from geometry.terrain import DIFFICULT


def charge_open(state: GameState, charger: Unit, target: Unit, gap: float, reach: float) -> bool:
    """Whether ``charger`` may plausibly charge ``target`` ``gap`` inches away (footprint to footprint) within
    ``reach`` inches (its charge allowance), terrain counted as the module docstring says. A judgement for the
    evaluation only: the engine's ``plan_charge`` finds paths with a pivot this corridor does not see."""
    if gap > reach + 1e-6:
        return False
    if charger.pose is None or target.pose is None:
        return False
    scene = state.scene
    flies = flying(charger)
    slow_ground = gap > DIFFICULT_CAP + 1e-6 and not ignores_difficult(charger)
    walls: list[int] = [] if flies else scene.impassable_terrain
    if not slow_ground and not walls:
        return True
    corridor = shapely.convex_hull(shapely.GeometryCollection([scene.footprint(charger.id),
                                                               scene.footprint(target.id)]))
    crossed = scene.terrain_positions_at([corridor])        # the pieces whose interiors the corridor enters
    if slow_ground:
        exempt = set(stands_on_hill(state, charger)) if state.hills_going_up else set()
        if any(DIFFICULT in scene.terrain[i].traits and i not in exempt for i in crossed):
            return False
    if not set(crossed) & set(walls):
        return True
    extra = detour(scene, charger.pose.xy, target.pose.xy, clearance(scene, charger.id))
    return gap + extra <= reach + 1e-6


__all__ = ["charge_open"]
