"""Moves after melee resolution other than flight and pursuit: retreats of Shaken losers, follow up moves,
consolidation moves (3" or a 180 degree pivot), pivots to face, and closing gaps (rulebook "Consolidation
Moves", "Consolidation Moves and Multiple Units", "Immobile", "Dangerous Terrain").

Distances in inches, facings in compass degrees. Rulings made here (for docs/rulings.md):

* Retreat: D3+3" straight back keeping the facing (one D6 halved rounding up, plus 3), stopping 1" short of
  units, impassable terrain and the table edge; enemies on its front and flanks do not block it, an enemy in
  its rear does. It stays engaged with any enemy it is still within 1" of afterwards (it could not get away;
  the gap is closed at the end) and leaves the melee with the others.
* Follow up: a winner that touched the retreating unit with its front moves by the same vector as the retreat
  (so it is back in contact exactly as before); one that touched it with a flank or its rear pivots to face it
  and is placed flush, frontage maximised, against the side of the retreating unit it touched. The move must
  not pass through units or impassable terrain nor leave the table (the 1" rule is not applied to the move);
  it must end at least 1" from every other enemy unit, except those it fought that also retreated, which it may
  touch (they are engaged again); if it is impossible the winner does not follow up.
* Pivot to face is not made when it would bring the unit within 1" of a unit outside the combat.
* Every flush placement (pivot to face, keeping contact, closing gaps, flank follow up) takes the position with
  the most frontage, nearest the unit's current place, that overlaps no unit and is at least 1" from every enemy
  unit outside the combat (``best_flush_pose`` with ``keep_clear``); if there is none, the move is not made.
* Closing gaps (``close_gaps``): straight moves forward, then sideways, then backward, then a flush placement;
  the mover keeps touching every enemy it touches; a gap no move can close leaves the pair locked in combat.
* Consolidation move: either a pivot in place (the path's poses all at the start's x, y) whose turns add up to
  at most 180 degrees, or a move keeping the facing whose legs add up to at most 3"; a path mixing both is
  refused. The move keeps 1" from other units, stays on the table and out of impassable terrain
  (``scene.check_path``); the pivot's final footprint must also keep 1" from other units. Dangerous terrain
  crossed forces tests. Immobile units may only pivot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from game.engine.actions import pose_to_dict
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.flight import CONTACT, MIN_MOVE, NEAR, blocked_at, comes_near, friends_beside
from game.engine.movement import dangerous_terrain_tests
from game.engine.special_rules import immobile
from game.engine.state import GameState, Unit
from geometry.arcs import Arc, arc_of_point
from geometry.contact import best_flush_pose, in_base_contact, touching_sides
from geometry.motion import SlideResult
from geometry.pose import Pose, bearing_difference
from geometry.shapes import footprint_polygon, overlap_area

CONSOLIDATION_DISTANCE = 3.0
"""Rulebook "Consolidation Moves": move by up to 3" in any direction."""

CONSOLIDATION_PIVOT = 180.0
"""Rulebook "Consolidation Moves": or pivot by up to 180 degrees."""

EPS = 1e-4
"""Inches and degrees of slack for recorded paths."""


def _pose(p: Pose) -> dict[str, float]:
    return pose_to_dict(p)


def _arcs_between(state: GameState, a: Unit, b: Unit) -> tuple[Arc, Arc] | None:
    """(arc of ``a`` touched by ``b``, arc of ``b`` touched by ``a``) from the sides in contact, longest first."""
    sides = touching_sides(state.scene, a.id, b.id)
    if sides:
        return sides[0][0], sides[0][1]
    if not in_base_contact(state.scene, a.id, b.id):
        return None
    assert a.pose is not None and b.pose is not None
    fa, fb = a.formation, b.formation
    return (arc_of_point(a.pose, fa.width, fa.depth, b.pose.xy), arc_of_point(b.pose, fb.width, fb.depth, a.pose.xy))


# --- retreat -------------------------------------------------------------------------------------------------------


