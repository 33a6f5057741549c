"""Battle Regiments: command line (../shared/spec.md "Command line").

    python main.py                              window, main menu
    python main.py play SCENARIO                hotseat game of that scenario
    python main.py replay RECORD                watch a recorded game
    python main.py tutorial [LESSON]            guided lessons
    python main.py check FILE...                validate scenarios and records (exit 0, or 2 and the problems)
    python main.py autoplay SCENARIO [--seed N] [--games K] [--record OUT]
    python main.py run RECORD --state-out STATE.json   (an illegal action exits 3)
    python main.py import-army FILE [-o OUT] [--drop-unknown]   Army Forge list -> army file + army list
    python main.py stats RECORD [--json OUT] [--csv OUT]  the statistics of a recorded game
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

EXIT_PROBLEMS = 2
EXIT_ILLEGAL = 3
DEFAULT_SCENARIO = Path(__file__).resolve().parent / "scenarios" / "default.yaml"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="main.py", description="Battle Regiments: AoWFBR 1.4 hotseat referee")
    sub = p.add_subparsers(dest="command")
    play = sub.add_parser("play", help="hotseat game of a scenario")
    play.add_argument("scenario")
    replay = sub.add_parser("replay", help="watch a recorded game")
    replay.add_argument("record")
    tutorial = sub.add_parser("tutorial", help="guided lessons")
    tutorial.add_argument("lesson", nargs="?")
    check = sub.add_parser("check", help="validate scenario and record files")
    check.add_argument("files", nargs="+")
    auto = sub.add_parser("autoplay", help="headless games between computer players")
    auto.add_argument("scenario")
    auto.add_argument("--seed", type=int, default=1)
    auto.add_argument("--games", type=int, default=1)
    auto.add_argument("--record", help="write the game record here (with several games, -SEED is added)")
    auto.add_argument("--players", default="random",
                      help="the computer players of seats 1 and 2, e.g. random,simple (random, simple)")
    auto.add_argument("--check", action="store_true",
                      help="check the invariants after every action; exit 1 at the first one broken")
    run = sub.add_parser("run", help="apply a record headless and write the resulting state")
    run.add_argument("record")
    run.add_argument("--state-out", required=True)
    imp = sub.add_parser("import-army", help="import an Army Forge list (Share as Text, or the JSON export)")
    imp.add_argument("file")
    imp.add_argument("-o", "--out", help="the army list to write (the army file goes beside it as NAME.army.yaml); "
                                         "default: \"My lists\" and the imported armies folder")
    imp.add_argument("--drop-unknown", action="store_true",
                     help="drop the special rules, weapons and upgrades the ruleset cannot play (listed per unit) "
                          "instead of refusing the file")
    imp.add_argument("--ruleset", default=None,
                     help="the ruleset to map onto: any playable one, e.g. aofr-2.16 (default: aowfbr-1.4)")
    stats = sub.add_parser("stats", help="the statistics of a recorded game")
    stats.add_argument("record")
    stats.add_argument("--json", dest="json_out", help="write every figure as JSON here (docs/formats.md)")
    stats.add_argument("--csv", dest="csv_out", help="write the per-unit table as CSV here")
    return p


def cmd_check(files: list[str]) -> int:
    """Validate each file (scenario, army, lesson or record, by its ``format``), reading it once; print every
    problem as ``FILE:LINE: PATH: message``."""
    from game.file_check import check_scenario_file
    from game.limits import MAX_FILE_BYTES, MAX_RECORD_BYTES
    from game.reader import FileRefused, read_yaml
    from game.record import RecordError, load_record, replay
    from game.scenario import ScenarioError
    from game.tutorial.lesson import check_lesson_file

    problems: list[str] = []
    for name in files:
        try:
            read = read_yaml(name, MAX_RECORD_BYTES)     # the largest limit; each loader applies its own
        except FileRefused as e:
            problems += e.problems
            continue
        fmt = read.data.get("format") if isinstance(read.data, dict) else None
        if isinstance(fmt, str) and fmt.startswith("regiments-record/"):
            try:
                record = load_record(name, read)
                result = replay(record)
            except (RecordError, ScenarioError) as e:
                problems += e.problems
                continue
            if result.failed_index is not None and result.error is not None:
                problems.append(f"{record.where(result.failed_index)}: {result.error.rule}: "
                                f"{result.error.message}")
            elif result.diverged_index is not None:
                problems.append(f"{record.where(result.diverged_index)}: {result.describe()}")
            continue
        if len(read.text) > MAX_FILE_BYTES:
            problems.append(f"{read.name}:1: (file): the file is larger than {MAX_FILE_BYTES:,} bytes, more than "
                            "any real one (docs/formats.md \"Limits\")")
        elif isinstance(fmt, str) and fmt.startswith("regiments-lesson/"):
            problems += check_lesson_file(name, read)
        else:
            problems += check_scenario_file(name, read)
    for line in problems:
        print(line)
    if not problems:
        print(f"{len(files)} file{'s' if len(files) != 1 else ''} OK")
    return EXIT_PROBLEMS if problems else 0


def cmd_autoplay(scenario_path: str, seed: int, games: int, record_out: str | None, players: str = "random",
                 check: bool = False) -> int:
    """Play ``games`` seeded games between computer players (``players``: "P1,P2", see ``game.players``); one line
    per game, then the tally. ``check``: the invariants after every action (``game.autoplay.state_is_consistent``);
    exit 1 naming the game, the action and the invariant at the first one broken."""
    from game.autoplay import play_out as play
    from game.autoplay import state_is_consistent
    from game.engine.actions import Action
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.players import UnknownPlayer, make_player, parse_players
    from game.saves import save_game
    from game.scenario import ScenarioError, load_scenario, new_game_state

    try:
        names = parse_players(players)
    except UnknownPlayer as e:
        print(f"autoplay: --players: {e}")
        return EXIT_PROBLEMS
    try:
        scenario = load_scenario(scenario_path)
    except ScenarioError as e:
        print("\n".join(e.problems))
        return EXIT_PROBLEMS
    total = 0.0
    tally = {1: 0, 2: 0, None: 0}

    class Broken(Exception):
        pass

    for i in range(games):
        game_seed = seed + i
        t0 = time.perf_counter()
        game = Game.start(new_game_state(scenario), Dice(seed=game_seed))
        seats = {1: make_player(names[0], game_seed), 2: make_player(names[1], game_seed + 1_000_003)}

        def invariants(g: Game, action: Action, game_seed: int = game_seed) -> None:
            problems = state_is_consistent(g.state)
            if problems:
                raise Broken(f"seed {game_seed}: after action {len(g.history) - 1} ({action.to_dict()}): "
                             f"{'; '.join(problems)}")

        try:
            actions = play(game, game_seed, invariants if check else None, players=seats)
        except Broken as e:
            print(f"invariant broken: {e}")
            return 1
        dt = time.perf_counter() - t0
        total += dt
        vp = game.victory_points()
        won = None if vp[1] == vp[2] else (1 if vp[1] > vp[2] else 2)
        tally[won] += 1
        winner = "draw" if won is None else f"player {won}"
        print(f"seed {game_seed}: rounds {game.state.round}, victory points {vp[1]}-{vp[2]}, winner {winner} "
              f"({len(actions)} actions, {dt * 1000:.0f} ms)")
        if record_out:
            out = Path(record_out)
            if games > 1:
                out = out.with_name(f"{out.stem}-{game_seed}{out.suffix or '.yaml'}")
            save_game(game, scenario_path, out)
    print(f"P1 ({names[0]}) won {tally[1]}, P2 ({names[1]}) won {tally[2]}, drawn {tally[None]}"
          + (f"; {total / games * 1000:.0f} ms per game" if games else "")
          + ("; invariants held after every action" if check else ""))
    return 0


def cmd_run(record_path: str, state_out: str) -> int:
    """Apply a record's actions and write the resulting state; an illegal action exits 3."""
    from game.files import atomic_write_text
    from game.record import RecordError, load_record, replay
    from game.scenario import ScenarioError
    from game.state_file import state_to_dict

    try:
        record = load_record(record_path)
        result = replay(record)
    except (RecordError, ScenarioError) as e:
        print("\n".join(e.problems))
        return EXIT_PROBLEMS
    atomic_write_text(state_out, json.dumps(state_to_dict(result.game), indent=2) + "\n")
    if result.failed_index is not None:
        assert result.error is not None
        action = record.actions[result.failed_index]
        print(f"{record.where(result.failed_index)}: {result.error.rule}: {result.error.message} "
              f"(action {result.failed_index}, {action.type}, is illegal)")
        return EXIT_ILLEGAL
    if result.diverged_index is not None:
        print(f"{record.where(result.diverged_index)}: {result.describe()}")
        return EXIT_ILLEGAL
    return 0


