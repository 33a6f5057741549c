"""Loose models (Age of Fantasy: Skirmish, ../shared/rules/aof-skirmish-quick-rules.md): each model's position,
base and wound markers, and the per-model questions of the rules: coherency ("Movement"), distances, line of sight
and cover ("Terrain").

A model is a round base: its radius is half the larger side of the profile's base (docs/rulings.md "AoF Skirmish":
bases). Every distance between models is measured base edge to base edge, in inches; a point of the table is
(x, y) in inches, x from the left edge, y from player 1's edge. The warband state (``Warband``) lives in
``GameState.activation`` and is written to the state file (``state_dict``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from shapely import LineString, Point, Polygon

from game.engine.profiles import Profile
from game.engine.state import GameState, Unit
from geometry.pose import Pose
from geometry.terrain import BLOCKING, COVER, ELEVATED, IMPASSABLE, SEE_INTO_NOT_THROUGH, TerrainShape

MM_PER_INCH = 25.4
COHERENCY_NEAR = 1.0
"""Inches: "Unit members must stay within 1" of at least one other member"."""
COHERENCY_ALL = 6.0
"""Inches: "... and within 6" of all other members"."""
UNIT_GAP = 1.0
"""Inches: "Units may only be within 1" of other units when charging"."""
EPS = 1e-6
PICKING_UPGRADES = frozenset({"musician", "banner"})
"""Command group upgrades whose unit picks up to 3 friendly units before the game ("Command Groups")."""

XY = tuple[float, float]


@dataclass
class LooseModel:
    """One model on the table: its centre and the wound markers next to it ("Wound Effects")."""

    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""
    wounds: int = 0
    """Wound markers placed next to it."""
    command: str | None = None
    """The command group upgrade this model carries (``sergeant``; "Command Groups"), None for most; it goes when
    the model is killed (docs/rulings.md "AoF Skirmish": command models)."""

    @property
    def xy(self) -> XY:
        """(x, y) in inches."""
        return (self.x, self.y)


@dataclass
class Warband:
    """Everything of an AoF: Skirmish game that the shared state has no place for (``GameState.activation``):
    the models of every unit, the deployment, the round of activations and the melee in progress."""

    models: dict[str, list[LooseModel]] = field(default_factory=dict)
    """Each deployed unit's living models, by unit id; empty before it is placed."""
    stage: str = "objective_order"
    """Where the game is: ``objective_order``, ``place_objective``, ``choose_deployment``, ``deploy``; then in a
    round ``activate``, ``action``, ``shoot``, ``strike_back``, ``consolidate``, ``dispel`` (the opponent's tokens
    against a cast), ``push`` (the attacker's pushes); ``ambush`` at the start of rounds 2 on."""
    roll_off: int = 1
    """The player who won the roll-off to go first (objectives, then deployment)."""
    edges: dict[int, str] = field(default_factory=dict)
    """Each player's table edge (``south``, ``north``, ``west``, ``east``)."""
    markers_left: int = 0
    """Objective markers still to place."""
    placer: int = 1
    """The player who places the next marker or unit."""
    first: int = 1
    """The player who activates first this round."""
    activated: list[str] = field(default_factory=list)
    """Units activated this round, in order."""
    unit: str | None = None
    """The unit being activated."""
    finished_first: int | None = None
    """The player who finished activating first this round."""
    fatigued: list[str] = field(default_factory=list)
    """Units that charged or struck back this round ("Fatigue")."""
    fired: list[str] = field(default_factory=list)
    """Weapons fired by the activated unit this activation."""
    targets: list[str] = field(default_factory=list)
    """Units it shot at this activation (up to two)."""
    melee: list[str] = field(default_factory=list)
    """[charger, target] of the melee in progress."""
    starting_units: dict[int, int] = field(default_factory=dict)
    """Each army's units at the start of the game ("Morale")."""
    incoherent: list[str] = field(default_factory=list)
    """Units whose casualties broke their coherency; their next move must restore it (docs/rulings.md)."""
    ambush: list[str] = field(default_factory=list)
    """Ambush units set aside, not yet deployed."""
    arrived: dict[str, int] = field(default_factory=dict)
    """Round each Ambush unit deployed in (it can't seize or contest objectives that round)."""
    scouts: list[str] = field(default_factory=list)
    """Scout units set aside, placed after all the other units."""
    scouting: bool = False
    """The Scout units are being placed."""
    ambush_passed: list[int] = field(default_factory=list)
    """Players who keep their Ambush units waiting this round."""
    inspired: dict[str, list[str]] = field(default_factory=dict)
    """Musician and Banner ("Command Groups"): per upgrade, the units that have its rule now (the unit carrying it and
    the units it picked; deployed ones lose it when the model carrying it is killed)."""
    close_pairs: list[list[str]] = field(default_factory=list)
    """Pairs of units left within 1" of each other because the chargers could not move back after a melee ("if
    possible"); dropped once they stand 1" apart."""
    resume: str = ""
    """The stage a cast within the activation returns to (``action`` or ``shoot``) once the opponent answered
    ``dispel`` ("Caster(X)")."""
    pushes: list[str] = field(default_factory=list)
    """Units whose model rolled a Shaken result and that the attacker may still try to push ("Pushing"), in order."""
    push_by: int = 0
    """The attacker deciding the pushes (``pushes``)."""
    impact_cut: int = 0
    """Counter: Impact dice fewer for the charger of the melee in progress ("-1 total Impact rolls per model with
    Counter")."""
    push_then: str = ""
    """Where the game goes on once the pushes are decided (``AoFSkirmish`` continuations: ``shoot``, ``charger``,
    ``strike_back``, ``after_melee``, ``cast``)."""

    def partners(self, unit_id: str) -> list[str]:
        """Units left within 1" of ``unit_id`` after a melee (``close_pairs``)."""
        return [b if a == unit_id else a for a, b in self.close_pairs if unit_id in (a, b)]


