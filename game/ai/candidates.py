"""Candidate actions for the computer opponent: a small purposeful set per decision, legal by the engine's checks.

Moves (step 2.4) for one unit, in order of preference, each kept only if ``Game.check_move`` accepts it (the
longest legal distance of each idea is kept, trying shorter ones when the engine refuses, and one short of the
climb where AoF:R 2.16's "Elevation" counts it as movement); each goes as far as the unit's own Advance or Rush
(``allowances``: the engine's, with Fast, Slow, the musician and spells):

* toward the enemy the unit would most like to charge (worth over distance): an Advance or Rush all the way, or
  stopping just outside that enemy's charge reach (``STAY_OUT``) so the enemy cannot charge first, or closing to
  charge next turn (the reach is the engine's ``charge_allowance``: 12", Fast, Slow, musician, spells);
* toward the nearest objective marker not held alone when a mission is played (a step back or sideways first when
  nothing toward it is legal), and toward the second;
* into the nearest terrain piece that gives cover (terrain trait ``cover``);
* backing away from the nearest enemy (an Advance keeping the facing: out of its charge reach);
* holding, or holding with a pivot to face the nearest enemy (which also guards the flanks; a shooting unit holds
  to shoot).

Where impassable terrain stands between a unit and the enemy it would charge or the objective it goes for, the
first ideas follow the shortest route round it (``game.ai.route``: to the first corner and on toward the next,
within the Advance's or Rush's pivots; a way point behind the unit's flank, beyond one pivot, is reached by a
sideways or backward step straight at it, or a pivot of 90 degrees toward it); a unit that can neither go ahead nor
pivot where it stands (its frontage would swing into the piece) steps back or sideways first (``_unstick``).

Other decisions take the engine's own options (charge targets, shooting targets, reactions, redirects, pursuit and
follow-up choices, casts from ``magic.cast_options``), pruned to the nearest few per unit. Nothing here judges a
candidate; ``game.ai.search`` does.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator

from game.ai.evaluate import charge_reach, charge_value
from game.ai.route import clearance, route
from game.ai.stakes import worth
from game.engine import magic, objectives
from game.engine.actions import CastSpell, Move, rounded_pose
from game.engine.game import Game
from game.engine.movement import elevation_climb, move_allowance
from game.engine.state import MoveAction, Objective, Unit
from geometry.pose import Pose, bearing_difference, bearing_to

STAY_OUT = 0.6
"""Inches beyond an enemy's charge reach to keep, to stay out of it."""
SHORTER = (1.0, 0.75, 0.5, 0.25)
"""Fractions of a wanted distance tried in turn when the engine refuses the longer."""
STUCK = 2
"""Candidate moves (hold included) at or below which a unit is deemed hemmed in and tries steps to the side."""
HAIR = 0.01
"""Inches a candidate keeps short of a unit's whole move: rounding its path's poses may lengthen it a little."""
DETOURS = (0.0, 30.0, -30.0, 60.0, -60.0)
"""Degrees a move is turned aside when the engine refuses the straight one (impassable terrain in the way)."""


def allowances(unit: Unit) -> tuple[float, float]:
    """Inches ``unit`` may Advance and Rush (the engine's ``movement.move_allowance``: 6" and 12", Fast +2"/+4",
    Slow -2"/-4", the musician, spells), less ``HAIR`` (a path's poses are rounded to thousandths of an inch, which
    may add a little). Difficult terrain and elevation may allow less: the engine refuses the longer try and a
    shorter one follows."""
    return move_allowance(unit, MoveAction.ADVANCE) - HAIR, move_allowance(unit, MoveAction.RUSH) - HAIR


def _path(start: Pose, bearing: float, dist: float, turn_limit: float = 90.0) -> tuple[Pose, ...]:
    """Pivot toward ``bearing`` (at most ``turn_limit`` degrees) then move ``dist`` inches straight ahead."""
    turn = max(-turn_limit, min(turn_limit, bearing_difference(start.facing, bearing)))
    facing = start.turned(turn).facing
    r = math.radians(facing)
    end = Pose(start.x + dist * math.sin(r), start.y + dist * math.cos(r), facing)
    if abs(turn) > 1e-6:
        return (rounded_pose(start.facing_to(facing)), rounded_pose(end))
    return (rounded_pose(end),)


