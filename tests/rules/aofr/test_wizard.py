"""AoF:R 2.16 "Wizard(X)" (../shared/rules/aofr-2.16-full-rulebook.txt, "Special Rules", line ~530) with fixed dice:
"may cast one spell at any point during their activation, before attacking. [...] roll D6+X. If the result is equal
to or higher than the number in brackets, then you may resolve the spell's effects. Enemy wizards within 18" and
line of sight may also roll D6+X at the same time, and if the result is higher than that of the casting wizard,
then the spell's effects are blocked instead. Note that each wizard may only either try to cast a spell or try to
block a spell each round." (game.engine.activation_magic)"""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, CastSpell, Dispel, Done, Move, Shoot, TokenSpend
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.magic import Spell, SpellHits, SpellModifier, new_magic_state
from game.engine.spell_effects import effect_modifiers
from game.scenario import rule_refusal, ruleset_content
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import FRONT_Y, HAND_WEAPON, ORCS, profile

WIZARD_2 = profile("Mages", weapons=(HAND_WEAPON,), rules=("Wizard(2)",))
WIZARD_1 = profile("Shamans", weapons=(HAND_WEAPON,), rules=("Wizard(1)",))
WARD = Spell("Ward", 5, "friend", 12.0, modifier=SpellModifier("defense", 1, "phase"))
BOLT = Spell("Bolt", 4, "enemy", 18.0, hits=SpellHits(1))
FAR = Spell("Far Bolt", 4, "enemy", 30.0, hits=SpellHits(1))


def _game(p2=ORCS, dice=(), gap: float = 12.0) -> Game:
    """Player 1's wizards ``w1`` and an enemy unit ``e`` (a wizard when ``p2`` is) ``gap``" in front."""
    w1, e = unit("w1", 1, WIZARD_2, models=5), unit("e", 2, p2, models=5, front_y=FRONT_Y + gap)
    game = aofr_game([w1, e], dice=dice)
    game.state.magic = new_magic_state("basic", {1: {"Ward": WARD, "Bolt": BOLT, "Far Bolt": FAR}, 2: {"Bolt": BOLT}})
    return game


def test_cast_equal_to_the_value_succeeds_and_the_activation_goes_on():
    """Rulebook "Wizard(X)": "roll D6+X. If the result is equal to or higher than the number in brackets": 3 + 2 = 5
    against Ward (5)."""
    game = _game(dice=[3])
    game.apply(Activate(1, "w1"))
    assert game.activation_casts(1)
    events = game.apply(CastSpell(1, "w1", "Ward", "w1"))
    assert any(e.kind == "spell" and e.data.get("cast") for e in events)
    assert [m.value for m in effect_modifiers(game.state.units["w1"], "defense")] == [1]
    assert sum(game.dice_used) == 1
    assert game.pending is not None and game.pending.decision == "action"   # it may still move or charge
    assert game.activation_casts(1) == []                                     # one spell per round


def test_cast_below_the_value_fails():
    """2 + 2 = 4 is below Ward (5): the spell is not resolved."""
    game = _game(dice=[2])
    game.apply(Activate(1, "w1"))
    events = game.apply(CastSpell(1, "w1", "Ward", "w1"))
    assert any(e.kind == "spell" and e.data.get("cast") is False for e in events)
    assert effect_modifiers(game.state.units["w1"], "defense") == []


def test_enemy_wizard_in_reach_is_asked_and_a_higher_roll_blocks():
    """"Enemy wizards within 18" and line of sight may also roll D6+X [...] if the result is higher [...] blocked":
    caster 4 + 2 = 6, blocker 6 + 1 = 7 blocks. Dice: the caster's, then the blocker's."""
    game = _game(WIZARD_1, dice=[4, 6])
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Bolt", "e"))
    assert game.pending is not None and game.pending.decision == "block_spell" and game.pending.player == 2
    assert game.pending.options == ("e",)
    events = game.apply(Dispel(2, (TokenSpend(1, "e"),)))
    assert any(e.kind == "spell" and e.data.get("blocked_by") == "e" for e in events)
    assert game.state.units["e"].models == 5 and sum(game.dice_used) == 2
    assert game.pending.decision == "action" and game.pending.player == 1


