"""Special rules of AoWFBR 1.4 (rulebook "Special Rules Reference"): the registry, and the rules not covered by
the shooting, melee and movement tests (Limited, Entrenched across turns, Indirect, Sniper, Flying, Strider,
Transport, Fear, Fearless, Immobile, Fast/Slow with mixed models), the dice principles (re-rolls once, natural
6s and 1s) and the loader's refusal of unknown rules. Fixed dice throughout.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon

from game.engine.actions import Disembark, Embark, Shoot
from game.engine.attacks import Modifier, roll_to_hit, succeeds
from game.engine.casualties import apply_wounds, unload_destroyed
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.melee import fight, resolve
from game.engine.morale import morale_test
from game.engine.movement import apply_move, move_allowance, validate_move
from game.engine.profiles import KNOWN_RULES, RULES_WITH_VALUE, Weapon
from game.engine.shooting import shoot, valid_targets
from game.engine.special_rules import (
    RULES,
    UPGRADES_INFO,
    describe,
    modifiers_in_force,
)
from game.engine.special_rules import (
    resolve as resolve_name,
)
from game.engine.state import GameState, MoveAction, Pending, Phase, Removal, Step, Table, make_unit
from game.engine.transport import embark, transport_spaces
from game.scenario import ScenarioError, load_scenario, new_game_state
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules import melee_builders as mb
from tests.rules.builders import (
    HAND_WEAPON,
    LONGBOW,
    ORCS,
    dice,
    face_off,
    join_hero,
    pose_with_front,
    profile,
    rolls,
    wall_between,
)

SHOOT = Shoot(1, "archers-1", "orcs-1")
TESTS = Path(__file__).resolve().parent


def piece(name: str, traits: set[str], x: float, y: float, w: float, d: float, index: int = 0) -> TerrainShape:
    return TerrainShape(index, name, rect_to_polygon(x, y, w, d, 0), frozenset(traits))


HOME = Pose(36, 10, 0)


def lone(prof, pose: Pose = HOME, models: int = 5, terrain=(), others=()) -> GameState:
    """Player 1's unit ``u`` (and ``others``) on an otherwise empty table."""
    units = {"u": make_unit("u", 1, prof, models, pose)}
    for o in others:
        units[o.id] = o
    return GameState("t", Table(), list(terrain), units, {1: None, 2: None})


# --- the registry ------------------------------------------------------------------------------------------------


def test_every_rule_of_the_reference_is_registered_once_with_real_code():
    """Rulebook "Special Rules Reference": every rule (Ambush ... Transport(X)) has one registry entry under its
    rulebook name, our summary, its phases and the functions that implement it, which exist."""
    assert set(RULES) == set(KNOWN_RULES)
    for name, rule in RULES.items():
        assert rule.name == name and rule.summary and rule.phases and rule.implemented_in
        assert rule.takes_value == (name in RULES_WITH_VALUE)
        for where in rule.implemented_in:
            assert callable(resolve_name(where)), where
    for info in UPGRADES_INFO.values():
        for where in info.implemented_in:
            assert callable(resolve_name(where)), where


def test_every_rule_has_a_test_citing_the_rulebook():
    """Rulebook "Special Rules Reference": each rule is cited by name in the docstring of at least one rule test
    that quotes the rulebook."""
    docs: list[str] = []
    for path in TESTS.rglob("test_*.py"):       # tests/rules/aofr/ too (AoF:R 2.16's Artillery)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                if "ulebook" in doc:
                    docs.append(doc)
    missing = [name for name in RULES if not any(re.search(rf"\b{name}\b", d) for d in docs)]
    assert missing == []


def test_describe_gives_the_unit_card_our_words():
    """Rulebook "Tough(X)", "Fearless", "AP(X)", "Command Groups": the unit card lists each rule with its value and
    our summary, weapon rules under the weapon, and the command group."""
    ogres = profile("Ogres", rules=("Tough(3)", "Fearless"), weapons=(Weapon("Club", 1, None, ("AP(1)",)),))
    unit = make_unit("o", 1, ogres, 3, None, upgrades=frozenset({"banner"}))
    lines = dict(describe(unit))
    assert lines["Tough(3)"].startswith("Each model takes 3 wounds")
    assert "Fearless" in lines and "Club: AP(1)" in lines and "-1 to their Defense" in lines["Club: AP(1)"]
    assert "Banner" in lines
    s = lone(ogres)
    assert "+1 Banner to morale tests" not in modifiers_in_force(s, s.units["u"])


