"""AoF: Skirmish "Special Rules Reference": Counter, Unstoppable, Limited, Indirect on fixed dice
(../shared/rules/aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish")."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Done, Shoot
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.profiles import Profile, Weapon
from game.engine.skirmish import attacks
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import WARRIOR, line, move, shifted, skirmish_game, unit

RIDER = Profile("Rider", 4, 4, 25.4, 25.4, 2, 40, (Weapon("Sword", 1),), ("Impact(1)",))
SPEAR = Profile("Spearman", 4, 4, 25.4, 25.4, 2, 30, (Weapon("Spear", 1, rules=("Counter",)),))
GHOST = Profile("Ghost", 4, 4, 25.4, 25.4, 2, 30, (Weapon("Claw", 1),), ("Stealth", "Regeneration"))


def _rolls(events):
    return [e for e in events if e.kind == "roll"]


def test_counter_strikes_first_and_takes_impact_dice_away():
    """Counter: "Strikes first with this weapon when charged, and the charging unit gets -1 total Impact rolls per
    model with Counter"; the spear has struck, so the charged unit has nothing left to strike back with."""
    r, s = unit("r", 1, RIDER, 2), unit("s", 2, SPEAR, 2)
    g = skirmish_game([(r, line(20, 10, 2)), (s, line(20, 16, 2))], dice=[6, 1, 1, 6, 1])
    g.apply(Activate(1, "r"))
    events = g.apply(DeclareCharge(1, "r", "s"))
    rolls = _rolls(events)
    assert "Spearman (s) strikes Rider (r) with Spear" in rolls[0].text        # the Counter weapon first
    assert r.models == 1 and s.models == 1
    assert not any("Impact" in e.text for e in rolls)                           # 1 Impact die - 2 Counter models
    assert g.pending.decision == "activate" and g.dice.consumed == 5


def test_unstoppable_ignores_negative_modifiers_and_regeneration(monkeypatch, request):
    """Unstoppable: "Ignores Regeneration, and ignores all negative modifiers to this weapon" (Stealth's -1). The
    profile parser does not know the name yet (``profiles.KNOWN_RULES``: docs/rulings.md), so the test adds it."""
    from game.engine import profiles
    monkeypatch.setattr(profiles, "KNOWN_RULES", profiles.KNOWN_RULES | {"Unstoppable"})
    profiles.parse_rule.cache_clear()
    request.addfinalizer(profiles.parse_rule.cache_clear)     # forget the name once KNOWN_RULES is restored
    hunter = Profile("Hunter", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Great Bow", 1, 24.0, ("Unstoppable",)),))
    h, gh = unit("h", 1, hunter, 1), unit("gh", 2, GHOST, 1)
    g = skirmish_game([(h, [(10, 10)]), (gh, [(10, 30)])])
    dice = Dice(sequence=[4, 1, 2])
    events = attacks.shoot(g.state, dice, h, gh, [hunter.weapon("Great Bow")])
    hit = _rolls(events)[0]
    assert hit.data["modifier"] == 0 and hit.data["successes"] == 1              # no Stealth -1 at 19"
    assert not any("Regeneration" in e.text for e in _rolls(events))            # the wound stands: 2 + 1 marker
    assert gh.shaken and dice.consumed == 3


def test_limited_weapons_fire_once_per_game():
    """Limited: "May only be used once per game"."""
    thrower = Profile("Thrower", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Javelin", 1, 12.0, ("Limited",)),))
    t, w = unit("t", 1, thrower, 1), unit("w", 2, WARRIOR, 3)
    g = skirmish_game([(t, [(10, 10)]), (w, line(10, 18, 3))], dice=[1])
    g.apply(Activate(1, "t"))
    g.apply(Done(1))
    g.apply(Shoot(1, "t", "w"))
    assert "Javelin" in t.limited_used
    g.apply(Activate(2, "w"))
    g.apply(Done(2))                                 # round 2
    g.apply(Activate(g.pending.player, "t") if g.pending.player == 1 else Activate(2, "w"))
    if g.pending.player == 1 and g.pending.decision == "action":
        assert g.ruleset.shooting_targets("t") == []
        g.apply(Done(1))
        assert g.pending.decision == "activate"       # nothing left to fire: the Hold ends the activation


def test_indirect_fires_without_sight_at_minus_1_after_moving_and_ignores_cover_behind_obstructions():
    """Indirect: "Gets -1 to hit rolls when shooting after moving. May target enemies that are not in line of sight
    as if in line of sight, and ignores cover from sight obstructions"."""
    wall = TerrainShape(0, "Wall", ((5, 19), (15, 19), (15, 20), (5, 20)), frozenset({"blocking", "impassable"}))
    mortar = Profile("Mortar", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Mortar", 1, 30.0, ("Indirect",)),))
    m, w = unit("m", 1, mortar, 1), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(m, [(10, 5)]), (w, [(10, 25)])], dice=[5, 4], terrain=[wall])
    assert attacks.in_range(g.state, m, w, mortar.weapon("Mortar")) == [0]     # behind the wall
    g.apply(Activate(1, "m"))
    g.apply(move(1, "m", "advance", shifted([(10, 5)], 0, 2)))
    events = g.apply(Shoot(1, "m", "w"))
    hit, block = _rolls(events)[:2]
    assert hit.data["modifier"] == -1 and hit.data["successes"] == 1           # 5 - 1 = 4: a hit
    assert block.data["modifier"] == 0                                          # no cover behind the wall


def test_a_weapon_that_is_not_indirect_needs_sight():
    wall = TerrainShape(0, "Wall", ((5, 19), (15, 19), (15, 20), (5, 20)), frozenset({"blocking", "impassable"}))
    archer = Profile("Archer", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Bow", 1, 30.0),))
    a, w = unit("a", 1, archer, 1), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(10, 5)]), (w, [(10, 25)])], terrain=[wall])
    g.apply(Activate(1, "a"))
    g.apply(Done(1))
    assert g.pending.decision == "activate"          # no target in sight: the Hold ends the activation
    with pytest.raises(IllegalAction):
        g.apply(Shoot(1, "a", "w"))


