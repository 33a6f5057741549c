"""AoF: Skirmish "Shooting", "Melee", "Fatigue", "Wound Effects", "Groups & Wounds", "Cover Terrain" on fixed dice
(../shared/rules/aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish")."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Done, Shoot, StrikeBack
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.skirmish import attacks
from game.engine.skirmish.loose import base_radius, gap, points_of, warband_of
from game.engine.state import Removal
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import ARCHER, CHAMPION, WARRIOR, line, skirmish_game, unit


def _rolls(events):
    return [e for e in events if e.kind == "roll"]


def test_shooting_one_test_per_attack_one_block_per_hit_each_wound_kills_one_model():
    """"Shooting": a Quality test per attack, a Defense roll per hit, each fail a wound; "Groups & Wounds": each
    wound kills one model (the one nearest the shooters: docs/rulings.md)."""
    a, b = unit("archers", 1, ARCHER, 3), unit("w", 2, WARRIOR, 5)
    g = skirmish_game([(a, line(10, 10, 3)), (b, line(10, 30, 5))], dice=[4, 3, 6, 1, 5])
    g.apply(Activate(1, "archers"))
    g.apply(Done(1))                                     # Hold: "Can shoot"
    assert g.pending.decision == "shoot"
    events = g.apply(Shoot(1, "archers", "w"))
    hit, block = _rolls(events)
    assert hit.data["dice"] == [4, 3, 6] and hit.data["successes"] == 2
    assert block.data["dice"] == [1, 5] and block.data["successes"] == 1
    assert b.models == 4 and (11.5, 30) not in points_of(g.state, "w")   # the nearest model died
    assert g.dice.consumed == 5


def test_only_models_in_range_and_sight_fire():
    """"Models in range and line of sight may fire" (range base edge to base edge)."""
    a, b = unit("archers", 1, ARCHER, 3), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(a, line(10, 5, 3)), (b, [(10, 30)])], dice=[2])
    assert attacks.in_range(g.state, a, b, ARCHER.weapon("Bow")) == [0]      # 24" exactly; the next is 24.05"
    wall = TerrainShape(0, "Wall", ((5, 17), (15, 17), (15, 18), (5, 18)), frozenset({"blocking", "impassable"}))
    g2 = skirmish_game([(unit("archers", 1, ARCHER, 3), line(10, 5, 3)), (unit("w", 2, WARRIOR, 1), [(10, 30)])],
                       terrain=[wall])
    assert attacks.in_range(g2.state, g2.state.units["archers"], g2.state.units["w"], ARCHER.weapon("Bow")) == []


def test_cover_gives_plus_1_to_defense_against_shooting():
    """"Cover Terrain": units with most models fully inside cover terrain get +1 to Defense rolls."""
    wood = TerrainShape(0, "Wood", ((5, 27), (20, 27), (20, 33), (5, 33)), frozenset({"cover"}))
    a, b = unit("archers", 1, ARCHER, 1), unit("w", 2, WARRIOR, 3)
    g = skirmish_game([(a, [(10, 10)]), (b, line(10, 30, 3))], dice=[6, 3], terrain=[wood])
    g.apply(Activate(1, "archers"))
    g.apply(Done(1))
    events = g.apply(Shoot(1, "archers", "w"))
    block = _rolls(events)[1]
    assert block.data["modifier"] == 1 and block.data["successes"] == 0 and b.models == 3   # 3+1 blocks


def test_two_targets_need_different_weapons():
    """"may fire at up to two different targets with different weapon types"."""
    a = unit("archers", 1, ARCHER, 1)
    b, c = unit("w", 2, WARRIOR, 1), unit("v", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(10, 10)]), (b, [(10, 20)]), (c, [(20, 20)])], dice=[1])
    g.apply(Activate(1, "archers"))
    g.apply(Done(1))
    g.apply(Shoot(1, "archers", "w"))          # the bow; the knife is a melee weapon: nothing left to fire
    assert g.pending.decision == "activate"
    with pytest.raises(IllegalAction):
        g.apply(Shoot(1, "archers", "v"))


def test_last_model_takes_markers_and_rolls_1_to_5_shaken_6_knocked_out():
    """"Wound Effects": the defender rolls one die adding the markers: 1-5 Shaken, 6+ Knocked Out."""
    w = unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(w, [(10, 10)]), (unit("x", 1, WARRIOR, 1), [(30, 30)])])
    dice = Dice(sequence=[4, 4])
    events = attacks.take_wounds(g.state, dice, w, 1, (0, 0))
    assert w.shaken and w.on_table and any(e.kind == "shaken" for e in events)        # 4 + 1 = 5
    attacks.take_wounds(g.state, dice, w, 1, (0, 0))                                   # 4 + 2 + 1 (Shaken) = 7
    assert w.removed is Removal.DESTROYED and not warband_of(g.state).models["w"]


def test_tough_rolls_only_from_x_markers_and_is_knocked_out_on_5_plus_x():
    """Tough(3): "only rolls for wound effects once it has taken 3 wounds or more, and is Knocked Out on rolls of
    8+"."""
    c = unit("c", 1, CHAMPION, 1)
    g = skirmish_game([(c, [(10, 10)]), (unit("x", 2, WARRIOR, 1), [(30, 30)])])
    dice = Dice(sequence=[4, 1])
    attacks.take_wounds(g.state, dice, c, 2, (0, 0))
    assert dice.consumed == 0 and not c.shaken and c.wounds == 2
    attacks.take_wounds(g.state, dice, c, 1, (0, 0))          # 4 + 3 = 7 < 8: Shaken
    assert dice.consumed == 1 and c.shaken and c.on_table
    attacks.take_wounds(g.state, dice, c, 3, (0, 0))          # 1 + 6 + 1 = 8: Knocked Out
    assert c.removed is Removal.DESTROYED


