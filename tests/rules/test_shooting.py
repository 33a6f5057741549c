"""Shooting, Stand and Shoot and the morale tests at the end of the Shooting Phase, with fixed dice.

Face-offs (``tests.rules.builders.face_off``): 10 Archers (player 1, Quality 4+, Longbow 24" A1, 2 rows of 5)
and 10 Orc Boyz (player 2, Defense 5+, 2 rows of 5), front edges N inches apart.
"""

from __future__ import annotations

import pytest

from game.engine.actions import Shoot
from game.engine.casualties import apply_wounds
from game.engine.dice import DiceExhausted
from game.engine.errors import IllegalAction
from game.engine.profiles import Weapon
from game.engine.shooting import (
    can_stand_and_shoot,
    shoot,
    shooting_morale_tests,
    shooting_rows,
    stand_and_shoot,
    valid_targets,
)
from game.engine.state import MoveAction, make_unit
from tests.rules.builders import (
    ARCHERS,
    FRONT_Y,
    HAND_WEAPON,
    LONGBOW,
    ORCS,
    dice,
    face_off,
    forest,
    pose_with_front,
    profile,
    rolls,
    wall_between,
)

SHOOT = Shoot(1, "archers-1", "orcs-1")


def attacks_of(events) -> list[int]:
    return [e.data["attacks"] for e in rolls(events, "shoot")]


def orcs(state):
    return state.units["orcs-1"]


def archers(state):
    return state.units["archers-1"]


# --- who can shoot ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "rows"),
    [(None, 2), (MoveAction.HOLD, 2), (MoveAction.ADVANCE, 1), (MoveAction.RUSH, 0), (MoveAction.CHARGE, 0)],
)
def test_shooting_rows_follow_the_move_action(move, rows):
    """Rulebook: Shooting, Picking Targets: after Hold the two front rows shoot, after Advance only the front row;
    Rushing and Charging: the unit may not shoot."""
    s = face_off(12, move_action=move)
    assert shooting_rows(archers(s)) == rows


def test_hold_lets_the_two_front_rows_shoot_but_not_the_third():
    """Rulebook: Shooting, Who Can Shoot: all models in the two front rows with sight and range may fire."""
    s = face_off(12, shooter_models=15)
    events = shoot(s, dice(*[1] * 10), SHOOT)
    assert attacks_of(events) == [10]
    assert rolls(events)[0].data["dice"] == [1] * 10


def test_advance_lets_only_the_front_row_shoot():
    """Rulebook: Shooting, Picking Targets: if the unit has used the advance action only the front row may shoot."""
    s = face_off(12, move_action=MoveAction.ADVANCE)
    events = shoot(s, dice(*[1] * 5), SHOOT)
    assert attacks_of(events) == [5]


def test_a_unit_that_did_not_move_shoots_as_after_hold():
    """Rulebook: Movement Phase: Hold - doesn't move, can shoot (no move action counts as Hold)."""
    s = face_off(12, move_action=None)
    assert attacks_of(shoot(s, dice(*[1] * 10), SHOOT)) == [10]


@pytest.mark.parametrize("move", [MoveAction.RUSH, MoveAction.CHARGE])
def test_no_shooting_after_rush_or_charge(move):
    """Rulebook: Rushing / Charging: the unit may not shoot in the Shooting Phase."""
    s = face_off(12, move_action=move)
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Who Can Shoot"
    assert "may not shoot" in err.value.message
    assert valid_targets(s, "archers-1") == []


def test_shaken_units_cannot_shoot():
    """Rulebook: Shaken Units: Shaken units must stay idle."""
    s = face_off(12)
    archers(s).shaken = True
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Shaken Units"
    assert shooting_rows(archers(s)) == 0


def test_units_in_melee_cannot_shoot():
    """Rulebook: Shooting (docs/rulings.md): a unit locked in melee fights and does not shoot."""
    s = face_off(12)
    archers(s).engaged_with.add("orcs-1")
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Who Can Shoot"


def test_only_models_within_range_shoot():
    """Rulebook: Shooting, Who Can Shoot: models that have a weapon within range of the target fire; at 23.5" the
    second row (0.79" further back) is out of a 24" Longbow's range."""
    s = face_off(23.5)
    assert attacks_of(shoot(s, dice(*[1] * 5), SHOOT)) == [5]


