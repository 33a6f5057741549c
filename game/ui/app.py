"""The program's window: ``game.ui.window.Window`` with the ways from one scene to another filled in.

This is the top of ``game/ui`` (issue 14): the only module that imports the scenes a scene cannot import itself
(the menu, the battle, the replay viewer, the results, the set-up steps, the lessons); scenes reach them through
the ``Window`` methods. ``run(scenario_path)``, ``run_replay`` and ``run_tutorial`` are what ``main.py`` calls.
``App`` is steppable for tests: post events with ``pygame.event.post`` and call ``app.step()`` to process one frame.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.ui.window import DEFAULT_SIZE, Scene, Window

if TYPE_CHECKING:
    from game.computer_seat import ComputerSeat
    from game.engine.game import Game
    from game.ui.scenes.setup_state import SetupState


class App(Window):
    """The window and its scene loop.

    ``App(size, start_scenario=path)`` opens straight into a hotseat battle of that scenario; without it the
    menu opens. ``seed`` fixes the dice (tests); by default the scenario's seed, else a random one.
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, start_scenario: str | os.PathLike[str] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(size, seed)
        self.setup_state: SetupState | None = None
        """The set-up last used in this window, so that Main menu or a finished battle loses nothing."""
        if start_scenario is not None:
            self.start_battle(str(start_scenario))
        else:
            self.show_menu()

    def show_menu(self, message: str | None = None) -> None:
        """Go to the main menu (``message``: an error to show there)."""
        from game.ui.scenes.menu import MenuScene
        self.switch(MenuScene(self, message))

    def new_game(self, scenario_path: str) -> tuple[Game, list[str]]:
        """``Window.new_game``, refusing (``ValueError``) a ruleset whose decisions the battle screen cannot answer
        (``decisions.window_refusal``)."""
        from game.ui.decisions import window_refusal

        game, kinds = super().new_game(scenario_path)
        why = window_refusal(game.state.ruleset)
        if why is not None:
            raise ValueError(why)
        return game, kinds

    def start_battle(self, scenario_path: str, computer: ComputerSeat | None = None) -> None:
        """Start a battle of ``scenario_path``: hotseat, or against the computer playing ``computer`` (refused
        with the reason for a ruleset it cannot play); back to the menu with the problems if it will not load."""
        from game.computer_seat import ruleset_refusal
        from game.ui.scenes.battle import BattleScene
        from game.ui.scenes.skirmish_battle import SkirmishBattleScene, is_loose
        try:
            game, kinds = self.new_game(scenario_path)
            why = ruleset_refusal(game.state.ruleset) if computer is not None else None
            if why is not None:
                raise ValueError(why)
        except (ValueError, OSError) as e:   # ScenarioError is a ValueError
            self.show_menu(f"Cannot start {scenario_path}: {e}")
            return
        if computer is not None:
            self.computer_seats[game] = computer
        if is_loose(game):    # AoF: Skirmish: loose models have their own battle screen
            self.switch(SkirmishBattleScene(self, game, scenario_path, kinds, computer))
            return
        self.switch(BattleScene(self, game, scenario_path, kinds, computer))

    def resume_game(self, path: str | os.PathLike[str]) -> bool:
        """Continue a saved game in a hotseat battle, recording into the same file.

        A file that cannot be resumed (damaged, another format version, a replay that breaks off) is refused:
        back to the menu with the reason, and the file is left as it is. True if the battle started.
        """
        from game.files import FileProblems
        from game.saves import open_saved_game, refusal
        from game.ui.scenes.battle import BattleScene

        try:
            opened = open_saved_game(Path(path))
        except FileProblems as e:
            self.show_menu(refusal(Path(path), e.problems, "resume"))
            return False
        except Exception as e:  # noqa: BLE001 - whatever the file holds, the window stays open and says why
            self.show_menu(refusal(Path(path), [f"{type(e).__name__}: {e}"], "resume"))
            return False
        game = opened.game
        from game.ui.decisions import window_refusal
        why = window_refusal(game.state.ruleset)
        if why is not None:
            self.show_menu(refusal(Path(path), [why], "resume"))
            return False
        self.record_paths[game] = Path(path)
        scenario_path = opened.scenario if isinstance(opened.scenario, str) else None
        if not isinstance(opened.scenario, str):
            self.record_scenarios[game] = opened.scenario
        computer = opened.record.computer
        from game.ui.scenes.skirmish_battle import SkirmishBattleScene, is_loose
        if computer is not None:
            from game.computer_seat import ruleset_refusal
            why = ruleset_refusal(game.state.ruleset)
            if why is not None:
                self.show_menu(refusal(Path(path), [why], "resume"))
                return False
            self.computer_seats[game] = computer      # the seat goes back to the computer
        scene: BattleScene | SkirmishBattleScene
        if is_loose(game):    # AoF: Skirmish: loose models have their own battle screen
            scene = SkirmishBattleScene(self, game, scenario_path, opened.kinds, computer)
        else:
            scene = BattleScene(self, game, scenario_path, opened.kinds, computer)
        scene.rewinder = opened.rewinder
        self.switch(scene)
        return True

    def watch_replay(self, path: str | os.PathLike[str]) -> bool:
        """Open the replay viewer on a record file; refused with the reason (back to the menu) if it cannot be
        read. A record whose replay breaks off can be watched up to there. True if the viewer opened."""
        from game.files import FileProblems
        from game.record import load_record
        from game.replay import ReplayCursor
        from game.saves import refusal
        from game.ui.decisions import window_refusal
        from game.ui.scenes.replay import ReplayScene
        from game.ui.scenes.skirmish_replay import SkirmishReplayScene

        try:
            cursor = ReplayCursor(load_record(Path(path)))
            why = window_refusal(cursor.scenario.ruleset)
            if why is not None:
                self.show_menu(refusal(Path(path), [why], "replay"))
                return False
        except FileProblems as e:
            self.show_menu(refusal(Path(path), e.problems, "replay"))
            return False
        except Exception as e:  # noqa: BLE001 - whatever the file holds, the window stays open and says why
            self.show_menu(refusal(Path(path), [f"{type(e).__name__}: {e}"], "replay"))
            return False
        if cursor.scenario.ruleset == "aof-skirmish":     # loose models: the skirmish battle screen, watch only
            self.switch(SkirmishReplayScene(self, cursor, Path(path)))
            return True
        self.switch(ReplayScene(self, cursor, Path(path)))
        return True

    def show_results(self, game: Game, back: Scene) -> None:
        """Go to the results of ``game``; ``back``: the battle or replay viewer they were opened from."""
        from game.ui.scenes.results import ResultsScene
        self.switch(ResultsScene(self, game, back=back))

    def open_setup(self, state: SetupState | None = None, step: int = 1) -> None:
        """Open the battle set-up at ``step`` with ``state``; by default the set-up last used in this window (kept
        as ``setup_state``, so that Main menu or a finished battle loses nothing), else a fresh one. Steps 1 and 2
        are the players' armies, 3 the table, 4 the start (``game.ui.scenes.setup_base.STEPS``)."""
        from game.ui.scenes.setup_armies import ArmyScene
        from game.ui.scenes.setup_battle import StartScene
        from game.ui.scenes.setup_state import SetupState
        from game.ui.scenes.setup_table import TableScene

        if state is None:
            state = self.setup_state or SetupState()
        self.setup_state = state
        if step in (1, 2):
            self.switch(ArmyScene(self, state, step))
        elif step == 3:
            self.switch(TableScene(self, state))
        else:
            self.switch(StartScene(self, state))