def _first_legal(game: Game, unit: Unit, kind: str, bearing: float, dists: list[float]) -> Move | None:
    """The first of the moves toward ``bearing`` over ``dists`` the engine accepts, each tried at ``SHORTER``
    fractions and turned aside by ``DETOURS`` (around impassable terrain, a friend in the way), the most progress
    toward ``bearing`` first. Where AoF:R 2.16's "Elevation" counts a climb as movement, a try refused for its
    climb is tried again short of the climb, in its own place in that order (a short climb straight ahead must not
    win over a longer way round a friend)."""
    assert unit.pose is not None
    tries: list[tuple[float, float, float, bool]] = []
    for want in dists:
        for f in SHORTER:
            for off in DETOURS:
                d = round(want * f, 2)
                if d >= 0.3:
                    tries.append((-d * math.cos(math.radians(off)), d, off, True))
    heapq.heapify(tries)
    tried: set[tuple[float, float]] = set()
    elevation = game.state.elevation_height is not None
    while tries:
        _, d, off, climbs = heapq.heappop(tries)
        if (d, off) in tried:
            continue
        tried.add((d, off))
        move = Move(unit.player, unit.id, kind, _path(unit.pose, bearing + off, d))
        if game.check_move(move) is None:
            return move
        if elevation and climbs:
            # AoF:R 2.16 "Elevation": the same way, short of the climb, climbs as much (the fractions alone left a
            # unit 1.5" a turn below a 4" hill's edge); less a ``HAIR``: the rounded end pose may add a little
            climb = elevation_climb(game.state, unit, move.path).inches
            short = round(d - climb - HAIR, 2)
            if climb and short >= 0.3:
                heapq.heappush(tries, (-short * math.cos(math.radians(off)), short, off, False))
    return None


def _route_move(game: Game, unit: Unit, kind: str, goal: tuple[float, float], dist: float) -> Move | None:
    """The first legal move of up to ``dist`` inches along the route round impassable terrain toward ``goal``
    (``game.ai.route``), or None when the straight way is free or nothing along the route is accepted: to the
    first way point and on toward the next (two pivots of up to 45 degrees: rulebook "Advance"), else toward the
    first way point only (one pivot of up to 90), each at ``SHORTER`` fractions; a first way point more than 90
    degrees off the facing: a sideways or backward step at it (an Advance: half the move) then a pivot toward the
    way on, or a pivot of 90 toward it and a move along the new facing."""
    assert unit.pose is not None
    start = unit.pose
    scene = game.state.scene
    advance = allowances(unit)[0]
    pts = route(scene, start.xy, goal, clearance(scene, unit.id))
    if pts is None:
        return None
    w1 = pts[0]
    d1 = math.dist(start.xy, w1)
    if d1 > dist + advance:
        return None     # the piece in the way is beyond this move: going straight does as well for now
    t1 = bearing_difference(start.facing, bearing_to(start.xy, w1))
    first = start.turned(t1)
    tries: list[tuple[Pose, ...]] = []
    if len(pts) > 1 and dist > d1 + 0.3 and abs(t1) <= 45.0:
        f2 = first.turned(max(-45.0, min(45.0, bearing_difference(first.facing, bearing_to(w1, pts[1])))))
        r = math.radians(f2.facing)
        rest = min(dist - d1, math.dist(w1, pts[1]))
        for f in SHORTER:
            leg = rest * f
            if leg < 0.3:
                continue
            mid = Pose(w1[0], w1[1], f2.facing)
            end = Pose(w1[0] + leg * math.sin(r), w1[1] + leg * math.cos(r), f2.facing)
            legs = (first, mid, end) if abs(t1) > 1e-6 else (mid, end)
            tries.append(tuple(rounded_pose(p) for p in legs))
    if abs(t1) <= 90.0:
        for f in SHORTER:
            d = min(dist, d1) * f
            if d >= 0.3:
                tries.append(_path(start, first.facing, d))
    else:
        # the way point lies behind the unit's flank (it faces away, e.g. after a pivot beside a building): a
        # sideways or backward step straight at it, at most half the move (rulebook "Advance"; docs/rulings.md
        # "Sideways and backward"), then a pivot toward the way on (up to 90 degrees); or a pivot of 90 toward it
        # and a forward move along the new facing
        aim = pts[1] if len(pts) > 1 and d1 < advance / 2 else w1
        if kind == "advance":
            b = bearing_to(start.xy, w1)
            r = math.radians(b)
            for f in SHORTER:
                d = min(advance / 2, d1) * f
                if d < 0.3:
                    continue
                end = Pose(start.x + d * math.sin(r), start.y + d * math.cos(r), start.facing)
                turn = max(-90.0, min(90.0, bearing_difference(start.facing, bearing_to(end.xy, aim))))
                tries.append((rounded_pose(end.turned(turn)),))
        side = start.turned(90.0 if t1 > 0 else -90.0)
        for f in SHORTER:
            d = min(dist, d1) * f
            if d >= 0.3:
                tries.append(_path(start, side.facing, d))
    for path in tries:
        move = Move(unit.player, unit.id, kind, path)
        if game.check_move(move) is None:
            return move
    return None