def test_target_out_of_range_is_not_valid():
    """Rulebook: Shooting, Picking Targets: the enemy is a valid target only if a model has a weapon within range."""
    s = face_off(24.5)
    assert valid_targets(s, "archers-1") == []
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Picking Targets"
    assert face_off(24.0) and valid_targets(face_off(24.0), "archers-1") == ["orcs-1"]


def test_unit_in_between_blocks_line_of_sight():
    """Rulebook: Line of Sight: models can't see through the perimeter of other units (friendly or enemy)."""
    s = face_off(12, extra=[wall_between()])
    assert valid_targets(s, "archers-1") == ["wall-1"]
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Picking Targets"


def test_units_in_melee_are_not_valid_targets():
    """Rulebook: Shooting, Picking Targets: only enemy units that are not in combat are valid targets."""
    s = face_off(12)
    orcs(s).engaged_with.add("someone")
    assert valid_targets(s, "archers-1") == []
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), SHOOT)
    assert err.value.rule == "Picking Targets"
    assert "melee" in err.value.message


def test_friendly_units_are_not_valid_targets():
    """Rulebook: Shooting, Picking Targets: the target must be an enemy."""
    friend = make_unit("friend-1", 1, ORCS, 5, pose_with_front(ORCS, 5, FRONT_Y + 12, 180.0, x=10))
    s = face_off(12, extra=[friend])
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), Shoot(1, "archers-1", "friend-1"))
    assert err.value.rule == "Picking Targets"


# --- the shooting sequence -------------------------------------------------------------------------------------


def test_hits_blocks_and_casualties():
    """Rulebook: The Shooting Sequence: Quality tests to hit, Defense rolls to block, a wound per failed block,
    casualties removed."""
    s = face_off(12, shooter_models=5)
    events = shoot(s, dice(4, 5, 6, 3, 2, 4, 5, 6), SHOOT)
    hit, block = rolls(events)
    assert hit.data["successes"] == 3 and hit.data["need"] == 4
    assert hit.data["purpose"] == "Archers (archers-1) shoot Longbow at Orc Boyz (orcs-1): to hit"
    assert block.data["dice"] == [4, 5, 6] and block.data["wounds"] == 1
    assert orcs(s).models == 9
    assert orcs(s).lost_models_this_turn
    assert archers(s).shot_targets == ["orcs-1"]
    assert archers(s).weapons_fired == {"Longbow"}


def test_ap_lowers_the_defense_roll():
    """Rulebook: AP(X): targets get -X to Defense rolls when blocking hits from weapons with this rule."""
    shooter = profile(weapons=(Weapon("Crossbow", 1, 24.0, ("AP(1)",)),))
    s = face_off(12, shooter=shooter, shooter_models=5)
    events = shoot(s, dice(6, 6, 6, 6, 1, 4, 5, 6, 3), SHOOT)
    block = rolls(events)[1]
    assert block.data["modifier"] == -1 and "-1 AP(1)" in block.data["details"]
    # Defense 5+ with -1: 4 -> 3 fails, 5 -> 4 fails, 6 blocks, 3 fails.
    assert block.data["wounds"] == 3
    assert orcs(s).models == 7


def test_cover_adds_one_to_defense():
    """Rulebook: Cover Terrain: a unit mostly inside cover terrain gets +1 to Defense rolls against shooting."""
    s = face_off(12, shooter_models=5, terrain=[forest(36, FRONT_Y + 12 + 0.8, 8, 4)])
    events = shoot(s, dice(6, 6, 6, 1, 1, 4, 4, 3), SHOOT)
    block = rolls(events)[1]
    assert block.data["modifier"] == 1 and "+1 Cover" in block.data["details"]
    assert orcs(s).models == 9  # 4+1 and 4+1 block, 3+1 fails


def test_ap_and_cover_together():
    """Rulebook: Modifiers: modifiers add up (AP(1) -1 and cover +1 cancel out)."""
    shooter = profile(weapons=(Weapon("Crossbow", 1, 24.0, ("AP(1)",)),))
    s = face_off(12, shooter=shooter, shooter_models=5, terrain=[forest(36, FRONT_Y + 12 + 0.8, 8, 4)])
    events = shoot(s, dice(6, 1, 1, 1, 1, 4), SHOOT)
    block = rolls(events)[1]
    assert block.data["modifier"] == 0
    assert block.data["details"] == ["Defense 5+", "-1 AP(1)", "+1 Cover"]
    assert orcs(s).models == 9