# --- dice principles -----------------------------------------------------------------------------------------------


def test_modifiers_never_turn_a_natural_six_into_a_miss_or_a_one_into_a_hit():
    """Rulebook "Modifiers": a roll of 6 always counts as a success and a roll of 1 always as a fail, however
    modified."""
    assert succeeds(6, 6, -5) and not succeeds(1, 2, +5)
    hr = roll_to_hit(dice(6, 1, 5), 3, 4, [Modifier("Stealth", -1), Modifier("Entrenched", -2)], "test")
    assert hr.hits == 1 and hr.sixes == 1
    hr = roll_to_hit(dice(1, 1, 2), 3, 4, [Modifier("Sergeant", 1), Modifier("Lance", 1)], "test")
    assert hr.hits == 1  # the 2 (+2) hits, the 1s do not


def test_a_die_is_re_rolled_only_once():
    """Rulebook "Re-Rolls" and "Poison": the target re-rolls unmodified Defense 6s, once: a second 6 blocks."""
    venom = profile("Spiders", weapons=(Weapon("Fangs", 1, 24.0, ("Poison",)),))
    s = face_off(12, shooter=venom, shooter_models=1)
    d = dice(4, 6, 6)  # hit; Defense 6 (re-rolled); 6 again: blocked, nothing more
    events = shoot(s, d, SHOOT)
    assert d.consumed == 3 and s.units["orcs-1"].models == 10
    assert rolls(events)[-1].data["purpose"].endswith("(Poison)")


def test_every_roll_lists_what_it_needed_and_each_modifier_in_words():
    """Rulebook "Stealth" (-1 from over 9"), "Command Groups" (Sergeant +1): the roll events say 'Quality 4+',
    '-1 Stealth at 12.0"' and '+1 Sergeant'."""
    s = face_off(12, target=profile("Elves", rules=("Stealth",)), shooter_models=5,
                 upgrades=frozenset({"sergeant"}))
    events = shoot(s, dice(*[1] * 5), SHOOT)
    batch, sergeant = rolls(events)
    assert batch.data["details"] == ["Quality 4+", '-1 Stealth at 12.0"']
    assert sergeant.data["details"] == ["Quality 4+", '-1 Stealth at 12.0"', "+1 Sergeant"]


# --- Limited -------------------------------------------------------------------------------------------------------


