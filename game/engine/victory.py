"""Victory Points (rulebook "Victory Conditions").

Each player scores for the enemy units:

* destroyed, routed or fled the battlefield: 100% of the unit's points cost (and its joined hero's), plus 50 if
  it had a banner (the "standard bearer" of the rulebook; the ``banner`` command group upgrade);
* still in the game at half or less of its starting size (its Tough value for a unit of one model): 50% of
  its own points cost, rounded down;
* a joined hero killed while its unit is still in the game: 100% of the hero's cost;
* the enemy General killed, routed or fled: +100, only for a player who has a General of their own; the General
  may be a hero joined to a unit;
* when a mission is played, each objective marker the player controls: 100 ("Multiply Victory Points from
  objectives/missions by 100"; game.engine.objectives);
* when side-missions are played, at the end of the game each side-mission the player completed: 100
  (game.engine.side_missions).

The scores can be worked out at any time; the game is won at the end by the higher score.
"""

from __future__ import annotations

from game.engine.casualties import at_half_strength
from game.engine.objectives import objective_lines
from game.engine.side_missions import side_mission_lines
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

    With a joined hero (docs/rulings.md): a unit destroyed, routed or fled is worth its cost and its hero's; a
    unit still in the game at half strength or less is worth 50% of its own cost (the hero's is counted in full
    by ``hero_victory_points`` once the hero is killed).
    """
    if unit.removed is not None:
        points = unit.total_cost
        text = f"{unit.name} {_HOW[unit.removed]}"
        if unit.hero is not None:
            text += f" with its hero {unit.hero.name}"
        if BANNER in unit.upgrades:
            points += BANNER_BONUS
            text += f" (with its banner +{BANNER_BONUS})"
        return (text, points)
    if unit.pose is not None and at_half_strength(unit):
        return (f"{unit.name} at half strength or less", unit.cost * 50 // 100)
    return None


def hero_victory_points(unit: Unit) -> tuple[str, int] | None:
    """A joined hero killed while its unit is still in the game: its full cost, as a model that has been
    destroyed (rulebook "Victory Conditions"; docs/rulings.md). None otherwise (a removed unit counts it)."""
    hero = unit.hero
    if hero is None or not hero.killed or unit.removed is not None or unit.pose is None:
        return None
    return (f"{hero.name} (hero of {unit.name}) killed", hero.cost)


def general_removed(state: GameState, general_id: str) -> tuple[str, str] | None:
    """(name, how) if the General ``general_id`` was killed, routed or fled the battlefield, else None; the General
    may be a hero joined to a unit (rulebook "Victory Conditions", "Hero")."""
    general = state.units.get(general_id)
    if general is not None:
        return (general.name, _HOW_GENERAL[general.removed]) if general.removed is not None else None
    host = state.host_of(general_id)
    if host is None or host.hero is None:
        return None
    if host.removed is not None:
        return (host.hero.name, _HOW_GENERAL[host.removed])
    if host.hero.killed:
        return (host.hero.name, "killed")
    return None


def victory_breakdown(state: GameState) -> dict[int, list[tuple[str, int]]]:
    """Each player's Victory Points line by line, e.g. ``("Orc Boyz (orcs-1) routed", 150)``; scenario order,
    the General's bonus last."""
    out: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    for unit in state.units.values():
        for scored in (unit_victory_points(unit), hero_victory_points(unit)):
            if scored is not None:
                out[3 - unit.player].append(scored)
    for player in (1, 2):
        enemy_general = state.generals.get(3 - player)
        if state.generals.get(player) is None or enemy_general is None:
            continue  # an army without a General cannot score for the enemy General
        gone = general_removed(state, enemy_general)
        if gone is not None:
            out[player].append((f"enemy General {gone[0]} {gone[1]}", GENERAL_BONUS))
    for player, lines in objective_lines(state).items():
        out[player] += lines
    for player, lines in side_mission_lines(state).items():
        out[player] += lines
    return out


def victory_points(state: GameState) -> dict[int, int]:
    """Each player's total Victory Points (rulebook "Victory Conditions")."""
    return {player: sum(points for _, points in lines) for player, lines in victory_breakdown(state).items()}
