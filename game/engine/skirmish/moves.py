"""Moving loose models (AoF: Skirmish "Activation", "Movement", "Melee", "Terrain"; docs/rulings.md "AoF Skirmish").

A move gives every model its own end point; each model moves straight there. ``check_move`` is the one validator
(allowance, difficult and impassable terrain, bases, the 1" between units, coherency). A Charge and the defenders'
answer are made by the rules (``charge_positions``, ``close_in``): the unit moves as a group towards the target,
then each model moves on into base contact, or as close as it can, keeping coherency. After a melee with both
units left, ``back_off`` moves the chargers straight back until they stand 1" from the target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.engine.errors import IllegalAction
from game.engine.skirmish.elevation import Jump, PathPlan, plan_path
from game.engine.skirmish.loose import (
    EPS,
    UNIT_GAP,
    XY,
    all_points,
    base_radius,
    coherency_problem,
    crosses,
    free_spot,
    gap,
    has_command,
    path_through,
    pieces_with,
    points_of,
)
from game.engine.spell_effects import move_bonus
from game.engine.state import GameState, Unit
from geometry.terrain import DANGEROUS, DIFFICULT, IMPASSABLE

ADVANCE, RUSH, CHARGE = 6.0, 12.0, 12.0
"""Inches of each action ("Activation" table)."""
MUSICIAN_MOVE = 1.0
"""Musician: +1" when using move actions ("Command Groups")."""
FAST_ADVANCE, FAST_RUSH = 2.0, 4.0
"""Fast: +2" Advance, +4" Rush/Charge; Slow: the same taken away."""
DIFFICULT_CAP = 6.0
""""Difficult Terrain": units moving through it can't move more than 6" at a time in total."""
DEFENDER_MOVE = 3.0
""""Melee": defenders move up to 3" into base contact."""
CONSOLIDATE = 3.0
""""Melee": if one unit is destroyed, the other may move by up to 3"."""
BACK_OFF_MAX = 6.0
"""Inches: the longest move back after a melee (docs/rulings.md: as far as needed to stand 1" away)."""
CONTACT = 0.01
"""Inches: bases this close count as in base contact."""


def allowance(state: GameState, unit: Unit, action: str) -> float:
    """Inches ``unit`` may move with ``action`` (``advance``, ``rush``, ``charge``, ``consolidate``): Fast and Slow
    change Advance by 2" and Rush/Charge by 4" ("Special Rules Reference"); a unit with the Musician's rule moves
    +1" with the move actions (Advance, Rush, Charge; "Command Groups": ``loose.has_command``). Raises
    ``IllegalAction`` for another action name."""
    musician = has_command(state, unit, "musician")
    if action == "advance":
        base, extra = ADVANCE, FAST_ADVANCE
    elif action in ("rush", "charge"):
        base, extra = RUSH if action == "rush" else CHARGE, FAST_RUSH
    elif action == "consolidate":
        return CONSOLIDATE
    else:
        raise IllegalAction("Activation", f"a move is an advance or a rush, not {action!r}")
    if unit.has("Fast"):
        base += extra
    if unit.has("Slow"):
        base -= extra
    # spells (stat move, game.engine.magic): the value for an Advance, twice it for a Rush or Charge, as Fast/Slow
    return max(0.0, base + (MUSICIAN_MOVE if musician else 0.0) + move_bonus(unit, action == "advance"))


def ignores_terrain(unit: Unit) -> bool:
    """Flying: ignores terrain effects whilst moving."""
    return unit.has("Flying")


@dataclass(frozen=True)
class MoveReport:
    """What a legal move crossed: the models that moved across dangerous terrain (they roll for it) and the jumps
    on the way (``elevation.plan_path``)."""

    dangerous: tuple[int, ...] = ()
    """Indices of models whose path touched dangerous terrain."""
    longest: float = 0.0
    """Inches: the longest distance a model moved, counted as the move counts it (climbs and drops of up to 3"
    included, jumped distances left out)."""
    jumps: tuple[tuple[int, Jump], ...] = ()
    """(model index, jump) of every jump on the way, model order, then path order."""


