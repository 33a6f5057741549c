"""Frame time of the battle screen with a full 1500-point battle (24 units, ~500 models).

Run: ``SDL_VIDEODRIVER=dummy python tests/ui/bench_ui_frame.py`` (not collected by pytest: timings are printed,
never asserted). Prints the median and 95th percentile frame times for a still view, a pan, a zoom and a drag.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
warnings.simplefilter("ignore")

import pygame  # noqa: E402
import yaml  # noqa: E402


def big_game():  # type: ignore[no-untyped-def]
    """The default scenario's table with 12 units a side in three lines (about 500 models)."""
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state

    path = ROOT / "scenarios" / "default.yaml"
    data = yaml.safe_load(path.read_text())
    data.pop("start", None)
    for army in data["armies"]:
        p = army["player"]
        base = army["units"]
        units = []
        xs = [6, 18, 30, 42, 54, 66]
        big = [u for u in base if u["models"] >= 10]
        for i in range(12):
            src = dict(base[i] if i < len(base) else big[i % len(big)])
            src["id"] = f"{src['id']}-{i}"
            src["models"] = {1: 1, 3: 6, 5: 10}.get(src["models"], 20)
            row = i // 6
            y = (3 + row * 6.5) if p == 1 else (45 - row * 6.5)
            src["pose"] = {"x": xs[i % 6], "y": y, "facing": 0 if p == 1 else 180}
            units.append(src)
        army["units"] = units
        army.pop("general", None)
    data["terrain"] = [t for t in data["terrain"] if t.get("kind") not in ("building", "mountain", "forest", "hill")
                       or abs(_centre_y(t) - 24) < 6]
    scenario = load_scenario_mapping(data, path)
    return Game.start(new_game_state(scenario), Dice(seed=1)), list(scenario.terrain_kinds)


def _centre_y(t):  # type: ignore[no-untyped-def]
    if "rect" in t:
        return t["rect"]["y"]
    return sum(p[1] for p in t["polygon"]) / len(t["polygon"])


def timed(app, frames: int, each=None) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for i in range(frames):
        if each:
            each(i)
        t = time.perf_counter()
        app.step(1 / 60)
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    print(f"{name:12s} median {statistics.median(ms):6.2f} ms   p95 {ms[int(len(ms) * 0.95)]:6.2f} ms")


def main() -> None:
    from game.ui.app import App
    from game.ui.scenes.battle import BattleScene

    app = App((1600, 1000))
    game, kinds = big_game()
    scene = BattleScene(app, game, None, kinds)
    scene._seat = game.pending.player  # no hand-over screen for the benchmark
    app.switch(scene)
    units = [u for u in game.state.units.values() if u.on_table]
    print(f"{len(units)} units, {sum(u.models for u in units)} models")
    timed(app, 30)
    report("still", timed(app, 200))
    report("pan", timed(app, 200, lambda i: scene.view.pan(2, 1)))
    report("zoom", timed(app, 60, lambda i: scene.view.zoom_at(scene.view.rect.center, 1.02 if i < 30 else 0.98)))
    # step 2.1 with a unit selected: charge reach, arcs and sight lines drawn, the mouse over an enemy
    def space() -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        timed(app, 2)

    space()
    scene.view.fit()
    mine = [u for u in units if u.player == game.pending.player]
    enemies = [u for u in units if u.player != game.pending.player]
    scene.selected = mine[len(mine) // 2].id
    scene.show_arcs = scene.show_sight = True
    spots = [scene.view.to_screen_int(e.pose.xy) for e in enemies[:4]]

    def hover(i: int) -> None:
        p = spots[(i // 20) % len(spots)]
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0)))

    t0 = time.perf_counter()
    timed(app, 1)
    print(f"first frame with arcs, sight and reach: {(time.perf_counter() - t0) * 1000:.1f} ms (computes them)")
    report("aids still", timed(app, 200))
    report("aids hover", timed(app, 200, hover))
    scene.show_arcs = scene.show_sight = False
    scene.selected = None
    # get to step 2.4 and drag a unit around (the engine checks the ghost once per frame)
    space()
    uid = game.units_to_move(1)[0]
    u = game.state.units[uid]
    start = scene.view.to_screen_int(u.pose.xy)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    timed(app, 1)

    def wiggle(i: int) -> None:
        p = (start[0] + (i % 40), start[1] - (i % 40))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, -1), buttons=(1, 0, 0)))

    report("drag", timed(app, 200, wiggle))
    print("static layer renders:", scene.static.renders, " unit sprites rendered:", scene.painter.sprites.renders)


if __name__ == "__main__":
    main()
