"""Invariants of a game of loose models (AoF: Skirmish), checked after every action by ``autoplay --check``."""

from __future__ import annotations

from game.engine.skirmish.loose import (
    UNIT_GAP,
    base_in,
    base_radius,
    coherency_problem,
    gap,
    on_table,
    pieces_with,
    points_of,
    warband_of,
)
from game.engine.state import GameState, MoveAction
from geometry.terrain import IMPASSABLE


def loose_problems(state: GameState) -> list[str]:
    """The violations found (empty when all hold): model counts match the models on the table and never exceed
    the starting size; every base is on the table, out of impassable pieces (walls, buildings: a fall or a jump
    never lands in one) and overlaps no other; every unit is in coherency ("Movement")
    unless casualties broke it since it last moved; no two units stand within 1" of each other unless one of them
    charged this round, they are the melee in progress or the chargers could not move back ("if possible")."""
    w = warband_of(state)
    problems: list[str] = []
    on = [u for u in state.units.values() if u.on_table]
    for u in state.units.values():
        n = len(w.models.get(u.id, []))
        if u.models < 0 or u.models > u.starting_models:
            problems.append(f"{u.id} has {u.models} models (started with {u.starting_models})")
        if u.on_table and (n == 0 or n != u.models):
            problems.append(f"{u.id} is on the table with {n} model positions for {u.models} models")
    for u in on:
        r = base_radius(u.profile)
        pts = points_of(state, u.id)
        if any(not on_table(state, p, r) for p in pts):
            problems.append(f"{u.id} has a model off the table")
        for piece in pieces_with(state, IMPASSABLE):
            if any(base_in(piece, p, r) for p in pts):
                problems.append(f"{u.id} has a model inside {piece.name} (impassable)")
        if u.id not in w.incoherent:
            why = coherency_problem(pts, r)
            if why is not None:
                problems.append(f"{u.id} is out of coherency: {why}")
    for i, a in enumerate(on):
        ra, pa = base_radius(a.profile), points_of(state, a.id)
        for k, p in enumerate(pa):
            for q in pa[k + 1:]:
                if gap(p, ra, q, ra) < -1e-3:
                    problems.append(f"two models of {a.id} overlap")
        for b in on[i + 1:]:
            rb, pb = base_radius(b.profile), points_of(state, b.id)
            d = min(gap(p, ra, q, rb) for p in pa for q in pb)
            if d < -1e-3:
                problems.append(f"{a.id} overlaps {b.id}")
            elif d < UNIT_GAP - 1e-3:
                related = MoveAction.CHARGE in (a.move_action, b.move_action) or a.id in w.melee or \
                    b.id in w.melee or b.id in w.partners(a.id)
                if not related:
                    problems.append(f"{a.id} is within 1\" of {b.id} outside a charge ({d:.2f}\")")
    return problems