def _unstick(game: Game, unit: Unit, goal: tuple[float, float]) -> list[Move]:
    """Moves for a unit that can neither go ahead nor pivot where it stands (its frontage swings into impassable
    terrain): back or sideways keeping its facing, up to half an Advance (rulebook "Advance": "may also move
    sideways or backward by up to half its move instead of moving forward (may still pivot)"), then pivoting
    toward the route to ``goal`` (up to 90 degrees) where the engine accepts it; the two that end nearest the
    route's first way point."""
    assert unit.pose is not None
    start = unit.pose
    scene = game.state.scene
    pts = route(scene, start.xy, goal, clearance(scene, unit.id))
    aim = goal if pts is None else pts[0]
    advance = allowances(unit)[0]
    found: list[tuple[float, Move]] = []
    for off in (180.0, 90.0, -90.0, 135.0, -135.0):
        r = math.radians(start.facing + off)
        for d in (advance / 2, advance / 4):
            end = Pose(start.x + d * math.sin(r), start.y + d * math.cos(r), start.facing)
            turn = max(-90.0, min(90.0, bearing_difference(start.facing, bearing_to(end.xy, aim))))
            move = None
            for t in (turn, turn / 2, 0.0):
                m = Move(unit.player, unit.id, "advance", (rounded_pose(end.turned(t)),))
                if game.check_move(m) is None:
                    move = m
                    break
            if move is not None:
                found.append((math.dist(end.xy, aim), move))
                break
    found.sort(key=lambda fm: fm[0])
    return [m for _, m in found[:2]]


def move_candidates(game: Game, unit: Unit, limit: int) -> list[Move]:
    """Up to ``limit`` distinct legal moves for ``unit`` (see the module docstring), hold first."""
    assert unit.pose is not None
    s = game.state
    start = unit.pose
    hold = Move(unit.player, unit.id, "hold", ())
    out: list[Move] = [hold]
    seen: set[tuple[Pose, ...]] = {()}

    def add(move: Move | None) -> None:
        if move is not None and move.path not in seen and len(out) < limit:
            seen.add(move.path)
            out.append(move)

    enemies = [e for e in s.enemies_of(unit.player) if e.pose is not None and not e.fleeing]
    if not enemies:
        return out
    scene = s.scene
    gaps = {e.id: scene.distance(unit.id, e.id) for e in enemies}
    nearest = min(enemies, key=lambda e: (gaps[e.id], e.id))
    # the enemy it would most like to charge: the best expected charge (worth when none is good) over distance
    prey = max(enemies, key=lambda e: (max(charge_value(game, unit, e), 0.1 * worth(e)) / (gaps[e.id] + 6.0), e.id))
    # where only the markers score (AoF:R 2.16), going for them comes first
    ideas = _ideas(game, unit, nearest, prey, gaps)
    if game.ruleset.units_score:
        ideas = itertools.chain(ideas, _objective_ideas(game, unit))
    else:
        ideas = itertools.chain(_objective_ideas(game, unit), ideas)
    for idea in ideas:
        if len(out) >= limit:
            break
        add(idea)
    if len(out) <= STUCK and prey.pose is not None:
        # hemmed in (impassable terrain, friends): a step to either side, to get round it over the next turns
        to_prey = bearing_to(start.xy, prey.pose.xy)
        for side in (90.0, -90.0):
            add(_first_legal(game, unit, "advance", to_prey + side, [allowances(unit)[0]]))
        if len(out) <= STUCK:
            for move in _unstick(game, unit, prey.pose.xy):
                add(move)
    for pivot in _face_pivots(game, unit, nearest, enemies, gaps):
        if len(out) >= limit:
            out[-1:] = []          # facing the danger comes before the last idea
        add(pivot)
    return out