def test_limited_weapons_fire_once_per_game():
    """Rulebook "Limited": weapons with this rule may only be used once per game."""
    rockets = profile("Rocketeers", weapons=(Weapon("Rocket", 1, 24.0, ("Limited",)), LONGBOW))
    s = face_off(12, shooter=rockets, shooter_models=5)
    unit = s.units["archers-1"]
    shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Rocket",)))
    assert unit.limited_used == {"Rocket"}
    unit.reset_turn_flags()  # a later turn
    unit.move_action = MoveAction.HOLD
    with pytest.raises(IllegalAction) as e:
        shoot(s, dice(*[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Rocket",)))
    assert e.value.rule == "Limited"
    events = shoot(s, dice(*[1] * 10), SHOOT)  # all weapons: only the Longbow is left
    assert {ev.data["weapon"] for ev in rolls(events, "shoot")} == {"Longbow"}


def test_limited_melee_weapon_strikes_in_one_round_only():
    """Rulebook "Limited": a Limited melee weapon is used up after the first round it strikes in."""
    bomb = profile("Sappers", weapons=(Weapon("Charge", 1, None, ("Limited",)), HAND_WEAPON))
    s = mb.charge_setup(attacker_prof=bomb, attacker_models=5, target_models=5)
    fight(s, Dice(seed=3), ["a", "t"])
    assert s.units["a"].limited_used == {"Charge"}
    s.units["a"].fights_as_charger = False
    second = fight(s, Dice(seed=4), ["a", "t"]).events
    weapons = {e.data.get("weapon") for e in second if e.kind == "info" and e.data.get("unit") == "a"}
    assert "Charge" not in weapons and "Hand Weapon" in weapons


# --- Entrenched ----------------------------------------------------------------------------------------------------


def test_entrenched_remembers_a_move_until_its_next_activation():
    """Rulebook "Entrenched": -2 to hit from over 9" as long as the model hasn't moved since the beginning of its
    last activation: a move in its own turn still counts in the enemy's turn, and is forgotten when its next turn
    begins."""
    dug_in = profile("Dwarfs", rules=("Entrenched",))
    s = face_off(12, target=dug_in, shooter_models=5)
    dwarfs = s.units["orcs-1"]
    s.phase = Phase.MOVEMENT
    s.place(dwarfs, dwarfs.pose.turned(10))  # player 2 pivots in its own turn
    s.place(dwarfs, dwarfs.pose.turned(-10))
    assert dwarfs.moved_since_activation
    dwarfs.reset_turn_flags()  # player 1's turn starts: per-turn flags go, the move is remembered
    assert rolls(shoot(s, dice(*[1] * 5), SHOOT))[0].data["modifier"] == 0
    s.phase, s.step, s.active_player = Phase.STRATEGY_1, Step.STRATEGY, 2
    Game.start(s, Dice(seed=1))  # player 2's next turn: its activation begins
    assert not dwarfs.moved_since_activation
    assert s.units["archers-1"].move_action is None


def test_entrenched_units_do_not_stand_and_shoot_pursue_or_follow_up():
    """Rulebook "Entrenched": models with this rule cannot make pursuit or follow up moves (and Charge Reactions:
    entrenched units cannot Stand and Shoot)."""
    from game.engine.shooting import can_stand_and_shoot
    from game.engine.special_rules import no_pursuit_or_follow_up

    s = face_off(12, shooter=profile("Dwarfs", rules=("Entrenched",)))
    assert no_pursuit_or_follow_up(s.units["archers-1"])
    assert "Entrenched" in (can_stand_and_shoot(s, "archers-1", "orcs-1") or "")


# --- Indirect ------------------------------------------------------------------------------------------------------


MORTAR = profile("Mortar Crew", weapons=(Weapon("Mortar", 1, 36.0, ("Indirect",)), Weapon("Pistol", 1, 12.0)))


def test_indirect_targets_enemies_out_of_sight_but_in_its_front_arc():
    """Rulebook "Indirect": may target enemies that are not in line of sight as if in line of sight
    (docs/rulings.md: still in the firing model's front arc); other weapons still need sight."""
    s = face_off(12, shooter=MORTAR, shooter_models=5, extra=[wall_between(models=15, per_row=15)])
    assert s.scene.models_with_sight("archers-1", "orcs-1", 2, 36.0) == []
    assert s.scene.models_in_range("archers-1", "orcs-1", 2, 36.0) == [0, 1, 2, 3, 4]
    assert "orcs-1" in valid_targets(s, "archers-1", ("Mortar",))
    assert "orcs-1" not in valid_targets(s, "archers-1", ("Pistol",))
    s.place(s.units["archers-1"], s.units["archers-1"].pose.turned(180))  # turned away: out of its front arc
    assert s.scene.models_in_range("archers-1", "orcs-1", 2, 36.0) == []


def test_indirect_ignores_cover_from_sight_obstructions():
    """Rulebook "Indirect": ignores cover from sight obstructions (cover terrain the target stands in still
    counts)."""
    s = face_off(12, shooter=MORTAR, shooter_models=5, extra=[wall_between(models=15, per_row=15)])
    events = shoot(s, dice(*[4] * 5, *[1] * 5), Shoot(1, "archers-1", "orcs-1", ("Mortar",)))
    block = rolls(events)[1]
    assert block.data["details"] == ["Defense 5+"] and block.data["modifier"] == 0


# --- Sniper and joined heroes ----------------------------------------------------------------------------------


CAPTAIN = profile("Captain", quality=3, defense=3, weapons=(HAND_WEAPON,), rules=("Hero", "Tough(3)", "Stealth"),
                  size=1, cost=60)
RIFLE = Weapon("Long Rifle", 1, 30.0, ("Sniper",))


def test_sniper_picks_the_hero_and_shoots_it_as_a_unit_of_one():
    """Rulebook "Sniper": Quality 2+, picks any model of the target as a unit of 1: the hero's own Stealth gives
    -1 and its own Defense is rolled; the unit's Regeneration does not protect it."""
    marksmen = profile("Marksmen", weapons=(RIFLE, LONGBOW))
    trolls = profile("Trolls", defense=5, rules=("Regeneration",))
    s = face_off(12, shooter=marksmen, target=trolls, shooter_models=2)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    events = shoot(s, dice(6, 6, 1, 1), Shoot(1, "archers-1", "orcs-1", model="cap"))
    hit, block = rolls(events)
    assert hit.data["need"] == 2 and hit.data["details"] == ["Quality 2+ (Sniper)", '-1 Stealth at 12.0"']
    assert block.data["need"] == 3 and "Regeneration" not in " ".join(e.text for e in events)
    assert unit.hero.wounds == 2 and unit.regulars == 10 and unit.models == 11
    assert s.units["archers-1"].weapons_fired == {"Long Rifle"}  # the Longbow did not fire at the hero


def test_sniper_pick_must_be_a_living_joined_hero_and_only_snipers_may_pick():
    """Rulebook "Sniper": each model with Sniper may pick any model in the target unit; other weapons fire at the
    unit as usual."""
    marksmen = profile("Marksmen", weapons=(RIFLE, LONGBOW))
    s = face_off(12, shooter=marksmen, shooter_models=2)
    join_hero(s, "orcs-1", CAPTAIN)
    with pytest.raises(IllegalAction) as e:
        shoot(s, dice(), Shoot(1, "archers-1", "orcs-1", ("Longbow",), model="cap"))
    assert e.value.rule == "Sniper"
    with pytest.raises(IllegalAction) as e:
        shoot(s, dice(), Shoot(1, "archers-1", "orcs-1", model="nobody"))
    assert e.value.rule == "Sniper"


def test_sniper_kills_a_hero_and_the_unit_fights_on():
    """Rulebook "Sniper", "Hero", "Deadly(X)": a sniped hero takes the wounds alone; killed, it leaves the unit,
    one model smaller."""
    marksmen = profile("Marksmen", weapons=(Weapon("Long Rifle", 1, 30.0, ("Sniper", "Deadly(3)")),))
    s = face_off(12, shooter=marksmen, shooter_models=1)
    unit = join_hero(s, "orcs-1", CAPTAIN)
    shoot(s, dice(6, 1), Shoot(1, "archers-1", "orcs-1", model="cap"))
    assert unit.hero.killed and unit.models == 10 and unit.regulars == 10 and unit.removed is None
    assert unit.formation.row_counts() == (5, 5)


# --- Flying, Strider, Fast, Slow, Immobile ---------------------------------------------------------------------


def test_flying_moves_over_units_and_terrain_but_not_onto_them():
    """Rulebook "Flying": models may move through units and terrain, and ignore terrain effects whilst moving."""
    bats = profile("Bats", rules=("Flying",), weapons=())
    walkers = profile("Walkers", weapons=())
    wall = make_unit("w", 1, ORCS, 10, Pose(36, 13.5, 0), per_row=10)
    cliff = piece("Cliff", {"impassable"}, 20, 14, 6, 1)
    for prof, ok in ((bats, True), (walkers, False)):
        s = lone(prof, others=[wall], terrain=[cliff])
        unit = s.units["u"]
        path = [Pose(36, 15.9, 0)]
        if ok:
            validate_move(s, unit, MoveAction.ADVANCE, path)
        else:
            with pytest.raises(IllegalAction):
                validate_move(s, unit, MoveAction.ADVANCE, path)
    s = lone(bats, others=[wall])
    with pytest.raises(IllegalAction):  # ending on the other unit
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 13.5, 0)])
    s = lone(bats, pose=Pose(20, 10, 0), terrain=[cliff])
    validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(20, 16, 0)])