def test_a_unit_in_front_of_the_target_gives_cover_when_it_does_not_block_every_line():
    """Rulebook: Cover Terrain: other units are sight blockers and provide cover."""
    narrow = make_unit("screen-1", 2, ORCS, 3, pose_with_front(ORCS, 3, FRONT_Y + 6, 180.0, x=36.0), per_row=3)
    s = face_off(12, shooter_models=5, extra=[narrow])
    assert "orcs-1" in valid_targets(s, "archers-1")
    models = s.scene.models_with_sight("archers-1", "orcs-1", 2, 24.0)
    assert s.scene.in_cover("archers-1", "orcs-1", models)


def test_natural_six_always_hits_and_natural_one_always_fails():
    """Rulebook: Modifiers: a roll of 6 always counts as a success and a roll of 1 always as a fail."""
    sharp = profile("Sharpshooters", quality=6, weapons=(LONGBOW,))
    sneaky = profile("Goblins", defense=2, weapons=(HAND_WEAPON,), rules=("Stealth",))
    s = face_off(12, shooter=sharp, target=sneaky, shooter_models=5)
    # Quality 6+ with Stealth -1: only natural 6s hit. Defense 2+ : the natural 1 fails.
    events = shoot(s, dice(6, 6, 5, 5, 5, 1, 2), SHOOT)
    hit, block = rolls(events)
    assert hit.data["modifier"] == -1 and hit.data["successes"] == 2
    assert block.data["wounds"] == 1
    assert s.units["orcs-1"].models == 9


def test_natural_six_always_blocks():
    """Rulebook: Modifiers: a Defense roll of 6 blocks whatever the AP."""
    shooter = profile(weapons=(Weapon("Cannon", 1, 24.0, ("AP(4)",)),))
    s = face_off(12, shooter=shooter, shooter_models=5, target=profile("Orc Boyz", defense=6))
    events = shoot(s, dice(6, 6, 1, 1, 1, 6, 5), SHOOT)
    assert rolls(events)[1].data["wounds"] == 1
    assert orcs(s).models == 9


def test_sergeant_gets_plus_one_to_hit_in_a_batch_of_its_own():
    """Rulebook: Command Groups: Sergeant: this model gets +1 to hit rolls (rolled after the other models)."""
    s = face_off(12, shooter_models=5, upgrades=frozenset({"sergeant"}))
    events = shoot(s, dice(3, 3, 3, 3, 3, 1), SHOOT)
    others, sarge, block = rolls(events)
    assert others.data["dice"] == [3, 3, 3, 3] and others.data["successes"] == 0
    assert sarge.data["modifier"] == 1 and sarge.data["successes"] == 1
    assert sarge.data["purpose"].endswith("to hit (Sergeant)")
    assert block.data["dice"] == [1]


def test_sergeant_out_of_range_rolls_no_batch_of_its_own():
    """Rulebook: Command Groups: the Sergeant's +1 is for its own attacks only; when the Sergeant (middle of the
    front row, docs/rulings.md) is out of range, the models that can shoot roll one batch without it."""
    s = face_off(21, shooter_models=5, target_x=50.0, upgrades=frozenset({"sergeant"}))
    assert s.scene.models_with_sight("archers-1", "orcs-1", 2, 24.0) == [3, 4]
    events = shoot(s, dice(3, 3), SHOOT)
    assert attacks_of(events) == [2]
    assert [r.data["modifier"] for r in rolls(events)] == [0]


# --- weapon groups -------------------------------------------------------------------------------------------

MIXED = profile("Marksmen", weapons=(Weapon("Rifle", 1, 24.0), Weapon("Sniper Rifle", 1, 30.0, ("Sniper",)),
                                     HAND_WEAPON))


def _three_targets():
    extra = [make_unit(f"orcs-{i}", 2, ORCS, 5, pose_with_front(ORCS, 5, FRONT_Y + 12, 180.0, x=x))
             for i, x in ((2, 28.0), (3, 44.0))]
    return face_off(12, shooter=MIXED, shooter_models=5, extra=extra)


def test_two_weapon_groups_at_two_targets_but_not_three():
    """Rulebook: Multiple Weapon Types: each weapon group may fire at a different target, up to two targets."""
    s = _three_targets()
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Rifle",)))
    assert valid_targets(s, "archers-1") == ["orcs-1", "orcs-2", "orcs-3"]
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-2", ("Sniper Rifle",)))
    assert archers(s).shot_targets == ["orcs-1", "orcs-2"]
    assert valid_targets(s, "archers-1") == []  # every weapon fired


