"""Unit formations and footprints: where every model base of a unit stands.

A unit is ``per_row`` bases wide and ``ceil(models / per_row)`` rows deep, front row at the facing side; the
last row may be short and is centred (../shared/spec.md; rulebook "Unit Formations"). Base sizes are in
millimetres, everything else in inches. The unit footprint is the bounding rectangle of its bases: a unit's
"perimeter" for line of sight and the 1" rule.

A hero joined to the unit (rulebook "Heroes & Units With Mixed Base Sizes") is one of the ``models`` and may have
a base of its own size (``hero_width_mm`` x ``hero_depth_mm``):

* if its base is a whole number of the unit's bases wide and deep (``hero_fit``: kw x kd, kw at most
  ``per_row``), it *fits into formation*: it stands in the middle of the front row over kw x kd places, the other
  models fill the remaining places row by row (front first, left to right) and the last row, when it lies behind
  the hero, is centred; a hero on the same base as the unit is the 1 x 1 case;
* otherwise it stands *beside* the unit, to the right of the front row, front edges in line.

Model order (``model_centres`` and friends) is row by row from the front, left to right; a hero counts in the
front row. ``hero_index`` and ``sergeant_index`` say which model the hero and the Sergeant are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from geometry.pose import Point, Pose

MM_PER_INCH = 25.4
"""Millimetres in one inch."""


def mm_to_inches(mm: float) -> float:
    """Convert millimetres to inches."""
    return mm / MM_PER_INCH


def default_per_row(models: int) -> int:
    """Models per row from the rulebook's "Unit Formations": 3 for units of 3 or 6, else 5 (1 for a single model).

    Units that are not 3/6 or 5/10 use 5 per row, or their size when smaller.
    """
    if models <= 1:
        return 1
    if models in (3, 6):
        return 3
    return min(5, models)


@dataclass(frozen=True, slots=True)
class Formation:
    """The shape of a unit: how many bases, how many per row, and the base size.

    Raises ``ValueError`` for non-positive sizes.
    """

    models: int
    """Models currently in the unit (>= 0), a joined hero included."""
    per_row: int
    """Bases in a full row (>= 1)."""
    base_width_mm: float
    """Base width across the unit's front, millimetres."""
    base_depth_mm: float
    """Base depth front to back, millimetres."""
    hero_width_mm: float = 0.0
    """Base width of a hero joined to the unit (one of ``models``), millimetres; 0 when no hero stands in it."""
    hero_depth_mm: float = 0.0
    """Base depth of the joined hero, millimetres; 0 when no hero stands in it."""

    def __post_init__(self) -> None:
        if self.models < 0 or self.per_row < 1 or self.base_width_mm <= 0 or self.base_depth_mm <= 0:
            raise ValueError(f"invalid formation {self}")
        if (self.hero_width_mm > 0) != (self.hero_depth_mm > 0) or self.hero_width_mm < 0:
            raise ValueError(f"invalid hero base in formation {self}")

    @property
    def has_hero(self) -> bool:
        """True when a joined hero stands in the formation (and the unit has models)."""
        return self.hero_width_mm > 0 and self.models > 0

    @property
    def hero_slots(self) -> tuple[int, int] | None:
        """(kw, kd) places the hero takes when it fits into formation; None beside the unit or without a hero."""
        if not self.has_hero:
            return None
        return hero_fit(self.per_row, self.base_width_mm, self.base_depth_mm, self.hero_width_mm,
                        self.hero_depth_mm)

    @property
    def base_width(self) -> float:
        """Base width in inches."""
        return self.base_width_mm / MM_PER_INCH

    @property
    def base_depth(self) -> float:
        """Base depth in inches."""
        return self.base_depth_mm / MM_PER_INCH

    @property
    def files(self) -> int:
        """Bases in the front row: ``per_row``, or fewer if the unit has fewer models (a hero counts as one)."""
        if self.has_hero:
            return max(1, self.row_counts()[0])
        return max(1, min(self.per_row, self.models))

    @property
    def rows(self) -> int:
        """Number of rows, ``ceil(models / per_row)`` (at least 1 so an empty unit still has a shape)."""
        if self.has_hero:
            return len(self.row_counts())
        return max(1, math.ceil(self.models / self.per_row))

    @property
    def full_rows(self) -> int:
        """Rows holding ``per_row`` models (rulebook "Melee Resolution": full rows)."""
        return self.models // self.per_row

    @property
    def width(self) -> float:
        """Footprint width (across the front) in inches."""
        if self.has_hero:
            return _layout(*self._key())[0]
        return self.files * self.base_width

    @property
    def depth(self) -> float:
        """Footprint depth (front to back) in inches."""
        if self.has_hero:
            return _layout(*self._key())[1]
        return self.rows * self.base_depth

    def row_counts(self) -> tuple[int, ...]:
        """Models in each row, front row first; only the last row may be short (a hero counts in the front row)."""
        if self.has_hero:
            return _layout(*self._key())[3]
        full, rest = divmod(self.models, self.per_row)
        counts = [self.per_row] * full
        if rest:
            counts.append(rest)
        if not counts:
            counts = [0]
        if len(counts) == 1:
            counts[0] = self.models
        return tuple(counts)

    def with_models(self, models: int) -> Formation:
        """The same formation with a different number of models (the hero, if any, still among them)."""
        return Formation(models, self.per_row, self.base_width_mm, self.base_depth_mm, self.hero_width_mm,
                         self.hero_depth_mm)

    def without_hero(self) -> Formation:
        """The formation of the unit's other models once its hero is gone."""
        return Formation(max(0, self.models - (1 if self.has_hero else 0)), self.per_row, self.base_width_mm,
                         self.base_depth_mm)

    def _key(self) -> tuple[int, int, float, float, float, float]:
        return (self.models, self.per_row, self.base_width_mm, self.base_depth_mm, self.hero_width_mm,
                self.hero_depth_mm)


