"""The reason the computer opponent gives for a decision (game/ai/explain.py) comes from what its search computed,
and keeping the figures never changes what it decides. The seat of the computer in a record and the take-back rule
against it (game/computer_seat.py, docs/rulings.md "Taking back against the computer")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.ai import LEVELS, SearchPlayer
from game.ai.explain import ExplainedPlayer, Thinking, reason
from game.computer_seat import ComputerSeat, quick_refusal, seat_from_record, take_back
from game.engine.actions import DeclareCharge, Done
from game.engine.dice import Dice
from game.engine.game import Game
from game.replay import Rewinder, TakeBackRefused
from game.scenario import load_scenario, new_game_state
from game.tutorial.opponent import SimplePlayer

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


def _game(seed: int = 3) -> Game:
    return Game.start(new_game_state(load_scenario(SMALL)), Dice(seed=seed))


def test_explaining_never_changes_the_decision() -> None:
    """The same seed and level decide the same with and without the figures kept, over a whole game's decisions."""
    game = _game()
    plain, explained = SearchPlayer(9, LEVELS["ai-easy"]), ExplainedPlayer(9, LEVELS["ai-easy"])
    other = SimplePlayer(4)
    for _ in range(120):
        p = game.pending
        if p is None:
            break
        if p.player == 2:
            a, b = plain.choose(game), explained.choose_explained(game)[0]
            assert a == b
        else:
            a = other.choose(game)
        game.apply(a)


def test_a_charge_is_explained_by_the_share_of_its_samples_that_won_the_melee() -> None:
    """Player 1's riders may charge the Ash Brutes at once: the reason's percentages are the shares of the
    search's own samples (each sample: the charge played out with the AI's dice)."""
    game = _game()
    game.apply(Done(1))                                     # 1. Strategy
    assert game.charge_targets("riders-1") == ["brutes-1"]
    player = ExplainedPlayer(5, LEVELS["ai"])
    action, why = player.choose_explained(game)
    t = player.thinking
    assert t is not None and t.decision == "declare_charge"
    charge = t.candidate(DeclareCharge(1, "riders-1", "brutes-1"))
    assert charge is not None and len(charge.samples) == LEVELS["ai"].samples
    if action == charge.action:
        fought = [s for s in charge.samples if s.melee is not None]
        if fought:
            assert f"{round(100 * charge.share(True, 'melee'))}% to win the melee" in why
        assert f"{len(charge.samples)} samples of its own dice" in why
    else:                                                   # holding back: the charge's figures are given
        assert action == Done(1) and "its best charge (Mountain Riders on Ash Brutes" in why
        gap = re.search(r"scored (\d+) points lower", why)
        done = t.candidate(Done(1))
        assert gap is not None and done is not None
        assert int(gap.group(1)) == round(done.value - charge.value)


def test_the_easy_level_explains_a_charge_by_its_quick_estimate() -> None:
    """ai-easy scores a charge at once (no dice rolled): its reason gives the evaluation's estimate of the melee
    (``evaluate.win_chance``), said to be one, and no samples."""
    from game.ai.evaluate import win_chance

    game = _game()
    game.apply(Done(1))                                     # 1. Strategy
    player = ExplainedPlayer(5, LEVELS["ai-easy"])
    action, why = player.choose_explained(game)
    t = player.thinking
    assert t is not None and t.decision == "declare_charge" and t.estimated
    charge = t.candidate(DeclareCharge(1, "riders-1", "brutes-1"))
    assert charge is not None and all(s.melee is None for s in charge.samples)
    units = game.state.units
    won = win_chance(game, units["riders-1"], units["brutes-1"])
    chance = f"{round(100 * won)}% to win the melee by its quick estimate"
    assert chance in why and "scored at once, no dice rolled" in why and "samples" not in why


def test_a_unit_that_flees_and_is_run_down_is_not_said_to_get_away() -> None:
    """A flight whose unit a charger runs down (the engine's ``ran_down`` charge event) counts as caught: the reason
    of a reaction says "it is run down", not "it gets away"; a charge says how often its fleeing target is caught."""
    from game.ai.explain import Candidate, Sample, _caught, _melee_words
    from game.engine.actions import ChargeReaction
    from game.engine.events import Event

    events = [Event("flee", "Spears flee 6\"", {"unit": "spears-1"}),
              Event("charge", "Guard runs down Spears", {"unit": "guard-1", "target": "spears-1", "ran_down": True})]
    assert _caught(events, "spears-1") and not _caught(events, "warriors-1") and not _caught(events[:1], "spears-1")

    def sample(caught: bool) -> Sample:
        return Sample(0.0, None, True, None, 0, 0, caught=caught)

    flee = Candidate(ChargeReaction(1, "spears-1", "flee"), [sample(True), sample(True), sample(False), sample(True)])
    assert _melee_words(flee) == "25% it gets away, 75% it is run down"
    charge = Candidate(DeclareCharge(1, "guard-1", "spears-1"), [sample(True), sample(False)])
    assert _melee_words(charge) == "100% the target flees (50% run down)"


