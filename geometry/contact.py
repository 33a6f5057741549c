"""Charge geometry: base contact, frontage, and placing a charger flush against a side of its target
(rulebook "Charge Moves": get into base contact, pivot to close the gap, shuffle sideways to maximise frontage).

Inches and degrees throughout; sides are ``geometry.arcs.Arc`` values of the target's rectangle.
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
import shapely

from geometry.arcs import Arc, side_segment
from geometry.formation import rect_corners
from geometry.motion import check_path
from geometry.obstacles import first_times, gather
from geometry.pose import Point, Pose, forward_vector, normalise_bearing, right_vector
from geometry.scene_data import SceneData
from geometry.shapes import CONTACT_TOL

MIN_FRONTAGE = 0.01
"""Inches of front edge that must touch the side for a flush pose to count as in contact."""
BLOCK_RADIUS = 0.6 * CONTACT_TOL
"""Inches from a core a flush pose must keep: a hair more than ``check_path``'s CONTACT_TOL / 2, so that a move
ending there passes it."""
TOUCH = 0.04
"""Inches: a flush pose this close to a ``keep_clear`` unit is in base contact with it (``in_base_contact`` uses
0.05", so a pose chosen at this limit is safely in contact)."""


def _side_length(width: float, depth: float, side: Arc) -> float:
    return width if side in (Arc.FRONT, Arc.REAR) else depth


def flush_pose(
    target_pose: Pose,
    target_width: float,
    target_depth: float,
    side: Arc,
    charger_width: float,
    charger_depth: float,
    lateral: float,
) -> Pose:
    """Pose of a ``charger_width`` x ``charger_depth`` rectangle whose front edge lies flush against ``side`` of the
    ``target_width`` x ``target_depth`` rectangle at ``target_pose``, facing it.

    Facing = target facing + ``side.outward_bearing`` + 180. The charger's centre is shifted ``lateral`` inches
    along the side, positive to the charger's own right; 0 centres it on the side. Rulebook "Charge Moves".
    """
    hw, hd = target_width / 2, target_depth / 2
    mid_local = {Arc.FRONT: (0.0, hd), Arc.RIGHT: (hw, 0.0), Arc.REAR: (0.0, -hd), Arc.LEFT: (-hw, 0.0)}[side]
    mid = target_pose.to_world(mid_local)
    out = forward_vector(target_pose.facing + side.outward_bearing)
    facing = normalise_bearing(target_pose.facing + side.outward_bearing + 180.0)
    r = right_vector(facing)
    x = mid[0] + out[0] * charger_depth / 2 + r[0] * lateral
    y = mid[1] + out[1] * charger_depth / 2 + r[1] * lateral
    return Pose(x, y, facing)


def frontage(side_length: float, charger_width: float, lateral: float) -> float:
    """Length (inches) of a flush charger's front edge touching a side of ``side_length``, for shift ``lateral``."""
    lo = max(lateral - charger_width / 2, -side_length / 2)
    hi = min(lateral + charger_width / 2, side_length / 2)
    return max(0.0, hi - lo)


def contact_length(a: tuple[Point, Point], b: tuple[Point, Point], tol: float = 0.05) -> float:
    """Length (inches) over which segment ``a`` lies along segment ``b``: both ends of ``a`` within ``tol`` of the
    line through ``b``, measured as the overlap of their projections on ``b``. 0 if not aligned or apart.

    Used to measure frontage in base contact (rulebook "Charge Moves").
    """
    (bx0, by0), (bx1, by1) = b
    dx, dy = bx1 - bx0, by1 - by0
    length = math.hypot(dx, dy)
    if length <= 0:
        return 0.0
    ex, ey = dx / length, dy / length
    proj = []
    for px, py in a:
        rx, ry = px - bx0, py - by0
        if abs(rx * -ey + ry * ex) > tol:
            return 0.0
        proj.append(rx * ex + ry * ey)
    lo = max(min(proj), 0.0)
    hi = min(max(proj), length)
    return max(0.0, hi - lo)


def touching_sides(scene: SceneData, a_id: str, b_id: str, tol: float = 0.05) -> list[tuple[Arc, Arc, float]]:
    """Which side of unit ``a`` touches which side of unit ``b`` and over what length (inches).

    Returns (side of a, side of b, length) for every pair with length > 0, longest first (ties in ``Arc`` order).
    Rulebook "Charge Moves", "Who Can Strike" (which facing a unit was contacted in).
    """
    pa, fa = scene.pose(a_id), scene.formation(a_id)
    pb, fb = scene.pose(b_id), scene.formation(b_id)
    order = list(Arc)
    out = []
    for sa in Arc:
        seg_a = side_segment(pa, fa.width, fa.depth, sa)
        for sb in Arc:
            seg_b = side_segment(pb, fb.width, fb.depth, sb)
            length = contact_length(seg_a, seg_b, tol)
            if length > 1e-9:
                out.append((sa, sb, length))
    out.sort(key=lambda t: (-t[2], order.index(t[0]), order.index(t[1])))
    return out


def in_base_contact(scene: SceneData, a_id: str, b_id: str, tol: float = 0.05) -> bool:
    """True if the two units' footprints are within ``tol`` inches of each other (rulebook "Charge Moves")."""
    return scene.distance(a_id, b_id) <= tol


def models_in_contact(scene: SceneData, unit_id: str, other_id: str, tol: float = 0.05) -> list[int]:
    """Indices (``model_centres`` order) of the unit's models whose base is within ``tol`` inches of the other
    unit's footprint (rulebook "Who Can Strike": models in base contact)."""
    polys = np.array(scene.model_polygons(unit_id), dtype=object)
    if len(polys) == 0:
        return []
    near = shapely.dwithin(polys, scene.footprint(other_id), tol)
    return [int(i) for i in np.flatnonzero(near)]


def _shift_intervals(
    scene: SceneData, rect0: np.ndarray, rv: Point, s_lo: float, s_hi: float, radii: dict[str, float],
    ignore: Collection[str] = (), units_only: Collection[str] | None = None, grow: float = 0.0,
    unit_radius: dict[str, float] | None = None,
) -> list[tuple[str, float, float]]:
    """Per obstacle, the interval of lateral shifts s in [s_lo, s_hi] where the rectangle ``rect0 + s*rv`` comes
    within ``radii[kind]`` inches of its core ("unit" / "terrain"; a kind missing from ``radii`` is skipped):
    (obstacle key, a, b). Exact for convex obstacles (the distance is convex in s); for non-convex terrain the hull
    of the shifts (conservative). An interval reaching an end of [s_lo, s_hi] is extended beyond it.
    ``units_only``: consider only these units (and no terrain). ``unit_radius``: radii of particular units
    instead of ``radii["unit"]``."""
    start = rect0 + np.array(rv) * s_lo
    end = rect0 + np.array(rv) * s_hi
    allc = np.concatenate([start, end])
    margin = 2 * CONTACT_TOL + grow
    obs = gather(scene, ignore, allc.min(axis=0) - margin, allc.max(axis=0) + margin)
    if not len(obs):
        return []
    keep = [k for k in range(len(obs)) if obs.kinds[k] in radii
            and (units_only is None or (obs.kinds[k] == "unit" and obs.keys[k] in units_only))]
    if not keep:
        return []
    span = s_hi - s_lo
    special = unit_radius or {}
    r = np.array([(special.get(obs.keys[k], radii["unit"]) if obs.kinds[k] == "unit" and "unit" in radii
                   else radii.get(obs.kinds[k], np.nan)) if k in keep else np.nan for k in range(len(obs))])
    t_in = first_times(obs, start, rv, r)
    t_out = first_times(obs, end, (-rv[0], -rv[1]), r)
    out = []
    for k in keep:
        if t_in[k] <= span and t_out[k] <= span:
            # t = 0 means within reach at that end already: the end itself is inside
            a = s_lo + float(t_in[k]) if t_in[k] > 0 else s_lo - 1.0
            b = s_hi - float(t_out[k]) if t_out[k] > 0 else s_hi + 1.0
            if b > a:
                out.append((obs.keys[k], a, b))
    return out


def _blocked_intervals(
    scene: SceneData, rect0: np.ndarray, rv: Point, s_lo: float, s_hi: float, ignore: Collection[str]
) -> list[tuple[float, float]]:
    """Intervals of lateral shift s in [s_lo, s_hi] where the rectangle ``rect0 + s*rv`` overlaps another unit or
    impassable terrain (touching allowed). Exact for rectangles; for non-convex terrain the hull of the blocked
    shifts of each piece (conservative)."""
    r = BLOCK_RADIUS
    return sorted((a, b) for _, a, b in _shift_intervals(scene, rect0, rv, s_lo, s_hi, {"unit": r, "terrain": r},
                                                          ignore))


def _clearance_intervals(
    scene: SceneData, rect0: np.ndarray, rv: Point, s_lo: float, s_hi: float, keep_clear: Collection[str],
    clearance: float, touching: bool,
) -> list[tuple[float, float]]:
    """Intervals of shift where the rectangle is closer than ``clearance`` to a unit in ``keep_clear``; with
    ``touching``, shifts where it is in base contact with that unit (within ``TOUCH``) are not counted."""
    far = _shift_intervals(scene, rect0, rv, s_lo, s_hi, {"unit": clearance + CONTACT_TOL - 1e-6},
                           units_only=set(keep_clear), grow=clearance)
    if not far:
        return []
    near: dict[str, tuple[float, float]] = {}
    if touching:
        near = {key: (a, b) for key, a, b in _shift_intervals(
            scene, rect0, rv, s_lo, s_hi, {"unit": TOUCH + CONTACT_TOL}, units_only={k for k, _, _ in far},
            grow=TOUCH)}
    out = []
    for key, a, b in far:
        if key in near:
            na, nb = near[key]
            if na > a:
                out.append((a, na))
            if b > nb:
                out.append((nb, b))
        else:
            out.append((a, b))
    return out


def best_flush_pose(
    scene: SceneData,
    charger_id: str,
    target_id: str,
    side: Arc,
    charger_width: float,
    charger_depth: float,
    preferred: Point,
    gap_ignore: Collection[str] = (),
    keep_clear: Collection[str] = (),
    clearance: float = 1.0,
    touching: bool = False,
) -> Pose | None:
    """The flush pose on ``side`` of the target (``flush_pose``) that maximises frontage in contact, ties broken
    by the shift nearest to ``preferred`` (a table point, e.g. the charger's current centre).

    The pose must be on the table and must not overlap impassable terrain or any unit other than the charger,
    the target and ``gap_ignore`` (touching is fine: a second charger lines up beside the first). None if no such
    pose touches the side by at least ``MIN_FRONTAGE``. Rulebook "Charge Moves" (close the gap, maximise frontage).

    ``keep_clear``: units (other than the charger and the target) the pose must stay at least ``clearance`` inches
    from (rulebook "General Movement": the 1" rule). Poses clear of all of them are preferred; with ``touching``,
    if there is none, a pose where each of them is either that far away or in base contact (within ``TOUCH``) is
    taken instead (the caller engages those it touches: rulebook "Multiple Units in Combat"). None if neither
    exists. Answers are kept in ``scene.cache`` until a unit moves.
    """
    key = ("flush", charger_id, target_id, side, charger_width, charger_depth, tuple(preferred),
           tuple(sorted(gap_ignore)), tuple(sorted(keep_clear)), clearance, touching)
    if key in scene.cache:
        hit = scene.cache[key]
        return hit if isinstance(hit, Pose) else None
    pose = _best_flush_pose(scene, charger_id, target_id, side, charger_width, charger_depth, preferred, gap_ignore,
                            keep_clear, clearance, touching)
    scene.cache[key] = pose
    return pose


def _best_flush_pose(
    scene: SceneData,
    charger_id: str,
    target_id: str,
    side: Arc,
    charger_width: float,
    charger_depth: float,
    preferred: Point,
    gap_ignore: Collection[str],
    keep_clear: Collection[str],
    clearance: float,
    touching: bool,
) -> Pose | None:
    tp, tf = scene.pose(target_id), scene.formation(target_id)
    length = _side_length(tf.width, tf.depth, side)
    base = flush_pose(tp, tf.width, tf.depth, side, charger_width, charger_depth, 0.0)
    rv = right_vector(base.facing)
    rect0 = np.array(rect_corners(base, charger_width, charger_depth))
    reach = (length + charger_width) / 2 - MIN_FRONTAGE
    if reach < 0:
        return None
    lo, hi = -reach, reach
    # table: every corner c + s*rv must stay within the table
    for c in rect0:
        for axis, limit in ((0, scene.width), (1, scene.depth)):
            v = rv[axis]
            if abs(v) < 1e-12:
                if c[axis] < -1e-9 or c[axis] > limit + 1e-9:
                    return None
                continue
            a, b = (0.0 - c[axis]) / v, (limit - c[axis]) / v
            lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    if hi < lo:
        return None
    ignore = {charger_id, target_id, *gap_ignore}
    clear = [u for u in keep_clear if u not in (charger_id, target_id)]
    s_pref = (preferred[0] - base.x) * rv[0] + (preferred[1] - base.y) * rv[1]
    best = None
    blocked: list[tuple[float, float]] | None = None
    if clear and not ignore & set(clear):
        # one pass for both: overlaps anywhere, and the clearance around the keep_clear units
        far = clearance + CONTACT_TOL - 1e-6
        both = _shift_intervals(scene, rect0, rv, lo, hi, {"unit": BLOCK_RADIUS, "terrain": BLOCK_RADIUS}, ignore,
                                grow=clearance, unit_radius=dict.fromkeys(clear, far))
        best = _best_shift(sorted((a, b) for _, a, b in both), lo, hi, length, charger_width, s_pref)
        tries = [True] if touching else []
    else:
        tries = [False, True] if touching and clear else [False]
    for touch_ok in tries if best is None else []:
        if blocked is None:
            blocked = _blocked_intervals(scene, rect0, rv, lo, hi, ignore)
        extra = _clearance_intervals(scene, rect0, rv, lo, hi, clear, clearance, touch_ok) if clear else []
        best = _best_shift(sorted(blocked + extra), lo, hi, length, charger_width, s_pref)
        if best is not None:
            break
    if best is None:
        return None
    return flush_pose(tp, tf.width, tf.depth, side, charger_width, charger_depth, best)


def _best_shift(blocked: list[tuple[float, float]], lo: float, hi: float, length: float, charger_width: float,
                s_pref: float) -> float | None:
    """The free shift in [lo, hi] (outside every ``blocked`` interval) with the most frontage, then nearest to
    ``s_pref``, then the smallest; None if no free shift has ``MIN_FRONTAGE``."""
    free: list[tuple[float, float]] = []
    cursor = lo
    for a, b in blocked:
        if a > cursor:
            free.append((cursor, a))
        cursor = max(cursor, b)
    if cursor <= hi:
        free.append((cursor, hi))
    plateau = abs(length - charger_width) / 2
    best: tuple[float, float, float] | None = None  # (frontage, -distance from preferred, -shift)
    for a, b in free:
        pa, pb = max(a, -plateau), min(b, plateau)
        if pa <= pb:
            s = min(max(s_pref, pa), pb)
        else:
            s = b if b < -plateau else a
        f = frontage(length, charger_width, s)
        if f < MIN_FRONTAGE - 1e-9:
            continue
        key = (round(f, 6), -abs(s - s_pref), -s)
        if best is None or key > best:
            best = key
    return None if best is None else -best[2]


def shuffle_target(
    scene: SceneData,
    charger_id: str,
    target_id: str,
    side: Arc,
    keep_clear: Collection[str] = (),
    clearance: float = 1.0,
) -> Pose | None:
    """Where the target slides sideways along its contacted ``side`` to maximise frontage with a charger already
    flush against it (rulebook "Charge Moves": "... shuffle sideways to try and maximise frontage with the target,
    and then the target unit must do the same if necessary"); None if it need not or cannot move.

    The target keeps its facing and moves along the side's line only, so the charger stays flush. It takes the
    shift with the most frontage nearest to where it stands, reachable without passing through units or
    impassable terrain, staying on the table and at least ``clearance`` from every unit in ``keep_clear`` (the
    1" rule; the charger excepted). A target already closer than that to one of them, or that could gain
    nothing, stays. The answer is confirmed with ``check_path`` (exclusion ``clearance``, charger ignored).
    """
    tp, tf = scene.pose(target_id), scene.formation(target_id)
    a_end, b_end = side_segment(tp, tf.width, tf.depth, side)
    length = math.hypot(b_end[0] - a_end[0], b_end[1] - a_end[1])
    if length <= 0:
        return None
    e = ((b_end[0] - a_end[0]) / length, (b_end[1] - a_end[1]) / length)
    ccorners = scene.corners(charger_id)
    proj = [float((c[0] - a_end[0]) * e[0] + (c[1] - a_end[1]) * e[1]) for c in ccorners[:2]]  # its front edge
    lo_c, hi_c = min(proj), max(proj)
    best = min(hi_c - lo_c, length)

    def overlap(s: float) -> float:
        return max(0.0, min(hi_c, length + s) - max(lo_c, s))

    if overlap(0.0) >= best - 1e-6:
        return None
    plateau = (min(lo_c, hi_c - length), max(lo_c, hi_c - length))
    lo, hi = min(0.0, plateau[0]) - 1.0, max(0.0, plateau[1]) + 1.0
    rect0 = np.array(scene.corners(target_id))
    for c in rect0:  # the table: every corner c + s*e stays on it
        for axis, limit in ((0, scene.width), (1, scene.depth)):
            v = e[axis]
            if abs(v) < 1e-12:
                continue
            a, b = (0.0 - c[axis]) / v, (limit - c[axis]) / v
            lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    if not lo - 1e-9 <= 0.0 <= hi + 1e-9:
        return None
    ignore = {charger_id, target_id}
    blocked = _blocked_intervals(scene, rect0, e, lo, hi, ignore)
    clear = [u for u in keep_clear if u not in ignore]
    if clear:
        blocked += _clearance_intervals(scene, rect0, e, lo, hi, clear, clearance, False)
    # the free stretch the target stands in
    left, right = lo, hi
    for a, b in blocked:
        if a < 1e-9 and b > -1e-9:
            return None  # already too close to something: it stays
        if b <= 0.0:
            left = max(left, b)
        elif a >= 0.0:
            right = min(right, a)
    s = min(max(0.0, plateau[0]), plateau[1])  # the best shift nearest to 0
    s = min(max(s, left), right)
    if abs(s) < 1e-6 or overlap(s) <= overlap(0.0) + 1e-6:
        return None
    new = Pose(tp.x + e[0] * s, tp.y + e[1] * s, tp.facing)
    if not check_path(scene, target_id, tp, [new], exclusion=clearance, ignore_units=[charger_id]).ok:
        return None
    return new
