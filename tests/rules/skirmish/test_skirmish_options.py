"""``AoFSkirmish.decision_options``: the discrete answers of a round's decisions (AoF: Skirmish "Activation",
"Shooting", "Melee"; docs/formats.md "AoF: Skirmish"), which a computer player judges; positions are never listed."""

from __future__ import annotations

from game.engine.actions import Activate, DeclareCharge, Done, Shoot, StrikeBack
from game.engine.state import Pending
from tests.rules.skirmish.helpers import ARCHER, WARRIOR, line, skirmish_game, unit


def test_activations_hold_charges_shots_and_strike_back_are_listed() -> None:
    """"Activation": pick a unit; then Hold or Charge (Advance and Rush are positions); "Shooting": each target in
    range; "Melee": the charged unit may strike back."""
    a, w, e = unit("a", 1, ARCHER, 2), unit("w", 1, WARRIOR, 2), unit("e", 2, WARRIOR, 2)
    g = skirmish_game([(a, line(10, 10, 2)), (w, line(30, 10, 2)), (e, line(30, 16, 2))])
    rs = g.ruleset
    assert rs.decision_options() == [Activate(1, "a"), Activate(1, "w")]
    g.apply(Activate(1, "w"))
    assert rs.decision_options() == [Done(1), DeclareCharge(1, "w", "e")]
    g.state.pending = Pending(2, "strike_back", "e")
    assert rs.decision_options() == [StrikeBack(2, "e"), Done(2)]
    g2 = skirmish_game([(unit("a", 1, ARCHER, 2), line(10, 10, 2)), (unit("e", 2, WARRIOR, 2), line(12, 24, 2))])
    g2.apply(Activate(1, "a"))
    g2.apply(Done(1))                              # Hold, then shoot
    assert g2.ruleset.decision_options() == [Shoot(1, "a", "e"), Done(1)]


def test_set_up_and_unknown_decisions_are_not_listed() -> None:
    """Placing models and markers are positions; a decision the ruleset does not know is not listed either."""
    w, e = unit("w", 1, WARRIOR, 2), unit("e", 2, WARRIOR, 2)
    g = skirmish_game([(w, line(10, 10, 2)), (e, line(30, 40, 2))])
    g.state.pending = Pending(1, "a_new_decision", "w")
    assert g.ruleset.decision_options() is None
