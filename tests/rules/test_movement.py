"""Movement rules: Hold, Advance, Rush, pivots, terrain, the 1" rule and the table edge."""

from __future__ import annotations

import pytest

from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.movement import apply_move, move_allowance, validate_move
from game.engine.state import GameState, MoveAction, Table, make_unit
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules.builders import ORCS, profile

SPEARMEN = profile("Spearmen", weapons=())


START = Pose(36, 10, 0)


def lone(pose: Pose = START, prof=SPEARMEN, models: int = 10, terrain=(), upgrades=frozenset(),
         enemy: Pose | None = None) -> GameState:
    """One player-1 unit ``u`` at ``pose``; an optional player-2 unit ``e`` at ``enemy``."""
    units = {"u": make_unit("u", 1, prof, models, pose, upgrades=upgrades)}
    if enemy is not None:
        units["e"] = make_unit("e", 2, ORCS, 10, enemy)
    return GameState("t", Table(), list(terrain), units, {1: None, 2: None})


def piece(name: str, traits: set[str], x: float, y: float, w: float, d: float) -> TerrainShape:
    return TerrainShape(0, name, rect_to_polygon(x, y, w, d, 0), frozenset(traits))


def test_advance_six_inches_forward_is_legal():
    """Rulebook: Advancing: the unit may move by up to 6"."""
    s = lone()
    validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])


def test_advance_further_than_six_inches_is_refused():
    """Rulebook: Advancing: up to 6"."""
    s = lone()
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16.5, 0)])
    assert e.value.rule == "Advancing"


def test_rush_twelve_inches():
    """Rulebook: Rushing: the unit may move by up to 12"."""
    s = lone()
    validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 22, 0)])
    with pytest.raises(IllegalAction):
        validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 22.5, 0)])


def test_no_rush_with_enemy_within_six_inches():
    """Rulebook: Rushing: a unit may not take a Rush action if an enemy unit is within 6" of it."""
    s = lone(Pose(36, 10, 0), enemy=Pose(36, 10 + 1.6 + 5 + 1.6, 180))
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(20, 10, 0)])
    assert e.value.rule == "Rushing"


def test_sideways_advance_is_limited_to_half():
    """Rulebook: Advancing: sideways or backward by up to half its move."""
    s = lone()
    validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(39, 10, 0)])
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(39.5, 10, 0)])
    assert "half" in e.value.message


def test_pivot_limits():
    """Rulebook: Advancing/Rushing: pivot once up to 90° or twice up to 45°; Holding: up to 180°."""
    s = lone()
    u = s.units["u"]
    validate_move(s, u, MoveAction.ADVANCE, [Pose(36, 10, 90), Pose(40, 10, 90)])
    validate_move(s, u, MoveAction.ADVANCE, [Pose(36, 10, 45), Pose(38, 12, 45), Pose(38, 12, 90)])
    with pytest.raises(IllegalAction):
        validate_move(s, u, MoveAction.ADVANCE, [Pose(36, 10, 120)])
    with pytest.raises(IllegalAction):
        validate_move(s, u, MoveAction.ADVANCE, [Pose(36, 10, 60), Pose(36, 10, 90)])
    validate_move(s, u, MoveAction.HOLD, [Pose(36, 10, 180)])
    with pytest.raises(IllegalAction):
        validate_move(s, u, MoveAction.HOLD, [Pose(37, 10, 0)])


def test_fast_slow_and_musician_change_the_allowance():
    """Rulebook: Fast +2"/+4", Slow -2"/-4"; Command Groups: Musician +1"."""
    fast = make_unit("f", 1, profile(rules=("Fast",)), 5, None)
    slow = make_unit("s", 1, profile(rules=("Slow",)), 5, None)
    band = make_unit("m", 1, profile(), 5, None, upgrades=frozenset({"musician"}))
    assert move_allowance(fast, MoveAction.ADVANCE) == 8
    assert move_allowance(fast, MoveAction.RUSH) == 16
    assert move_allowance(slow, MoveAction.ADVANCE) == 4
    assert move_allowance(slow, MoveAction.CHARGE) == 8
    assert move_allowance(band, MoveAction.ADVANCE) == 7


def test_difficult_terrain_caps_a_rush_at_six_inches():
    """Rulebook: Difficult Terrain: if any model moves in or through it, no model moves more than 6"."""
    swamp = piece("Bog", {"difficult"}, 36, 16, 10, 3)
    s = lone(terrain=[swamp])
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 20, 0)])
    assert e.value.rule == "Difficult Terrain"
    validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 16, 0)])


def test_impassable_terrain_blocks_the_path():
    """Rulebook: Impassable Terrain: units may not move through it."""
    wall = piece("Cliff", {"impassable", "blocking"}, 36, 15, 20, 1)
    s = lone(terrain=[wall])
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])
    assert e.value.rule == "Impassable Terrain"
    # the rule named once, then what crossed what
    assert str(e.value.message) == "leg 1 of the move crosses impassable terrain 'Cliff'"


def test_one_inch_from_other_units_and_table_edge():
    """Rulebook: General Movement: never within 1" of other units; never outside the battlefield."""
    s = lone(Pose(36, 10, 0), enemy=Pose(36, 18.2, 180))
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])
    assert e.value.rule == "General Movement" and '1"' in e.value.message
    s = lone(Pose(36, 2, 0))
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 0.5, 0)])
    assert "table edge" in e.value.message


def test_shaken_units_stay_idle():
    """Rulebook: Shaken Units: Shaken units must stay idle."""
    s = lone()
    s.units["u"].shaken = True
    with pytest.raises(IllegalAction):
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 12, 0)])


def test_dangerous_terrain_test_wounds_on_ones():
    """Rulebook: Dangerous Terrain: roll one die per model moving through; each 1 is a wound."""
    lava = piece("Lava", {"dangerous"}, 36, 13.5, 30, 1)
    s = lone(models=5, terrain=[lava])
    dice = Dice(sequence=[1, 1, 6, 6, 6])
    events = apply_move(s, dice, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])
    assert s.units["u"].models == 3
    assert any(e.kind == "roll" and "Dangerous" in e.text for e in events)