def test_a_third_target_is_refused():
    """Rulebook: Multiple Weapon Types: you may fire only at up to two different targets."""
    three = profile("Marksmen", weapons=(Weapon("Rifle", 1, 24.0), Weapon("Pistol", 1, 24.0),
                                         Weapon("Javelin", 1, 24.0)))
    extra = [make_unit(f"orcs-{i}", 2, ORCS, 5, pose_with_front(ORCS, 5, FRONT_Y + 12, 180.0, x=x))
             for i, x in ((2, 28.0), (3, 44.0))]
    s = face_off(12, shooter=three, shooter_models=5, extra=extra)
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Rifle",)))
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-2", ("Pistol",)))
    assert valid_targets(s, "archers-1") == ["orcs-1", "orcs-2"]
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-3", ("Javelin",)))
    assert err.value.rule == "Multiple Weapon Types"
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Javelin",)))  # a known target is fine


def test_each_weapon_fires_once_per_phase():
    """Rulebook: Multiple Weapon Types: all weapons from the same group fire at the same target, once."""
    s = _three_targets()
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Rifle",)))
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-2", ("Rifle",)))
    assert err.value.rule == "Multiple Weapon Types" and "already fired" in err.value.message


def test_unknown_and_melee_weapons_are_refused():
    """Rulebook: Weapons: ranged weapons have a range and can be used for shooting; melee weapons cannot."""
    s = _three_targets()
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), Shoot(1, "archers-1", "orcs-1", ("Bazooka",)))
    assert err.value.rule == "Multiple Weapon Types" and "Bazooka" in err.value.message
    with pytest.raises(IllegalAction) as err:
        shoot(s, dice(), Shoot(1, "archers-1", "orcs-1", ("Hand Weapon",)))
    assert err.value.rule == "Weapons"


def test_all_weapons_fire_sniper_first_and_out_of_range_ones_stay_unfired():
    """Rulebook: Sniper: shoots at Quality 2+ and is resolved before other weapons; Who Can Shoot: a weapon fires
    only from models that have it within range (the rest stay available)."""
    s = _three_targets()
    events = shoot(s, dice(*[1] * 10), SHOOT)
    first, second = rolls(events)
    assert "Sniper Rifle" in first.data["purpose"] and first.data["need"] == 2
    assert "Rifle at" in second.data["purpose"] and second.data["need"] == 4
    far = face_off(27, shooter=MIXED, shooter_models=5)
    shoot(far, dice(*[1] * 5), SHOOT)
    assert archers(far).weapons_fired == {"Sniper Rifle"}
    with pytest.raises(IllegalAction) as err:
        shoot(face_off(27, shooter=MIXED, shooter_models=5), dice(), Shoot(1, "archers-1", "orcs-1", ("Rifle",)))
    assert err.value.rule == "Who Can Shoot"


# --- special rules -------------------------------------------------------------------------------------------


def test_relentless_extra_hits_after_hold_only():
    """Rulebook: Relentless: when using Hold actions and shooting, unmodified 6s to hit deal one extra hit."""
    gunners = profile("Gunners", weapons=(Weapon("Handgun", 1, 24.0, ("Relentless",)),))
    s = face_off(12, shooter=gunners, shooter_models=5)
    events = shoot(s, dice(6, 6, 1, 1, 1, *[6] * 4), SHOOT)
    assert rolls(events, "hits")[0].data["hits"] == 4
    s = face_off(12, shooter=gunners, shooter_models=5, move_action=MoveAction.ADVANCE)
    events = shoot(s, dice(6, 6, 1, 1, 1, 6, 6), SHOOT)
    assert rolls(events, "hits")[0].data["hits"] == 2


def test_rending_sixes_get_ap4_and_ignore_regeneration():
    """Rulebook: Rending: unmodified 6s to hit get AP(4); the weapon ignores Regeneration."""
    rend = profile("Wolves", weapons=(Weapon("Claws", 1, 24.0, ("Rending",)),))
    trolls = profile("Trolls", defense=2, rules=("Regeneration",))
    s = face_off(12, shooter=rend, target=trolls, shooter_models=5)
    events = shoot(s, dice(6, 4, 1, 1, 1, 5, 5), SHOOT)
    normal, rending = rolls(events)[1:]
    assert normal.data["modifier"] == 0 and normal.data["wounds"] == 0
    assert rending.data["modifier"] == -4 and rending.data["wounds"] == 1
    assert orcs(s).models == 9  # no Regeneration roll: all dice used above


