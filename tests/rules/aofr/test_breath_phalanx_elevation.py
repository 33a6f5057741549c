"""AoF:R 2.16 "Breath Attack" (line 486), "Phalanx" (line 494; its order in the "Advanced Rules", line 1250) and
"Elevation" (lines 396-404), with fixed dice (../shared/rules/aofr-2.16-full-rulebook.txt)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Move, Shoot, StrikeBack
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.rulesets.aofr import Activations
from game.terrain_kinds import default_traits
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import CENTRE_X, FRONT_Y, HAND_WEAPON, profile

DRAKE = profile("Drake", quality=4, defense=4, weapons=(HAND_WEAPON,), rules=("Breath Attack",), size=1,
                base=(50.0, 50.0))
PIKEMEN = profile("Pikemen", weapons=(HAND_WEAPON,), rules=("Phalanx",), size=4)
BOARS = profile("Boar Riders", weapons=(HAND_WEAPON,), rules=("Impact(1)", "Furious"), size=10)


def _activation(game: Game) -> Activations:
    a = game.state.activation
    assert isinstance(a, Activations)
    return a


def _drake_and_orcs(gap: float, dice: list[int]) -> Game:
    return aofr_game([unit("a", 1, DRAKE, models=1, per_row=1), unit("b", 2, front_y=FRONT_Y + gap)], dice=dice)


# --- Breath Attack ------------------------------------------------------------------------------------------------
def test_breath_attack_in_melee_deals_3_automatic_hits_with_ap1_that_count_toward_the_melee_result():
    """Rulebook "Breath Attack" (line 486): "Once per round, models with this special rule may either deal 3 automatic
    hits with AP(1) when fighting in melee...". The drake charges with its breath: 3 hits, Defense 5+ at AP(1)
    (6, 5, 1: the 5 fails with AP(1)) = 2 wounds, then its one attack (a miss). The orcs (8) strike back and miss.
    Melee result: 2 wounds + 1 (a single model) = 3 against 0 + 1 full row: the breath's wounds count
    (docs/rulings.md)."""
    game = _drake_and_orcs(2, [6, 5, 1] + [1] + [1] * 8 + [6])
    game.apply(Activate(1, "a"))
    assert game.ruleset.breath_in_melee("a")
    assert DeclareCharge(1, "a", "b", breath=True) in (game.ruleset.decision_options() or [])
    events = game.apply(DeclareCharge(1, "a", "b", breath=True))
    breath = next(e for e in events if e.kind == "hits" and e.data.get("weapon") == "Breath Attack")
    assert breath.data["hits"] == 3
    assert game.state.units["b"].models == 8
    assert _activation(game).breath_used == ["a"]
    assert not game.ruleset.breath_in_melee("b")       # the orcs have no breath
    events = game.apply(StrikeBack(2, "b"))
    result = next(e for e in events if e.kind == "melee" and "scores" in e.data)
    assert result.data["caused"] == {"a": 2, "b": 0} and result.data["scores"] == {"a": 3, "b": 1}
    assert game.dice.consumed == 13


def test_breath_attack_when_shooting_hits_one_enemy_within_12_inches_once_per_round():
    """Line 486: "... or to one enemy unit within 12\" when shooting". A drake without ranged weapons Holds 8" from
    the orcs: it may shoot (its breath): 3 hits at AP(1) (6 blocks, 5 and 1 fail) = 2 wounds; the activation ends.
    Once per round: when the orcs charge it later that round, it may not breathe again when striking back."""
    game = _drake_and_orcs(8, [6, 5, 1])
    game.apply(Activate(1, "a"))
    game.apply(Move(1, "a", "hold", ()))
    assert game.pending is not None and game.pending.decision == "shoot"
    assert game.ruleset.breath_targets("a") == ["b"] and game.ruleset.shooting_targets("a") == []
    assert (game.ruleset.decision_options() or [])[0] == Shoot(1, "a", "b", breath=True)
    game.apply(Shoot(1, "a", "b", breath=True))
    assert game.state.units["b"].models == 8 and game.dice.consumed == 3
    assert game.pending is not None and game.pending.decision == "activate" and game.pending.player == 2
    assert _activation(game).breath_used == ["a"]


def test_breath_attack_is_used_once_per_round_and_not_beyond_12_inches():
    """Line 486: "Once per round": a drake that breathed when shooting may not breathe in melee the same round
    (``strike_back`` with ``breath`` is refused, and not offered); 13" away there is nothing to breathe on, so a Hold
    ends the activation without shooting."""
    far = _drake_and_orcs(13, [])
    far.apply(Activate(1, "a"))
    far.apply(Move(1, "a", "hold", ()))
    assert far.pending is not None and far.pending.decision == "activate"
    game = _drake_and_orcs(6, [6, 6, 6] + [1] * 10)
    game.apply(Activate(1, "a"))
    game.apply(Move(1, "a", "hold", ()))
    game.apply(Shoot(1, "a", "b", breath=True))
    game.apply(Activate(2, "b"))
    game.apply(DeclareCharge(2, "b", "a"))
    assert game.pending is not None and game.pending.decision == "strike_back"
    assert not game.ruleset.breath_in_melee("a")
    assert StrikeBack(1, "a", breath=True) not in (game.ruleset.decision_options() or [])
    before = game.dice.consumed
    with pytest.raises(IllegalAction, match="Breath Attack"):
        game.apply(StrikeBack(1, "a", breath=True))
    assert game.dice.consumed == before


def test_breath_needs_the_rule():
    """Orcs have no Breath Attack: a charge with ``breath`` is refused and changes nothing."""
    game = aofr_game([unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)])
    game.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction, match="Breath Attack"):
        game.apply(DeclareCharge(1, "a", "b", breath=True))
    assert game.state.units["a"].engaged_with == set() and game.dice.consumed == 0


# --- Phalanx ------------------------------------------------------------------------------------------------------
def test_phalanx_charged_in_front_the_charger_tests_dangerous_terrain_first_and_has_not_charged():
    """Rulebook "Phalanx" (line 494): "Enemies charging the front facing of units where all models have this special
    rule don't count as having charged for the purpose of special rules, and they must take a Dangerous Terrain test
    before attacking.
    Note that the charging unit must only roll up to as many Dangerous Terrain test dice as models with the Phalanx
    rule in the two front rows of the target unit." Line 1250: the tests resolve before impact hits and strikes
    (models removed first). Ten boar riders (Impact(1), Furious) charge 4 pikemen (2 rows of 2): 4 dice, not 10
    (1, 1, 6, 6: 2 riders die), then no Impact hits and no Furious attack: the 8 riders left strike with 8 attacks."""
    riders = unit("a", 1, BOARS, models=10)
    pikes = unit("b", 2, PIKEMEN, models=4, per_row=2, front_y=FRONT_Y + 2)
    game = aofr_game([riders, pikes], dice=[1, 1, 6, 6] + [1] * 8 + [1] * 4 + [6])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    test = next(e for e in events if e.kind == "roll" and "Phalanx" in e.text)
    assert test.data["dice"] == [1, 1, 6, 6]
    assert not any(e.data.get("weapon") == "Impact" for e in events)
    strike = next(e for e in events if e.kind == "info" and e.data.get("unit") == "a" and "attacks" in e.data)
    assert strike.data["attacks"] == 8
    assert riders.models == 8
    game.apply(StrikeBack(2, "b"))
    assert game.dice.consumed == 17


def test_without_phalanx_the_same_charge_has_impact_and_furious():
    """The same charge against pikemen without Phalanx: no test, 10 Impact hits and 10 x 2 attacks (Furious)."""
    plain = profile("Spearmen", weapons=(HAND_WEAPON,), size=4)
    game = aofr_game([unit("a", 1, BOARS, models=10), unit("b", 2, plain, models=4, per_row=2, front_y=FRONT_Y + 2)],
                     dice=[6] * 10 + [1] * 40)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert any(e.data.get("weapon") == "Impact" and e.data.get("hits") == 10 for e in events)
    assert not any(e.kind == "roll" and "Phalanx" in e.text for e in events)


# --- Elevation ------------------------------------------------------------------------------------------------------
def _hill(height: float, y0: float = FRONT_Y + 1, y1: float = FRONT_Y + 20) -> TerrainShape:
    return TerrainShape(0, "Tall Hill", rect_to_polygon(CENTRE_X, (y0 + y1) / 2, 30, y1 - y0), default_traits("hill"),
                        height)


@pytest.mark.parametrize("height,forward,legal", [(3.0, 3.0, True), (3.0, 3.5, False), (2.0, 3.5, True)])
def test_moving_onto_elevation_counts_the_climb(height, forward, legal):
    """Lines 400-404: "Any terrain piece that is at least 3\" taller than the surface of the table counts as
    elevation. When moving onto elevation, simply count the vertical movement as part of the unit's regular
    movement." An Advance (6") onto a 3" hill may move 3" and climb 3", not 3.5"; a 2" hill is no elevation."""
    a = unit("a", 1)
    game = aofr_game([a, unit("b", 2, front_y=40)], terrain=[_hill(height)])
    game.apply(Activate(1, "a"))
    assert a.pose is not None
    move = Move(1, "a", "advance", (Pose(a.pose.x, a.pose.y + forward, 0.0),))
    why = game.check_move(move)
    assert (why is None) == legal, why
    if not legal:
        assert why is not None and why.rule == "Elevation" and "climbs 3\" onto Tall Hill" in why.message