def retreat(state: GameState, dice: Dice, unit: Unit) -> tuple[list[Event], Pose, Pose]:
    """A Shaken loser retreats D3+3" straight back keeping its facing (rulebook "Consolidation Moves").

    Stops 1" short of units, impassable terrain and the table edge (``scene.slide``); dangerous terrain crossed
    forces tests. Afterwards it is disengaged from every enemy it is no longer within 1" of (one it could not get
    1" away from stays locked in combat with it; the gap is closed at the end, ``close_gaps``). Returns
    (events, start pose, end pose); events: ``roll``, ``retreat`` ``{unit, from, to, distance, travelled,
    blocked_by}``, dangerous terrain rolls and wounds. Raises ``ValueError`` if the unit is not on the table.
    """
    if not unit.on_table or unit.pose is None:
        raise ValueError(f"{unit.id} is not on the table and cannot retreat")
    start = unit.pose
    purpose = f"Retreat of {unit.name} (D3+3\")"
    roll = dice.one(purpose)
    distance = (roll + 1) // 2 + 3
    events = [roll_event(purpose, [roll], None, 0, None, ["D3 = D6 halved rounding up, +3"], unit=unit.id,
                         distance=distance)]
    ignore = sorted(e for e in unit.engaged_with if unit.contact_arcs.get(e) is not Arc.REAR)
    ignore += friends_beside(state, unit, start, start.facing + 180.0, float(distance))
    result = state.scene.slide(unit.id, start, start.facing + 180.0, float(distance), gap=1.0,
                               ignore_units=ignore, edge_exits=False)
    if result.travelled < MIN_MOVE or blocked_at(state, unit, result.pose):
        result = SlideResult(start, 0.0, result.blocked_by, None, False, frozenset())
    state.place(unit, result.pose)
    text = f"{unit.name} retreats {result.travelled:.1f}\""
    if result.travelled + 1e-6 < distance:
        text += f" of {distance}\" (stopped by {result.blocked_by})"
    events.append(Event("retreat", text, {
        "unit": unit.id, "from": _pose(start), "to": _pose(result.pose), "distance": distance,
        "travelled": round(result.travelled, 4), "blocked_by": result.blocked_by}))
    events += dangerous_terrain_tests(state, dice, unit, start, [result.pose], False)
    if unit.on_table:
        for enemy_id in sorted(unit.engaged_with):
            if state.scene.distance(unit.id, enemy_id) >= NEAR:
                state.disengage(unit, state.units[enemy_id])
    return events, start, result.pose


def near_units(state: GameState, unit: Unit, pose: Pose, ids: Sequence[str]) -> list[str]:
    """Those of ``ids`` (units on the table) that ``unit`` at ``pose`` would be within 1" of (rulebook "General
    Movement"), in the order given."""
    fp = footprint_polygon(pose, unit.formation)
    return [u for u in ids if u != unit.id and state.units[u].on_table
            and float(fp.distance(state.scene.footprint(u))) < NEAR]


def _touches(state: GameState, unit: Unit, pose: Pose, other: str) -> bool:
    return float(footprint_polygon(pose, unit.formation).distance(state.scene.footprint(other))) <= CONTACT


# --- follow up -----------------------------------------------------------------------------------------------------


def plan_follow_up(state: GameState, unit: Unit, target: Unit, vector: tuple[float, float], arc_of_unit: Arc,
                   side_of_target: Arc, also: Sequence[str] = ()) -> tuple[Pose, list[Pose]] | Event:
    """Where the winner ``unit`` would end a follow up of ``target`` (see ``follow_up_move``): (end pose, path), or
    an ``info`` event saying why it cannot follow it up. Changes nothing."""
    assert unit.pose is not None and target.pose is not None
    start = unit.pose
    scene = state.scene
    # it may end in contact with units it fought before that also retreated, and must keep 1" from all others
    clear = [e.id for e in state.enemies_of(unit.player) if e.id != target.id and e.id not in also]
    if arc_of_unit is Arc.FRONT:
        end = start.moved(*vector)
        path = [end]
    else:
        f = unit.formation
        found = best_flush_pose(scene, unit.id, target.id, side_of_target, f.width, f.depth, start.xy,
                                keep_clear=clear)
        if found is None:
            return Event("info", f"{unit.name} finds no room to follow up {target.name}",
                         {"unit": unit.id, "target": target.id})
        end = found
        path = [start.facing_to(end.facing), end]
    check = scene.check_path(unit.id, start, path, exclusion=0.0, ignore_units=(target.id,))
    if not check.ok:
        return Event("info", f"{unit.name} cannot follow up {target.name}: {check.problem}",
                     {"unit": unit.id, "target": target.id, "rule": check.rule})
    near = near_units(state, unit, end, clear) + [e for e in near_units(state, unit, end, also)
                                                   if not _touches(state, unit, end, e)]
    if near:
        return Event("info", f"{unit.name} cannot follow up {target.name}: it would end within 1\" of "
                     f"{state.units[near[0]].name}", {"unit": unit.id, "target": target.id,
                                                       "rule": '1" from a unit'})
    return end, path


