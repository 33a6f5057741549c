"""Sending the person's action to the engine from a battle screen, the same way on every screen (regiments,
``game.ui.scenes.battle``; AoF: Skirmish, ``game.ui.scenes.skirmish_battle``): an illegal action is handed back to
the screen to show the rule it breaks; an unexpected engine error is kept and shown, never closing the players'
game."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from game.engine.errors import IllegalAction
from game.ui import palette

if TYPE_CHECKING:
    from game.engine.actions import Action
    from game.engine.events import Event
    from game.engine.game import Game


class ActingHost(Protocol):
    """What ``apply_action`` uses of the screen."""

    game: Game
    last_exception: BaseException | None

    def show_banner(self, text: str, colour: tuple[int, int, int], seconds: float = 4.0) -> None:
        """A message over the bottom of the table for ``seconds``."""
        ...


def apply_action(scene: ActingHost, action: Action,
                 illegal: Callable[[IllegalAction], None]) -> list[Event] | None:
    """``Game.apply`` of ``action``: its events, or None if it was refused (``illegal`` is given the rule broken) or
    the engine failed (kept in ``scene.last_exception``, printed to stderr and shown in a banner)."""
    try:
        return scene.game.apply(action)
    except IllegalAction as e:
        illegal(e)
    except Exception as e:  # noqa: BLE001 - an engine bug must not close the players' game
        scene.last_exception = e
        traceback.print_exc(file=sys.stderr)
        scene.show_banner(f"Engine error: {e}", palette.ILLEGAL)
    return None


NEWS = (140, 200, 255)
"""Colour of a banner that reports what happened."""


def announce(scene: ActingHost, events: list[Event]) -> None:
    """The latest of ``events`` that is news (not a roll, a phase or an info line) in the banner."""
    news = [e for e in events if e.kind not in ("roll", "phase", "info")]
    if news:
        scene.show_banner(news[-1].text, NEWS, 3.5)
