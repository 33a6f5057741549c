"""The odds before a decision: what the dice may bring to a shot, a charge, a spell or a pursuit (issue 15).

An advisor for the window, not a rule: it never changes the game, never reads or rolls the game's dice, and gives
the same odds for the same position. ``exact`` convolves the dice distributions with the engine's own numbers;
``simulate`` plays the decision out with the engine on clones of the game, with dice of its own, where the dice do
not convolve simply. ``shot_advice`` picks between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.actions import Shoot
from game.engine.game import Game
from game.odds.exact import Spread, shot_odds, spread
from game.odds.simulate import BUDGET_S, MIN_SAMPLES, Study, shot_study


@dataclass(frozen=True)
class ShotAdvice:
    """What a shot may bring."""

    hits: Spread
    """Hits scored (mean ± standard deviation)."""
    wounds: Spread
    """Wounds put on the target."""
    destroyed: float
    """Chance the target is destroyed."""
    morale_test: float
    """Chance it must take a morale test at the end of the Shooting Phase (half strength or less)."""
    morale_fail: float
    """Chance it takes that test and fails (becomes Shaken)."""
    samples: int
    """0 when exact, else how many simulated shots the figures come from."""


def shot_advice(game: Game, action: Shoot, budget_s: float = BUDGET_S, study: Study | None = None) -> ShotAdvice:
    """The odds of ``action``: exact when ``exact.shot_odds`` can, else simulated (``study``, if given, is the
    ``simulate.shot_study`` of this shot to draw more samples from). Raises ``IllegalAction`` if the shot is
    illegal."""
    odds = shot_odds(game.state, action)
    if odds is not None:
        return ShotAdvice(spread(odds.hits), spread(odds.wounds), odds.destroyed, odds.morale_test,
                          odds.morale_fail, 0)
    study = study or shot_study(game, action)
    got = study.advance(budget_s, at_least=max(0, MIN_SAMPLES - study.samples.n))
    hm, hs = got.mean_sd("hits")
    wm, ws = got.mean_sd("wounds")
    return ShotAdvice(Spread(hm, hs), Spread(wm, ws), got.chance("destroyed"), got.chance("morale_test"),
                      got.mean_sd("morale_fail")[0], got.n)
