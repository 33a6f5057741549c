"""AoF: Skirmish "Movement", "Activation", "Difficult Terrain" with loose models (../shared/rules/
aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.actions import Activate, Done
from game.engine.errors import IllegalAction
from game.engine.profiles import Profile, Weapon
from game.engine.skirmish.loose import coherency_problem, points_of, warband_of
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import WARRIOR, line, move, shifted, skirmish_game, unit

FAST = Profile("Rider", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Spear", 1),), ("Fast",))


def _game(terrain=()):
    a, b = unit("a", 1, WARRIOR, 3), unit("b", 2, WARRIOR, 3)
    g = skirmish_game([(a, line(10, 10, 3)), (b, line(10, 40, 3))], terrain=terrain)
    g.apply(Activate(1, "a"))
    return g


def test_coherency_needs_1_inch_to_one_member_and_6_to_all():
    """"Unit members must stay within 1" of at least one other member, and within 6" of all other members"
    (edge to edge, 1" bases)."""
    assert coherency_problem([(0, 0), (2, 0)], 0.5) is None            # 1" apart
    assert "not within 1\"" in coherency_problem([(0, 0), (2.2, 0)], 0.5)
    chain = [(0, 0), (1.9, 0), (3.8, 0), (5.7, 0), (7.6, 0)]            # neighbours 0.9" apart, ends 6.6"
    assert "within 6\" of all" in coherency_problem(chain, 0.5)
    assert coherency_problem(chain[:4], 0.5) is None


@given(st.floats(0.0, 1.0), st.floats(0.0, 4.0))
def test_coherency_property_two_models(gap_, spare):
    """Two models are coherent exactly when their bases are at most 1" apart."""
    ok = coherency_problem([(0.0, 0.0), (1.0 + gap_, 0.0)], 0.5) is None
    assert ok
    assert coherency_problem([(0.0, 0.0), (2.0 + 1e-3 + spare, 0.0)], 0.5) is not None


def test_advance_moves_each_model_up_to_6_inches_keeping_shape():
    """"Activation": Advance 6"; the unit moves as a group."""
    g = _game()
    start = points_of(g.state, "a")
    g.apply(move(1, "a", "advance", shifted(start, 0, 6)))
    assert points_of(g.state, "a") == shifted(start, 0, 6)


def test_a_model_moving_more_than_its_allowance_is_refused():
    g = _game()
    with pytest.raises(IllegalAction, match="Movement: .* 6.20\"; it may move 6\""):
        g.apply(move(1, "a", "advance", shifted(points_of(g.state, "a"), 0, 6.2)))
    g.apply(move(1, "a", "rush", shifted(points_of(g.state, "a"), 0, 12)))   # Rush 12"


def test_one_model_may_be_nudged_on_its_own_within_coherency():
    """Any model may move on its own within its allowance; the unit must stay in coherency."""
    g = _game()
    pts = points_of(g.state, "a")
    with pytest.raises(IllegalAction, match="coherency"):
        g.apply(move(1, "a", "advance", [pts[0], pts[1], (pts[2][0] + 3, pts[2][1])]))
    g.apply(move(1, "a", "advance", [pts[0], pts[1], (pts[2][0], pts[2][1] + 1.2)]))
    assert points_of(g.state, "a")[2] == (pts[2][0], pts[2][1] + 1.2)


def test_units_may_only_be_within_1_inch_of_other_units_when_charging():
    """"Units may only be within 1" of other units when charging"."""
    g = _game()
    pts = points_of(g.state, "a")
    warband_of(g.state).models["b"][0].y = 20.0       # b's first model 9" from a's (edge to edge)
    with pytest.raises(IllegalAction, match="within 1\" of Warrior \\(b\\) \\(0.50\"\\)"):
        g.apply(move(1, "a", "rush", shifted(pts, 0, 8.5)))
    with pytest.raises(IllegalAction, match="would move through Warrior \\(b\\)"):
        g.apply(move(1, "a", "rush", shifted(pts, 0, 9.5)))
    g.apply(move(1, "a", "rush", shifted(pts, 0, 8.0)))     # 1" away: allowed


def test_difficult_terrain_caps_the_move_at_6_inches():
    """"Difficult Terrain: Units moving through difficult terrain at any point can't move more than 6"."""
    wood = TerrainShape(0, "Wood", ((5, 14), (20, 14), (20, 18), (5, 18)), frozenset({"difficult", "cover"}))
    g = _game([wood])
    pts = points_of(g.state, "a")
    with pytest.raises(IllegalAction, match="Difficult Terrain"):
        g.apply(move(1, "a", "rush", shifted(pts, 0, 9)))
    g.apply(move(1, "a", "rush", shifted(pts, 0, 6)))


def test_fast_advances_8_inches():
    """Fast: "Moves +2" when using Advance"."""
    r, b = unit("r", 1, FAST, 1), unit("b", 2, WARRIOR, 1)
    g = skirmish_game([(r, [(10, 10)]), (b, [(40, 40)])])
    g.apply(Activate(1, "r"))
    g.apply(move(1, "r", "advance", [(10, 18)]))
    assert points_of(g.state, "r") == [(10, 18)]


def test_hold_ends_the_activation_of_a_unit_without_targets_and_players_alternate():
    """"Each round, players alternate in activating one unit each"."""
    g = _game()
    g.apply(Done(1))
    assert g.pending.player == 2 and g.pending.decision == "activate"
    assert warband_of(g.state).activated == ["a"]


def test_models_do_not_move_through_other_units_but_flying_ones_do():
    """Flying: "May move through units and terrain" (so others may not: docs/rulings.md)."""
    flyer = Profile("Bat", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Fangs", 1),), ("Flying",))
    a, b, f = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1), unit("f", 1, flyer, 1)
    g = skirmish_game([(a, [(10, 10)]), (f, [(12, 8)]), (b, [(12, 14)])])
    g.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction, match="would move through Warrior \\(b\\)"):
        g.apply(move(1, "a", "rush", [(14, 19)]))        # straight through the orc at (12, 14)
    g.apply(Done(1))
    g.apply(Activate(2, "b"))
    g.apply(Done(2))
    g.apply(Activate(1, "f"))
    g.apply(move(1, "f", "rush", [(12, 19)]))            # over the orc
    assert points_of(g.state, "f") == [(12, 19)]