def test_an_equal_block_roll_does_not_block():
    """"higher than that of the casting wizard": 4 + 2 = 6 against 5 + 1 = 6 is cast; then Bolt's Defense roll."""
    game = _game(WIZARD_1, dice=[4, 5, 1])
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Bolt", "e"))
    game.apply(Dispel(2, (TokenSpend(1, "e"),)))
    assert game.state.units["e"].models == 4


def test_no_block_is_done_and_a_blocker_out_of_18_inches_is_not_asked():
    """The other player may let the spell be (``done``); a wizard over 18" away cannot block."""
    game = _game(WIZARD_1, dice=[4, 1])
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Bolt", "e"))
    game.apply(Done(2))
    assert game.state.units["e"].models == 4
    far = _game(WIZARD_1, dice=[4, 1], gap=20.0)
    far.apply(Activate(1, "w1"))
    far.apply(CastSpell(1, "w1", "Far Bolt", "e"))     # rolled at once: no block_spell asked
    assert far.state.units["e"].models == 4 and far.pending is not None and far.pending.decision == "action"


def test_a_wizard_that_blocked_may_not_cast_this_round():
    """"each wizard may only either try to cast a spell or try to block a spell each round"."""
    game = _game(WIZARD_1, dice=[4, 1, 6])
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Bolt", "e"))
    game.apply(Dispel(2, (TokenSpend(1, "e"),)))
    game.apply(Move(1, "w1", "hold", ()))
    if game.pending is not None and game.pending.decision == "shoot":
        game.apply(Done(1))
    game.apply(Activate(2, "e"))
    assert game.activation_casts(2) == []
    with pytest.raises(IllegalAction, match="Wizard"):
        game.apply(CastSpell(2, "e", "Bolt", "w1"))


def test_cast_before_shooting_but_not_after_attacking():
    """"at any point during their activation, before attacking": after a Hold (decision ``shoot``) it may still
    cast; once it has shot, the activation is over."""
    archer_mage = profile("Archer Mages", rules=("Wizard(2)",))
    game = _game(dice=[3] + [1] * 20)
    w1 = game.state.units["w1"]
    w1.profile = archer_mage
    game.apply(Activate(1, "w1"))
    game.apply(Move(1, "w1", "hold", ()))
    assert game.pending is not None and game.pending.decision == "shoot"
    game.apply(CastSpell(1, "w1", "Ward", "w1"))
    assert game.pending.decision == "shoot"
    game.apply(Shoot(1, "w1", "e"))
    assert game.pending is None or game.pending.decision != "shoot" or game.pending.unit != "w1"


def test_spell_effects_last_until_the_end_of_the_round():
    """docs/rulings.md "AoF:R 2.16": a spell's effect lasts until the end of the round it was cast in."""
    game = _game(dice=[3])
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Ward", "w1"))
    game.apply(Done(1))
    assert effect_modifiers(game.state.units["w1"], "defense")
    game.apply(Done(2) if game.pending and game.pending.decision == "action" else Activate(2, "e"))
    while game.pending is not None and game.state.round == 1:
        game.apply(Done(game.pending.player))
    assert game.state.round == 2
    assert effect_modifiers(game.state.units["w1"], "defense") == []


def test_wizard_only_under_aofr_216():
    """Wizard(X) is AoF:R 2.16's; the quick rules and AoWFBR refuse it at load, 2.16 refuses AoWFBR's Caster."""
    assert rule_refusal("Wizard(2)", ruleset_content("aofr-2.16")) is None
    assert rule_refusal("Wizard(2)", ruleset_content("aofr-quick")) is not None
    assert rule_refusal("Wizard(2)", ruleset_content("aowfbr-1.4")) is not None
    assert rule_refusal("Caster(2)", ruleset_content("aofr-2.16")) is not None
