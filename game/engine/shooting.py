"""Shooting (rulebook "Shooting": Picking Targets, Who Can Shoot, Multiple Weapon Types, The Shooting Sequence),
Stand and Shoot (rulebook "Charge Reactions"), and the morale tests at the end of the Shooting Phase (rulebook
"General Morale Tests", turn sequence 4.3).

Weapon and unit special rules that change a shot live here, each in one place: AP(X), Stealth, Entrenched,
Indirect, Relentless, Reliable, Sniper (Quality 2+, fired first), Blast(X), Deadly(X), Poison, Rending and
Regeneration, and the Sergeant's +1 to hit (rulebook "Command Groups").

Order of the dice for one weapon group (what a fixed dice sequence must follow): weapons in the order Sniper
weapons, Deadly weapons, then the rest (profile order within each); for each weapon: the hit rolls of every
shooting model but the Sergeant, then the Sergeant's hit rolls, then the Defense rolls (hits without Rending
AP first, then the Rending 6s), then the Poison re-rolls of 6, then the Regeneration rolls. Casualties of one
weapon are removed before the next weapon rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.actions import Shoot
from game.engine.attacks import Modifier, roll_to_block, roll_to_hit
from game.engine.casualties import apply_wounds, at_half_strength
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.morale import make_shaken, morale_test
from game.engine.profiles import Weapon, rule_value
from game.engine.state import GameState, MoveAction, Unit

MAX_TARGETS = 2
"""Rulebook "Multiple Weapon Types": a unit may fire at up to two different targets per Shooting Phase."""

STAND_AND_SHOOT_MIN_DISTANCE = 6.0
"""Rulebook "Charge Reactions": the charger must be at least 6" away to Stand and Shoot."""

STEALTH_ENTRENCHED_DISTANCE = 9.0
"""Rulebook "Stealth", "Entrenched": the to-hit penalties apply when shooting from over 9" away."""

SERGEANT = "sergeant"
"""The command group upgrade that gets +1 to hit (rulebook "Command Groups")."""


# --- who may shoot ---------------------------------------------------------------------------------------------


def shooting_restriction(unit: Unit) -> tuple[str, str] | None:
    """Why ``unit`` may not shoot at all this Shooting Phase, as (rule, reason); None when it may.

    Rulebook "Shaken Units" (Shaken units stay idle; fleeing units are Shaken), "Rushing" and "Charging" (the
    unit may not shoot; reported under "Who Can Shoot"), and units locked in melee, which fight instead of
    shooting (docs/rulings.md).
    """
    if not unit.on_table:
        return ("Shooting", f"{unit.name} is not on the table")
    if unit.fleeing:
        return ("Shaken Units", f"{unit.name} is fleeing and may not shoot")
    if unit.shaken:
        return ("Shaken Units", f"{unit.name} is Shaken and must stay idle")
    if unit.engaged:
        return ("Who Can Shoot", f"{unit.name} is in melee and may not shoot")
    if unit.move_action is MoveAction.RUSH:
        return ("Who Can Shoot", f"{unit.name} rushed this turn and may not shoot")
    if unit.move_action is MoveAction.CHARGE:
        return ("Who Can Shoot", f"{unit.name} charged this turn and may not shoot")
    if not unit.profile.ranged_weapons:
        return ("Shooting", f"{unit.name} has no ranged weapons")
    return None


def shooting_rows(unit: Unit) -> int:
    """How many front rows of ``unit`` may shoot this Shooting Phase (rulebook "Picking Targets", "Who Can Shoot").

    2 after a Hold action (or no move action at all), 1 after an Advance, 0 after a Rush or Charge, and 0 for a
    unit that may not shoot for another reason (Shaken, fleeing, in melee; see ``shooting_restriction``).
    """
    if shooting_restriction(unit) is not None:
        return 0
    if unit.move_action is MoveAction.ADVANCE:
        return 1
    return 2


# --- weapons and special rules -----------------------------------------------------------------------------------


def _has(unit: Unit, weapon: Weapon, rule: str) -> bool:
    """True if the weapon or the unit carries ``rule`` (OPR prints some shooting rules on either)."""
    return weapon.has(rule) or unit.has(rule)


