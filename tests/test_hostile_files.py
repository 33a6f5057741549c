"""Every file a player can be handed is refused cleanly (issue "Every file a player can be handed is refused
cleanly, in bounded time and memory"; docs/formats.md "Limits").

A corpus of malformed and hostile files, written by the tests, goes through the loaders and through ``check`` and
``run``: each is refused with ``FILE:LINE: PATH: message`` and exit 2, never a traceback. Property tests feed
arbitrary bytes, arbitrary YAML trees and damaged copies of real files to every reader: the only outcomes are a
loaded file or a clean error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from game.files import FileProblems, atomic_write_text, remove_stale_temp_files
from game.limits import MAX_RECORD_BYTES, MAX_UNITS_PER_ARMY, MAX_YAML_DEPTH, MAX_YAML_NODES
from game.reader import FileRefused, parse_yaml, read_yaml
from game.record import load_record, replay
from game.saves import read_saved_game
from game.scenario import load_army, load_scenario
from game.setup.army_list import load_list
from game.tutorial.lesson import load_lesson
from game.tutorial.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"
ARMY = ROOT / "scenarios" / "armies" / "ashen_host.yaml"
LESSON = ROOT / "scenarios" / "lessons" / "01_moving.yaml"
RECORD = ROOT / "scenarios" / "tests" / "records" / "rear_charge.yaml"
PROBLEM = re.compile(r"^.+:\d+: \S.*: .+$")


def _small_text() -> str:
    """The small scenario, its included army files named absolutely (so that a copy elsewhere loads)."""
    return SMALL.read_text(encoding="utf-8").replace("include: ../armies/", f"include: {ARMY.parent}/")


def _record_text(scenario: str | Path, actions: str = "actions: []\n") -> str:
    return f"format: regiments-record/1\nscenario: {scenario}\ndice: {{seed: 1}}\n{actions}"


def _many_units(n: int) -> str:
    units = "".join(f"      - {{id: u{i}, profile: Spearmen, models: 10, pose: {{x: {1 + i % 60}, y: {2 + i // 60}, "
                    f"facing: 0}}}}\n" for i in range(n))
    return ("format: regiments-scenario/1\nname: crowd\nruleset: aowfbr-1.4\narmies:\n  - player: 1\n"
            "    profiles:\n      Spearmen: {quality: 4, defense: 5, base: [20, 20], size: 10, cost: 100}\n"
            "    units:\n" + units)


def _laughs(levels: int = 9) -> str:
    lines = ["format: regiments-scenario/1", "name: laughs", "ruleset: aowfbr-1.4",
             "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    lines.append(f"armies: [*a{levels - 1}]")
    return "\n".join(lines) + "\n"


# Each entry: file name -> bytes, and the words the refusal must contain.
CORPUS: dict[str, tuple[bytes, str]] = {
    "binary.yaml": (bytes(range(256)) * 4, "not UTF-8"),
    "latin1.yaml": ("format: regiments-scenario/1\nname: Caf\u00e9\n".encode("latin-1"), "not UTF-8"),
    "long_int.yaml": (b"format: regiments-scenario/1\nseed: " + b"7" * 5000 + b"\n", "digits"),
    "tagged_int.yaml": (b"format: regiments-scenario/1\nseed: !!int '" + b"7" * 5000 + b"'\n", "digits"),
    "deep_flow.yaml": (b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n", "(yaml)"),
    "deep_block.yaml": ("".join("  " * i + f"k{i}:\n" for i in range(200)).encode(), "nested"),
    "laughs.yaml": (_laughs().encode(), "aliases"),
    "recursive_alias.yaml": (b"format: regiments-scenario/1\na: &a [1, *a]\n", "contains it"),
    "python_tag.yaml": (b"format: !!python/object:os.system {}\n", "(yaml)"),
    "two_documents.yaml": (b"format: regiments-scenario/1\n---\nname: x\n", "single document"),
    "nul_char.yaml": (b"format: regiments-scenario/1\nname: a\x00b\n", "not allowed"),
    "unhashable_key.yaml": (b"? [1, 2]\n: 3\n", "(yaml)"),
    "empty.yaml": (b"", "mapping"),
    "list_root.yaml": (b"- 1\n- 2\n", "mapping"),
    "crowd.yaml": (_many_units(2000).encode(), f"at most {MAX_UNITS_PER_ARMY}"),
    "scenario_devzero.yaml": (_record_text("/dev/zero").encode(), "not a regular file"),
    "scenario_nul.yaml": (_record_text('"a\\0b.yaml"').encode(), "NUL"),
    "scenario_folder.yaml": (_record_text("/tmp").encode(), "folder"),
    "record_long_path.yaml": (_record_text(SMALL, "p: &p {x: 1, y: 1, facing: 0}\nactions:\n- {type: move, player: 1, "
                                                  "unit: a, action: advance, path: [" + ", ".join(["*p"] * 20000)
                                                  + "]}\n").encode(), "a move path has at most 256"),
    "record_huge_path.yaml": (_record_text(SMALL, "p: &p {x: 1, y: 1, facing: 0}\nactions:\n- {type: move, player: 1, "
                                                  "unit: a, action: advance, path: [" + ", ".join(["*p"] * 200000)
                                                  + "]}\n").encode(), "values once"),
    "record_bad_action.yaml": (_record_text(SMALL, "actions:\n- {type: done, player: 1}\n- {type: fly, player: 1}\n"
                                            ).encode(), "unknown action type"),
    "record_player_alias.yaml": (_record_text(SMALL, "big: &b [" + ", ".join(["x" * 50] * 2000) + "]\nactions:\n"
                                              "- {type: done, player: *b}\n").encode(), "must be 1 or 2"),
    "utf16_record.yaml": (_record_text("/nonexistent.yaml").encode("utf-16"), "no such file"),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    for name, (data, _) in CORPUS.items():
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_check_refuses_each_hostile_file_with_file_line_path_message(corpus: Path, name: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / name
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out.strip().splitlines()
    assert out, "no problem printed"
    for line in out:
        assert PROBLEM.match(line), line
        assert len(line) < 2000, "a message formatted a huge value"
    assert any(str(path) in line for line in out) or name.startswith("scenario_") or name.startswith("utf16")
    assert CORPUS[name][1] in "\n".join(out)


@pytest.mark.parametrize("name", sorted(n for n in CORPUS if n.startswith(("record_", "scenario_", "utf16"))))
def test_run_refuses_each_hostile_record_with_exit_2(corpus: Path, name: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state.json"
    assert main.main(["run", str(corpus / name), "--state-out", str(state)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out.strip().splitlines()
    assert out and all(PROBLEM.match(line) for line in out), out
    assert not state.exists()


@pytest.mark.parametrize("name", sorted(n for n in CORPUS if n.startswith(("record_", "scenario_", "utf16"))))
def test_stats_refuses_each_hostile_record_with_exit_2(corpus: Path, name: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "stats.json"
    assert main.main(["stats", str(corpus / name), "--json", str(out_json)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out.strip().splitlines()
    assert out and all(PROBLEM.match(line) for line in out), out
    assert not out_json.exists()


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)            # opening a pipe for reading would block for ever
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    for path, words in ((fifo, "not a regular file"), (link, "not a regular file"), (tmp_path, "folder"),
                        (tmp_path / "missing.yaml", "no such file"), (Path("a\x00b.yaml"), "NUL")):
        with pytest.raises(FileRefused) as e:
            read_yaml(path)
        assert words in e.value.problems[0] and e.value.line == 1


def test_a_file_over_its_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as fh:       # 50 MB, sparse: refused from its size alone
        fh.truncate(50 * 1024 * 1024)
    for load in (load_scenario, load_army, load_list, load_lesson, load_record):
        with pytest.raises(FileProblems) as e:
            load(big)
        assert "larger than" in e.value.problems[0]
    assert "larger than" in (read_saved_game(big).problem or "")


def test_utf16_and_utf8_bom_files_are_read(tmp_path: Path) -> None:
    text = _small_text()
    for encoding in ("utf-16", "utf-8-sig", "utf-32"):
        path = tmp_path / f"small-{encoding}.yaml"
        path.write_bytes(text.encode(encoding))
        assert load_scenario(path).name == load_scenario(SMALL).name


def test_the_line_of_a_bad_byte_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"format: regiments-scenario/1\nname: ok\nruleset: \xff\n")
    with pytest.raises(FileRefused) as e:
        read_yaml(path)
    assert e.value.problems == [f"{path}:3: (file): not UTF-8 text (byte 0xff); save the file as UTF-8"]


def test_aliases_are_kept_but_their_expansion_is_bounded() -> None:
    root, data = parse_yaml("a: &a [1, 2]\nb: *a\n", "x.yaml")
    assert data == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(FileRefused) as e:
        parse_yaml(_laughs(), "x.yaml")
    assert f"more than {MAX_YAML_NODES:,} values" in e.value.message
    with pytest.raises(FileRefused) as e:
        parse_yaml("".join("  " * i + f"k{i}:\n" for i in range(MAX_YAML_DEPTH + 5)), "x.yaml")
    assert e.value.line == MAX_YAML_DEPTH + 1


def test_a_record_actions_problem_and_an_illegal_action_name_the_actions_own_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(_record_text(SMALL.resolve(), "actions:\n  - {type: done, player: 1}\n\n"
                                                  "  - {type: done, player: 3}\n"))
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    assert capsys.readouterr().out.startswith(f"{path}:7: actions[1].player: must be 1 or 2, got 3")
    path.write_text(_record_text(SMALL.resolve(), "actions:\n  - {type: done, player: 1}\n\n"
                                                  "  - {type: shoot, player: 1, unit: x, target: y}\n"))
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert re.match(rf"{re.escape(str(path))}:7: actions\[1\]: [A-Z][\w ]+: ", out), out
    assert main.main(["run", str(path), "--state-out", str(tmp_path / "s.json")]) == main.EXIT_ILLEGAL
    assert capsys.readouterr().out.startswith(f"{path}:7: actions[1]: ")


def test_a_record_with_too_many_actions_is_refused_before_reading_them(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(_record_text(SMALL.resolve(), "d: &d {type: done, player: 1}\nactions: [" +
                                 ", ".join(["*d"] * 30000) + "]\n"))
    with pytest.raises(FileProblems) as e:
        load_record(path)
    assert "at most 20,000" in e.value.problems[0]


def test_stale_temporary_files_of_interrupted_saves_are_removed(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "game.yaml", "x: 1\n")
    stale = tmp_path / ".game.yaml.abc123.tmp"
    fresh = tmp_path / ".other.yaml.def456.tmp"
    stale.write_text("half a save")
    fresh.write_text("a save being written now")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    assert remove_stale_temp_files(tmp_path) == [stale]
    assert not stale.exists() and fresh.exists() and (tmp_path / "game.yaml").read_text() == "x: 1\n"


def test_check_on_the_whole_corpus_stays_within_time_and_memory(corpus: Path) -> None:
    """A hang or a memory blow-up (the old billion laughs took gigabytes) fails here: the check runs in a process
    limited to 2 GiB of address space and 120 s, a bound far above the few seconds and MB it needs."""
    def limit() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    files = sorted(str(p) for p in corpus.iterdir())
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "check", *files], capture_output=True, text=True,
                          timeout=120, preexec_fn=limit, cwd=ROOT,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "BR_MALLOPT": "0"})
    assert done.returncode == main.EXIT_PROBLEMS, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


# --- property tests: arbitrary input to every reader ---------------------------------------------------------


def _list_text() -> str:
    return f"format: regiments-list/1\nname: Test\narmy: {ARMY}\npoints: 750\nunits: []\n"


READERS: dict[str, Callable[[Path], Any]] = {
    "scenario": load_scenario,
    "army": load_army,
    "list": load_list,
    "lesson": load_lesson,
    "record": lambda p: replay(load_record(p)),
}
VALID: dict[str, Callable[[], str]] = {
    "scenario": _small_text,
    "army": lambda: ARMY.read_text(encoding="utf-8"),
    "list": _list_text,
    "lesson": lambda: LESSON.read_text(encoding="utf-8").replace("scenario: ", f"scenario: {LESSON.parent}/", 1),
    "record": lambda: RECORD.read_text(encoding="utf-8").replace("scenario: ", f"scenario: {RECORD.parent}/", 1),
}


def _only_clean_outcomes(kind: str, data: bytes, folder: Path) -> None:
    path = folder / f"{kind}.yaml"
    path.write_bytes(data)
    try:
        READERS[kind](path)
    except FileProblems as e:
        assert e.problems and all(PROBLEM.match(p) for p in e.problems), e.problems
    item = read_saved_game(path)          # the menu's look at a file never raises
    assert item.path == path
    Progress.load(path)


def test_the_valid_files_of_the_property_tests_load(tmp_path: Path) -> None:
    for kind, text in VALID.items():
        path = tmp_path / f"{kind}.yaml"
        path.write_text(text())
        READERS[kind](path)


_EXAMPLES = int(os.environ.get("BR_HYPOTHESIS_EXAMPLES", "40"))   # more for a longer local run
_SETTINGS = settings(max_examples=_EXAMPLES, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@_SETTINGS
@given(kind=st.sampled_from(sorted(READERS)), data=st.binary(max_size=400))
def test_arbitrary_bytes_give_a_file_or_a_clean_error(tmp_path: Path, kind: str, data: bytes) -> None:
    _only_clean_outcomes(kind, data, tmp_path)


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
                     st.sampled_from(["regiments-scenario/1", "regiments-record/1", "regiments-army/1",
                                      "regiments-list/1", "regiments-lesson/1", "aowfbr-1.4", "done", "move"]))
_KEYS = st.one_of(st.sampled_from(["format", "name", "ruleset", "armies", "units", "profiles", "actions",
                                   "scenario", "dice", "steps", "player", "type", "path", "pose", "x", "y",
                                   "facing", "table", "terrain", "seed", "sequence", "army", "points"]),
                  st.text(max_size=8))
_TREES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                        st.dictionaries(_KEYS, inner, max_size=6)), max_leaves=30)


@_SETTINGS
@given(kind=st.sampled_from(sorted(READERS)), tree=st.dictionaries(_KEYS, _TREES, max_size=8))
def test_arbitrary_yaml_trees_give_a_file_or_a_clean_error(tmp_path: Path, kind: str, tree: dict[str, Any]) -> None:
    _only_clean_outcomes(kind, yaml.safe_dump(tree).encode(), tmp_path)


@_SETTINGS
@given(kind=st.sampled_from(sorted(READERS)), data=st.data())
def test_damaged_copies_of_real_files_give_a_file_or_a_clean_error(tmp_path: Path, kind: str, data: st.DataObject
                                                                    ) -> None:
    text = bytearray(VALID[kind]().encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text) - 1))
        edit = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        chunk = data.draw(st.binary(min_size=1, max_size=6) | st.sampled_from([b"*a", b"&a ", b"[", b"{", b": ",
                                                                               b"\n  ", b"- ", b"9" * 40]))
        if edit == "delete":
            del text[at:at + len(chunk)]
        elif edit == "insert":
            text[at:at] = chunk
        else:
            text[at:at + len(chunk)] = chunk
    _only_clean_outcomes(kind, bytes(text), tmp_path)


def test_the_record_size_limit_is_the_larger_one() -> None:
    from game.limits import MAX_FILE_BYTES
    assert MAX_RECORD_BYTES > MAX_FILE_BYTES