def _face_pivots(game: Game, unit: Unit, nearest: Unit, enemies: list[Unit], gaps: dict[str, float]) -> list[Move]:
    """Holds that pivot the unit (up to 180 degrees: rulebook "Holding") to face the enemy whose charge it has most
    to fear (its flank or rear to that enemy's reach), then the nearest enemy; each only if the engine accepts it.
    The centre stays exactly where it is (a rounded centre would be a move as well as a pivot, which a Hold may
    not make)."""
    assert unit.pose is not None
    start = unit.pose
    threats = [(charge_value(game, e, unit), e.id, e) for e in enemies
               if e.pose is not None and gaps[e.id] <= charge_reach(game, e)]
    faced: list[Unit] = [t[2] for t in sorted(threats, key=lambda t: (-t[0], t[1]))[:1] if t[0] > 0.0]
    if nearest not in faced:
        faced.append(nearest)
    out: list[Move] = []
    for enemy in faced:
        assert enemy.pose is not None
        turn = bearing_difference(start.facing, bearing_to(start.xy, enemy.pose.xy))
        if abs(turn) <= 2.0:
            continue
        pivot = Move(unit.player, unit.id, "hold", (Pose(start.x, start.y, round(start.turned(turn).facing, 3)),))
        if game.check_move(pivot) is None:
            out.append(pivot)
    return out


def _ideas(game: Game, unit: Unit, nearest: Unit, prey: Unit, gaps: dict[str, float]) -> Iterator[Move | None]:
    """The move ideas in order of preference, lazily (each costs ``check_move`` calls)."""
    s = game.state
    assert unit.pose is not None and prey.pose is not None and nearest.pose is not None
    start = unit.pose
    advance, rush = allowances(unit)
    to_prey = bearing_to(start.xy, prey.pose.xy)
    gap = gaps[prey.id]
    stay_out = charge_reach(game, prey) + STAY_OUT
    shooter = any((w.range or 0.0) > 0.0 for w in unit.profile.weapons)
    # impassable terrain between: round it first (the straight ideas below are turned aside at most 60 degrees)
    yield _route_move(game, unit, "advance", prey.pose.xy, advance)
    if gap > rush / 2:
        yield _route_move(game, unit, "rush", prey.pose.xy, rush)
    # Stop just outside the prey's charge reach (it cannot charge first), or close in all the way.
    if gap > stay_out:
        short = gap - stay_out
        yield _first_legal(game, unit, "advance", to_prey, [min(advance, short)])
        if short > advance:
            yield _first_legal(game, unit, "rush", to_prey, [min(rush, short)])
    # toward the prey but outside every enemy's charge reach (moving toward one brings it no nearer the others
    # than toward it, so the least room left is a safe bound)
    room = min(gaps[e.id] - charge_reach(game, e) - STAY_OUT for e in s.enemies_of(unit.player) if e.id in gaps)
    if room > 0.5 and room < gap - stay_out - 0.5:
        yield _first_legal(game, unit, "advance" if room <= advance else "rush", to_prey, [min(rush, room)])
    close = max(gap - 1.2, 0.0)
    yield _first_legal(game, unit, "advance", to_prey, [min(advance, close)])
    if not shooter and close > advance:
        yield _first_legal(game, unit, "rush", to_prey, [min(rush, close)])
    cover = _nearest_cover(game, start)
    if cover is not None:
        d = math.hypot(cover[0] - start.x, cover[1] - start.y)
        if 0.5 < d <= rush:
            yield _first_legal(game, unit, "advance" if d <= advance else "rush", bearing_to(start.xy, cover),
                               [d])
    near_gap = gaps[nearest.id]
    near_out = charge_reach(game, nearest) + STAY_OUT
    if near_gap < near_out:     # back away, keeping the facing (no turn): out of its reach if possible
        away = bearing_to(nearest.pose.xy, start.xy)
        r = math.radians(away)
        for d in (min(advance / 2, near_out - near_gap), advance / 2):
            end = rounded_pose(Pose(start.x + d * math.sin(r), start.y + d * math.cos(r), start.facing))
            move = Move(unit.player, unit.id, "advance", (end,))
            if game.check_move(move) is None:
                yield move
                break
    if nearest.id != prey.id and gaps[nearest.id] > 1.5:
        yield _first_legal(game, unit, "advance", bearing_to(start.xy, nearest.pose.xy),
                           [min(advance, gaps[nearest.id] - 1.2)])


