"""Candidate actions of the computer opponent for AoF: Skirmish's decisions (issue 18; loose models,
``game.engine.rulesets.skirmish``), and its quick set-up rules.

The search (``game.ai.search``) judges these by playing them out with the engine on clones rolling its own dice
and scoring with ``game.ai.skirmish_evaluate``. The discrete answers are the ruleset's own
(``Ruleset.decision_options``: units to activate, Hold or a charge per target, shooting targets, striking back);
this module adds the group moves of the activated unit's loose models (``move_models``: every model by the same
vector: ``group_move``, the longest the engine accepts on a clone) towards the objective markers it does not
hold, towards the nearest enemy, into cover and away from the most dangerous enemy, as Advance and Rush, and the
3" moves after a melee. A decision this module does not know (a rule added later) gets None, and the search then
plays the simple player's answer (``game.skirmish_play``) rather than guess.

Set-up (``setup``), without look-ahead: the own edge; markers just outside its deployment zone, spread along it;
units placed nearest the markers, shared out between them; Scout units set aside (they deploy up to 12" further
forward); Ambush units arrive by the marker they may reach first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from game.ai.skirmish_evaluate import charge_value, evaluate, marker_gap, shot_value
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
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.rulesets.skirmish import SCOUT_REACH, ZONE_DEPTH, AoFSkirmish, zone_gap
from game.engine.skirmish import moves
from game.engine.skirmish.loose import XY, base_radius, centre, outline, pieces_with, points_of, unit_gap
from game.engine.state import Unit
from game.skirmish_play import grid, tightened, translated
from geometry.terrain import COVER

SETUP_DECISIONS = frozenset({"choose_deployment", "place_objective", "deploy", "ambush"})
"""The skirmish decisions answered by a quick rule (``setup``), not by look-ahead."""
PLACE_TRIES = 48
"""Spots sampled per marker or unit placed."""
COVER_REACH = 8.0
"""Inches: cover pieces this near a unit are candidate destinations."""


def _rs(game: Game) -> AoFSkirmish:
    rs = game.ruleset
    assert isinstance(rs, AoFSkirmish)
    return rs


def candidates(game: Game, me: int, activations: int, per_unit: int, moves_: int, depth: int
               ) -> tuple[list[Action], int] | None:
    """(candidates, depth) for ``game.pending`` in a round of AoF: Skirmish, or None for a decision this module
    does not know (the caller plays the simple player's answer). ``activations``: units judged for an activation
    (the most urgent first: ``_urgency``); ``per_unit``: charge targets kept (best expected first); ``moves_``:
    group moves kept (the best by the position they reach: ``screened_moves``); ``depth``: the search's
    look-ahead."""
    p = game.pending
    listed = game.ruleset.decision_options()
    if p is None or listed is None:
        return None
    s = game.state
    d = p.decision
    if d == "activate":
        acts = [a for a in listed if isinstance(a, Activate)]
        acts.sort(key=lambda a: (_urgency(game, s.units[a.unit]), a.unit))
        kept: list[Action] = list(acts[: max(1, activations)])
        return kept, depth
    unit = s.units[p.unit] if p.unit is not None else None
    if unit is None:
        return None
    if d == "action":
        out: list[Action] = [a for a in listed if isinstance(a, Done)]
        charges = [a for a in listed if isinstance(a, DeclareCharge)]
        charges.sort(key=lambda a: (-charge_value(game, unit, s.units[a.target]), a.target))
        out += charges[: per_unit + 1]
        if unit.id in game.units_to_move(me):
            out += screened_moves(game, unit, ("advance", "rush"), moves_)
        return out, depth
    if d == "shoot":
        shots = [a for a in listed if isinstance(a, Shoot)]
        shots.sort(key=lambda a: (-shot_value(game, a), a.target))
        return (list(shots) if shots else [Done(me)]), depth
    if d == "strike_back":
        return [a for a in listed if isinstance(a, StrikeBack)] + [Done(me)], depth
    if d == "consolidate":
        return [Done(me), *screened_moves(game, unit, ("consolidate",), moves_)], 0
    return None


def _urgency(game: Game, unit: Unit) -> float:
    """Smaller first: units with a charge that pays, then those nearest the enemy or a marker."""
    s = game.state
    if not points_of(s, unit.id):
        return 1e9
    enemies = [e for e in s.enemies_of(unit.player) if e.on_table and points_of(s, e.id)]
    near = min((unit_gap(s, unit, e) for e in enemies), default=48.0)
    markers = [marker_gap(game, unit, (o.x, o.y)) for o in s.objectives if o.controller != unit.player]
    return min(near, min(markers, default=48.0))


def goals(game: Game, unit: Unit) -> list[tuple[str, XY]]:
    """Where the activated unit may head, by kind: the markers it does not hold (nearest two first) and its own
    ones that the enemy nears, the nearest enemy, the nearest cover piece within ``COVER_REACH`` (a unit with
    ranged weapons), and away from the most dangerous enemy within 18"."""
    s = game.state
    pts = points_of(s, unit.id)
    c = centre(pts)
    out: list[tuple[str, XY]] = []
    markers = sorted(((math.dist(c, (o.x, o.y)), (o.x, o.y), o.controller) for o in s.objectives),
                     key=lambda m: (m[0], m[1]))
    out += [("marker", m[1]) for m in markers if m[2] != unit.player][:2]
    out += [("hold marker", m[1]) for m in markers if m[2] == unit.player and marker_gap(game, unit, m[1]) > 0][:1]
    enemies = [e for e in s.enemies_of(unit.player) if e.on_table and points_of(s, e.id)]
    if enemies:
        near = min(enemies, key=lambda e: (unit_gap(s, unit, e), e.id))
        out.append(("enemy", centre(points_of(s, near.id))))
        close = [e for e in enemies if unit_gap(s, unit, e) <= 18.0]
        if close:
            threat = max(close, key=lambda e: (e.models * max(e.tough, 1) * e.profile.value("Impact") + e.cost, e.id))
            ec = centre(points_of(s, threat.id))
            ang = math.atan2(c[1] - ec[1], c[0] - ec[0])
            out.append(("away", (c[0] + 12.0 * math.cos(ang), c[1] + 12.0 * math.sin(ang))))
    if unit.profile.ranged_weapons:
        covers = [outline(pc).centroid for pc in pieces_with(s, COVER)]
        near_cover = sorted(((math.dist(c, (q.x, q.y)), (q.x, q.y)) for q in covers), key=lambda t: t)
        out += [("cover", q) for dist, q in near_cover[:1] if dist <= COVER_REACH]
    return out


FRACTIONS = (1.0, 0.6, 0.3)
"""Shares of the way (up to the move's distance) tried in turn for a group move; the first the engine takes."""


def group_move(game: Game, unit: Unit, at: XY, action: str) -> tuple[MoveModels, Game] | None:
    """The longest group move of ``unit`` with ``action`` towards ``at`` (every model by the same vector; a unit
    whose casualties broke its coherency closes up around its centre first: ``skirmish_play.tightened``) that the
    engine accepts, with a clone of ``game`` it was applied to; None when none of ``FRACTIONS`` is legal."""
    s = game.state
    pts = points_of(s, unit.id)
    r = base_radius(unit.profile)
    limit = moves.allowance(s, unit, action)
    c = centre(pts)
    shape = tightened(pts, r) if unit.id in _rs(game).w.incoherent else pts
    sc = centre(shape)
    far = math.dist(at, c)
    if far < 1e-6:
        return None
    ux, uy = (at[0] - c[0]) / far, (at[1] - c[1]) / far
    for frac in FRACTIONS:
        d = min(limit, far) * frac
        end = translated(shape, c[0] - sc[0] + d * ux, c[1] - sc[1] + d * uy)
        if max(math.dist(a, b) for a, b in zip(pts, end, strict=True)) > limit:
            continue
        move = MoveModels(unit.player, unit.id, action, tuple(TablePoint(x, y) for x, y in end))
        twin = game.clone()
        try:
            twin.apply(move)
        except IllegalAction:
            continue
        return move, twin
    return None


def screened_moves(game: Game, unit: Unit, actions: Sequence[str], keep: int) -> list[Action]:
    """The ``keep`` best group moves of ``unit`` (each of ``actions`` towards each of ``goals``; a Rush is not
    tried towards cover or a marker it holds, where it would give up shooting), by the position each reaches
    right after it (``skirmish_evaluate.evaluate`` with the other side to act, plus the best shot the unit then
    has: ``static_value``); none twice."""
    scored: list[tuple[float, int, Action]] = []
    seen: set[tuple[TablePoint, ...]] = set()
    me = unit.player
    for kind, at in goals(game, unit):
        for action in actions:
            if kind in ("cover", "hold marker") and action == "rush":
                continue
            got = group_move(game, unit, at, action)
            if got is None or got[0].positions in seen:
                continue
            move, twin = got
            seen.add(move.positions)
            scored.append((static_value(twin, me), len(scored), move))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [m for _, _, m in scored[: max(1, keep)]]


def static_value(game: Game, me: int) -> float:
    """``me``'s position right after its unit's move (``skirmish_evaluate.evaluate``, the other side activating
    next), plus the expected worth of its best shot when it may shoot now (``skirmish_evaluate.shot_value``)."""
    value = evaluate(game, me, 3 - me)
    p = game.pending
    if p is not None and p.decision == "shoot" and p.player == me and p.unit is not None:
        shots = [Shoot(me, p.unit, t) for t in game.shooting_targets(p.unit)]
        value += max((shot_value(game, a) for a in shots), default=0.0)
    return value


# --- set-up ---------------------------------------------------------------------------------------------------
def setup(game: Game, me: int, rng: random.Random) -> Action | None:
    """The quick set-up answer to ``game.pending`` (see the module docstring), or None for a decision of the
    round (the search judges those)."""
    p = game.pending
    if p is None or p.decision not in SETUP_DECISIONS:
        return None
    rs = _rs(game)
    s = game.state
    if p.decision == "choose_deployment":
        return ChooseDeployment(me, me, p.options[0] if p.options else None)
    if p.decision == "place_objective":
        return _marker(game, me, rng)
    if p.decision == "deploy":
        scouts = [u for u in p.options if s.units[u].has("Scout") and not s.units[u].has("Ambush")]
        if scouts and not rs.w.scouting:
            aside = SetAside(me, scouts[0], "Scout")
            if rs.check_deploy(aside) is None:
                return aside
        return _place(game, me, list(p.options), rng, ambush=False)
    return _place(game, me, list(p.options), rng, ambush=True)


def _edge_gap(game: Game, player: int, at: XY) -> float:
    t = game.state.table
    return zone_gap(_rs(game).w.edges[player], t.width, t.depth, at, 0.0)


def _marker(game: Game, me: int, rng: random.Random) -> Action | None:
    """A marker just outside the own deployment zone, away from the table's side edges (the nearest legal
    spot sampled)."""
    rs = _rs(game)
    t = game.state.table
    best: tuple[float, Action] | None = None
    for _ in range(PLACE_TRIES * 3):
        x, y = round(rng.uniform(4, t.width - 4), 2), round(rng.uniform(4, t.depth - 4), 2)
        action = PlaceObjective(me, x, y)
        if rs.check_deploy(action) is not None:
            continue
        side = min(x, t.width - x, y, t.depth - y)
        score = _edge_gap(game, me, (x, y)) - 0.2 * min(side, 12.0)
        if best is None or score < best[0]:
            best = (score, action)
    return None if best is None else best[1]


def _place(game: Game, me: int, options: list[str], rng: random.Random, ambush: bool) -> Action | None:
    """A unit placed (the first listed; when ``ambush``, the one nearest a marker it may seize) where its
    centre stands nearest a marker, friends shared out between the markers; None when no legal spot is found."""
    rs = _rs(game)
    s = game.state
    t = s.table
    markers = [(o.x, o.y) for o in s.objectives if o.controller != me] or [(o.x, o.y) for o in s.objectives]
    claimed = [centre(points_of(s, u.id)) for u in s.units_of(me) if points_of(s, u.id)]
    edge = rs.w.edges.get(me, "south")
    best: tuple[float, Action] | None = None
    for uid in options if ambush else options[:1]:
        unit = s.units[uid]
        r = base_radius(unit.profile)
        reach = ZONE_DEPTH + (SCOUT_REACH if rs.w.scouting else 0.0)
        for _ in range(PLACE_TRIES):
            if ambush:
                at = (rng.uniform(4, t.width - 4), rng.uniform(4, t.depth - 4))
            else:
                depth = rng.uniform(r + 1.0, max(r + 1.5, reach - 3 * r - 1.0))
                along = rng.uniform(4.0, (t.width if edge in ("south", "north") else t.depth) - 4.0)
                at = {"south": (along, depth), "north": (along, t.depth - depth), "west": (depth, along),
                      "east": (t.width - depth, along)}[edge]
            action = PlaceModels(me, uid, tuple(TablePoint(round(x, 3), round(y, 3))
                                                for x, y in grid(unit.models, r, at)))
            if rs.check_deploy(action) is not None:
                continue
            score = _place_score(at, markers, claimed)
            if best is None or score < best[0]:
                best = (score, action)
    if best is None:
        return Done(me) if ambush else None
    return best[1]


def _place_score(at: XY, markers: list[XY], claimed: list[XY]) -> float:
    """Smaller is better: inches to the nearest marker, plus 6" for each friend already nearest that marker."""
    if not markers:
        return 0.0
    def cost(m: XY) -> float:
        crowd = sum(1 for c in claimed if min(markers, key=lambda q: math.dist(c, q)) == m)
        return math.dist(at, m) + 6.0 * crowd
    return min(cost(m) for m in markers)