def check_move(state: GameState, unit: Unit, end: Sequence[XY], limit: float, *, charging: bool = False,
               allowed_near: Sequence[str] = (), coherent: bool = True, jumping: bool = True,
               flat: bool = False) -> MoveReport:
    """Whether the models of ``unit`` may move straight to ``end`` (one point per living model, in order), each by
    up to ``limit`` inches. Raises ``IllegalAction`` naming the rule: "Movement" (coherency, 1" from other units
    unless ``charging``; units in ``allowed_near`` may stay as near as they were; coherency unless ``coherent`` is
    False: a charge of a unit whose casualties broke it), "Difficult Terrain" (6" at
    most when a model crosses it, unless Strider or Flying), impassable terrain and bases (no overlap, on the
    table), "Jumping" (elevation: each model's distance counts climbs and drops, ``elevation.plan_path``; a drop
    over 6" is refused, and so is any jump when not ``jumping``: the rules' own moves never jump; with ``flat``
    the distance is measured flat and heights neither count nor jump: a push, ``push.push_problem``). Nothing
    changes."""
    start = points_of(state, unit.id)
    if len(end) != len(start):
        raise IllegalAction("Movement", f"{unit.name} has {len(start)} models; the move gives {len(end)} points")
    r = base_radius(unit.profile)
    flying = ignores_terrain(unit)
    plans = [PathPlan(math.dist(a, b)) if flat else plan_path(state, unit, a, b)
             for a, b in zip(start, end, strict=True)]
    longest = max(p.counted for p in plans)
    if longest > limit + 1e-3:
        climbs = max(p.climb for p in plans)
        raise IllegalAction("Movement", f"a model of {unit.name} would move {longest:.2f}\""
                            + (f" (climbing {climbs:.1f}\" counts)" if climbs > 1e-3 else "")
                            + f"; it may move {limit:g}\"")
    jumps = tuple((i, j) for i, p in enumerate(plans) for j in p.jumps)
    if jumps and not jumping:
        raise IllegalAction("Jumping", f"model {jumps[0][0] + 1} of {unit.name} would have to jump "
                            f"({jumps[0][1].words()}); this move does not jump")
    crossed_difficult = False
    dangerous: list[int] = []
    for i, (a, b) in enumerate(zip(start, end, strict=True)):
        if a == b:
            continue
        if not flying:
            for piece in pieces_with(state, IMPASSABLE):
                if crosses(piece, a, b, r * 0.5):
                    raise IllegalAction("Movement", f"a model of {unit.name} would move through {piece.name} "
                                        "(impassable)")
            through = path_through(state, unit.id, a, b, r)
            if through is not None:
                raise IllegalAction("Movement", f"model {i + 1} of {unit.name} would move through {through} (only "
                                    "Flying models move through units)")
            if any(crosses(p, a, b, r) for p in pieces_with(state, DIFFICULT)):
                crossed_difficult = True
            if any(crosses(p, a, b, r) for p in pieces_with(state, DANGEROUS)):
                dangerous.append(i)
    if crossed_difficult and not unit.has("Strider") and longest > DIFFICULT_CAP + 1e-3:
        raise IllegalAction("Difficult Terrain", f"{unit.name} moves through difficult terrain: no model may move "
                            f"more than {DIFFICULT_CAP:g}\" ({longest:.2f}\")")
    others = all_points(state)
    others[unit.id] = list(end)
    for i, p in enumerate(end):
        why = free_spot(state, unit.id, i, p, r, others)
        if why is not None:
            raise IllegalAction("Movement", f"model {i + 1} of {unit.name} would end {why}")
    if not charging:
        for uid, pts in others.items():
            if uid == unit.id:
                continue
            other = state.units[uid]
            ro = base_radius(other.profile)
            d_end = min(gap(p, r, q, ro) for p in end for q in pts)
            if d_end < UNIT_GAP - 1e-3:
                d_start = min(gap(p, r, q, ro) for p in start for q in pts) if start else math.inf
                if uid in allowed_near and d_end >= d_start - 1e-3:
                    continue
                raise IllegalAction("Movement", f"{unit.name} would end within 1\" of {other.name} "
                                    f"({max(d_end, 0.0):.2f}\"); units may only be within 1\" when charging")
    why = coherency_problem(end, r) if coherent else None
    if why is not None:
        raise IllegalAction("Movement", f"{unit.name} would leave coherency: {why}")
    return MoveReport(tuple(dangerous), longest, jumps)


