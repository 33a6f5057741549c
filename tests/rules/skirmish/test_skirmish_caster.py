"""AoF: Skirmish "Caster(X)" (../shared/rules/aof-skirmish-quick-rules.md line 87) on fixed dice: tokens at the start
of each round (at most 6), casts before attacking paying the spell's value (one try per spell), 4+ to cast on a target
in line of sight, tokens of casters within 18" in line of sight (+1 friends, -1 enemies), and the spells' hits by the
wound effects of loose models (lines 55-64). docs/rulings.md "AoF Skirmish": spells."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine import magic
from game.engine.actions import Activate, CastSpell, DeclareCharge, Dispel, Done, Shoot, TokenSpend
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.magic import Spell, SpellHits, SpellModifier
from game.engine.profiles import Profile, Weapon
from game.engine.skirmish import attacks, moves
from game.engine.skirmish.loose import points_of, warband_of
from game.scenario import ScenarioError, load_scenario
from geometry.terrain import TerrainShape
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, move, skirmish_game, unit

MAGE = Profile("Mage", 4, 5, 25.4, 25.4, 1, 40, (Weapon("Staff", 1),), ("Caster(2)",))
"""A Caster(2) on a 1" round base."""
BOLT = Spell("Bolt", 1, "enemy", 18.0, hits=SpellHits(2, ap=1))
AEGIS = Spell("Aegis", 2, "friend", 12.0, modifier=SpellModifier("defense", 1, "round"))
SWIFT = Spell("Swift", 1, "friend", 12.0, modifier=SpellModifier("move", 2, "round"))
HEX = Spell("Hex", 1, "enemy", 18.0, modifier=SpellModifier("to_hit", -1, "round"))


def _game(placed, dice=(), spells1=(BOLT, AEGIS, SWIFT), spells2=(BOLT,), terrain=(), tokens=None) -> Game:
    g = skirmish_game(placed, dice=dice, terrain=terrain)
    m = magic.magic_of(g.state)
    m.spells = {1: {s.name: s for s in spells1}, 2: {s.name: s for s in spells2}}
    for uid, n in (tokens or {}).items():
        g.state.units[uid].spell_tokens = n
    return g


def _rolls(events):
    return [e for e in events if e.kind == "roll"]


def test_tokens_at_the_start_of_each_round_at_most_6():
    """Line 87: "Gets X spell tokens at the start of each round, but can't hold more than 6 tokens at once"."""
    mage, full = unit("mage", 1, MAGE, 1), unit("full", 2, MAGE, 1)
    full.spell_tokens = 5
    g = _game([(mage, [(10, 10)]), (full, [(30, 40)])])
    assert mage.spell_tokens == 2 and full.spell_tokens == 6
    g.state.units["mage"].spell_tokens = 0
    # the next round gives 2 more: the round ends once both units activated
    for p, uid in ((1, "mage"), (2, "full")):
        g.apply(Activate(p, uid))
        g.apply(Done(p))
        if g.pending and g.pending.decision == "shoot":
            g.apply(Done(p))
    assert g.state.round == 2 and mage.spell_tokens == 2 and full.spell_tokens == 6


def test_a_cast_pays_its_value_and_on_4_plus_each_hit_wound_kills_one_model():
    """Line 87: "spend as many tokens as the spell's value ... Roll one die, on 4+ resolve the effect on a target in
    line of sight"; lines 64: "each wound kills one model, until only one last model remains"."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (w, line(10, 25, 4))], dice=[4, 2, 3])
    g.apply(Activate(1, "mage"))
    assert {c.target for c in g.activation_casts(1) if c.spell == "Bolt"} == {"w"}
    events = g.apply(CastSpell(1, "mage", "Bolt", "w"))
    cast, block = _rolls(events)
    assert cast.data["dice"] == [4] and cast.data["successes"] == 1
    assert block.data["dice"] == [2, 3] and block.data["modifier"] == -1      # AP(1): Defense 4+ needs 5
    assert w.models == 2 and len(points_of(g.state, "w")) == 2 and mage.spell_tokens == 1
    assert g.pending.decision == "action" and g.pending.unit == "mage"      # before attacking: it acts on


def test_a_failed_roll_spends_the_tokens_and_each_spell_is_tried_once():
    """Line 87: "only one try per spell"; a roll under 4 fails."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (w, line(10, 25, 4))], dice=[3], tokens={"mage": 4})
    g.apply(Activate(1, "mage"))
    events = g.apply(CastSpell(1, "mage", "Bolt", "w"))
    assert _rolls(events)[0].data["successes"] == 0 and w.models == 4 and mage.spell_tokens == 3
    with pytest.raises(IllegalAction, match="one try per spell"):
        g.apply(CastSpell(1, "mage", "Bolt", "w"))
    assert "Bolt" not in {c.spell for c in g.activation_casts(1)}


