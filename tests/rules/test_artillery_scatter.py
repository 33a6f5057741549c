"""Random Scatter for Artillery with fixed dice (AoWFBR 1.4 "Optional Rules", p.19; ``game.engine.artillery_scatter``).

Player 1's artillery stands with its front edge at y = 10 facing 0 (+y); player 2's Orcs (10 models, 5 a row, 20 mm
bases: 3.94" x 1.57") face it with their front edge at y = 30, centred on x = 36. The dice from D6 (docs/rulings.md):
scatter die 1-2 hit, 3-6 arrow; artillery die 1 misfire, 2..6 -> 2, 4, 6, 8, 10"; arrow bearing
(a - 1) * 60 + (b - 1) * 10 + 5 degrees.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from game.engine.actions import Done, Shoot, ShootPoint
from game.engine.artillery_scatter import (
    artillery_type,
    derived_type,
    profile_type,
    random_pick,
)
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.profiles import Weapon
from game.engine.state import GameState, Phase, Table, Unit, make_unit
from game.scenario import ScenarioError, load_scenario, new_game_state
from geometry.arcs import Arc
from tests.rules.builders import ORCS, join_hero, pose_with_front, profile

MORTAR_W = Weapon("Mortar", 1, 36.0, ("Indirect", "Blast(3)"))
CANNON_W = Weapon("Cannon", 1, 36.0, ("Blast(3)", "AP(2)"))
MORTAR = profile("Mortar", quality=4, defense=4, weapons=(MORTAR_W,), rules=("Immobile", "Tough(3)"), size=1,
                 base=(50.0, 50.0))
CANNON = profile("Cannon", quality=4, defense=4, weapons=(CANNON_W,), rules=("Immobile", "Tough(3)"), size=1,
                 base=(50.0, 50.0))
BOLT = profile("Bolt Thrower", weapons=(Weapon("Bolt", 1, 30.0, ("Deadly(6)",)),), rules=("Immobile",), size=1)
ROOT = Path(__file__).resolve().parents[2]


def artillery(prof=MORTAR, uid: str = "art", x: float = 36.0) -> Unit:
    return make_unit(uid, 1, prof, 1, pose_with_front(prof, 1, 10.0, 0.0, x=x))


def orcs(uid: str = "orcs", front: float = 30.0, x: float = 36.0, player: int = 2) -> Unit:
    return make_unit(uid, player, ORCS, 10, pose_with_front(ORCS, 10, front, 180.0, x=x))


def shooting(*units: Unit, dice: tuple[int, ...] = (), scatter: bool = True) -> Game:
    """A game at step 4.2 of player 1's shooting phase."""
    s = GameState("artillery", Table(), [], {u.id: u for u in units}, {1: None, 2: None})
    s.options = {"artillery_scatter": scatter}
    s.phase = Phase.SHOOTING
    return Game.start(s, Dice(sequence=list(dice)))


def centre(game: Game, uid: str) -> tuple[float, float]:
    pose = game.state.units[uid].pose
    assert pose is not None
    return pose.x, pose.y


def kinds(events, kind):  # type: ignore[no-untyped-def]
    return [e for e in events if e.kind == kind]


# --- artillery types -------------------------------------------------------------------------------------------


def test_types_derived_from_the_profiles():
    """"Artillery Types": Indirect -> 2; Blast(3) or Deadly(3) with 2 attacks, not Indirect -> 3 (cannons); bolt
    throwers (1 attack, Deadly(6)) and volley guns (6 attacks, neither rule) -> 1; not artillery -> None."""
    assert derived_type(MORTAR) == 2
    assert derived_type(CANNON) == 3
    assert derived_type(BOLT) == 1
    volley = profile("Volley Gun", weapons=(Weapon("Volley", 6, 24.0),), rules=("Immobile",), size=1)
    assert derived_type(volley) == 1
    twin = profile("Twin Cannon", weapons=(Weapon("Shot", 2, 36.0, ("Deadly(3)",)),), rules=("Immobile",), size=1)
    assert derived_type(twin) == 3
    assert profile_type(ORCS) is None


def test_profile_key_overrides_the_derived_type():
    """"players must agree on the type of their artillery": the profile's ``artillery_type`` wins."""
    from dataclasses import replace
    assert profile_type(replace(CANNON, artillery_type=1)) == 1
    assert artillery_type(artillery(replace(BOLT, artillery_type=3))) == 3