def warband_of(state: GameState) -> Warband:
    """The ``Warband`` of an AoF: Skirmish game. Raises ``TypeError`` for a game of another ruleset."""
    w = state.activation
    if not isinstance(w, Warband):
        raise TypeError(f"{state.ruleset} has no loose models")
    return w


@lru_cache(maxsize=256)
def base_radius(profile: Profile) -> float:
    """Inches: half the larger side of the profile's base (a round base; docs/rulings.md "AoF Skirmish")."""
    return max(profile.base_width_mm, profile.base_depth_mm) / 2.0 / MM_PER_INCH


def points_of(state: GameState, unit_id: str) -> list[XY]:
    """Centres of the living models of ``unit_id`` (empty off the table)."""
    return [m.xy for m in warband_of(state).models.get(unit_id, [])]


def centre(points: Sequence[XY]) -> XY:
    """The mean of ``points`` (non-empty)."""
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def sync_pose(state: GameState, unit: Unit) -> None:
    """Keep ``Unit.pose`` (the shared state's marker of a unit on the table) at the centre of its models; the
    scene of formations is not used by loose models."""
    pts = points_of(state, unit.id)
    if pts:
        x, y = centre(pts)
        unit.pose = Pose(x, y, 0.0)


def gap(a: XY, ra: float, b: XY, rb: float) -> float:
    """Inches between two round bases, edge to edge (negative when they overlap)."""
    return math.hypot(a[0] - b[0], a[1] - b[1]) - ra - rb


def coherency_problem(points: Sequence[XY], radius: float) -> str | None:
    """Why ``points`` (a unit's models, bases of ``radius``) are not in coherency, or None ("Movement": each member
    within 1" of at least one other and within 6" of all others)."""
    n = len(points)
    if n <= 1:
        return None
    for i in range(n):
        near = False
        for j in range(n):
            if i == j:
                continue
            d = gap(points[i], radius, points[j], radius)
            if d > COHERENCY_ALL + EPS:
                return f"model {i + 1} is {d:.1f}\" from model {j + 1} (members stay within 6\" of all others)"
            near = near or d <= COHERENCY_NEAR + EPS
        if not near:
            return f"model {i + 1} is not within 1\" of another member"
    return None


def unit_gap(state: GameState, a: Unit, b: Unit) -> float:
    """Inches between the nearest models of two units on the table (inf when one has none)."""
    ra, rb = base_radius(a.profile), base_radius(b.profile)
    best = math.inf
    for p in points_of(state, a.id):
        for q in points_of(state, b.id):
            best = min(best, gap(p, ra, q, rb))
    return best


def on_table(state: GameState, p: XY, r: float) -> bool:
    """The whole base is on the table."""
    t = state.table
    return r - EPS <= p[0] <= t.width - r + EPS and r - EPS <= p[1] <= t.depth - r + EPS


@lru_cache(maxsize=512)
def outline(piece: TerrainShape) -> Polygon:
    """The piece's outline as a shapely polygon (cached: pieces never change)."""
    return Polygon(piece.polygon)


@lru_cache(maxsize=512)
def bounds(piece: TerrainShape) -> tuple[float, float, float, float]:
    """The piece's bounding box (min x, min y, max x, max y), inches (cached: a cheap test before shapely's)."""
    xs = [x for x, _ in piece.polygon]
    ys = [y for _, y in piece.polygon]
    return (min(xs), min(ys), max(xs), max(ys))


