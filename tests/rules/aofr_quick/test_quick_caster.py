"""The AoF:R quick rules' "Caster(X)" (../shared/rules/aofr-quick-rules.md, "Special Rules Reference") with fixed
dice: "Gets X spell tokens at the start of each round, but can't hold more than 6 tokens at once. At any point
before attacking, spend as many tokens as the spell's value to try casting one or more spells (only one try per
spell). Roll one die, on 4+ resolve the effect [...]. Models within 18" in line of sight of the caster's unit may
spend any number of spell tokens at the same time before rolling, to give the caster +1/-1 to the roll per token."
(game.engine.activation_magic, game.engine.magic)"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.actions import Activate, CastSpell, Dispel, Done, TokenSpend
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.scenario import load_scenario, new_game_state, rule_refusal, ruleset_content

ROOT = Path(__file__).resolve().parents[3]
CASTERS = ROOT / "scenarios" / "tests" / "aofr_quick_casters.yaml"


def _game(dice: list[int]) -> Game:
    return Game.start(new_game_state(load_scenario(CASTERS)), Dice(sequence=dice))


def test_casters_get_x_tokens_at_the_start_of_each_round():
    """"Gets X spell tokens at the start of each round": both Caster(2) heroes' units hold 2 in round 1."""
    game = _game([])
    assert game.state.units["swords-1"].spell_tokens == 2
    assert game.state.units["warriors-1"].spell_tokens == 2


def test_cast_in_the_activation_the_opponent_spends_tokens_against_it():
    """"spend as many tokens as the spell's value"; the enemy caster's unit within 18" "may spend [...] tokens at the
    same time before rolling" (-1 each): 4 - 1 = 3 fails. The activation then goes on (decision ``action``)."""
    game = _game([4])
    game.apply(Activate(1, "swords-1"))
    assert any(c.spell == "Bolt of Judgement" for c in game.activation_casts(1))
    game.apply(CastSpell(1, "swords-1", "Bolt of Judgement", "warriors-1"))
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "dispel")
    events = game.apply(Dispel(2, (TokenSpend(1, "warriors-1"),)))
    assert any(e.kind == "spell" and e.data.get("cast") is False for e in events)
    assert game.state.units["swords-1"].spell_tokens == 1 and game.state.units["warriors-1"].spell_tokens == 1
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (1, "action")


def test_boost_and_4_plus_casts_then_one_try_per_spell():
    """+1 per friendly token: 3 + 1 = 4 casts (then Bolt's three Defense rolls); "only one try per spell"."""
    game = _game([3, 1, 1, 1])
    game.apply(Activate(1, "swords-1"))
    game.apply(CastSpell(1, "swords-1", "Bolt of Judgement", "warriors-1", boost=(TokenSpend(1, "swords-1"),)))
    events = game.apply(Done(2))
    assert any(e.kind == "spell" and e.data.get("cast") is True for e in events)
    assert game.state.units["warriors-1"].models < 11
    assert game.state.units["swords-1"].spell_tokens == 0
    with pytest.raises(IllegalAction):
        game.apply(CastSpell(1, "swords-1", "Bolt of Judgement", "warriors-1"))


def test_not_after_attacking_nor_outside_the_activation():
    """"At any point before attacking": a unit that is not being activated may not cast."""
    game = _game([])
    game.apply(Activate(1, "archers-1"))
    with pytest.raises(IllegalAction):
        game.apply(CastSpell(1, "swords-1", "Bolt of Judgement", "warriors-1"))


def test_caster_is_a_quick_rule_and_wizard_is_not():
    """The quick rules write Caster(X); AoF:R 2.16's Wizard(X) is refused under them."""
    quick = ruleset_content("aofr-quick")
    assert rule_refusal("Caster(2)", quick) is None
    assert rule_refusal("Wizard(2)", quick) is not None


def test_skirmish_plays_caster_and_refuses_wizard_with_a_clear_message():
    """AoF: Skirmish plays Caster(X) with loose models (tests/rules/skirmish/test_skirmish_caster.py); AoF:R 2.16's
    Wizard(X) is refused at load naming what it writes instead."""
    skirmish = ruleset_content("aof-skirmish")
    assert rule_refusal("Caster(2)", skirmish) is None
    why = rule_refusal("Wizard(2)", skirmish)
    assert why is not None and "Caster(X)" in why
