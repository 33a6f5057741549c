"""Pushing (AoF: Skirmish "Special Movement", ../shared/rules/aof-skirmish-quick-rules.md line 151): "Whenever a
model rolls a Shaken result, the attacker may try to push it. Roll one die, and on a 4+ the attacker may move the
model by up to 2" in any direction."

Only the last model of a unit rolls on the wound table ("Groups & Wounds"), so a push always moves a unit of one
model. Where it may go (docs/rulings.md "AoF Skirmish": pushing): straight, up to 2" from where it stands, as a
move of its unit (``moves.check_move``): on the table, not onto or through impassable terrain (Flying ignores terrain
on the way), not through or onto another model's base, and not ending within 1" of a unit it was not already as near
to. Crossing dangerous terrain makes it roll as a model moving across it (``moves.MoveReport.dangerous``).

Elevation (docs/rulings.md "AoF Skirmish": pushing): the 2" are measured flat, and a push never lifts the model onto
ground higher than it stands on, nor through such ground. Pushed off elevated ground by 2" or more, it falls
("Falling", line 155: "If a model falls or is pushed off an elevated position at least 2" tall ..."):
``AoFSkirmish.after_push`` calls ``elevation.fall`` once the model stands at its new place.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.skirmish import moves
from game.engine.skirmish.elevation import highest_on_path
from game.engine.skirmish.loose import UNIT_GAP, XY, height_at, points_of, unit_gap
from game.engine.state import GameState, Unit

PUSH_NEED = 4
""""Pushing": "Roll one die, and on a 4+ the attacker may move the model"."""
PUSH_REACH = 2.0
""""Pushing": "by up to 2" in any direction"."""
SECTION = "Pushing"
"""The section an illegal push names."""


def shaken_results(events: Sequence[Event], attacker: int, state: GameState) -> list[str]:
    """Units of the attacker's enemies whose model rolled a Shaken result on the wound table in ``events`` and are
    still on the table (each once, in order): the pushes the attacker may try."""
    out: list[str] = []
    for e in events:
        uid = e.data.get("unit") if e.kind == "shaken" and e.data.get("wound_effect") else None
        if isinstance(uid, str) and uid not in out and uid in state.units:
            u = state.units[uid]
            if u.on_table and u.player != attacker and len(points_of(state, uid)) == 1:
                out.append(uid)
    return out


def push_problem(state: GameState, unit: Unit, to: XY) -> tuple[str | None, moves.MoveReport | None]:
    """Why the model of ``unit`` may not be pushed to ``to`` (inches), or None, with the move's report (the dangerous
    terrain it crosses). Nothing changes."""
    pts = points_of(state, unit.id)
    if len(pts) != 1:
        return f"{unit.name} has {len(pts)} models: only a last model rolls a Shaken result", None
    near = [u.id for u in state.units.values() if u.id != unit.id and u.on_table
            and unit_gap(state, unit, u) < UNIT_GAP - 1e-3]
    if highest_on_path(state, pts[0], to) > height_at(state, pts[0]) + 1e-6:
        return f"a push does not lift {unit.name} onto higher ground", None
    try:
        report = moves.check_move(state, unit, [to], PUSH_REACH, allowed_near=near, flat=True)
    except IllegalAction as e:
        return e.message, None
    return None, report


def check_push(state: GameState, unit: Unit, to: XY) -> moves.MoveReport:
    """The push of ``unit`` to ``to`` and its report; raises ``IllegalAction`` naming "Pushing"."""
    why, report = push_problem(state, unit, to)
    if why is not None or report is None:
        raise IllegalAction(SECTION, why or "no push")
    return report

