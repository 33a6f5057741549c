"""Engine timings, printed (run on demand: ``python benchmarks/engine_bench.py``).

The targets a searching computer opponent needs (issue "A computer opponent worth playing") are printed beside
the figures:

- a move check (``Game.check_move``) in the positions of real games: median under 0.25 ms;
- ``Game.clone`` + ``apply`` of a typical action: median under 0.5 ms;
- a whole 4-round autoplayed game of the default scenario (random players, legality checks included): under 40 ms;
- replaying a whole record from scratch;
- jumping a replay cursor to random positions (snapshots plus replay).

Times are CPU time of this process (``time.process_time``): on a shared machine the wall clock also counts the
time other programs had the processor.
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
from game.engine.actions import Move  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.errors import IllegalAction  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.record import Record, replay  # noqa: E402
from game.replay import ReplayCursor  # noqa: E402
from game.scenario import Scenario, load_scenario, new_game_state  # noqa: E402


def main() -> None:
    scenario_path = ROOT / "scenarios" / "default.yaml"
    scenario = load_scenario(scenario_path)
    times, records = [], []
    for seed in range(1, 21):
        t0 = time.process_time()
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        actions = play_out(game, seed)
        times.append(time.process_time() - t0)
        records.append(Record(str(scenario_path), {"seed": seed}, actions, None, {}, list(game.digests)))
    print(f"autoplay, whole game (CPU): median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms ({len(times)} games; target < 40 ms)")
    move_checks(scenario)
    clone_apply(records)
    t = []
    for rec in records[:10]:
        t0 = time.process_time()
        replay(rec)
        t.append(time.process_time() - t0)
    print(f"replay of a whole record: median {statistics.median(t) * 1000:.0f} ms")
    cursor = ReplayCursor(records[0])
    rng = random.Random(1)
    t = []
    for _ in range(50):
        index = rng.randint(0, cursor.length)
        t0 = time.process_time()
        cursor.game_at(index)
        t.append(time.process_time() - t0)
    print(f"replay cursor, jump to any position: median {statistics.median(t) * 1000:.1f} ms, "
          f"max {max(t) * 1000:.1f} ms ({cursor.length} actions)")


def move_checks(scenario: Scenario) -> None:
    """Time every move check the random players ask for in 10 games (legal and illegal proposals alike)."""
    times: list[float] = []
    original = Game.check_move

    def timed(self: Game, action: Move) -> IllegalAction | None:
        t0 = time.process_time()
        result = original(self, action)
        times.append(time.process_time() - t0)
        return result

    Game.check_move = timed  # type: ignore[method-assign]
    try:
        for seed in range(101, 111):
            play_out(Game.start(new_game_state(scenario), Dice(seed=seed)), seed)
    finally:
        Game.check_move = original  # type: ignore[method-assign]
    times.sort()
    print(f"move check in game positions: median {statistics.median(times) * 1000:.3f} ms, "
          f"95th percentile {times[int(len(times) * 0.95)] * 1000:.3f} ms ({len(times)} checks; target < 0.25 ms)")


def clone_apply(records: list[Record]) -> None:
    """Time ``clone`` + ``apply`` of each action of 5 recorded games, at the position it was played in."""
    clones: list[float] = []
    both: list[float] = []
    for rec in records[:5]:
        game = Game.start(new_game_state(load_scenario(rec.scenario)), Dice(**rec.dice))
        for action in rec.actions:
            t0 = time.process_time()
            twin = game.clone()
            t1 = time.process_time()
            twin.apply(action)
            t2 = time.process_time()
            clones.append(t1 - t0)
            both.append(t2 - t0)
            game.apply(action)
    print(f"clone + apply of an action: median {statistics.median(both) * 1000:.3f} ms (clone alone "
          f"{statistics.median(clones) * 1000:.3f} ms; {len(both)} actions; target < 0.5 ms)")


if __name__ == "__main__":
    main()
