"""A seat played by the computer opponent in a game of the window (issue 13 "In the window").

``ComputerSeat`` names the player the computer plays and its level; a game record names it under the optional key
``computer`` (docs/formats.md "Game record"), so that resuming gives the seat back to the computer and the replay
viewer says who was the computer. ``take_back`` is the take-back rule of a game against the computer
(docs/rulings.md "Taking back against the computer"): the person takes back their own last action together with
the computer's answers since, while no die was rolled since and the computer has not begun a turn of its own; the
computer never takes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.engine.actions import show_value
from game.engine.game import Game
from game.engine.rulesets import RULESETS
from game.rewind import Rewinder, TakeBackRefused, take_back_refusal

LEVEL_WORDS: dict[str, str] = {"ai-easy": "easy", "ai": "normal", "ai-hard": "hard"}
"""The levels the window offers (``game.ai.LEVELS`` keys, the autoplay player names) and their words."""


@dataclass(frozen=True)
class ComputerSeat:
    """The computer plays ``player`` (1 or 2) at ``level`` (a key of ``LEVEL_WORDS``)."""

    player: int
    level: str = "ai"

    def __post_init__(self) -> None:
        if self.player not in (1, 2):
            raise ValueError(f"player must be 1 or 2, got {show_value(self.player)}")
        if self.level not in LEVEL_WORDS:
            raise ValueError(f"level must be one of {', '.join(LEVEL_WORDS)}, got {show_value(self.level)}")

    @property
    def person(self) -> int:
        """The player the person at the screen plays."""
        return 3 - self.player

    @property
    def words(self) -> str:
        """"the computer (normal)"."""
        return f"the computer ({LEVEL_WORDS[self.level]})"

    def to_record(self) -> dict[str, Any]:
        """The record's ``computer`` mapping: ``{player: 2, level: ai}``."""
        return {"player": self.player, "level": self.level}


def seat_from_record(value: Any) -> ComputerSeat:
    """The ``computer`` key of a record as a seat. Raises ``ValueError`` saying what is wrong."""
    if not isinstance(value, dict):
        raise ValueError(f"must be a mapping {{player: 1 or 2, level: {' | '.join(LEVEL_WORDS)}}}, "
                         f"got {show_value(value)}")
    unknown = sorted(str(k) for k in value if k not in ("player", "level"))
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (player, level)")
    player = value.get("player")
    if isinstance(player, bool) or not isinstance(player, int):
        raise ValueError(f"player must be 1 or 2, got {show_value(player)}")
    level = value.get("level", "ai")
    if not isinstance(level, str):
        raise ValueError(f"level must be one of {', '.join(LEVEL_WORDS)}, got {show_value(level)}")
    return ComputerSeat(player, level)


def ruleset_refusal(ruleset: str) -> str | None:
    """Why the computer opponent cannot play ``ruleset``, or None: it plays every registered ruleset
    (``game.engine.rulesets.RULESETS``; its candidates fall back to legal random answers where its heuristics do not
    know a ruleset's rule)."""
    if ruleset in RULESETS:
        return None
    return f"the computer opponent cannot play the ruleset {ruleset!r} (it plays {', '.join(sorted(RULESETS))})"


# --- taking back ---------------------------------------------------------------------------------------------------
def own_last(game: Game, person: int) -> int | None:
    """Index in ``game.history`` of ``person``'s last action, or None."""
    for i in range(len(game.history) - 1, -1, -1):
        if game.history[i].player == person:
            return i
    return None


def quick_refusal(game: Game, person: int, base: int = 0) -> str | None:
    """Why ``person`` may not take back now, from what needs no replay (``base``: the first action the game's
    rewinder can reach), or None when only the turn check of ``take_back`` remains."""
    if game.state.game_over or game.pending is None:
        return "The game is over: its result stands."
    k = own_last(game, person)
    if k is None:
        return "Nothing of yours to take back yet."
    if k == len(game.history) - 1:
        why = take_back_refusal(game, person)       # no computer action since: the hotseat rule
    else:
        why = None
        for j in range(k, len(game.history)):
            if game.dice_used[j] > 0:
                a = game.history[j]
                who = "your" if a.player == person else "the computer's"
                why = (f"Dice were rolled ({game.dice_used[j]} D6) by {who} {a.type.replace('_', ' ')} since your "
                       "last action: its result stands.")
                break
    if why is None and k < base:
        why = "That action was made before this game was opened here."
    return why


def take_back(game: Game, rewinder: Rewinder, person: int) -> Game:
    """``game`` as it was before ``person``'s last own action (the computer's answers since are taken back with it).

    Refused (``TakeBackRefused`` saying why) when ``quick_refusal`` refuses, or when the computer's actions since
    include the start of a turn of its own (the active player changed after the person's action, with a computer
    action made since): a turn once handed over stands. Returns a new ``Game``; ``game`` is unchanged."""
    why = quick_refusal(game, person, rewinder.base)
    if why is not None:
        raise TakeBackRefused(why)
    k = own_last(game, person)
    assert k is not None
    before = rewinder.game_at(game, k)
    if k < len(game.history) - 1:
        s0, s1 = before.state, game.state
        if (s0.round, s0.active_player) != (s1.round, s1.active_player):
            raise TakeBackRefused("The computer's turn came after your last action: that action stands.")
    return before


__all__ = ["ComputerSeat", "LEVEL_WORDS", "own_last", "quick_refusal", "ruleset_refusal", "seat_from_record",
           "take_back"]