def follow_up_move(state: GameState, dice: Dice, unit: Unit, target: Unit, vector: tuple[float, float],
                   arc_of_unit: Arc, side_of_target: Arc, also: Sequence[str] = ()) -> tuple[list[Event], bool]:
    """The winner ``unit`` follows up ``target``, which retreated by ``vector`` (rulebook "Consolidation Moves").

    ``arc_of_unit``: the arc of ``unit`` that touched ``target`` before the retreat; ``side_of_target``: the side
    of ``target`` it touched. See the module rulings for the geometry (``plan_follow_up``). On success the two are
    engaged again, ``unit.fights_as_charger`` is True and both have each other in ``first_round_with``; other
    units listed in ``also`` (enemies it fought before that also retreated) are engaged too if now in base contact.
    Returns (events, success); on failure nothing moved.
    """
    planned = plan_follow_up(state, unit, target, vector, arc_of_unit, side_of_target, also)
    if isinstance(planned, Event):
        return [planned], False
    end, path = planned
    assert unit.pose is not None
    start = unit.pose
    scene = state.scene
    state.place(unit, end)
    arcs = _arcs_between(state, unit, target) or (Arc.FRONT, side_of_target)
    if arc_of_unit is not Arc.FRONT:
        arcs = (Arc.FRONT, side_of_target)
    state.engage(unit, target, arcs[0], arcs[1])
    unit.fights_as_charger = True
    unit.first_round_with.add(target.id)
    target.first_round_with.add(unit.id)
    events = [Event("follow_up", f"{unit.name} follows up {target.name} and stays locked in combat",
                    {"unit": unit.id, "target": target.id, "from": _pose(start), "to": _pose(end)})]
    for other_id in also:
        other = state.units[other_id]
        if other.on_table and not other.engaged and in_base_contact(scene, unit.id, other_id):
            pair = _arcs_between(state, unit, other)
            if pair is not None:
                state.engage(unit, other, pair[0], pair[1])
                other.first_round_with.add(unit.id)
                unit.first_round_with.add(other_id)
    events += dangerous_terrain_tests(state, dice, unit, start, path, False)
    return events, True


# --- consolidation move --------------------------------------------------------------------------------------------


def check_consolidation(state: GameState, unit: Unit, path: Sequence[Pose]) -> str:
    """Validate a consolidation path for ``unit``; returns "pivot", "move" or "none" (empty path).

    Rulebook "Consolidation Moves": either pivot by up to 180 degrees or move by up to 3" in any direction,
    keeping 1" from other units. Raises ``IllegalAction`` naming the rule broken.
    """
    assert unit.pose is not None
    start = unit.pose
    if not path:
        return "none"
    where = path[-1].xy
    in_place = all(abs(p.x - start.x) <= EPS and abs(p.y - start.y) <= EPS for p in path)
    if in_place:
        turned = 0.0
        facing = start.facing
        for p in path:
            turned += abs(bearing_difference(facing, p.facing))
            facing = p.facing
        if turned > CONSOLIDATION_PIVOT + EPS:
            raise IllegalAction("Consolidation Moves", f"pivots {turned:.0f}° in all; at most 180°", where)
        kind = "pivot"
    else:
        if immobile(unit):
            raise IllegalAction("Immobile", f"{unit.name} is Immobile: it may only pivot", where)
        if any(abs(bearing_difference(start.facing, p.facing)) > EPS for p in path):
            raise IllegalAction("Consolidation Moves", "either pivot by up to 180° or move by up to 3\" keeping "
                                                       "the facing, not both", where)
        length = 0.0
        prev = start
        for p in path:
            length += prev.distance_to(p)
            prev = p
        if length > CONSOLIDATION_DISTANCE + EPS:
            raise IllegalAction("Consolidation Moves", f"moves {length:.2f}\"; at most 3\"", where)
        kind = "move"
    check = state.scene.check_path(unit.id, start, list(path), exclusion=1.0)
    if not check.ok:
        raise IllegalAction(check.rule or "Consolidation Moves", check.message or "illegal move", check.where)
    return kind


