"""What one seat may see of a game: a clone with the other seat's secrets replaced and dice of the AI's own.

The search never reads the game's dice (a seeded game's future rolls) nor the other player's hidden choices:

* the clone's ``dice`` is replaced by ``Dice(seed=...)`` drawn from the AI's own ``random.Random`` before any
  action is applied to it, so the game's dice object and its stream are never advanced or consulted;
* a hidden side-mission of the other seat (``game.engine.side_missions``, rulebook "Side-missions", Hidden) is
  removed from the clone's picks until the game is over, as ``side_missions.visible_picks`` shows it to this seat;
* the other seat's token split chosen and not yet revealed (``MagicState.chosen``, step 0.1 "allocate spell
  tokens") is replaced by the engine's default split for that player (``magic.default_allocation``), which
  depends only on public state.

Only the game's state is copied; the log and history of the clone are not read by the search, and the outcome digests
of the actions applied to it are not worked out (``Game.keep_digests``).
"""

from __future__ import annotations

import random

from game.engine import magic, side_missions
from game.engine.dice import Dice
from game.engine.game import Game


def own_dice(rng: random.Random) -> Dice:
    """A fresh seeded ``Dice`` drawn from the AI's own generator ``rng`` (never the game's dice)."""
    return Dice(seed=rng.getrandbits(48))


def seat_view(game: Game, seat: int, rng: random.Random) -> Game:
    """A clone of ``game`` as ``seat`` (1 or 2) may know it, rolling the AI's own dice (see the module docstring).

    The result is a fresh ``Game``; ``game`` is unchanged and its dice are neither read nor advanced (the clone's
    copy of them is discarded before anything is applied)."""
    view = game.clone()
    view.dice = own_dice(rng)
    view.keep_digests = False       # nothing records the look-ahead: its actions' digests are not worked out
    s = view.state
    sm = side_missions.progress(s)
    if sm is not None and not s.game_over:
        sm.picks = [p for p in sm.picks if not (p.hidden and p.player != seat)]
    m = s.magic
    if isinstance(m, magic.MagicState) and (3 - seat) in m.chosen:
        m.chosen[3 - seat] = magic.default_allocation(s, 3 - seat)
    return view


def sample(view: Game, rng: random.Random) -> Game:
    """An independent clone of a seat view rolling fresh dice of the AI's own."""
    twin = view.clone()
    twin.dice = own_dice(rng)
    return twin
