"""The game record's controls on a battle screen (issue "Game records: replay, save and undo"): Undo, Save and Menu
at the right end of the action bar, Ctrl+Z and Ctrl+S, and what taking back does to the screen. Shared by the
regiments battle screen (``game.ui.scenes.battle``) and AoF: Skirmish's (``game.ui.scenes.skirmish_battle``); the
rule of what may be taken back is ``game.replay.take_back_refusal`` (never across dice), against the computer
``game.computer_seat`` (through ``game.ui.scenes.battle_computer.ComputerSide``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import pygame

from game.replay import Rewinder, TakeBackRefused, action_text, take_back_refusal
from game.ui import palette
from game.ui.acting import NEWS
from game.ui.action_bar import ButtonSpec

if TYPE_CHECKING:
    from game.engine.game import Game
    from game.ui.window import Window

class RecordHost(Protocol):
    """What the controls use of the battle screen they serve."""

    app: Window
    game: Game
    scenario_path: str | None
    rewinder: Rewinder | None
    _pending_key: object

    def show_banner(self, text: str, colour: tuple[int, int, int], seconds: float = 4.0) -> None:
        """A message over the bottom of the table for ``seconds``."""
        ...

    def _reset_view_of_game(self) -> None:
        """Log, dice and widgets start again from the (replaced) game."""
        ...

    def _sync(self) -> None:
        """React to the game's pending decision."""
        ...


def undo_word(why: str) -> str:
    """A greyed Undo's reason in two or three words on the button itself (the tooltip has it in full): a newcomer
    does not think of hovering a greyed button."""
    for start, word in (("Dice were rolled", "dice rolled"), ("Nothing to take back", "nothing yet"),
                        ("The last action was Player", "not yours"), ("The game is over", "game over"),
                        ("That action was made before", "made earlier"), ("A lesson takes back", "see Restart"),
                        ("Nothing of yours", "nothing yet"), ("The computer's turn came", "its turn came")):
        if why.startswith(start):
            return word
    return "not now"


def record_buttons(why: str | None) -> list[ButtonSpec]:
    """Undo, Save and Menu at the right end of the action bar (right to left); ``why``: why Undo is greyed (None:
    it may be pressed)."""
    undo_tip = ("Take back the last action (Ctrl+Z): no die has been rolled since" if why is None
                else f"Cannot take back: {why}")
    undo = "↶ Undo (Ctrl+Z)" if why is None else f"↶ Undo: {undo_word(why)}"
    return [
        ButtonSpec("menu", "Menu", "Back to the main menu: the game is saved, resume it from there", right=True),
        ButtonSpec("save", "Save (Ctrl+S)", "The game is saved after every action; this saves it now too "
                   "(same file)", right=True, short="Save"),
        ButtonSpec("undo", undo, undo_tip, enabled=why is None, right=True,
                   short="↶ Undo" if why is None else undo),
    ]


def record_key(event: pygame.event.Event) -> str | None:
    """The record command of a key press: Ctrl+Z ``undo``, Ctrl+S ``save``; None for any other key."""
    if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL:
        return {pygame.K_z: "undo", pygame.K_s: "save"}.get(event.key)
    return None


def hotseat_refusal(game: Game, rewinder: Rewinder | None, player: int) -> str | None:
    """Why ``player`` may not take back ``game``'s last action in a hotseat game (``take_back_refusal``; nor one
    made before the game was opened in this window, beyond ``rewinder``'s reach), or None."""
    why = take_back_refusal(game, player)
    if why is None and (rewinder is None or len(game.history) - 1 < rewinder.base):
        why = "That action was made before this game was opened here."
    return why


def take_back_hotseat(scene: RecordHost, player: int, why: str | None,
                      keep_seat: Callable[[int], None] | None = None) -> bool:
    """Take back the last action for ``player`` (hotseat) unless ``why`` (the screen's refusal) says no: the game is
    replayed without it (``Rewinder.take_back``) and shown instead (``adopt_taken_back``); ``keep_seat`` is given the
    player whose action was taken back before the screen catches up. True if done."""
    if why is not None or scene.rewinder is None:
        scene.show_banner(f"Cannot take back: {why}", palette.SHAKEN, 5.0)
        return False
    old = scene.game
    taken = old.history[-1]
    try:
        game = scene.rewinder.take_back(old, player)
    except TakeBackRefused as e:
        scene.show_banner(f"Cannot take back: {e}", palette.SHAKEN, 5.0)
        return False
    adopt_taken_back(scene, old, game, f"Taken back — {action_text(game, taken)}",
                     (lambda: keep_seat(taken.player)) if keep_seat is not None else None)
    return True


def adopt_taken_back(scene: RecordHost, old: Game, game: Game, words: str,
                     before_view: Callable[[], None] | None = None) -> None:
    """Show ``game`` (``old`` with actions taken back) instead of ``old``: the window's record follows it, the
    screen starts again from it (``before_view`` first: the seat), a banner says ``words``."""
    scene.app.replace_game(old, game)
    scene.game = game
    if before_view is not None:
        before_view()
    scene._reset_view_of_game()
    scene.app.record(game, scene.scenario_path)
    scene.show_banner(words, NEWS, 3.5)
    if scene.app.record_error:
        scene.show_banner(scene.app.record_error, palette.ILLEGAL, 8.0)
    scene._pending_key = None
    scene._sync()


def keep_record(scene: RecordHost) -> None:
    """After an action was applied: a snapshot for Undo, and the record file rewritten (a banner if it cannot be)."""
    if scene.rewinder is not None:
        scene.rewinder.remember(scene.game)
    scene.app.record(scene.game, scene.scenario_path)
    if scene.app.record_error:
        scene.show_banner(scene.app.record_error, palette.ILLEGAL, 8.0)


def save_now(scene: RecordHost) -> bool:
    """Ctrl+S / Save: write the record now (the same file the autosave writes). True if it was written."""
    scene.app.record(scene.game, scene.scenario_path)
    if scene.app.record_error:
        scene.show_banner(scene.app.record_error, palette.ILLEGAL, 8.0)
        return False
    path = scene.app.record_path(scene.game)
    scene.show_banner(f"Saved: {path.name if path else 'game'} (resume it from the main menu)", palette.LEGAL, 3.5)
    return path is not None


def leave_to_menu(scene: RecordHost) -> None:
    """Menu: the record written, back to the main menu (the game resumes from there)."""
    scene.app.record(scene.game, scene.scenario_path)
    scene.app.show_menu()