def _value(weapon: Weapon, rule: str) -> int:
    """X of the weapon's rule(X), 0 without it."""
    return rule_value(weapon.rules, rule) or 0


def _fire_order(unit: Unit, weapons: tuple[Weapon, ...]) -> list[Weapon]:
    """Rulebook "Sniper" (resolved before other weapons) and "Deadly(X)" (resolved first); else profile order."""
    return sorted(weapons, key=lambda w: (not _has(unit, w, "Sniper"), not w.has("Deadly")))


def weapon_group(unit: Unit, weapons: tuple[str, ...] | None) -> tuple[Weapon, ...]:
    """The weapons of one weapon group (rulebook "Multiple Weapon Types").

    ``None`` means every ranged weapon of the unit not yet fired this phase (possibly none). Named weapons must
    be ranged weapons of the unit's profile, named once, and not fired yet this phase (each weapon fires once);
    otherwise raises ``IllegalAction``.
    """
    if weapons is None:
        return tuple(w for w in unit.profile.ranged_weapons if w.name not in unit.weapons_fired)
    if not weapons:
        raise IllegalAction("Multiple Weapon Types", f"{unit.name}: a weapon group needs at least one weapon")
    out: list[Weapon] = []
    for name in weapons:
        try:
            weapon = unit.profile.weapon(name)
        except KeyError:
            known = ", ".join(w.name for w in unit.profile.ranged_weapons) or "none"
            raise IllegalAction("Multiple Weapon Types",
                                f"{unit.name} has no weapon {name!r} (ranged weapons: {known})") from None
        if not weapon.is_ranged:
            raise IllegalAction("Weapons", f"{name} of {unit.name} is a melee weapon and cannot shoot")
        if weapon in out:
            raise IllegalAction("Multiple Weapon Types", f"{name} is named twice in one weapon group")
        if name in unit.weapons_fired:
            raise IllegalAction("Multiple Weapon Types",
                                f"{unit.name} already fired {name} this phase; each weapon fires once")
        out.append(weapon)
    return tuple(out)


def _moved_since_last_activation(unit: Unit) -> bool:
    """Rulebook "Entrenched": the unit moved (or pivoted) since the beginning of its last activation.

    Read from the per-turn flags ``move_action`` and ``pivoted`` (docs/rulings.md).
    """
    return unit.pivoted or unit.move_action in (MoveAction.ADVANCE, MoveAction.RUSH, MoveAction.CHARGE)


def to_hit_modifiers(state: GameState, shooter: Unit, target: Unit, weapon: Weapon,
                     stand_and_shoot: bool = False) -> list[Modifier]:
    """Modifiers to the hit rolls of ``weapon`` (the Sergeant's +1 is added per model, see ``shoot``).

    Rulebook "Charge Reactions" (Stand and Shoot -1), "Stealth" (-1 from over 9" when every model of the
    target has it), "Entrenched" (-2 from over 9" while the target has not moved), "Indirect" (-1 after moving,
    including pivoting). The 9" is measured between the units (closest models).
    """
    mods: list[Modifier] = []
    if stand_and_shoot:
        mods.append(Modifier("Stand and Shoot", -1))
    stealth = target.has("Stealth")
    entrenched = target.has("Entrenched") and not _moved_since_last_activation(target)
    if (stealth or entrenched) and state.scene.distance(shooter.id, target.id) > STEALTH_ENTRENCHED_DISTANCE:
        if stealth:
            mods.append(Modifier("Stealth", -1))
        if entrenched:
            mods.append(Modifier("Entrenched", -2))
    if _has(shooter, weapon, "Indirect") and not stand_and_shoot and _moved_since_last_activation(shooter):
        mods.append(Modifier("Indirect", -1))
    return mods


def quality_for(shooter: Unit, weapon: Weapon) -> int:
    """The Quality the hit rolls need: the unit's, or 2+ with Reliable or Sniper (rulebook "Reliable",
    "Sniper")."""
    if _has(shooter, weapon, "Reliable") or _has(shooter, weapon, "Sniper"):
        return 2
    return shooter.profile.quality


