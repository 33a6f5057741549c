"""Taking back actions of a game in progress (issue "undo"): the hotseat take-back rule and the ``Rewinder``.

A ``Rewinder`` keeps a clone of the game every ``SNAPSHOT_EVERY`` actions: taking back the last action is replaying
the game without it from the nearest snapshot (never undoing by hand), and only while no die has been rolled since
(``Game.can_take_back``). It needs the engine's ``Game`` only, so ``game.computer_seat`` (read by ``game.record``)
and ``game.replay`` (which reads records) both build on it; ``game.replay`` re-exports its names.
"""

from __future__ import annotations

from game.engine.game import Game

SNAPSHOT_EVERY = 16
"""A snapshot every this many actions: stepping back costs at most this many actions of replay."""


class TakeBackRefused(ValueError):
    """The last action may not be taken back; the message says why, in words for the player."""


def take_back_refusal(game: Game, player: int) -> str | None:
    """Why ``player`` may not take back the last action of ``game`` now, or None if they may."""
    if game.state.game_over or game.pending is None:
        return "The game is over: its result stands."
    if not game.history:
        return "Nothing to take back yet."
    last = game.history[-1]
    if last.player != player:
        return f"The last action was Player {last.player}'s: you can only take back your own actions."
    if game.dice_used[-1] > 0:
        n = game.dice_used[-1]
        return (f"Dice were rolled ({n} D6) by the last action ({last.type.replace('_', ' ')}): "
                "its result stands.")
    if not game.can_take_back(player):
        return "The last action cannot be taken back."
    return None


class Rewinder:
    """Takes back actions of a game in progress by replaying it without them (issue "undo").

    ``Rewinder(start)`` is given the game at its starting position, or at any position whose actions are a
    prefix of every later position of this game (a resumed game's replay start). It keeps a clone of the game
    every ``SNAPSHOT_EVERY`` actions, made while replaying, so taking back costs at most that many actions of
    replay. Positions before ``start`` cannot be reached.
    """

    def __init__(self, start: Game) -> None:
        self.base = len(start.history)
        """Number of actions of the earliest position kept."""
        self._snapshots: dict[int, Game] = {self.base: start.clone()}

    def remember(self, game: Game) -> None:
        """Keep a snapshot of ``game`` if it sits on a snapshot boundary (call after each action; cheap)."""
        n = len(game.history)
        if n > self.base and n % SNAPSHOT_EVERY == 0 and n not in self._snapshots:
            self._snapshots[n] = game.clone()

    def game_at(self, game: Game, index: int) -> Game:
        """``game`` as it was after ``index`` of its actions, replayed from the nearest snapshot.

        Raises ``IndexError`` outside ``base..len(game.history)`` and ``TakeBackRefused`` if the replay does not
        give the same outcomes (the game would not be the same one).
        """
        if not self.base <= index <= len(game.history):
            raise IndexError(f"position {index} is outside {self.base}..{len(game.history)}")
        base = max(k for k in self._snapshots if k <= index)
        snap = self._snapshots[base]
        if snap.history != game.history[:base]:     # a snapshot of a line of play since taken back
            if base == self.base:
                raise TakeBackRefused("this is not the game the take-backs were prepared for")
            for k in [k for k in self._snapshots if k > self.base]:
                del self._snapshots[k]
            return self.game_at(game, index)
        out = snap.clone()
        for i in range(base, index):
            out.apply(game.history[i])
            if out.digests[-1] != game.digests[i]:
                raise TakeBackRefused(f"replaying action {i} gave a different outcome; nothing was taken back")
            self.remember(out)
        return out

    def take_back(self, game: Game, player: int) -> Game:
        """The game without its last action, if ``player`` may take it back (``take_back_refusal``).

        Returns a new ``Game``; ``game`` itself is left as it was. Raises ``TakeBackRefused`` saying why not.
        """
        why = take_back_refusal(game, player)
        if why is None and len(game.history) - 1 < self.base:
            why = "That action was made before this session's starting point."
        if why is not None:
            raise TakeBackRefused(why)
        n = len(game.history) - 1
        for k in [k for k in self._snapshots if k > n]:
            del self._snapshots[k]
        return self.game_at(game, n)


__all__ = ["SNAPSHOT_EVERY", "Rewinder", "TakeBackRefused", "take_back_refusal"]