def test_moving_along_or_down_elevation_climbs_nothing():
    """"When moving onto elevation": a unit already standing on the hill moves along it (or off it) without a
    climb: 6" on the hill's top is a legal Advance."""
    a = unit("a", 1, front_y=FRONT_Y + 8)
    game = aofr_game([a, unit("b", 2, front_y=44)], terrain=[_hill(4.0, FRONT_Y - 4, FRONT_Y + 20)])
    game.apply(Activate(1, "a"))
    assert a.pose is not None
    assert game.check_move(Move(1, "a", "advance", (Pose(a.pose.x, a.pose.y + 6.0, 0.0),))) is None


def test_charging_onto_elevation_counts_the_climb():
    """A charge up a 3" hill: difficult going up (6") and the climb counted: 2" plus 3" of climb reaches; 4" plus 3"
    does not (refused naming "Elevation")."""
    near = aofr_game([unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)], terrain=[_hill(3.0)])
    near.apply(Activate(1, "a"))
    plan = near.ruleset.charge_plan("a", "b")
    assert plan.climb == 3.0
    far = aofr_game([unit("a", 1), unit("b", 2, front_y=FRONT_Y + 4)], terrain=[_hill(3.0)])
    far.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction) as why:
        far.ruleset.charge_plan("a", "b")
    assert why.value.rule == "Elevation"