def test_flying_and_strider_ignore_difficult_terrain_and_flyers_dangerous_terrain():
    """Rulebook "Strider": may ignore the effects of difficult terrain; "Flying": ignores terrain effects whilst
    moving (no dangerous terrain test)."""
    bog = piece("Bog", {"difficult"}, 36, 16, 20, 3)
    for rules in (("Strider",), ("Flying",)):
        s = lone(profile("Light", rules=rules, weapons=()), terrain=[bog])
        validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 21, 0)])
    s = lone(profile("Heavy", weapons=()), terrain=[bog])
    with pytest.raises(IllegalAction):
        validate_move(s, s.units["u"], MoveAction.RUSH, [Pose(36, 21, 0)])
    lava = piece("Lava", {"dangerous"}, 36, 13.5, 30, 1)
    s = lone(profile("Bats", rules=("Flying",), weapons=()), terrain=[lava])
    d = dice()
    events = apply_move(s, d, s.units["u"], MoveAction.ADVANCE, [Pose(36, 16, 0)])
    assert d.consumed == 0 and not rolls(events)


def test_fast_needs_every_model_and_slow_any_model():
    """Rulebook "Fast", "Slow", "Hero": a unit moves Fast only if all its models are Fast (a joined hero
    included) and Slow if any model is Slow."""
    riders = profile("Riders", rules=("Fast",), weapons=())
    s = face_off(12, shooter=riders)
    unit = s.units["archers-1"]
    assert move_allowance(unit, MoveAction.ADVANCE) == 8
    join_hero(s, "archers-1", CAPTAIN)
    assert move_allowance(unit, MoveAction.ADVANCE) == 6
    s = face_off(12)
    join_hero(s, "archers-1", profile("Old Sage", rules=("Hero", "Slow"), size=1))
    assert move_allowance(s.units["archers-1"], MoveAction.RUSH) == 8