def test_regeneration_ignores_wounds_on_five_plus():
    """Rulebook: Regeneration: when taking a wound, roll one die; on a 5+ it is ignored."""
    trolls = profile("Trolls", defense=6, rules=("Regeneration",))
    s = face_off(12, target=trolls, shooter_models=5)
    events = shoot(s, dice(4, 4, 4, 1, 1, 1, 1, 1, 5, 4, 6), SHOOT)
    regen = rolls(events)[-1]
    assert regen.data["purpose"].endswith("Regeneration") and regen.data["successes"] == 2
    assert orcs(s).models == 9


def test_poison_rerolls_defense_sixes():
    """Rulebook: Poison: the target must re-roll unmodified Defense rolls of 6 (once); ignores Regeneration."""
    poison = profile("Spiders", weapons=(Weapon("Fangs", 1, 24.0, ("Poison",)),))
    trolls = profile("Trolls", defense=5, rules=("Regeneration",))
    s = face_off(12, shooter=poison, target=trolls, shooter_models=5)
    events = shoot(s, dice(4, 4, 1, 1, 1, 6, 6, 6, 2), SHOOT)
    block, reroll = rolls(events)[1:]
    assert block.data["wounds"] == 0
    assert reroll.data["purpose"].endswith("(Poison)") and reroll.data["dice"] == [6, 2]
    assert orcs(s).models == 9


def test_blast_multiplies_hits_up_to_the_models_and_ignores_cover():
    """Rulebook: Blast(X): ignores cover; each hit is multiplied by X, up to as many models as the target has."""
    mortar = profile("Mortar", weapons=(Weapon("Mortar", 1, 24.0, ("Blast(3)",)),), size=1)
    s = face_off(12, shooter=mortar, shooter_models=1, terrain=[forest(36, FRONT_Y + 12 + 0.8, 8, 4)])
    events = shoot(s, dice(4, 1, 1, 1), SHOOT)
    assert rolls(events, "hits")[0].data["hits"] == 3
    assert rolls(events)[1].data["modifier"] == 0  # no cover
    assert orcs(s).models == 7
    s = face_off(12, shooter=mortar, shooter_models=1, target_models=2)
    events = shoot(s, dice(4, 1, 1), SHOOT)
    assert rolls(events, "hits")[0].data["hits"] == 2


def test_deadly_wounds_do_not_carry_over():
    """Rulebook: Deadly(X): each wound goes to one model, multiplied by X, not carried over to other models."""
    bolt = profile("Bolt Thrower", weapons=(Weapon("Bolt", 1, 24.0, ("Deadly(6)",)),))
    ogres = profile("Ogres", defense=5, rules=("Tough(3)",), size=3)
    s = face_off(12, shooter=bolt, target=ogres, shooter_models=2, target_models=3)
    shoot(s, dice(4, 4, 1, 1), SHOOT)
    assert orcs(s).models == 1 and orcs(s).wounds == 0


def test_reliable_hits_on_two_plus():
    """Rulebook: Reliable: attacks at Quality 2+ (still modified: Stand and Shoot -1)."""
    xbow = profile("Crossbowmen", quality=5, weapons=(Weapon("Crossbow", 1, 24.0, ("Reliable",)),))
    s = face_off(12, shooter=xbow, shooter_models=5)
    events = shoot(s, dice(2, 2, 1, 1, 1, 6, 6), SHOOT)
    assert rolls(events)[0].data["need"] == 2 and rolls(events)[0].data["successes"] == 2


@pytest.mark.parametrize(("distance", "modifier"), [(9.0, 0), (9.5, -1)])
def test_stealth_minus_one_from_over_nine_inches(distance, modifier):
    """Rulebook: Stealth: enemies get -1 to hit when shooting at units where all models have it from over 9"."""
    s = face_off(distance, target=profile("Elves", rules=("Stealth",)), shooter_models=5)
    events = shoot(s, dice(*[1] * 5), SHOOT)
    assert rolls(events)[0].data["modifier"] == modifier


