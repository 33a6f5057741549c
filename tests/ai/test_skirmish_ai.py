"""The computer opponent in AoF: Skirmish (issues 13 and 18; game/ai/skirmish*.py): clear choices, its own dice,
legal whole games, the log's reasons, and decisions it does not know answered by the simple player.

Never timed (benchmarks/ai_bench.py prints the timings)."""

from __future__ import annotations

import random
from pathlib import Path

from game.ai import SearchPlayer
from game.ai.by_ruleset import ruleset_ai
from game.ai.explain import ExplainedPlayer
from game.ai.skirmish_evaluate import marker_gap
from game.autoplay import state_is_consistent
from game.engine import magic
from game.engine.actions import Activate, CastSpell, DeclareCharge, Done, MoveModels, Shoot
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.magic import Spell, SpellHits
from game.engine.profiles import Profile
from game.engine.state import Objective, Pending
from game.players import make_player
from game.scenario import load_scenario, new_game_state
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, skirmish_game, unit

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "scenarios" / "skirmish_crossroads.yaml"
STRAGGLER = Profile("Straggler", 5, 6, 25.4, 25.4, 1, 10, WARRIOR.weapons)
"""A lone Quality 5+, Defense 6+ model: any wound makes it roll for wound effects."""


def _charge_position(dice: Dice) -> Game:
    """Player 1's five Warriors 5" from a lone Straggler with a wound marker, its other Warriors and player 2's
    far away."""
    w, s, far = unit("w", 1, WARRIOR, 5), unit("s", 2, STRAGGLER, 1), unit("far", 2, WARRIOR, 5)
    rest = unit("rest", 1, WARRIOR, 3)
    g = skirmish_game([(w, line(10, 10, 5)), (rest, line(38, 4, 3)), (s, [(13, 16.5)]), (far, line(30, 44, 5))])
    g.dice = dice
    g.state.activation.models["s"][0].wounds = 1
    return g


def test_charges_a_lone_model_in_its_reach() -> None:
    """"Melee": a unit of five next to a lone weak enemy charges it rather than holding or moving away."""
    g = _charge_position(Dice(seed=3))
    g.apply(Activate(1, "w"))
    assert SearchPlayer(4).choose(g) == DeclareCharge(1, "w", "s")


def test_the_same_position_with_other_game_dice_gets_the_same_decision() -> None:
    """The AI rolls its own dice: other game seeds (or dice that would refuse any roll) give the same decision, and
    the game's dice are not advanced by its thinking."""
    games = [_charge_position(Dice(seed=1)), _charge_position(Dice(seed=999)), _charge_position(Dice(sequence=[]))]
    answers = [SearchPlayer(7).choose(g) for g in games]
    assert answers[0] == answers[1] == answers[2] and isinstance(answers[0], Activate)
    for g in games:
        g.apply(answers[0])
    consumed = [g.dice.consumed for g in games]
    answers = [SearchPlayer(7).choose(g) for g in games]
    assert answers[0] == answers[1] == answers[2]
    assert [g.dice.consumed for g in games] == consumed


def test_shoots_the_target_in_range() -> None:
    """"Shooting": archers whose one enemy in range is 20" away shoot it (and do not Rush, which gives up
    shooting)."""
    a, near, far = unit("a", 1, ARCHER, 3), unit("near", 2, WARRIOR, 3), unit("far", 2, WARRIOR, 3)
    g = skirmish_game([(a, line(20, 6, 3)), (near, line(20, 27.5, 3)), (far, line(40, 46, 3))])
    g.dice = Dice(seed=8)
    ai = SearchPlayer(2)
    g.apply(Activate(1, "a"))
    action = ai.choose(g)
    assert not (isinstance(action, MoveModels) and action.action == "rush")
    g.apply(action)
    assert g.pending is not None and g.pending.decision == "shoot"
    assert ai.choose(g) == Shoot(1, "a", "near")


