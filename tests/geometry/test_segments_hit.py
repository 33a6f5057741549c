"""``geometry._vec.segments_hit``, the kernel under line of sight and the move checks' "starts overlapping" test:
examples at the edge of floating point, and a hypothesis property against shapely's exact predicate."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString

from geometry._vec import segments_hit


def _hit(p, q, a, b) -> bool:
    return bool(segments_hit(np.array([p], float), np.array([q], float), np.array([a], float),
                             np.array([b], float))[0, 0])


def test_a_nearly_collinear_pair_that_does_not_touch_is_no_hit():
    """Found by hypothesis (test_motion): an end exactly on the other's line, the other signs rounding noise
    (their product underflows to 0). The pair lies apart along the line: no hit."""
    assert not _hit((2.0, 0.0), (3.0, 1e-320), (0.0, 0.0), (1.0, 0.0))
    assert _hit((1.0, 0.0), (3.0, 1e-320), (0.0, 0.0), (1.0, 0.0))        # the end on the edge: it touches


def test_crossing_touching_and_collinear_pairs():
    assert _hit((0.5, -1.0), (0.5, 1.0), (0.0, 0.0), (1.0, 0.0))           # crossing
    assert _hit((0.5, 0.0), (0.5, 1.0), (0.0, 0.0), (1.0, 0.0))            # an end on the edge
    assert _hit((0.5, 0.0), (3.0, 0.0), (0.0, 0.0), (1.0, 0.0))            # collinear, overlapping
    assert not _hit((2.0, 0.0), (3.0, 0.0), (0.0, 0.0), (1.0, 0.0))        # collinear, apart
    assert not _hit((0.5, 0.1), (0.5, 1.0), (0.0, 0.0), (1.0, 0.0))        # above the edge


coord = st.integers(-6, 6).map(float)


@settings(max_examples=300, deadline=None)
@given(st.tuples(coord, coord), st.tuples(coord, coord), st.tuples(coord, coord), st.tuples(coord, coord))
def test_integer_segments_agree_with_shapely(p, q, a, b):
    """On small integer coordinates every orientation is exact, so the kernel must give shapely's answer,
    including the many touching and collinear pairs such a grid makes."""
    if p == q or a == b:
        return
    assert _hit(p, q, a, b) == LineString([p, q]).intersects(LineString([a, b]))
