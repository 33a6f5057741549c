"""The table as geometry with everything the engine and the UI ask of it: ``Scene``.

``Scene`` is ``geometry.scene_data.SceneData`` (table size, terrain, unit footprints, caches, distances, terrain
queries) plus the front-door methods for line of sight (``geometry.sight``) and movement checks and slides
(``geometry.motion``), each calling the function of the same name. Those modules take a ``SceneData``, so this
module is the only one importing both sides and every import points downwards (issue 14).

Tolerance: shapes closer than ``TOL`` (0.001") of overlapping count as touching, not overlapping, so units in
base contact never "overlap" through rounding.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from geometry import motion, sight
from geometry.pose import Point, Pose
from geometry.scene_data import TOL, SceneData

__all__ = ["TOL", "Scene"]


class Scene(SceneData):
    """The table (``width`` x ``depth`` inches, origin at player 1's left corner), its terrain and the units, with
    sight and movement queries.

    Constructed as ``Scene(width, depth, terrain)`` (see ``SceneData``); raises ``ValueError`` for a non-positive
    table size or two terrain pieces with the same index. ``copy()`` returns a ``Scene``.
    Serves the rulebook's "Measuring Distances", "Line of Sight", "Movement" and "Terrain" sections.
    """

    # ---------------------------------------------------------------------------------------- line of sight
    def line_clear(self, p: Point, q: Point, ignore_units: Collection[str] = (), looker_id: str | None = None) -> bool:
        """True if the segment ``p``-``q`` (inches) is not blocked; see ``geometry.sight.line_clear``."""
        return sight.line_clear(self, p, q, ignore_units, looker_id)

    def models_with_sight(
        self, looker_id: str, target_id: str, rows: int | None = None, max_range: float | None = None,
        target_model: int | None = None,
    ) -> list[int]:
        """Indices of the looker's models that see the target; see ``geometry.sight.models_with_sight``."""
        return sight.models_with_sight(self, looker_id, target_id, rows, max_range, target_model)

    def models_in_range(
        self, looker_id: str, target_id: str, rows: int | None = None, max_range: float | None = None,
        target_model: int | None = None,
    ) -> list[int]:
        """Indices of the looker's models with the target in their front arc and in range, ignoring whatever
        blocks sight (rulebook "Indirect"); see ``geometry.sight.models_in_range``."""
        return sight.models_in_range(self, looker_id, target_id, rows, max_range, target_model)

    def visible_units(self, looker_id: str, target_ids: Collection[str]) -> list[str]:
        """Sorted ids of ``target_ids`` the looker has sight of; see ``geometry.sight.visible_units``."""
        return sight.visible_units(self, looker_id, target_ids)

    def unit_has_sight(self, looker_id: str, target_id: str) -> bool:
        """True if any model of the looker sees any model of the target; see ``geometry.sight``."""
        return sight.unit_has_sight(self, looker_id, target_id)

    def in_cover(self, looker_id: str, target_id: str, shooters: Collection[int] | None = None,
                 target_model: int | None = None, obstructions: bool = True) -> bool:
        """True if the target counts as in cover from the looker; see ``geometry.sight.in_cover``."""
        return sight.in_cover(self, looker_id, target_id, shooters, target_model, obstructions)

    # --------------------------------------------------------------------------------------------- movement
    def check_path(
        self,
        unit_id: str,
        start: Pose,
        path: Sequence[Pose],
        *,
        exclusion: float = 1.0,
        ignore_units: Collection[str] = (),
        fly_over: bool = False,
    ) -> motion.MoveCheck:
        """Check a move along ``path`` from ``start``; see ``geometry.motion.check_path``."""
        return motion.check_path(self, unit_id, start, path, exclusion=exclusion, ignore_units=ignore_units,
                                 fly_over=fly_over)

    def slide(
        self,
        unit_id: str,
        start: Pose,
        bearing: float,
        distance: float,
        *,
        gap: float = 1.0,
        stop_at: Collection[str] = (),
        ignore_units: Collection[str] = (),
        edge_exits: bool = False,
    ) -> motion.SlideResult:
        """Slide the unit in a straight line; see ``geometry.motion.slide``."""
        return motion.slide(
            self,
            unit_id,
            start,
            bearing,
            distance,
            gap=gap,
            stop_at=stop_at,
            ignore_units=ignore_units,
            edge_exits=edge_exits,
        )
