"""The AoF:R quick rules' "Playing the Game", "Activation", "Movement", "Shooting", "Morale Tests", "Shaken",
"Cover Terrain", "Dangerous Terrain" and the "Mission" where they differ from AoF:R 2.16, with fixed dice
(../shared/rules/aofr-quick-rules.md)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, Done, Move, RallyPivot, Shoot, StrikeBack
from game.engine.errors import IllegalAction
from game.engine.state import Objective
from geometry.pose import Pose
from geometry.terrain import TerrainShape
from tests.rules.aofr.helpers import unit
from tests.rules.aofr_quick.helpers import quick_game
from tests.rules.builders import ARCHERS, FRONT_Y, forest


def test_a_shaken_unit_stays_idle_pivots_up_to_90_and_stops_being_shaken():
    """"Shaken": "Must stay idle ... Shaken units must spend one full activation idle to stop being Shaken, but may
    pivot by up to 90° when doing so"."""
    orcs = unit("orcs", 2, front_y=40)
    orcs.shaken = True
    game = quick_game([orcs, unit("archers", 1, ARCHERS, x=10)], first=2)
    game.apply(Activate(2, "orcs"))
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("wavering", "orcs")
    assert game.units_to_move(2) == [] and game.charge_targets("orcs") == []
    with pytest.raises(IllegalAction, match="a Shaken unit may only pivot by up to 90") as err:
        game.apply(RallyPivot(2, "orcs", 300.0))
    assert err.value.rule == "Shaken"
    events = game.apply(RallyPivot(2, "orcs", 270.0))
    assert not orcs.shaken and any(e.text == "Orc Boyz (orcs) stays idle and is no longer Shaken" for e in events)


def test_shaken_units_neither_seize_nor_contest_objectives():
    """"Shaken": "can't contest or seize objectives"; "Mission": "if a unit is within 3" of a marker while enemies
    aren't, then it's seized". The Shaken unit within 3" neither seizes the marker nor keeps the enemy from it."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 5)
    game = quick_game([a, b], round_=4, first=2)
    assert a.pose is not None
    game.state.mission = "standard"
    game.state.objectives = [Objective(a.pose.x, FRONT_Y + 2.5)]
    game.apply(Activate(2, "b"))
    game.apply(Done(2))
    b.shaken = True            # made Shaken after its activation (as by a charge later in the round)
    game.apply(Activate(1, "a"))
    game.apply(Done(1))
    assert game.state.game_over
    assert game.state.objectives[0].controller == 1 and game.victory_points() == {1: 1, 2: 0}


def test_shooting_to_half_strength_makes_a_unit_shaken_at_the_end_of_the_activation():
    """"Morale Tests": "At the end of an activation where wounds leave a unit with half or less of its total size
    ... the unit must take a morale test ... if failed the unit is Shaken"; "Shooting": every model in range and
    line of sight fires (15 archers in three rows)."""
    archers = unit("archers", 1, ARCHERS, models=15)
    orcs = unit("orcs", 2, front_y=FRONT_Y + 12)
    game = quick_game([archers, orcs], dice=[6] * 5 + [1] * 10 + [1] * 5 + [1])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    assert orcs.models == 5 and orcs.shaken and orcs.removed is None
    assert any(e.kind == "shaken" and e.text == "Orc Boyz (orcs) is Shaken" for e in events)
    assert game.dice.consumed == 21


def test_cover_gives_plus_one_defense_not_minus_one_to_hit():
    """"Cover Terrain": units "with most models fully inside cover terrain ... get +1 to Defense rolls when blocking
    hits from shooting" (AoF:R 2.16 gave the shooters -1 to hit instead): 4s hit, and the blocks get +1."""
    archers = unit("archers", 1, ARCHERS, models=10)
    wood = forest(36.0, FRONT_Y + 14, 20.0, 8.0)
    game = quick_game([archers, unit("orcs", 2, front_y=FRONT_Y + 12)], dice=[4] * 10 + [4] * 10, terrain=[wood])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    rolls = [e for e in events if e.kind == "roll"]
    assert rolls[0].data["modifier"] == 0 and rolls[1].data["modifier"] == 1
    assert next(e for e in events if e.kind == "hits").data["hits"] == 10
    assert game.dice.consumed == 20


