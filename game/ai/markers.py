"""The computer opponent's objective markers before the battle: who places the first, where each goes, and which
table edge it takes when it wins the deployment roll-off (AoF:R 2.16 "Placing Objectives", "Deploying Armies";
the missions of "Mission Objectives"; AoWFBR 1.4's missions the same way).

The markers are placed before the deployment roll-off, whose winner picks the edge to deploy on (the table, markers
and all, turns 180 degrees when they take the other one: ``game.engine.deployment``). So the computer:

* places the first marker (with D3+2 markers an odd count gives the first placer one more);
* places each of its markers on its own side of the table as it lies now: the legal spot (the engine's
  ``objectives.check_place``) farthest from the other side's deployment zone beyond its own (``_spot_scorer``), a
  little toward the line between the two zones, among ``TRIES`` spots sampled from the room left;
* on winning the deployment roll-off, takes the edge whose side holds more of the markers (``edge_lean``): its own
  as set up, or the other one when the markers lie mostly there (with no marker to choose by, the first edge
  offered, as before).

Heuristics without look-ahead, like the other set-up answers of ``game.ai.search``; a Sabotage marker (each player
owns one on their own 12" line) only chooses its place along that line.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from shapely import LineString, Point, Polygon

from game.engine import deployment, deployment_styles, objectives
from game.engine.actions import Action, ChooseDeployment, ChooseObjectiveOrder, PlaceObjective
from game.engine.game import Game
from game.engine.state import GameState

TRIES = 80
"""Spots sampled in the room left for a marker (each checked by the engine)."""
LATERAL = 0.25
"""Points per inch a spot loses for its distance from the line between the two deployment zones' centres (the
middle of the table's width with the zones on the long edges): a marker at a far corner is harder to hold with the
rest of the army."""
LEAN = 12.0
"""Inches of difference between the two zones' distances at which a marker counts fully for one side."""


def objective_order(me: int) -> ChooseObjectiveOrder:
    """The roll-off winner places the first marker: with an odd number of markers the first placer places one more
    (AoF:R 2.16 "Placing Objectives")."""
    return ChooseObjectiveOrder(me, me)


def _spot_scorer(state: GameState, me: int) -> Callable[[float, float], float]:
    """How much a marker at (x, y) inches lies on ``me``'s side: its distance to the other deployment zone less its
    distance to ``me``'s, less ``LATERAL`` per inch off the line between the two zones' centres (the middle of the
    table's width where the zones face each other across it; the deployment styles of AoF:R 2.16). The zones are
    worked out once for all the spots scored."""
    mine, theirs = deployment_styles.zone_of(state, me), deployment_styles.zone_of(state, 3 - me)
    a, b = mine.centroid, theirs.centroid
    axis = LineString([(a.x, a.y), (b.x, b.y)]) if a.distance(b) > 1e-9 else a

    def score(x: float, y: float) -> float:
        p = Point(x, y)
        return _nearer(mine, theirs, p) - LATERAL * float(axis.distance(p))

    return score


def lean(state: GameState, me: int, x: float, y: float) -> float:
    """Inches (x, y) lies nearer ``me``'s deployment zone than the other side's (negative: nearer theirs)."""
    return _nearer(deployment_styles.zone_of(state, me), deployment_styles.zone_of(state, 3 - me), Point(x, y))


def _nearer(mine: Polygon, theirs: Polygon, p: Point) -> float:
    """Inches ``p`` lies nearer the zone ``mine`` than ``theirs``."""
    return float(theirs.distance(p) - mine.distance(p))


def place_marker(game: Game, me: int, rng: random.Random) -> PlaceObjective | None:
    """The best legal one (``_spot_scorer``) of ``TRIES`` spots sampled in the room left for ``me``'s next marker
    (the bounds of ``objectives.free_area``), or None when none is legal (the caller places one at random)."""
    s = game.state
    area = objectives.free_area(s, me)
    if area.is_empty:
        return None
    x0, y0, x1, y1 = area.bounds
    spots = [objectives.placement_point(s, me, round(rng.uniform(x0, x1), 1), round(rng.uniform(y0, y1), 1))
             for _ in range(TRIES)]
    score = _spot_scorer(s, me)
    spots.sort(key=lambda xy: -score(*xy))
    for x, y in spots:       # the best first; the engine decides which are legal
        action = PlaceObjective(me, x, y)
        if game.check_deploy(action) is None:
            return action
    return None


def edge_lean(state: GameState, me: int) -> float:
    """How much the markers lie on ``me``'s side of the table as it is laid out now: per marker (not one a player
    owns: Sabotage), the difference of its distances to the two deployment zones over ``LEAN`` inches, clipped to
    [-1, 1], summed. Positive: ``me``'s own edge holds more of them; negative: the other edge (the table turned
    180 degrees brings those to ``me``'s zone)."""
    total = 0.0
    for o in state.objectives:
        if o.owner is not None or o.destroyed:
            continue
        total += max(-1.0, min(1.0, lean(state, me, o.x, o.y) / LEAN))
    return total


def deployment_edge(state: GameState, me: int, options: tuple[str, ...] | list[str]) -> str | None:
    """The edge the deployment roll-off winner ``me`` takes (``ChooseDeployment.edge``, of ``options``): its own as
    the table is laid out when the markers lean its way, the other when they lean the other way, else the first
    offered; None when the edges are fixed (no options)."""
    if not options:
        return None
    own, other = deployment.own_edge(me), deployment.own_edge(3 - me)
    toward = edge_lean(state, me)
    if toward > 1e-9 and own in options:
        return own
    if toward < -1e-9 and other in options:
        return other
    return options[0]


def reason(game: Game, action: Action) -> str | None:
    """The words for the window's log of why the computer answered a marker set-up decision so (``game`` before
    the action), or None for another action or a choice the markers did not make (the first edge offered)."""
    s = game.state
    if isinstance(action, ChooseObjectiveOrder) and action.first == action.player:
        return "places the first marker: with an odd number of markers the first placer places one more"
    if isinstance(action, PlaceObjective):
        nearer = lean(s, action.player, action.x, action.y)
        if nearer > 0:
            return f"on its own side of the table: {nearer:.0f}\" nearer its deployment zone than the enemy's"
    if isinstance(action, ChooseDeployment) and action.edge is not None:
        if abs(edge_lean(s, action.player)) > 1e-9:
            return f"takes the {action.edge} edge, the side most objective markers lie on"
    return None
