"""The computer opponent's magic within activations (issues 13 and 14): AoF:R 2.16 "Wizard(X)" (cast with D6+X
against the spell's value; enemy wizards within 18" may roll to block) and the AoF:R quick rules' "Caster(X)"
(tokens spent to cast, +1/-1 per extra token). Fixed positions where a decision is clearly right, the legality of
every magic action by the engine's own checks, and the same decision whatever the game's dice. Never timed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.ai import LEVELS, SearchPlayer, magic_choice
from game.ai.explain import ExplainedPlayer
from game.ai.view import seat_view
from game.engine.actions import Action, Activate, CastSpell, Dispel, Done, TokenSpend
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.magic import Spell, SpellHits, SpellModifier, new_magic_state
from game.scenario import load_scenario, new_game_state
from game.tutorial.opponent import SimplePlayer
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.aofr_quick.helpers import quick_game
from tests.rules.builders import FRONT_Y, HAND_WEAPON, ORCS, profile

ROOT = Path(__file__).resolve().parents[2]
WIZARDS_FORD = ROOT / "scenarios" / "aofr_wizards_ford.yaml"
QUICK_CASTERS = ROOT / "scenarios" / "tests" / "aofr_quick_casters.yaml"

MAGES = profile("Mages", weapons=(HAND_WEAPON,), rules=("Wizard(2)",))
SHAMANS = profile("Shamans", weapons=(HAND_WEAPON,), rules=("Wizard(1)",))
ADEPTS = profile("Adepts", weapons=(HAND_WEAPON,), rules=("Caster(2)",))
BLAST = Spell("Blast", 4, "enemy", 24.0, hits=SpellHits(6, ap=2))
"""A spell that all but destroys a unit of five: casting it (and blocking it) is clearly right."""
CHANT = Spell("Chant", 3, "friend", 12.0, modifier=SpellModifier("morale", 1, "round"))
"""+1 to morale tests until the end of the round: nothing in these positions tests morale."""
TOKEN_BLAST = Spell("Blast", 1, "enemy", 24.0, hits=SpellHits(6, ap=2))
TOKEN_CHANT = Spell("Chant", 1, "friend", 12.0, modifier=SpellModifier("morale", 1, "round"))


def _wizards(p2_wizard: bool = False, gap: float = 16.0) -> Game:
    """AoF:R 2.16: player 1's Wizard(2) unit ``w1`` (5 models) and player 2's unit ``e`` (5 models; Wizard(1) when
    ``p2_wizard``) ``gap``" in front, beyond charge reach; round 1, player 1 to activate."""
    game = aofr_game([unit("w1", 1, MAGES, models=5), unit("e", 2, SHAMANS if p2_wizard else ORCS, models=5,
                                                             front_y=FRONT_Y + gap)])
    game.state.magic = new_magic_state("basic", {1: {"Chant": CHANT, "Blast": BLAST},
                                                 2: {"Chant": CHANT, "Blast": BLAST}})
    return game


def _casters(gap: float = 16.0, tokens: tuple[int, int] = (2, 2)) -> Game:
    """The quick rules: a Caster(2) unit on each side (5 models), ``gap``" apart, holding ``tokens``."""
    game = quick_game([unit("c1", 1, ADEPTS, models=5), unit("c2", 2, ADEPTS, models=5, front_y=FRONT_Y + gap)])
    game.state.magic = new_magic_state("basic", {1: {"Chant": TOKEN_CHANT, "Blast": TOKEN_BLAST},
                                                 2: {"Chant": TOKEN_CHANT, "Blast": TOKEN_BLAST}})
    game.state.units["c1"].spell_tokens, game.state.units["c2"].spell_tokens = tokens
    return game


def test_a_wizard_casts_the_spell_that_destroys_an_enemy_unit() -> None:
    """"Wizard(X)": D6+2 against Blast (4) casts 5 times in 6; six hits AP(2) all but destroy five orcs. The AI
    casts it before acting, at the orcs, and says why (the log line: "... casts Blast on Orc Boyz — 5.5 wounds
    expected, cast in 100% (...)")."""
    game = _wizards()
    game.apply(Activate(1, "w1"))
    player = ExplainedPlayer(3, LEVELS["ai"])
    action, why = player.choose_explained(game)
    assert action == CastSpell(1, "w1", "Blast", "e")
    assert game.check_magic(action) is None
    assert "wounds expected, cast in " in why and "points against not casting" in why