def test_a_rush_may_pivot_once_at_any_point():
    """"Movement": "may pivot once by up to 90° at any point when using other actions" (AoF:R 2.16's Rush pivots
    first, then moves straight)."""
    archers = unit("archers", 1, ARCHERS, models=10)
    game = quick_game([archers, unit("orcs", 2, front_y=44)])
    s = archers.pose
    assert s is not None
    game.apply(Activate(1, "archers"))
    rush = Move(1, "archers", "rush", (Pose(s.x, s.y + 4.0, 0.0), Pose(s.x, s.y + 4.0, 90.0),
                                       Pose(s.x + 4.0, s.y + 4.0, 90.0)))
    assert game.check_move(rush) is None
    twice = Move(1, "archers", "rush", (Pose(s.x, s.y + 4.0, 0.0), Pose(s.x, s.y + 4.0, 45.0),
                                        Pose(s.x + 2.0, s.y + 6.0, 45.0), Pose(s.x + 2.0, s.y + 6.0, 90.0)))
    err = game.check_move(twice)
    assert err is not None and err.rule == "Rushing"


def test_a_unit_that_activates_in_dangerous_terrain_rolls_for_its_models():
    """"Dangerous Terrain": "Models moving across dangerous terrain, or that activate in it, must roll one die ...
    and for each roll of 1 the unit takes a wound": five of the ten orcs stand in a tar pit and Hold."""
    orcs = unit("orcs", 1)
    assert orcs.pose is not None
    front_row = orcs.pose.y + 0.4                      # the front row of 20 mm bases, not the second
    pit = TerrainShape(0, "Tar Pit", ((20.0, front_row), (52.0, front_row), (52.0, front_row + 0.3),
                                      (20.0, front_row + 0.3)), frozenset({"dangerous"}))
    game = quick_game([orcs, unit("far", 2, front_y=44)], dice=[1, 1, 6, 6, 6], terrain=[pit])
    events = game.apply(Activate(1, "orcs"))
    roll = next(e for e in events if e.kind == "roll")
    assert "Dangerous terrain test" in roll.data["purpose"] and roll.data["dice"] == [1, 1, 6, 6, 6]
    assert orcs.models == 8 and game.pending is not None and game.pending.decision == "action"


def test_the_sergeants_sixes_deal_an_extra_hit_when_shooting():
    """"Sergeant": "When this model attacks, unmodified results of 6 to hit deal 1 extra hit" (not AoWFBR's +1 to
    hit): the nine others roll first, then the Sergeant's die, a 6: 1 + 1 extra hits; its 3 would have hit with +1."""
    archers = unit("archers", 1, ARCHERS, models=10, upgrades=frozenset({"sergeant"}))
    game = quick_game([archers, unit("orcs", 2, front_y=FRONT_Y + 8)], dice=[1] * 9 + [6] + [1, 1])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    events = game.apply(Shoot(1, "archers", "orcs", ("Longbow",)))
    sarge = [e for e in events if e.kind == "roll" and "Sergeant" in e.data["purpose"]]
    assert sarge and sarge[0].data["modifier"] == 0
    hits = next(e for e in events if e.kind == "hits")
    assert hits.data["hits"] == 2 and "Sergeant +1" in hits.text and game.dice.consumed == 12


@pytest.mark.parametrize("gap,extra", [(8.0, 0), (10.0, 1)])
def test_relentless_works_over_nine_inches_whatever_the_move(gap, extra):
    """"Relentless": "When this model shoots at enemies over 9" away, unmodified results of 6 to hit deal 1 extra
    hit" (AoWFBR: after a Hold). After an Advance, one 6 among ten dice: 1 hit at 8", 2 at 10"."""
    from game.engine.profiles import Weapon
    from tests.rules.builders import profile
    guns = profile("Gunners", weapons=(Weapon("Handgun", attacks=1, range=24.0, rules=("Relentless",)),))
    gunners = unit("guns", 1, guns, models=10)
    assert gunners.pose is not None
    game = quick_game([gunners, unit("orcs", 2, front_y=FRONT_Y + gap + 1.0)], dice=[6] + [1] * 9 + [1] * 2)
    game.apply(Activate(1, "guns"))
    game.apply(Move(1, "guns", "advance", (Pose(gunners.pose.x, gunners.pose.y + 1.0, 0.0),)))
    events = game.apply(Shoot(1, "guns", "orcs", ("Handgun",)))
    assert next(e for e in events if e.kind == "hits").data["hits"] == 1 + extra