def test_immobile_only_holds():
    """Rulebook "Immobile": models with this special rule may only use Hold actions."""
    s = lone(profile("Cannon", rules=("Immobile",), weapons=()))
    with pytest.raises(IllegalAction) as e:
        validate_move(s, s.units["u"], MoveAction.ADVANCE, [Pose(36, 12, 0)])
    assert e.value.rule == "Immobile"
    validate_move(s, s.units["u"], MoveAction.HOLD, [Pose(36, 10, 90)])


# --- Fear, Fearless ----------------------------------------------------------------------------------------------


def test_fear_counts_as_wounds_for_melee_resolution_and_a_heros_fear_adds():
    """Rulebook "Fear(X)": this model counts as having dealt +X wounds when checking who won melee."""
    s = mb.charge_setup(attacker_prof=mb.profile(rules=("Fear(1)",)))
    assert resolve(s, ["a", "t"], {"a": 0, "t": 0}).scores[1].fear == 1
    join_hero(s, "a", profile("Wraith", rules=("Hero", "Fear(2)"), size=1))
    assert resolve(s, ["a", "t"], {"a": 0, "t": 0}).scores[1].fear == 3


def test_fearless_needs_most_models():
    """Rulebook "Fearless": whenever a unit where most models have this rule fails a morale test, roll one die;
    on a 4+ it counts as passed."""
    s = face_off(12, target=profile("Zealots", rules=("Fearless",)))
    unit = s.units["orcs-1"]
    assert morale_test(dice(1, 4), unit, [], "test").passed
    s = face_off(12, target=profile("Zealots", rules=("Fearless",)), target_models=1)
    join_hero(s, "orcs-1", CAPTAIN)  # one Fearless model and one that is not: not most
    d = dice(1)
    assert not morale_test(d, s.units["orcs-1"], [], "test").passed and d.consumed == 1


# --- Transport -----------------------------------------------------------------------------------------------------


WAGON = profile("War Wagon", defense=3, weapons=(), rules=("Transport(11)", "Tough(6)"), size=1, base=(50, 100))
FOOT = profile("Foot", weapons=(HAND_WEAPON,))