def defense_modifiers(state: GameState, shooter: Unit, target: Unit, weapon: Weapon, models: list[int],
                      ap: int | None = None) -> list[Modifier]:
    """Modifiers to the target's Defense rolls against ``weapon`` fired by the shooter's ``models``.

    Rulebook "AP(X)": -X (``ap`` overrides the weapon's X, for Rending 6s). Rulebook "Cover Terrain": +1 when
    the target is in cover from the firing models (``Scene.in_cover``); "Blast(X)" ignores cover.
    """
    mods: list[Modifier] = []
    x = weapon.ap if ap is None else ap
    if x:
        mods.append(Modifier(f"AP({x})", -x))
    if not weapon.has("Blast") and state.scene.in_cover(shooter.id, target.id, models):
        mods.append(Modifier("Cover", 1))
    return mods


def sergeant_index(unit: Unit) -> int | None:
    """Index (``geometry.formation.model_centres`` order) of the Sergeant: the middle model of the front row.

    None if the unit has no Sergeant (docs/rulings.md: the command group stands in the middle of the front row
    and casualties are taken from the back, so the Sergeant is among the last models left).
    """
    if SERGEANT not in unit.upgrades or unit.models <= 0:
        return None
    return unit.formation.files // 2


def deadly_wounds(target: Unit, wounds: int, x: int) -> int:
    """Rulebook "Deadly(X)": each wound goes to one model and is multiplied by X, without carrying over to other
    models. Returns the wounds to put on ``target`` through ``apply_wounds`` (which fills the most-wounded model
    first, as the wounds were assigned)."""
    tough, carried, models, dealt_total = target.tough, target.wounds, target.models, 0
    for _ in range(wounds):
        if models <= 0:
            break
        need = tough - carried
        dealt = min(x, need)
        dealt_total += dealt
        carried, models = (0, models - 1) if dealt == need else (carried + dealt, models)
    return dealt_total


# --- targets -----------------------------------------------------------------------------------------------------


def _shooters(state: GameState, shooter: Unit, target: Unit, rows: int, max_range: float | None) -> list[int]:
    """Models of ``shooter`` in its first ``rows`` rows that may fire at ``target`` (rulebook "Who Can Shoot").

    ``max_range`` None: range does not matter (Stand and Shoot).
    """
    if rows <= 0:
        return []
    return state.scene.models_with_sight(shooter.id, target.id, rows, max_range)


def _target_problem(state: GameState, shooter: Unit, target: Unit) -> str | None:
    """Why ``target`` is not an enemy unit that may be shot at, ignoring sight and range; None if it may."""
    if target.player == shooter.player:
        return f"{target.name} is not an enemy unit"
    if not target.on_table:
        return f"{target.name} is not on the table"
    if target.engaged:
        return f"{target.name} is in melee and may not be shot at"
    return None


def valid_targets(state: GameState, unit_id: str, weapons: tuple[str, ...] | None = None) -> list[str]:
    """Enemy units ``unit_id`` may shoot at now (rulebook "Picking Targets"), scenario order.

    A target is an enemy unit on the table, not in melee, such that at least one model of the shooting rows
    sees one of its models in its front arc and has a weapon of the group (``weapons``; None = every ranged
    weapon not fired yet) within range of it. Once a unit has shot at two targets, only those remain (rulebook
    "Multiple Weapon Types"). Empty if the unit may not shoot. Raises ``IllegalAction`` for bad weapon names.
    """
    unit = state.unit(unit_id)
    rows = shooting_rows(unit)
    group = weapon_group(unit, weapons)
    if rows == 0 or not group:
        return []
    ranges = sorted({w.range for w in group if w.range is not None}, reverse=True)
    out: list[str] = []
    for target in state.enemies_of(unit.player):
        if _target_problem(state, unit, target) is not None:
            continue
        if len(unit.shot_targets) >= MAX_TARGETS and target.id not in unit.shot_targets:
            continue
        if _shooters(state, unit, target, rows, ranges[0]):
            out.append(target.id)
    return out


# --- resolving a weapon ------------------------------------------------------------------------------------------