def test_seizes_an_uncontested_marker() -> None:
    """"Mission": a unit 6" from a marker no enemy is near moves within 3" of it."""
    w, e = unit("w", 1, WARRIOR, 3), unit("e", 2, WARRIOR, 3)
    g = skirmish_game([(w, line(20, 10, 3)), (e, line(20, 44, 3))])
    g.dice = Dice(seed=5)
    g.state.objectives.append(Objective(21.5, 19.5))
    g.apply(Activate(1, "w"))
    action = SearchPlayer(6).choose(g)
    assert isinstance(action, MoveModels)
    g.apply(action)
    assert marker_gap(g, g.state.units["w"], (21.5, 19.5)) == 0.0


def test_a_shaken_unit_yet_to_activate_seizes_at_the_rounds_end() -> None:
    """"Shaken": a Shaken unit "can't contest or seize objectives" and "must spend one full activation idle to stop
    being Shaken". Beside a marker, one whose activation is still to come this round spends it idle and seizes the
    marker at the round's end, so the evaluation counts it a seizer (``_seizer``); once it has activated this round
    it stays Shaken and does not."""
    from game.ai.skirmish_evaluate import _seizer

    w, e = unit("w", 1, WARRIOR, 3), unit("e", 2, WARRIOR, 3)
    g = skirmish_game([(w, line(20, 10, 3)), (e, line(20, 44, 3))])
    g.state.units["w"].shaken = True
    assert _seizer(g, g.state.units["w"]) and _seizer(g, g.state.units["e"])
    g.state.activation.activated.append("w")
    assert not _seizer(g, g.state.units["w"])
    g.state.units["w"].shaken = False
    assert _seizer(g, g.state.units["w"])


def test_a_decision_it_does_not_know_gets_the_simple_players_answer() -> None:
    """A decision a later rule adds (not listed by ``decision_options``) is answered by the simple player's
    heuristics, not a crash: the search receives that one answer."""
    g = _charge_position(Dice(seed=1))
    g.state.pending = Pending(1, "a_new_decision", "w")
    own = ruleset_ai(g)
    assert own is not None
    got, _ = own.candidates(g, 1, SearchPlayer(1).budget, random.Random(1))
    assert got == [Done(1)]


def test_the_log_gives_the_reason_of_a_charge_and_an_activation() -> None:
    """game/ai/explain.py: the figures of a skirmish decision become the log's reason."""
    g = _charge_position(Dice(seed=3))
    ai = ExplainedPlayer(4)
    action, why = ai.choose_explained(g)
    assert isinstance(action, Activate) and "units judged by their best answers" in why
    g.apply(Activate(1, "w"))
    action, why = ai.choose_explained(g)
    assert isinstance(action, DeclareCharge) and why.startswith("charge: ") and "wounds" in why


def test_plays_whole_games_legally_against_the_simple_player() -> None:
    """Every action the AI proposes in a whole game of Crossroads Shrine is legal when applied (an
    ``IllegalAction`` fails the test) and the invariants hold after each."""
    game = Game.start(new_game_state(load_scenario(CROSSROADS)), Dice(seed=21))
    seats = {1: make_player("ai-easy", 5), 2: make_player("simple", 6)}
    actions = 0
    while game.pending is not None:
        action = seats[game.pending.player].choose(game)
        game.apply(action)
        actions += 1
        assert state_is_consistent(game.state) == [], f"after {action.to_dict()}"
        assert actions < 1000
    assert game.state.game_over


def test_a_caster_casts_at_the_enemy_in_sight_before_acting() -> None:
    """AoF: Skirmish "Caster(X)" (line 87): the activated caster with tokens and an enemy in range and in sight tries
    its damaging spell before its action (the simple player's rule of thumb, which the search player uses for
    casts); the regiments' cast search (footprints) is not used on loose models."""
    mage_profile = Profile("Mage", 4, 5, 25.4, 25.4, 1, 40, (), ("Caster(2)",))
    mage, w = unit("mage", 1, mage_profile, 1), unit("w", 2, WARRIOR, 4)
    game = skirmish_game([(mage, [(10, 10)]), (w, line(10, 25, 4))], dice=[])
    magic.magic_of(game.state).spells = {1: {"Bolt": Spell("Bolt", 1, "enemy", 18.0, hits=SpellHits(2, ap=1))},
                                         2: {}}
    game.apply(Activate(1, "mage"))
    action = make_player("ai", 3).choose(game)
    assert isinstance(action, CastSpell) and action.spell == "Bolt" and action.target == "w"
    assert game.dice.consumed == 0
