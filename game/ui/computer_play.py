"""The computer opponent's turns in the battle screen: thinking on a worker thread, acting at a readable pace.

``ComputerTurns`` is asked every frame (``poll``) by the battle scene. When the game waits for the computer's seat
it clones the game and lets ``game.ai.explain.ExplainedPlayer`` think on a worker thread (the engine is pure: the
clone shares nothing that changes with the game the window draws, and its geometry cache is built anew so that no
pymunk space is queried from two threads at once), so the window stays responsive. The answer
(an action and the reason its search gives) is handed back to the main thread, which applies it to the game:
only once the previous decision's moves have been animated and a pause has passed (``PAUSES``), so the person
can follow each decision. ``pace`` "fast" shortens the pauses (key G); ``skip`` (key N) plays on without pauses
or waiting for animations until the person's next decision. A thought made for a position that is no longer the
game's (the person took back an action meanwhile) is dropped. A search that fails (an engine bug) gives the random
player's legal answer, and says so.
"""

from __future__ import annotations

import random
import sys
import threading
import traceback
from dataclasses import dataclass

from game.ai import LEVELS
from game.ai.explain import ExplainedPlayer
from game.ai.view import seat_view
from game.autoplay import RandomPlayer
from game.computer_seat import ComputerSeat
from game.engine.actions import Action
from game.engine.game import Game

PAUSES: dict[str, tuple[float, float]] = {"normal": (1.2, 0.45), "fast": (0.35, 0.1)}
"""Seconds between two of the computer's decisions, by pace: after one that changed the table (a move, a charge,
a shot, a spell...), and after one that only ended a step (Done), which is also the least time between the
person's action and the computer's answer."""
PACES = ("normal", "fast")
"""The paces the G key and the Faster button cycle through."""


@dataclass(frozen=True)
class Decision:
    """The computer's answer to one position."""

    key: tuple[int, str]
    """The position it answers (``position``)."""
    action: Action
    """What it plays."""
    reason: str
    """Why, from what its search computed (``game.ai.explain.reason``)."""


def legal_answer(game: Game, seat: ComputerSeat, seed: int) -> Action:
    """The random player's legal answer for the computer's seat, chosen on its seat view (``game.ai.view``: what
    the seat may see, never the game's dice), for when its own choice cannot be used."""
    rng = random.Random(seed)
    return RandomPlayer(rng).choose(seat_view(game, seat.player, rng))


def position(game: Game) -> tuple[int, str]:
    """A key of the game's position: its number of actions and the last one's outcome digest."""
    return len(game.history), game.digests[-1] if game.digests else ""


class ComputerTurns:
    """The computer's side of a battle in the window (see the module docstring).

    ``seat``: who the computer plays and its level; ``seed``: seeds its own generators (never the game's dice)."""

    def __init__(self, seat: ComputerSeat, seed: int) -> None:
        self.seat = seat
        self.seed = seed
        self.pace = "normal"
        """``normal`` or ``fast`` (``PACES``)."""
        self.skipping = False
        """Playing on without pauses until the person's next decision (key N)."""
        self.ready_at = 0.0
        """Scene time before which the next decision is not applied."""
        self._lock = threading.Lock()
        self._asked: tuple[int, str] | None = None
        self._answer: Decision | None = None
        self._threads: list[threading.Thread] = []

    # --- what the scene asks -----------------------------------------------------------------------------------
    def deciding(self, game: Game) -> bool:
        """True when the game waits for the computer's seat."""
        p = game.pending
        return p is not None and not game.state.game_over and p.player == self.seat.player

    @property
    def thinking(self) -> bool:
        """A thought is under way on the worker thread."""
        with self._lock:
            return self._asked is not None and (self._answer is None or self._answer.key != self._asked)

    def poll(self, game: Game, now: float, animating: bool) -> Decision | None:
        """Called every frame: start thinking about a new position of the computer's; the answer once it is ready
        and its time has come (after ``animating`` moves end and the pause), else None. The caller applies it and
        then calls ``applied``."""
        if not self.deciding(game):
            if game.pending is not None and game.pending.player == self.seat.person:
                self.skipping = False          # the person's decision: skipping ends here
            return None
        key = position(game)
        with self._lock:
            asked, answer = self._asked, self._answer
        if asked != key:
            if game.history and game.history[-1].player == self.seat.person:
                # the person's action first shows (and may be taken back) before the computer answers it
                self.ready_at = max(self.ready_at, now + PAUSES[self.pace][1])
            self._think(game, key)
            return None
        if answer is None or answer.key != key:
            return None
        if not self.skipping and (animating or now < self.ready_at):
            return None
        return answer

    def applied(self, now: float, changed_table: bool) -> None:
        """The answer was applied: the next one waits for the pause of the pace."""
        with self._lock:
            self._asked = self._answer = None
        self.ready_at = now + PAUSES[self.pace][0 if changed_table else 1]

    def faster(self) -> str:
        """Cycle the pace (key G); returns the new one."""
        self.pace = PACES[(PACES.index(self.pace) + 1) % len(PACES)]
        return self.pace

    def skip(self) -> None:
        """Play on without pauses until the person's next decision (key N)."""
        self.skipping = True
        self.ready_at = 0.0

    def forget(self) -> None:
        """Drop the thought under way (the game was replaced: a take-back). Its thread ends on its own."""
        with self._lock:
            self._asked = self._answer = None
        self.skipping = False

    def wait(self, timeout: float = 30.0) -> None:
        """Wait for the worker threads to end (tests, closing)."""
        for t in list(self._threads):
            t.join(timeout)
        self._threads = [t for t in self._threads if t.is_alive()]

    # --- the worker ------------------------------------------------------------------------------------------------
    def _think(self, game: Game, key: tuple[int, str]) -> None:
        twin = game.clone()       # the worker never touches the game the window draws and changes,
        twin.state.__post_init__()  # nor its geometry: its own scene, pymunk spaces and trees, built anew
        # a fresh player per decision: no state shared with a thread still finishing a dropped thought
        player = ExplainedPlayer(self.seed * 1_000_003 + key[0], LEVELS[self.seat.level])
        with self._lock:
            self._asked, self._answer = key, None
        thread = threading.Thread(target=self._work, args=(player, twin, key), daemon=True,
                                  name=f"computer-{key[0]}")
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def _work(self, player: ExplainedPlayer, twin: Game, key: tuple[int, str]) -> None:
        try:
            action, reason = player.choose_explained(twin)
        except Exception as e:  # noqa: BLE001 - a search bug must not stop the game: a legal answer instead
            traceback.print_exc(file=sys.stderr)
            action = legal_answer(twin, self.seat, self.seed + key[0])
            reason = f"its search failed ({type(e).__name__}), so it plays a legal answer at random"
        with self._lock:
            if self._asked == key:
                self._answer = Decision(key, action, reason)


__all__ = ["ComputerTurns", "Decision", "PACES", "PAUSES", "legal_answer", "position"]