def test_entrenched_minus_two_from_over_nine_inches_unless_it_moved():
    """Rulebook: Entrenched: -2 to hit from over 9" away, as long as the target has not moved."""
    dug_in = profile("Dwarfs", rules=("Entrenched",))
    s = face_off(12, target=dug_in, shooter_models=5)
    assert rolls(shoot(s, dice(*[1] * 5), SHOOT))[0].data["modifier"] == -2
    s = face_off(12, target=dug_in, shooter_models=5)
    orcs(s).moved_since_activation = True  # it moved (or pivoted) in its own last turn
    assert rolls(shoot(s, dice(*[1] * 5), SHOOT))[0].data["modifier"] == 0


def test_indirect_minus_one_after_moving():
    """Rulebook: Indirect: -1 to hit rolls when shooting after moving (including pivoting)."""
    mortar = profile("Mortar", weapons=(Weapon("Mortar", 1, 30.0, ("Indirect",)),))
    s = face_off(12, shooter=mortar, shooter_models=5, move_action=MoveAction.ADVANCE)
    assert rolls(shoot(s, dice(*[1] * 5), SHOOT))[0].data["modifier"] == -1
    s = face_off(12, shooter=mortar, shooter_models=5)
    assert rolls(shoot(s, dice(*[1] * 10), SHOOT))[0].data["modifier"] == 0


# --- Stand and Shoot -----------------------------------------------------------------------------------------


def test_stand_and_shoot_front_row_at_minus_one_beyond_range():
    """Rulebook: Charge Reactions: Stand and Shoot: all models in the front row fire at the charger with -1 to
    hit, even over the weapon's maximum range."""
    s = face_off(30)  # the Longbow reaches 24"
    assert can_stand_and_shoot(s, "archers-1", "orcs-1") is None
    events = stand_and_shoot(s, dice(4, 5, 6, 4, 1, 1, 2), "archers-1", "orcs-1")
    hit, block = rolls(events)
    assert hit.data["dice"] == [4, 5, 6, 4, 1] and hit.data["modifier"] == -1 and hit.data["successes"] == 2
    assert hit.data["details"][:2] == ["Quality 4+", "-1 Stand and Shoot"]
    assert hit.data["purpose"] == "Archers (archers-1) stand and shoot Longbow at Orc Boyz (orcs-1): to hit"
    assert block.data["wounds"] == 2
    assert orcs(s).models == 8
    assert archers(s).weapons_fired == set()


def test_stand_and_shoot_refusals():
    """Rulebook: Charge Reactions: the charger must be at least 6" away and seen; Shaken units, units in melee,
    artillery and entrenched units cannot Stand and Shoot."""
    s = face_off(5)
    assert '6"' in can_stand_and_shoot(s, "archers-1", "orcs-1")
    with pytest.raises(IllegalAction) as err:
        stand_and_shoot(s, dice(), "archers-1", "orcs-1")
    assert err.value.rule == "Stand and Shoot"
    s = face_off(10)
    archers(s).shaken = True
    assert "Shaken" in can_stand_and_shoot(s, "archers-1", "orcs-1")
    s = face_off(10)
    archers(s).engaged_with.add("x")
    assert "melee" in can_stand_and_shoot(s, "archers-1", "orcs-1")
    s = face_off(10, shooter=profile(rules=("Entrenched",)))
    assert "Entrenched" in can_stand_and_shoot(s, "archers-1", "orcs-1")
    s = face_off(10)
    assert "no ranged weapons" in can_stand_and_shoot(s, "orcs-1", "archers-1")
    s = face_off(10, extra=[wall_between(front_y=FRONT_Y + 4, player=1)])
    assert "see" in can_stand_and_shoot(s, "archers-1", "orcs-1")


# --- 4.3 morale tests ----------------------------------------------------------------------------------------


def test_half_strength_after_shooting_takes_a_morale_test_and_is_shaken_on_failure():
    """Rulebook: General Morale Tests: a unit left at half or less of its starting size by wounds this turn takes a
    morale test at the end of the Shooting Phase; Taking Morale Tests: failed -> Shaken."""
    s = face_off(12, shooter_models=5)
    shoot(s, dice(4, 4, 4, 4, 4, 1, 1, 1, 1, 1), SHOOT)
    assert orcs(s).models == 5
    d = dice(3)
    events = shooting_morale_tests(s, d, 1)
    assert d.consumed == 1
    assert orcs(s).shaken and orcs(s).became_shaken_this_turn
    assert [e.kind for e in events][-1] == "shaken"


