"""The window: one pygame-ce display, one pygame_gui manager and the current scene.

``run(scenario_path)`` is what ``main.py`` calls. ``App`` is steppable for tests: post events with
``pygame.event.post`` and call ``app.step()`` to process one frame.
"""

from __future__ import annotations

import os
import random
import sys
import warnings
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.ui.assets import FONT_NAME, load_theme
from game.ui.scenes.base import Scene

if TYPE_CHECKING:
    from game.engine.game import Game

ROOT = Path(__file__).resolve().parents[2]
"""The project folder."""
DEFAULT_SCENARIO = ROOT / "scenarios" / "default.yaml"
"""The battle one click on the menu starts."""
DEFAULT_SIZE = (1600, 1000)
"""Window size at start."""
FPS = 60
"""Frame rate target."""


class App:
    """The window and its scene loop.

    ``App(size, start_scenario=path)`` opens straight into a hotseat battle of that scenario; without it the
    menu opens. ``seed`` fixes the dice (tests); by default the scenario's seed, else a random one.
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, start_scenario: str | os.PathLike[str] | None = None,
                 seed: int | None = None) -> None:
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(300, 40)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption("Battle Regiments")
        self.size: tuple[int, int] = self.screen.get_size()
        self.manager = pygame_gui.UIManager(self.size, load_theme(), enable_live_theme_updates=False)
        with warnings.catch_warnings():   # pygame_gui warns about sizes the theme already loaded
            warnings.simplefilter("ignore")
            self.manager.preload_fonts([
                {"name": FONT_NAME, "point_size": s, "style": st}
                for s in (12, 13, 14, 15, 17, 18, 20) for st in ("regular", "bold")
            ])
        self.clock = pygame.time.Clock()
        self.running = True
        self.seed = seed
        self.record_paths: weakref.WeakKeyDictionary[Game, Path] = weakref.WeakKeyDictionary()
        """The record file of each game played in this window (a game dropped from memory drops out)."""
        self.record_scenarios: weakref.WeakKeyDictionary[Game, str | dict[str, object]] = \
            weakref.WeakKeyDictionary()
        """The scenario a resumed game records with, when it differs from the scene's (an inline scenario)."""
        self.record_error: str | None = None
        """The last failure to write a record, for the window to show."""
        self.frames = 0
        self.scene: Scene | None = None
        from game.files import remove_stale_temp_files

        remove_stale_temp_files()   # left by saves a crash interrupted (the saved files themselves are whole)
        if start_scenario is not None:
            self.start_battle(str(start_scenario))
        else:
            self.show_menu()

    # --- scenes -------------------------------------------------------------------------------------------
    def switch(self, scene: Scene) -> None:
        """Make ``scene`` current."""
        if self.scene is not None:
            self.scene.leave()
        self.scene = scene
        scene.enter()

    def show_menu(self, message: str | None = None) -> None:
        """Go to the main menu (``message``: an error to show there)."""
        from game.ui.scenes.menu import MenuScene
        self.switch(MenuScene(self, message))

    def new_game(self, scenario_path: str) -> tuple[Game, list[str]]:
        """Load a scenario and start a game of it: the game and the terrain kinds (for colouring)."""
        from game.engine.dice import Dice
        from game.engine.game import Game
        from game.scenario import load_scenario, new_game_state
        from game.ui.decisions import window_refusal

        scenario = load_scenario(scenario_path)
        why = window_refusal(scenario.ruleset)
        if why is not None:
            raise ValueError(why)
        seed = self.seed if self.seed is not None else scenario.seed
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        return game, list(scenario.terrain_kinds)

    def start_battle(self, scenario_path: str) -> None:
        """Start a hotseat battle of ``scenario_path``; back to the menu with the problems if it will not load."""
        from game.ui.scenes.battle import BattleScene
        try:
            game, kinds = self.new_game(scenario_path)
        except (ValueError, OSError) as e:   # ScenarioError is a ValueError
            self.show_menu(f"Cannot start {scenario_path}: {e}")
            return
        self.switch(BattleScene(self, game, scenario_path, kinds))

    def record(self, game: Game, scenario_path: str | None) -> None:
        """Record ``game`` in the user's data folder (called after every action applied in the window).

        Each game gets its own file, rewritten atomically every time; a failure to write is reported in the
        window and never stops the game.
        """
        scenario = self.record_scenarios.get(game, scenario_path)
        if scenario is None:
            return
        from game.saves import new_record_path, save_game

        path = self.record_paths.get(game)
        if path is None:
            stem = scenario if isinstance(scenario, str) else str(scenario.get("name") or "game").replace(" ", "_")
            path = self.record_paths[game] = new_record_path(stem, title=game.state.name or None)
        try:
            save_game(game, scenario, path)
            self.record_error = None
        except OSError as e:
            self.record_error = f"Could not save the game record {path}: {e.strerror or e}"
        except Exception as e:  # noqa: BLE001 - a record that cannot be written must not stop the game
            self.record_error = f"Could not save the game record {path}: {e}"

    def record_path(self, game: Game) -> Path | None:
        """The file ``game`` is recorded in, once it has been written."""
        return self.record_paths.get(game)

    def replace_game(self, old: Game, new: Game) -> None:
        """``new`` continues the record of ``old`` (after taking back an action: the same file is rewritten)."""
        if old in self.record_paths:
            self.record_paths[new] = self.record_paths.pop(old)
        if old in self.record_scenarios:
            self.record_scenarios[new] = self.record_scenarios.pop(old)

    # --- saved games and replays ---------------------------------------------------------------------------
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
        scene = BattleScene(self, game, scenario_path, opened.kinds)
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
        self.switch(ReplayScene(self, cursor, Path(path)))
        return True

    def quit(self) -> None:
        """Close the window at the end of this frame."""
        self.running = False

    # --- the loop -----------------------------------------------------------------------------------------
    def _resize(self, size: tuple[int, int]) -> None:
        size = (max(800, size[0]), max(560, size[1]))
        if size == self.size:
            return
        self.size = size
        if self.screen.get_size() != size:
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager.set_window_resolution(size)
        if self.scene is not None:
            self.scene.resize()

    def step(self, dt: float = 1 / FPS) -> bool:
        """Process one frame: events, update, draw, flip. Returns False once the window should close."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
                continue
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self._resize((event.x, event.y) if event.type == pygame.WINDOWSIZECHANGED else event.size)
                continue
            consumed = self.manager.process_events(event)
            if self.scene is not None:
                self.scene.handle_event(event, consumed)
        self.manager.update(dt)
        if self.scene is not None:
            self.scene.update(dt)
            self.scene.draw(self.screen)
        self.manager.draw_ui(self.screen)
        pygame.display.flip()
        self.frames += 1
        return self.running

    def run(self) -> None:
        """Run until the window is closed."""
        while self.running:
            dt = self.clock.tick(FPS) / 1000.0
            self.step(dt)
        pygame.quit()


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
    """``python main.py tutorial [LESSON]``: the window on that lesson, or on the list of lessons."""
    if lesson is not None:
        from game.ui.scenes.lesson import run_tutorial as run_lesson

        return run_lesson(lesson)
    from game.ui.scenes.lessons import LessonsScene

    app = App()
    app.switch(LessonsScene(app))
    app.run()
    return 0
