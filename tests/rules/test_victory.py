"""Victory Points (rulebook "Victory Conditions")."""

from __future__ import annotations

from game.engine.casualties import apply_wounds
from game.engine.state import GameState, Removal, Table, make_unit
from game.engine.victory import victory_breakdown, victory_points
from geometry.pose import Pose
from tests.rules.builders import ORCS, face_off, profile

CAPTAIN = profile("Captain", rules=("Hero", "Tough(3)"), size=1, cost=80)
WARBOSS = profile("Warboss", rules=("Hero", "Tough(3)"), size=1, cost=90)


def test_nothing_scored_at_the_start():
    """Rulebook: Victory Conditions: points are only for destroyed and damaged enemy units."""
    s = face_off(12)
    assert victory_points(s) == {1: 0, 2: 0}
    assert victory_breakdown(s) == {1: [], 2: []}


def test_destroyed_unit_scores_its_full_cost():
    """Rulebook: Victory Conditions: each enemy unit destroyed rewards 100% of its points cost."""
    s = face_off(12)
    apply_wounds(s, s.units["orcs-1"], 10, "test")
    assert victory_breakdown(s)[1] == [("Orc Boyz (orcs-1) destroyed", 100)]
    assert victory_points(s) == {1: 100, 2: 0}


def test_routed_unit_with_banner_scores_fifty_more():
    """Rulebook: Victory Conditions: plus 50 points if the unit included a standard bearer."""
    s = face_off(12, target_upgrades=frozenset({"banner", "sergeant"}))
    s.remove(s.units["orcs-1"], Removal.ROUTED)
    assert victory_breakdown(s)[1] == [("Orc Boyz (orcs-1) routed (with its banner +50)", 150)]


def test_unit_that_fled_the_battlefield_scores_its_cost():
    """Rulebook: Victory Conditions: a unit that fled the battlefield rewards 100% of its cost."""
    s = face_off(12)
    s.remove(s.units["archers-1"], Removal.FLED)
    assert victory_breakdown(s)[2] == [("Archers (archers-1) fled the battlefield", 100)]
    assert victory_points(s) == {1: 0, 2: 100}


def test_combined_unit_scores_the_cost_of_all_its_copies():
    """Rulebook: Combined Units / Victory Conditions: the unit's points cost is that of every copy in it."""
    s = face_off(12, target_models=20)
    apply_wounds(s, s.units["orcs-1"], 20, "test")
    assert victory_points(s)[1] == 200


def test_half_strength_scores_half_the_cost():
    """Rulebook: Victory Conditions: a unit reduced to half or less of its starting size rewards 50% of its cost."""
    s = face_off(12)
    apply_wounds(s, s.units["orcs-1"], 4, "test")
    assert victory_points(s)[1] == 0
    apply_wounds(s, s.units["orcs-1"], 1, "test")
    assert victory_breakdown(s)[1] == [("Orc Boyz (orcs-1) at half strength or less", 50)]


def test_half_of_an_odd_cost_rounds_down():
    """Rulebook: Victory Conditions: 50% of its points cost (docs/rulings.md: rounded down)."""
    s = face_off(12, target=profile("Orc Boyz", cost=75))
    apply_wounds(s, s.units["orcs-1"], 5, "test")
    assert victory_points(s)[1] == 37


def test_single_model_at_half_its_tough_value():
    """Rulebook: Victory Conditions: half or less of its tough value for units with a single model."""
    giant = profile("Giant", rules=("Tough(6)",), size=1, cost=200)
    s = face_off(12, target=giant, target_models=1)
    apply_wounds(s, s.units["orcs-1"], 2, "test")
    assert victory_points(s)[1] == 0
    apply_wounds(s, s.units["orcs-1"], 1, "test")
    assert victory_points(s)[1] == 100


def _with_generals(own_general: bool) -> GameState:
    units = {
        "captain": make_unit("captain", 1, CAPTAIN, 1, Pose(20, 5, 0)),
        "boss": make_unit("boss", 2, WARBOSS, 1, Pose(20, 40, 180)),
        "orcs-1": make_unit("orcs-1", 2, ORCS, 10, Pose(40, 40, 180)),
    }
    return GameState("t", Table(), [], units, {1: "captain" if own_general else None, 2: "boss"})


def test_killing_the_enemy_general_scores_one_hundred_more():
    """Rulebook: Victory Conditions: if the enemy General is killed, routed or fled you get 100 Victory Points."""
    s = _with_generals(True)
    apply_wounds(s, s.units["boss"], 3, "test")
    assert victory_breakdown(s)[1] == [("Warboss (boss) destroyed", 90), ("enemy General Warboss (boss) killed", 100)]
    assert victory_points(s) == {1: 190, 2: 0}


def test_no_general_bonus_without_a_general_of_your_own():
    """Rulebook: Victory Conditions: armies without a general cannot claim Victory Points for killing the enemy
    General."""
    s = _with_generals(False)
    s.remove(s.units["boss"], Removal.ROUTED)
    assert victory_points(s) == {1: 90, 2: 0}


def test_units_never_deployed_score_nothing():
    """Rulebook: Victory Conditions: only destroyed, routed, fled or damaged units score (docs/rulings.md)."""
    s = face_off(12)
    s.units["late"] = make_unit("late", 2, ORCS, 10, None)
    assert victory_points(s) == {1: 0, 2: 0}


def test_both_players_score_at_once():
    """Rulebook: Victory Conditions: the player who scores the most Victory Points wins."""
    s = face_off(12)
    apply_wounds(s, s.units["orcs-1"], 10, "test")
    apply_wounds(s, s.units["archers-1"], 6, "test")
    assert victory_points(s) == {1: 100, 2: 50}
