"""Computer play for AoF: Skirmish (issue 18): the random player's and the simple player's answers to every
decision of ``game.engine.rulesets.skirmish`` (loose models), and the group shapes both use.

A group move keeps the unit's shape: every model moves by the same vector (``translated``); a unit whose
casualties broke its coherency closes up around its centre first (``tightened``). Every proposal is checked by the
engine's validators (``AoFSkirmish.check_move_models``, ``check_deploy``) before it is made.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from game.engine.actions import (
    Action,
    Activate,
    ChooseDeployment,
    DeclareCharge,
    Done,
    MoveModels,
    PlaceModels,
    PlaceObjective,
    SetAside,
    Shoot,
    StrikeBack,
    TablePoint,
)
from game.engine.game import Game
from game.engine.rulesets.skirmish import EDGES, SCOUT_REACH, ZONE_DEPTH, AoFSkirmish
from game.engine.skirmish import moves
from game.engine.skirmish.loose import XY, base_radius, centre, points_of, unit_gap
from game.engine.state import Unit

SPACING = 0.5
"""Inches between neighbouring bases in a fresh group (within the 1" of coherency)."""


def grid(n: int, r: float, at: XY, per_row: int = 5, spacing: float = SPACING) -> list[XY]:
    """``n`` model centres (bases of radius ``r``) in rows of ``per_row`` centred on ``at``, ``spacing`` apart."""
    step = 2 * r + spacing
    rows = -(-n // per_row)
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        out.append((at[0] + (col - (in_row - 1) / 2) * step, at[1] + (row - (rows - 1) / 2) * step))
    return out


def translated(points: Sequence[XY], dx: float, dy: float) -> list[XY]:
    """Every point moved by (dx, dy): a group move keeping the unit's shape."""
    return [(round(x + dx, 3), round(y + dy, 3)) for x, y in points]


def tightened(points: Sequence[XY], r: float) -> list[XY]:
    """The unit closed up around its centre into a fresh group (rows of five, ``SPACING`` apart), for a unit
    whose casualties broke its coherency."""
    return [(round(x, 3), round(y, 3)) for x, y in grid(len(points), r, centre(points))]


def _points(ps: Sequence[XY]) -> tuple[TablePoint, ...]:
    return tuple(TablePoint(round(x, 3), round(y, 3)) for x, y in ps)


def _ruleset(game: Game) -> AoFSkirmish:
    rs = game.ruleset
    assert isinstance(rs, AoFSkirmish)
    return rs


def group_move(game: Game, unit: Unit, toward: XY | None, action: str, rng: random.Random | None,
               tries: int = 8) -> MoveModels | None:
    """A legal ``move_models`` of ``unit`` with ``action`` (advance, rush, consolidate): the group moves towards
    ``toward`` (or a random bearing) by the longest distance the engine accepts, or None."""
    rs = _ruleset(game)
    pts = points_of(game.state, unit.id)
    r = base_radius(unit.profile)
    limit = moves.allowance(game.state, unit, action)
    c = centre(pts)
    shapes = [pts] if unit.id not in rs.w.incoherent else [tightened(pts, r), pts]
    for attempt in range(tries):
        if toward is not None and attempt == 0:
            ang = math.atan2(toward[1] - c[1], toward[0] - c[0])
            far = math.dist(toward, c)
        else:
            ang = (rng.uniform(0, 2 * math.pi) if rng is not None else attempt * math.pi / 4)
            far = limit
        for frac in (1.0, 0.75, 0.5, 0.25):
            d = min(limit, far) * frac
            for shape in shapes:
                sc = centre(shape)
                # the tightened shape moves from where the unit's centre stands
                dx, dy = c[0] - sc[0] + d * math.cos(ang), c[1] - sc[1] + d * math.sin(ang)
                end = translated(shape, dx, dy)
                if max(math.dist(a, b) for a, b in zip(pts, end, strict=True)) > limit:
                    continue
                action_ = MoveModels(unit.player, unit.id, action, _points(end))
                if rs.check_move_models(action_) is None:
                    return action_
    return None


def _nearest_enemy(game: Game, unit: Unit) -> Unit | None:
    enemies = game.state.enemies_of(unit.player)
    return min(enemies, key=lambda e: (unit_gap(game.state, unit, e), e.id)) if enemies else None


def _goal(game: Game, unit: Unit) -> XY | None:
    """Where the simple player heads: the nearest marker it does not hold, else the nearest enemy."""
    s = game.state
    c = centre(points_of(s, unit.id))
    markers = [(o.x, o.y) for o in s.objectives if o.controller != unit.player]
    if markers:
        return min(markers, key=lambda m: (math.dist(m, c), m))
    enemy = _nearest_enemy(game, unit)
    return centre(points_of(s, enemy.id)) if enemy is not None else None


def _deploy(game: Game, player: int, options: Sequence[str], rng: random.Random) -> Action:
    rs = _ruleset(game)
    s = game.state
    unit = s.units[options[0] if rng is None else rng.choice(list(options))]
    r = base_radius(unit.profile)
    edge = rs.w.edges[player]
    t = s.table
    reach = ZONE_DEPTH + (SCOUT_REACH if rs.w.scouting else 0.0)
    for _ in range(60):
        depth = rng.uniform(r + 1.0, reach - 3 * r - 1.0)
        along = rng.uniform(6.0, (t.width if edge in ("south", "north") else t.depth) - 6.0)
        at = {"south": (along, depth), "north": (along, t.depth - depth), "west": (depth, along),
              "east": (t.width - depth, along)}[edge]
        pts = grid(unit.models, r, at)
        action = PlaceModels(player, unit.id, _points(pts))
        if rs.check_deploy(action) is None:
            return action
    raise RuntimeError(f"found no place to deploy {unit.name}")


def _ambush(game: Game, player: int, options: Sequence[str], rng: random.Random, toward: XY | None) -> Action:
    """An Ambush unit placed anywhere over 9" from the enemy (nearest ``toward`` of the spots tried when given),
    or ``done`` when no spot is found."""
    rs = _ruleset(game)
    t = game.state.table
    unit = game.state.units[rng.choice(list(options))]
    r = base_radius(unit.profile)
    legal: list[PlaceModels] = []
    for _ in range(40):
        at = (rng.uniform(4, t.width - 4), rng.uniform(4, t.depth - 4))
        action = PlaceModels(player, unit.id, _points(grid(unit.models, r, at)))
        if rs.check_deploy(action) is None:
            legal.append(action)
    if not legal:
        return Done(player)
    if toward is None:
        return rng.choice(legal)
    return min(legal, key=lambda a: math.dist(centre([(p.x, p.y) for p in a.positions]), toward))


def _objective(game: Game, player: int, rng: random.Random) -> Action:
    rs = _ruleset(game)
    t = game.state.table
    for _ in range(200):
        action = PlaceObjective(player, round(rng.uniform(1, t.width - 1), 3), round(rng.uniform(1, t.depth - 1), 3))
        if rs.check_deploy(action) is None:
            return action
    raise RuntimeError("found no place for an objective marker")


def choose(game: Game, rng: random.Random, simple: bool) -> Action:
    """A legal answer to ``game.pending`` in an AoF: Skirmish game: random (``simple`` False) or the simple
    player's (charge the nearest enemy it can reach, shoot the nearest target, else advance towards the nearest
    marker it does not hold, always strike back). Raises ``RuntimeError`` when the game is over."""
    p = game.pending
    if p is None:
        raise RuntimeError("the game is over")
    s = game.state
    rs = _ruleset(game)
    d = p.decision
    if d == "choose_deployment":
        return ChooseDeployment(p.player, p.player, EDGES[0] if simple else rng.choice(EDGES))
    if d == "place_objective":
        return _objective(game, p.player, rng)
    if d == "deploy":
        aside = [u for u in p.options if s.units[u].has("Ambush") or s.units[u].has("Scout")]
        if aside and not simple and not rs.w.scouting and rng.random() < 0.5:
            return SetAside(p.player, rng.choice(aside))
        return _deploy(game, p.player, p.options, rng)
    if d == "ambush":
        if not simple and rng.random() < 0.3:
            return Done(p.player)
        markers = [(o.x, o.y) for o in s.objectives if o.controller != p.player]
        return _ambush(game, p.player, p.options, rng, markers[0] if simple and markers else None)
    if d == "activate":
        return Activate(p.player, p.options[0] if simple else rng.choice(list(p.options)))
    unit = s.units[p.unit] if p.unit is not None else None
    if unit is None:
        return Done(p.player)
    if d == "action":
        targets = rs.charge_targets(unit.id)
        shots = bool(unit.profile.ranged_weapons)
        if simple:
            if targets:
                near = min(targets, key=lambda e: (unit_gap(s, unit, s.units[e]), e))
                return DeclareCharge(p.player, unit.id, near)
            move = group_move(game, unit, _goal(game, unit), "advance", None)
            return move or Done(p.player)
        roll = rng.random()
        if targets and roll < 0.4:
            return DeclareCharge(p.player, unit.id, rng.choice(targets))
        if roll < 0.55 and shots:
            return Done(p.player)
        kind = "advance" if roll < 0.85 else "rush"
        move = group_move(game, unit, _goal(game, unit) if rng.random() < 0.7 else None, kind, rng)
        return move or Done(p.player)
    if d == "shoot":
        targets = rs.shooting_targets(unit.id)
        if not targets:
            return Done(p.player)
        pick = min(targets, key=lambda e: (unit_gap(s, unit, s.units[e]), e)) if simple else rng.choice(targets)
        return Shoot(p.player, unit.id, pick)
    if d == "strike_back":
        return StrikeBack(p.player, unit.id) if simple or rng.random() < 0.85 else Done(p.player)
    if d == "consolidate":
        if simple:
            return Done(p.player)
        move = group_move(game, unit, _goal(game, unit), "consolidate", rng, tries=3)
        return move or Done(p.player)
    return Done(p.player)