def consolidation_move(state: GameState, dice: Dice, unit: Unit, path: Sequence[Pose]) -> list[Event]:
    """Make a consolidation move along ``path`` (``check_consolidation``); returns the events (``consolidate``
    ``{unit, kind, from, to}``, dangerous terrain tests). Raises ``IllegalAction`` with the state unchanged."""
    kind = check_consolidation(state, unit, path)
    assert unit.pose is not None
    start = unit.pose
    if kind == "none":
        return [Event("consolidate", f"{unit.name} makes no consolidation move", {"unit": unit.id, "kind": "skip"})]
    end = path[-1]
    state.place(unit, end)
    if kind == "pivot":
        text = f"{unit.name} pivots {abs(bearing_difference(start.facing, end.facing)):.0f}°"
    else:
        text = f"{unit.name} moves {start.distance_to(end):.1f}\""
    events = [Event("consolidate", f"{text} (consolidation move)",
                    {"unit": unit.id, "kind": kind, "from": _pose(start), "to": _pose(end),
                     "path": [_pose(p) for p in path]})]
    if kind == "move":
        events += dangerous_terrain_tests(state, dice, unit, start, list(path), False)
    return events


# --- pivot to face and closing gaps ----------------------------------------------------------------------------------


def _order_index(order: Sequence[str]) -> Callable[[str], tuple[int, str]]:
    idx = {u: i for i, u in enumerate(order)}
    return lambda u: (idx.get(u, len(idx)), u)


def _still_locked(state: GameState, order: Sequence[str]) -> list[str]:
    """The units of the combat ``order`` still locked in it: on the table and engaged. The 1" rule spares only
    those; a unit that fled or retreated out of the combat is outside it (rulebook "General Movement")."""
    return [u for u in order if state.units[u].on_table and state.units[u].engaged_with]


def _overlap(state: GameState, a: str, b: str) -> bool:
    return overlap_area(state.scene.footprint(a), state.scene.footprint(b)) > 1e-6


def _place_flush(state: GameState, mover: Unit, other: Unit, side: Arc, combat: Sequence[str],
                 ignore: Sequence[str] = ()) -> Pose | None:
    """Pose putting ``mover``'s front flush against ``side`` of ``other``, nearest its current place, overlapping
    no unit (but ``ignore``) and at least 1" from every enemy unit not still locked in the combat ``combat``
    (``_still_locked``; rulebook "General Movement"); None if there is none."""
    assert mover.pose is not None
    f = mover.formation
    locked = _still_locked(state, combat)
    clear = [e.id for e in state.enemies_of(mover.player) if e.id not in locked]
    return best_flush_pose(state.scene, mover.id, other.id, side, f.width, f.depth, mover.pose.xy, ignore,
                           keep_clear=clear)


def pivot_candidates(state: GameState, unit: Unit, order: Sequence[str]) -> list[str]:
    """Enemies ``unit`` may pivot to face now (rulebook "Consolidation Moves"), in ``order``: when it has no enemy
    in its front arc, each enemy engaged with its flank or rear for which the pivot is possible (the unit placed
    flush against the side of that enemy it touches, overlapping no unit and 1" from every unit outside the
    combat). Empty for a unit that is Shaken (idle), not engaged, or has an enemy in front."""
    if not unit.on_table or unit.shaken or unit.pose is None:
        return []
    key = _order_index(order)
    enemies = [state.units[e] for e in sorted(unit.engaged_with, key=key) if state.units[e].on_table]
    if not enemies or any(unit.contact_arcs.get(e.id) is Arc.FRONT for e in enemies):
        return []
    out = []
    for arcs in ((Arc.LEFT, Arc.RIGHT), (Arc.REAR,)):
        for chosen in enemies:
            if unit.contact_arcs.get(chosen.id) in arcs and _pivot_pose(state, unit, chosen, enemies, order):
                out.append(chosen.id)
    return out


def _pivot_pose(state: GameState, unit: Unit, chosen: Unit, enemies: Sequence[Unit],
                order: Sequence[str]) -> Pose | None:
    """Where ``unit`` stands after pivoting to face ``chosen`` (flush against the side of it it touches), or
    None when there is no room."""
    side = chosen.contact_arcs.get(unit.id, Arc.FRONT)
    others = [e.id for e in enemies if e is not chosen]
    pose = _place_flush(state, unit, chosen, side, order, others)
    if pose is None or comes_near(state, unit, pose, _still_locked(state, order)) is not None:
        return None
    return pose


