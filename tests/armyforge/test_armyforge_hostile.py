"""Army Forge exports are untrusted: arbitrary text or JSON is refused with problems (``ExportRefused``), never
a crash, and within the size cap (game/armyforge/, docs/formats.md "Army Forge import")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.armyforge.convert import convert
from game.armyforge.export import ExportRefused
from game.armyforge.importer import read_export
from game.armyforge.json_export import parse_json
from game.armyforge.text_export import parse_text
from game.limits import MAX_FILE_BYTES

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "armyforge"
LINE_PARTS = st.sampled_from(["++ ", " ++", "[", "]", "AoF 750pts", "Q4+", "D5+", "|", "100pts", "2x ", "Tough(3)",
                              "(", ")", ",", "A1", '24"', "Spear", "Joined to: ", "Hero", "\n", "\n\n", " ", "x"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "units", "size", "quality", "defense", "cost", "rules", "loadout", "rating",
                         "count", "attacks", "range", "bases", "square", "combined", "joinToUnit", "selectionId",
                         "id", "specialRules", "listPoints", "pointsLimit", "list"]), inner, max_size=8),
    max_leaves=30)


def _never_crashes(parse, text: str) -> None:  # type: ignore[no-untyped-def]
    try:
        convert(parse(text, "f"))
    except ExportRefused as e:
        assert e.problems and all(p.startswith("f:") for p in e.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE_PARTS, max_size=40).map("".join) | st.text(max_size=300))
def test_arbitrary_text_is_refused_or_read(text: str) -> None:
    _never_crashes(parse_text, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["name", "units", "gameSystem", "pointsLimit", "listPoints"]), JSON_VALUES)
       | JSON_VALUES)
def test_arbitrary_json_is_refused_or_read(data: object) -> None:
    _never_crashes(parse_json, json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_fixture_units_with_values_changed_never_crash(data: st.DataObject) -> None:
    doc = json.loads((FIX / "ashen_host.json").read_text())
    unit = data.draw(st.sampled_from(doc["units"]))
    key = data.draw(st.sampled_from(sorted(unit)))
    unit[key] = data.draw(JSON_VALUES)
    _never_crashes(parse_json, json.dumps(doc))


def test_hostile_files(tmp_path: Path) -> None:
    cases = {
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "digits.json": '{"name": "x", "units": [], "pointsLimit": ' + "9" * 5000 + "}",
        "binary.txt": b"\xff\xfe\x00garbage",
        "empty.txt": "",
        "scenario.txt": (Path(__file__).resolve().parents[2] / "scenarios" / "default.yaml").read_text(),
        "long.txt": "++ A [AoF 500pts] ++\n" + "x" * 5000 + "\n",
    }
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        try:
            read_export(path)
        except ExportRefused as e:
            assert e.problems[0].startswith(str(path)), (name, e.problems)
        else:
            raise AssertionError(f"{name} was accepted")
    big = tmp_path / "big.txt"
    big.write_text("++ A [AoF 500pts] ++\n" + "#" * MAX_FILE_BYTES)
    with pytest.raises(ExportRefused, match="larger than"):
        read_export(big)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(ExportRefused, match="folder"):
        read_export(folder)