def test_a_charge_judged_on_its_target_fleeing_says_so() -> None:
    """AoWFBR "Charge Reactions": the search keeps the worse of the target holding and fleeing. When that is the
    flight (no melee in any sample), the reason says the charge was judged on the target fleeing, and how often it
    was run down, not "0.0 wounds" as for a melee without resolution."""
    from game.ai.explain import Candidate, Sample

    game = _game()
    action = DeclareCharge(2, "guard-1", "spears-1")
    samples = [Sample(-5.0, None, True, None, 0, 0, caught=c) for c in (True, False, False, False)]
    t = Thinking("declare_charge", 2, [Candidate(action, samples)])
    words = reason(t, game, action)
    assert words.startswith("charge, judged on the target fleeing")
    assert "100% the target flees (25% run down)" in words and "wounds" not in words


def test_a_decision_without_search_says_so() -> None:
    game = _game()
    done = Done(2)
    assert reason(Thinking("shoot", 2), game, done) == "nothing else it could do here"
    assert reason(Thinking("deploy", 2), game, done) == "by a quick rule of thumb (no look-ahead)"
    assert reason(Thinking("declare_charge", 2), game, done) == "no unit of its has a charge worth judging"
    assert "refused its own choice" in reason(Thinking("move", 2, fallback=True), game, done)
    assert reason(None, game, done) == "no figures kept for this decision"


def test_the_record_key_computer_is_checked() -> None:
    assert seat_from_record({"player": 2, "level": "ai-hard"}) == ComputerSeat(2, "ai-hard")
    assert seat_from_record({"player": 1}) == ComputerSeat(1, "ai")
    for bad, words in (([2], "must be a mapping"), ({"player": 3}, "player must be 1 or 2"),
                       ({"player": True}, "player must be 1 or 2"), ({"player": 1, "level": "expert"}, "level"),
                       ({"player": 1, "seat": 2}, "unknown key 'seat'")):
        with pytest.raises(ValueError, match=words):
            seat_from_record(bad)


def test_take_back_rewinds_to_the_persons_last_action_while_no_die_was_rolled() -> None:
    """docs/rulings.md "Taking back against the computer": the person (player 1) takes back their last action and
    the computer's answers since; not once the computer's own turn has begun; never past a die."""
    game = _game()
    rewinder = Rewinder(game)
    game.apply(Done(1))                                     # strategy
    game.apply(DeclareCharge(1, "riders-1", "brutes-1"))
    rewinder.remember(game)
    assert quick_refusal(game, 1) is None
    before = take_back(game, rewinder, 1)
    assert before.history == game.history[:-1]
    assert quick_refusal(game, 2) == "Nothing of yours to take back yet."      # the computer's seat never does
    game.apply(Done(1))                                     # the charged unit must react: the computer's answer
    assert game.pending.player == 2
    reaction = ExplainedPlayer(1, LEVELS["ai"]).choose(game)
    game.apply(reaction)
    if game.dice_used[-1]:
        assert "Dice were rolled" in (quick_refusal(game, 1) or "")
        with pytest.raises(TakeBackRefused):
            take_back(game, rewinder, 1)
    else:
        assert take_back(game, rewinder, 1).history == game.history[:-2]


def test_no_take_back_across_the_computers_turn() -> None:
    game = _game()
    rewinder = Rewinder(game)
    while game.pending.player == 1:
        game.apply(Done(1))                                 # the person's whole turn, no die
    assert take_back(game, rewinder, 1).history == game.history[:-1]    # before the computer answered
    game.apply(Done(2))                                     # the computer's first decision of its turn
    assert quick_refusal(game, 1) is None                   # no die yet...
    with pytest.raises(TakeBackRefused, match="turn came after"):       # ...but its turn has begun
        take_back(game, rewinder, 1)
