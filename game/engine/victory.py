"""Victory Points (rulebook "Victory Conditions").

Each player scores for the enemy units:

* destroyed, routed or fled the battlefield: 100% of the unit's points cost, plus 50 if it had a banner
  (the "standard bearer" of the rulebook; the ``banner`` command group upgrade);
* still on the table at half or less of its starting size (its Tough value for a unit of one model): 50% of
  its points cost, rounded down;
* the enemy General killed, routed or fled: +100, only for a player who has a General of their own.

The scores can be worked out at any time; the game is won at the end by the higher score.
"""

from __future__ import annotations

from game.engine.casualties import at_half_strength
from game.engine.state import GameState, Removal, Unit

BANNER = "banner"
"""The command group upgrade that counts as a standard bearer."""

BANNER_BONUS = 50
"""Rulebook "Victory Conditions": +50 for a destroyed, routed or fled unit that included a standard bearer."""

GENERAL_BONUS = 100
"""Rulebook "Victory Conditions": +100 for killing, routing or putting to flight the enemy General."""

_HOW = {Removal.DESTROYED: "destroyed", Removal.ROUTED: "routed", Removal.FLED: "fled the battlefield"}
_HOW_GENERAL = {Removal.DESTROYED: "killed", Removal.ROUTED: "routed", Removal.FLED: "fled the battlefield"}


def unit_victory_points(unit: Unit) -> tuple[str, int] | None:
    """What ``unit`` is worth to its enemy now, as (reason, points), or None if nothing (rulebook "Victory
    Conditions"). Units that never reached the table (e.g. Ambushers that did not arrive) are worth nothing.
    """
    if unit.removed is not None:
        points = unit.cost
        text = f"{unit.name} {_HOW[unit.removed]}"
        if BANNER in unit.upgrades:
            points += BANNER_BONUS
            text += f" (with its banner +{BANNER_BONUS})"
        return (text, points)
    if unit.on_table and at_half_strength(unit):
        return (f"{unit.name} at half strength or less", unit.cost * 50 // 100)
    return None


def victory_breakdown(state: GameState) -> dict[int, list[tuple[str, int]]]:
    """Each player's Victory Points line by line, e.g. ``("Orc Boyz (orcs-1) routed", 150)``; scenario order,
    the General's bonus last."""
    out: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    for unit in state.units.values():
        scored = unit_victory_points(unit)
        if scored is not None:
            out[3 - unit.player].append(scored)
    for player in (1, 2):
        enemy_general = state.generals.get(3 - player)
        if state.generals.get(player) is None or enemy_general is None:
            continue  # an army without a General cannot score for the enemy General
        general = state.units.get(enemy_general)
        if general is not None and general.removed is not None:
            out[player].append((f"enemy General {general.name} {_HOW_GENERAL[general.removed]}", GENERAL_BONUS))
    return out


def victory_points(state: GameState) -> dict[int, int]:
    """Each player's total Victory Points (rulebook "Victory Conditions")."""
    return {player: sum(points for _, points in lines) for player, lines in victory_breakdown(state).items()}
