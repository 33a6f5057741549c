"""Computer opponent tournament, printed (run on demand; never a test): issue 13 "How it is measured".

``python benchmarks/ai_tournament.py [--games N] [--seed S] [--jobs J] [--pairings ai:random,ai:simple,ai-hard:ai]
[--markers-against] [SCENARIO ...]`` plays N games per pairing per scenario in each seat order (so 2 x N per
scenario), on every shipped scenario (``scenarios/*.yaml``) by default, and prints one line per scenario and
pairing, then the win table over all scenarios: the first player's wins, losses and draws, whichever seat it
had, with the win rate's 95% interval (Wilson). ``--jobs J`` plays the games in J worker processes (the results do
not depend on J: every game is seeded as ``main.py autoplay`` seeds it, game ``S + i`` with its players seeded from
it, so any game can be replayed from the command line).

``--markers-against`` plays only the games whose objective markers lie on the other side's half of the table when
the first player of the pairing deploys its first unit (``game.ai.markers.edge_lean`` below 0: the other side
won the deployment roll-off and took the edge the markers lean to). The set-up before that is the same whatever
the players do later, so two versions of the computer that differ only in how they play can be compared on those
games alone: against ``random`` they are where most of its AoF:R games are lost or drawn (README "Computer
opponent").
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.ai import markers  # noqa: E402
from game.ai.explain import SETUP_DECISIONS  # noqa: E402
from game.autoplay import Player, play_out  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.players import make_player  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402

DEFAULT_PAIRINGS = "ai:random,ai:simple,ai-hard:ai"


def _start(scenario_path: Path, p1: str, p2: str, seed: int) -> tuple[Game, dict[int, Player]]:
    """The game ``seed`` of ``p1`` (seat 1) against ``p2`` (seat 2) at its start and its two players, seeded as
    ``main.py autoplay`` seeds them."""
    game = Game.start(new_game_state(load_scenario(scenario_path)), Dice(seed=seed))
    return game, {1: make_player(p1, seed), 2: make_player(p2, seed + 1_000_003)}


def play(scenario_path: Path, p1: str, p2: str, seed: int) -> int | None:
    """One game of ``p1`` (seat 1) against ``p2`` (seat 2) as ``main.py autoplay`` plays it; the winner's seat."""
    game, players = _start(scenario_path, p1, p2, seed)
    play_out(game, seed, players=players)
    vp = game.victory_points()
    return None if vp[1] == vp[2] else (1 if vp[1] > vp[2] else 2)


def markers_against(scenario_path: Path, p1: str, p2: str, seed: int, mine: int) -> bool:
    """Whether, in the game ``play`` would play, the markers lean against seat ``mine`` when its first unit is
    deployed (``markers.edge_lean`` < 0); False for a game with no markers, or whose set-up (``SETUP_DECISIONS``) ends
    with no deployment decision of ``mine``."""
    game, players = _start(scenario_path, p1, p2, seed)
    while game.pending is not None and game.pending.decision in SETUP_DECISIONS:
        if game.pending.decision == "deploy" and game.pending.player == mine:
            return markers.edge_lean(game.state, mine) < 0.0
        game.apply(players[game.pending.player].choose(game))
    return False        # its units stand where the scenario put them: no deployment to judge by


def _job(job: tuple[Path, str, str, int]) -> tuple[int | None, float]:
    t0 = time.perf_counter()
    won = play(*job)
    return won, time.perf_counter() - t0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / n``, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenarios", nargs="*", type=Path)
    ap.add_argument("--games", type=int, default=10, help="games per pairing, scenario and seat order")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes playing games at once")
    ap.add_argument("--pairings", default=DEFAULT_PAIRINGS)
    ap.add_argument("--markers-against", action="store_true",
                    help="only the games whose objective markers lean against the pairing's first player")
    args = ap.parse_args()
    paths = args.scenarios or sorted((ROOT / "scenarios").glob("*.yaml"))
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    # every game: (pairing, scenario, seat of the pairing's first player) and its job
    games: list[tuple[tuple[str, str], Path, int, tuple[Path, str, str, int]]] = []
    for a, b in pairings:
        for path in paths:
            for i in range(args.games):
                for mine in (1, 2):        # the first player of the pairing in seat 1, then in seat 2
                    p1, p2 = (a, b) if mine == 1 else (b, a)
                    games.append(((a, b), path, mine, (path, p1, p2, args.seed + i)))
    if args.markers_against:
        games = [g for g in games if markers_against(*g[3], g[2])]
    t0 = time.perf_counter()
    results: list[tuple[int | None, float]] = []

    def note(done: tuple[int | None, float]) -> None:
        results.append(done)
        (path, p1, p2, seed) = games[len(results) - 1][3]
        print(f"  game {len(results)}/{len(games)}: {path.name} {p1} vs {p2} seed {seed}: "
              f"{'draw' if done[0] is None else f'seat {done[0]} won'} ({done[1]:.0f} s)", file=sys.stderr,
              flush=True)

    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for done in pool.map(_job, [g[3] for g in games]):
                note(done)
    else:
        for g in games:
            note(_job(g[3]))
    per: dict[tuple[tuple[str, str], Path], list[float]] = {}
    for (pair, path, mine, _), (won, dt) in zip(games, results, strict=True):
        row = per.setdefault((pair, path), [0, 0, 0, 0.0])
        row[0 if won == mine else 2 if won is None else 1] += 1
        row[3] += dt
    table: dict[tuple[str, str], list[int]] = {}
    for ((a, b), path), (w, l_, d, dt) in per.items():
        print(f"{path.name}: {a} vs {b}: won {w:.0f}, lost {l_:.0f}, drawn {d:.0f} ({w + l_ + d:.0f} games, "
              f"{dt:.0f} s of play)", flush=True)
        tally = table.setdefault((a, b), [0, 0, 0])
        tally[0] += int(w)
        tally[1] += int(l_)
        tally[2] += int(d)
    print(f"\n{len(games)} games in {time.perf_counter() - t0:.0f} s with {args.jobs} job(s)\n")
    print("| pairing | games | won | lost | drawn | win rate | 95% interval |")
    print("|---|---|---|---|---|---|---|")
    for (a, b), (w, l_, d) in table.items():
        n = w + l_ + d
        lo, hi = wilson(w, n)
        print(f"| {a} vs {b} | {n} | {w} | {l_} | {d} | {100 * w / max(n, 1):.0f}% | "
              f"{100 * lo:.0f}-{100 * hi:.0f}% |")


if __name__ == "__main__":
    main()