def test_the_target_must_be_in_range_and_line_of_sight_of_a_model():
    """Line 87: "a target in line of sight", measured per model: one model of the caster's unit within range (base
    edge to base edge) of a model of the target, seeing it."""
    wall = TerrainShape(0, "Wall", ((5, 17), (15, 17), (15, 18), (5, 18)), frozenset({"blocking", "impassable"}))
    mage, w = unit("mage", 2, MAGE, 1), unit("w", 1, WARRIOR, 3)
    far = unit("far", 1, WARRIOR, 1)
    g = _game([(mage, [(10, 22)]), (w, [(10, 5), (11.5, 5), (13, 5)]), (far, [(40, 10)])],
              spells2=(BOLT,), terrain=[wall])
    s = g.state
    assert magic.spell_targets(s, mage, BOLT) == []          # the wall hides every model of w; far: 31" away
    model = warband_of(s).models["w"][2]
    model.x, model.y = 24.0, 12.0        # one model stands clear of the wall, 16.2" from the caster
    assert magic.spell_targets(s, mage, BOLT) == ["w"]
    assert magic.spell_targets(s, mage, BOLT) == ["w"]


def test_tokens_of_friendly_casters_within_18_add_1_each():
    """Line 87: "Models within 18" in line of sight of the caster's unit may spend any number of spell tokens at the
    same time before rolling, to give the caster +1 ... per token"."""
    mage, friend, far = unit("mage", 1, MAGE, 1), unit("friend", 1, MAGE, 1), unit("far", 1, MAGE, 1)
    w = unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (friend, [(25, 10)]), (far, [(40, 40)]), (w, line(10, 25, 4))],
              dice=[3, 6, 6])
    g.apply(Activate(1, "mage"))
    with pytest.raises(IllegalAction, match="within 18"):
        g.apply(CastSpell(1, "mage", "Bolt", "w", (TokenSpend(1, "far"),)))
    events = g.apply(CastSpell(1, "mage", "Bolt", "w", (TokenSpend(1, "friend"), TokenSpend(1, "mage"))))
    cast = _rolls(events)[0]
    assert cast.data["dice"] == [3] and cast.data["modifier"] == 2 and cast.data["successes"] == 1
    assert friend.spell_tokens == 1 and mage.spell_tokens == 0 and far.spell_tokens == 2


def test_enemy_casters_within_18_in_sight_spend_tokens_against_it():
    """Line 87: the other side's models within 18" in line of sight give -1 per token (decision ``dispel``)."""
    mage, foe, w = unit("mage", 1, MAGE, 1), unit("foe", 2, MAGE, 1), unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (foe, [(20, 24)]), (w, line(10, 25, 4))], dice=[4])
    g.apply(Activate(1, "mage"))
    g.apply(CastSpell(1, "mage", "Bolt", "w"))
    assert g.pending.decision == "dispel" and g.pending.player == 2 and g.pending.options == ("foe",)
    events = g.apply(Dispel(2, (TokenSpend(1, "foe"),)))
    cast = _rolls(events)[0]
    assert cast.data["dice"] == [4] and cast.data["modifier"] == -1 and cast.data["successes"] == 0
    assert w.models == 4 and foe.spell_tokens == 1
    assert g.pending.decision == "action" and g.pending.player == 1


def test_spells_are_cast_before_attacking_also_after_a_move():
    """Line 87: "At any point before attacking": after an Advance (before shooting) it may still cast, even with no
    shooting target; once it has shot, no more."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (w, line(10, 30, 4))], dice=[1, 4, 5, 5])
    g.apply(Activate(1, "mage"))
    g.apply(move(1, "mage", "advance", [(10, 14)]))
    assert g.pending.decision == "shoot" and not g.ruleset.shooting_targets("mage")
    g.apply(CastSpell(1, "mage", "Bolt", "w"))                  # 1: fails
    assert g.pending.decision == "shoot"
    g.apply(Done(1))
    assert g.pending.decision == "activate"
    archers, w2 = unit("archers", 1, ARCHER, 1), unit("w", 2, WARRIOR, 4)
    archers.profile = Profile("Archmage", 4, 5, 25.4, 25.4, 1, 40, ARCHER.weapons, ("Caster(2)",))
    g2 = _game([(archers, [(10, 10)]), (w2, line(10, 25, 4))], dice=[1])
    g2.apply(Activate(1, "archers"))
    g2.apply(Done(1))
    g2.apply(Shoot(1, "archers", "w"))
    with pytest.raises(IllegalAction):
        g2.apply(CastSpell(1, "archers", "Bolt", "w"))


def test_blessings_change_defense_and_moves_until_the_end_of_the_round():
    """The army's ``modifier`` spells as the loose models' rules read them: Defense rolls (+1), move allowance (+2"
    Advance, +4" Rush/Charge); they end with the round (docs/rulings.md "AoF:R 2.16": durations within activations)."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 2)
    g = _game([(mage, [(10, 10)]), (w, line(10, 40, 2))], dice=[5, 6], tokens={"mage": 4})
    g.apply(Activate(1, "mage"))
    g.apply(CastSpell(1, "mage", "Aegis", "mage"))
    g.apply(CastSpell(1, "mage", "Swift", "mage"))
    assert moves.allowance(g.state, mage, "advance") == 8.0 and moves.allowance(g.state, mage, "rush") == 16.0
    wounds, _, events = attacks.block(Dice(sequence=[4]), mage, w, [attacks.Strike(None, 1)], "test")
    assert wounds == 0 and _rolls(events)[0].data["modifier"] == 1          # Defense 5+, +1: a 4 blocks
    g.apply(move(1, "mage", "advance", [(10, 17.5)]))
    assert points_of(g.state, "mage") == [(10, 17.5)]