def pivot_to_face(state: GameState, unit: Unit, order: Sequence[str], target: str | None = None) -> list[Event]:
    """``unit``, with no enemy in its front arc, pivots to face ``target`` (default: the first of
    ``pivot_candidates``), an enemy in its flank or rear, and is placed flush against it; its other enemies are
    moved back into contact (rulebook "Consolidation Moves": the winner, or every unit after a tie, "may pivot to
    face a unit in its flank or rear facing ... Then move all units in this combat so they're all still in base
    contact"). Returns ``consolidate`` events with kind ``pivot_to_face`` (nothing if the pivot is not possible).
    """
    candidates = pivot_candidates(state, unit, order)
    if target is None:
        target = candidates[0] if candidates else None
    if target is None or target not in candidates:
        return []
    key = _order_index(order)
    enemies = [state.units[e] for e in sorted(unit.engaged_with, key=key) if state.units[e].on_table]
    chosen = state.units[target]
    pose = _pivot_pose(state, unit, chosen, enemies, order)
    if pose is None:
        return [Event("info", f"{unit.name} has no room to pivot to face {chosen.name}", {"unit": unit.id})]
    assert unit.pose is not None
    side = chosen.contact_arcs.get(unit.id, Arc.FRONT)
    start = unit.pose
    state.place(unit, pose)
    state.engage(unit, chosen, Arc.FRONT, side)
    events = [Event("consolidate", f"{unit.name} pivots to face {chosen.name}",
                    {"unit": unit.id, "kind": "pivot_to_face", "target": chosen.id, "from": _pose(start),
                     "to": _pose(pose)})]
    for other in enemies:
        if other is not chosen:
            events += _restore_contact(state, other, unit, order)
    return events


def _restore_contact(state: GameState, mover: Unit, anchor: Unit, order: Sequence[str]) -> list[Event]:
    """Put ``mover`` back in base contact with ``anchor`` after ``anchor`` moved: flush against the side of
    ``anchor`` nearest to it; if that is impossible they stay locked in combat and ``close_gaps`` closes the gap at
    the end of the combat (or leaves it open, docs/rulings.md)."""
    assert mover.pose is not None and anchor.pose is not None
    scene = state.scene
    if in_base_contact(scene, mover.id, anchor.id) and not _overlap(state, mover.id, anchor.id):
        pair = _arcs_between(state, mover, anchor)
        if pair is not None:
            state.engage(mover, anchor, pair[0], pair[1])
        return []
    af = anchor.formation
    side = arc_of_point(anchor.pose, af.width, af.depth, mover.pose.xy)
    pose = _place_flush(state, mover, anchor, side, order)
    start = mover.pose
    if pose is None:  # still locked in combat: ``close_gaps`` tries the other moves at the end
        return []
    state.place(mover, pose)
    state.engage(mover, anchor, Arc.FRONT, side)
    return [Event("consolidate", f"{mover.name} moves to stay in contact with {anchor.name}",
                  {"unit": mover.id, "kind": "close_gap", "target": anchor.id, "from": _pose(start),
                   "to": _pose(pose)})]


GAP_TURNS: tuple[tuple[float, ...], ...] = ((0.0,), (90.0, 270.0), (180.0,))
"""Rulebook "Consolidation Moves": close gaps "Start with units moving forward, then sideways and so forth":
the straight moves tried for each unit, as turns (degrees clockwise) from its facing."""


def _gap_pose_ok(state: GameState, mover: Unit, pose: Pose, other: Unit, keep: Sequence[str],
                 combat: Sequence[str]) -> bool:
    """Whether ``mover`` may stand at ``pose`` after closing its gap to ``other``: touching it and every unit of
    ``keep`` (the enemies it touches now), overlapping nothing, on the table, and coming no nearer than 1" to a
    unit outside ``combat`` (rulebook "General Movement")."""
    fp = footprint_polygon(pose, mover.formation)
    touching = [other.id, *keep]
    if any(float(fp.distance(state.scene.footprint(u))) > CONTACT for u in touching):
        return False
    return not blocked_at(state, mover, pose) and comes_near(state, mover, pose, combat) is None


def _gap_slide(state: GameState, mover: Unit, other: Unit, turn: float, keep: Sequence[str],
               combat: Sequence[str]) -> Pose | None:
    """Where ``mover`` ends sliding straight (keeping its facing) ``turn`` degrees from its facing until it touches
    ``other``, if that closes the gap legally (``_gap_pose_ok``); None otherwise. The slide is at most twice the
    gap plus half an inch (a gap is closed by a short move, not a march along the enemy line)."""
    assert mover.pose is not None
    gap = state.scene.distance(mover.id, other.id)
    result = state.scene.slide(mover.id, mover.pose, mover.pose.facing + turn, 2.0 * gap + 0.5, gap=0.0,
                               stop_at=(other.id,), ignore_units=keep)
    if result.contacted != other.id or not _gap_pose_ok(state, mover, result.pose, other, keep, combat):
        return None
    return result.pose


