"""The battle screen's side of a game against the computer opponent (issue 13 "In the window").

``ComputerSide`` is mixed into ``game.ui.scenes.battle.BattleScene`` (which keeps the game, the log, the widgets and
the hotseat flow): every frame it applies the computer's answer once ``game.ui.computer_play.ComputerTurns`` has it
ready and its pause has passed, with a line in the log giving the reason its search computed; while the computer
decides it gives the action bar its pace and Skip buttons and the top bar its line; and it takes back the person's
last own action with the computer's answers since (``game.computer_seat.take_back``, docs/rulings.md "Taking back
against the computer"). Nothing here changes the game except ``Game.apply`` of the computer's answer and a
take-back, which replaces the game as the hotseat Undo does.
"""

from __future__ import annotations

import random
import sys
import traceback
from typing import TYPE_CHECKING

import pygame

from game.computer_seat import ComputerSeat, quick_refusal, take_back
from game.engine.actions import Action
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.replay import Rewinder, TakeBackRefused, action_text
from game.ui import palette
from game.ui.acting import NEWS
from game.ui.action_bar import ButtonSpec
from game.ui.animation import Animations
from game.ui.computer_play import ComputerTurns, legal_answer
from game.ui.record_controls import adopt_taken_back

if TYPE_CHECKING:
    from game.engine.game import Game
    from game.ui.window import Window