def test_a_curse_on_the_shooters_to_hit():
    """A ``to_hit`` curse (-1) on an enemy unit: its models' hit rolls get -1 (a 6 still hits)."""
    mage, a = unit("mage", 1, MAGE, 1), unit("archers", 2, ARCHER, 1)
    g = _game([(mage, [(10, 10)]), (a, [(10, 25)])], dice=[4, 4, 6, 5], spells1=(HEX,), tokens={"mage": 2})
    g.apply(Activate(1, "mage"))
    g.apply(CastSpell(1, "mage", "Hex", "archers"))
    g.apply(Done(1))                                           # Hold; no shooting weapon: the activation ends
    g.apply(Activate(2, "archers"))
    g.apply(Done(2))
    events = g.apply(Shoot(2, "archers", "mage"))
    hit = _rolls(events)[0]
    assert hit.data["dice"] == [4] and hit.data["modifier"] == -1 and hit.data["successes"] == 0


def test_a_lone_model_hit_by_a_spell_rolls_on_the_wound_table_and_may_be_pushed():
    """Line 64: "Only the last model then accumulates wounds and rolls"; line 151: a Shaken result lets the attacker
    (the caster's player) try to push it."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 1)
    g = _game([(mage, [(10, 10)]), (w, [(10, 25)])], dice=[5, 1, 6, 2])
    g.apply(Activate(1, "mage"))
    events = g.apply(CastSpell(1, "mage", "Bolt", "w"))
    wound = _rolls(events)[-1]
    assert wound.data["dice"] == [2] and w.shaken and warband_of(g.state).models["w"][0].wounds == 1
    assert g.pending.decision == "push" and g.pending.player == 1 and g.pending.unit == "w"
    g.apply(Done(1))
    assert g.pending.decision == "action" and g.pending.unit == "mage"


def test_charging_after_casting():
    """A cast in the action decision leaves the action to take (here a charge)."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 3)
    g = _game([(mage, [(10, 10)]), (w, line(10, 16, 3))], dice=[1] + [1] * 10)
    g.apply(Activate(1, "mage"))
    g.apply(CastSpell(1, "mage", "Bolt", "w"))
    g.apply(DeclareCharge(1, "mage", "w"))
    assert "mage" in warband_of(g.state).fatigued


SKIRMISH_SPELL = """
format: regiments-scenario/1
name: Point spell
ruleset: aof-skirmish
mission: standard
table: {width: 48, depth: 48}
armies:
  - player: 1
    include: INCLUDE/skirmish/aldmark_warband.yaml
    spells:
      - {name: Gale, value: 1, range: 18, target: point, area: {radius: 3, affects: enemy},
         modifier: {stat: move, value: -2, duration: round}}
    units:
      - {id: loremaster, profile: Canton Loremaster, models: 1}
  - player: 2
    include: INCLUDE/skirmish/redtusk_warband.yaml
    units:
      - {id: shaman, profile: Bone Shaman, models: 1}
"""


def test_spells_aimed_at_a_point_are_refused_when_the_scenario_loads(tmp_path: Path) -> None:
    """Spells aimed at a point (and heal) are not played with loose models: the loader refuses them naming the
    file, the line and the spell."""
    root = Path(__file__).resolve().parents[3] / "scenarios" / "armies"
    path = tmp_path / "point.yaml"
    path.write_text(SKIRMISH_SPELL.replace("INCLUDE", str(root)))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    text = str(e.value)
    assert "point.yaml:11: armies[0].spells:" in text and "Gale is aimed at a point" in text


def test_check_magic_judges_without_changing_anything():
    """The window's and the players' question (``check_magic``): a legal cast, the other player's, an unknown spell;
    no die is rolled and no token is paid."""
    mage, w = unit("mage", 1, MAGE, 1), unit("w", 2, WARRIOR, 4)
    g = _game([(mage, [(10, 10)]), (w, line(10, 25, 4))])
    g.apply(Activate(1, "mage"))
    assert g.check_magic(CastSpell(1, "mage", "Bolt", "w")) is None
    assert g.check_magic(CastSpell(2, "mage", "Bolt", "w")) is not None
    assert "not a spell" in g.check_magic(CastSpell(1, "mage", "Fireball", "w")).message
    assert g.check_magic(Dispel(2)) is not None           # no cast to answer
    assert mage.spell_tokens == 2 and g.dice.consumed == 0 and g.pending.decision == "action"