def cmd_import_army(file: str, out: str | None, drop_unknown: bool, ruleset: str | None) -> int:
    """Import an Army Forge export (docs/formats.md "Army Forge import"): write an army file and an army list.
    Exit 2 for a file refused, or for things the ruleset cannot play unless ``drop_unknown``."""
    from game.armyforge.importer import (
        ArmyListError,
        ExportRefused,
        ScenarioError,
        army_path_beside,
        default_paths,
        plan_import,
        write_import,
    )
    from game.armyforge.rulesets import DEFAULT_RULESET

    try:
        plan = plan_import(file, ruleset or DEFAULT_RULESET)
    except ExportRefused as e:
        print("\n".join(e.problems))
        return EXIT_PROBLEMS
    except ValueError as e:
        print(f"import-army: --ruleset: {e}")
        return EXIT_PROBLEMS
    unknown = plan.unknown_messages()
    if unknown and not drop_unknown:
        print("\n".join(unknown))
        print(f"{plan.export.file}: {len(unknown)} thing{'s' if len(unknown) != 1 else ''} {plan.ruleset} cannot "
              "play; nothing written. Import without them with --drop-unknown.")
        return EXIT_PROBLEMS
    for line in unknown:
        print(f"{line} (dropped)")
    if out:
        list_path = Path(out)
        army_path = army_path_beside(list_path)
    else:
        list_path, army_path = default_paths(plan)
    try:
        written = write_import(plan, list_path, army_path)
    except (OSError, ValueError) as e:
        if isinstance(e, (ScenarioError, ArmyListError)):
            print("\n".join(e.problems))
        else:
            print(f"import-army: cannot write: {e}")
        return EXIT_PROBLEMS
    lst = written.army_list
    print(f"wrote {army_path} (army file, {len(plan.profiles)} profiles) and {list_path} (army list, "
          f"{len(lst.unit_ids())} units, {lst.points_used} / {lst.points} points)")
    for note in plan.notes:
        print(f"note: {note}")
    for problem in written.problems:
        print(f"to fix in the set-up: {problem}")
    for problem in written.force_org:
        print(f"with Force Organisation (optional): {problem}")
    return 0


