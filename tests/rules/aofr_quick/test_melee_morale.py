"""The AoF:R quick rules' "Melee" (strikes of the two front rows, striking back, the moves after the melee),
"Fatigue", "Melee Results", "Morale Tests", "Shaken", "Flanking" and the melee rules of its "Special Rules
Reference" (Impact, Counter, Furious, Fear, Fearless, Rendering) and "Command Groups" (Banner), with fixed dice
(../shared/rules/aofr-quick-rules.md)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge, Done, StrikeBack
from game.engine.profiles import Weapon
from game.engine.state import Removal, make_unit
from geometry.pose import Pose
from tests.rules.aofr.helpers import unit
from tests.rules.aofr_quick.helpers import activation, melee_scores, morale_rolls, quick_game
from tests.rules.builders import FRONT_Y, HAND_WEAPON, ORCS, profile

HITS_3 = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1]


def test_the_loser_of_a_melee_is_shaken_not_wavering():
    """"Melee": the two front rows of the charger strike (10 attacks: 3 hits, 3 wounds), then the defender strikes
    back (7 models, no hit). "Melee Results": 3 wounds + 2 full rows = 5 against 0 + 1: the defender loses, fails
    its morale test with 7 of 10 left: "else it is Shaken". The charger moves back 1"; "Fatigue": both charged or
    struck back."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=HITS_3 + [1, 1, 1] + [1] * 7 + [1])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    assert b.models == 7 and game.pending is not None and game.pending.decision == "strike_back"
    events = game.apply(StrikeBack(2, "b"))
    assert melee_scores(events) == {"a": 5, "b": 1}
    assert b.shaken and b.removed is None
    assert any(e.kind == "shaken" and e.text == "Orc Boyz (b) is Shaken" for e in events)
    assert not any("Wavering" in e.text for e in game.log)
    assert game.state.scene.distance("a", "b") == pytest.approx(1.0, abs=1e-6)
    assert set(activation(game).fatigued) == {"a", "b"} and game.dice.consumed == 21


