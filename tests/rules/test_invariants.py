"""The invariants the autoplay games check after every action (``game.autoplay.state_is_consistent``)."""

from __future__ import annotations

from game.autoplay import state_is_consistent
from geometry.arcs import Arc
from geometry.pose import Pose
from geometry.shapes import CONTACT_TOL
from tests.rules.melee_builders import INCH_PER_BASE, state_of, unit

DEPTH = 2 * INCH_PER_BASE
"""Depth of a 10-model unit (2 rows of 20 mm), inches."""


def test_touching_within_the_contact_tolerance_is_not_overlapping():
    """Rulebook: General Movement (never through other units): footprints sharing a side within geometry's contact
    tolerance touch (as flush placements leave them); sharing more is an overlap."""
    a = unit("a", 1, pose=Pose(36.0, 20.0, 0.0))
    b = unit("b", 1, pose=Pose(36.0, 20.0 + DEPTH - 0.9 * CONTACT_TOL, 0.0))  # 3.94" x 0.0009": touching
    assert state_is_consistent(state_of(a, b)) == []
    c = unit("c", 1, pose=Pose(36.0, 20.0 + DEPTH - 0.05, 0.0))
    assert state_is_consistent(state_of(a, c)) == ["a overlaps c"]


def test_enemies_within_one_inch_outside_melee_break_the_invariants():
    """Rulebook: General Movement: models may never be within 1" of models from other units, unless charging or
    in melee."""
    a = unit("a", 1, pose=Pose(36.0, 20.0, 0.0))
    e = unit("e", 2, pose=Pose(36.0, 20.0 + DEPTH + 0.5, 180.0))
    s = state_of(a, e)
    assert state_is_consistent(s) == ['a is within 1" of enemy e outside melee (0.50")']
    s.engage(a, e, Arc.FRONT, Arc.FRONT)
    assert state_is_consistent(s) == []