def test_shipped_armies_artillery_types():
    """The shipped artillery: the Indirect Rock Lobber is type 2, the Stone Cannon (Blast(3), not Indirect) 3, the
    Bolt Thrower (1 attack, Sniper, Deadly(3)) 1."""
    scenario = load_scenario(ROOT / "scenarios" / "tests" / "artillery_scatter.yaml")
    found = {u.profile.name: artillery_type(u) for u in new_game_state(scenario).units.values()}
    assert found == {"Rock Lobber": 2, "Stone Cannon": 3, "Bolt Thrower": 1, "Redtusk Warriors": None,
                     "Tusk Archers": None, "Hold Warriors": None}


# --- stone throwers, mortars and rocket batteries (type 2) ----------------------------------------------------------


def test_scatter_die_hit_strikes_the_target_point():
    """Type 2: "Roll a scatter die. On a hit symbol, the shot strikes the target and hits are resolved as usual":
    D6 1 = hit; Blast(3) makes 3 hits on the 10 Orcs, Defense 5+ rolls 1 1 6: two wounds."""
    game = shooting(artillery(), orcs(), dice=(1, 1, 1, 6))
    events = game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    shot = kinds(events, "artillery")[0]
    assert shot.data["hit_unit"] == "orcs" and shot.data["final"] == shot.data["target"]
    assert kinds(events, "hits")[0].data["hits"] == 3
    assert game.state.units["orcs"].models == 8
    assert game.dice.consumed == 4
    assert [r.purpose.split(": ")[-1] for r in game.dice.rolls][:1] == ["scatter die"]


def test_arrow_scatters_by_artillery_die_less_two_per_passed_quality_test():
    """Type 2: arrow (D6 4); artillery die D6 5 = 8"; "For every 2" of scatter distance, you may make a Quality
    test" (four tests, 4+: 4 4 1 1, two pass, 4" off); "Move the target point by the remaining scatter distance in
    the direction indicated": 4" along bearing 5 degrees (D6 1, 1). Aimed 3" short of the Orcs, it lands in them."""
    x, y = 36.0, 27.0
    game = shooting(artillery(), orcs(), dice=(4, 5, 4, 4, 1, 1, 1, 1, 6, 6, 6))
    events = game.apply(ShootPoint(1, "art", x, y))
    shot = kinds(events, "artillery")[0].data
    assert shot["rolled"] == 8 and shot["remaining"] == 4.0 and shot["bearing"] == 5.0
    fx, fy = shot["final"]
    assert fx == pytest.approx(x + 4 * math.sin(math.radians(5)))
    assert fy == pytest.approx(y + 4 * math.cos(math.radians(5)))
    assert shot["hit_unit"] == "orcs"
    assert game.state.units["orcs"].models == 10          # 6 6 6 blocked
    assert game.dice.consumed == 11


def test_a_point_that_touches_nothing_wastes_the_shot():
    """"provided the target point touches a model or unit—otherwise the shot is wasted"."""
    game = shooting(artillery(), orcs(), dice=(2,))
    events = game.apply(ShootPoint(1, "art", 30.0, 25.0))
    assert kinds(events, "artillery")[0].data["hit_unit"] is None
    assert not kinds(events, "hits")
    assert game.state.units["art"].weapons_fired == {"Mortar"}


def test_scatter_off_the_table_is_wasted():
    """A point moved off the table touches nothing."""
    game = shooting(artillery(), orcs(), dice=(3, 6, 1, 1, 1, 1, 1, 1, 1))   # 10", no test passes, bearing 5
    events = game.apply(ShootPoint(1, "art", 36.0, 44.0))
    shot = kinds(events, "artillery")[0].data
    assert shot["final"][1] > 48.0 and shot["hit_unit"] is None


def test_type_two_needs_no_line_of_sight():
    """"Due to Indirect, line of sight is not required": a unit standing between is no obstacle."""
    wall = make_unit("wall", 2, ORCS, 10, pose_with_front(ORCS, 10, 16.0, 180.0, x=36.0), per_row=10)
    game = shooting(artillery(), orcs(), wall, dice=(1, 6, 6, 6))
    assert game.check_shoot_point(ShootPoint(1, "art", *centre(game, "orcs"))) is None


def test_sniper_hit_picks_the_joined_hero():
    """"A hit with Sniper allows the shooter to choose the specific model hit within the unit": the shot lands on
    the Orcs (scatter die hit) and is resolved against their joined hero named in ``model``, as a unit of one
    (Blast(3) up to its one model: 1 hit; Defense 5+ rolls 1: a wound on the hero only)."""
    from dataclasses import replace
    sniper_gun = replace(MORTAR, weapons=(Weapon("Hunter", 1, 36.0, ("Indirect", "Blast(3)", "Sniper")),))
    game = shooting(artillery(sniper_gun), orcs(), dice=(1, 1))
    join_hero(game.state, "orcs", profile("Boss", rules=("Hero", "Tough(3)"), size=1), hero_id="boss")
    game.state.scene.clear_cache()
    events = game.apply(ShootPoint(1, "art", *centre(game, "orcs"), model="boss"))
    assert kinds(events, "hits")[0].data["hits"] == 1
    orcs_unit = game.state.units["orcs"]
    assert orcs_unit.hero is not None and orcs_unit.hero.wounds == 1 and orcs_unit.regulars == 10