class ComputerSide:
    """The computer opponent's part of the battle scene (see the module docstring)."""

    # what the mixin uses of the battle scene (game/ui/scenes/battle.py)
    app: Window
    game: Game
    time: float
    anims: Animations
    rewinder: Rewinder | None
    computer: ComputerSeat | None
    turns: ComputerTurns | None
    last_exception: BaseException | None
    scenario_path: str | None
    _pending_key: object
    _undo_cache: tuple[object, str | None, Game | None] | None

    if TYPE_CHECKING:       # defined by the battle scene
        def show_banner(self, text: str, colour: tuple[int, int, int], seconds: float = 4.0) -> None: ...
        def _add_events(self, events: list[Event]) -> None: ...
        def _applied(self, events: list[Event], placed: str | None) -> None: ...
        def _reset_view_of_game(self) -> None: ...
        def _sync(self) -> None: ...

    def _seat_computer(self, seed: int | None, computer: ComputerSeat | None) -> None:
        """The seat ``computer`` plays (None: two people, hotseat), its thinking and pacing seeded with ``seed``
        (the window's; None: at random)."""
        self.computer = computer
        self.turns = None
        self._undo_cache = None
        if computer is not None:
            seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
            self.turns = ComputerTurns(computer, seed)

    @property
    def computer_deciding(self) -> bool:
        """True while the game waits for the computer's seat."""
        return self.turns is not None and self.turns.deciding(self.game)

    def _person_waits(self) -> bool:
        """True while the computer decides, with a banner saying so: the person's actions are refused meanwhile
        (the computer answers for its seat)."""
        if not self.computer_deciding:
            return False
        self.show_banner(f"Wait: {self.computer.words if self.computer else 'the computer'} is deciding "
                         "(N skips to your next decision).", palette.SHAKEN)
        return True

    def _computer_turn(self) -> None:
        """Every frame of a game against the computer: apply its answer when it is ready and its time has come."""
        turns = self.turns
        if turns is None:
            return
        answer = turns.poll(self.game, self.time, bool(self.anims.moves))
        if answer is None:
            return
        action, reason = answer.action, self._explain(answer.action, answer.reason)
        text = action_text(self.game, action).partition(": ")[2]
        try:
            events = self.game.apply(action)
        except Exception as e:  # noqa: BLE001 - refused here (legal on its seat view only) or an engine bug
            if not isinstance(e, IllegalAction):
                self.last_exception = e
                traceback.print_exc(file=sys.stderr)
            action = legal_answer(self.game, turns.seat, turns.seed + len(self.game.history))
            text = action_text(self.game, action).partition(": ")[2]
            reason = "the rules refused its own choice here, so it plays a legal answer at random"
            try:
                events = self.game.apply(action)
            except Exception as again:  # noqa: BLE001 - an engine bug must not close the players' game
                self.last_exception = again
                traceback.print_exc(file=sys.stderr)
                self.show_banner(f"Engine error: {again}", palette.ILLEGAL)
                turns.forget()
                return
        assert self.computer is not None
        line = Event("computer", f"{self.computer.words.capitalize()}: {text} — {reason}",
                     {"player": self.computer.player, "reason": reason})
        self._add_events([line])
        changed = any(e.kind not in ("phase", "info", "roll") for e in events)
        turns.applied(self.time, changed)
        self._applied(events, None)

    def _explain(self, action: Action, reason: str) -> str:
        """The log's reason for the computer's ``action`` (before it is applied): its search's ``reason``."""
        return reason

    def _computer_buttons(self) -> list[ButtonSpec]:
        """Faster and Skip while the computer decides."""
        if self.turns is None or not self.computer_deciding:
            return []
        fast = self.turns.pace == "fast"
        return [ButtonSpec("computer_faster", "Normal pace (G)" if fast else "Faster (G)",
                           "The computer's decisions at the normal pace again (G)" if fast else
                           "Shorter pauses between the computer's decisions (G)", "#toggle_on" if fast else None,
                           short="Pace (G)"),
                ButtonSpec("computer_skip", "Skip to my decision (N)",
                           "Play the computer's decisions without pauses until you must decide (N)",
                           "#primary_button", enabled=not self.turns.skipping, short="Skip (N)")]

    def _computer_hint(self) -> str:
        """The HUD line while the computer decides."""
        assert self.computer is not None and self.turns is not None
        doing = "thinking…" if self.turns.thinking else "deciding"
        how = "skipping to your decision" if self.turns.skipping else (
            "G: faster · N: skip to your next decision" if self.turns.pace == "normal"
            else "G: normal pace · N: skip to your next decision")
        return (f"{self.computer.words.capitalize()} plays player {self.computer.player} and is {doing} "
                f"({self._decision_words()}) — {how}")

    def _decision_words(self) -> str:
        p = self.game.pending
        return p.decision.replace("_", " ") if p is not None else "game over"

    def _computer_undo(self) -> tuple[str | None, Game | None]:
        """(why the person may not take back now, the game before their last own action), worked out once per
        position (the rule replays a few actions: docs/rulings.md "Taking back against the computer")."""
        assert self.computer is not None
        game = self.game
        key = (id(game), len(game.history), game.digests[-1] if game.digests else "")
        if self._undo_cache is not None and self._undo_cache[0] == key:
            return self._undo_cache[1], self._undo_cache[2]
        before: Game | None = None
        if self.rewinder is None:
            why: str | None = "Nothing can be taken back here."
        else:
            why = quick_refusal(game, self.computer.person, self.rewinder.base)
            if why is None:
                try:
                    before = take_back(game, self.rewinder, self.computer.person)
                except TakeBackRefused as e:
                    why = str(e)
        self._undo_cache = (key, why, before)
        return why, before

    def _undo_against_computer(self) -> bool:
        """Take back the person's last own action and the computer's answers since (``game.computer_seat``)."""
        assert self.computer is not None
        why, before = self._computer_undo()
        if why is not None or before is None:
            self.show_banner(f"Cannot take back: {why}", palette.SHAKEN, 5.0)
            return False
        old = self.game
        taken = old.history[len(before.history)]
        answers = len(old.history) - len(before.history) - 1
        also = f" and the computer's {answers} answer{'s' if answers != 1 else ''} since" if answers else ""
        game = before.clone()      # the cached game stays as the rewinder made it
        # a thought about the position taken back is dropped
        adopt_taken_back(self, old, game, f"Taken back — {action_text(game, taken)}{also}",
                         self.turns.forget if self.turns is not None else None)
        return True

    def _computer_command(self, key: str) -> bool:
        """The computer's pace (``computer_faster``, G) and Skip (``computer_skip``, N); True if ``key`` was one."""
        if key == "computer_faster" and self.turns is not None:
            pace = self.turns.faster()
            self.show_banner(f"The computer plays at the {pace} pace (G).", NEWS, 2.5)
        elif key == "computer_skip" and self.turns is not None:
            if self.computer_deciding:
                self.turns.skip()
                self.show_banner("Skipping to your next decision…", NEWS, 2.5)
            else:
                self.show_banner("Nothing to skip: this decision is yours.", palette.SHAKEN, 2.5)
        else:
            return False
        return True

    def _computer_key(self, event: pygame.event.Event) -> str | None:
        """The command of a key press against the computer: G ``computer_faster``, N ``computer_skip``."""
        if self.turns is None or event.type != pygame.KEYDOWN:
            return None
        return {pygame.K_g: "computer_faster", pygame.K_n: "computer_skip"}.get(event.key)