@dataclass
class _Volley:
    """One weapon fired by some models of a unit at one target."""

    shooter: Unit
    """The shooting unit."""
    target: Unit
    """The unit shot at."""
    weapon: Weapon
    """The weapon fired."""
    models: list[int]
    """Indices of the models firing it (``model_centres`` order)."""
    verb: str
    """'shoot' or 'stand and shoot', for the event texts."""
    to_hit: list[Modifier]
    """Modifiers to every hit roll (the Sergeant's +1 comes on top, for its own batch)."""
    relentless: bool
    """Relentless applies (Hold action, Shooting Phase)."""


def _fire(state: GameState, dice: Dice, v: _Volley) -> list[Event]:
    """The Shooting Sequence for one weapon (rulebook "The Shooting Sequence"): attacks, hits, blocks, casualties."""
    shooter, target, weapon = v.shooter, v.target, v.weapon
    label = f"{shooter.name} {v.verb} {weapon.name} at {target.name}"
    events: list[Event] = []
    # 1. Determine attacks (the Sergeant's rolled as a batch of their own, with +1).
    sarge = sergeant_index(shooter)
    sarge_fires = sarge is not None and sarge in v.models
    attacks = len(v.models) * weapon.attacks
    events.append(Event("shoot", f"{label}: {len(v.models)} model{'s' if len(v.models) != 1 else ''}, "
                                 f"{attacks} attack{'s' if attacks != 1 else ''}",
                        {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "models": list(v.models),
                         "attacks": attacks, "stand_and_shoot": v.verb != "shoot"}))
    if target.removed is not None:
        events.append(Event("info", f"{label}: the target is already destroyed", {"unit": shooter.id}))
        return events
    # 2. Roll to hit.
    quality = quality_for(shooter, weapon)
    batches = [(attacks - (weapon.attacks if sarge_fires else 0), v.to_hit, "to hit")]
    if sarge_fires:
        batches.append((weapon.attacks, [*v.to_hit, Modifier("Sergeant", 1)], "to hit (Sergeant)"))
    hits = sixes = 0
    for count, mods, what in batches:
        if count <= 0:
            continue
        hr = roll_to_hit(dice, count, quality, mods, f"{label}: {what}")
        events += hr.events
        hits += hr.hits
        sixes += hr.sixes
    rending = sixes if _has(shooter, weapon, "Rending") else 0
    extra = sixes if v.relentless and _has(shooter, weapon, "Relentless") else 0
    blast = min(_value(weapon, "Blast"), target.models) if weapon.has("Blast") else 1
    normal_hits = (hits - rending + extra) * blast
    rending_hits = rending * blast
    total_hits = normal_hits + rending_hits
    notes = []
    if extra:
        notes.append(f"Relentless +{extra}")
    if blast > 1:
        notes.append(f"Blast x{blast}")
    events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}"
                                + (f" ({', '.join(notes)})" if notes else ""),
                        {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "hits": total_hits}))
    if total_hits == 0:
        return events
    # 3. Roll to block.
    defense = target.profile.defense
    wounds = 0
    block_batches = [(normal_hits, defense_modifiers(state, shooter, target, weapon, v.models), "Defense")]
    if rending_hits:
        rending_mods = defense_modifiers(state, shooter, target, weapon, v.models, max(weapon.ap, 4))
        block_batches.append((rending_hits, rending_mods, "Defense against Rending 6s"))
    poison = _has(shooter, weapon, "Poison")
    rerolls: list[tuple[int, list[Modifier]]] = []
    for count, mods, what in block_batches:
        if count <= 0:
            continue
        br = roll_to_block(dice, count, defense, mods, f"{label}: {what}")
        events += br.events
        wounds += br.wounds
        if poison:
            rerolls.append((sum(1 for d in br.dice if d == 6), mods))
    for count, mods in rerolls:  # rulebook "Poison": unmodified Defense 6s are re-rolled (once)
        if count:
            br = roll_to_block(dice, count, defense, mods, f"{label}: Defense re-rolls of 6 (Poison)")
            events += br.events
            wounds += br.wounds
    # Regeneration: each wound is ignored on 5+, unless the weapon has Poison or Rending.
    if wounds and target.has("Regeneration") and not poison and not _has(shooter, weapon, "Rending"):
        rolls = dice.d6(wounds, f"{label}: Regeneration")
        saved = sum(1 for d in rolls if d >= 5)
        events.append(roll_event(f"{label}: Regeneration", rolls, 5, 0, saved, unit=target.id))
        wounds -= saved
    # 4. Remove casualties.
    if wounds and weapon.has("Deadly"):
        wounds = deadly_wounds(target, wounds, _value(weapon, "Deadly"))
    events += apply_wounds(state, target, wounds, f"{weapon.name} of {shooter.name}")
    return events