# --- misfires ---------------------------------------------------------------------------------------------------


def test_misfire_jammed_ends_the_shooting_without_shaken():
    """Artillery die 1 = misfire; misfire table 4-6 "Jammed. The unit may not shoot this round"."""
    game = shooting(artillery(), orcs(), dice=(3, 1, 4))
    events = game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    assert kinds(events, "misfire")[0].data["misfire"] == "jammed"
    art = game.state.units["art"]
    assert not art.shaken and "art" not in game.shooters(1)


def test_misfire_damaged_shakes_the_crew_until_its_next_rally_phase():
    """Misfire 2-3 "Damaged ... considered shaken until it may regroup in the Rally Phase of the next turn": it
    does not rally in this turn's Rally Phase (it became Shaken this turn)."""
    game = shooting(artillery(), orcs(), dice=(5, 1, 2) + (6,) * 20)
    game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    art = game.state.units["art"]
    assert art.shaken and art.became_shaken_this_turn
    game.apply(Done(1))                               # end of shooting, close combat, rally phase of this turn
    assert "art" not in game.state.rallied and art.shaken


def test_misfire_critical_failure_d3_hits_with_defense_rolls():
    """Misfire 1 "Critical Failure ... suffers D3 hits (Defense rolls allowed)" and is Shaken: D3 from a 6 = 3 hits,
    Defense 4+ rolls 1 1 6: two wounds on the Tough(3) machine."""
    game = shooting(artillery(), orcs(), dice=(3, 1, 1, 6, 1, 1, 6))
    events = game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    art = game.state.units["art"]
    assert kinds(events, "misfire")[0].data["misfire"] == "critical"
    assert art.wounds == 2 and art.shaken
    assert game.dice.consumed == 7


# --- cannons (type 3) -----------------------------------------------------------------------------------------


def test_cannon_quality_test_passed_hits_the_point():
    """Cannons: "Make a Quality test. If successful, the shot hits the target": 4 on 4+."""
    game = shooting(artillery(CANNON), orcs(), dice=(4, 1, 1, 1))
    events = game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    assert kinds(events, "artillery")[0].data["remaining"] == 0
    assert game.state.units["orcs"].models == 7          # Blast x3, AP(2): 1 1 1 all fail


def test_cannon_skipped_test_scatters_along_the_line_of_fire_into_the_unit_beyond():
    """"The player may choose to skip this Quality test": the artillery die 3 = 4", two tests fail (1 1), and the
    point moves 4" "in a straight line away from the shooting unit", from 2.5" short of the Orcs into them."""
    game = shooting(artillery(CANNON), orcs("orcs-2", front=27.5), dice=(3, 1, 1, 1, 1, 1))
    events = game.apply(ShootPoint(1, "art", 36.0, 25.0, skip_test=True))
    shot = kinds(events, "artillery")[0].data
    assert shot["bearing"] == pytest.approx(0.0)
    assert shot["final"] == pytest.approx([36.0, 29.0])
    assert shot["hit_unit"] == "orcs-2"
    assert game.state.units["orcs-2"].models == 7


def test_cannon_needs_line_of_sight_to_the_point():
    """Cannons: the point must be "in line of sight, as with regular shooting": a wide unit between blocks it."""
    wall = make_unit("wall", 2, ORCS, 10, pose_with_front(ORCS, 10, 16.0, 180.0, x=36.0), per_row=10)
    game = shooting(artillery(CANNON), orcs(), wall)
    problem = game.check_shoot_point(ShootPoint(1, "art", *centre(game, "orcs")))
    assert problem is not None and "line of sight" in problem.message


# --- the target point ----------------------------------------------------------------------------------------------


def test_point_out_of_range_or_behind_is_refused():
    """"This point must be within the weapon's maximum range" (36"), and in the firing model's front arc ("Who Can
    Shoot")."""
    game = shooting(artillery(), orcs())
    assert "range" in game.check_shoot_point(ShootPoint(1, "art", 36.0, 47.5)).message
    assert "front arc" in game.check_shoot_point(ShootPoint(1, "art", 36.0, 2.0)).message


