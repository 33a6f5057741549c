"""The charge and close combat cases of scenarios/tests/, played out by their records with fixed dice.

Each record in scenarios/tests/records/ is applied with ``python main.py run RECORD --state-out STATE.json`` (the
command a player can run) and the state it writes is checked, with the events of the same replay, against what the
rulebook says must happen. The scenarios also open in the window (``python main.py play scenarios/tests/X.yaml``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import main
from game.engine.events import Event
from game.record import load_record, replay

RECORDS = Path(__file__).resolve().parent.parent / "scenarios" / "tests" / "records"


def units(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in state["units"]}


def of(log: list[Event], event_kind: str, **data: Any) -> list[Event]:
    """Events of ``event_kind`` whose data has the given values."""
    return [e for e in log if e.kind == event_kind and all(e.data.get(k) == v for k, v in data.items())]


def rolls(log: list[Event], words: str) -> list[Event]:
    return [e for e in log if e.kind == "roll" and words in e.data["purpose"]]


# --- what each record must show ------------------------------------------------------------------------------------


def stand_and_shoot(u: dict, log: list[Event]) -> None:
    """Charge Reactions: Stand and Shoot: the front row fires at -1 before the charge; then the charge hits home."""
    shot = rolls(log, "stand and shoot")[0]
    assert shot.data["modifier"] == -1 and len(shot.data["dice"]) == 5 and shot.data["successes"] == 3
    assert u["warriors-1"]["models"] == 8
    assert u["warriors-1"]["engaged_with"] == ["crossbows-1"] and u["crossbows-1"]["models"] == 10


def flee_run_down(u: dict, log: list[Event]) -> None:
    """Charge Reactions: Flee (Shaken, 2D6" away before the charge), run down (contact routs), then the charger
    "may either pivot by up to 180° or move by up to 3"" (here a 90° pivot)."""
    assert of(log, "shaken", unit="goblins-1") and of(log, "flee", unit="goblins-1", range=5)
    assert of(log, "charge", unit="knights-1", ran_down=True)
    assert u["goblins-1"]["removed"] == "routed"
    assert of(log, "consolidate", unit="knights-1", kind="pivot")
    assert u["knights-1"]["pose"]["facing"] == pytest.approx(90.0)


def flee_redirect(u: dict, log: list[Event]) -> None:
    """Charge Reactions: redirect after a passed morale test; the newly charged unit reacts (Hold) and is charged."""
    assert rolls(log, "to redirect its charge")[0].data["dice"] == [5]
    assert of(log, "charge", unit="swordsmen-1", target="spears-1", redirect=True)
    assert of(log, "reaction", unit="spears-1", reaction="hold")
    assert u["swordsmen-1"]["engaged_with"] == ["spears-1"]
    assert u["archers-1"]["shaken"] and u["archers-1"]["fleeing"] and u["archers-1"]["removed"] is None


def flee_redirect_twice(u: dict, log: list[Event]) -> None:
    """Charge Reactions: the redirected target flees too: no second redirect; the run down falls short and the
    charger moves its full charge distance."""
    assert of(log, "flee", unit="spears-1", range=10)
    failed = of(log, "charge", unit="swordsmen-1", failed=True)[0]
    assert "12.0\"" in failed.text
    assert u["swordsmen-1"]["engaged_with"] == [] and u["spears-1"]["fleeing"]


def multi_charge(u: dict, log: list[Event]) -> None:
    """Charge Reactions (one reaction other than Hold against several chargers), Multiple Units in Combat (one combat
    resolved by side: 7 wounds, 2 rows, 2 chargers, 1 flank), Flanking (-1), Flight Moves (split the difference:
    front and left flank, 135°), Pursuit Moves."""
    assert [e.data["reaction"] for e in of(log, "reaction", unit="warriors-1")] == ["hold", "hold"]
    res = of(log, "resolution")[0].data
    assert res["scores"][1] == {"wounds": 7, "rows": 2, "charge": 2, "fear": 0, "flank": 1, "rear": 0, "total": 12}
    assert res["winner"] == 1 and res["difference"] == 11
    morale = rolls(log, "Morale test of Redtusk Warriors")[0]
    assert morale.data["modifier"] == -3
    flee = of(log, "flee", unit="warriors-1")[0]
    assert flee.data["attackers"] == ["swordsmen-1", "knights-1"]
    assert flee.data["to"]["facing"] == pytest.approx(315.0)
    assert u["warriors-1"]["removed"] == "routed"


def flank(u: dict, log: list[Event]) -> None:
    """Melee Resolution (+1 flank), Who Can Strike (one model in base contact with its flank strikes), Flanking (-1),
    Flight Moves (charged in the flank: 90°), Consolidation Moves (declining to pursue: a failed test forces it)."""
    assert of(log, "info", unit="archers-1", attacks=1)
    assert of(log, "resolution")[0].data["scores"][1]["flank"] == 1
    assert rolls(log, "Morale test of Tusk Archers")[0].data["modifier"] == -3
    assert rolls(log, "to hold back from pursuing")[0].data["dice"] == [2]
    assert of(log, "info", unit="swordsmen-1", forced=True)
    assert of(log, "flee", unit="archers-1")[0].data["to"]["facing"] == pytest.approx(0.0)   # 90 -> 0
    assert of(log, "pursuit", unit="swordsmen-1", range=3)
    assert u["archers-1"]["fleeing"] and u["archers-1"]["removed"] is None


def rear(u: dict, log: list[Event]) -> None:
    """Melee Resolution (+2 rear), Who Can Strike (rear: only 6s hit), Counter (no first strike in the rear),
    Flanking (-2), Flight Moves (0°), Pursuit Moves (contact routs; then a 3" move)."""
    assert not [e for e in log if e.kind == "info" and e.data.get("step") == 1]
    strike = of(log, "info", unit="spears-1", step=4)[0]
    assert "hit only on 6" in strike.text
    assert rolls(log, "Spears (spears-1) strikes")[0].data["need"] == 6
    assert of(log, "resolution")[0].data["scores"][1]["rear"] == 2
    assert rolls(log, "Morale test of Redtusk Spears")[0].data["modifier"] == -4
    assert of(log, "flee", unit="spears-1")[0].data["to"]["facing"] == pytest.approx(0.0)
    assert u["spears-1"]["removed"] == "routed"
    assert of(log, "consolidate", unit="swordsmen-1", kind="move")
    assert u["swordsmen-1"]["pose"]["x"] == pytest.approx(27.0)


def counter_impact(u: dict, log: list[Event]) -> None:
    """Order of Attacks (Counter first), Counter (-1 Impact die per Counter model: 9 - 5 = 4), Impact(X) (2+; X
    attacks in step 4 in the next round), a passed test keeps the units locked into the next turn; a destroyed unit
    loses without a test."""
    steps = [e.data["step"] for e in log if e.kind == "info" and "step" in e.data and "attacks" not in e.data]
    assert steps[:3] == [1, 2, 3] and steps[3:] == [4]
    assert of(log, "info", unit="militia-1", step=1, attacks=5)
    assert of(log, "info", unit="chariots-1", step=2, attacks=4)
    assert rolls(log, "Impact hits")[0].data["need"] == 2
    assert of(log, "info", unit="chariots-1", step=4, weapon="Impact", attacks=7)
    assert len(of(log, "resolution")) == 2
    assert u["militia-1"]["removed"] == "destroyed" and u["chariots-1"]["engaged_with"] == []
    assert len(rolls(log, "Morale test")) == 1


def retreat_follow_up(u: dict, log: list[Event]) -> None:
    """Melee Morale Tests (Shaken: more than half left), Consolidation Moves (retreat D3+3", follow up; next turn they
    fight as if the winner charged: Impact hits, Lance, +1), Fatigue (Shaken: 6s only), an already Shaken loser
    flees."""
    assert of(log, "retreat", unit="warriors-1", distance=5)
    assert of(log, "follow_up", unit="knights-1", target="warriors-1")
    impacts = [e for e in log if e.kind == "info" and e.data.get("unit") == "knights-1" and e.data.get("step") == 2]
    assert len(impacts) == 2                                  # Impact hits in both rounds
    res = of(log, "resolution")[1].data
    assert res["scores"][1]["charge"] == 1
    assert rolls(log, "Warriors (warriors-1) strikes")[-1].data["need"] == 6
    assert of(log, "morale", unit="warriors-1", outcome="flees")
    assert u["warriors-1"]["removed"] == "routed"


def off_table(u: dict, log: list[Event]) -> None:
    """Flight Moves (off the table: fled and routed; the pursuer still pursues), Pursuit Moves (1" short of the
    edge; then a 180° pivot)."""
    assert u["warriors-1"]["removed"] == "fled"
    pursuit = of(log, "pursuit", unit="swordsmen-1")[0]
    assert pursuit.data["blocked_by"] == "table edge"
    assert u["swordsmen-1"]["pose"]["y"] + 20 / 25.4 == pytest.approx(31.0, abs=1e-3)
    assert u["swordsmen-1"]["pose"]["facing"] == pytest.approx(180.0)


def catches_second(u: dict, log: list[Event]) -> None:
    """Consolidation Moves and Multiple Units: choose which fleeing unit to pursue after the flights; contact with
    the other fleeing unit routs it instead. Both losers tested."""
    assert len(rolls(log, "Morale test of Canton Swordsmen")) == 2
    pursuit = of(log, "pursuit", unit="warriors-1")[0]
    assert pursuit.data["target"] == "swordsmen-1" and pursuit.data["caught"] == "swordsmen-2"
    assert u["swordsmen-2"]["removed"] == "routed"
    assert u["swordsmen-1"]["removed"] is None and u["swordsmen-1"]["fleeing"]


def two_retreating(u: dict, log: list[Event]) -> None:
    """Consolidation Moves and Multiple Units: both retreat in the winner's front; it chooses which one to follow up
    and, having fought both, stays in combat with both."""
    assert len(of(log, "retreat")) == 2
    assert of(log, "follow_up", unit="warriors-1", target="swordsmen-2")
    assert u["warriors-1"]["engaged_with"] == ["swordsmen-1", "swordsmen-2"]


def tie_pivot(u: dict, log: list[Event]) -> None:
    """Melee Resolution (a tie: no tests), Consolidation Moves (the flanked unit may pivot to face: its choice)."""
    assert of(log, "resolution")[0].data["winner"] is None and not rolls(log, "Morale test")
    assert of(log, "consolidate", unit="warriors-1", kind="pivot_to_face", target="swordsmen-1")
    assert u["warriors-1"]["pose"]["facing"] == pytest.approx(180.0)
    assert u["warriors-1"]["engaged_with"] == ["swordsmen-1"]


def two_combats(u: dict, log: list[Event]) -> None:
    """Multiple Units in Combat: two combats, one after the other, each with its own moves."""
    fought = [e.data["units"] for e in log if e.kind == "info" and "combat" in e.data]
    assert fought == [["swordsmen-1", "warriors-1"], ["knights-1", "goblins-1"]]
    assert of(log, "retreat", unit="warriors-1")
    assert u["goblins-1"]["removed"] == "destroyed"
    assert len(rolls(log, "Morale test")) == 1
    assert u["knights-1"]["pose"]["facing"] == pytest.approx(270.0)


def artillery_scatter(u: dict, log: list[Event]) -> None:
    """Random Scatter for Artillery: the Rock Lobber's arrow, 6" less two passed Quality tests = 2" at 65 degrees,
    still on the Hold Warriors; the Stone Cannon skips its test, scatters 2" along its line of fire into the
    Redtusk Warriors."""
    lobber, cannon = of(log, "artillery", unit="lobber-1")[0], of(log, "artillery", unit="cannon-1")[0]
    assert lobber.data["rolled"] == 6 and lobber.data["remaining"] == 2 and lobber.data["bearing"] == 65
    assert lobber.data["hit_unit"] == "warriors-2" and u["warriors-2"]["models"] == 8
    assert of(log, "info", unit="cannon-1") and cannon.data["rolled"] == 2 and cannon.data["remaining"] == 2
    assert cannon.data["hit_unit"] == "warriors-1" and u["warriors-1"]["models"] == 8
    assert of(log, "hits", unit="cannon-1", target="warriors-1", hits=3)


CASES: dict[str, tuple[Callable[[dict, list[Event]], None], str]] = {
    "artillery_scatter": (artillery_scatter, "shoot"),
    "charge_stand_and_shoot": (stand_and_shoot, "move"),
    "charge_flee_run_down": (flee_run_down, "move"),
    "charge_flee_redirect": (flee_redirect, "move"),
    "charge_flee_redirect_twice": (flee_redirect_twice, "move"),
    "multi_charge_one_target": (multi_charge, "rally"),
    "flank_charge": (flank, "rally"),
    "rear_charge": (rear, "rally"),
    "counter_vs_impact": (counter_impact, "rally"),
    "retreat_follow_up": (retreat_follow_up, "rally"),
    "flight_off_table": (off_table, "rally"),
    "pursuit_catches_second_fleeing": (catches_second, "rally"),
    "two_retreating_choose": (two_retreating, "rally"),
    "tie_pivot_to_face": (tie_pivot, "rally"),
    "several_combats": (two_combats, "rally"),
}
"""Record name: (the check, the decision the game waits for at the end)."""


def test_every_record_has_a_case():
    assert sorted(p.stem for p in RECORDS.glob("*.yaml")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_record(name: str, tmp_path: Path) -> None:
    check, decision = CASES[name]
    out = tmp_path / "state.json"
    assert main.main(["run", str(RECORDS / f"{name}.yaml"), "--state-out", str(out)]) == 0
    state = json.loads(out.read_text())
    assert state["pending"]["decision"] == decision
    result = replay(load_record(RECORDS / f"{name}.yaml"))
    assert result.ok
    assert result.game.dice.consumed == len(result.game.dice.sequence or [])   # every fixed die is used
    check(units(state), result.game.log)