# --- the Shooting action -------------------------------------------------------------------------------------


def _illegal(rule: str, message: str, unit: Unit) -> IllegalAction:
    return IllegalAction(rule, message, unit.pose.xy if unit.pose is not None else None)


def _range_text(weapon: Weapon) -> str:
    return f'{weapon.range:g}"' if weapon.range is not None else "any range"


def shoot(state: GameState, dice: Dice, action: Shoot) -> list[Event]:
    """Fire one weapon group of ``action.unit`` at ``action.target`` (rulebook "Shooting").

    Checks (raising ``IllegalAction`` naming the rule): the unit may shoot at all (``shooting_restriction``),
    the weapon group (``weapon_group``), at most two different targets per phase ("Multiple Weapon Types"),
    the target is an enemy unit on the table not in melee ("Picking Targets"), and models in the shooting rows
    see it with the weapons in range ("Who Can Shoot"): with ``weapons`` None, the unfired weapons that reach
    the target fire and the others stay unfired; every named weapon must reach it. Whose turn and phase it is
    are checked by the caller.

    Then each weapon goes through the Shooting Sequence (see the module docstring for the order of the dice)
    and the group is recorded in ``shot_targets`` and ``weapons_fired``.
    """
    try:
        unit = state.unit(action.unit)
        target = state.unit(action.target)
    except KeyError as e:
        raise IllegalAction("Picking Targets", str(e.args[0])) from None
    restriction = shooting_restriction(unit)
    if restriction is not None:
        raise _illegal(*restriction, unit)
    group = weapon_group(unit, action.weapons)
    if not group:
        raise _illegal("Multiple Weapon Types", f"{unit.name} has fired all its ranged weapons this phase", unit)
    if target.id not in unit.shot_targets and len(unit.shot_targets) >= MAX_TARGETS:
        raise _illegal("Multiple Weapon Types", f"{unit.name} already fired at {MAX_TARGETS} targets "
                                                f"({', '.join(unit.shot_targets)}) this phase", unit)
    problem = _target_problem(state, unit, target)
    if problem is not None:
        raise _illegal("Picking Targets", problem, unit)
    rows = shooting_rows(unit)
    firing: list[tuple[Weapon, list[int]]] = []
    for weapon in group:
        models = _shooters(state, unit, target, rows, weapon.range)
        if models:
            firing.append((weapon, models))
        elif action.weapons is not None:
            raise _illegal("Who Can Shoot", f"no model in the {'front row' if rows == 1 else 'two front rows'} "
                                            f"of {unit.name} sees {target.name} within {weapon.name} range "
                                            f"({_range_text(weapon)})", unit)
    if not firing:
        raise _illegal("Picking Targets", f"no model in the {'front row' if rows == 1 else 'two front rows'} of "
                                          f"{unit.name} sees {target.name} within range of its weapons", unit)
    relentless = unit.move_action in (None, MoveAction.HOLD)
    events: list[Event] = []
    by_weapon = dict((w.name, m) for w, m in firing)
    for weapon in _fire_order(unit, tuple(w for w, _ in firing)):
        volley = _Volley(unit, target, weapon, by_weapon[weapon.name], "shoot",
                         to_hit_modifiers(state, unit, target, weapon), relentless)
        events += _fire(state, dice, volley)
        unit.weapons_fired.add(weapon.name)
    if target.id not in unit.shot_targets:
        unit.shot_targets.append(target.id)
    return events


