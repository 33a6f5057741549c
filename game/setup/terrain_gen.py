"""Terrain generation: a table of terrain pieces from a seed, following the rulebooks' placement advice.

``generate_table(seed, width, depth, style, pieces)`` returns a list of ``TerrainPieceSpec`` (name, kind, traits and
an outline given as a polygon or a rect, in inches) ready for a scenario (``TerrainPieceSpec.to_scenario``) or the
engine (``TerrainPieceSpec.to_shape``). ``generate_layout`` returns the same pieces with notes on the set-up rolls
(the style and restriction rolled, pieces removed for lack of room).

Set-up is not part of the game: the generator uses its own ``random.Random(seed)`` for its "dice" and choices,
never the engine's ``Dice``; the same seed and arguments always give the same table.

Styles (``STYLES``):

``guidelines`` (AoWFBR 1.4 "Terrain Setup Guidelines", "Terrain Overview", "Terrain Placement"), the default:
    12 to 15 pieces on a 6'x4' table (at least 10; scaled with the table's area), and up to ``MAX_EXTRA`` more when
    they do not yet "fully cover at least 25% of the table" (``COVERAGE``), chosen so that at least half block line
    of sight (buildings, mountains, forests), at least a third give cover and at least a third are difficult, plus
    exactly two dangerous pieces (lava), one in each player's half ("each player should pick 1 piece to be
    dangerous"). Scatter terrain (barricades, rubble) is 1"-3" across, large terrain 4"-12". The table is cut into
    columns of random widths and each column into cells of random heights, one piece per cell, each piece at least
    3" inside the borders its cell shares with others: every two pieces are at least 6" apart (so large units fit
    through), and no gap between pieces is over 12" (the longest link of the minimum spanning tree of the gaps
    between pieces; a table that breaks it is drawn again). All pieces lie fully on the table. With ``pieces``
    given, that many pieces are placed and the 25% is not required.

AoF:R 2.16 advanced rules, "Terrain Placement Styles" (terrain chosen by the book's "Terrain Selection" method
unless ``pieces`` is given: 2 impassable, 2 forests or fields, 2 hills or fields, then 2D3 more rolled on 2D6;
every piece 4"-8" across, barricades as walls 4"-6" long). In every style pieces are at least 6" apart and a piece
that cannot be placed is removed:

``random`` (1. Random)
    The table is divided into six sections (2'x2' on a 6'x4' table). Each piece is put at the centre of a section
    rolled on a die, then moved 2D6" toward the centre of another rolled section, stopping where it is still at
    least 6" from the other pieces (if it starts too close it goes on until it is clear, within the 2D6").
``alternating_free`` (2. Alternating (Free))
    Players roll off and alternate placing one piece each anywhere (``placed_by`` records who).
``alternating_restricted`` (3. Alternating (Restricted))
    As Alternating (Free), with one restriction rolled on a die (``RESTRICTIONS``): 1 none within 12" of the table
    centre; 2 none within 12" of a table edge; 3 the first at the centre, the rest more than 12" from it; 4 the first
    at the centre, the rest within 9" of a piece already placed; 5 the first four each within 12" of a different
    table corner; 6 the first four each in a different table quarter.
``full_table`` (4. Full Table)
    The roll-off winner places every piece, at least 6" from each other and from the table edges.
``two_halves`` (5. Two Halves)
    The roll-off winner picks a diagonal and a half; players alternate placing pieces on their own half, at least 6"
    from other pieces and the table edges.
``six_squares`` (6. Six Squares)
    Players alternate placing one piece each fully inside a section rolled on a die.
``roll``
    Roll a die for one of the six styles above ("To select a random placement style, roll one die").

Where players would choose positions the generator stands in for them, spreading pieces out (of a few random legal
spots it takes the one farthest from the pieces already placed). The docs/rulings.md section "Set-up and deployment"
lists these interpretations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely import Point as ShapelyPoint
from shapely import Polygon, box

from game.terrain_kinds import KIND_HEIGHT, KIND_TRAITS, blocks_sight
from geometry.pose import Point
from geometry.terrain import COVER, DANGEROUS, DIFFICULT, TerrainShape, rect_to_polygon

STYLES: tuple[str, ...] = (
    "guidelines", "random", "alternating_free", "alternating_restricted", "full_table", "two_halves", "six_squares",
    "roll",
)
"""Every ``style`` value ``generate_table`` accepts (see the module docstring)."""

AOFR_STYLES: tuple[str, ...] = ("random", "alternating_free", "alternating_restricted", "full_table", "two_halves",
                                "six_squares")
"""The AoF:R "Terrain Placement Styles" in the book's order: a die roll of 1-6 picks one (style ``roll``)."""

STYLE_NAMES: dict[str, str] = {
    "guidelines": "AoWFBR terrain guidelines",
    "random": "Random",
    "alternating_free": "Alternating (Free)",
    "alternating_restricted": "Alternating (Restricted)",
    "full_table": "Full Table",
    "two_halves": "Two Halves",
    "six_squares": "Six Squares",
    "roll": "Rolled style",
}
"""Display names of the styles."""

RESTRICTIONS: dict[int, str] = {
    1: "No pieces of terrain may be placed within 12\" of the center of the table.",
    2: "No pieces of terrain may be placed within 12\" of the edge of the table.",
    3: "The first piece goes at the center of the table; the rest must be more than 12\" away from it.",
    4: "The first piece goes at the center of the table; the rest must be within 9\" of a piece already placed.",
    5: "The first 4 pieces go each within 12\" of a different table corner; the rest anywhere.",
    6: "The first 4 pieces go each in a different table quarter; the rest anywhere.",
}
"""AoF:R "Alternating (Restricted)": the restriction for each roll of a die."""

