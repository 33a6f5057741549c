"""Unit formations and footprints: where every model base of a unit stands.

A unit is ``per_row`` bases wide and ``ceil(models / per_row)`` rows deep, front row at the facing side; the
last row may be short and is centred (../shared/spec.md; rulebook "Unit Formations"). Base sizes are in
millimetres, everything else in inches. The unit footprint is the bounding rectangle of its bases: a unit's
"perimeter" for line of sight and the 1" rule.
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
    """Models currently in the unit (>= 0)."""
    per_row: int
    """Bases in a full row (>= 1)."""
    base_width_mm: float
    """Base width across the unit's front, millimetres."""
    base_depth_mm: float
    """Base depth front to back, millimetres."""

    def __post_init__(self) -> None:
        if self.models < 0 or self.per_row < 1 or self.base_width_mm <= 0 or self.base_depth_mm <= 0:
            raise ValueError(f"invalid formation {self}")

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
        """Bases in the front row: ``per_row``, or fewer if the unit has fewer models."""
        return max(1, min(self.per_row, self.models))

    @property
    def rows(self) -> int:
        """Number of rows, ``ceil(models / per_row)`` (at least 1 so an empty unit still has a shape)."""
        return max(1, math.ceil(self.models / self.per_row))

    @property
    def full_rows(self) -> int:
        """Rows holding ``per_row`` models (rulebook "Melee Resolution": full rows)."""
        return self.models // self.per_row

    @property
    def width(self) -> float:
        """Footprint width (across the front) in inches."""
        return self.files * self.base_width

    @property
    def depth(self) -> float:
        """Footprint depth (front to back) in inches."""
        return self.rows * self.base_depth

    def row_counts(self) -> tuple[int, ...]:
        """Models in each row, front row first; only the last row may be short."""
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
        """The same formation with a different number of models."""
        return Formation(models, self.per_row, self.base_width_mm, self.base_depth_mm)


def model_offsets(formation: Formation) -> tuple[tuple[int, Point], ...]:
    """Each model's row index (0 = front) and base centre in the unit frame (u right, v forward), inches.

    Front row first, left to right; the unit centre is the footprint centre.
    """
    return _model_offsets(formation.models, formation.per_row, formation.base_width_mm, formation.base_depth_mm)


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
    return (
        pose.to_world((-hw, hd)),
        pose.to_world((hw, hd)),
        pose.to_world((hw, -hd)),
        pose.to_world((-hw, -hd)),
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
    bw, bd = formation.base_width, formation.base_depth
    out = []
    for _, (u, v) in model_offsets(formation):
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
