"""Routes round impassable terrain for the computer opponent's move candidates (rulebook "Impassable Terrain",
"Advance", "Rush": a move may pivot once by up to 90 degrees or twice by up to 45).

A goal (a charge position, an objective marker, an enemy) straight behind a building or a crag cannot be reached
by moving straight at it, and turning the move aside by a fixed angle rarely clears the piece. Here the shortest
way for the unit's centre is found on the visibility graph of the corners of every impassable piece grown as
``geometry.charge_path`` grows obstacles for its way points: the piece's convex hull buffered (mitred) by half the
unit's frontage plus a margin, so that the unit's front sweeps past it. Only the route's first one or two way
points matter for one move; ``game.ai.candidates`` turns them into Advance or Rush paths and keeps those the
engine's ``Game.check_move`` accepts (the engine decides legality; this module never does).

The grown corners and the edges between them depend on the terrain and the radius only, so they are kept in the
scene's ``shared`` cache (shared by the game's scene and all its clones), keyed by the radius.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import Polygon

from geometry.pose import Point
from geometry.scene_data import SceneData

MARGIN = 0.3
"""Inches added to half the frontage when growing impassable pieces (room for the engine's sweep checks)."""
SHRINK = 1e-4
"""Inches the grown pieces are shrunk by when testing a segment, so that passing along a corner is free."""
CACHE_KEY = "ai-routes"


@dataclass(frozen=True)
class _Graph:
    """The grown pieces and the visibility graph between their corners."""

    polys: list[Polygon]
    """Grown impassable pieces (shrunk by ``SHRINK``)."""
    nodes: list[Point]
    """Corners of the grown pieces on the table."""
    edges: list[list[tuple[int, float]]]
    """Per node: (other node, length) for every free straight segment."""


def _free(polys: list[Polygon], a: list[Point], b: list[Point], skip: set[int] | None = None) -> np.ndarray:
    """Per pair (a[i], b[i]): True if the segment enters no grown piece (pieces in ``skip`` ignored)."""
    if not a:
        return np.zeros(0, dtype=bool)
    lines = shapely.linestrings([[p, q] for p, q in zip(a, b, strict=True)])
    ok = np.ones(len(a), dtype=bool)
    for k, poly in enumerate(polys):
        if skip is not None and k in skip:
            continue
        ok &= ~shapely.intersects(lines, poly)
    return ok


def _graph(scene: SceneData, radius: float) -> _Graph:
    """The visibility graph for a unit of clearance ``radius`` inches (cached in ``scene.shared``)."""
    cache = scene.shared.setdefault(CACHE_KEY, {})
    assert isinstance(cache, dict)
    key = round(radius, 2)
    hit = cache.get(key)
    if isinstance(hit, _Graph):
        return hit
    polys: list[Polygon] = []
    nodes: list[Point] = []
    for i in scene.impassable_terrain:
        grown = shapely.buffer(scene.terrain[i].shape.convex_hull, key, join_style="mitre", mitre_limit=2.0)
        if not isinstance(grown, Polygon):
            continue
        if len(grown.exterior.coords) > 13:
            grown = shapely.simplify(grown, 0.25)
        shrunk = grown.buffer(-SHRINK, join_style="mitre")
        if isinstance(shrunk, Polygon) and not shrunk.is_empty:
            polys.append(shrunk)
        c = grown.centroid
        for x, y in list(grown.exterior.coords)[:-1]:
            # a hair outside the corner, and on the table with room for the unit
            d = math.hypot(x - c.x, y - c.y) or 1.0
            px, py = x + (x - c.x) / d * 0.05, y + (y - c.y) / d * 0.05
            if key <= px <= scene.width - key and key <= py <= scene.depth - key:
                nodes.append((px, py))
    # a corner inside another grown piece is no way point
    nodes = [p for p in nodes if not any(poly.contains(shapely.Point(p)) for poly in polys)]
    edges: list[list[tuple[int, float]]] = [[] for _ in nodes]
    pairs = [(i, j) for i in range(len(nodes)) for j in range(i + 1, len(nodes))]
    free = _free(polys, [nodes[i] for i, _ in pairs], [nodes[j] for _, j in pairs])
    for (i, j), ok in zip(pairs, free, strict=True):
        if ok:
            d = math.dist(nodes[i], nodes[j])
            edges[i].append((j, d))
            edges[j].append((i, d))
    graph = _Graph(polys, nodes, edges)
    cache[key] = graph
    return graph


def clearance(scene: SceneData, unit_id: str) -> float:
    """The radius (inches, up in quarters so that units of a size share a graph) a unit clears turned any way:
    half its footprint's diagonal."""
    poly = scene.footprint(unit_id)
    c = poly.centroid
    half = max(math.hypot(float(x) - c.x, float(y) - c.y) for x, y in list(poly.exterior.coords)[:-1])
    return math.ceil(half * 4.0) / 4.0


def detour(scene: SceneData, start: Point, goal: Point, radius: float) -> float:
    """Inches the route round impassable terrain (``route``) from ``start`` to ``goal`` is longer than the
    straight line (0 when the straight way is free or no route is found)."""
    pts = route(scene, start, goal, radius)
    if pts is None:
        return 0.0
    length = sum(math.dist(a, b) for a, b in zip([start, *pts[:-1]], pts, strict=True))
    return max(0.0, length - math.dist(start, goal))


def route(scene: SceneData, start: Point, goal: Point, radius: float) -> list[Point] | None:
    """The way points of the shortest route of a unit's centre from ``start`` to ``goal`` (inches) round the
    impassable pieces grown by ``radius`` inches, ending with ``goal``; None when the straight way is free (or
    there is no impassable piece) or no route is found. Pieces the start or the goal already lie in (grown) are
    ignored for the segments leaving the start or reaching the goal."""
    if not scene.impassable_terrain:
        return None
    g = _graph(scene, radius)
    if not g.polys:
        return None
    sp, gp = shapely.Point(start), shapely.Point(goal)
    skip_s = {k for k, poly in enumerate(g.polys) if poly.contains(sp)}
    skip_g = {k for k, poly in enumerate(g.polys) if poly.contains(gp)}
    if _free(g.polys, [start], [goal], skip_s | skip_g)[0]:
        return None
    n = len(g.nodes)
    from_start = _free(g.polys, [start] * n, g.nodes, skip_s)
    to_goal = _free(g.polys, g.nodes, [goal] * n, skip_g)
    # Dijkstra: node n is the start, n + 1 the goal
    dist = [math.inf] * (n + 2)
    prev = [-1] * (n + 2)
    dist[n] = 0.0
    heap: list[tuple[float, int]] = [(0.0, n)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        if i == n + 1:
            break
        if i == n:
            nxt = [(j, math.dist(start, g.nodes[j])) for j in range(n) if from_start[j]]
        else:
            nxt = list(g.edges[i])
            if to_goal[i]:
                nxt.append((n + 1, math.dist(g.nodes[i], goal)))
        for j, w in nxt:
            if d + w < dist[j] - 1e-12:
                dist[j] = d + w
                prev[j] = i
                heapq.heappush(heap, (d + w, j))
    if prev[n + 1] < 0:
        return None
    out: list[Point] = [goal]
    i = prev[n + 1]
    while i != n:
        out.append(g.nodes[i])
        i = prev[i]
    return out[::-1]
