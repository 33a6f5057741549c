"""Line of sight and cover (rulebook "Line of Sight", "Cover Terrain", terrain guidelines)."""

from __future__ import annotations

from geometry.formation import Formation
from geometry.pose import Pose
from tests.geometry.helpers import INF10, INF20, SINGLE, piece, put, scene


def test_unit_between_blocks_and_own_units_do_not() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 30, 180, player=2)
    assert s.line_clear((36, 11), (36, 29), ignore_units=["a", "b"])
    assert s.unit_has_sight("a", "b")
    put(s, "wall", 36, 20, 0, Formation(20, 20, 25, 25))  # a long single rank across the line
    assert not s.line_clear((36, 11), (36, 29), ignore_units=["a", "b"])
    assert not s.unit_has_sight("a", "b")
    assert s.models_with_sight("a", "b") == []
    # the looker's own unit never blocks: a line from its rear out through its front is fine
    put(s, "c", 10, 10, 0, INF20)
    put(s, "d", 10, 25, 180, INF10, player=2)
    assert s.line_clear((10, 8.5), (10, 24), ignore_units=["d"], looker_id="c")
    assert s.models_with_sight("c", "d") == list(range(20))


def test_line_grazing_a_corner_is_clear() -> None:
    s = scene()
    put(s, "x", 10, 10, 0, Formation(1, 1, 25.4, 25.4))  # 1" square from (9.5, 9.5) to (10.5, 10.5)
    assert s.line_clear((0, 10.5), (20, 10.5))
    assert not s.line_clear((0, 10.4), (20, 10.4))


def test_sight_is_front_arc_only() -> None:
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "behind", 36, 2, 0, player=2)
    put(s, "side", 60, 10, 0, player=2)
    assert not s.unit_has_sight("a", "behind")
    assert not s.unit_has_sight("a", "side")
    assert s.unit_has_sight("behind", "a")


def test_rows_and_range() -> None:
    s = scene()
    put(s, "a", 36, 10, 0, INF20)
    put(s, "b", 36, 30, 180, INF10, player=2)
    assert s.models_with_sight("a", "b", rows=1) == [0, 1, 2, 3, 4]
    assert s.models_with_sight("a", "b", rows=2) == list(range(10))
    gap = s.distance("a", "b")
    assert s.models_with_sight("a", "b", rows=1, max_range=gap + 0.01) == [0, 1, 2, 3, 4]
    assert s.models_with_sight("a", "b", rows=2, max_range=gap + 0.01) == [0, 1, 2, 3, 4]
    assert s.models_with_sight("a", "b", max_range=gap - 0.01) == []


def test_partial_block_models_with_sight() -> None:
    s = scene()
    put(s, "a", 30, 10, 0, INF10)
    put(s, "b", 30, 30, 180, INF10, player=2)
    # a small block in front of the left half of "a"
    s.set_unit("blk", 2, Pose(28, 14, 0), Formation(3, 3, 25.4, 25.4))
    seeing = s.models_with_sight("a", "b", rows=1)
    assert 4 in seeing and 0 not in seeing


def test_blocking_terrain() -> None:
    s = scene(piece(0, 36, 20, 8, 2, "blocking", "impassable"))
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 30, 180, player=2)
    assert not s.unit_has_sight("a", "b")
    assert not s.line_clear((36, 11), (36, 29))
    assert s.line_clear((30, 11), (30, 29))


def test_forest_in_and_out_but_not_through() -> None:
    forest = piece(0, 36, 20, 8, 6, "cover", "difficult", "see_into_not_through")
    s = scene(forest)
    assert not s.line_clear((36, 10), (36, 30))  # through
    assert s.line_clear((36, 10), (36, 20))  # into
    assert s.line_clear((36, 20), (36, 30))  # out of
    assert s.line_clear((36, 19), (36, 21))  # within
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 30, 180, player=2)
    assert not s.unit_has_sight("a", "b")
    put(s, "inside", 36, 20, 0, SINGLE, player=2)
    assert s.unit_has_sight("a", "inside")
    assert s.in_cover("a", "inside")


def test_hill_ignores_one_obstacle() -> None:
    hill = piece(0, 36, 8, 12, 8, "cover", "difficult", "elevated")
    s = scene(hill)
    put(s, "a", 36, 8, 0)
    put(s, "b", 36, 40, 180, player=2)
    put(s, "x1", 36, 20, 0, Formation(20, 20, 25, 25), player=2)
    assert s.is_elevated("a")
    assert s.unit_has_sight("a", "b")  # one unit in the way: ignored from the hill
    assert not s.unit_has_sight("b", "a")  # the target being on the hill does not help
    put(s, "x2", 36, 30, 0, Formation(20, 20, 25, 25), player=2)
    assert not s.unit_has_sight("a", "b")  # two obstacles: blocked
    assert s.line_clear((36, 10), (36, 25), looker_id="a")
    assert not s.line_clear((36, 10), (36, 25))


def test_cover_behind_a_unit_and_in_terrain() -> None:
    s = scene(piece(0, 50, 30, 8, 6, "cover"))
    put(s, "a", 36, 10, 0, INF10)
    put(s, "b", 36, 30, 180, INF10, player=2)
    assert not s.in_cover("a", "b")
    # a unit screening half of b
    s.set_unit("screen", 2, Pose(34, 20, 0), Formation(3, 3, 25.4, 25.4))
    assert s.unit_has_sight("a", "b")
    assert s.in_cover("a", "b")
    put(s, "c", 50, 30, 180, INF10, player=2)  # fully inside the cover piece
    put(s, "a2", 50, 10, 0, INF10)
    assert s.in_cover("a2", "c")
    put(s, "e", 64, 38, 180, INF10, player=2)
    assert not s.in_cover("a2", "e", shooters=[0])
