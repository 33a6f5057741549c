"""Elevation of loose models (AoF: Skirmish "Special Movement": Jumping, Falling; "Melee": 4" vertical reach;
../shared/rules/aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish": elevation).

A terrain piece with the ``elevated`` trait and a ``height`` is elevated ground (a hill, a rooftop, a ruin's upper
floor, a cliff): its top is a flat floor ``height`` inches above the table, and a model whose centre stands inside
its outline stands on that top (the highest such piece when they overlap). There is no floor beneath it: a model
is either on the top or beside the piece. Heights are derived from positions (``height_at``), so the state keeps
no per-model height.

A model's straight path from a to b crosses the outlines of elevated pieces; ``plan_path`` walks the levels along
it and answers what the move costs and which jumps it needs:

* climbing up counts its height toward the move (the document is silent; AoF:R 2.16 "Elevation": "count the
  vertical movement as part of the unit's regular movement");
* dropping off up to 3" is regular movement (its height counts), over 3" and up to 6" is a jump, over 6" is not
  allowed;
* a stretch of lower ground of up to 1" between two higher stretches is stepped over (its length counts); a gap of
  up to 6" whose near side is more than 3" above its floor (climbing down into it would itself need a jump) is
  jumped; any other dip is climbed down into and out of;
* a jump rolls X+1 dice needing 3+ (Strider 2+), X one die per full 3" (the gap's length, the drop's height); all
  successes: the distance is crossed without counting toward the move; any failure: the model falls (``fall``);
* Flying models fly up and down: no height counts, no jump is needed ("automatically passes jumping rolls").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import LineString, Point

from game.engine.attacks import Modifier, roll_to_block
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.skirmish.attacks import take_wounds
from game.engine.skirmish.loose import (
    EPS,
    UNIT_GAP,
    XY,
    all_points,
    base_radius,
    elevated_pieces,
    free_spot,
    gap,
    height_at,
    models_killed,
    outline,
    sync_pose,
    warband_of,
)
from game.engine.state import GameState, Unit

FREE_GAP = 1.0
""""Jumping": models may cross 1" gaps as regular movement."""
FREE_DROP = 3.0
""""Jumping": ... or drop off 3" of elevation as regular movement."""
JUMP_MAX = 6.0
""""Jumping": they must jump to cross gaps or drop off elevation of up to 6"."""
JUMP_STEP = 3.0
""""Jumping": X is one die for every full 3" the model wants to move (and "Falling": AP(1) per full 3")."""
JUMP_NEED = 3
""""Jumping": trying to score 3+."""
STRIDER_NEED = 2
"""Strider: "only needs 2+ to pass jumping rolls"."""
FALL_MIN = 2.0
""""Falling": a fall from an elevated position at least 2" tall takes a hit."""
FALL_PLACE = 2.0
""""Falling": place the model within 2" of the bottom."""


def jump_dice(distance: float) -> int:
    """"Roll X+1 dice ... where X is one die for every full 3" the model wants to move"."""
    return int(math.floor(distance / JUMP_STEP + 1e-9)) + 1


def fall_ap(height: float) -> int:
    """"Falling": AP(1) for every full 3" it fell."""
    return int(math.floor(height / JUMP_STEP + 1e-9))


def jump_need(unit: Unit) -> int:
    """The score each jumping die needs: 3+, Strider 2+."""
    return STRIDER_NEED if unit.has("Strider") else JUMP_NEED


@dataclass(frozen=True)
class Jump:
    """One jump on a model's path: across a ``gap`` (``distance``: its length) or off a ``drop`` (``distance``: its
    height). ``top``: the level it leaves; ``bottom``: the ground below it (a failed jump falls ``top - bottom``);
    ``foot``: the point of the path at the bottom (where a fall places the model)."""

    kind: str
    distance: float
    top: float
    bottom: float
    foot: XY

    @property
    def dice(self) -> int:
        """X+1 dice."""
        return jump_dice(self.distance)

    def words(self) -> str:
        """The jump in words, e.g. ``drop of 4.5"``."""
        return f"{self.kind} of {self.distance:.1f}\""


@dataclass(frozen=True)
class PathPlan:
    """What a model's straight move costs with elevation: ``counted`` inches count toward the move (horizontal
    distance not jumped, climbs, drops of up to 3"); ``climb``: inches climbed; ``jumps`` on the way, in order."""

    counted: float
    climb: float = 0.0
    jumps: tuple[Jump, ...] = ()
    start_height: float = 0.0
    end_height: float = 0.0


