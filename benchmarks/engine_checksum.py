"""Checksums of whole seeded games, to prove an engine change gives IDENTICAL games (issue 13).

``python benchmarks/engine_checksum.py [--games N] [--seed S] [SCENARIO...]`` plays N seeded games of each
scenario (every shipped scenario by default) for each pairing in ``PAIRINGS`` and prints one line per game: the
scenario, the players, the seed, the number of actions and a SHA-256 over

- every ``Game.apply`` made (the computer opponent's look-ahead on clones included): the action, every event's
  kind, text and data at full float precision, or the refusal's rule, message and point;
- every answer of the ``Game`` queries the players ask (``check_move``, ``move_info``, ``charge_targets``,
  ``shooting_targets``...), at full precision;
- the state file (``game.state_file.state_to_dict``, full precision) after every action of the game itself.

Run it on the code before and after a change and ``diff`` the outputs: any difference names the first game that
plays differently (``--games-only``: the applies and states alone, for a change that gives the queries' answers
another form but plays the same games). Not a test (minutes of play); the engine's own tests cover the rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.errors import IllegalAction  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.players import make_player  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402
from game.state_file import state_to_dict  # noqa: E402

PAIRINGS = (("random", "random"), ("simple", "simple"), ("ai", "simple"))
"""The seats of each game: player 1's and player 2's names (``game.players``)."""
QUERIES = ("check_move", "move_info", "charge_targets", "redirect_targets", "shooting_targets", "breath_targets",
           "breath_in_melee", "point_shooter", "check_shoot_point", "units_to_move", "chargers", "shooters",
           "check_deploy", "check_magic", "check_transport", "check_rally_pivot", "activation_casts", "melee_pick")
"""``Game`` queries whose every answer goes into the checksum."""


class _Sink:
    """The running hash of the game being played."""

    digest: Any = None

    @classmethod
    def feed(cls, *parts: object) -> None:
        if cls.digest is not None:
            cls.digest.update(json.dumps(parts, default=_plain, sort_keys=True).encode("utf-8"))
            cls.digest.update(b"\n")


def _plain(value: object) -> object:
    """Full-precision JSON form of what ``json`` does not know (``repr`` keeps every bit of a float)."""
    if isinstance(value, IllegalAction):
        return ["illegal", value.rule, value.message, repr(value.where)]
    answers = getattr(value, "_answers", None)
    if callable(answers):  # geometry.motion.MoveCheck: every answer, the terrain crossed included
        return ["check", repr(answers())]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(v) for v in value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return repr(value)


def _floats(value: object) -> object:
    """``value`` with every float replaced by its ``repr`` (json would print the same, but say so)."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _floats(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_floats(v) for v in value]
    return value


def _install(queries: bool = True) -> None:
    """Wrap ``Game.apply`` and (``queries``) the queries so that every answer feeds the running hash."""
    original_apply = Game.apply

    def apply(self: Game, action: Any) -> Any:
        try:
            events = original_apply(self, action)
        except IllegalAction as e:
            _Sink.feed("apply", action.to_dict(), e)
            raise
        _Sink.feed("apply", action.to_dict(), [[e.kind, e.text, _floats(e.data)] for e in events])
        return events

    Game.apply = apply  # type: ignore[method-assign]
    for name in QUERIES if queries else ():
        original = getattr(Game, name)

        def query(self: Game, *args: Any, _name: str = name, _original: Callable[..., Any] = original,
                  **kwargs: Any) -> Any:
            answer = _original(self, *args, **kwargs)
            # keyword arguments only when given, so that a query asked as before hashes as before
            given = [a.to_dict() if hasattr(a, "to_dict") else a for a in args]
            _Sink.feed(_name, given, *([kwargs] if kwargs else []), answer)
            return answer

        setattr(Game, name, query)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games-only", action="store_true",
                        help="hash the games (every apply, every state) but not the query answers: to compare code "
                             "whose queries changed their form but not the games")
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b in PAIRINGS),
                        help="comma-separated P1:P2 pairs")
    args = parser.parse_args()
    scenarios = args.scenarios or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scenarios").glob("*.yaml"))
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    _install(not args.games_only)
    for path in scenarios:
        scenario = load_scenario(str(ROOT / path) if not Path(path).is_absolute() else path)
        for p1, p2 in pairings:
            for seed in range(args.seed, args.seed + args.games):
                t0 = time.process_time()
                _Sink.digest = hashlib.sha256()
                game = Game.start(new_game_state(scenario), Dice(seed=seed))
                seats = {1: make_player(p1, seed), 2: make_player(p2, seed + 1_000_003)}

                def after(g: Game, _action: Any) -> None:
                    _Sink.feed("state", _floats(state_to_dict(g)))

                actions = play_out(game, seed, after, players=seats)
                vp = game.victory_points()
                line = (f"{Path(path).name} {p1},{p2} seed {seed}: {len(actions)} actions, vp {vp[1]}-{vp[2]}, "
                        f"sha256 {_Sink.digest.hexdigest()[:16]}")
                _Sink.digest = None
                print(f"{line}  # {(time.process_time() - t0) * 1000:.0f} ms CPU", flush=True)


if __name__ == "__main__":
    main()