def test_a_loser_at_half_strength_that_fails_routs():
    """"Melee Results": "If the test is failed whilst the unit is down to half or less of its total size ..., then
    it routs (remove from play as destroyed)"; then "the other may pivot by up to 180° or move by up to 3"."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    far = unit("far", 2, front_y=44, x=10)
    game = quick_game([a, b, far], dice=[6] * 5 + [1] * 5 + [1] * 5 + [1])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(Done(2))          # does not strike back ("but don't have to")
    assert any(e.kind == "rout" and e.text == "Orc Boyz (b) routs" for e in events)
    assert b.removed is Removal.ROUTED
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("consolidate", "a")


def test_fear_counts_as_wounds_dealt_in_the_melee_result():
    """"Fear(X)": "counts as having dealt +X wounds when checking who won melee": no wound on either side, 2 full
    rows each, Fear(2): 4 against 2; the defender loses (passes its test on a 6)."""
    ghosts = profile("Ghosts", weapons=(HAND_WEAPON,), rules=("Fear(2)",))
    a, b = unit("a", 1, ghosts), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 10 + [6])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(Done(2))
    assert melee_scores(events) == {"a": 4, "b": 2}
    assert len(morale_rolls(events)) == 1 and not b.shaken and game.dice.consumed == 11


@pytest.mark.parametrize("facing,arc,modifier", [(90.0, "flank", -1), (0.0, "rear", -2)])
def test_flanking_gives_minus_one_or_two_to_the_morale_test(facing, arc, modifier):
    """"Flanking": "Units get -1/-2 to morale rolls if they were charged in their flank/rear." A charger with
    Fear(1) wins 3 to 2 without a wound; the defender (which cannot strike back out of its front) rolls a 4 for its
    morale test on Quality 4+: failed with the modifier, so it is Shaken."""
    ghosts = profile("Ghosts", weapons=(HAND_WEAPON,), rules=("Fear(1)",))
    a = unit("a", 1, ghosts)
    # the side of a unit side-on is 5 bases deep, the back of one turned away 2 (20 mm bases): 2" away either way
    half = (5 if facing == 90.0 else 2) * 20.0 / 25.4 / 2
    b = make_unit("b", 2, ORCS, 10, Pose(36.0, FRONT_Y + 2 + half, facing), per_row=5)
    game = quick_game([a, b], dice=[1] * 10 + [4])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert activation(game).flanked == modifier, arc
    assert melee_scores(events) == {"a": 3, "b": 2}
    roll = morale_rolls(events)[0]
    assert roll.data["modifier"] == modifier and any("Flanking" in d for d in roll.data["details"])
    assert b.shaken and game.dice.consumed == 11


def test_fatigue_after_striking_back_hits_only_on_sixes_and_loses_impact():
    """"Fatigue": "After charging or striking back, units hit on unmodified rolls of 6 in melee until the end of
    that round"; "Impact(X)": "... after charging, unless fatigued". The defender strikes back (a tie, no test),
    then charges in its own activation: no Impact dice, and its 5s miss."""
    brutes = profile("Brutes", weapons=(HAND_WEAPON,), rules=("Impact(1)",))
    a, b = unit("a", 1), unit("b", 2, brutes, front_y=FRONT_Y + 2)
    dice = [1] * 10 + [1] * 10                    # a charges, b strikes back: no hits, 2 rows each: a tie
    dice += [5] * 9 + [6] + [1]                   # b charges (fatigued): one 6 hits, one wound
    dice += [1] * 9 + [6]                         # a (9 models) strikes back; loses 1 to 3 and passes on a 6
    game = quick_game([a, b], dice=dice)
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(StrikeBack(2, "b"))
    assert melee_scores(events) == {"a": 2, "b": 2} and not morale_rolls(events)
    game.apply(Activate(2, "b"))
    events = game.apply(DeclareCharge(2, "b", "a"))
    assert not any(e.data.get("weapon") == "Impact" for e in events)
    assert any("hit only on 6: Fatigue" in e.text for e in events) and a.models == 9
    events = game.apply(StrikeBack(1, "a"))
    assert melee_scores(events) == {"b": 3, "a": 1} and game.dice.consumed == len(dice)


def test_impact_dice_hit_on_two_plus_less_the_counter_models_which_strike_first():
    """"Impact(X)": "Models in the two front rows roll X dice ... For each 2+ the target takes one hit";
    "Counter": "Strikes first with this weapon when charged, and the charging unit gets -1 total Impact rolls per
    model with Counter in the two front rows if charging in the front". Five riders with Impact(2) charge five
    spearmen: the spearmen decide first and strike with their spears (no hit), then 10 - 5 = 5 Impact dice (3
    hits, 3 wounds), then the riders' lances miss: 3 + 1 row against 0; the spearmen, down to 2 of 5, fail and
    rout."""
    riders = profile("Riders", weapons=(HAND_WEAPON,), rules=("Impact(2)",), size=5)
    spears = profile("Spearmen", weapons=(Weapon("Spear", attacks=1, rules=("Counter",)),), size=5)
    a, b = unit("a", 1, riders, models=5), unit("b", 2, spears, models=5, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 5 + [2, 2, 1, 1, 6] + [1, 1, 1] + [1] * 5 + [1])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert not any(e.kind in ("hits", "info") for e in events)        # the charger has not struck yet
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("strike_back", "b")
    events = game.apply(StrikeBack(2, "b"))
    kinds = [(e.data.get("unit"), e.data.get("weapon")) for e in events if e.kind == "hits"]
    assert kinds == [("b", "Spear"), ("a", "Impact"), ("a", "Hand Weapon")]
    impact = next(e for e in events if e.kind == "roll" and "Impact" in e.data["purpose"])
    assert impact.data["dice"] == [2, 2, 1, 1, 6] and impact.data["successes"] == 3
    assert melee_scores(events) == {"a": 4, "b": 0} and b.removed is Removal.ROUTED
    assert game.dice.consumed == 19


def test_a_defender_that_declines_its_counter_strike_still_cuts_the_impact_dice():
    """"Counter": the cut applies to the charge in the front whether or not the spearmen strike; declining
    ("don't have to") leaves them no strike back after the charger either."""
    riders = profile("Riders", weapons=(HAND_WEAPON,), rules=("Impact(2)",), size=5)
    spears = profile("Spearmen", weapons=(Weapon("Spear", attacks=1, rules=("Counter",)),), size=5)
    a, b = unit("a", 1, riders, models=5), unit("b", 2, spears, models=5, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 5 + [1] * 5)
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(Done(2))
    impact = next(e for e in events if e.kind == "roll" and "Impact" in e.data["purpose"])
    assert len(impact.data["dice"]) == 5
    assert not any(e.data.get("unit") == "b" and e.kind == "hits" for e in events)
    assert melee_scores(events) == {"a": 1, "b": 1} and game.dice.consumed == 10     # a tie: no test


def test_furious_sixes_deal_an_extra_hit_when_charging():
    """"Furious": "When charging, unmodified results of 6 to hit in melee deal 1 extra hit": two 6s, 4 hits."""
    furious = profile("Berserkers", weapons=(HAND_WEAPON,), rules=("Furious",))
    a, b = unit("a", 1, furious), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[6, 6] + [1] * 8 + [1] * 4)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    hits = next(e for e in events if e.kind == "hits" and e.data["unit"] == "a")
    assert hits.data["hits"] == 4 and b.models == 6 and game.dice.consumed == 14


def test_rending_sixes_add_four_to_the_weapons_ap():
    """"Rendering": "on unmodified results of 6 to hit, those hits get AP(+4)": an AP(1) weapon's 6 is blocked at
    -5 (AoWFBR's Rending would be -4)."""
    slayers = profile("Slayers", weapons=(Weapon("Axe", attacks=1, rules=("AP(1)", "Rending")),))
    a, b = unit("a", 1, slayers), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[6] + [1] * 9 + [5])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    block = next(e for e in events if e.kind == "roll" and "Rending" in e.data["purpose"])
    assert block.data["modifier"] == -5 and b.models == 9