def _levels(state: GameState, a: XY, b: XY) -> list[tuple[float, float, float]]:
    """The path from ``a`` to ``b`` cut where it crosses an elevated piece's outline: (from, to, height) in inches
    along the path, consecutive stretches at different heights."""
    length = math.dist(a, b)
    pieces = elevated_pieces(state)
    if length <= EPS:
        return [(0.0, 0.0, height_at(state, a))]
    line = LineString([a, b])
    cuts = {0.0, length}
    for t in pieces:
        hit = line.intersection(outline(t).exterior)
        for g in getattr(hit, "geoms", [hit]):
            if g.is_empty:
                continue
            for c in g.coords:
                cuts.add(min(length, max(0.0, float(line.project(Point(c))))))
    ts = sorted(cuts)
    out: list[tuple[float, float, float]] = []
    for t0, t1 in zip(ts, ts[1:], strict=False):
        if t1 - t0 <= 1e-6:
            continue
        m = (t0 + t1) / 2
        z = height_at(state, (a[0] + (b[0] - a[0]) * m / length, a[1] + (b[1] - a[1]) * m / length))
        if out and abs(out[-1][2] - z) < 1e-9:
            out[-1] = (out[-1][0], t1, z)
        else:
            out.append((t0, t1, z))
    return out


def highest_on_path(state: GameState, a: XY, b: XY) -> float:
    """Inches above the table of the highest ground the straight path from ``a`` to ``b`` crosses (its start
    included); 0 on a table with no elevated pieces."""
    return max(z for _, _, z in _levels(state, a, b))


def plan_path(state: GameState, unit: Unit, a: XY, b: XY) -> PathPlan:
    """The cost and jumps of a model of ``unit`` moving straight from ``a`` to ``b`` (module docstring). Raises
    ``IllegalAction`` ("Jumping") for a drop of over 6". Nothing changes."""
    length = math.dist(a, b)
    if not elevated_pieces(state):
        return PathPlan(length)
    start_h, end_h = height_at(state, a), height_at(state, b)
    if unit.has("Flying"):
        return PathPlan(length, 0.0, (), start_h, end_h)
    levels = _levels(state, a, b)

    def point(t: float) -> XY:
        return a if length <= EPS else (a[0] + (b[0] - a[0]) * t / length, a[1] + (b[1] - a[1]) * t / length)

    counted = levels[0][1] - levels[0][0]
    climb = 0.0
    jumps: list[Jump] = []
    cur = start_h         # a model on an edge stands on the ground: it steps up (or off) where it starts

    def step(to: float, at: float, foot_t: float) -> float:
        """Climb up or drop down from ``cur`` to ``to`` at ``at`` along the path; returns inches counted."""
        nonlocal climb
        if to > cur:
            climb += to - cur
            return to - cur
        drop = cur - to
        if drop <= FREE_DROP + 1e-9:
            return drop
        if drop <= JUMP_MAX + 1e-9:
            jumps.append(Jump("drop", drop, cur, to, point(foot_t)))
            return 0.0
        raise IllegalAction("Jumping", f"a drop of {drop:.1f}\" at {at:.1f}\" along the path: models drop off "
                            f"elevation of up to {JUMP_MAX:g}\" only")

    if levels[0][2] != cur:
        counted += step(levels[0][2], 0.0, 0.0)
        cur = levels[0][2]
    i = 1
    while i < len(levels):
        t0, t1, z = levels[i]
        span = t1 - t0
        nxt = levels[i + 1] if i + 1 < len(levels) else None
        if z < cur and nxt is not None and nxt[2] > z and \
                (span <= FREE_GAP + 1e-9 or (cur - z > FREE_DROP + 1e-9 and span <= JUMP_MAX + 1e-9)):
            # a gap between higher ground: stepped over, or jumped
            if span <= FREE_GAP + 1e-9:
                counted += span
            else:
                jumps.append(Jump("gap", span, cur, z, point((t0 + t1) / 2)))
            counted += step(nxt[2], nxt[0], min(nxt[1], nxt[0] + 0.5))
            counted += nxt[1] - nxt[0]
            cur = nxt[2]
            i += 2
            continue
        if z != cur:
            counted += step(z, t0, min(t1, t0 + 0.5))
        counted += span
        cur = z
        i += 1
    if end_h != cur:        # ending on an edge: on the ground below it
        counted += step(end_h, length, length)
    return PathPlan(counted, climb, tuple(jumps), start_h, end_h)


def roll_jump(dice: Dice, unit: Unit, index: int, jump: Jump) -> tuple[bool, Event]:
    """Roll one jump of model ``index`` (0-based) of ``unit``: X+1 dice needing 3+ (Strider 2+; a 1 always fails).
    Returns (all passed, the roll event)."""
    need = jump_need(unit)
    purpose = f"{unit.name} model {index + 1} jumps ({jump.words()})"
    rolls = dice.d6(jump.dice, purpose)
    ok = sum(1 for d in rolls if d != 1 and d >= need)
    details = [f"{jump.dice} dice (X+1), each {need}+", "all must pass, else it falls"]
    return ok == len(rolls), roll_event(purpose, rolls, need, 0, ok, details, jump=jump.kind,
                                        distance=round(jump.distance, 3), unit=unit.id, model=index)