def wagon_state(models: int = 10) -> GameState:
    """Player 1's Transport ``wagon`` and a unit ``foot`` 2" behind it, an enemy ``orcs`` 20" away."""
    wagon = make_unit("wagon", 1, WAGON, 1, Pose(36, 20, 0))
    foot = make_unit("foot", 1, FOOT, models, pose_with_front(FOOT, models, 20 - 2 - 1.97, 0.0))
    orcs = make_unit("orcs", 2, ORCS, 10, Pose(36, 44, 180))
    s = GameState("t", Table(), [], {u.id: u for u in (wagon, foot, orcs)}, {1: None, 2: None})
    s.phase, s.step = Phase.MOVEMENT, Step.REMAINING_MOVES
    return s


def test_transport_spaces():
    """Rulebook "Transport(X)": regular models and Heroes up to Tough(6) take 1 space, non-Heroes with up to
    Tough(3) take 3, models with Tough(6) or more cannot be transported."""
    s = wagon_state()
    foot = s.units["foot"]
    assert transport_spaces(foot) == 10
    join_hero(s, "foot", CAPTAIN)
    assert transport_spaces(foot) == 11
    assert transport_spaces(make_unit("o", 1, profile(rules=("Tough(3)",), size=3), 3, None)) == 9
    assert transport_spaces(make_unit("g", 1, profile(rules=("Tough(6)",), size=1), 1, None)) is None


def test_embark_with_a_move_and_ride_unseen():
    """Rulebook "Transport(X)": units may enter by using any move action (only one model needs to reach it);
    units inside have no line of sight to the outside and cannot be targeted."""
    s = wagon_state()
    foot = s.units["foot"]
    events = embark(s, foot, "wagon", "advance")
    assert events[0].kind == "embark" and foot.embarked_in == "wagon" and not foot.on_table
    assert not s.scene.has_unit("foot") and foot.move_action is MoveAction.ADVANCE
    assert s.passengers("wagon") == [foot]


def test_embark_refusals():
    """Rulebook "Transport(X)": up to X spaces; the transport must be within the move; a unit cannot both
    embark and disembark in the same turn."""
    s = wagon_state(models=15)
    with pytest.raises(IllegalAction) as e:
        embark(s, s.units["foot"], "wagon", "advance")
    assert "spaces" in e.value.message
    s = wagon_state()
    s.place(s.units["foot"], Pose(10, 10, 0))
    with pytest.raises(IllegalAction) as e:
        embark(s, s.units["foot"], "wagon", "advance")
    assert "away" in e.value.message


def test_disembark_fully_within_six_inches_through_the_game():
    """Rulebook "Transport(X)": units exit with a move action and must stay fully within 6" of the transport;
    they can't embark and disembark in the same turn."""
    s = wagon_state()
    foot = s.units["foot"]
    game = Game(s, Dice(seed=1))
    s.pending = Pending(1, "move")
    game.apply(Embark(1, "foot", "wagon"))
    out = Pose(36, 20 + 2 + 1 + 0.8, 0)
    assert game.check_transport(Disembark(1, "foot", out)) is not None  # same turn
    foot.reset_turn_flags()
    far = Pose(36, 34, 0)
    problem = game.check_transport(Disembark(1, "foot", far))
    assert problem is not None and "within 6" in problem.message
    events = game.apply(Disembark(1, "foot", out))
    assert events[0].kind == "disembark" and foot.on_table and foot.embarked_in is None
    assert s.scene.has_unit("foot") and foot.move_action is MoveAction.ADVANCE


def test_destroyed_transport_puts_its_passengers_down_shaken_after_a_dangerous_test():
    """Rulebook "Transport(X)": when a transport is destroyed, units inside must take a dangerous terrain test,
    are Shaken, and must be placed fully within 6" of the transport before removal."""
    s = wagon_state(models=5)
    foot, wagon = s.units["foot"], s.units["wagon"]
    embark(s, foot, "wagon", "advance")
    events = apply_wounds(s, wagon, 6, "cannon", dice(1, 6, 6, 6, 6))
    assert wagon.removed is Removal.DESTROYED
    assert foot.on_table and foot.shaken and foot.models == 4
    assert [e.kind for e in events][:2] == ["wounds", "disembark"]
    wreck = Polygon([(35.02, 18.03), (36.98, 18.03), (36.98, 21.97), (35.02, 21.97)])  # where the wagon stood
    assert all(wreck.distance(Point(c)) <= 6.01 for c in s.scene.footprint("foot").exterior.coords)


