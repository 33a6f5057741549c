"""Terrain pieces as geometry: an outline in inches and a set of trait strings (rulebook "Terrain").

Geometry does not know what a trait means beyond the few that change shapes' behaviour:

* ``impassable``: units may not move through it (rulebook "Impassable Terrain");
* ``blocking``: no line of sight through it (rulebook "Blocking Terrain");
* ``see_into_not_through``: sight may enter or leave it but not cross it (guidelines: forests);
* ``elevated``: a unit mostly on top may ignore one unit or terrain piece for line of sight (guidelines: hills);
* ``cover``: counts for ``Scene.in_cover`` (rulebook "Cover Terrain").

``difficult``, ``dangerous`` and ``dangerous_when_rushing`` are only reported (``traits_crossed``) for the rules.
The kind-to-traits table lives with the scenario code (``game/terrain_kinds.py``), not here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from shapely import Polygon

from geometry.formation import rect_corners
from geometry.pose import Point, Pose

IMPASSABLE = "impassable"
"""Trait: units may not move through the piece."""
BLOCKING = "blocking"
"""Trait: line of sight may not cross the piece."""
COVER = "cover"
"""Trait: the piece gives cover."""
DIFFICULT = "difficult"
"""Trait: moving in or through it limits the move to 6"."""
DANGEROUS = "dangerous"
"""Trait: moving in or through it forces a dangerous terrain test."""
DANGEROUS_WHEN_RUSHING = "dangerous_when_rushing"
"""Trait: dangerous for Rush and Charge moves only."""
ELEVATED = "elevated"
"""Trait: a unit on top may ignore one obstacle for line of sight."""
SEE_INTO_NOT_THROUGH = "see_into_not_through"
"""Trait: sight may enter or leave the piece but not pass through it."""


def rect_to_polygon(x: float, y: float, width: float, depth: float, angle: float = 0.0) -> tuple[Point, ...]:
    """Corners of a rectangle centred on (x, y) inches, ``width`` along x and ``depth`` along y before turning.

    ``angle`` rotates it clockwise in degrees, like a bearing. Corner order: front-left, front-right, rear-right,
    rear-left (clockwise). Raises ``ValueError`` for a non-positive size. Serves scenario ``rect:`` terrain.
    """
    if width <= 0 or depth <= 0:
        raise ValueError(f"terrain rectangle needs a positive size, got {width} x {depth}")
    return tuple(rect_corners(Pose(x, y, angle), width, depth))


@dataclass(frozen=True)
class TerrainShape:
    """One terrain piece on the table (rulebook "Terrain Rules").

    Raises ``ValueError`` if the outline has fewer than three points, non-finite coordinates, or is not a
    simple polygon with positive area.
    """

    index: int
    """Position of the piece in the scenario's terrain list; used to order results."""
    name: str
    """Name shown to players."""
    polygon: tuple[Point, ...]
    """Outline (x, y) in inches, not closed (the last point is not a repeat of the first)."""
    traits: frozenset[str]
    """Trait strings, see the module docstring."""
    height: float = 0.0
    """Height in inches (informative; traits decide the rules, but AoF:R 2.16 counts the climb onto a tall hill:
    ``game.engine.movement.elevation_climb``)."""

    def __post_init__(self) -> None:
        pts = tuple((float(p[0]), float(p[1])) for p in self.polygon)
        object.__setattr__(self, "polygon", pts)
        object.__setattr__(self, "traits", frozenset(self.traits))
        if len(pts) < 3 or not all(math.isfinite(c) for p in pts for c in p):
            raise ValueError(f"terrain {self.name!r}: outline needs at least 3 finite points")
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            raise ValueError(f"terrain {self.name!r}: outline is not a simple polygon with positive area")

    @cached_property
    def shape(self) -> Polygon:
        """The outline as a shapely polygon (inches), built once."""
        return Polygon(self.polygon)

    def has(self, trait: str) -> bool:
        """True if the piece has ``trait``."""
        return trait in self.traits