def landing_spot(state: GameState, unit: Unit, index: int, bottom: XY, level: float) -> XY | None:
    """"Place the model within 2" of the bottom": the free spot nearest ``bottom`` at ground height ``level`` (on
    the table, off impassable terrain, overlapping no base, 1" from other units when it can be; docs/rulings.md),
    or None when there is none."""
    r = base_radius(unit.profile)
    others = all_points(state)
    fallback: XY | None = None
    for k in range(0, 9):
        ring = FALL_PLACE * k / 8
        for j in range(1 if k == 0 else 16):
            ang = 2 * math.pi * j / 16
            p = (bottom[0] + ring * math.cos(ang), bottom[1] + ring * math.sin(ang))
            if abs(height_at(state, p) - level) > 1e-6:
                continue
            trial = dict(others)
            pts = list(trial.get(unit.id, []))
            if index < len(pts):
                pts[index] = p
            trial[unit.id] = pts
            if free_spot(state, unit.id, index, p, r, trial) is not None:
                continue
            near = any(gap(p, r, q, base_radius(state.units[uid].profile)) < UNIT_GAP - 1e-3
                       for uid, qs in others.items() if uid != unit.id for q in qs)
            if not near:
                return p
            if fallback is None:
                fallback = p
    return fallback


def fall(state: GameState, dice: Dice, unit: Unit, index: int, height: float, bottom: XY | None = None
         ) -> list[Event]:
    """AoF: Skirmish "Falling": model ``index`` (0-based, among the living models) of ``unit`` falls ``height``
    inches (a failed jump, or pushed off an elevated position). While the unit has more than one model the falling
    model is killed; the last model (or a single one) is placed within 2" of ``bottom`` (a point of the lower
    ground; default: where it stands now) at the ground's level there, then takes 1 hit with AP(1 per full 3" it
    fell) when it fell at least 2" (a Defense roll, then ``attacks.take_wounds``). Does not end the activation:
    the caller ends the activating unit's. Returns the events. Raises ``IndexError`` for a model it does not
    have."""
    w = warband_of(state)
    models = w.models[unit.id]
    model = models[index]
    data = {"unit": unit.id, "model": index, "height": round(height, 3)}
    if len(models) > 1:
        events = [Event("fall", f"{unit.name} model {index + 1} falls {height:.1f}\"", data)]
        models.pop(index)
        unit.models = len(models)
        sync_pose(state, unit)
        if unit.id not in w.incoherent:
            w.incoherent.append(unit.id)
        events.append(Event("wounds", f"{unit.name}: the falling model is killed (Falling)",
                            {"unit": unit.id, "wounds": 0, "killed": 1}))
        events += [Event("info", f"{unit.name}'s {up.capitalize()} is killed: its unit and the deployed units it "
                         "picked lose the rule", {"unit": unit.id, "command_lost": up})
                   for up in models_killed(state, unit, [model])]
        return events
    at = bottom if bottom is not None else model.xy
    spot = landing_spot(state, unit, index, at, height_at(state, at))
    if spot is not None:
        model.x, model.y = spot
        sync_pose(state, unit)
    events = [Event("fall", f"{unit.name} falls {height:.1f}\" and lands at ({model.x:.1f}, {model.y:.1f})",
                    data | {"positions": [[m.x, m.y] for m in models]})]
    if height < FALL_MIN - 1e-9:
        return events
    ap = fall_ap(height)
    mods = [Modifier(f"AP({ap})", -ap)] if ap else []
    block = roll_to_block(dice, 1, unit.profile.defense, mods, f"{unit.name} Defense against the fall")
    events += block.events
    return events + take_wounds(state, dice, unit, block.wounds, model.xy)


def make_jumps(state: GameState, dice: Dice, unit: Unit, jumps: tuple[tuple[int, Jump], ...]) -> tuple[
        list[Event], int]:
    """Roll the ``jumps`` of a move already made (``moves.MoveReport.jumps``: (model index before the move, jump),
    model order then path order; docs/formats.md "AoF: Skirmish" dice order): each jump of a model that has not
    fallen rolls X+1 dice (``roll_jump``); a failed one makes the model fall from the jump's top to the ground below
    it (``fall``, placed near the jump's foot) and its later jumps are not rolled. Returns (events, models that
    fell)."""
    w = warband_of(state)
    models = list(w.models.get(unit.id, []))
    fell: set[int] = set()
    events: list[Event] = []
    for i, jump in jumps:
        now = next((k for k, m in enumerate(w.models.get(unit.id, [])) if m is models[i]), None)
        if i in fell or not unit.on_table or now is None:
            continue        # fell already, or killed meanwhile (a fellow's fall kills no one else: its own wounds)
        ok, ev = roll_jump(dice, unit, i, jump)
        events.append(ev)
        if ok:
            continue
        fell.add(i)
        events += fall(state, dice, unit, now, jump.top - jump.bottom, jump.foot)
    return events, len(fell)
