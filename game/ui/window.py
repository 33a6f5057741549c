"""The window and the scenes it shows: one pygame-ce display, one pygame_gui manager, the current ``Scene``.

Why two classes (issue 14, imports only point downwards): ``Window`` is everything a scene needs of the window
(display, widgets, frame loop, game records) and names, as abstract methods, the screens a scene may go to that
live in scene modules above it (the menu, a battle, the replay viewer, the results, the set-up). ``game.ui.app.App``
is the one window of the program: it fills those in, and is the only module that knows every scene. So every scene
imports this module, never ``app``; and a scene imports another scene only when it sits below it.

``Window`` is steppable for tests: post events with ``pygame.event.post`` and call ``step()`` to process a frame.
"""

from __future__ import annotations

import os
import random
import warnings
import weakref
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.ui.assets import FONT_NAME, load_theme

if TYPE_CHECKING:
    from game.computer_seat import ComputerSeat
    from game.engine.game import Game
    from game.ui.scenes.setup_state import SetupState

ROOT = Path(__file__).resolve().parents[2]
"""The project folder."""
DEFAULT_SCENARIO = ROOT / "scenarios" / "default.yaml"
"""The battle one click on the menu starts."""
DEFAULT_SIZE = (1600, 1000)
"""Window size at start."""
FPS = 60
"""Frame rate target."""


class Scene:
    """One screen of the window. Subclasses build their pygame_gui widgets in ``build_ui`` and drop them in
    ``kill_ui``; both are called again when the window is resized."""

    def __init__(self, app: Window) -> None:
        self.app = app

    def enter(self) -> None:
        """The scene becomes current."""
        self.build_ui()

    def leave(self) -> None:
        """The scene stops being current."""
        self.kill_ui()

    def resize(self) -> None:
        """The window changed size."""
        self.kill_ui()
        self.build_ui()

    def build_ui(self) -> None:
        """Create the widgets for the current window size."""

    def kill_ui(self) -> None:
        """Remove the widgets."""

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """One input event; ``consumed`` is True when a widget already used it."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (never changes the game except through actions)."""

    def draw(self, screen: pygame.Surface) -> None:
        """Draw what is not a widget (widgets are drawn by the app on top)."""


class Window(ABC):
    """The display, the widget manager, the frame loop and the game records; the current scene.

    ``size``: pixels at start. ``seed`` fixes the dice of the games started here (tests); by default the
    scenario's seed, else a random one. The subclass opens the first scene and provides the ways to other scenes
    (the abstract methods below).
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, seed: int | None = None) -> None:
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
        self.computer_seats: weakref.WeakKeyDictionary[Game, ComputerSeat] = weakref.WeakKeyDictionary()
        """The seat the computer opponent plays in each game against it (written into its record)."""
        self.opponent: ComputerSeat | None = None
        """"Play against the computer" as last chosen on the menu or the set-up (None: two people, hotseat)."""
        self.record_error: str | None = None
        """The last failure to write a record, for the window to show."""
        self.frames = 0
        self.scene: Scene | None = None
        from game.files import remove_stale_temp_files

        remove_stale_temp_files()   # left by saves a crash interrupted (the saved files themselves are whole)

    # --- scenes -------------------------------------------------------------------------------------------
    def switch(self, scene: Scene) -> None:
        """Make ``scene`` current."""
        if self.scene is not None:
            self.scene.leave()
        self.scene = scene
        scene.enter()

    @abstractmethod
    def show_menu(self, message: str | None = None) -> None:
        """Go to the main menu (``message``: an error to show there)."""

    @abstractmethod
    def start_battle(self, scenario_path: str, computer: ComputerSeat | None = None) -> None:
        """Start a battle of ``scenario_path``: hotseat, or against the computer playing ``computer``; back to the
        menu with the problems if it will not load."""

    @abstractmethod
    def resume_game(self, path: str | os.PathLike[str]) -> bool:
        """Continue a saved game in a hotseat battle, recording into the same file; True if the battle started
        (else back to the menu with the reason, the file left as it is)."""

    @abstractmethod
    def watch_replay(self, path: str | os.PathLike[str]) -> bool:
        """Open the replay viewer on a record file; True if it opened (else back to the menu with the reason)."""

    @abstractmethod
    def show_results(self, game: Game, back: Scene) -> None:
        """Go to the results of ``game`` (victory points, statistics); ``back``: the battle or replay viewer it
        was opened from, for "Look at the table"."""

    @abstractmethod
    def open_setup(self, state: SetupState | None = None, step: int = 1) -> None:
        """Open the battle set-up at ``step`` (1-4) with ``state``; by default the set-up last used in this
        window, else a fresh one."""

    # --- games and their records ---------------------------------------------------------------------------
    def new_game(self, scenario_path: str) -> tuple[Game, list[str]]:
        """Load a scenario and start a game of it: the game and the terrain kinds (for colouring)."""
        from game.engine.dice import Dice
        from game.engine.game import Game
        from game.scenario import load_scenario, new_game_state

        scenario = load_scenario(scenario_path)
        seed = self.seed if self.seed is not None else scenario.seed
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        return game, list(scenario.terrain_kinds)

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
            save_game(game, scenario, path, self.computer_seats.get(game))
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
        if old in self.computer_seats:
            self.computer_seats[new] = self.computer_seats.pop(old)

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