def test_a_wizard_does_not_cast_a_spell_that_changes_nothing() -> None:
    """Chant's +1 to morale does nothing here and the try is worth keeping to block the enemy wizard's spells
    (``magic_choice.in_hand``): no cast; the unit goes on to act."""
    game = _wizards(p2_wizard=True, gap=30.0)
    game.state.magic = new_magic_state("basic", {1: {"Chant": CHANT}, 2: {"Blast": BLAST}})
    game.apply(Activate(1, "w1"))
    action = SearchPlayer(3, LEVELS["ai"]).choose(game)
    assert not isinstance(action, CastSpell)


def test_blocking_a_spell_that_destroys_the_wizards_is_right() -> None:
    """"Enemy wizards within 18" and line of sight may also roll D6+X": Blast on player 2's shamans: they block."""
    game = _wizards(p2_wizard=True)
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Blast", "e"))
    assert game.pending is not None and game.pending.decision == "block_spell"
    action = SearchPlayer(3, LEVELS["ai"]).choose(game)
    assert action == Dispel(2, (TokenSpend(1, "e"),))
    assert game.check_magic(action) is None


def test_blocking_a_harmless_spell_is_not_worth_the_try() -> None:
    """Chant on the caster's own unit changes nothing the shamans fear; blocking would spend their one try of the
    round ("each wizard may only either try to cast a spell or try to block"): they let it through."""
    game = _wizards(p2_wizard=True)
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Chant", "w1"))
    assert game.pending is not None and game.pending.decision == "block_spell"
    assert SearchPlayer(3, LEVELS["ai"]).choose(game) == Done(2)


def test_a_caster_spends_tokens_on_the_spell_that_destroys_an_enemy_unit() -> None:
    """The quick rules' "Caster(X)": Blast costs 1 token of the 2 held (4+ to cast, +1 per extra token); out of the
    enemy's token reach (over 18") the AI casts it, perhaps with its last token added."""
    game = _casters(gap=20.0)
    game.apply(Activate(1, "c1"))
    action = SearchPlayer(3, LEVELS["ai"]).choose(game)
    assert isinstance(action, CastSpell) and (action.spell, action.target) == ("Blast", "c2")
    assert game.check_magic(action) is None


def test_tokens_are_spent_against_a_spell_that_destroys_the_unit_not_against_a_harmless_one() -> None:
    """"Models within 18" [...] may spend any number of spell tokens [...] -1 to the roll per token": against Blast
    on its own casters the AI spends tokens; against Chant on the caster's unit it keeps them."""
    for spell, spends in (("Blast", True), ("Chant", False)):
        game = _casters(gap=12.0, tokens=(2, 4))
        game.apply(Activate(1, "c1"))
        game.apply(CastSpell(1, "c1", spell, "c2" if spell == "Blast" else "c1"))
        assert game.pending is not None and game.pending.decision == "dispel"
        action = SearchPlayer(3, LEVELS["ai"]).choose(game)
        assert isinstance(action, Dispel) and bool(action.tokens) is spends, spell
        assert game.check_magic(action) is None


def test_the_candidates_are_legal_by_the_engines_own_checks() -> None:
    """Every cast (with its boosts), block and token spend the search may judge is accepted by ``check_magic``."""
    game = _casters(gap=12.0, tokens=(5, 4))
    game.apply(Activate(1, "c1"))
    casts = magic_choice.cast_candidates(game, 1, 8)
    assert any(c.boost for c in casts)
    assert all(game.check_magic(c) is None for c in casts)
    game.apply(CastSpell(1, "c1", "Blast", "c2", boost=(TokenSpend(1, "c1"),)))
    spends = magic_choice.dispel_candidates(game, 2)
    assert [sum(t.tokens for t in a.tokens) for a in spends if isinstance(a, Dispel)] == [0, 1, 2, 3, 4]
    assert all(game.check_magic(a) is None for a in spends)
    wizards = _wizards(p2_wizard=True)
    wizards.apply(Activate(1, "w1"))
    wizards.apply(CastSpell(1, "w1", "Blast", "e"))
    blocks = magic_choice.block_candidates(wizards, 2)
    assert blocks[0] == Done(2) and all(wizards.check_magic(a) is None for a in blocks[1:])


def _started(path: Path, seed: int) -> Game:
    return Game.start(new_game_state(load_scenario(path)), Dice(seed=seed))