MIN_GAP = 6.0
"""Inches: terrain pieces at least this far apart ("gaps of at least 6" between terrain, so they can fit through";
AoF:R "at least 6" away from each other")."""
MAX_GAP = 12.0
"""Inches: AoWFBR "Terrain Placement": no gaps bigger than 12" between different terrain pieces."""
SCATTER_SIZE = (1.0, 3.0)
"""Inches: AoWFBR "Terrain Overview": small scatter terrain between 1"x1" and 3"x3"."""
LARGE_SIZE = (4.0, 12.0)
"""Inches: AoWFBR "Terrain Overview": large features 4"x4" to 8"x8", up to 12"x12"."""
COVERAGE = 0.25
"""AoWFBR "Terrain Placement": "enough terrain ... to fully cover at least 25% of the table" (guidelines style)."""
MAX_EXTRA = 5
"""Pieces the guidelines style may add to its 12-15 to reach ``COVERAGE``."""
SCATTER_KINDS: frozenset[str] = frozenset({"barricade", "rubble"})
"""Kinds generated as scatter terrain in the ``guidelines`` style."""

_EPS = 1e-6
_ROUND = 2  # decimals kept for coordinates (1/100 inch)


@dataclass(frozen=True)
class RectSpec:
    """A rectangle terrain outline: centre (x, y), ``width`` along x and ``depth`` along y (inches), turned
    clockwise by ``angle`` degrees (scenario ``rect``)."""

    x: float
    y: float
    width: float
    depth: float
    angle: float = 0.0

    def outline(self) -> tuple[Point, ...]:
        """Its corners, exactly as the scenario loader computes them (``geometry.terrain.rect_to_polygon``)."""
        return rect_to_polygon(self.x, self.y, self.width, self.depth, self.angle)


@dataclass(frozen=True)
class TerrainPieceSpec:
    """One generated terrain piece: what a scenario's ``terrain[]`` entry holds.

    Exactly one of ``polygon`` and ``rect`` is set. Coordinates are inches, rounded to 1/100".
    """

    name: str
    """Name shown to players."""
    kind: str
    """Terrain kind (``game.terrain_kinds.KINDS``): sets the colour and default traits."""
    traits: frozenset[str]
    """Terrain rules of the piece (here always the kind's defaults)."""
    polygon: tuple[Point, ...] | None = None
    """Outline as points in order around the piece, or None for a rect."""
    rect: RectSpec | None = None
    """Rectangle outline, or None for a polygon."""
    height: float | None = None
    """Height in inches, or None for the kind's default."""
    placed_by: int | None = None
    """The player who placed it in styles where players alternate (informative), else None."""

    def outline(self) -> tuple[Point, ...]:
        """The outline's points, inches."""
        if self.rect is not None:
            return self.rect.outline()
        assert self.polygon is not None
        return self.polygon

    def shape(self) -> Polygon:
        """The outline as a shapely polygon."""
        return Polygon(self.outline())

    def to_scenario(self) -> dict[str, Any]:
        """The scenario ``terrain[]`` mapping (docs/formats.md): name, kind, traits only if they differ from the
        kind's defaults, rect or polygon, height only if it differs from the kind's default."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.traits != KIND_TRAITS[self.kind]:
            out["traits"] = sorted(self.traits)
        if self.rect is not None:
            r = self.rect
            out["rect"] = {"x": r.x, "y": r.y, "width": r.width, "depth": r.depth, "angle": r.angle}
        else:
            assert self.polygon is not None
            out["polygon"] = [[x, y] for x, y in self.polygon]
        if self.height is not None and self.height != KIND_HEIGHT[self.kind]:
            out["height"] = self.height
        return out

    def to_shape(self, index: int) -> TerrainShape:
        """The engine's terrain piece at position ``index``."""
        height = self.height if self.height is not None else KIND_HEIGHT[self.kind]
        return TerrainShape(index, self.name, self.outline(), self.traits, height)


@dataclass
class TerrainLayout:
    """A generated table: the pieces and what happened while setting them up."""

    style: str
    """The style used (for ``roll``: the style rolled)."""
    pieces: list[TerrainPieceSpec]
    """The pieces placed, in placement order."""
    notes: list[str] = field(default_factory=list)
    """Set-up rolls and events in words (style rolled, restriction, pieces removed)."""
    restriction: int | None = None
    """The Alternating (Restricted) restriction used (1-6), else None."""


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def generate_table(seed: int, width: float = 72, depth: float = 48, style: str = "guidelines",
                   pieces: int | None = None) -> list[TerrainPieceSpec]:
    """Terrain pieces for a ``width`` x ``depth`` inch table, reproducible from ``seed``.

    ``style``: one of ``STYLES`` (module docstring). ``pieces``: how many pieces to take (the ``guidelines`` style
    needs at least 10; AoF:R styles at least 1; pieces that do not fit are removed in AoF:R styles); None for the
    book's method. Raises ``ValueError`` for an unknown style, a bad count or a table too small (under 24" x 24").
    """
    return generate_layout(seed, width, depth, style, pieces).pieces


