"""Engine timings, printed (run on demand: ``python benchmarks/engine_bench.py``).

- a whole 4-round autoplayed game of the default scenario (random players, legality checks included);
- replaying a whole record from scratch;
- jumping a replay cursor to random positions (snapshots plus replay).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.record import Record, replay  # noqa: E402
from game.replay import ReplayCursor  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402


def main() -> None:
    scenario_path = ROOT / "scenarios" / "default.yaml"
    scenario = load_scenario(scenario_path)
    times, records = [], []
    for seed in range(1, 21):
        t0 = time.perf_counter()
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        actions = play_out(game, seed)
        times.append(time.perf_counter() - t0)
        records.append(Record(str(scenario_path), {"seed": seed}, actions, None, {}, list(game.digests)))
    print(f"autoplay, whole game: median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms ({len(times)} games)")
    t = []
    for rec in records[:10]:
        t0 = time.perf_counter()
        replay(rec)
        t.append(time.perf_counter() - t0)
    print(f"replay of a whole record: median {statistics.median(t) * 1000:.0f} ms")
    cursor = ReplayCursor(records[0])
    rng = random.Random(1)
    t = []
    for _ in range(50):
        index = rng.randint(0, cursor.length)
        t0 = time.perf_counter()
        cursor.game_at(index)
        t.append(time.perf_counter() - t0)
    print(f"replay cursor, jump to any position: median {statistics.median(t) * 1000:.1f} ms, "
          f"max {max(t) * 1000:.1f} ms ({cursor.length} actions)")


if __name__ == "__main__":
    main()