def test_point_touching_a_unit_in_melee_is_refused():
    """"must not touch a unit engaged in melee"."""
    friend = orcs("friends", front=30.0 - 1.57, x=36.0, player=1)
    game = shooting(artillery(), orcs(), friend)
    game.state.engage(game.state.units["orcs"], friend, Arc.FRONT, Arc.REAR)
    with pytest.raises(IllegalAction, match="engaged in melee"):
        game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    assert game.dice.consumed == 0


def test_scatter_onto_a_melee_shares_the_hit_at_random():
    """"If a unit engaged in melee is hit, the hits are randomly distributed among all units involved in that
    melee": the point scatters onto the Orcs locked with player 1's own Orcs; D6 5 (4-6: the second of the two,
    scenario order) puts the hit on player 1's unit, friend or foe."""
    friend = make_unit("friends", 1, ORCS, 10, pose_with_front(ORCS, 10, 30.0, 0.0, x=36.0))
    game = shooting(artillery(), orcs(), friend, dice=(3, 3, 1, 1, 1, 1, 5, 6, 6, 6))
    game.state.engage(game.state.units["orcs"], friend, Arc.FRONT, Arc.FRONT)
    events = game.apply(ShootPoint(1, "art", 36.0, 27.0))    # 4" along bearing 5 degrees: into the Orcs
    assert kinds(events, "artillery")[0].data["hit_unit"] == "orcs"
    assert kinds(events, "hits")[0].data["target"] == "friends"


def test_random_pick_rerolls_the_remainder():
    """Four choices from a D6: 5 and 6 are rolled again; 3 is the third choice."""
    dice = Dice(sequence=[5, 6, 3])
    assert random_pick(dice, 4, "which")[0] == 2 and dice.consumed == 3
    assert random_pick(Dice(sequence=[4]), 2, "which")[0] == 1


# --- what stays as it was ---------------------------------------------------------------------------------------


def test_ordinary_shot_refused_for_type_two_and_three():
    """Types 2 and 3 fire at target points; a ``shoot`` at a unit is refused and changes nothing."""
    game = shooting(artillery(), orcs())
    assert game.shooting_targets("art") == [] and game.shooters(1) == ["art"]
    with pytest.raises(IllegalAction, match="target point"):
        game.apply(Shoot(1, "art", "orcs"))


def test_type_one_works_unchanged():
    """"Bolt Throwers and Volley/Organ Guns work unchanged": they shoot at units; a target point is refused."""
    game = shooting(artillery(BOLT), orcs(), dice=(4, 1))
    with pytest.raises(IllegalAction, match="type 1"):
        game.apply(ShootPoint(1, "art", *centre(game, "orcs")))
    game.apply(Shoot(1, "art", "orcs"))
    assert game.state.units["orcs"].models < 10


def test_without_the_option_artillery_shoots_as_usual():
    game = shooting(artillery(), orcs(), scatter=False)
    assert game.shooting_targets("art") == ["orcs"]
    with pytest.raises(IllegalAction, match="does not play"):
        game.apply(ShootPoint(1, "art", *centre(game, "orcs")))


# --- files ----------------------------------------------------------------------------------------------------


LOBBER = ("Rock Lobber: {quality: 5, defense: 4, base: [50, 50], size: 1, cost: 85, rules: [RULES], "
          "weapons: [{name: Rock Lobber, range: 36, attacks: 1, rules: [Indirect]}], artillery_type: TYPE}")


def test_scenario_option_and_profile_key(tmp_path):
    """``options.artillery_scatter: true`` is accepted; ``artillery_type`` must be 1..3 and only on artillery."""
    source = ROOT / "scenarios" / "tests" / "artillery_scatter.yaml"
    assert load_scenario(source).options["artillery_scatter"] is True
    base = source.read_text().replace("../armies", str(ROOT / "scenarios" / "armies"))
    path = tmp_path / "s.yaml"

    def write(rules: str, kind: str) -> None:
        profile = LOBBER.replace("RULES", rules).replace("TYPE", kind)
        path.write_text(base.replace("    units:\n      - {id: lobber-1",
                                     f"    profiles:\n      {profile}\n    units:\n      - {{id: lobber-1", 1))

    write("Immobile", "3")
    assert artillery_type(new_game_state(load_scenario(path)).units["lobber-1"]) == 3
    write("Immobile", "4")
    with pytest.raises(ScenarioError, match="artillery_type"):
        load_scenario(path)
    write("Fearless", "2")
    with pytest.raises(ScenarioError, match="only artillery"):
        load_scenario(path)