def _apart(piece: TerrainShape, x0: float, y0: float, x1: float, y1: float) -> bool:
    """The box (x0, y0)-(x1, y1) lies clear of the piece's bounding box: nothing within it can touch the piece."""
    bx0, by0, bx1, by1 = bounds(piece)
    return x1 < bx0 - EPS or x0 > bx1 + EPS or y1 < by0 - EPS or y0 > by1 + EPS


def pieces_with(state: GameState, trait: str) -> list[TerrainShape]:
    """Terrain pieces with ``trait``."""
    return [t for t in state.terrain if trait in t.traits]


def elevated_pieces(state: GameState) -> list[TerrainShape]:
    """Pieces models may stand on: ``elevated``, a height above 0, not impassable."""
    return [t for t in state.terrain if ELEVATED in t.traits and t.height > 0 and IMPASSABLE not in t.traits]


def height_at(state: GameState, p: XY) -> float:
    """Inches above the table of the ground at ``p``: the top of the highest elevated piece whose outline covers
    it (inside, not on the edge), else 0 (docs/rulings.md "AoF Skirmish": elevation)."""
    best = 0.0
    pt = Point(p)
    for t in elevated_pieces(state):
        if t.height > best and outline(t).contains(pt):
            best = t.height
    return best


def base_in(piece: TerrainShape, p: XY, r: float, fully: bool = False) -> bool:
    """The base at ``p`` overlaps the piece (``fully``: lies wholly inside it)."""
    if _apart(piece, p[0] - r, p[1] - r, p[0] + r, p[1] + r):
        return False
    poly = outline(piece)
    disc = Point(p).buffer(r, 16)
    if fully:
        return bool(poly.contains(disc))
    return bool(poly.intersects(disc)) and float(poly.intersection(disc).area) > 1e-6


def crosses(piece: TerrainShape, a: XY, b: XY, r: float) -> bool:
    """A base of radius ``r`` moving straight from ``a`` to ``b`` touches the piece on the way."""
    if _apart(piece, min(a[0], b[0]) - r, min(a[1], b[1]) - r, max(a[0], b[0]) + r, max(a[1], b[1]) + r):
        return False
    line = LineString([a, b]) if a != b else Point(a)
    return bool(line.buffer(r, 8).intersection(outline(piece)).area > 1e-6)


def sight(state: GameState, a: XY, b: XY) -> bool:
    """Line of sight between two model centres: no ``blocking`` piece crosses the line, no ``see_into_not_through``
    piece (forests) lies between them unless one of the two stands in it, and no elevated ground (``height_at``)
    crosses it above both models' feet; a piece lower than where the higher of the two stands does not block
    (looking down over it), and a model standing on an elevated piece sees out over its edge (docs/rulings.md
    "AoF Skirmish": line of sight, elevation)."""
    line = LineString([a, b])
    za, zb = height_at(state, a), height_at(state, b)
    top = max(za, zb)
    for piece in state.terrain:
        elevated = ELEVATED in piece.traits and piece.height > 0 and IMPASSABLE not in piece.traits
        if not (BLOCKING in piece.traits or SEE_INTO_NOT_THROUGH in piece.traits or elevated):
            continue
        if piece.height < top - 1e-9:
            continue
        poly = outline(piece)
        if not line.intersects(poly) or line.intersection(poly).length <= 1e-6:
            continue
        inside = poly.covers(Point(a)) or poly.covers(Point(b))
        if elevated and inside:
            continue                    # standing on it: it sees out over the edge
        if BLOCKING in piece.traits:
            return False
        if SEE_INTO_NOT_THROUGH in piece.traits and not inside:
            return False
        if elevated and max(za, zb) < piece.height - 1e-9:
            return False
    return True


def model_in_cover(state: GameState, p: XY, r: float, shooters: Iterable[XY], single: bool) -> bool:
    """"Cover Terrain": the model is fully inside cover terrain (a single model: mostly, its centre inside), or
    behind a sight blocker, cover piece or elevated ground from the shooters (the line from every shooting model to
    it crosses a piece it does not stand in, and that is not lower than where every shooting model stands;
    docs/rulings.md)."""
    for piece in state.terrain:
        if COVER in piece.traits:
            if single and outline(piece).contains(Point(p)):
                return True
            if base_in(piece, p, r, fully=True):
                return True
    shooters = list(shooters)
    if not shooters:
        return False
    highest = min(height_at(state, s) for s in shooters)
    for piece in state.terrain:
        if not ({COVER, BLOCKING, SEE_INTO_NOT_THROUGH, ELEVATED} & piece.traits) or IMPASSABLE in piece.traits and \
                BLOCKING not in piece.traits:
            continue
        if piece.height < highest - 1e-9:
            continue            # every firing model looks down over it (docs/rulings.md: elevation)
        poly = outline(piece)
        if poly.contains(Point(p)):
            continue
        if all(not poly.contains(Point(s)) and LineString([s, p]).intersects(poly) for s in shooters):
            return True
    return False