def crosses_difficult(state: GameState, unit: Unit, start: Sequence[XY], end: Sequence[XY]) -> bool:
    """Some model of ``unit`` moving straight from ``start`` to ``end`` touches difficult terrain."""
    r = base_radius(unit.profile)
    return any(crosses(t, a, b, r) for t in pieces_with(state, DIFFICULT) for a, b in zip(start, end, strict=True)
               if a != b)


def _contact_candidates(p: XY, q: XY, reach: float) -> list[XY]:
    """Points at distance ``reach`` from ``q`` (base contact with a model at ``q``), the one facing ``p`` first,
    then turning round it both ways by 20° steps."""
    ang = math.atan2(p[1] - q[1], p[0] - q[0])
    out = []
    for k in range(0, 9):
        for sign in ((1,) if k == 0 else (1, -1)):
            a = ang + sign * math.radians(20 * k)
            out.append((q[0] + reach * math.cos(a), q[1] + reach * math.sin(a)))
    return out


def _clear_of_others(state: GameState, unit: Unit, enemy_id: str, p: XY, before: XY,
                     others: dict[str, list[XY]]) -> bool:
    """A model of ``unit`` at ``p`` stands 1" from every enemy unit but the one it fights (or no nearer than it
    stood at ``before``): a charge brings the unit into melee with its target only (docs/rulings.md)."""
    r = base_radius(unit.profile)
    for uid, pts in others.items():
        if uid in (unit.id, enemy_id) or not pts or state.units[uid].player == unit.player:
            continue
        ro = base_radius(state.units[uid].profile)
        now = min(gap(p, r, q, ro) for q in pts)
        if now < UNIT_GAP - 1e-3 and now < min(gap(before, r, q, ro) for q in pts) - 1e-3:
            return False
    return True


def _legal_spot(state: GameState, unit: Unit, i: int, p: XY, origin: XY, current: list[XY], limit: float,
                others: dict[str, list[XY]], enemy_id: str) -> bool:
    r = base_radius(unit.profile)
    if math.dist(origin, p) > limit + EPS or not _walks(state, unit, origin, p, limit):
        return False
    if not _clear_of_others(state, unit, enemy_id, p, origin, others):
        return False
    trial = list(current)
    trial[i] = p
    others = dict(others)
    others[unit.id] = trial
    if free_spot(state, unit.id, i, p, r, others) is not None:
        return False
    if not ignores_terrain(unit) and (any(crosses(t, origin, p, r * 0.5) for t in pieces_with(state, IMPASSABLE))
                                      or path_through(state, unit.id, origin, p, r) is not None):
        return False
    return coherency_problem(trial, r) is None