@pytest.mark.parametrize("path", [WIZARDS_FORD, QUICK_CASTERS])
def test_every_magic_action_of_a_game_is_legal(path: Path) -> None:
    """A whole game of the computer against the simple player: every cast, block and token spend of either is
    accepted by the engine's own check before it is applied, and the computer casts (its markers on its own side,
    the armies meet in round 3: in the first two rounds no spell of its reached)."""
    game = _started(path, 2)
    seats = {1: SearchPlayer(2, LEVELS["ai"]), 2: SimplePlayer(2)}     # easy, on 2 samples, rarely casts
    casts = {1: 0, 2: 0}
    while game.pending is not None:
        action = seats[game.pending.player].choose(game)
        if isinstance(action, (CastSpell, Dispel)):
            assert game.check_magic(action) is None, action
            if isinstance(action, CastSpell):
                casts[action.player] += 1
        game.apply(action)
    assert casts[1] > 0


def _position(seed: int) -> Game:
    """Player 1 activating its wizard in round 1 of the wizards' test scenario, on the game dice of ``seed``."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "tests" / "aofr_wizards.yaml")),
                      Dice(seed=seed))
    game.apply(Activate(1, "mages-1"))
    return game


def test_another_game_seed_gives_the_same_decisions() -> None:
    """The AI's dice are its own (``game.ai.view``): the same position on other game dice, the same cast; and the
    block of the other seat, asked after it, the same too."""
    answers: list[list[Action]] = []
    for seed in (1, 977):
        game = _position(seed)
        cast = SearchPlayer(5, LEVELS["ai"]).choose(game)
        game.apply(cast)
        block = SearchPlayer(6, LEVELS["ai"]).choose(game) if game.pending and \
            game.pending.decision == "block_spell" else None
        answers.append([cast] + ([block] if block is not None else []))
    assert answers[0] == answers[1]
    assert isinstance(answers[0][0], CastSpell)


def test_in_hand_prices_unused_tries_and_tokens_zero_sum() -> None:
    """``in_hand``: a wizard that may still cast holds ``CAST_TRY`` x its best chance; the other side's counts
    against; tokens held under the quick rules ``TOKEN`` each below the refill's cap."""
    game = _wizards(p2_wizard=True)
    mine = magic_choice.CAST_TRY * magic_choice.cast_chance(2, 3)
    theirs = magic_choice.CAST_TRY * magic_choice.cast_chance(1, 3)
    assert magic_choice.in_hand(game, 1) == pytest.approx(mine - theirs)
    assert magic_choice.in_hand(game, 2) == pytest.approx(theirs - mine)
    quick = _casters(tokens=(5, 1))
    assert magic_choice.in_hand(quick, 1) == pytest.approx(magic_choice.TOKEN * (4 - 1))


def test_the_view_keeps_no_dice_of_the_game() -> None:
    """The search judges on seat views whose dice are its own: the game's dice are never advanced by a decision."""
    game = _wizards()
    game.apply(Activate(1, "w1"))
    before = list(game.dice_used)
    SearchPlayer(3, LEVELS["ai"]).choose(game)
    assert list(game.dice_used) == before
    assert seat_view(game, 1, random.Random(0)).dice is not game.dice


def test_the_simple_player_casts_the_plainest_useful_spell_and_blocks_what_falls_on_it() -> None:
    """The simple player: hits on the nearest enemy first; blocks Blast on its unit; lets a Chant on the caster's
    own unit through while its wizard has not activated (it keeps its try to cast)."""
    game = _wizards(p2_wizard=True)
    game.apply(Activate(1, "w1"))
    assert SimplePlayer(1).choose(game) == CastSpell(1, "w1", "Blast", "e")
    game.apply(CastSpell(1, "w1", "Blast", "e"))
    assert SimplePlayer(1).choose(game) == Dispel(2, (TokenSpend(1, "e"),))
    game = _wizards(p2_wizard=True)
    game.apply(Activate(1, "w1"))
    game.apply(CastSpell(1, "w1", "Chant", "w1"))
    assert SimplePlayer(1).choose(game) == Done(2)
    quick = _casters(gap=12.0, tokens=(2, 4))
    quick.apply(Activate(1, "c1"))
    quick.apply(CastSpell(1, "c1", "Blast", "c2"))
    action = SimplePlayer(1).choose(quick)
    assert isinstance(action, Dispel) and sum(t.tokens for t in action.tokens) == 2
