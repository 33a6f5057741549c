"""Objective markers and the missions that use them: placing, seizing, scoring.

AoWFBR 1.4 "Victory Points" lets the players "combine this rule with objectives/extra mission/side-missions ... as
in normal games (Multiply Victory Points from objectives/missions by 100)"; the normal games are OPR's Age of
Fantasy: Regiments, whose v2.16 rulebook gives the rules applied here ("Mission Objectives", "Extra Missions"):

* **Placing Objectives**: "The players roll-off, and the winner picks who places the first objective marker. Then
  the players alternate in placing one marker each outside of the deployment zones, and over 9" away from other
  objective markers." Duel (the standard mission of the core rules) has D3+2 markers, Relic Hunt 3, King of the
  Hill 1 ("over 9" away from the deployment zones and the table edges"), Sabotage 1 each ("12" away from their
  table edge", belonging to its player); Seize Ground (the centres of the four quarters of the non-deployment area)
  and Breakthrough (the centre of each deployment zone, 12" from the edge) place theirs by the rule
  (``fixed_markers``). Markers are placed before the deployment roll-off, sequenced by ``game.engine.deployment``;
  a scenario may place the standard mission's markers itself (``objectives:``). ``random`` rolls one die for the
  mission first.
* **Seizing Objectives**: "At the end of each round, if a unit is within 3" of a marker whilst no enemies are, then
  it counts as being seized. Markers remain seized even if the unit moves away ... If units from both sides contest
  a marker at the end of a round, then it becomes neutral." In AoWFBR "Shaken units ... can't contest or seize
  objectives", nor can units the round they arrive by Ambush. Relic Hunt: the seizing unit carries the marker, and
  drops it where it is destroyed (``GameState.remove``). Sabotage: seizing the enemy's marker destroys it.
* **Victory Points** (the VP of "Side-Missions", times 100): 1 per marker controlled (Duel, Seize Ground, Relic
  Hunt, Breakthrough), 2 for King of the Hill's marker, and in Sabotage 1 for destroying the enemy marker and 1
  for keeping one's own.

Interpretations are in docs/rulings.md, "Objective markers".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import LineString, Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from game.engine import deployment_styles
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import DEPLOYMENT_DEPTH, GameState, Objective, Table, Unit
from geometry.terrain import IMPASSABLE


@dataclass(frozen=True)
class Mission:
    """One mission of AoF:R 2.16 "Extra Missions"."""

    name: str
    """Its name in the rulebook."""
    markers: int | None
    """Markers the players place (None: D3+2); 0 when the rule places them (``fixed_markers``)."""
    vp: int
    """Victory points for each marker held at the end (the mission's VP x 100)."""
    summary: str
    """One line for the players, with AoWFBR's victory points."""
    placing: str
    """Its markers, in a few words, without victory points (AoF:R, where the mission decides the winner)."""
    goal: str
    """Who wins at the end of the game, in the book's words, without victory points (AoF:R)."""


MISSIONS: dict[str, Mission] = {
    "standard": Mission("Duel", None, 100, "D3+2 markers placed by the players; 100 VP for each held at the end",
                        "D3+2 markers placed by the players", "the player who controls most markers wins"),
    "seize_ground": Mission("Seize Ground", 0, 100, "4 markers at the centres of the quarters of no man's land; "
                                                    "100 VP for each held",
                            "4 markers at the centres of the quarters of no man's land",
                            "the player who controls most markers wins"),
    "relic_hunt": Mission("Relic Hunt", 3, 100, "3 markers; a unit that seizes one carries it and drops it where it "
                                               "dies; 100 VP for each held or carried",
                          "3 markers; a unit that seizes one carries it and drops it where it dies",
                          "the player who controls (carries) most markers wins"),
    "sabotage": Mission("Sabotage", 2, 100, "each player places a marker 12\" from their own edge; seizing the "
                                           "enemy's destroys it; 100 VP for destroying it, 100 for keeping yours",
                        "each player places a marker 12\" from their own edge; seizing the enemy's destroys it",
                        "the player who destroyed the enemy marker and kept their own wins"),
    "breakthrough": Mission("Breakthrough", 0, 100, "a marker at the centre of each deployment zone's front; "
                                                    "100 VP for each held",
                            "a marker at the centre of each deployment zone's front",
                            "the player who controls most markers wins"),
    "king_of_the_hill": Mission("King of the Hill", 1, 200, "one marker, over 9\" from the deployment zones and the "
                                                            "table edges; 200 VP for holding it",
                                "one marker, over 9\" from the deployment zones and the table edges",
                                "the player who controls it wins"),
}
"""Every mission played, by its scenario name (``mission:``)."""
RANDOM_MISSIONS: tuple[str, ...] = ("standard", "seize_ground", "relic_hunt", "sabotage", "breakthrough",
                                    "king_of_the_hill")
"""``mission: random``: one die picks the mission, in the rulebook's order (1 Duel ... 6 King of the Hill)."""
ALL_MISSIONS: tuple[str, ...] = (*MISSIONS, "random")
"""Every mission name a scenario may give."""
FIXED_MISSIONS: tuple[str, ...] = ("seize_ground", "breakthrough")
"""Missions whose markers their own rule places (``fixed_markers``)."""
SEIZE_DISTANCE = 3.0
"""Inches: a unit within this distance of a marker seizes or contests it."""
MARKER_SPACING = 9.0
"""Inches: a marker is placed over this distance from every other marker (and King of the Hill's from the
deployment zones and the table edges)."""
MAX_OBJECTIVES = 10
"""Markers a scenario may place (the standard mission has 3 to 5)."""

_EPS = 1e-6
SABOTAGE_LINE_TOLERANCE = 0.01
"""Inches: a Sabotage marker must be this close to its 12\" line (a click or a drop is not exact)."""


def mission_of(state: GameState) -> Mission | None:
    """The mission being played, or None (none, or ``random`` not rolled yet)."""
    return MISSIONS.get(state.mission or "")


def fixed_markers(mission: str, table: Table, style: str = deployment_styles.DEFAULT_STYLE) -> list[Objective]:
    """The markers a mission places by its rule: Seize Ground, "Divide the non-deployment zone area of the table
    into 4 equal quarters, and place one marker at the center of each" (each table quarter less the deployment
    zones, at its centroid; with Front Line the centres of the four quarters of the 2 x 2 strip between the zones);
    Breakthrough, "at the center of each player's deployment zone, 12" away from the table edge" (the point of each
    zone nearest the table centre: with Front Line the middle of its 12" line). Other missions: none. ``style`` is
    the deployment style (game.engine.deployment_styles); docs/rulings.md "Deployment styles"."""
    w, d = table.width, table.depth
    zones = [deployment_styles.zone(style, table, p) for p in (1, 2)]
    if mission == "seize_ground":
        out = []
        for y0 in (0.0, d / 2):
            for x0 in (0.0, w / 2):
                area = box(x0, y0, x0 + w / 2, y0 + d / 2).difference(zones[0]).difference(zones[1])
                spot = area.centroid if area.contains(area.centroid) else area.representative_point()
                out.append(Objective(round(spot.x, 6), round(spot.y, 6)))
        return out
    if mission == "breakthrough":
        centre = Point(w / 2, d / 2)
        return [Objective(round(p.x, 6), round(p.y, 6)) for p in (nearest_points(z, centre)[0] for z in zones)]
    return []


def markers_to_place(state: GameState) -> int | None:
    """How many markers the players place before deployment (None: D3+2), or 0 when none: no mission, markers
    already there (from the scenario), or placed by the rule."""
    mission = mission_of(state)
    if mission is None or state.objectives or mission.markers == 0:
        return 0
    return mission.markers


def sabotage_line(state: GameState, player: int) -> tuple[str, float]:
    """Sabotage: the line 12" from ``player``'s table edge where their marker stands, as (axis, value): ``("y",
    12.0)`` for player 1 with the long edges, ``("x", 12.0)`` with Long Haul's short edges."""
    edge = deployment_styles.home_edge(state, player)
    t = state.table
    return {"south": ("y", DEPLOYMENT_DEPTH), "north": ("y", t.depth - DEPLOYMENT_DEPTH),
            "west": ("x", DEPLOYMENT_DEPTH), "east": ("x", t.width - DEPLOYMENT_DEPTH)}[edge]


def placement_point(state: GameState, player: int, x: float, y: float) -> tuple[float, float]:
    """Where a marker asked for at (x, y) goes: on ``player``'s 12" line in Sabotage (only the position along it
    is chosen), else (x, y). For the window, which places markers where the player clicks."""
    if state.mission == "sabotage":
        axis, value = sabotage_line(state, player)
        return (x, value) if axis == "y" else (value, y)
    return (x, y)


def check_place(state: GameState, player: int, x: float, y: float) -> None:
    """Raise ``IllegalAction`` ("Placing Objectives") unless ``player`` may place a marker at (x, y) inches now:
    on the table, not in impassable terrain, and for the mission played: outside both deployment zones (the zones
    of the deployment style, game.engine.deployment_styles) and over 9" from every other marker; King of the Hill,
    over 9" from the deployment zones and the table edges; Sabotage, on the line 12" from the player's own edge."""
    rule = "Placing Objectives"
    t = state.table
    if not (0 <= x <= t.width and 0 <= y <= t.depth):
        raise IllegalAction(rule, f"({x:.1f}, {y:.1f}) is off the table", (x, y))
    point = Point(x, y)
    zones = [deployment_styles.zone_of(state, p) for p in (1, 2)]
    if state.mission == "sabotage":
        axis, value = sabotage_line(state, player)
        if abs((y if axis == "y" else x) - value) > SABOTAGE_LINE_TOLERANCE:
            raise IllegalAction("Sabotage", f"your marker stands 12\" from your table edge: on the line {axis} = "
                                f"{value:g}", (x, y))
    elif state.mission == "king_of_the_hill":
        gap = min(z.distance(point) for z in zones)
        if not (MARKER_SPACING + _EPS < x < t.width - MARKER_SPACING - _EPS and MARKER_SPACING + _EPS < y
                < t.depth - MARKER_SPACING - _EPS) or gap <= MARKER_SPACING + _EPS:
            raise IllegalAction("King of the Hill", f"the marker is placed over {MARKER_SPACING:g}\" from the "
                                f"deployment zones and the table edges (this spot is {gap:.1f}\" from a zone)",
                                (x, y))
    elif any(z.distance(point) <= _EPS for z in zones):
        raise IllegalAction(rule, "markers are placed outside the deployment zones "
                            f"({deployment_styles.STYLES[deployment_styles.style_of(state)].name})", (x, y))
    if IMPASSABLE in state.scene.traits_at(point):
        raise IllegalAction(rule, "a marker may not be placed in impassable terrain (no unit could reach it)", (x, y))
    if state.mission == "sabotage":
        return       # one marker each on lines 24" apart or more: the spacing rule never bites
    for i, o in enumerate(state.objectives):
        gap = math.hypot(o.x - x, o.y - y)
        if gap <= MARKER_SPACING + _EPS:
            raise IllegalAction(rule, f"markers are placed over {MARKER_SPACING:g}\" from each other; marker "
                                f"{i + 1} is {gap:.1f}\" away", (x, y))


def free_area(state: GameState, player: int) -> BaseGeometry:
    """Where ``player`` may place the next marker now: ``check_place``'s rules as a shape (inches). The table
    outside both deployment zones (King of the Hill: over 9" from them and from the table edges; Sabotage: the
    player's 12" line), out of impassable terrain, over 9" from every marker. Empty when no spot is left: the
    placing then ends (``room_for_marker``)."""
    t = state.table
    zones = [deployment_styles.zone_of(state, p) for p in (1, 2)]
    area: BaseGeometry
    if state.mission == "sabotage":
        axis, value = sabotage_line(state, player)
        area = LineString([(0, value), (t.width, value)] if axis == "y" else [(value, 0), (value, t.depth)])
    elif state.mission == "king_of_the_hill":
        inner = box(MARKER_SPACING + _EPS, MARKER_SPACING + _EPS, t.width - MARKER_SPACING - _EPS,
                    t.depth - MARKER_SPACING - _EPS) if min(t.width, t.depth) > 2 * MARKER_SPACING else box(0, 0, 0, 0)
        area = inner.difference(unary_union([z.buffer(MARKER_SPACING + _EPS) for z in zones]))
    else:
        area = box(0, 0, t.width, t.depth).difference(unary_union(zones))
    impassable = [piece.shape for piece in state.terrain if IMPASSABLE in piece.traits]
    if impassable:
        area = area.difference(unary_union(impassable))
    if state.mission != "sabotage" and state.objectives:
        area = area.difference(unary_union([Point(o.x, o.y).buffer(MARKER_SPACING + _EPS, 64)
                                            for o in state.objectives]))
    return area


def room_for_marker(state: GameState, player: int) -> bool:
    """Whether ``player`` can place another marker anywhere (``free_area`` is not empty)."""
    area = free_area(state, player)
    return not area.is_empty and (area.area > 1e-6 if area.area > 0 else area.length > 1e-6)


def placed(state: GameState, player: int, x: float, y: float) -> Objective:
    """Add the marker ``player`` placed at (x, y) (checked with ``check_place``); Sabotage markers belong to their
    player, who controls them while they stand."""
    owner = player if state.mission == "sabotage" else None
    marker = Objective(x, y, owner, player, owner)
    state.objectives.append(marker)
    return marker


def position(state: GameState, objective: Objective) -> tuple[float, float]:
    """Where a marker is now (inches): a carried Relic Hunt marker is at its carrier's centre."""
    if objective.carried_by is not None:
        carrier = state.units.get(objective.carried_by)
        if carrier is not None and carrier.pose is not None:
            return carrier.pose.xy
    return (objective.x, objective.y)


def may_seize(state: GameState, unit: Unit) -> bool:
    """Whether ``unit`` seizes or contests markers now: on the table, not Shaken, not fleeing, and not arrived by
    Ambush this round (AoWFBR "Shaken", "Ambush"; docs/rulings.md "Objective markers")."""
    if not unit.on_table or unit.shaken or unit.fleeing:
        return False
    arrived: dict[str, int] = getattr(state.deployment, "ambush_round", {})
    return arrived.get(unit.id) != state.round


def contesting(state: GameState, objective: Objective) -> dict[int, list[str]]:
    """The units of each player within 3" of the marker that may seize it, ``{1: [ids], 2: [ids]}``, nearest
    first."""
    point = Point(objective.x, objective.y)
    near: dict[int, list[tuple[float, str]]] = {1: [], 2: []}
    for u in state.units.values():
        if may_seize(state, u):
            gap = state.scene.distance_to_point(u.id, point)
            if gap <= SEIZE_DISTANCE + _EPS:
                near[u.player].append((gap, u.id))
    return {p: [uid for _, uid in sorted(units)] for p, units in near.items()}


def seize(state: GameState) -> list[Event]:
    """"Seizing Objectives" at the end of a round, for every marker on the table (carried and destroyed ones
    aside): a side alone within 3" seizes it (Relic Hunt: its nearest unit picks it up; Sabotage: the enemy's
    marker is destroyed, one's own just stays); both sides within 3" make it neutral; none leaves it as it was."""
    events: list[Event] = []
    for i, o in enumerate(state.objectives):
        if o.carried_by is not None or o.destroyed:
            continue
        near = contesting(state, o)
        before = o.controller
        n = i + 1
        if state.mission == "sabotage":
            enemy = 3 - (o.owner or 0)
            if near[enemy] and not near[3 - enemy]:
                o.destroyed, o.controller = True, None
                events.append(_event(state, i, f"Player {enemy} seizes and destroys player {o.owner}'s objective "
                                                f"marker ({_names(state, near[enemy])})", near))
            continue
        if near[1] and near[2]:
            o.controller = None
            text = f"Objective marker {n} is contested by both sides" + (" and becomes neutral" if before else "")
        elif near[1] or near[2]:
            player = 1 if near[1] else 2
            o.controller = player
            if state.mission == "relic_hunt":
                o.carried_by = near[player][0]
                text = f"{_names(state, near[player][:1])} picks up objective marker {n} and carries it"
            else:
                verb = "holds" if before == player else "seizes"
                text = f"Player {player} {verb} objective marker {n} ({_names(state, near[player])})"
        else:
            if before is None:
                continue
            text = f"Objective marker {n} stays with player {before}"
        events.append(_event(state, i, text, near))
    return events


def _names(state: GameState, ids: list[str]) -> str:
    return ", ".join(state.units[uid].name for uid in ids)


def _event(state: GameState, index: int, text: str, near: dict[int, list[str]]) -> Event:
    o = state.objectives[index]
    return Event("objective", text, {"objective": index, "controller": o.controller, "carried_by": o.carried_by,
                                     "destroyed": o.destroyed, "near": {str(p): ids for p, ids in near.items()}})


def objective_lines(state: GameState, per_vp: int = 100) -> dict[int, list[tuple[str, int]]]:
    """Each player's victory points from the mission, line by line, e.g. ``("objective marker 2 held", 100)``;
    ``per_vp`` is what one VP of AoF:R 2.16 "Side-Missions" is worth (100 in AoWFBR: "Multiply Victory Points from
    objectives/missions by 100"; 1 in AoF:R). Also the mission's own tally (AoF:R: a line per marker held, per
    enemy Sabotage marker destroyed, per own Sabotage marker kept)."""
    out: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    mission = mission_of(state)
    if mission is None:
        return out
    for i, o in enumerate(state.objectives):
        if state.mission == "sabotage":
            if o.owner not in (1, 2):
                continue
            if o.destroyed:
                out[3 - o.owner].append((f"player {o.owner}'s objective marker destroyed", mission.vp * per_vp // 100))
            else:
                out[o.owner].append(("own objective marker kept", mission.vp * per_vp // 100))
        elif o.controller in (1, 2):
            how = "carried" if o.carried_by is not None else "held"
            out[o.controller].append((f"objective marker {i + 1} {how}", mission.vp * per_vp // 100))
    return out


def rotate(state: GameState) -> None:
    """Turn the markers 180 degrees about the table centre with the terrain (the deployment roll-off winner took
    the other edge). Sabotage markers stay: each stands 12" from its owner's edge, and player 1's edge stays
    y = 0."""
    w, dep = state.table.width, state.table.depth
    for o in state.objectives:
        if o.owner is None:
            o.x, o.y = w - o.x, dep - o.y
