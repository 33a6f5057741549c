"""Start-up time, printed (run on demand: ``python benchmarks/startup_bench.py``; issue 17 asks < 1.5 s).

Starts a fresh interpreter per run, as a player's launch does, and measures from the interpreter's start to the
menu's first frame on the screen: importing the program, opening the window, loading the theme and fonts,
drawing. Uses the real video driver when there is a display (run it under ``xvfb-run`` on a server), else SDL's
dummy driver.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5

PROBE = """
import time
t0 = time.perf_counter()
import sys
sys.path.insert(0, {root!r})
from game.ui.app import App
t1 = time.perf_counter()
app = App((1600, 1000))
t2 = time.perf_counter()
app.step(1 / 60)
import pygame
pygame.display.flip()
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def main() -> None:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    if not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "dummy"
    rows = []
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT))], env=env, capture_output=True,
                             text=True, check=True).stdout.strip().splitlines()[-1]
        rows.append([float(x) for x in out.split()])
    for i, what in enumerate(("import", "window, theme, fonts", "first menu frame")):
        print(f"{what:22s} median {statistics.median(r[i] for r in rows) * 1000:6.0f} ms")
    print(f"{'menu on screen':22s} median {statistics.median(sum(r) for r in rows) * 1000:6.0f} ms "
          f"({'real display' if env.get('DISPLAY') else 'dummy driver'}, {RUNS} runs)")


if __name__ == "__main__":
    main()