def pile_in(state: GameState, unit: Unit, enemy: Unit, start: list[XY], current: list[XY], limit: float
            ) -> list[XY]:
    """Each model of ``unit`` not yet in base contact with ``enemy`` moves (from where it stood, ``start``, by up
    to ``limit`` in all) into base contact with the nearest enemy model it can reach, else as close as possible,
    keeping coherency ("Melee": "Charging models must move into base contact with targets, or as close as
    possible"). Models nearest the enemy move first. Returns the new points."""
    r, re = base_radius(unit.profile), base_radius(enemy.profile)
    foes = points_of(state, enemy.id)
    current = list(current)
    others = all_points(state)
    order = sorted(range(len(current)), key=lambda i: (min(gap(current[i], r, q, re) for q in foes), i))
    for i in order:
        if min(gap(current[i], r, q, re) for q in foes) <= CONTACT:
            continue
        origin = start[i]
        placed = False
        for q in sorted(foes, key=lambda q: (gap(current[i], r, q, re), q)):
            for c in _contact_candidates(current[i], q, r + re):
                if _legal_spot(state, unit, i, c, origin, current, limit, others, enemy.id):
                    current[i] = c
                    placed = True
                    break
            if placed:
                break
        if placed:
            continue
        # as close as possible: straight towards the nearest enemy model, as far as the allowance and the
        # models around let it go
        q = min(foes, key=lambda q: (gap(current[i], r, q, re), q))
        d = math.dist(origin, q)
        if d <= EPS:
            continue
        ux, uy = (q[0] - origin[0]) / d, (q[1] - origin[1]) / d
        reach = min(limit, max(0.0, d - r - re))
        for k in range(20, 0, -1):
            c = (origin[0] + ux * reach * k / 20, origin[1] + uy * reach * k / 20)
            if math.dist(c, q) < math.dist(current[i], q) - EPS and \
                    _legal_spot(state, unit, i, c, origin, current, limit, others, enemy.id):
                current[i] = c
                break
    return current


def _walks(state: GameState, unit: Unit, a: XY, b: XY, limit: float) -> bool:
    """A model of ``unit`` gets from ``a`` to ``b`` within ``limit`` without jumping (the rules' own moves, the
    charge, the defenders' answer and the move back, never jump: docs/rulings.md "AoF Skirmish": elevation)."""
    try:
        plan = plan_path(state, unit, a, b)
    except IllegalAction:
        return False
    return not plan.jumps and plan.counted <= limit + EPS


def _translated(points: Sequence[XY], dx: float, dy: float) -> list[XY]:
    return [(x + dx, y + dy) for x, y in points]


def _group_free(state: GameState, unit: Unit, start: Sequence[XY], end: list[XY], enemy_id: str | None = None,
                limit: float = math.inf) -> bool:
    r = base_radius(unit.profile)
    others = all_points(state)
    others[unit.id] = end
    if any(free_spot(state, unit.id, i, p, r, others) is not None for i, p in enumerate(end)):
        return False
    if enemy_id is not None and not all(_clear_of_others(state, unit, enemy_id, p, a, others)
                                        for a, p in zip(start, end, strict=True)):
        return False
    if not all(_walks(state, unit, a, b, limit) for a, b in zip(start, end, strict=True)):
        return False
    if ignores_terrain(unit):
        return True
    return not any(crosses(t, a, b, r * 0.5) for t in pieces_with(state, IMPASSABLE)
                   for a, b in zip(start, end, strict=True)) and \
        all(path_through(state, unit.id, a, b, r) is None for a, b in zip(start, end, strict=True))


