"""``geometry.shapes.overlap_area``: the area two shapes share, robust where shapely's overlay is not (two
footprints placed flush, their shared edge 1e-16" apart, intersected as the whole of one)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from shapely import Polygon

from geometry.formation import rect_corners
from geometry.pose import Pose, forward_vector
from geometry.shapes import overlap_area


def test_the_flush_pair_a_charge_made_shares_no_area():
    """Found by the soak: shapely 2.2 / GEOS 3.14 gives the whole of ``b`` as the intersection."""
    a = Polygon([(0.9891047252203179, 6.882940766797598), (4.922676417459493, 6.718487910098072),
                 (4.856895274779682, 5.145059233202402), (0.9233235825405076, 5.309512089901928)])
    b = Polygon([(4.922676417459493, 6.718487910098072), (0.989104725220318, 6.882940766797598),
                 (1.0548858679001285, 8.45636944369327), (4.988457560139303, 8.291916586993743)])
    assert overlap_area(a, b) == 0.0 and overlap_area(b, a) == 0.0


coord = st.floats(0, 72, allow_nan=False)
size = st.floats(0.5, 10, allow_nan=False)


@given(coord, coord, st.floats(0, 360, exclude_max=True), size, size, size, st.floats(-0.4, 0.4),
       st.floats(0, 1.5))
def test_flush_rectangles_share_no_area_and_pushed_in_share_the_strip(x, y, facing, w, d, d2, shift, push):
    """A rectangle placed against another's front edge (facing it, as a charger), slid sideways by ``shift`` of
    the width, shares nothing; pushed ``push`` inches in, it shares a strip ``push`` deep."""
    front = forward_vector(facing)
    side = (front[1], -front[0])
    a = Polygon(rect_corners(Pose(x, y, facing), w, d))
    along = shift * w
    centre = (x + front[0] * (d / 2 + d2 / 2 - push) + side[0] * along,
              y + front[1] * (d / 2 + d2 / 2 - push) + side[1] * along)
    b = Polygon(rect_corners(Pose(centre[0], centre[1], (facing + 180) % 360), w, d2))
    depth = max(0.0, min(d / 2, d / 2 - push + d2) - max(-d / 2, d / 2 - push))  # along the front axis
    strip = depth * (w - abs(along))
    assert math.isclose(overlap_area(a, b), strip, abs_tol=1e-6)
    assert math.isclose(overlap_area(b, a), strip, abs_tol=1e-6)