def test_the_quick_rules_refuse_breath():
    """Rulebook "Breath Attack" is AoF:R 2.16's: under the quick rules a ``declare_charge`` with ``breath`` is
    refused naming it (``Ruleset.breath_attacks``), and nothing changes."""
    game = aofr_game([unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)])
    game.state.ruleset = "aofr-quick"
    quick = Game.start(game.state, game.dice)
    quick.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction, match="only AoF:R 2.16 plays it"):
        quick.apply(DeclareCharge(1, "a", "b", breath=True))
    assert quick.state.units["a"].engaged_with == set()


def test_phalanx_charged_in_the_flank_does_not_stop_the_charge():
    """Rulebook "Phalanx" (line 494) protects the "front facing": boar riders charging the pikemen's flank take no
    Dangerous Terrain test and keep their Impact hits."""
    from game.engine.state import make_unit
    pikes = make_unit("b", 2, PIKEMEN, 4, Pose(CENTRE_X, FRONT_Y + 2.8, 90.0), per_row=2)
    game = aofr_game([unit("a", 1, BOARS, models=5), pikes], dice=[1] * 60)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    side = next(e for e in events if e.kind == "charge" and "side" in e.data).data["side"]
    assert side != "front"
    assert not any(e.kind == "roll" and "Phalanx" in e.text for e in events)
    assert any(e.data.get("weapon") == "Impact" for e in events)