def charge_positions(state: GameState, unit: Unit, target: Unit, limit: float) -> list[XY]:
    """Where the charging models end (AoF: Skirmish "Melee"; docs/rulings.md): the unit first moves as a group
    straight towards the target (from its model nearest the target towards that target model) until the two
    bases touch or something is in the way, then every model moves on into base contact, or as close as
    possible, each within ``limit`` of where it started; when the group was stopped before the bases touched,
    the models moving on their own from where they stand are taken instead if more of them end in contact.
    Coherency is kept throughout. Raises ``IllegalAction`` ("Movement") when no charging model is within ``limit``
    of the target."""
    r, rt = base_radius(unit.profile), base_radius(target.profile)
    start = points_of(state, unit.id)
    foes = points_of(state, target.id)
    best = min(((gap(p, r, q, rt), i, j) for i, p in enumerate(start) for j, q in enumerate(foes)))
    if best[0] > limit + EPS:
        raise IllegalAction("Movement", f"no model of {unit.name} is within {limit:g}\" of {target.name} "
                            f"(nearest {best[0]:.1f}\")")
    p, q = start[best[1]], foes[best[2]]
    d = math.dist(p, q)
    ux, uy = ((q[0] - p[0]) / d, (q[1] - p[1]) / d) if d > EPS else (0.0, 0.0)
    travel = max(0.0, min(limit, best[0]))
    group = list(start)
    for k in range(40, -1, -1):
        t = travel * k / 40
        trial = _translated(start, ux * t, uy * t)
        if _group_free(state, unit, start, trial, target.id, limit):
            group = trial
            break
    grouped = pile_in(state, unit, target, start, group, limit)
    if group == start:
        return grouped
    # something stopped the group early: each model on its own from where it stands may do better
    alone = pile_in(state, unit, target, start, list(start), limit)
    return alone if _in_contact_count(alone, r, foes, rt) > _in_contact_count(grouped, r, foes, rt) else grouped


def _in_contact_count(points: Sequence[XY], r: float, foes: Sequence[XY], rf: float) -> int:
    """How many of ``points`` (bases of radius ``r``) touch a base at one of ``foes``."""
    return sum(1 for p in points if any(gap(p, r, q, rf) <= CONTACT for q in foes))


def close_in(state: GameState, unit: Unit, charger: Unit) -> list[XY]:
    """The defenders' answer ("Melee": "defenders must do the same by moving up to 3""): each model of ``unit``
    not in base contact moves up to 3" into contact with the charging unit, or as close as possible."""
    start = points_of(state, unit.id)
    return pile_in(state, unit, charger, start, list(start), DEFENDER_MOVE)


def back_off(state: GameState, charger: Unit, target: Unit) -> list[XY] | None:
    """"Melee": "chargers must move back and separate by 1" (if possible)": the charging unit moves as a group
    straight away from the target's centre, the shortest way (0.1" steps up to 6") that leaves each of its models
    1" from every target model, preferring an end 1" from every other unit too; None when it cannot."""
    start = points_of(state, charger.id)
    foes = points_of(state, target.id)
    r, rt = base_radius(charger.profile), base_radius(target.profile)
    cx, cy = sum(p[0] for p in start) / len(start), sum(p[1] for p in start) / len(start)
    tx, ty = sum(q[0] for q in foes) / len(foes), sum(q[1] for q in foes) / len(foes)
    d = math.hypot(cx - tx, cy - ty)
    ux, uy = ((cx - tx) / d, (cy - ty) / d) if d > EPS else (0.0, -1.0)
    others = all_points(state)
    fallback: list[XY] | None = None
    for k in range(1, int(BACK_OFF_MAX * 10) + 1):
        t = k / 10
        trial = _translated(start, ux * t, uy * t)
        if min(gap(p, r, q, rt) for p in trial for q in foes) < UNIT_GAP - 1e-3:
            continue
        if not _group_free(state, charger, start, trial):
            continue
        clear = all(min(gap(p, r, q, base_radius(state.units[uid].profile)) for p in trial for q in pts)
                    >= UNIT_GAP - 1e-3 for uid, pts in others.items() if uid not in (charger.id, target.id))
        if clear:
            return trial
        if fallback is None:
            fallback = trial
    return fallback


def in_contact(state: GameState, a: Unit, b: Unit) -> bool:
    """Some model of ``a`` is in base contact with a model of ``b``."""
    ra, rb = base_radius(a.profile), base_radius(b.profile)
    return any(gap(p, ra, q, rb) <= CONTACT for p in points_of(state, a.id) for q in points_of(state, b.id))
