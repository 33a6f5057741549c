"""AoF:R 2.16 "Breath Attack" (../shared/rules/aofr-2.16-full-rulebook.txt line 486): "Once per round, models with
this special rule may either deal 3 automatic hits with AP(1) when fighting in melee, or to one enemy unit within 12"
when shooting." Who breathes, at whom, and the hits when shooting; the melee hits go through the ruleset's own
wounding (``AoFR216._wound``: they count toward the melee result). Rulings: docs/rulings.md "AoF:R 2.16", Breath
Attack.

* Once per round per unit: the unit's models with the rule (a joined hero with it included) breathe together, in
  melee (``declare_charge`` / ``strike_back`` with ``breath``) or when shooting (``shoot`` with ``breath``), and
  then not again that round (``Activations.breath_used``).
* In melee: the models of the two front rows that strike (``aofr_rules.strike_kinds``) each deal 3 hits.
* Shooting: the models with line of sight to the target within 12" each deal 3 hits (every model may shoot: "Who
  Can Shoot"); no roll to hit, so neither cover nor Stealth changes them; "Artillery" (Defense 2+ against all
  shooting attacks) does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.events import Event
from game.engine.profiles import Profile, Weapon
from game.engine.rulesets.aofr_rules import ARTILLERY_DEFENSE, strike_kinds
from game.engine.shooting import ALL_ROWS
from game.engine.special_rules import ap_modifier, block_hits, defense_profile
from game.engine.spell_effects import effect_modifiers
from game.engine.state import GameState, Unit
from geometry.formation import hero_index

RULE = "Breath Attack"
BREATH_HITS = 3
"""Automatic hits each model with the rule deals."""
BREATH_AP = 1
"""The hits' AP(1)."""
BREATH_RANGE = 12.0
"""Inches: "to one enemy unit within 12\" when shooting"."""
BREATH = Weapon(RULE, BREATH_HITS, None, (f"AP({BREATH_AP})",))
"""The breath as a weapon for the shared Defense rolls: 3 hits per model, AP(1)."""


def has_breath(unit: Unit) -> bool:
    """Some model of ``unit`` still in it (its own models while any are left, or its living joined hero) has
    Breath Attack."""
    own = unit.regulars > 0 and unit.profile.has(RULE)
    hero = unit.hero_alive and unit.hero is not None and unit.hero.profile.has(RULE)
    return own or hero


def melee_breathers(state: GameState, unit: Unit) -> list[tuple[Profile, bool, int]]:
    """The models of ``unit``'s two front rows with Breath Attack, by kind as ``strike_kinds``: (profile, is the
    joined hero, how many)."""
    return [(p, hero, n) for p, hero, n in strike_kinds(state, unit) if n and p.has(RULE)]


def shooting_breathers(state: GameState, unit: Unit, target: Unit) -> list[tuple[Profile, bool, int]]:
    """The models of ``unit`` with Breath Attack that see ``target`` within 12", by kind (own models, hero)."""
    if not (unit.on_table and target.on_table) or not has_breath(unit):
        return []
    seeing = state.scene.models_with_sight(unit.id, target.id, ALL_ROWS, BREATH_RANGE)
    hero = hero_index(unit.formation) if unit.hero_alive else None
    own = sum(1 for m in seeing if m != hero) if unit.profile.has(RULE) else 0
    out: list[tuple[Profile, bool, int]] = [(unit.profile, False, own)] if own else []
    if hero is not None and hero in seeing and unit.hero is not None and unit.hero.profile.has(RULE):
        out.append((unit.hero.profile, True, 1))
    return out


def target_problem(unit: Unit, target: Unit) -> str | None:
    """Why ``target`` is not an enemy unit ``unit`` may breathe on when shooting, sight and range aside."""
    if target.player == unit.player:
        return f"{target.name} is not an enemy unit"
    if not target.on_table:
        return f"{target.name} is not on the table"
    if target.engaged:
        return f"{target.name} is in melee and may not be shot at"
    return None


def breath_targets(state: GameState, unit: Unit) -> list[str]:
    """Enemy units ``unit`` may breathe on when shooting (scenario order): not in melee, seen by a model with the
    rule within 12"."""
    if not unit.on_table or not has_breath(unit):
        return []
    return [e.id for e in state.enemies_of(unit.player)
            if target_problem(unit, e) is None and shooting_breathers(state, unit, e)]


def breathe_shooting(state: GameState, dice: Dice, unit: Unit, target: Unit) -> list[Event]:
    """The Breath Attack when shooting: 3 automatic hits per breathing model (``shooting_breathers``), Defense
    rolls at AP(1) (with the target's spell modifiers; Defense 2+ for "Artillery"), Regeneration, casualties."""
    events: list[Event] = []
    for prof, hero, count in shooting_breathers(state, unit, target):
        if not target.on_table:
            break
        hits = BREATH_HITS * count
        who = f"{unit.hero.name} with {unit.name}" if hero and unit.hero is not None else unit.name
        events.append(Event("hits", f"{who} Breath Attack on {target.name}: {hits} automatic hits (AP({BREATH_AP}))",
                            {"unit": unit.id, "target": target.id, "weapon": RULE, "hits": hits, "hero": hero}))
        defender = defense_profile(target)
        if defender.has("Artillery"):      # "count as having Defense 2+ against all shooting attacks"
            defender = replace(defender, defense=ARTILLERY_DEFENSE)
        ap = ap_modifier(BREATH_AP)
        mods = ([ap] if ap is not None else []) + effect_modifiers(target, "defense")
        wounds, evs = block_hits(dice, [(hits, mods, "Defense")], defender, prof, BREATH,
                                 _roll_words(target.name, f"against {who} ({RULE})"),
                                 f"{target.name} against {who}", f"Defense {defender.defense}+", target.id,
                                 aowfbr_poison=False)
        events += evs + apply_wounds(state, target, wounds, f"{RULE} of {unit.name}", dice)
    return events


def _roll_words(target: str, against: str) -> Callable[[str], str]:
    """How each Defense roll is worded: "TARGET WHAT AGAINST"."""
    def words(what: str) -> str:
        return f"{target} {what} {against}"
    return words


__all__ = ["BREATH", "BREATH_AP", "BREATH_HITS", "BREATH_RANGE", "RULE", "breath_targets", "breathe_shooting",
           "has_breath", "melee_breathers", "shooting_breathers", "target_problem"]