# --- Stand and Shoot -----------------------------------------------------------------------------------------


def can_stand_and_shoot(state: GameState, unit_id: str, charger_id: str) -> str | None:
    """None if ``unit_id`` may Stand and Shoot against ``charger_id``, else the reason (rulebook "Charge
    Reactions"): not Shaken, not already in melee, not Entrenched, has ranged weapons (artillery cannot; no
    profile marks artillery yet), the charger is at least 6" away before its charge move, and a model in the
    front row sees it. Only one reaction per charged unit may be Stand and Shoot: that is the caller's check.
    """
    unit = state.unit(unit_id)
    charger = state.unit(charger_id)
    if not unit.on_table or not charger.on_table:
        return f"{unit.name if not unit.on_table else charger.name} is not on the table"
    if unit.shaken:
        return f"{unit.name} is Shaken"
    if unit.engaged:
        return f"{unit.name} is already in melee"
    if unit.has("Entrenched"):
        return f"{unit.name} is Entrenched"
    if not unit.profile.ranged_weapons:
        return f"{unit.name} has no ranged weapons"
    distance = state.scene.distance(unit.id, charger.id)
    if distance < STAND_AND_SHOOT_MIN_DISTANCE:
        return f'{charger.name} is {distance:.1f}" away, closer than 6"'
    if not _shooters(state, unit, charger, 1, None):
        return f"no model in the front row of {unit.name} can see {charger.name}"
    return None


def stand_and_shoot(state: GameState, dice: Dice, unit_id: str, charger_id: str) -> list[Event]:
    """The Stand and Shoot charge reaction (rulebook "Charge Reactions"): before the charge move, the models of
    the front row that see the charger fire all their ranged weapons at it, at any range, with -1 to hit.

    Raises ``IllegalAction("Stand and Shoot", reason)`` if ``can_stand_and_shoot`` refuses. Relentless does
    not apply (it is not a Hold action) and the unit's ``weapons_fired`` is left alone (it is not its Shooting
    Phase).
    """
    reason = can_stand_and_shoot(state, unit_id, charger_id)
    unit = state.unit(unit_id)
    if reason is not None:
        raise _illegal("Stand and Shoot", reason, unit)
    charger = state.unit(charger_id)
    models = _shooters(state, unit, charger, 1, None)
    events: list[Event] = []
    for weapon in _fire_order(unit, unit.profile.ranged_weapons):
        volley = _Volley(unit, charger, weapon, models, "stand and shoot",
                         to_hit_modifiers(state, unit, charger, weapon, stand_and_shoot=True), False)
        events += _fire(state, dice, volley)
    return events


# --- 4.3 morale tests ----------------------------------------------------------------------------------------


def needs_shooting_morale_test(unit: Unit) -> bool:
    """Rulebook "General Morale Tests": the unit took wounds this turn, is left at half or less of its starting
    size (Tough value for a single model), is on the table and not in melee. A unit already Shaken takes no test:
    it would fail and stay Shaken, and must not lose its rally for it (docs/rulings.md)."""
    return (unit.on_table and unit.lost_models_this_turn and not unit.engaged and not unit.shaken
            and at_half_strength(unit))


def shooting_morale_tests(state: GameState, dice: Dice, player: int) -> list[Event]:
    """Turn sequence 4.3 (rulebook "General Morale Tests"): at the end of ``player``'s Shooting Phase every unit,
    of either player, that ``needs_shooting_morale_test`` takes a morale test and is Shaken if it fails.

    Wounds from shooting hit the other player's units, but the active player's own units can have taken wounds
    this turn too (Stand and Shoot against a charge that fell short, dangerous terrain, spells). Order: the
    other player's units, then ``player``'s, each in scenario order.
    """
    events: list[Event] = []
    order = [u for u in state.units.values() if u.player != player] + \
            [u for u in state.units.values() if u.player == player]
    for unit in order:
        if not needs_shooting_morale_test(unit):
            continue
        result = morale_test(dice, unit, [], "half strength after wounds this turn")
        events += result.events
        if not result.passed:
            events.append(make_shaken(unit))
    return events