def generate_layout(seed: int, width: float = 72, depth: float = 48, style: str = "guidelines",
                    pieces: int | None = None, restriction: int | None = None) -> TerrainLayout:
    """Like ``generate_table`` but returns the ``TerrainLayout`` with notes on the set-up rolls.

    ``restriction``: for ``alternating_restricted``, the restriction 1-6 to use instead of rolling it.
    """
    if style not in STYLES:
        raise ValueError(f"unknown terrain style {style!r}; styles: {', '.join(STYLES)}")
    if not (24 <= width <= 240 and 24 <= depth <= 240):
        raise ValueError(f"the table must be 24\" to 240\" each way, got {width:g} x {depth:g}")
    if pieces is not None and not (1 <= pieces <= 40):
        raise ValueError(f"pieces must be 1 to 40, got {pieces}")
    if restriction is not None and restriction not in RESTRICTIONS:
        raise ValueError(f"restriction must be 1 to 6, got {restriction}")
    rng = random.Random(seed)
    gen = _Generator(rng, float(width), float(depth))
    notes: list[str] = []
    if style == "roll":
        die = gen.die()
        style = AOFR_STYLES[die - 1]
        notes.append(f"Placement style rolled: {die} = {STYLE_NAMES[style]}")
    if style == "guidelines":
        if pieces is not None and pieces < 10:
            raise ValueError(f"the AoWFBR guidelines call for at least 10 pieces of terrain, got {pieces}")
        return gen.guidelines(pieces, notes)
    kinds = gen.aofr_selection(pieces, notes)
    return gen.aofr(style, kinds, notes, restriction)


# ---------------------------------------------------------------------------------------------------------------
# Measurements (used by the tests and the set-up window)
# ---------------------------------------------------------------------------------------------------------------


def gaps(pieces: Sequence[TerrainPieceSpec]) -> list[list[float]]:
    """Matrix of the shortest distances between the pieces' outlines, inches (0 on the diagonal)."""
    shapes = [p.shape() for p in pieces]
    n = len(shapes)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            d = float(shapes[i].distance(shapes[j]))
            out[i][j] = out[j][i] = d
    return out


def min_gap(pieces: Sequence[TerrainPieceSpec]) -> float:
    """The smallest gap between two pieces, inches (``inf`` with fewer than two)."""
    g = gaps(pieces)
    return min((g[i][j] for i in range(len(g)) for j in range(i + 1, len(g))), default=math.inf)


def max_gap(pieces: Sequence[TerrainPieceSpec]) -> float:
    """The largest gap that must be crossed to get from any piece to any other hopping between pieces: the longest
    link of the minimum spanning tree of the gaps, inches (0 with fewer than two pieces). AoWFBR "Terrain
    Placement": no gaps bigger than 12" between different terrain pieces."""
    g = gaps(pieces)
    n = len(g)
    if n < 2:
        return 0.0
    best = [math.inf] * n
    done = [False] * n
    best[0] = 0.0
    longest = 0.0
    for _ in range(n):
        i = min((k for k in range(n) if not done[k]), key=lambda k: best[k])
        done[i] = True
        longest = max(longest, best[i])
        for k in range(n):
            if not done[k] and g[i][k] < best[k]:
                best[k] = g[i][k]
    return longest


def _cuts(rng: random.Random, length: float, parts: int, spread: float) -> list[float]:
    """``parts + 1`` increasing positions from 0 to ``length``: parts of random sizes, each within ``spread`` of
    the even share (so the grid of the guidelines style does not look like a grid)."""
    weights = [rng.uniform(1 - spread, 1 + spread) for _ in range(parts)]
    total = sum(weights)
    out = [0.0]
    for w in weights:
        out.append(out[-1] + length * w / total)
    out[-1] = length
    return out


def _outline(shape: str, a: float, b: float, angle: float, jitter: Sequence[float], phase: float,
             squareness: float = 2.0) -> list[Point]:
    """The outline of a piece centred on (0, 0), ``a`` x ``b`` inches turned by ``angle`` degrees: a rectangle
    (``rect``, ``wall``), or a jittered superellipse of exponent ``squareness`` (``blob``: 2 is an ellipse, more is
    squarer; star-shaped about the centre, so always a simple polygon)."""
    if shape in ("rect", "wall"):
        return list(rect_to_polygon(0.0, 0.0, a, b, angle))
    rad = math.radians(angle)
    pts = []
    e = 2.0 / squareness
    for i, j in enumerate(jitter):
        t = phase + 2 * math.pi * i / len(jitter)
        c, s = math.cos(t), math.sin(t)
        u = a / 2 * j * math.copysign(abs(c) ** e, c)
        v = b / 2 * j * math.copysign(abs(s) ** e, s)
        pts.append((u * math.cos(rad) - v * math.sin(rad), u * math.sin(rad) + v * math.cos(rad)))
    return pts


def coverage(pieces: Sequence[TerrainPieceSpec], width: float = 72, depth: float = 48) -> float:
    """Fraction of the table covered by the pieces (0..1)."""
    return float(sum(p.shape().area for p in pieces)) / (width * depth)


def trait_counts(pieces: Sequence[TerrainPieceSpec]) -> dict[str, int]:
    """How many pieces block line of sight (``blocking``: blocking or forest-like), give ``cover``, are
    ``difficult`` or ``dangerous`` (AoWFBR "Terrain Placement" recommendations)."""
    return {
        "blocking": sum(1 for p in pieces if blocks_sight(p.traits)),
        "cover": sum(1 for p in pieces if COVER in p.traits),
        "difficult": sum(1 for p in pieces if DIFFICULT in p.traits),
        "dangerous": sum(1 for p in pieces if DANGEROUS in p.traits),
    }


def piece_size(piece: TerrainPieceSpec) -> tuple[float, float]:
    """(shorter, longer) side of the smallest rectangle around the piece, inches ("Terrain Overview" sizes)."""
    rect = shapely.minimum_rotated_rectangle(piece.shape())
    xs, ys = rect.exterior.coords.xy
    a = math.hypot(xs[1] - xs[0], ys[1] - ys[0])
    b = math.hypot(xs[2] - xs[1], ys[2] - ys[1])
    return (min(a, b), max(a, b))


# ---------------------------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------------------------

