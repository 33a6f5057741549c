"""Charges in the offing across terrain, as the computer opponent's evaluation judges them (game/ai/lanes.py;
AoWFBR 1.4 "Charge Moves": a charge that crosses difficult terrain moves at most 6"; "Impassable Terrain")."""

from __future__ import annotations

import pytest

from game.ai.evaluate import charge_reach, evaluate_terms
from game.ai.lanes import charge_open
from game.engine.charge import plan_charge
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import GameState, Unit
from geometry.terrain import TerrainShape
from tests.rules.builders import CENTRE_X, FRONT_Y, face_off, forest


def _engine_allows(state: GameState, charger: Unit, target: Unit) -> bool:
    try:
        plan_charge(state, charger, target, need_sight=False, explain=False)
        return True
    except IllegalAction:
        return False


@pytest.mark.parametrize(("gap", "wood", "open_"), [
    (10.0, False, True),      # 10" of open ground: within the 12" charge
    (10.0, True, False),      # a wood between: at most 6" (rulebook "Charge Moves")
    (5.0, True, True),        # within 6" the wood does not stop it
])
def test_a_charge_across_difficult_terrain_reaches_6_inches(gap: float, wood: bool, open_: bool) -> None:
    terrain = [forest(CENTRE_X, FRONT_Y + gap / 2, 30.0, gap / 3)] if wood else []
    s = face_off(gap, terrain=terrain)
    charger, target = s.units["archers-1"], s.units["orcs-1"]
    g = s.scene.distance(charger.id, target.id)
    assert charge_open(s, charger, target, g, charge_reach(Game.start(s, Dice(seed=1)), charger)) is open_
    assert _engine_allows(s, charger, target) is open_        # the engine, which decides, agrees here


def test_the_way_round_impassable_terrain_counts() -> None:
    """A building 30" wide across the lane of a charge 11" long: the way round is longer than 12"."""
    y = FRONT_Y + 5.5
    wall = TerrainShape(0, "Mill", ((CENTRE_X - 15, y - 1), (CENTRE_X + 15, y - 1), (CENTRE_X + 15, y + 1),
                                    (CENTRE_X - 15, y + 1)), frozenset({"impassable"}))
    s = face_off(11.0, terrain=[wall])
    charger, target = s.units["archers-1"], s.units["orcs-1"]
    g = s.scene.distance(charger.id, target.id)
    assert not charge_open(s, charger, target, g, 12.0)
    assert not _engine_allows(s, charger, target)
    open_ground = face_off(11.0)
    assert charge_open(open_ground, open_ground.units["archers-1"], open_ground.units["orcs-1"], g, 12.0)


def test_the_evaluation_counts_no_charge_the_wood_stops() -> None:
    """Across 10" of open ground the orcs' charge on the archers is counted; across a wood it is not."""
    open_ground = Game.start(face_off(10.0), Dice(seed=1))
    wooded = Game.start(face_off(10.0, terrain=[forest(CENTRE_X, FRONT_Y + 5.0, 30.0, 3.0)]), Dice(seed=1))
    assert evaluate_terms(open_ground, 1, 2)["charges"] != 0.0
    assert evaluate_terms(wooded, 1, 2)["charges"] == 0.0
