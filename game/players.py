"""The computer players ``main.py autoplay --players`` can seat, by name (../shared/spec.md "Command line").

``random`` picks random legal actions (``game.autoplay.RandomPlayer``); ``simple`` is the lessons' rule-based
opponent (``game.tutorial.opponent.SimplePlayer``); ``ai-easy``, ``ai`` and ``ai-hard`` are the computer opponent
(``game.ai.SearchPlayer``) at its three thinking budgets (``game.ai.LEVELS``).
"""

from __future__ import annotations

import random

from game.ai import LEVELS, SearchPlayer
from game.autoplay import Player, RandomPlayer
from game.tutorial.opponent import SimplePlayer

PLAYERS: tuple[str, ...] = ("random", "simple", "ai-easy", "ai", "ai-hard")
"""Player names that can be seated now."""
PLANNED: tuple[str, ...] = ()
"""Player names the spec reserves for the computer opponent still to come."""


class UnknownPlayer(ValueError):
    """A player name that cannot be seated; the message says why and lists the names that can."""


def make_player(name: str, seed: int) -> Player:
    """A fresh player called ``name``, thinking with its own generator seeded with ``seed``.

    Raises ``UnknownPlayer`` for a name not in ``PLAYERS``."""
    if name == "random":
        return RandomPlayer(random.Random(seed))
    if name == "simple":
        return SimplePlayer(seed)
    if name in LEVELS:
        return SearchPlayer(seed, LEVELS[name])
    if name in PLANNED:
        raise UnknownPlayer(f"the computer opponent {name!r} is not available yet; choose one of "
                            f"{', '.join(PLAYERS)}")
    raise UnknownPlayer(f"unknown player {name!r}; choose one of {', '.join(PLAYERS)}")


def parse_players(text: str) -> tuple[str, str]:
    """``"P1,P2"`` (or one name for both seats) -> the two names. Raises ``UnknownPlayer``."""
    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(names):
        raise UnknownPlayer(f"--players takes two names separated by a comma, e.g. random,simple; got {text!r}")
    for n in names:
        make_player(n, 0)          # refuses an unknown or planned name now, before any game is played
    return names[0], names[1]