HERO_FIT_TOLERANCE_MM = 0.5
"""A hero's base fits into formation when it is within this of a whole number of the unit's bases."""


def hero_fit(per_row: int, bw_mm: float, bd_mm: float, hw_mm: float, hd_mm: float) -> tuple[int, int] | None:
    """Places (kw across, kd deep) a hero base of ``hw_mm`` x ``hd_mm`` takes in a formation of ``bw_mm`` x ``bd_mm``
    bases ``per_row`` wide, or None when it does not fit and stands beside the unit (rulebook "Heroes & Units With
    Mixed Base Sizes"). It fits when both sides are whole multiples (within ``HERO_FIT_TOLERANCE_MM``) and it is at
    most ``per_row`` places wide."""
    kw, kd = round(hw_mm / bw_mm), round(hd_mm / bd_mm)
    if kw < 1 or kd < 1 or kw > per_row:
        return None
    if abs(hw_mm - kw * bw_mm) > HERO_FIT_TOLERANCE_MM or abs(hd_mm - kd * bd_mm) > HERO_FIT_TOLERANCE_MM:
        return None
    return (kw, kd)


_Entry = tuple[int, tuple[float, float], tuple[float, float]]
"""(row, (u, v) centre, (width, depth)) of one base, inches."""


@lru_cache(maxsize=4096)
def _layout(models: int, per_row: int, bw_mm: float, bd_mm: float, hw_mm: float,
            hd_mm: float) -> tuple[float, float, tuple[_Entry, ...], tuple[int, ...], int]:
    """A formation holding a hero: (width, depth, entries in model order, row counts, hero index)."""
    bw, bd = bw_mm / MM_PER_INCH, bd_mm / MM_PER_INCH
    hw, hd = hw_mm / MM_PER_INCH, hd_mm / MM_PER_INCH
    n = models - 1  # the other models
    fit = hero_fit(per_row, bw_mm, bd_mm, hw_mm, hd_mm)
    entries: list[tuple[int, float, int, tuple[float, float], tuple[float, float]]] = []
    # (row, column for sorting, is_hero, (u, v), (width, depth))
    if fit is not None:
        kw, kd = fit
        cols = per_row if n + kw >= per_row else n + kw
        c0 = (cols - kw) // 2
        cells: list[tuple[int, float]] = []  # (row, column) of the other models
        left, row = n, 0
        while left > 0:
            free = [c for c in range(cols) if not (row < kd and c0 <= c < c0 + kw)]
            take = free[:left]
            if row >= kd and len(take) < cols:  # a short last row behind the hero is centred
                shift = (cols - len(take)) / 2
                cells += [(row, c + shift) for c in range(len(take))]
            else:
                cells += [(row, float(c)) for c in take]
            left -= len(take)
            row += 1
        rows = max(kd, row)
        width, depth = cols * bw, rows * bd
        for r, c in cells:
            entries.append((r, c, 0, (-width / 2 + (c + 0.5) * bw, depth / 2 - (r + 0.5) * bd), (bw, bd)))
        entries.append((0, float(c0), 1, (-width / 2 + (c0 + kw / 2) * bw, depth / 2 - kd * bd / 2), (hw, hd)))
    else:
        cols = max(1, min(per_row, n)) if n > 0 else 0
        rows = math.ceil(n / per_row) if n > 0 else 0
        width = cols * bw + hw
        depth = max(rows * bd, hd)
        if n > 0:
            for r, (u, v) in _model_offsets(n, per_row, bw_mm, bd_mm):
                block_depth = rows * bd
                entries.append((r, u + cols * bw / 2, 0, (u - hw / 2, v + depth / 2 - block_depth / 2), (bw, bd)))
        entries.append((0, cols * bw + 1.0, 1, (width / 2 - hw / 2, depth / 2 - hd / 2), (hw, hd)))
    entries.sort(key=lambda e: (e[0], e[1]))
    counts: dict[int, int] = {}
    for e in entries:
        counts[e[0]] = counts.get(e[0], 0) + 1
    row_counts = tuple(counts[r] for r in sorted(counts))
    hero = next(i for i, e in enumerate(entries) if e[2])
    return (width, depth, tuple((e[0], e[3], e[4]) for e in entries), row_counts, hero)


