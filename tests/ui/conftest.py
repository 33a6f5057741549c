"""UI tests run without a screen: SDL's dummy video and audio drivers, set before pygame is imported."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import warnings  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SCENARIO = ROOT / "scenarios" / "default.yaml"


class Driver:
    """Posts real pygame input events to an ``App`` and steps it frame by frame."""

    def __init__(self, app) -> None:  # type: ignore[no-untyped-def]
        self.app = app

    @property
    def scene(self):  # type: ignore[no-untyped-def]
        return self.app.scene

    def frames(self, n: int = 1) -> None:
        for _ in range(n):
            self.app.step(1 / 60)

    def pass_handover(self) -> None:
        """Wait out the hand-over screen's key delay and press Enter."""
        from game.ui.scenes.handover import KEY_DELAY
        self.frames(int(KEY_DELAY * 60) + 2)
        self.key(pygame.K_RETURN)

    def key(self, key: int, mod: int = 0, frames: int = 2) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0))
        self.frames(frames)

    def move(self, pos: tuple[int, int], rel: tuple[int, int] = (0, 0), buttons: tuple[int, int, int] = (0, 0, 0),
             frames: int = 1) -> None:
        pygame.mouse.set_pos(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons))
        self.frames(frames)

    def press(self, pos: tuple[int, int], button: int = 1, frames: int = 1) -> None:
        pygame.mouse.set_pos(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        self.frames(frames)

    def release(self, pos: tuple[int, int], button: int = 1, frames: int = 1) -> None:
        pygame.mouse.set_pos(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
        self.frames(frames)

    def click(self, pos: tuple[int, int], button: int = 1, frames: int = 3) -> None:
        self.move(pos)
        self.press(pos, button)
        self.release(pos, button, frames)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 8, button: int = 1) -> None:
        self.move(start)
        self.press(start, button)
        last = start
        held = (1, 0, 0) if button == 1 else (0, 0, 1)
        for i in range(1, steps + 1):
            p = (round(start[0] + (end[0] - start[0]) * i / steps), round(start[1] + (end[1] - start[1]) * i / steps))
            self.move(p, rel=(p[0] - last[0], p[1] - last[1]), buttons=held)
            last = p
        self.release(end, button, frames=2)

    def wheel(self, y: int, frames: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0,
                                             precise_y=float(y)))
        self.frames(frames)

    def table_px(self, point: tuple[float, float]) -> tuple[int, int]:
        """Screen pixel of a table point in the battle scene."""
        return self.scene.view.to_screen_int(point)

    def button(self, key: str):  # type: ignore[no-untyped-def]
        """The action bar's button ``key``, turning the bar's pages ("More ▸") until it is shown (a decision with
        more buttons than fit: game/ui/action_bar.py)."""
        from game.ui.action_bar import PAGE_KEY
        bar = self.scene.actions
        for _ in range(max(bar.pages, 1)):
            if key in bar.buttons:
                return bar.buttons[key]
            if PAGE_KEY not in bar.buttons:
                break
            self.click_button(bar.buttons[PAGE_KEY])
        return bar.buttons[key]

    def click_button(self, element) -> None:  # type: ignore[no-untyped-def]
        """Click a pygame_gui button the way a player does (it needs a few frames to report the press)."""
        self.click(element.rect.center, frames=4)


@pytest.fixture
def battle() -> Iterator[Driver]:
    """A battle of the default scenario with fixed dice, past the first hand-over screen."""
    warnings.simplefilter("ignore", UserWarning)
    from game.ui.app import App
    from game.ui.scenes.handover import HandoverScene

    app = App((1400, 900), start_scenario=DEFAULT_SCENARIO, seed=11)
    d = Driver(app)
    d.frames(2)
    assert isinstance(app.scene, HandoverScene)
    d.pass_handover()
    yield d


@pytest.fixture
def driver_factory():  # type: ignore[no-untyped-def]
    """Build an ``App`` (menu or battle) wrapped in a ``Driver``."""
    warnings.simplefilter("ignore", UserWarning)
    from game.ui.app import App

    def make(**kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("size", (1400, 900))
        return Driver(App(**kwargs))

    return make
