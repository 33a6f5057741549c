"""Soak: autoplay every shipped and test scenario under every optional rule, mission, deployment style and
side-mission playstyle, checking the invariants
after every action (run on demand: ``python benchmarks/soak.py [--games N] [--seed S] [--only TEXT]``).

Variants of each scenario are built from its own file, with ``options``, ``mission``, ``deployment`` or
``side_missions`` changed, and validated
by the scenario loader like any file (a combination the loader refuses is skipped and counted, never played). Each
variant plays ``--games`` games with ``random`` against ``simple`` seats (``--players A,B``: any players of
``main.py autoplay``, e.g. ``ai-easy,random`` to soak the computer opponent), alternating. Prints one line per variant
(games, actions, seconds) and a total; exit 1 at the first invariant broken or exception, naming the variant, seed
and action, so that it can be reproduced with ``main.py autoplay``.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out, state_is_consistent  # noqa: E402
from game.engine.actions import Action  # noqa: E402
from game.engine.deployment_styles import ALL_STYLES, DEFAULT_STYLE  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.engine.objectives import MISSIONS  # noqa: E402
from game.engine.side_missions import PLAYSTYLES, SELECTIONS  # noqa: E402
from game.players import PLAYERS, make_player  # noqa: E402
from game.reader import read_yaml  # noqa: E402
from game.runtime import tune_allocator  # noqa: E402
from game.scenario import (  # noqa: E402
    OPTION_DEFAULTS,
    SPELL_TOKEN_MODES,
    ScenarioError,
    load_scenario_mapping,
    new_game_state,  # noqa: E402
)

OPTION_VALUES: dict[str, tuple[object, ...]] = {"spell_tokens": SPELL_TOKEN_MODES}
"""Values to try for the options that are not on/off; every boolean option is tried switched on."""


def variants(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, mapping) for the scenario as written, each option changed alone, and (deployed in the game) each
    mission, each deployment style and each side-mission playstyle."""
    yield "as written", data
    for key, default in OPTION_DEFAULTS.items():
        values = OPTION_VALUES.get(key, (True,) if isinstance(default, bool) else ())
        for value in values:
            if value == (data.get("options") or {}).get(key, default):
                continue
            changed = copy.deepcopy(data)
            changed.setdefault("options", {})[key] = value
            yield f"{key}={value}", changed
    chosen_in_game: list[tuple[str, object]] = [("mission", m) for m in (*MISSIONS, "random")]
    chosen_in_game += [("deployment", style) for style in ALL_STYLES if style != DEFAULT_STYLE]
    chosen_in_game += [("side_missions", {"playstyle": style, "selection": how})
                       for style, how in zip(PLAYSTYLES, SELECTIONS, strict=True)]
    for key, value in chosen_in_game:
        if data.get(key) == value:
            continue
        yield f"{key}={value}", _deployed_in_game(data, key, value)


def _deployed_in_game(data: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    """The scenario with ``key`` set to ``value`` and every unit left to deploy in the game (missions place their
    markers, styles draw their zones and side-missions are selected before deployment)."""
    changed = copy.deepcopy(data)
    changed[key] = value
    if key == "mission":
        changed.pop("objectives", None)
    changed.pop("start", None)
    for army in changed.get("armies") or []:
        for unit in army.get("units") or []:
            unit.pop("pose", None)
    return changed


class Broken(Exception):
    """An invariant broken or an exception in a soaked game."""


def soak(path: Path, games: int, seed: int, only: str | None,
         players: tuple[str, str] = ("random", "simple")) -> tuple[int, int, int]:
    """Play every variant of the scenario at ``path``, ``players`` in seats 1 and 2, then swapped, alternately;
    returns (variants played, refused, games)."""
    read = read_yaml(path)
    played = refused = total = 0
    for label, data in variants(read.data):
        if only and only not in f"{path.name} {label}":
            continue
        try:
            scenario = load_scenario_mapping(data, path)
        except ScenarioError:
            refused += 1
            continue
        t0 = time.perf_counter()
        actions = 0
        for i in range(games):
            game_seed = seed + i
            names = players if i % 2 == 0 else (players[1], players[0])
            seats = {1: make_player(names[0], game_seed), 2: make_player(names[1], game_seed + 1_000_003)}
            game = Game.start(new_game_state(scenario), Dice(seed=game_seed))

            def check(g: Game, action: Action) -> None:
                problems = state_is_consistent(g.state)
                if problems:
                    raise Broken(f"after action {len(g.history) - 1} ({action.to_dict()}): {'; '.join(problems)}")

            try:
                actions += len(play_out(game, game_seed, check, players=seats))
            except Exception as e:  # noqa: BLE001 - any failure of a soaked game is reported with its seed
                raise Broken(f"{path} [{label}] seed {game_seed} players {','.join(names)}: "
                             f"{type(e).__name__}: {e}") from e
        total += games
        played += 1
        print(f"{path.relative_to(ROOT)} [{label}]: {games} games, {actions} actions, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    return played, refused, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per variant (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--only", help="only variants whose 'FILE LABEL' contains this text")
    parser.add_argument("--players", default="random,simple",
                        help="the two players, seats swapped every other game (default random,simple)")
    args = parser.parse_args()
    names = tuple(args.players.split(","))
    if len(names) != 2 or any(n not in PLAYERS for n in names):
        parser.error(f"--players takes two of {', '.join(PLAYERS)}, e.g. ai-easy,random")
    tune_allocator()
    paths = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted((ROOT / "scenarios" / "tests").glob("*.yaml"))
    t0 = time.perf_counter()
    played = refused = games = 0
    try:
        for path in paths:
            p, r, g = soak(path, args.games, args.seed, args.only, (names[0], names[1]))
            played, refused, games = played + p, refused + r, games + g
    except Broken as e:
        print(f"BROKEN: {e}")
        return 1
    print(f"{played} variants, {games} games, all invariants held; {refused} variants refused by the loader; "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