_NAMES: dict[str, tuple[str, ...]] = {
    "forest": ("Old Forest", "Pinewood", "Thornwood", "Dark Copse", "Alder Grove", "Blackwood", "Oakholt",
               "Wolfwood"),
    "building": ("Farmhouse", "Watchtower", "Old Chapel", "Mill", "Barn", "Toll House", "Manor", "Granary"),
    "mountain": ("Crag", "Rock Spur", "Stone Tor", "Cliffs"),
    "hill": ("Low Hill", "Barrow", "Knoll", "Ridge", "Beacon Hill"),
    "field": ("Wheat Field", "Barley Field", "Orchard", "Vineyard", "Turnip Field"),
    "lake": ("Pond", "Mere", "Tarn", "Millpond"),
    "lava": ("Lava Pool", "Ember Pit", "Fire Vent", "Brimstone Pit"),
    "ruins": ("Ruins", "Broken Keep", "Old Shrine", "Fallen Tower"),
    "barricade": ("Barricade", "Stone Wall", "Palisade", "Hedge", "Fence"),
    "swamp": ("Marsh", "Bog", "Fen"),
    "rubble": ("Rubble", "Scree", "Boulders"),
}

# Shapes per kind: ("rect" | "blob", min size, max size) in inches, for the guidelines style.
_SIZES: dict[str, tuple[str, float, float]] = {
    "forest": ("blob", 5.5, 8.0),
    "building": ("rect", 4.0, 6.0),
    "mountain": ("blob", 6.0, 10.0),
    "hill": ("blob", 6.0, 9.0),
    "field": ("rect", 5.0, 8.0),
    "lake": ("blob", 5.0, 7.5),
    "lava": ("blob", 4.0, 6.0),
    "ruins": ("rect", 4.0, 6.0),
    "swamp": ("blob", 5.0, 7.5),
    "barricade": ("wall", 2.0, 3.0),
    "rubble": ("blob", 2.0, 3.0),
}

_AOFR_SIZES: dict[str, tuple[str, float, float]] = {
    **{k: v for k, v in _SIZES.items()},
    "mountain": ("blob", 6.0, 8.0),
    "hill": ("blob", 5.5, 8.0),
    "barricade": ("wall", 4.0, 6.0),
}

_BLOCKERS = (("forest", 5), ("building", 4), ("mountain", 1))
_OTHERS = (("hill", 4), ("field", 3), ("ruins", 2), ("barricade", 2), ("lake", 1), ("swamp", 1), ("rubble", 1),
           ("forest", 2))
_TWO_D6_TABLE = {2: "hill", 3: "hill", 4: "hill", 5: "lake", 6: "field", 7: "forest", 8: "ruins", 9: "barricade",
                 10: "barricade", 11: "impassable", 12: "impassable"}

Legal = Callable[[int, Polygon], bool]