def _gap_move(state: GameState, a: Unit, b: Unit, combat: Sequence[str],
              key: Callable[[str], tuple[int, str]]) -> tuple[Unit, Unit, Pose, bool] | None:
    """How to close the gap between the engaged ``a`` and ``b``: (mover, the other, end pose, True if the mover
    pivoted to be placed flush), or None if no move can (see ``close_gaps``)."""
    scene = state.scene
    movers = sorted((a, b), key=lambda u: (u.contact_arcs.get((b if u is a else a).id) is not Arc.FRONT,
                                           len(u.engaged_with), key(u.id)))
    for mover in movers:
        if immobile(mover):
            continue
        other = b if mover is a else a
        keep = [e for e in sorted(mover.engaged_with) if e != other.id and state.units[e].on_table
                and in_base_contact(scene, mover.id, e)]
        for turns in GAP_TURNS:
            found = [p for t in turns if (p := _gap_slide(state, mover, other, t, keep, combat)) is not None]
            if found:
                assert mover.pose is not None
                start = mover.pose
                return mover, other, min(found, key=start.distance_to), False
        side = other.contact_arcs.get(mover.id, Arc.FRONT)
        pose = _place_flush(state, mover, other, side, combat)
        if pose is not None and _gap_pose_ok(state, mover, pose, other, keep, combat):
            return mover, other, pose, True
    return None


def close_gaps(state: GameState, order: Sequence[str]) -> list[Event]:
    """Close the gaps between units still locked in combat (rulebook "Consolidation Moves": "If there are still
    units locked in combat after all other consolidation moves have been made, then close any gaps that have been
    formed between the units locked in combat, by moving the remaining units. Start with units moving forward,
    then sideways and so forth").

    ``order``: the combat's units. Every engaged pair out of base contact (casualties removed from a unit shrink
    it, a retreat stopped within 1", a pivot to face) is closed by moving one of the two: the unit whose front
    faces the other first, then the one with fewer engagements, then combat order. Each unit tries, in turn: a
    straight move forward, sideways, backward (keeping its facing), then pivoting to be placed flush against the
    side of the other it touched (``best_flush_pose``). The move must end touching the other unit and every enemy
    the mover touches now, overlap nothing, stay on the table and come no nearer than 1" to a unit not locked in
    the combat (one that fled from it is outside it); Immobile units are not moved. A pair whose gap no move can
    close stays locked in combat (the gap is tried again after its next melee; docs/rulings.md). Returns
    ``consolidate`` events with kind ``close_gap`` and ``info`` events for gaps left open.
    """
    events: list[Event] = []
    key = _order_index(order)
    scene = state.scene
    pairs: list[tuple[str, str]] = []
    for a_id in sorted(order, key=key):
        a = state.units[a_id]
        if not a.on_table:
            continue
        for b_id in sorted(a.engaged_with, key=key):
            if key(a_id) < key(b_id) and state.units[b_id].on_table:
                pairs.append((a_id, b_id))
    locked = _still_locked(state, order)
    left_open: list[tuple[str, str]] = []
    for _ in range(2):  # a later move can make room for a pair that failed
        left_open = []
        for a_id, b_id in pairs:
            a, b = state.units[a_id], state.units[b_id]
            if b_id not in a.engaged_with or in_base_contact(scene, a_id, b_id):
                continue
            move = _gap_move(state, a, b, locked, key)
            if move is None:
                left_open.append((a_id, b_id))
                continue
            mover, other, pose, flush = move
            assert mover.pose is not None
            start = mover.pose
            state.place(mover, pose)
            if flush:
                state.engage(mover, other, Arc.FRONT, other.contact_arcs.get(mover.id, Arc.FRONT))
            events.append(Event("consolidate", f"{mover.name} closes the gap to {other.name}",
                                {"unit": mover.id, "kind": "close_gap", "target": other.id, "from": _pose(start),
                                 "to": _pose(pose)}))
        if not left_open:
            break
    for a_id, b_id in left_open:
        a, b = state.units[a_id], state.units[b_id]
        events.append(Event("info", f"{a.name} and {b.name} cannot close the gap between them: they stay locked "
                            "in combat", {"unit": a.id, "target": b.id}))
    return events