def free_spot(state: GameState, unit_id: str, index: int, p: XY, r: float, others: dict[str, list[XY]]
              ) -> str | None:
    """Why model ``index`` of ``unit_id`` can't stand at ``p`` (radius ``r``), or None: on the table, not on
    impassable terrain, no base overlapping another (``others``: every unit's model centres as they will be)."""
    if not on_table(state, p, r):
        return "off the table"
    for piece in pieces_with(state, IMPASSABLE):
        if base_in(piece, p, r):
            return f"on {piece.name} (impassable)"
    for uid, pts in others.items():
        ro = base_radius(state.units[uid].profile)
        for j, q in enumerate(pts):
            if uid == unit_id and j == index:
                continue
            if gap(p, r, q, ro) < -1e-3:
                return f"overlapping a model of {state.units[uid].name}"
    return None


def _to_segment(q: XY, a: XY, b: XY) -> float:
    """Inches from ``q`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / length2))
    return math.hypot(q[0] - (a[0] + t * dx), q[1] - (a[1] + t * dy))


def path_through(state: GameState, unit_id: str, a: XY, b: XY, r: float) -> str | None:
    """The name of a unit whose model's base a base of radius ``r`` moving straight from ``a`` to ``b`` passes
    through (the models of ``unit_id`` itself excepted), or None: only Flying "may move through units"."""
    for uid, pts in all_points(state).items():
        if uid == unit_id:
            continue
        ro = base_radius(state.units[uid].profile)
        if any(_to_segment(q, a, b) < r + ro - 1e-3 for q in pts):
            return state.units[uid].name
    return None


def all_points(state: GameState) -> dict[str, list[XY]]:
    """Model centres of every unit on the table, by unit id."""
    w = warband_of(state)
    return {uid: [m.xy for m in ms] for uid, ms in w.models.items() if ms and state.units[uid].on_table}


def state_dict(state: GameState, unit: Unit) -> dict[str, Any]:
    """The state file's per-model key of a unit (docs/formats.md "AoF: Skirmish"): ``models_at``, a list of
    ``{x, y, wounds}``, present for a unit on the table."""
    w = state.activation
    if not isinstance(w, Warband) or not w.models.get(unit.id) or not unit.on_table:
        return {}
    return {"models_at": [{"x": round(m.x, 4), "y": round(m.y, 4), "wounds": m.wounds}
                          | ({"command": m.command} if m.command else {}) for m in w.models[unit.id]]}


def new_models(unit: Unit, points: Sequence[XY]) -> list[LooseModel]:
    """The models of ``unit`` placed at ``points`` (inches): the first carries the unit's command group upgrade, if
    it has one ("Command Groups": one model per upgrade; docs/rulings.md "AoF Skirmish": command models)."""
    upgrade = min(unit.upgrades) if unit.upgrades else None
    return [LooseModel(x, y, command=upgrade if i == 0 else None) for i, (x, y) in enumerate(points)]


def has_command(state: GameState, unit: Unit, upgrade: str) -> bool:
    """Whether ``unit`` has the rule of the Musician or Banner ``upgrade`` now (``Warband.inspired``)."""
    w = state.activation
    return isinstance(w, Warband) and unit.id in w.inspired.get(upgrade, [])


def models_killed(state: GameState, unit: Unit, killed: Iterable[LooseModel]) -> list[str]:
    """"Command Groups": when the model carrying a Musician or Banner is killed, its unit and the picked units that
    are deployed (on the table) lose the rule; the ones still set aside keep it. Returns the upgrades lost."""
    w = state.activation
    lost: list[str] = []
    if not isinstance(w, Warband):
        return lost
    for m in killed:
        if m.command in PICKING_UPGRADES and m.command in w.inspired:
            w.inspired[m.command] = [u for u in w.inspired[m.command] if state.units[u].player != unit.player
                                     or (u != unit.id and not state.units[u].on_table)]
            lost.append(m.command)
    return lost


def command_index(state: GameState, unit: Unit, upgrade: str) -> int | None:
    """Index among ``unit``'s living models of the one carrying ``upgrade``; None when it has none (or it was
    killed)."""
    w = state.activation
    if not isinstance(w, Warband):
        return None
    return next((i for i, m in enumerate(w.models.get(unit.id, [])) if m.command == upgrade), None)