def test_fearless_passes_a_failed_test_on_four_plus_but_not_a_shaken_units_automatic_failure():
    """"Fearless": "When a unit where all models have this rule fails a morale test, roll one die. On a 4+ it
    counts as passed"; "Shaken": "always fails morale tests" (no roll, so no Fearless roll: docs/rulings.md)."""
    dwarfs = profile("Dwarfs", weapons=(HAND_WEAPON,), rules=("Fearless",))
    ghosts = profile("Ghosts", weapons=(HAND_WEAPON,), rules=("Fear(1)",))
    a, b = unit("a", 1, ghosts), unit("b", 2, dwarfs, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 10 + [1] + [4])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(Done(2))
    assert any(e.kind == "roll" and e.data["purpose"].startswith("Fearless") for e in events) and not b.shaken
    game2 = quick_game([unit("a", 1, ghosts), _shaken(unit("b", 2, dwarfs, front_y=FRONT_Y + 2))],
                       dice=[1] * 10)
    game2.apply(Activate(1, "a"))
    game2.apply(DeclareCharge(1, "a", "b"))
    events = game2.apply(Done(2))
    assert any(e.kind == "morale" and e.data.get("automatic") for e in events)
    assert not any(e.kind == "roll" and e.data["purpose"].startswith("Fearless") for e in events)
    assert game2.dice.consumed == 10


def _shaken(u):
    u.shaken = True
    return u


def test_a_banner_gives_plus_one_to_morale_tests():
    """"Banner": "This model and its unit get +1 to morale test rolls": a 3 passes Quality 4+."""
    ghosts = profile("Ghosts", weapons=(HAND_WEAPON,), rules=("Fear(1)",))
    a = unit("a", 1, ghosts)
    b = unit("b", 2, front_y=FRONT_Y + 2, upgrades=frozenset({"banner"}))
    game = quick_game([a, b], dice=[1] * 10 + [3])
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    events = game.apply(Done(2))
    assert morale_rolls(events)[0].data["modifier"] == 1 and not b.shaken


def test_thrust_gives_plus_one_to_hit_and_ap_when_charging():
    """The quick rules' rulebook:
    "Thrust": "When charging, gets +1 to hit rolls and AP(+1) in melee": 3s hit on Quality 4+, blocks at -1."""
    lancers = profile("Lancers", weapons=(Weapon("Lance", attacks=1, rules=("Thrust",)),))
    a, b = unit("a", 1, lancers), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[3] * 10 + [6] * 10)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    rolls = [e for e in events if e.kind == "roll"]
    assert rolls[0].data["modifier"] == 1 and rolls[0].data["successes"] == 10
    assert rolls[1].data["modifier"] == -1 and b.models == 10      # 6s always block


def test_surge_sixes_deal_an_extra_hit_in_melee():
    """The quick rules' rulebook:
    "Surge": "On unmodified results of 6 to hit, this weapon deals 1 extra hit" (charging or not)."""
    flails = profile("Flails", weapons=(Weapon("Flail", attacks=1, rules=("Surge",)),))
    a, b = unit("a", 1, flails), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[6, 6, 6] + [1] * 7 + [1] * 6)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert next(e for e in events if e.kind == "hits" and e.data["unit"] == "a").data["hits"] == 6
    assert b.models == 4


