"""Geometry queries for special rules: models in range ignoring sight (Indirect), one target model (Sniper),
cover without obstructions (Indirect), moving over obstacles (Flying), and formations holding a hero of another
base size (Heroes & Units With Mixed Base Sizes)."""

from __future__ import annotations

import pytest

from geometry.formation import Formation, hero_index, model_offsets, model_sizes, sergeant_index
from geometry.pose import Pose
from geometry.shapes import model_corner_array
from tests.geometry.helpers import INF10, piece, put, scene


def test_models_in_range_ignore_what_blocks_sight_but_not_the_front_arc():
    """A wall of another unit blocks every sight line; ``models_in_range`` still finds the models that have the
    target in their front arc and within range."""
    s = scene()
    put(s, "a", 36, 10, 0)
    put(s, "wall", 36, 16, 180, Formation(15, 15, 20, 20), player=2)
    put(s, "t", 36, 22, 180, player=2)
    assert s.models_with_sight("a", "t", 2, 30.0) == []
    assert s.models_in_range("a", "t", 2, 30.0) == list(range(10))
    assert s.models_in_range("a", "t", 1, 30.0) == [0, 1, 2, 3, 4]
    assert s.models_in_range("a", "t", 2, 5.0) == []
    put(s, "a", 36, 10, 180)
    assert s.models_in_range("a", "t", 2, 30.0) == []


def test_sight_and_range_to_one_target_model():
    """Lines and ranges to one chosen model of the target only."""
    s = scene()
    put(s, "a", 36, 10, 0, Formation(1, 1, 20, 20))
    put(s, "t", 36, 20, 180, Formation(10, 10, 20, 20), player=2)
    near = s.models_with_sight("a", "t", None, 9.5, target_model=4)
    assert near == [0]
    with pytest.raises(IndexError):
        s.models_with_sight("a", "t", None, None, target_model=10)


def test_cover_without_obstructions_counts_only_cover_terrain_the_target_stands_in():
    """A unit in between gives cover; without obstructions (Indirect) it does not, a wood the target is in
    still does."""
    s = scene(piece(0, 36, 30, 10, 4, "cover"))
    put(s, "a", 36, 10, 0)
    put(s, "screen", 36, 16, 180, Formation(5, 5, 20, 20), player=2)
    put(s, "t", 36, 22, 180, player=2)
    assert s.in_cover("a", "t")
    assert not s.in_cover("a", "t", obstructions=False)
    put(s, "t", 36, 30, 180, player=2)
    assert s.in_cover("a", "t", obstructions=False)


def test_fly_over_checks_the_table_edge_and_the_end_only():
    """A move over a unit and impassable terrain is refused unless ``fly_over``; ending on either never is
    allowed."""
    s = scene(piece(0, 20, 14, 6, 1, "impassable"))
    put(s, "a", 36, 10, 0)
    put(s, "b", 36, 14, 0, Formation(10, 10, 20, 20))
    path = [Pose(36, 17, 0)]
    assert not s.check_path("a", Pose(36, 10, 0), path).ok
    assert s.check_path("a", Pose(36, 10, 0), path, fly_over=True).ok
    assert not s.check_path("a", Pose(36, 10, 0), [Pose(36, 14, 0)], fly_over=True).ok
    put(s, "c", 20, 10, 0)
    assert s.check_path("c", Pose(20, 10, 0), [Pose(20, 17, 0)], fly_over=True).ok
    assert not s.check_path("c", Pose(20, 10, 0), [Pose(20, 14, 0)], fly_over=True).ok
    assert not s.check_path("c", Pose(20, 10, 0), [Pose(20, 60, 0)], fly_over=True).ok


def test_formation_with_a_hero_beside_it():
    """A hero whose base does not fit stands to the right of the front row; every base keeps its own size."""
    f = Formation(6, 5, 20, 20, 25, 50)
    assert hero_index(f) == 5 and sergeant_index(f) == 2
    sizes = model_sizes(f)
    assert sizes[5] == pytest.approx((25 / 25.4, 50 / 25.4)) and sizes[0] == pytest.approx((20 / 25.4, 20 / 25.4))
    corners = model_corner_array(Pose(0, 0, 0), f)
    right = corners[:, :, 0].max()
    assert right == pytest.approx(f.width / 2) and corners[5, :, 0].max() == pytest.approx(right)
    assert [r for r, _ in model_offsets(f)] == [0, 0, 0, 0, 0, 0]
    assert Formation(10, 5, 20, 20) == INF10  # plain formations are unchanged
    assert f.without_hero() == Formation(5, 5, 20, 20)