def test_the_odds_of_a_quick_rules_shot_are_simulated_on_the_engine():
    """The odds advisor (game.odds): the quick rules' shooting (every model fires, the Sergeant's 6s, Relentless
    over 9") is not AoWFBR's, so the exact law is not used (``shot_odds`` None) and the advice is simulated on the
    engine itself: 15 archers in three rows, Quality 4+, make about 7.5 hits."""
    from game.odds import shot_advice
    from game.odds.exact import shot_odds
    archers = unit("archers", 1, ARCHERS, models=15)
    game = quick_game([archers, unit("orcs", 2, front_y=FRONT_Y + 12)])
    game.apply(Activate(1, "archers"))
    game.apply(Move(1, "archers", "hold", ()))
    action = Shoot(1, "archers", "orcs", ("Longbow",))
    assert shot_odds(game.state, action) is None
    advice = shot_advice(game, action)
    assert advice.samples > 0 and 5.0 < advice.hits.mean < 10.0


def test_unstoppable_ignores_negative_modifiers_to_its_hit_rolls():
    """The quick rules' rulebook:
    "Unstoppable": "ignores all negative modifiers to this weapon": Stealth's -1 from over 9" is not applied
    (a 4 hits on Quality 4+)."""
    from game.engine.profiles import Weapon
    from tests.rules.builders import profile
    bows = profile("Bows", weapons=(Weapon("Great Bow", attacks=1, range=24.0, rules=("Unstoppable",)),))
    sneaks = profile("Sneaks", rules=("Stealth",))
    shooters = unit("bows", 1, bows, models=10)
    game = quick_game([shooters, unit("sneaks", 2, sneaks, front_y=FRONT_Y + 12)], dice=[4] * 10 + [1] * 10)
    game.apply(Activate(1, "bows"))
    game.apply(Move(1, "bows", "hold", ()))
    events = game.apply(Shoot(1, "bows", "sneaks", ("Great Bow",)))
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["modifier"] == 0 and roll.data["successes"] == 10


def test_artillery_holds_only_and_shoots_better_from_afar_and_is_hit_worse():
    """The quick rules' rulebook:
    "Artillery": "May only use Hold actions. When this model shoots at enemies over 9" away, it gets +1 to hit
    rolls. When enemy units shoot at this model from over 9" away, they get -2 to hit rolls"."""
    from game.engine.profiles import Weapon
    from tests.rules.builders import profile
    gun = profile("Cannon", weapons=(Weapon("Cannon", attacks=1, range=36.0),), rules=("Artillery",), size=1,
                  base=(50.0, 50.0))
    cannon = unit("cannon", 1, gun, models=1, per_row=1)
    archers = unit("archers", 2, ARCHERS, models=10, front_y=FRONT_Y + 12)
    game = quick_game([cannon, archers], dice=[3, 1] + [5] * 10, first=1)
    assert cannon.pose is not None
    game.apply(Activate(1, "cannon"))
    err = game.check_move(Move(1, "cannon", "advance", (Pose(cannon.pose.x, cannon.pose.y + 1.0, 0.0),)))
    assert err is not None
    game.apply(Move(1, "cannon", "hold", ()))
    events = game.apply(Shoot(1, "cannon", "archers", ("Cannon",)))
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["modifier"] == 1 and roll.data["successes"] == 1        # a 3 hits with +1
    game.apply(Activate(2, "archers"))
    game.apply(Move(2, "archers", "hold", ()))
    events = game.apply(Shoot(2, "archers", "cannon", ("Longbow",)))
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["modifier"] == -2 and roll.data["successes"] == 0       # 5s miss with -2


