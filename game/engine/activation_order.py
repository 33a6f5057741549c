"""Who activates next, for the rulesets of alternating activations (AoF:R 2.16 and the quick rules "Game
Structure" / "Playing the Game", AoF: Skirmish "Playing the Game"): "players alternate in activating one unit
each"; a player with no unit left to activate is passed over; "each new round, the player that finished activating
first on the last round gets to go first"."""

from __future__ import annotations

from collections.abc import Callable, Collection

from game.engine.actions import Action, Activate, DeclareCharge, Done, Shoot, StrikeBack
from game.engine.state import GameState, Pending


def offer_activation(state: GameState, player: int, eligible: Callable[[int], list[str]],
                     finished_first: int | None) -> tuple[bool, int | None]:
    """Ask ``player`` (else the other, when ``player`` has no unit left) to activate one of ``eligible(p)``'s unit
    ids, setting ``state.pending`` to an ``activate`` decision. Returns (whether a unit was offered: False when
    neither player has one left and the round ends, the player who finished activating first this round: the one
    with no unit left while the other still has some, once known; ``finished_first`` is kept when already set)."""
    for p in (1, 2):
        if finished_first is None and not eligible(p) and eligible(3 - p):
            finished_first = p
    for p in (player, 3 - player):
        options = eligible(p)
        if options:
            state.active_player = p
            state.pending = Pending(p, "activate", None, tuple(options))
            return True, finished_first
    return False, finished_first


def first_of_next_round(finished_first: int | None, first: int) -> int:
    """Who activates first next round: the player that finished activating first this round; when neither did
    (both ran out on the same activation), the one who did not go first this round (``first``)."""
    return finished_first if finished_first is not None else 3 - first


def listed_answers(pending: Pending, charge_targets: Callable[[str], list[str]],
                   shooting_targets: Callable[[str], list[str]], idle: Collection[str]) -> list[Action] | None:
    """The discrete answers to a round's decision (``Ruleset.decision_options`` of the activation rulesets):
    ``activate`` each unit offered; ``action`` stay idle (Hold) or charge each of ``charge_targets(unit)``; ``shoot``
    each of ``shooting_targets(unit)``, or done; ``strike_back`` or not; the decisions in ``idle`` done (their
    moves and pivots are poses, never listed). None for any other decision."""
    me = pending.player
    if pending.decision == "activate":
        return [Activate(me, uid) for uid in pending.options]
    unit = pending.unit
    if unit is None:
        return None
    if pending.decision == "action":
        return [Done(me)] + [DeclareCharge(me, unit, t) for t in charge_targets(unit)]
    if pending.decision == "shoot":
        return [Shoot(me, unit, t) for t in shooting_targets(unit)] + [Done(me)]
    if pending.decision == "strike_back":
        return [StrikeBack(me, unit), Done(me)]
    if pending.decision in idle:
        return [Done(me)]
    return None