def test_groups_lose_a_model_per_wound_until_the_last_which_rolls():
    """"Groups & Wounds": each wound kills one model until only one remains; only the last then rolls."""
    w = unit("w", 2, WARRIOR, 5)
    g = skirmish_game([(w, line(10, 10, 5)), (unit("x", 1, WARRIOR, 1), [(30, 30)])])
    dice = Dice(sequence=[3])
    attacks.take_wounds(g.state, dice, w, 6, (0, 0))
    assert w.models == 1 and warband_of(g.state).models["w"][0].wounds == 2 and w.shaken   # 3 + 2 = 5


def test_charge_moves_into_base_contact_strikes_strike_back_and_chargers_move_back_1_inch():
    """"Melee": chargers move into base contact, models within 2" strike with all melee weapons, defenders may
    strike back; "If one of the units is destroyed ... else chargers must move back and separate by 1"";
    "Fatigue": after charging or striking back."""
    a, b = unit("a", 1, WARRIOR, 3), unit("b", 2, WARRIOR, 3)
    dice = [6, 6, 1, 1, 6,       # a: 3 attacks, 2 hits; b blocks 1 of 2: one model dies
            6, 5, 2, 3]          # b strikes back with 2: 2 hits; a fails both blocks
    g = skirmish_game([(a, line(20, 10, 3)), (b, line(20, 16, 3))], dice=dice)
    g.apply(Activate(1, "a"))
    events = g.apply(DeclareCharge(1, "a", "b"))
    ra = base_radius(WARRIOR)
    assert any(e.kind == "charge" for e in events)
    assert b.models == 2 and g.pending.decision == "strike_back" and g.pending.player == 2
    assert "a" in warband_of(g.state).fatigued
    events = g.apply(StrikeBack(2, "b"))
    assert a.models == 1 and "b" in warband_of(g.state).fatigued
    back = [e for e in events if e.kind == "consolidate"]
    assert back and min(gap(p, ra, q, ra) for p in points_of(g.state, "a") for q in points_of(g.state, "b")) \
        >= 1.0 - 1e-3
    assert g.dice.consumed == 9


def test_fatigued_units_hit_only_on_unmodified_6s():
    """"Fatigue: After charging or striking back, units hit on unmodified rolls of 6 in melee"."""
    a, b = unit("a", 1, WARRIOR, 3), unit("b", 2, WARRIOR, 3)
    g = skirmish_game([(a, line(20, 10, 3)), (b, line(20, 11, 3))])
    dice = Dice(sequence=[5, 5, 6, 1])
    events = attacks.strike(g.state, dice, a, b, charging=False, fatigued=True)
    hit = _rolls(events)[0]
    assert hit.data["successes"] == 1 and "hits only on 6: Fatigue" in hit.data["details"]


def test_fear_adds_to_the_wound_effect_roll_in_melee():
    """Fear(X): "counts as having dealt +X wounds when checking wound effects in melee"."""
    c, w = unit("c", 1, CHAMPION, 1), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(c, [(20, 10)]), (w, [(20, 11)])])
    dice = Dice(sequence=[2, 4, 4, 5, 1, 4])   # 3 attacks at 3+: 2 hits; Defense 4+, AP(1): 1 fails; roll 4
    attacks.strike(g.state, dice, c, w, charging=False, fatigued=False)
    assert w.removed is Removal.DESTROYED                                     # 4 + 1 marker + 1 Fear = 6