def test_rending_sixes_add_four_to_the_ap_when_shooting_too():
    """"Rendering": "on unmodified results of 6 to hit, those hits get AP(+4)": an AP(1) crossbow's 6 is blocked
    at -5."""
    from game.engine.profiles import Weapon
    from tests.rules.builders import profile
    bows = profile("Bows", weapons=(Weapon("Rending Bow", attacks=1, range=24.0, rules=("AP(1)", "Rending")),))
    shooters = unit("bows", 1, bows, models=10)
    game = quick_game([shooters, unit("orcs", 2, front_y=FRONT_Y + 8)], dice=[6] + [1] * 9 + [5])
    game.apply(Activate(1, "bows"))
    game.apply(Move(1, "bows", "hold", ()))
    action = Shoot(1, "bows", "orcs", ("Rending Bow",))
    events = game.apply(action)
    block = next(e for e in events if e.kind == "roll" and "Defense against Rending" in e.data["purpose"])
    assert block.data["modifier"] == -5


def test_a_limited_melee_weapon_strikes_once_a_game():
    """"Limited": "May only be used once per game": the bomb strikes in the first melee only."""
    from game.engine.actions import DeclareCharge
    from game.engine.profiles import Weapon
    from tests.rules.builders import HAND_WEAPON, profile
    bombers = profile("Bombers", weapons=(HAND_WEAPON, Weapon("Bomb", attacks=1, rules=("Limited",))))
    a, b = unit("a", 1, bombers), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 20 + [1] * 10 + [1] * 10 + [1] * 10)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert {e.data["weapon"] for e in events if e.kind == "info" and e.data.get("unit") == "a"} == \
        {"Hand Weapon", "Bomb"}
    game.apply(Done(2))
    game.apply(Activate(2, "b"))
    game.apply(DeclareCharge(2, "b", "a"))
    events = game.apply(StrikeBack(1, "a"))
    assert {e.data["weapon"] for e in events if e.kind == "info" and e.data.get("unit") == "a"} == {"Hand Weapon"}


def test_takedown_weapons_fire_first_and_may_pick_a_joined_hero():
    """The quick rules' rulebook:
    "Takedown": "This model may pick any model in the target unit as its individual target, which is resolved as
    if it was a unit of [1]. Takedown attacks must be resolved before other weapons": the harpoon fires before the
    longbow; with ``model`` it alone fires, at the orcs' joined Boss (Defense 2+), wounding only him."""
    from game.engine.profiles import Weapon
    from tests.rules.builders import LONGBOW, join_hero, profile
    hunters = profile("Hunters", weapons=(LONGBOW, Weapon("Harpoon", attacks=1, range=18.0, rules=("Takedown",))))
    boss = profile("Boss", quality=3, defense=2, weapons=(Weapon("Axe", attacks=3),), rules=("Hero", "Tough(3)"),
                   size=1)
    shooters = unit("hunters", 1, hunters, models=10)
    orcs = unit("orcs", 2, front_y=FRONT_Y + 8)
    game = quick_game([shooters, orcs], dice=[1] * 20)
    join_hero(game.state, "orcs", boss, "boss")
    game = quick_game([shooters, orcs], dice=[6] * 10 + [1] * 10 + [1] * 20)
    game.apply(Activate(1, "hunters"))
    game.apply(Move(1, "hunters", "hold", ()))
    events = game.apply(Shoot(1, "hunters", "orcs", ("Harpoon",), model="boss"))
    fired = [e.data["weapon"] for e in events if e.kind == "shoot"]
    assert fired == ["Harpoon"] and orcs.hero is not None and orcs.hero.killed and orcs.models == 10
    game2 = quick_game([unit("h2", 1, hunters, models=10, x=10), unit("o2", 2, front_y=FRONT_Y + 8, x=10)],
                       dice=[1] * 20)
    game2.apply(Activate(1, "h2"))
    game2.apply(Move(1, "h2", "hold", ()))
    events = game2.apply(Shoot(1, "h2", "o2"))
    assert [e.data["weapon"] for e in events if e.kind == "shoot"] == ["Harpoon", "Longbow"]