class _Generator:
    """One table's generation: the rng, the table and helpers shared by the styles."""

    def __init__(self, rng: random.Random, width: float, depth: float) -> None:
        self.rng = rng
        self.width = width
        self.depth = depth
        self.table = box(0, 0, width, depth)
        self.name_use: dict[str, int] = {}

    # --- dice and choices -------------------------------------------------------------------------------------
    def die(self) -> int:
        """One D6 of the set-up (the generator's own rng, not the game's dice)."""
        return self.rng.randint(1, 6)

    def roll_off(self) -> int:
        """Players roll off, re-rolling ties; returns the winner (1 or 2)."""
        while True:
            a, b = self.die(), self.die()
            if a != b:
                return 1 if a > b else 2

    def weighted(self, table: Sequence[tuple[str, int]]) -> str:
        return self.rng.choices([k for k, _ in table], weights=[w for _, w in table])[0]

    def name(self, kind: str) -> str:
        n = self.name_use.get(kind, 0)
        self.name_use[kind] = n + 1
        pool = _NAMES.get(kind, (kind.capitalize(),))
        if n < len(pool):
            return pool[n]
        return f"{pool[n % len(pool)]} {n // len(pool) + 1}"

    # --- outlines ---------------------------------------------------------------------------------------------
    def outline_maker(self, kind: str, sizes: dict[str, tuple[str, float, float]], scale: float = 1.0,
                      limits: tuple[float, float] = LARGE_SIZE) -> Callable[[float, float, float], TerrainPieceSpec]:
        """A function (x, y, angle) -> piece of ``kind`` with a size drawn now (the same size at every spot).

        ``scale`` multiplies the kind's sizes; the piece's shorter side stays at least ``limits[0]`` and its longer
        side at most ``limits[1]`` inches (walls: their length)."""
        shape, lo, hi = sizes[kind]
        floor, cap = limits
        rng = self.rng
        name = self.name(kind)
        traits = KIND_TRAITS[kind]
        if shape == "rect":
            w = rng.uniform(lo, hi) * scale
            d = rng.uniform(lo, min(hi, w / scale + 2.0)) * scale
            w, d = (round(min(cap, max(floor, v)), _ROUND) for v in (w, d))

            def make_rect(x: float, y: float, angle: float) -> TerrainPieceSpec:
                return TerrainPieceSpec(name, kind, traits, rect=RectSpec(round(x, _ROUND), round(y, _ROUND), w, d,
                                                                          round(angle % 360.0, 1)))
            return make_rect
        if shape == "wall":
            length = round(min(cap, max(floor, rng.uniform(lo, hi) * scale)), _ROUND)
            thick = 1.0

            def make_wall(x: float, y: float, angle: float) -> TerrainPieceSpec:
                return TerrainPieceSpec(name, kind, traits, rect=RectSpec(round(x, _ROUND), round(y, _ROUND), length,
                                                                          thick, round(angle % 360.0, 1)))
            return make_wall
        # blob: a jittered ellipse, star-shaped about its centre (always a simple polygon)
        size_a = rng.uniform(lo, hi) * scale
        size_b = rng.uniform(max(lo * scale, size_a * 0.7), size_a)
        n = rng.randint(7, 10)
        jitter = [rng.uniform(0.88, 1.0) for _ in range(n)]
        phase = rng.uniform(0, 2 * math.pi / n)

        def make_blob(x: float, y: float, angle: float) -> TerrainPieceSpec:
            rad = math.radians(angle)
            pts = []
            for i in range(n):
                t = phase + 2 * math.pi * i / n
                u, v = size_a / 2 * jitter[i] * math.cos(t), size_b / 2 * jitter[i] * math.sin(t)
                px = x + u * math.cos(rad) - v * math.sin(rad)
                py = y + u * math.sin(rad) + v * math.cos(rad)
                pts.append((round(px, _ROUND), round(py, _ROUND)))
            return TerrainPieceSpec(name, kind, traits, polygon=tuple(pts))

        # Keep the outline's smallest enclosing rectangle within the limits (jitter and scale may push it out).
        short, long = piece_size(make_blob(0.0, 0.0, 0.0))
        stretch = max(1.0, (floor + 0.05) / short) if short < floor else min(1.0, (cap - 0.05) / long)
        size_a, size_b = size_a * stretch, size_b * stretch
        return make_blob

    # --- placement --------------------------------------------------------------------------------------------
    def on_table(self, poly: Polygon, margin: float = 0.0) -> bool:
        """True if ``poly`` lies fully on the table, at least ``margin`` inches from every edge."""
        minx, miny, maxx, maxy = (float(v) for v in poly.bounds)
        return bool(minx >= margin - _EPS and miny >= margin - _EPS and maxx <= self.width - margin + _EPS
                and maxy <= self.depth - margin + _EPS)

    def nearest(self, poly: Polygon, placed: list[Polygon]) -> float:
        """Gap from ``poly`` to the closest placed piece, inches (inf when none)."""
        if not placed:
            return math.inf
        return float(shapely.distance(poly, placed).min())

    def place_best(self, make: Callable[[float, float, float], TerrainPieceSpec], placed: list[Polygon],
                   legal: Callable[[Polygon], bool], region: tuple[float, float, float, float] | None = None,
                   candidates: int = 8, attempts: int = 400, cap: float = math.inf,
                   fixed: Point | None = None, target: float | None = None,
                   sampler: Callable[[], Point] | None = None) -> TerrainPieceSpec | None:
        """Try random spots (centres in ``region``, x0 y0 x1 y1; the table by default; or the ``fixed`` centre with
        random turns) and keep, of the first ``candidates`` legal ones, the one farthest from the pieces placed
        (gaps counted up to ``cap``), or with ``target`` the one whose gap to the nearest piece is closest to
        ``target`` inches. ``sampler`` proposes centres instead of ``region``. None if no legal spot was found in
        ``attempts`` tries. Pieces off the table are never legal."""
        x0, y0, x1, y1 = region or (0.0, 0.0, self.width, self.depth)
        best: tuple[float, TerrainPieceSpec] | None = None
        found = 0
        for _ in range(attempts):
            if fixed is not None:
                x, y = fixed
            elif sampler is not None:
                x, y = sampler()
            else:
                x, y = self.rng.uniform(x0, x1), self.rng.uniform(y0, y1)
            spec = make(x, y, self.rng.uniform(0, 180))
            pts = spec.outline()
            if min(q[0] for q in pts) < -_EPS or min(q[1] for q in pts) < -_EPS or \
                    max(q[0] for q in pts) > self.width + _EPS or max(q[1] for q in pts) > self.depth + _EPS:
                continue
            poly = spec.shape()
            if not poly.is_valid or not legal(poly):
                continue
            gap = min(self.nearest(poly, placed), cap)
            score = gap + self.rng.uniform(0, 0.5) if target is None else -abs(gap - target)
            if best is None or score > best[0]:
                best = (score, spec)
            found += 1
            if found >= candidates:
                break
        return None if best is None else best[1]

    # --- AoWFBR guidelines ------------------------------------------------------------------------------------
    def guideline_kinds(self, n: int) -> list[str]:
        """Kinds for ``n`` pieces: 2 lava (dangerous), the rest drawn until at least half block line of sight and
        at least a third give cover and a third are difficult (AoWFBR "Terrain Placement")."""
        need_block, need_third = math.ceil(n / 2), math.ceil(n / 3)
        for _ in range(200):
            kinds = [self.weighted(_BLOCKERS) for _ in range(need_block)]
            kinds += [self.weighted(_OTHERS) for _ in range(n - 2 - need_block)]
            traits = [KIND_TRAITS[k] for k in kinds]
            if sum(1 for t in traits if COVER in t) >= need_third and \
                    sum(1 for t in traits if DIFFICULT in t) >= need_third and \
                    sum(1 for t in traits if blocks_sight(t)) >= need_block:
                return kinds + ["lava", "lava"]
        return ["forest"] * (n - 2) + ["lava", "lava"]  # pragma: no cover - forests meet every count

    def guidelines(self, pieces: int | None, notes: list[str]) -> TerrainLayout:
        """The AoWFBR guidelines table: ``pieces`` pieces, or 12-15 (scaled with the table's area) and as many more
        as it takes to cover ``COVERAGE`` of the table ("take as many pieces of terrain as you need to fully cover at
        least 25% of the table")."""
        area = self.width * self.depth / (72.0 * 48.0)
        first = pieces if pieces is not None else max(10, round(self.rng.randint(12, 15) * area))
        counts = [first] if pieces is not None else list(range(first, first + MAX_EXTRA + 1))
        for n in counts:
            kinds = self.guideline_kinds(n)
            self.rng.shuffle(kinds)
            for _ in range(60):
                self.name_use = {}
                out = self._guidelines_grid(kinds)
                if out is None or max_gap(out) > MAX_GAP:
                    continue
                covered = coverage(out, self.width, self.depth)
                if covered >= COVERAGE or pieces is not None:
                    notes.append(f"{n} pieces ({', '.join(sorted(set(kinds)))}), covering {covered:.0%} of the table")
                    return TerrainLayout("guidelines", out, notes)
        raise ValueError(f"could not fit {first} pieces of terrain on a {self.width:g}\" x {self.depth:g}\" table "
                         f"6\" apart" + ("" if pieces is not None else f" covering {COVERAGE:.0%} of it"))

    def grid(self, n: int) -> tuple[int, int]:
        """(columns, rows) of the cells the guidelines style spreads ``n`` pieces over: cells as square as the table
        allows; some columns may hold one cell less (``n`` need not be columns x rows)."""
        best: tuple[float, int, int] | None = None
        for cols in range(1, n + 1):
            rows = math.ceil(n / cols)
            score = abs(math.log((self.width / cols) / (self.depth / rows))) + (0.3 if cols * rows > n else 0.0)
            if best is None or score < best[0]:
                best = (score, cols, rows)
        assert best is not None
        return best[1], best[2]

    def _guidelines_grid(self, kinds: list[str]) -> list[TerrainPieceSpec] | None:
        """One try at the guidelines table: the table cut into columns of random widths, each column into cells of
        random heights (staggered), one piece in each cell (a few cells may stay empty), every piece inside its cell
        at least 3" from the borders it shares with other cells, so that neighbours are at least 6" apart ("gaps of
        at least 6" between terrain"); large pieces fill most of their cell, toward "at least 25% of the table"; the
        two lava pieces in cells of opposite halves. None when it does not fit."""
        n = len(kinds)
        cols, rows = self.grid(n)
        xs = _cuts(self.rng, self.width, cols, 0.3)
        taller = set(self.rng.sample(range(cols), n % cols))   # columns with one cell more: no cell stays empty
        boxes = []        # each column cut into rows of its own (staggered), every cell (x0, y0, x1, y1)
        for c in range(cols):
            count = n // cols + (1 if c in taller else 0)
            ys = _cuts(self.rng, self.depth, count, 0.35)
            boxes += [(xs[c], ys[r], xs[c + 1], ys[r + 1]) for r in range(count)]
        half = self.depth / 2
        low = [b for b in boxes if b[3] <= half + _EPS]
        high = [b for b in boxes if b[1] >= half - _EPS]
        lava_idx = [i for i, k in enumerate(kinds) if k == "lava"]
        if len(lava_idx) > 2 or (lava_idx and (not low or not high)):
            return None
        chosen: dict[int, tuple[float, float, float, float]] = {}
        for i, pool in zip(lava_idx, (low, high), strict=False):
            chosen[i] = self.rng.choice(pool)
        free = [b for b in boxes if b not in chosen.values()]
        self.rng.shuffle(free)
        for i in range(n):
            if i not in chosen:
                chosen[i] = free.pop()
        half_gap = MIN_GAP / 2
        out: list[TerrainPieceSpec] = []
        for i, kind in enumerate(kinds):
            bx0, by0, bx1, by1 = chosen[i]     # 3" in from every border shared with another cell
            x0 = bx0 + (half_gap if bx0 > _EPS else 0.0)
            x1 = bx1 - (half_gap if bx1 < self.width - _EPS else 0.0)
            y0 = by0 + (half_gap if by0 > _EPS else 0.0)
            y1 = by1 - (half_gap if by1 < self.depth - _EPS else 0.0)
            spec = self._piece_in_box(kind, (x0, y0, x1, y1))
            if spec is None:
                return None
            out.append(spec)
        return out

    def _piece_in_box(self, kind: str, box: tuple[float, float, float, float]) -> TerrainPieceSpec | None:
        """A piece of ``kind`` inside ``box`` (x0, y0, x1, y1): scatter terrain 1"-3" at a random spot, large terrain
        filling 80-100% of the box's shorter side (at most 12", at least 4"), turned a little and shrunk until it
        fits."""
        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        lo, hi = SCATTER_SIZE if kind in SCATTER_KINDS else LARGE_SIZE
        if min(bw, bh) < lo:
            return None
        shape, _, _ = _SIZES[kind]
        if kind in SCATTER_KINDS:
            a = self.rng.uniform(2.0, 3.0)
            b = 1.0 if shape == "wall" else self.rng.uniform(2.0, a)
        else:
            a = min(hi, max(bw, bh)) * self.rng.uniform(0.8, 1.0)
            b = min(hi, min(bw, bh)) * self.rng.uniform(0.8, 1.0)
        angle = (0.0 if bw >= bh else 90.0) + self.rng.uniform(-20.0, 20.0)
        name, traits = self.name(kind), KIND_TRAITS[kind]
        jitter = [self.rng.uniform(0.93, 1.0) for _ in range(self.rng.randint(12, 16))]
        phase = self.rng.uniform(0, 2 * math.pi / len(jitter))
        squareness = self.rng.uniform(2.5, 3.5)
        for _ in range(40):
            outline = _outline(shape, a, b, angle, jitter, phase, squareness)
            xs, ys = [p[0] for p in outline], [p[1] for p in outline]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            if w <= bw - 0.05 and h <= bh - 0.05:
                break
            a, b = max(lo, a * 0.95), max(min(lo, b), b * 0.95)
        else:
            return None
        cx = self.rng.uniform(x0 - min(xs) + 0.02, x1 - max(xs) - 0.02)   # 0.02": room for rounding
        cy = self.rng.uniform(y0 - min(ys) + 0.02, y1 - max(ys) - 0.02)
        if shape in ("rect", "wall"):
            rect = RectSpec(round(cx, _ROUND), round(cy, _ROUND), round(a, _ROUND), round(b, _ROUND),
                            round(angle % 360, 1))
            spec = TerrainPieceSpec(name, kind, traits, rect=rect)
        else:
            spec = TerrainPieceSpec(name, kind, traits, polygon=tuple((round(cx + x, _ROUND), round(cy + y, _ROUND))
                                                                      for x, y in outline))
        poly = spec.shape()
        bx0, by0, bx1, by1 = (float(v) for v in poly.bounds)
        if bx0 < x0 - _EPS or by0 < y0 - _EPS or bx1 > x1 + _EPS or by1 > y1 + _EPS:
            return None   # rounding pushed it out: try again
        short, long = piece_size(spec)
        if short < lo - 0.05 or long > hi + 0.05:
            return None
        return spec

    # --- AoF:R terrain selection ------------------------------------------------------------------------------
    def impassable_kind(self) -> str:
        return "building" if self.rng.random() < 0.6 else "mountain"

    def aofr_selection(self, pieces: int | None, notes: list[str]) -> list[str]:
        """AoF:R "Terrain Selection": 2 impassable, 2 forests or fields, 2 hills or fields, then 2D3 more rolled on
        2D6 (2-4 hill, 5 lake, 6 field, 7 forest, 8 ruins, 9-10 barricade, 11-12 impassable). With ``pieces`` the
        first six are taken (fewer if ``pieces`` is under 6) and the rest rolled."""
        rng = self.rng
        base = [self.impassable_kind(), self.impassable_kind(),
                rng.choice(("forest", "field")), rng.choice(("forest", "field")),
                rng.choice(("hill", "field")), rng.choice(("hill", "field"))]
        if pieces is None:
            extra = (self.die() + 1) // 2 + (self.die() + 1) // 2
            notes.append(f"Terrain selection: 6 pieces and 2D3 = {extra} more")
        else:
            extra = max(0, pieces - 6)
            base = base[:pieces]
        for _ in range(extra):
            kind = _TWO_D6_TABLE[self.die() + self.die()]
            base.append(self.impassable_kind() if kind == "impassable" else kind)
        return base

    # --- AoF:R placement styles -------------------------------------------------------------------------------
    def sections(self) -> list[tuple[float, float, float, float]]:
        """Six sections (three across, two deep; 2'x2' on a 6'x4' table), numbered 1-6 from player 1's left."""
        w, d = self.width / 3, self.depth / 2
        return [(c * w, r * d, (c + 1) * w, (r + 1) * d) for r in range(2) for c in range(3)]

    def aofr(self, style: str, kinds: list[str], notes: list[str], restriction: int | None) -> TerrainLayout:
        rng = self.rng
        rng.shuffle(kinds)
        placed: list[Polygon] = []
        out: list[TerrainPieceSpec] = []
        winner = self.roll_off() if style != "random" else None
        if winner is not None:
            notes.append(f"Player {winner} wins the terrain roll-off")
        cx, cy = self.width / 2, self.depth / 2
        centre = ShapelyPoint(cx, cy)
        if style == "alternating_restricted":
            if restriction is None:
                restriction = self.die()
                notes.append(f"Restriction rolled: {restriction}. {RESTRICTIONS[restriction]}")
            else:
                notes.append(f"Restriction {restriction}: {RESTRICTIONS[restriction]}")
        diagonal = None
        if style == "two_halves":
            # The winner draws a line from one corner to the opposite one and picks a half.
            diagonal = rng.choice(("sw-ne", "nw-se"))
            first_half = rng.choice((0, 1))
            notes.append(f"Player {winner} draws the {diagonal} diagonal and takes "
                         f"{'the half above it' if first_half == 0 else 'the half below it'}")
        corners = [(0.0, 0.0), (self.width, 0.0), (0.0, self.depth), (self.width, self.depth)]
        quarters = [(0.0, 0.0, cx, cy), (cx, 0.0, self.width, cy), (0.0, cy, cx, self.depth),
                    (cx, cy, self.width, self.depth)]
        rng.shuffle(corners)
        rng.shuffle(quarters)
        sections = self.sections()
        for i, kind in enumerate(kinds):
            make = self.outline_maker(kind, _AOFR_SIZES, limits=(1.0, 8.0) if kind == "barricade" else (4.0, 8.0))
            player = None if winner is None else (winner if i % 2 == 0 else 3 - winner)
            if style == "full_table":
                player = winner

            def apart(poly: Polygon) -> bool:
                return self.nearest(poly, placed) >= MIN_GAP

            spec: TerrainPieceSpec | None
            if style == "random":
                spec = self.random_style_piece(make, placed, sections, notes)
            elif style == "six_squares":
                sec = self.die()
                section = sections[sec - 1]

                def in_section(p: Polygon, r: tuple[float, float, float, float] = section) -> bool:
                    return self.inside(p, r) and apart(p)
                spec = self.place_best(make, placed, in_section, section)
                if spec is not None:
                    notes.append(f"{spec.name}: section {sec}")
            elif style in ("full_table", "two_halves"):
                half_test: Callable[[Polygon], bool] = lambda p: True  # noqa: E731
                if diagonal is not None:
                    half = first_half if i % 2 == 0 else 1 - first_half
                    half_test = self.diagonal_half(diagonal, half)
                inner = (MIN_GAP, MIN_GAP, self.width - MIN_GAP, self.depth - MIN_GAP)

                def clear_of_edges(p: Polygon, h: Callable[[Polygon], bool] = half_test) -> bool:
                    return self.on_table(p, MIN_GAP) and apart(p) and h(p)
                spec = self.place_best(make, placed, clear_of_edges, inner, attempts=250)
            else:  # alternating_free / alternating_restricted
                assert style in ("alternating_free", "alternating_restricted")
                spec = self.restricted_piece(i, make, placed, restriction if style != "alternating_free" else None,
                                             centre, corners, quarters, out, apart)
            if spec is None:
                notes.append(f"{make(0, 0, 0).name} ({kind}) cannot be placed and is removed")
                continue
            if player is not None:
                spec = TerrainPieceSpec(spec.name, spec.kind, spec.traits, spec.polygon, spec.rect, spec.height,
                                        player)
            placed.append(spec.shape())
            out.append(spec)
        return TerrainLayout(style, out, notes, restriction if style == "alternating_restricted" else None)

    def inside(self, poly: Polygon, region: tuple[float, float, float, float]) -> bool:
        """True if ``poly`` lies fully inside ``region`` (x0, y0, x1, y1)."""
        minx, miny, maxx, maxy = (float(v) for v in poly.bounds)
        x0, y0, x1, y1 = region
        return bool(minx >= x0 - _EPS and miny >= y0 - _EPS and maxx <= x1 + _EPS and maxy <= y1 + _EPS)

    def diagonal_half(self, diagonal: str, half: int) -> Callable[[Polygon], bool]:
        """Test: the piece lies fully on one side (0: above/left, 1: below/right) of the corner-to-corner line."""
        w, d = self.width, self.depth

        def side(x: float, y: float) -> float:
            if diagonal == "sw-ne":  # from (0, 0) to (w, d)
                return (w * y - d * x) / math.hypot(w, d)
            return (w * (y - d) + d * x) / math.hypot(w, d)  # from (0, d) to (w, 0)

        def test(poly: Polygon) -> bool:
            vals = [side(x, y) for x, y in poly.exterior.coords]
            return all(v >= 0 for v in vals) if half == 0 else all(v <= 0 for v in vals)
        return test

    def random_style_piece(self, make: Callable[[float, float, float], TerrainPieceSpec], placed: list[Polygon],
                           sections: list[tuple[float, float, float, float]], notes: list[str]
                           ) -> TerrainPieceSpec | None:
        """AoF:R "Random": at the centre of a rolled section, then 2D6" toward the centre of another rolled section,
        stopping to stay at least 6" from other pieces."""
        a = self.die()
        b = self.die()
        while b == a:
            b = self.die()
        dist = float(self.die() + self.die())
        sa, sb = sections[a - 1], sections[b - 1]
        ax, ay = (sa[0] + sa[2]) / 2, (sa[1] + sa[3]) / 2
        bx, by = (sb[0] + sb[2]) / 2, (sb[1] + sb[3]) / 2
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        angle = self.rng.uniform(0, 180)

        def at(t: float) -> TerrainPieceSpec:
            return make(ax + ux * t, ay + uy * t, angle)

        def ok(spec: TerrainPieceSpec) -> bool:
            poly = spec.shape()
            return self.on_table(poly) and self.nearest(poly, placed) >= MIN_GAP

        steps = [min(dist, k * 0.25) for k in range(int(dist / 0.25) + 1)]
        if steps[-1] < dist:
            steps.append(dist)
        chosen: TerrainPieceSpec | None = None
        for t in steps:
            spec = at(t)
            if ok(spec):
                chosen = spec
            elif chosen is not None:
                break  # it stops before coming within 6" of another piece
        if chosen is not None:
            notes.append(f"{chosen.name}: section {a}, moved toward section {b} (2D6 = {dist:g}\")")
        return chosen

    def restricted_piece(self, i: int, make: Callable[[float, float, float], TerrainPieceSpec],
                         placed: list[Polygon], restriction: int | None, centre: ShapelyPoint,
                         corners: list[Point], quarters: list[tuple[float, float, float, float]],
                         out: list[TerrainPieceSpec], apart: Callable[[Polygon], bool]) -> TerrainPieceSpec | None:
        """AoF:R "Alternating (Free)" and "(Restricted)": piece ``i`` under ``restriction`` (None: free)."""
        region = None
        fixed = None
        rule: Callable[[Polygon], bool] = lambda p: True  # noqa: E731
        if restriction == 1:
            def rule(p: Polygon) -> bool:
                return float(p.distance(centre)) >= 12.0
        elif restriction == 2:
            region = (12.0, 12.0, self.width - 12.0, self.depth - 12.0)

            def rule(p: Polygon) -> bool:
                return self.on_table(p, 12.0)
        elif restriction in (3, 4):
            if i == 0:
                fixed = (centre.x, centre.y)
            elif restriction == 3:
                first = out[0].shape() if out else None

                def rule(p: Polygon, first: Polygon | None = first) -> bool:
                    return first is None or float(p.distance(first)) > 12.0
            else:
                def rule(p: Polygon) -> bool:
                    return not placed or self.nearest(p, placed) <= 9.0
        elif restriction == 5 and i < 4:
            corner = ShapelyPoint(*corners[i])
            region = (max(0.0, corner.x - 12), max(0.0, corner.y - 12), min(self.width, corner.x + 12),
                      min(self.depth, corner.y + 12))

            def rule(p: Polygon, corner: ShapelyPoint = corner) -> bool:
                return float(p.distance(corner)) <= 12.0
        elif restriction == 6 and i < 4:
            region = quarters[i]

            def rule(p: Polygon, q: tuple[float, float, float, float] = quarters[i]) -> bool:
                return self.inside(p, q)
        return self.place_best(make, placed, lambda p: self.on_table(p) and apart(p) and rule(p), region,
                               fixed=fixed, attempts=250)


__all__ = [
    "AOFR_STYLES", "LARGE_SIZE", "MAX_GAP", "MIN_GAP", "RESTRICTIONS", "RectSpec", "SCATTER_KINDS", "SCATTER_SIZE",
    "STYLES", "STYLE_NAMES", "TerrainLayout", "TerrainPieceSpec", "coverage", "gaps", "generate_layout",
    "generate_table", "max_gap", "min_gap", "piece_size", "trait_counts",
]