def test_passed_morale_test_leaves_the_unit_as_it_is():
    """Rulebook: Taking Morale Tests: if the test is passed, nothing happens."""
    s = face_off(12)
    apply_wounds(s, orcs(s), 6, "test")
    shooting_morale_tests(s, dice(4), 1)
    assert not orcs(s).shaken


def test_no_morale_test_above_half_strength_or_without_wounds_this_turn():
    """Rulebook: General Morale Tests: only units that took wounds this turn leaving them at half or less."""
    s = face_off(12)
    apply_wounds(s, orcs(s), 4, "test")
    assert shooting_morale_tests(s, dice(), 1) == []
    s = face_off(12)
    s.set_models(orcs(s), 3)  # lost earlier turns; no wounds this turn
    assert shooting_morale_tests(s, dice(), 1) == []


def test_no_morale_test_in_melee():
    """Rulebook: General Morale Tests: only if it is not in melee combat."""
    s = face_off(12)
    apply_wounds(s, orcs(s), 5, "test")
    orcs(s).engaged_with.add("archers-1")
    assert shooting_morale_tests(s, dice(), 1) == []


def test_single_model_tests_at_half_its_tough_value():
    """Rulebook: General Morale Tests: tough value for units with a single model."""
    giant = profile("Giant", rules=("Tough(6)",), size=1)
    s = face_off(12, target=giant, target_models=1)
    apply_wounds(s, orcs(s), 2, "test")
    assert shooting_morale_tests(s, dice(), 1) == []
    apply_wounds(s, orcs(s), 1, "test")
    shooting_morale_tests(s, dice(1), 1)
    assert orcs(s).shaken


def test_both_players_units_test_enemy_first():
    """Rulebook: General Morale Tests: any unit wounded this turn (also the active player's, e.g. by Stand and
    Shoot against a charge that fell short) tests; the other player's units test first (docs/rulings.md)."""
    s = face_off(12)
    apply_wounds(s, archers(s), 5, "Stand and Shoot")
    apply_wounds(s, orcs(s), 5, "shooting")
    events = shooting_morale_tests(s, dice(6, 1), 1)
    tests = [e for e in rolls(events, "morale")]
    assert [e.data["unit"] for e in tests] == ["orcs-1", "archers-1"]
    assert not orcs(s).shaken and archers(s).shaken


def test_already_shaken_units_do_not_test_again():
    """Rulebook: Shaken Units (docs/rulings.md): a Shaken unit would fail anyway and stays able to rally."""
    s = face_off(12)
    apply_wounds(s, orcs(s), 5, "test")
    orcs(s).shaken = True
    assert shooting_morale_tests(s, dice(), 1) == []
    assert not orcs(s).became_shaken_this_turn


def test_fixed_dice_run_out_names_the_roll():
    """Dice: running out of fixed dice is an error naming the roll (../shared/spec.md)."""
    s = face_off(12, shooter_models=5)
    with pytest.raises(DiceExhausted, match="to hit"):
        shoot(s, dice(1, 1), SHOOT)


def test_archers_profile_is_the_default_shooter():
    """Builders: the default face-off shooter carries a Longbow and a hand weapon."""
    assert ARCHERS.ranged_weapons == (LONGBOW,)


@pytest.mark.parametrize("scenario", ["default.yaml", "aofr_border_clash.yaml", "aofr_quick_spells.yaml"])
def test_the_nearest_valid_target_is_the_nearest_of_all_valid_targets(scenario: str) -> None:
    """``shooting_targets(unit, nearest=True)``, found nearest first without working out the farther targets
    (issue 13: a player's quick pick, and whether a unit has any target), is the nearest of all the valid targets
    (closest distance, then id), or none when there are none: in every position of two random games."""
    from pathlib import Path

    from game.autoplay import play_out
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario, new_game_state

    path = Path(__file__).resolve().parents[2] / "scenarios" / scenario
    asked = [0]

    def compare(game: Game, _action: object) -> None:
        s = game.state
        for unit in s.units_of(s.active_player):
            every = game.shooting_targets(unit.id)
            want = [min(every, key=lambda t: (s.scene.distance(unit.id, t), t))] if every else []
            assert game.shooting_targets(unit.id, nearest=True) == want
            asked[0] += len(every) > 1

    for seed in (1, 2):
        play_out(Game.start(new_game_state(load_scenario(path)), Dice(seed=seed)), seed, compare)
    assert asked[0] > 0      # positions with a choice of targets were met