@pytest.mark.parametrize("rule,rolls", [("Bane", 10 + 3 + 3), ("Unstoppable", 10 + 3)])
def test_bane_and_unstoppable_ignore_regeneration(rule, rolls):
    """The quick rules' rulebook:
    "Bane": "Ignores Regeneration, and when attacking the target must re-roll unmodified Defense results of 6";
    "Unstoppable": "Ignores Regeneration". Three hits against trolls with Regeneration and Defense 6+: three 6s
    block (Bane makes them re-roll: 1s), and no Regeneration roll either way."""
    blades = profile("Blades", weapons=(Weapon("Blade", attacks=1, rules=(rule,)),))
    trolls = profile("Trolls", defense=6, weapons=(HAND_WEAPON,), rules=("Regeneration",))
    a, b = unit("a", 1, blades), unit("b", 2, trolls, front_y=FRONT_Y + 2)
    dice = [6, 6, 6] + [1] * 7 + [6, 6, 6] + ([1, 1, 1] if rule == "Bane" else [])
    game = quick_game([a, b], dice=dice + [1] * 10)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    assert not any("Regeneration" in e.data.get("purpose", "") for e in events if e.kind == "roll")
    assert b.models == (7 if rule == "Bane" else 10) and game.dice.consumed == rolls


def test_a_joined_hero_strikes_with_its_own_weapons_and_the_unit_blocks_with_its_own_defense():
    """"Hero": "Heroes with up to Tough(6) may deploy as part of one multi-model unit ... must use the unit's
    Defense until all other models have been killed"; "Melee": the models of the two front rows strike with all
    their melee weapons. Ten orcs with a Boss (Quality 3+, a 3-attack Great Axe) charge: 9 orcs in the two front
    rows roll, then the Boss's 3 dice at 3+. The defender's Boss-led unit blocks at Defense 5+ (its own), not 2+."""
    from tests.rules.builders import join_hero
    boss = profile("Boss", quality=3, defense=2, weapons=(Weapon("Great Axe", attacks=3),), rules=("Hero",),
                   size=1)
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b])
    join_hero(game.state, "a", boss, "boss-a")
    join_hero(game.state, "b", boss, "boss-b")
    game = quick_game([a, b], dice=[1] * 9 + [3, 3, 1] + [1, 1])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    strikes = [(e.data["weapon"], e.data["attacks"]) for e in events if e.kind == "info" and e.data.get("unit") == "a"]
    assert strikes == [("Hand Weapon", 9), ("Great Axe", 3)]
    block = next(e for e in events if e.kind == "roll" and "Defense" in e.data["purpose"])
    assert block.data["need"] == 5 and b.models == 9 and b.hero_alive


def test_deadly_strikes_first_and_its_wounds_do_not_carry_over():
    """"Deadly(X)": "Assign each wound to one model, and multiply it by X. Hits from Deadly must be resolved first,
    and these wounds don't carry over to other models": the Great Blade (Deadly(3), listed second) strikes before
    the sword; one wound kills one Tough(2) ogre, not two."""
    blade = Weapon("Great Blade", attacks=1, rules=("Deadly(3)",))
    champions = profile("Champions", weapons=(HAND_WEAPON, blade), size=5)
    ogres = profile("Ogres", weapons=(HAND_WEAPON,), rules=("Tough(2)",), size=3, base=(40.0, 40.0))
    a = unit("a", 1, champions, models=5)
    b = unit("b", 2, ogres, models=3, front_y=FRONT_Y + 2, per_row=3)
    game = quick_game([a, b], dice=[6] + [1] * 4 + [1] + [1] * 5 + [1] * 2)
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    weapons = [e.data["weapon"] for e in events if e.kind == "info" and e.data.get("unit") == "a"]
    assert weapons == ["Great Blade", "Hand Weapon"]
    assert b.models == 2


def test_the_sergeants_sixes_deal_an_extra_hit_in_melee():
    """"Sergeant": "When this model attacks, unmodified results of 6 to hit deal 1 extra hit": the nine others miss,
    the Sergeant's 6 makes 2 hits."""
    a = unit("a", 1, upgrades=frozenset({"sergeant"}))
    b = unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b], dice=[1] * 9 + [6] + [1, 1])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b"))
    sarge = [e for e in events if e.kind == "roll" and "Sergeant" in e.data["purpose"]]
    assert len(sarge) == 1 and sarge[0].data["modifier"] == 0
    assert next(e for e in events if e.kind == "hits" and e.data["unit"] == "a").data["hits"] == 2
    assert b.models == 8


