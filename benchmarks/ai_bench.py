"""Computer opponent timings, printed (run on demand; never a test): issue 13 "How it is measured".

``python benchmarks/ai_bench.py [--games N] [--level ai] [--opponent simple] [SCENARIO]``: plays N games of the
level against the opponent (each seat in turn) on the 1500-point scenario by default and times every decision the
computer opponent makes: median, 95th percentile and max, overall and by decision kind. Targets (``ai``): median at
most 200 ms, 95th percentile at most 1 s, none over 3 s, on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out  # noqa: E402
from game.engine.actions import Action  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.players import make_player  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402


class Timed:
    """Wraps a player, timing each ``choose`` by decision kind."""

    def __init__(self, player: object, times: dict[str, list[float]]) -> None:
        self.player = player
        self.times = times

    def choose(self, game: Game) -> Action:
        assert game.pending is not None
        kind = game.pending.decision
        t0 = time.perf_counter()
        action = self.player.choose(game)  # type: ignore[attr-defined]
        self.times[kind].append(time.perf_counter() - t0)
        return action


def _line(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return (f"{name:22s} {len(xs):5d} decisions: median {statistics.median(xs) * 1000:7.1f} ms, "
            f"p95 {p95 * 1000:7.1f} ms, max {xs[-1] * 1000:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", nargs="?", type=Path, default=ROOT / "scenarios" / "undead_vs_humans_1500.yaml")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--level", default="ai")
    ap.add_argument("--opponent", default="simple")
    args = ap.parse_args()
    scenario = load_scenario(args.scenario)
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(args.games):
        seed = 1 + i
        seat = 1 + i % 2
        game = Game.start(new_game_state(scenario), Dice(seed=seed))
        players = {seat: Timed(make_player(args.level, seed), times),
                   3 - seat: make_player(args.opponent, seed + 1_000_003)}
        t0 = time.perf_counter()
        play_out(game, seed, players=players)
        print(f"game {i + 1} ({args.level} in seat {seat}): victory points {game.victory_points()}, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    everything = [x for xs in times.values() for x in xs]
    print(_line(f"{args.level}: all", everything))
    for kind, xs in sorted(times.items()):
        print(_line(f"  {kind}", xs))


if __name__ == "__main__":
    main()