def cmd_stats(record_path: str, json_out: str | None, csv_out: str | None) -> int:
    """Print the statistics of a record (``game.stats``), and write them as JSON and/or CSV. A record or scenario
    that cannot be read exits 2 with its problems; a replay that breaks off gives the figures up to there, with a
    note. An output file that cannot be written exits 2."""
    from game.reader import display_name
    from game.record import RecordError, load_record
    from game.scenario import ScenarioError
    from game.stats import record_stats
    from game.stats.report import summary_text, write_stats

    try:
        record = load_record(record_path)
        stats = record_stats(record)
    except (RecordError, ScenarioError) as e:
        print("\n".join(e.problems))
        return EXIT_PROBLEMS
    print(summary_text(stats, display_name(record_path)))
    try:
        write_stats(stats, json_out, csv_out, display_name(record_path))
    except OSError as e:
        print(f"stats: cannot write {e.filename or ''}: {e.strerror or e}")
        return EXIT_PROBLEMS
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    from game.runtime import tune_allocator

    tune_allocator()
    args = _parser().parse_args(argv)
    if args.command == "check":
        return cmd_check(args.files)
    if args.command == "autoplay":
        return cmd_autoplay(args.scenario, args.seed, args.games, args.record, args.players, args.check)
    if args.command == "run":
        return cmd_run(args.record, args.state_out)
    if args.command == "import-army":
        return cmd_import_army(args.file, args.out, args.drop_unknown, args.ruleset)
    if args.command == "stats":
        return cmd_stats(args.record, args.json_out, args.csv_out)
    from game.ui import app

    if args.command == "play":
        app.run(args.scenario)
    elif args.command == "replay":
        return app.run_replay(args.record) or 0
    elif args.command == "tutorial":
        return app.run_tutorial(args.lesson) or 0
    else:
        app.run(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
