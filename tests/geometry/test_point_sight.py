"""Line of sight from a unit to a table point (geometry.point_sight; rulebook "Line of Sight", "Caster(X)": a spell
aimed at a point needs it in line of sight; docs/rulings.md "Spells aimed at a point")."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.point_sight import models_seeing_point, point_in_base_arcs, point_in_sight, units_holding
from geometry.pose import forward_vector, right_vector
from geometry.terrain import BLOCKING
from tests.geometry.helpers import INF10, SINGLE, piece, put, scene


def test_a_point_in_front_is_seen_and_one_behind_is_not() -> None:
    s = scene()
    put(s, "a", 36, 10, 0, SINGLE)
    assert point_in_sight(s, "a", (36, 20))
    assert point_in_sight(s, "a", (40, 14))          # 45 degrees off the front: on the arc's edge side
    assert not point_in_sight(s, "a", (36, 5))       # behind
    assert not point_in_sight(s, "a", (46, 10.5))    # beside, outside the 45 degree arc


def test_blocking_terrain_and_other_units_hide_a_point_but_not_the_unit_on_it() -> None:
    s = scene(piece(0, 36, 15, 8, 1, BLOCKING))
    put(s, "a", 36, 10, 0, SINGLE)
    assert not point_in_sight(s, "a", (36, 20))      # behind a wall
    s2 = scene()
    put(s2, "a", 36, 10, 0, SINGLE)
    put(s2, "b", 36, 15, 180, INF10, player=2)
    assert not point_in_sight(s2, "a", (36, 20))     # behind unit b
    assert units_holding(s2, (36, 15)) == ["b"]
    assert point_in_sight(s2, "a", (36, 15))         # on unit b: b does not hide its own middle


def test_the_models_that_see_are_nearest_first() -> None:
    s = scene()
    put(s, "a", 36, 10, 0, INF10)
    seen = models_seeing_point(s, "a", (40, 20))
    centres = s.model_centres("a")
    dists = [math.dist(centres[k], (40, 20)) for k in seen]
    assert seen and dists == sorted(dists)


@settings(max_examples=200, deadline=None)
@given(x=st.floats(5, 67), y=st.floats(5, 43), facing=st.floats(0, 360, exclude_max=True),
       dist=st.floats(0.1, 20), side=st.floats(-1, 1))
def test_open_table_sight_is_exactly_the_front_arc(x: float, y: float, facing: float, dist: float,
                                                   side: float) -> None:
    """With nothing else on the table a point is seen exactly when some base has it in its front arc (within
    the table or not, sight itself does not care); points straight behind the rear are never seen."""
    s = scene()
    put(s, "a", x, y, facing, INF10)
    f, r = forward_vector(facing), right_vector(facing)
    p = (x + f[0] * dist + r[0] * side * dist, y + f[1] * dist + r[1] * side * dist)
    assert point_in_sight(s, "a", p) == bool(point_in_base_arcs(s, "a", p).any())
    back = (x - f[0] * (1 + dist), y - f[1] * (1 + dist))
    assert not point_in_sight(s, "a", back)