def model_offsets(formation: Formation) -> tuple[tuple[int, Point], ...]:
    """Each model's row index (0 = front) and base centre in the unit frame (u right, v forward), inches.

    Front row first, left to right; the unit centre is the footprint centre.
    """
    if formation.has_hero:
        return tuple((r, uv) for r, uv, _ in _layout(*formation._key())[2])
    return _model_offsets(formation.models, formation.per_row, formation.base_width_mm, formation.base_depth_mm)


def model_sizes(formation: Formation) -> tuple[tuple[float, float], ...]:
    """(width, depth) in inches of every model base, in ``model_offsets`` order (a joined hero's may differ)."""
    if formation.has_hero:
        return tuple(size for _, _, size in _layout(*formation._key())[2])
    return ((formation.base_width, formation.base_depth),) * formation.models


def hero_index(formation: Formation) -> int | None:
    """Index (``model_offsets`` order) of the joined hero, None without one."""
    if not formation.has_hero:
        return None
    return _layout(*formation._key())[4]


def sergeant_index(formation: Formation) -> int | None:
    """Index of the model of the command group that stands in the middle of the front row (the Sergeant): of the
    front-row models other than a joined hero, the one nearest their middle (ties: the left one); None if there is
    none."""
    front = formation.row_counts()[0] if formation.models > 0 else 0
    hero = hero_index(formation)
    if hero is None:
        return front // 2 if front else None
    offsets = model_offsets(formation)
    candidates = [i for i in range(front) if i != hero]
    if not candidates:
        return None
    us = [offsets[i][1][0] for i in candidates]
    middle = (min(us) + max(us)) / 2
    return min(candidates, key=lambda i: (round(abs(offsets[i][1][0] - middle), 6), i))


@lru_cache(maxsize=4096)
def _model_offsets(models: int, per_row: int, bw_mm: float, bd_mm: float) -> tuple[tuple[int, Point], ...]:
    f = Formation(models, per_row, bw_mm, bd_mm)
    bw, bd = f.base_width, f.base_depth
    half_d = f.depth / 2
    out: list[tuple[int, Point]] = []
    for row, count in enumerate(f.row_counts()):
        v = half_d - bd * (row + 0.5)
        row_width = count * bw
        for i in range(count):
            u = -row_width / 2 + bw * (i + 0.5)
            out.append((row, (u, v)))
    return tuple(out)


def rect_corners(pose: Pose, width: float, depth: float) -> tuple[Point, Point, Point, Point]:
    """Corners of a ``width`` x ``depth`` rectangle centred on ``pose``, in inches.

    Order: front-left, front-right, rear-right, rear-left (clockwise seen from above).
    """
    hw, hd = width / 2, depth / 2
    # ``Pose.to_world`` of the four corners, written out with the facing's vectors computed once (same floats)
    r = math.radians(pose.facing)
    fx, fy = math.sin(r), math.cos(r)
    rx, ry = fy, -fx
    x, y = pose.x, pose.y
    return (
        (x + -hw * rx + hd * fx, y + -hw * ry + hd * fy),
        (x + hw * rx + hd * fx, y + hw * ry + hd * fy),
        (x + hw * rx + -hd * fx, y + hw * ry + -hd * fy),
        (x + -hw * rx + -hd * fx, y + -hw * ry + -hd * fy),
    )


def footprint_corners(pose: Pose, formation: Formation) -> tuple[Point, Point, Point, Point]:
    """Corners of a unit's footprint (see ``rect_corners`` for the order)."""
    return rect_corners(pose, formation.width, formation.depth)


def model_centres(pose: Pose, formation: Formation) -> list[Point]:
    """Table coordinates of every model base centre, front row first, left to right."""
    return [pose.to_world(uv) for _, uv in model_offsets(formation)]


def model_rows(formation: Formation) -> list[int]:
    """Row index (0 = front) of every model, in the order of ``model_centres``."""
    return [row for row, _ in model_offsets(formation)]


def model_corners(pose: Pose, formation: Formation) -> list[tuple[Point, Point, Point, Point]]:
    """Corners of every model base (order as ``rect_corners``), in the order of ``model_centres``."""
    out = []
    for (_, (u, v)), (bw, bd) in zip(model_offsets(formation), model_sizes(formation), strict=True):
        centre = Pose(*pose.to_world((u, v)), pose.facing)
        out.append(rect_corners(centre, bw, bd))
    return out


def front_edge(pose: Pose, formation: Formation) -> tuple[Point, Point]:
    """The front edge of the footprint, (left end, right end), inches."""
    c = footprint_corners(pose, formation)
    return (c[0], c[1])


def pose_keeping_front(pose: Pose, old: Formation, new: Formation) -> Pose:
    """Pose of a unit whose formation changed (casualties from the back) with its front edge left in place.

    Rulebook "Remove Casualties": models are removed from the back row, so the front edge does not move.
    """
    shift = (old.depth - new.depth) / 2
    return pose.advanced(shift)
