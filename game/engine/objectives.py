"""Objective markers: placing them and seizing them (the standard mission).

AoWFBR 1.4 "Victory Points" lets the players "combine this rule with objectives/extra mission/side-missions ... as
in normal games (Multiply Victory Points from objectives/missions by 100)"; the normal games are OPR's Age of
Fantasy: Regiments, whose v2.16 rulebook gives the rules applied here:

* **Placing Objectives** (core rules "Placing Objectives", "Mission Objectives"): D3+2 markers; "the players
  roll-off, and the winner picks who places the first objective marker. Then the players alternate in placing one
  marker each outside of the deployment zones, and over 9" away from other objective markers." Here this happens
  before the deployment roll-off, as in that book ("Once the mission has been set up, the players roll-off ..."),
  sequenced by ``game.engine.deployment``. A scenario may place the markers itself (``objectives:``).
* **Seizing Objectives**: "At the end of each round, if a unit is within 3" of a marker whilst no enemies are,
  then it counts as being seized. Markers remain seized even if the unit moves away ... If units from both sides
  contest a marker at the end of a round, then it becomes neutral." In AoWFBR, "Shaken units ... can't contest or
  seize objectives" (rulebook "Shaken"), nor can units that arrived by Ambush this round (rule "Ambush").
* **Victory Points**: each marker a player controls at the end is worth ``OBJECTIVE_VP`` (1 VP x 100) in the
  AoWFBR total.

Interpretations (fleeing units, embarked units, markers in impassable terrain) are in docs/rulings.md,
"Objective markers".
"""

from __future__ import annotations

from shapely import Point

from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, Objective, Unit
from geometry.terrain import IMPASSABLE

MISSIONS: tuple[str, ...] = ("standard",)
"""Missions this program plays (AoF:R 2.16 "Extra Missions" 1: the standard mission of the core rules)."""
ALL_MISSIONS: tuple[str, ...] = ("standard", "seize_ground", "relic_hunt", "sabotage", "breakthrough",
                                 "king_of_the_hill", "random")
"""Every mission name a scenario may give (AoF:R 2.16 "Extra Missions"); those not in ``MISSIONS`` are refused."""
SEIZE_DISTANCE = 3.0
"""Inches: a unit within this distance of a marker seizes or contests it."""
MARKER_SPACING = 9.0
"""Inches: a marker is placed over this distance from every other marker."""
DEPLOYMENT_DEPTH = 12.0
"""Inches: markers are placed outside the deployment zones, which reach this far from the long table edges."""
OBJECTIVE_VP = 100
"""AoWFBR victory points for each marker controlled at the end (1 VP of the mission, multiplied by 100)."""
MAX_OBJECTIVES = 10
"""Markers a scenario may place (the standard mission has 3 to 5)."""

_EPS = 1e-6


def needs_placement(state: GameState) -> bool:
    """Whether the players place the markers before deployment: a mission is played and the scenario placed
    none (``state.objectives`` empty)."""
    return state.mission is not None and not state.objectives


def check_place(state: GameState, x: float, y: float) -> None:
    """Raise ``IllegalAction`` ("Placing Objectives") unless a marker may be placed at (x, y) inches now: on the
    table, outside both deployment zones (over 12" from the long edges), not in impassable terrain, and over 9"
    from every other marker."""
    rule = "Placing Objectives"
    t = state.table
    if not (0 <= x <= t.width and 0 <= y <= t.depth):
        raise IllegalAction(rule, f"({x:.1f}, {y:.1f}) is off the table", (x, y))
    if y <= DEPLOYMENT_DEPTH + _EPS or y >= t.depth - DEPLOYMENT_DEPTH - _EPS:
        raise IllegalAction(rule, f"markers are placed outside the deployment zones: over {DEPLOYMENT_DEPTH:g}\" "
                            f"from the long table edges (y between {DEPLOYMENT_DEPTH:g} and "
                            f"{t.depth - DEPLOYMENT_DEPTH:g})", (x, y))
    if IMPASSABLE in state.scene.traits_at(Point(x, y)):
        raise IllegalAction(rule, "a marker may not be placed in impassable terrain (no unit could reach it)", (x, y))
    for i, o in enumerate(state.objectives):
        gap = ((o.x - x) ** 2 + (o.y - y) ** 2) ** 0.5
        if gap <= MARKER_SPACING + _EPS:
            raise IllegalAction(rule, f"markers are placed over {MARKER_SPACING:g}\" from each other; marker "
                                f"{i + 1} is {gap:.1f}\" away", (x, y))


def may_seize(state: GameState, unit: Unit) -> bool:
    """Whether ``unit`` seizes or contests markers now: on the table, not Shaken, not fleeing, and not arrived by
    Ambush this round (AoWFBR "Shaken", "Ambush"; docs/rulings.md "Objective markers")."""
    if not unit.on_table or unit.shaken or unit.fleeing:
        return False
    arrived: dict[str, int] = getattr(state.deployment, "ambush_round", {})
    return arrived.get(unit.id) != state.round


def contesting(state: GameState, objective: Objective) -> dict[int, list[str]]:
    """The units of each player within 3" of the marker that may seize it, ``{1: [ids], 2: [ids]}``."""
    point = Point(objective.x, objective.y)
    out: dict[int, list[str]] = {1: [], 2: []}
    for u in state.units.values():
        if may_seize(state, u) and state.scene.distance_to_point(u.id, point) <= SEIZE_DISTANCE + _EPS:
            out[u.player].append(u.id)
    return out


def seize(state: GameState) -> list[Event]:
    """"Seizing Objectives" at the end of a round: a marker with units of one side only within 3" is seized by
    that side; with units of both sides it becomes neutral; with none it stays as it was."""
    events: list[Event] = []
    for i, o in enumerate(state.objectives):
        near = contesting(state, o)
        before = o.controller
        if near[1] and near[2]:
            o.controller = None
            text = f"Objective marker {i + 1} is contested by both sides" + (" and becomes neutral" if before else "")
        elif near[1] or near[2]:
            player = 1 if near[1] else 2
            o.controller = player
            names = ", ".join(state.units[uid].name for uid in near[player])
            verb = "holds" if before == player else "seizes"
            text = f"Player {player} {verb} objective marker {i + 1} ({names})"
        else:
            if before is None:
                continue
            text = f"Objective marker {i + 1} stays with player {before}"
        events.append(Event("objective", text, {"objective": i, "controller": o.controller,
                                                "near": {str(p): ids for p, ids in near.items()}}))
    return events


def objective_lines(state: GameState) -> dict[int, list[tuple[str, int]]]:
    """Each player's victory points from markers, line by line: ``("objective marker 2 held", 100)``."""
    out: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    for i, o in enumerate(state.objectives):
        if o.controller in (1, 2):
            out[o.controller].append((f"objective marker {i + 1} held", OBJECTIVE_VP))
    return out


def rotate(state: GameState) -> None:
    """Turn the markers 180 degrees about the table centre with the terrain (deployment "the table is turned")."""
    w, dep = state.table.width, state.table.depth
    for o in state.objectives:
        o.x, o.y = w - o.x, dep - o.y
