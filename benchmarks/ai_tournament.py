"""Computer opponent tournament, printed (run on demand; never a test): issue 13 "How it is measured".

``python benchmarks/ai_tournament.py [--games N] [--seed S] [--pairings ai:random,ai:simple,ai-hard:ai]
[SCENARIO ...]`` plays N games per pairing per scenario in each seat order (so 2 x N per scenario), on every
shipped scenario (``scenarios/*.yaml``) by default, and prints one line per scenario and pairing, then the win
table over all scenarios: the first player's wins, losses and draws, whichever seat it had. Seeds are those of
``main.py autoplay`` (game ``S + i``, players seeded from it), so any game can be replayed from the command line.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.players import make_player  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402

DEFAULT_PAIRINGS = "ai:random,ai:simple,ai-hard:ai"


def play(scenario_path: Path, p1: str, p2: str, seed: int) -> int | None:
    """One game of ``p1`` (seat 1) against ``p2`` (seat 2) as ``main.py autoplay`` plays it; the winner's seat."""
    scenario = load_scenario(scenario_path)
    game = Game.start(new_game_state(scenario), Dice(seed=seed))
    play_out(game, seed, players={1: make_player(p1, seed), 2: make_player(p2, seed + 1_000_003)})
    vp = game.victory_points()
    return None if vp[1] == vp[2] else (1 if vp[1] > vp[2] else 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenarios", nargs="*", type=Path)
    ap.add_argument("--games", type=int, default=10, help="games per pairing, scenario and seat order")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairings", default=DEFAULT_PAIRINGS)
    args = ap.parse_args()
    paths = args.scenarios or sorted((ROOT / "scenarios").glob("*.yaml"))
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    table: dict[tuple[str, str], list[int]] = {}
    for a, b in pairings:
        for path in paths:
            w = l_ = d = 0
            t0 = time.perf_counter()
            for i in range(args.games):
                seed = args.seed + i
                for mine in (1, 2):        # the first player of the pairing in seat 1, then in seat 2
                    p1, p2 = (a, b) if mine == 1 else (b, a)
                    won = play(path, p1, p2, seed)
                    if won is None:
                        d += 1
                    elif won == mine:
                        w += 1
                    else:
                        l_ += 1
            dt = time.perf_counter() - t0
            row = table.setdefault((a, b), [0, 0, 0])
            row[0] += w
            row[1] += l_
            row[2] += d
            print(f"{path.name}: {a} vs {b}: won {w}, lost {l_}, drawn {d} ({2 * args.games} games, "
                  f"{dt:.0f} s)", flush=True)
    print()
    print("| pairing | games | won | lost | drawn | win rate |")
    print("|---|---|---|---|---|---|")
    for (a, b), (w, l_, d) in table.items():
        n = w + l_ + d
        print(f"| {a} vs {b} | {n} | {w} | {l_} | {d} | {100 * w / max(n, 1):.0f}% |")


if __name__ == "__main__":
    main()
