"""A spell's value under each ruleset (army file ``spells[].values``, docs/formats.md "Spells"): AoF:R 2.16
"Wizard(X)" rolls D6+X against "the number in brackets", the token rulesets (AoWFBR, the AoF:R quick rules) spend
``value`` tokens. Old files (no ``values``) load as before; malformed values are refused with FILE:LINE: PATH."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import magic
from game.engine.dice import Dice
from game.engine.game import Game
from game.file_check import check_scenario_file
from game.scenario import load_army, load_scenario, new_game_state

ROOT = Path(__file__).resolve().parent.parent
ARMIES = ROOT / "scenarios" / "armies"

ARMY = """\
format: regiments-army/1
name: Test Mages
profiles:
  Mage:
    quality: 4
    defense: 5
    base: [25, 25]
    size: 1
    cost: 90
    weapons:
      - {{name: Staff, attacks: 1}}
    rules: [Hero, "Caster(2)"]
spells:
  - name: Bolt
    value: 1
{values}    range: 18
    target: enemy
    hits: {{count: 3}}
"""
VALUES_LINE = 16
"""The line of ``values`` in ``ARMY``."""


def _problems(tmp_path: Path, values: str) -> list[str]:
    path = tmp_path / "army.yaml"
    path.write_text(ARMY.format(values=values), encoding="utf-8")
    return [p.removeprefix(f"{tmp_path}/") for p in check_scenario_file(path)]


def _bolt(tmp_path: Path, values: str) -> magic.Spell:
    path = tmp_path / "army.yaml"
    path.write_text(ARMY.format(values=values), encoding="utf-8")
    return load_army(path).spells["Bolt"]


def test_an_army_without_values_loads_as_before(tmp_path: Path) -> None:
    """No ``values``: the spell's value is ``value`` under every ruleset (files written before the key)."""
    bolt = _bolt(tmp_path, "")
    assert bolt.values == ()
    assert [bolt.for_ruleset(r).value for r in ("aowfbr-1.4", "aofr-2.16", "aofr-quick", None)] == [1, 1, 1, 1]


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(v216=st.integers(2, 12), vquick=st.integers(1, 6))
def test_each_ruleset_plays_its_own_value(tmp_path: Path, v216: int, vquick: int) -> None:
    """``values: {aofr-2.16: N, aofr-quick: M}``: N under 2.16, M under the quick rules, ``value`` elsewhere."""
    bolt = _bolt(tmp_path, f"    values: {{aofr-2.16: {v216}, aofr-quick: {vquick}}}\n")
    assert bolt.for_ruleset("aofr-2.16").value == v216
    assert bolt.for_ruleset("aofr-quick").value == vquick
    assert bolt.for_ruleset("aowfbr-1.4").value == 1


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(v=st.integers(-1000, 1000).filter(lambda v: not 2 <= v <= 12))
def test_a_216_value_out_of_range_is_refused(tmp_path: Path, v: int) -> None:
    """AoF:R 2.16: 2 to 12 (a D6+X roll); anything else is refused at its line, naming the path."""
    assert _problems(tmp_path, f"    values: {{aofr-2.16: {v}}}\n") == [
        f"army.yaml:{VALUES_LINE}: spells[0].values['aofr-2.16']: a spell's value under aofr-2.16 must be 2 to "
        f"12, got {v}"]


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(v=st.integers(-1000, 1000).filter(lambda v: not 1 <= v <= 6))
def test_a_token_value_out_of_range_is_refused(tmp_path: Path, v: int) -> None:
    """The token rulesets: 1 to 6 ("Caster(X)": at most 6 tokens held)."""
    assert _problems(tmp_path, f"    values: {{aofr-quick: {v}}}\n") == [
        f"army.yaml:{VALUES_LINE}: spells[0].values.aofr-quick: a spell's value under aofr-quick must be 1 to 6, "
        f"got {v}"]


@pytest.mark.parametrize(("values", "message"), [
    ("[5]", "spells[0].values: must be a mapping of keys, got [5]"),
    ("{aofr-2.17: 5}", "spells[0].values['aofr-2.17']: a spell's value is given for a ruleset: 'aofr-2.17' is not a "
                       "known ruleset"),
    ("{aofr-2.16: five}", "spells[0].values['aofr-2.16']: must be a whole number, got 'five'"),
    ("{aofr-2.16: 4.5}", "spells[0].values['aofr-2.16']: must be a whole number, got 4.5"),
    ("{aofr-2.16: true}", "spells[0].values['aofr-2.16']: must be a whole number"),
    ("{aofr-2.16: null}", "spells[0].values['aofr-2.16']: must be a whole number"),
    ("5", "spells[0].values: must be a mapping of keys"),
])
def test_malformed_values_are_refused(tmp_path: Path, values: str, message: str) -> None:
    """Not a mapping, a ruleset that does not exist, a value that is not a whole number: FILE:LINE: PATH: message."""
    found = _problems(tmp_path, f"    values: {values}\n")
    assert len(found) == 1 and found[0].startswith(f"army.yaml:{VALUES_LINE}: {message}"), found


def test_a_hostile_values_mapping_is_refused(tmp_path: Path) -> None:
    """More entries than there are rulesets (a huge mapping): refused, not read."""
    many = ", ".join(f"r{i}: 4" for i in range(500))
    found = _problems(tmp_path, f"    values: {{{many}}}\n")
    assert found and all(re.match(rf"army\.yaml:{VALUES_LINE}: spells\[0\]\.values", p) for p in found)


def test_every_shipped_spell_has_its_216_value() -> None:
    """Every spell of the shipped army files carries its AoF:R 2.16 value (the casters' armies)."""
    for path in sorted(ARMIES.glob("*.yaml")):
        for spell in load_army(path).spells.values():
            assert dict(spell.values).get("aofr-2.16") in range(2, 13), (path.name, spell.name)


def test_a_216_game_plays_the_216_values_and_the_others_the_token_costs() -> None:
    """The Wizards at the Ford (2.16) play Bolt of Judgement at 5; the AoWFBR default scenario at its token cost;
    the quick rules' casters at theirs."""
    ford = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "aofr_wizards_ford.yaml")), Dice(seed=1))
    assert magic.spells_of(ford.state, 1)["Bolt of Judgement"].value == 5
    assert magic.spells_of(ford.state, 2)["Stomp of the Gods"].value == 6
    default = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "default.yaml")), Dice(seed=1))
    spells = {**magic.spells_of(default.state, 1), **magic.spells_of(default.state, 2)}
    assert all(1 <= s.value <= 3 for s in spells.values())
    quick = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "aofr_quick_spells.yaml")), Dice(seed=1))
    assert magic.spells_of(quick.state, 1)["Rune of Wrath"].value == 2