def _objective_ideas(game: Game, unit: Unit) -> Iterator[Move | None]:
    """Toward the nearest objective marker ``unit``'s side does not hold alone (else the nearest): an Advance, or a
    Rush when it is farther (rulebook "Missions"; AoF:R 2.16 "The Mission"); when none of these is legal (a friend
    beside it, its frontage swinging into terrain), a step back or sideways first (``_unstick``). Then one move
    toward the second such marker (a Rush when it is farther than an Advance), so a unit whose nearest marker is
    taken care of may go for another."""
    s = game.state
    assert unit.pose is not None
    if s.mission is None:
        return
    marks = [o for o in s.objectives if not o.destroyed and o.carried_by is None]
    if not marks:
        return

    def key(o: Objective) -> tuple[bool, float]:
        near = objectives.contesting(s, o)
        mine = o.controller == unit.player and not near[3 - unit.player]
        return (mine, (start.x - o.x) ** 2 + (start.y - o.y) ** 2)

    start = unit.pose
    ranked = sorted(marks, key=key)
    first = ranked[0]
    found = False
    for move in _toward(game, unit, (first.x, first.y), both=True):
        found = found or move is not None
        yield move
    if not found and math.hypot(start.x - first.x, start.y - first.y) > 1.0:
        yield from _unstick(game, unit, (first.x, first.y))
    if len(ranked) > 1 and not key(ranked[1])[0]:
        yield next(iter(m for m in _toward(game, unit, (ranked[1].x, ranked[1].y), both=False) if m), None)


def _toward(game: Game, unit: Unit, goal: tuple[float, float], both: bool) -> Iterator[Move | None]:
    """Moves toward ``goal``: along the route round impassable terrain, then straight (``_first_legal``); an
    Advance and, when ``goal`` is farther, a Rush (``both``), or only the longer of the two."""
    assert unit.pose is not None
    start = unit.pose
    d = math.hypot(start.x - goal[0], start.y - goal[1])
    if d <= 1.0:
        return
    advance, rush = allowances(unit)
    kinds = [("advance", min(advance, d))] if both or d <= advance else []
    if d > advance:
        kinds.append(("rush", min(rush, d)))
    for kind, dist in kinds:
        yield _route_move(game, unit, kind, goal, dist)
    b = bearing_to(start.xy, goal)
    for kind, dist in kinds:
        yield _first_legal(game, unit, kind, b, [dist])


def _nearest_cover(game: Game, start: Pose) -> tuple[float, float] | None:
    """The centre of the nearest terrain piece that gives cover (trait ``cover``), or None."""
    best: tuple[float, tuple[float, float]] | None = None
    for t in game.state.terrain:
        if "cover" not in t.traits or "impassable" in t.traits:
            continue
        xs = [p[0] for p in t.polygon]
        ys = [p[1] for p in t.polygon]
        c = (sum(xs) / len(xs), sum(ys) / len(ys))
        d = math.hypot(c[0] - start.x, c[1] - start.y)
        if best is None or d < best[0]:
            best = (d, c)
    return None if best is None else best[1]


def cast_candidates(game: Game, player: int, limit: int, options: list[CastSpell] | None = None) -> list[CastSpell]:
    """Up to ``limit`` casts ``player`` may try now (``options``, by default ``magic.cast_options``: the strategy
    step's; each the engine's ``check_magic`` accepts), the most purposeful target of each (caster, spell) first,
    then the second of each, and so on: a spell on a friend is aimed at one about to fight (Shaken first for a
    rally, wounded first for a heal), a spell on an enemy at one nearest to ``player``'s units (engaged ones
    first); self and point spells as listed."""
    s = game.state
    scene = s.scene
    spells = magic.spells_of(s, player)
    mine = [u for u in s.units_of(player) if u.on_table and u.pose is not None]
    theirs = [u for u in s.enemies_of(player) if u.on_table and u.pose is not None]

    def nearest(uid: str, others: list[Unit]) -> float:
        return min((scene.distance(uid, o.id) for o in others if o.id != uid), default=99.0)

    def rank(c: CastSpell) -> tuple[float, str]:
        t = s.units.get(c.target) if c.target is not None else None
        if t is None or not t.on_table:
            return (0.0, "")
        if t.player == player:
            spell = spells.get(c.spell)
            first = -100.0 if (spell is not None and ((spell.rally and t.shaken) or
                                                      (spell.heal and t.models < t.starting_models))) else 0.0
            return (first + (-50.0 if t.engaged_with else 0.0) + nearest(t.id, theirs), t.id)
        return ((-50.0 if t.engaged_with else 0.0) + nearest(t.id, mine), t.id)

    groups: dict[tuple[str, str], list[CastSpell]] = {}
    for c in magic.cast_options(s, player) if options is None else options:
        groups.setdefault((c.unit, c.spell), []).append(c)
    ranked = [sorted(g, key=rank) for g in groups.values()]
    out: list[CastSpell] = []
    depth = 0
    while len(out) < limit and any(depth < len(g) for g in ranked):
        for g in ranked:
            if depth < len(g) and len(out) < limit and game.check_magic(g[depth]) is None:
                out.append(g[depth])
        depth += 1
    return out
