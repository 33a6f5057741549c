"""AoF: Skirmish "Special Rules Reference": Blast(X) per model, Bane, Surge and Thrust on fixed dice
(../shared/rules/aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish")."""

from __future__ import annotations

from game.engine.dice import Dice
from game.engine.profiles import Profile, Weapon
from game.engine.rulesets.skirmish import SPECIAL_RULES
from game.engine.skirmish import attacks
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import WARRIOR, line, skirmish_game, unit

MORTAR = Profile("Mortar", 4, 4, 25.4, 25.4, 1, 40, (Weapon("Mortar", 1, 30.0, ("Blast(3)",)),))


def _rolls(events):
    return [e for e in events if e.kind == "roll"]


def test_the_reference_rules_are_played():
    assert {"Bane", "Blast", "Surge", "Thrust", "Unstoppable"} <= SPECIAL_RULES
    assert "Takedown" not in SPECIAL_RULES          # not in AoF: Skirmish's reference


def test_blast_multiplies_each_hit_and_ignores_cover():
    """Blast(X): "Ignores cover, and after resolving other special rules, each hit is multiplied by X"."""
    wood = TerrainShape(0, "Wood", ((6, 22), (20, 22), (20, 28), (6, 28)), frozenset({"cover"}))
    m, w = unit("m", 1, MORTAR, 1), unit("w", 2, WARRIOR, 4)
    g = skirmish_game([(m, [(10, 5)]), (w, line(9, 25, 4))], terrain=[wood])
    assert attacks.in_cover(g.state, w, [(10, 5)])
    dice = Dice(sequence=[5, 1, 1, 1])                    # one hit x3, three failed blocks
    events = attacks.shoot(g.state, dice, m, w, [MORTAR.weapon("Mortar")])
    block = _rolls(events)[1]
    assert len(block.data["dice"]) == 3 and block.data["modifier"] == 0    # no cover bonus
    assert w.models == 1 and dice.consumed == 4
    assert any(e.data.get("blast") == 3 for e in events)


def test_blast_is_at_most_the_enemy_models_near_the_target():
    """"X is up to as many hits as enemy models in the target unit and within 3\" of it": a lone model, no one
    near, takes one hit."""
    m, w = unit("m", 1, MORTAR, 1), unit("w", 2, WARRIOR, 1)
    g = skirmish_game([(m, [(10, 5)]), (w, [(10, 25)]), (unit("far", 2, WARRIOR, 2), line(40, 40, 2))])
    dice = Dice(sequence=[5, 1, 1])                       # one hit, one block failed, the wound effect: Shaken
    events = attacks.shoot(g.state, dice, m, w, [MORTAR.weapon("Mortar")])
    assert any(e.data.get("blast") == 1 for e in events) and dice.consumed == 3 and w.shaken


def test_blast_hits_are_split_evenly_between_the_units_within_3_inches():
    """"Hits must be split evenly between all enemy units within 3\" of any model from the target": 3 hits between
    the target and the unit 1" behind it, the odd one on the target (docs/rulings.md); the far unit gets none."""
    m = unit("m", 1, MORTAR, 1)
    w, v, far = unit("w", 2, WARRIOR, 2), unit("v", 2, WARRIOR, 2), unit("far", 2, WARRIOR, 2)
    g = skirmish_game([(m, [(10, 5)]), (w, line(10, 25, 2)), (v, line(10, 27, 2)), (far, line(40, 40, 2))])
    assert [u.id for u in attacks.blast_units(g.state, w)[0]] == ["w", "v"]
    dice = Dice(sequence=[5, 6, 6, 1])                    # one hit x3: the target blocks 2, v fails 1
    events = attacks.shoot(g.state, dice, m, w, [MORTAR.weapon("Mortar")])
    split = next(e for e in events if "blast" in e.data)
    assert split.data["split"] == {"w": 2, "v": 1}
    assert w.models == 2 and v.models == 1 and far.models == 2


def test_bane_rerolls_unmodified_sixes_to_block():
    """Bane: "Ignores Regeneration, and the target must re-roll unmodified Defense results of 6"."""
    bane = Profile("Hexer", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Hex Bolt", 1, 24.0, ("Bane",)),))
    h, w = unit("h", 1, bane, 1), unit("w", 2, WARRIOR, 2)
    g = skirmish_game([(h, [(10, 5)]), (w, line(10, 20, 2))])
    dice = Dice(sequence=[5, 6, 1])                       # a hit, a 6 blocked... re-rolled: 1, a wound
    attacks.shoot(g.state, dice, h, w, [bane.weapon("Hex Bolt")])
    assert w.models == 1 and dice.consumed == 3


def test_surge_adds_a_hit_on_unmodified_sixes():
    """Surge: "On unmodified results of 6 to hit, this weapon deals 1 extra hit"."""
    gun = Profile("Gunner", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Scatter Gun", 1, 18.0, ("Surge",)),))
    s_, w = unit("s", 1, gun, 1), unit("w", 2, WARRIOR, 3)
    g = skirmish_game([(s_, [(10, 5)]), (w, line(10, 15, 3))])
    dice = Dice(sequence=[6, 1, 1])                       # a 6: two hits, two failed blocks
    events = attacks.shoot(g.state, dice, s_, w, [gun.weapon("Scatter Gun")])
    assert any(e.kind == "hits" and e.data["hits"] == 2 for e in events) and w.models == 1


def test_thrust_gives_plus_1_to_hit_and_ap_1_when_charging():
    """Thrust: "Gets +1 to hit rolls and AP(+1) when charging"."""
    lancer = Profile("Lancer", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Lance", 1, rules=("Thrust",)),))
    a, w = unit("a", 1, lancer, 1), unit("w", 2, WARRIOR, 2)
    g = skirmish_game([(a, [(10, 10)]), (w, line(10, 11.5, 2))])
    dice = Dice(sequence=[3, 4])                          # 3+1 hits on Quality 4+; 4-1 fails Defense 4+
    events = attacks.strike(g.state, dice, a, w, charging=True, fatigued=False)
    hit, block = _rolls(events)
    assert hit.data["modifier"] == 1 and block.data["modifier"] == -1 and w.models == 1
    dice = Dice(sequence=[3])                              # not charging: 3 misses
    w2 = unit("w2", 2, WARRIOR, 2)
    g = skirmish_game([(a, [(10, 10)]), (w2, line(10, 11.5, 2))])
    attacks.strike(g.state, dice, a, w2, charging=False, fatigued=False)
    assert w2.models == 2