BRUTE = Profile("Brute", 4, 4, 25.4, 25.4, 3, 60, (Weapon("Fists", 1),), ("Tough(3)",))


def test_deadly_wounds_go_first_to_one_model_times_x_and_do_not_carry_over():
    """Deadly(X): "Assign each wound to one model, and multiply it by X. Hits from Deadly must be resolved first,
    and these wounds don't carry over to other models if the original target is killed"."""
    b = unit("b", 2, BRUTE, 3)
    g = skirmish_game([(b, line(10, 30, 3)), (unit("x", 1, WARRIOR, 1), [(40, 5)])])
    dice = Dice(sequence=[])
    attacks.take_wounds(g.state, dice, b, 1, (10, 0), deadly=[5])
    models = g.state.activation.models["b"]
    assert b.models == 2 and sorted(m.wounds for m in models) == [0, 1]     # 5 on one (2 lost), then 1 on another


def test_deadly_on_a_last_model_adds_x_markers():
    b = unit("b", 2, BRUTE, 1)
    g = skirmish_game([(b, [(10, 30)]), (unit("x", 1, WARRIOR, 1), [(40, 5)])])
    dice = Dice(sequence=[2])
    attacks.take_wounds(g.state, dice, b, 0, (10, 0), deadly=[3])           # 3 markers: it rolls 2 + 3 = 5 < 8
    assert g.state.activation.models["b"][0].wounds == 3 and b.shaken and dice.consumed == 1


def test_a_deadly_weapon_shoots_with_its_multiplier():
    sniper = Profile("Marksman", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Long Rifle", 1, 30.0, ("Deadly(3)",)),))
    m, b = unit("m", 1, sniper, 1), unit("b", 2, BRUTE, 2)
    g = skirmish_game([(m, [(10, 5)]), (b, line(10, 25, 2))])
    dice = Dice(sequence=[5, 1])                              # a hit, a failed block: 3 wounds on one Brute
    events = attacks.shoot(g.state, dice, m, b, [sniper.weapon("Long Rifle")])
    assert b.models == 1 and any(e.kind == "wounds" and e.data["killed"] == 1 for e in events)