def test_routed_transport_takes_its_passengers_along():
    """Rulebook "Transport(X)" (docs/rulings.md): a transport that routs or flees the table takes the units inside
    with it."""
    s = wagon_state()
    embark(s, s.units["foot"], "wagon", "advance")
    s.remove(s.units["wagon"], Removal.ROUTED)
    assert s.units["foot"].removed is Removal.ROUTED


def test_units_may_start_inside_a_placed_transport(tmp_path: Path):
    """Rulebook "Transport(X)": transports may deploy with units inside (scenario key ``embarked_in``)."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("#INSIDE", "embarked_in: wagon").replace("#RULES", ""))
    state = new_game_state(load_scenario(path))
    assert state.units["foot"].embarked_in == "wagon" and not state.units["foot"].on_table
    assert state.phase is Phase.STRATEGY_1
    path.write_text(SCENARIO.replace("#INSIDE", "embarked_in: foot2").replace("#RULES", ""))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert "no Transport rule" in str(e.value)


def test_a_joined_hero_takes_its_space_in_the_transport_it_starts_in(tmp_path: Path):
    """Rulebook "Transport(X)": a unit starting inside takes its models' spaces and its joined hero's ("each hero
    counts as 1 space"); a Transport(11) holds 10 foot, and 10 foot with their hero do not fit in a Transport(10)."""
    hero = ("      Captain: {quality: 4, defense: 4, base: [20, 20], size: 1, cost: 50, rules: [Hero],\n"
            "                weapons: [{name: Sword, attacks: 3}]}\n")
    text = SCENARIO.replace("#INSIDE", "embarked_in: wagon, joined_by: cap").replace("#RULES", "")
    text = text.replace("    units:\n      - {id: wagon",
                        hero + "    units:\n      - {id: cap, profile: Captain, models: 1}\n      - {id: wagon", 1)
    path = tmp_path / "s.yaml"
    path.write_text(text)
    state = new_game_state(load_scenario(path))
    assert state.units["foot"].embarked_in == "wagon"
    path.write_text(text.replace("Transport(11)", "Transport(10)"))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert "has no room for 'foot' (11 spaces" in str(e.value)


def test_unload_destroyed_is_a_no_op_without_passengers():
    """Rulebook "Transport(X)": only units inside are put down."""
    s = wagon_state()
    assert unload_destroyed(s, dice(), s.units["wagon"]) == []


# --- loading ---------------------------------------------------------------------------------------------------


SCENARIO = """\
format: regiments-scenario/1
name: T
ruleset: aowfbr-1.4
armies:
  - player: 1
    profiles:
      Wagon: {quality: 4, defense: 3, base: [50, 100], size: 1, cost: 100, rules: ["Transport(11)", "Tough(6)"]}
      Foot: {quality: 4, defense: 5, base: [20, 20], size: 10, cost: 100,
             weapons: [{name: Sword, attacks: 1}]}
    units:
      - {id: wagon, profile: Wagon, models: 1, pose: {x: 36, y: 10, facing: 0}}
      - {id: foot, profile: Foot, models: 10, #INSIDE}
      - {id: foot2, profile: Foot, models: 10, pose: {x: 20, y: 6, facing: 0}}
  - player: 2
    profiles:
      Foot: {quality: 4, defense: 5, base: [20, 20], size: 10, cost: 100, rules: [#RULES]}
    units:
      - {id: e, profile: Foot, models: 10, pose: {x: 36, y: 40, facing: 180}}
"""


def test_a_profile_with_an_unknown_rule_is_refused_with_file_and_line(tmp_path: Path):
    """Rulebook "Special Rules Reference": only its rules exist; a profile naming another is refused at load time
    with the file, the line and the path."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("#INSIDE", "embarked_in: wagon").replace("#RULES", "Sneaky"))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert e.value.problems == [f"{path}:16: armies[1].profiles.Foot.rules[0]: unknown special rule 'Sneaky'"]