def run(scenario_path: str | None = None) -> None:
    """Open the window: the main menu, or straight into a hotseat battle of ``scenario_path``."""
    App(start_scenario=scenario_path).run()


def run_replay(record_path: str) -> int:
    """``python main.py replay RECORD``: open the window on the replay viewer of that record.

    A record that cannot be read opens the menu with the reason (also printed); returns 2 then, else 0.
    """
    app = App()
    ok = app.watch_replay(record_path)
    if not ok and app.scene is not None:
        print(getattr(app.scene, "message", "") or f"Cannot replay {record_path}", file=sys.stderr)
    app.run()
    return 0 if ok else 2


def run_tutorial(lesson: str | None = None) -> int:
    """``python main.py tutorial [LESSON]``: the window on that lesson, or on the list of lessons; 2 if the
    lesson cannot be opened (reason printed)."""
    app = App()
    if lesson is not None:
        from game.ui.scenes.lesson import start_lesson

        ok = start_lesson(app, lesson)
        if not ok and app.scene is not None:
            print(getattr(app.scene, "message", "") or f"Cannot open lesson {lesson}", file=sys.stderr)
        app.run()
        return 0 if ok else 2
    from game.ui.scenes.lessons import LessonsScene

    app.switch(LessonsScene(app))
    app.run()
    return 0