def _takedown_game(dice: list[int]):  # type: ignore[no-untyped-def]
    """Five champions with a Takedown blade face ten orcs led by a Boss (Defense 4+, Tough(3))."""
    from tests.rules.builders import join_hero
    blade = Weapon("Blade", attacks=1, rules=("Takedown",))
    champions = profile("Champions", weapons=(blade,), size=5)
    boss = profile("Boss", quality=3, defense=4, weapons=(HAND_WEAPON,), rules=("Hero", "Tough(3)"), size=1)
    a, b = unit("a", 1, champions, models=5), unit("b", 2, front_y=FRONT_Y + 2)
    game = quick_game([a, b])
    join_hero(game.state, "b", boss, "boss-b")
    return quick_game([a, b], dice=dice), a, b


def test_takedown_in_melee_picks_the_joined_hero_as_a_unit_of_one():
    """"Takedown": "This model may pick any model in the target unit as its individual target, which is resolved as
    if it was a unit of [1]": the charge names the Boss (``model``); 3 hits of 5, blocked at the Boss's own Defense
    4+ (not the unit's 5+), and its 3 wounds kill it alone: the ten orcs are untouched."""
    game, a, b = _takedown_game([6, 6, 6, 1, 1] + [1, 1, 1])
    game.apply(Activate(1, "a"))
    events = game.apply(DeclareCharge(1, "a", "b", model="boss-b"))
    block = next(e for e in events if e.kind == "roll" and "Defense" in e.data["purpose"])
    assert block.data["need"] == 4 and "Boss" in block.data["purpose"]
    assert not b.hero_alive and b.models == 10 and game.dice.consumed == 8
    assert activation(game).caused["a"] == 3


def test_takedown_without_a_pick_strikes_the_unit_and_a_wrong_pick_is_refused():
    """"Takedown": "may pick": without ``model`` the blade strikes the unit (its Defense 5+, the Boss last); a pick
    that is not the hero joined to the target, or by a unit without Takedown, is refused naming the rule, and
    nothing changes; other rulesets refuse a ``model`` on a charge."""
    from game.engine.errors import IllegalAction
    game, a, b = _takedown_game([6, 6, 6, 1, 1] + [1, 1, 1])
    game.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction) as refused:
        game.apply(DeclareCharge(1, "a", "b", model="b"))
    assert refused.value.rule == "Takedown" and game.dice.consumed == 0 and not a.engaged_with
    events = game.apply(DeclareCharge(1, "a", "b"))
    block = next(e for e in events if e.kind == "roll" and "Defense" in e.data["purpose"])
    assert block.data["need"] == 5 and b.hero_alive and b.models == 8
    plain, c, d = _takedown_game([])
    c.profile = profile("Plain", weapons=(HAND_WEAPON,), size=5)
    plain.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction, match="no Takedown"):
        plain.apply(DeclareCharge(1, "a", "b", model="boss-b"))
    from tests.rules.aofr.helpers import aofr_game
    other = aofr_game([unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)])
    other.apply(Activate(1, "a"))
    with pytest.raises(IllegalAction) as refused:
        other.apply(DeclareCharge(1, "a", "b", model="b"))
    assert refused.value.rule == "Takedown" and other.dice.consumed == 0


def test_takedown_picks_the_chargers_hero_when_striking_back():
    """"Takedown" when striking back (``strike_back`` with ``model``): the charged unit's blades pick the hero joined
    to the charger."""
    from tests.rules.builders import join_hero
    blade = Weapon("Blade", attacks=1, rules=("Takedown",))
    champions = profile("Champions", weapons=(blade,), size=5)
    boss = profile("Boss", quality=3, defense=4, weapons=(HAND_WEAPON,), rules=("Hero", "Tough(3)"), size=1)
    a, b = unit("a", 1), unit("b", 2, champions, models=5, front_y=FRONT_Y + 2)
    game = quick_game([a, b])
    join_hero(game.state, "a", boss, "boss-a")
    # the charger: 9 orcs miss, the Boss misses; then the blades: 3 hits, 3 failed blocks at the Boss's 4+
    game = quick_game([a, b], dice=[1] * 9 + [1] + [6, 6, 6, 1, 1] + [1, 1, 1] + [6] * 5)
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    assert game.pending is not None and game.pending.decision == "strike_back"
    events = game.apply(StrikeBack(2, "b", model="boss-a"))
    block = next(e for e in events if e.kind == "roll" and "Defense" in e.data["purpose"])
    assert block.data["need"] == 4 and not a.hero_alive and a.models == 10
