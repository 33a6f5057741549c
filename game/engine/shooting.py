"""Shooting (rulebook "Shooting": Picking Targets, Who Can Shoot, Multiple Weapon Types, The Shooting Sequence),
Stand and Shoot (rulebook "Charge Reactions"), and the morale tests at the end of the Shooting Phase (rulebook
"General Morale Tests", turn sequence 4.3).

Weapon and unit special rules that change a shot are applied here and coded once in ``special_rules``: AP(X),
Stealth, Entrenched, Indirect (no line of sight needed, no cover from obstructions, -1 after moving), Relentless,
Reliable, Sniper (Quality 2+, fired first, may pick a joined hero: ``Shoot.model``), Blast(X), Deadly(X), Limited,
Poison, Rending and Regeneration, and the Sergeant's +1 to hit (rulebook "Command Groups"). A joined hero shoots
with its unit: its own ranged weapons, at its own Quality, when it stands among the models that can fire
(``Arm``).

Order of the dice for one weapon group (what a fixed dice sequence must follow): weapons in the order Sniper
weapons, Deadly weapons, then the rest (profile order within each, the unit's before its hero's); for each
weapon: the hit rolls of every shooting model but the Sergeant, then the Sergeant's hit rolls, then the Defense
rolls (hits without Rending AP first, then the Rending 6s), then the Poison re-rolls of 6, then the Regeneration
rolls. Casualties of one weapon are removed before the next weapon rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.engine.actions import Shoot
from game.engine.attacks import Modifier, roll_to_hit
from game.engine.casualties import apply_wounds, at_half_strength
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.morale import make_shaken, morale_test
from game.engine.profiles import Profile, Weapon
from game.engine.special_rules import (
    RENDING_AP,
    ap_modifier,
    artillery_modifiers,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_first,
    deadly_wounds,
    defense_profile,
    entrenched_modifier,
    ignores_cover,
    indirect,
    indirect_modifier,
    limited_available,
    picks_model,
    poison_multiplied,
    relentless_extra_hits,
    rending_hits,
    sergeant_modifier,
    stealth_modifier,
    surge_extra_hits,
    unstoppable,
    use_limited,
    weapon_value,
)
from game.engine.spell_effects import effect_modifiers
from game.engine.state import GameState, MoveAction, Unit
from geometry.formation import hero_index
from geometry.formation import sergeant_index as formation_sergeant

ALL_ROWS = 1 << 16
"""AoF:R 2.16 "Who Can Shoot": every model of the unit may fire (``shoot(..., all_rows=True)``)."""

MAX_TARGETS = 2
"""Rulebook "Multiple Weapon Types": a unit may fire at up to two different targets per Shooting Phase."""

STAND_AND_SHOOT_MIN_DISTANCE = 6.0
"""Rulebook "Charge Reactions": the charger must be at least 6" away to Stand and Shoot."""

STEALTH_ENTRENCHED_DISTANCE = 9.0
"""Rulebook "Stealth", "Entrenched": the to-hit penalties apply when shooting from over 9" away
(``special_rules.STEALTH_ENTRENCHED_DISTANCE``)."""

RELENTLESS_FAR = 9.0
"""The AoF:R quick rules' "Relentless": "When this model shoots at enemies over 9" away"."""

SERGEANT = "sergeant"
"""The command group upgrade that gets +1 to hit (rulebook "Command Groups")."""


@dataclass(frozen=True, slots=True)
class ShotRules:
    """Where a ruleset's book gives a shooting special rule another meaning than AoWFBR 1.4's (``Ruleset.shot_rules``;
    the defaults are AoWFBR's)."""

    stealth_range: float | None = STEALTH_ENTRENCHED_DISTANCE
    """Stealth's -1 to hit applies from over this distance (AoWFBR "Stealth": 9"); None: at any distance (AoF:R 2.16
    "Stealth": "Enemies targeting this unit get -1 to hit when shooting at it")."""
    poison_multiplier: int | None = None
    """None: AoWFBR "Poison" (the target re-rolls Defense 6s, no Regeneration). X: AoF:R 2.16 "Poison" (each
    unmodified 6 to hit is multiplied by X, here 3; Regeneration still applies)."""
    artillery_defense: int | None = None
    """AoF:R 2.16 "Artillery": models with it count as having this Defense (2+) against all shooting attacks; None:
    the rule is not played (AoWFBR refuses it at load)."""
    sergeant_sixes: bool = False
    """The Sergeant's unmodified 6s to hit deal 1 extra hit instead of its +1 to hit (the AoF:R quick rules)."""
    relentless_far: bool = False
    """Relentless "When this model shoots at enemies over 9\" away" (unit to unit, the AoF:R quick rules) instead of
    after a Hold."""
    rending_plus: bool = False
    """Rending 6s get AP(+4) on top of the weapon's AP (the AoF:R quick rules' "Rendering"); False: AP(4), or the
    weapon's if higher."""
    artillery_to_hit: bool = False
    """The AoF:R quick rules' "Artillery": +1 to hit shooting at enemies over 9" away, -2 to hit for enemies shooting
    at it from over 9" (``special_rules.artillery_modifiers``)."""


AOWFBR_SHOTS = ShotRules()
"""AoWFBR 1.4's meanings (the default of every function here)."""


# --- who may shoot ---------------------------------------------------------------------------------------------


def shooting_restriction(unit: Unit) -> tuple[str, str] | None:
    """Why ``unit`` may not shoot at all this Shooting Phase, as (rule, reason); None when it may.

    Rulebook "Shaken Units" (Shaken units stay idle; fleeing units are Shaken), "Rushing" and "Charging" (the
    unit may not shoot; reported under "Who Can Shoot"), and units locked in melee, which fight instead of
    shooting (docs/rulings.md).
    """
    if unit.embarked_in is not None and unit.removed is None:  # rulebook "Transport(X)"
        return ("Transport", f"{unit.name} is inside a Transport: units inside have no line of sight to the "
                "outside, and may target only units inside and the Transport itself, never an enemy")
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
    if not ranged_arms(unit):
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


@dataclass(frozen=True, slots=True)
class Arm:
    """A ranged weapon carried by one kind of model of the shooting unit: its own models or its joined hero
    (rulebook "Hero": the hero fights as one of the unit's models, with its own weapons and Quality)."""

    weapon: Weapon
    """The weapon."""
    profile: Profile
    """The profile of the models carrying it (Quality and special rules)."""
    hero: bool = False
    """Carried by the joined hero."""

    @property
    def name(self) -> str:
        """The weapon's name (weapon groups are named by weapon)."""
        return self.weapon.name


def ranged_arms(unit: Unit) -> list[Arm]:
    """Every ranged weapon the models still in ``unit`` carry: the unit's own (while any of its models are left),
    then its joined hero's."""
    out = [Arm(w, unit.profile) for w in unit.profile.ranged_weapons] if unit.regulars > 0 else []
    if unit.hero_alive:
        assert unit.hero is not None
        out += [Arm(w, unit.hero.profile, True) for w in unit.hero.profile.ranged_weapons]
    return out


def _fire_order(arms: list[Arm]) -> list[Arm]:
    """Rulebook "Sniper" (and the AoF:R quick rules' "Takedown": resolved before other weapons) and "Deadly(X)"
    (resolved first); else profile order, the unit's weapons before its hero's."""
    return sorted(arms, key=lambda a: (not picks_model(a.profile, a.weapon), not deadly_first(a.weapon)))


def weapon_group(unit: Unit, weapons: tuple[str, ...] | None) -> tuple[Arm, ...]:
    """The weapons of one weapon group (rulebook "Multiple Weapon Types").

    ``None`` means every ranged weapon of the unit (and its joined hero) not yet fired this phase and not a
    Limited weapon already used (possibly none). Named weapons must be ranged weapons of the unit or its hero,
    named once, not fired yet this phase (each weapon fires once) and not used up (rulebook "Limited"); a name
    carried by both the unit and its hero fires from both. Otherwise raises ``IllegalAction``.
    """
    arms = ranged_arms(unit)
    if weapons is None:
        return tuple(a for a in arms if a.name not in unit.weapons_fired and limited_available(unit, a.weapon))
    if not weapons:
        raise IllegalAction("Multiple Weapon Types", f"{unit.name}: a weapon group needs at least one weapon")
    out: list[Arm] = []
    for i, name in enumerate(weapons):
        mine = [a for a in arms if a.name == name]
        if not mine:
            melee = [w for p in unit.model_profiles() for w in p.melee_weapons if w.name == name]
            if melee:
                raise IllegalAction("Weapons", f"{name} of {unit.name} is a melee weapon and cannot shoot")
            known = ", ".join(dict.fromkeys(a.name for a in arms)) or "none"
            raise IllegalAction("Multiple Weapon Types",
                                f"{unit.name} has no weapon {name!r} (ranged weapons: {known})")
        if name in weapons[:i]:
            raise IllegalAction("Multiple Weapon Types", f"{name} is named twice in one weapon group")
        if name in unit.weapons_fired:
            raise IllegalAction("Multiple Weapon Types",
                                f"{unit.name} already fired {name} this phase; each weapon fires once")
        if not limited_available(unit, mine[0].weapon):
            raise IllegalAction("Limited", f"{name} is Limited and {unit.name} has already used it this game")
        out += mine
    return tuple(out)


def to_hit_modifiers(state: GameState, shooter: Unit, target: Unit, weapon: Weapon,
                     stand_and_shoot: bool = False, *, profile: Profile | None = None,
                     hero_target: bool = False, rules: ShotRules = AOWFBR_SHOTS) -> list[Modifier]:
    """Modifiers to the hit rolls of ``weapon`` carried by ``profile`` models (default the unit's own); the
    Sergeant's +1 is added per model, see ``_fire``.

    Rulebook "Charge Reactions" (Stand and Shoot -1), "Stealth" (-1 from over 9" when every model of the
    target has it), "Entrenched" (-2 from over 9" while the target has not moved since its last activation
    began), "Indirect" (-1 after moving, including pivoting). The 9" is measured between the units (closest
    models). ``hero_target``: a Sniper shooting the target's joined hero as a unit of one (its own rules).
    ``rules``: the book's meanings (AoF:R 2.16's Stealth at any distance; the AoF:R quick rules' Artillery).
    """
    mods: list[Modifier] = []
    if stand_and_shoot:
        mods.append(Modifier("Stand and Shoot", -1))
    for mod in (stealth_modifier(state, shooter, target, hero_target, rules.stealth_range),
                entrenched_modifier(state, shooter, target, hero_target),
                indirect_modifier(profile or shooter.profile, weapon, shooter, stand_and_shoot)):
        if mod is not None:
            mods.append(mod)
    if rules.artillery_to_hit:      # the AoF:R quick rules' "Artillery"
        mods += artillery_modifiers(state, shooter, target, profile)
    mods += effect_modifiers(shooter, "to_hit")  # spells (game.engine.magic)
    return mods


def quality_for(shooter: Unit, weapon: Weapon) -> int:
    """The Quality the hit rolls of the unit's own models need: the unit's, or 2+ with Reliable or Sniper
    (``special_rules.attack_quality``)."""
    return attack_quality(shooter.profile, weapon, True)[0]


def defense_modifiers(state: GameState, shooter: Unit, target: Unit, weapon: Weapon, models: list[int],
                      ap: int | None = None, *, hero_target: bool = False,
                      indirect_fire: bool = False, cover: bool = True) -> list[Modifier]:
    """Modifiers to the target's Defense rolls against ``weapon`` fired by the shooter's ``models``.

    Rulebook "AP(X)": -X (``ap`` overrides the weapon's X, for Rending 6s). Rulebook "Cover Terrain": +1 when
    the target is in cover from the firing models (``Scene.in_cover``); "Blast(X)" ignores cover; "Indirect"
    (``indirect_fire``) ignores cover from sight obstructions; a Sniper's unit of one (``hero_target``) is judged
    alone. ``cover`` False: cover does not count here (AoF:R 2.16 makes it a -1 to hit: ``shoot``).
    """
    mods: list[Modifier] = []
    x = weapon.ap if ap is None else ap
    apm = ap_modifier(x)
    if apm is not None:
        mods.append(apm)
    target_model = hero_index(target.formation) if hero_target else None
    if cover and not ignores_cover(weapon) and state.scene.in_cover(shooter.id, target.id, models, target_model,
                                                          not indirect_fire):
        mods.append(Modifier("Cover", 1))
    mods += effect_modifiers(target, "defense")  # spells (game.engine.magic)
    return mods


def volley_modifiers(state: GameState, shooter: Unit, target: Unit, arm: Arm, models: list[int], *,
                     hero_target: bool = False, cover_to_hit: bool = False, rules: ShotRules = AOWFBR_SHOTS
                     ) -> tuple[list[Modifier], list[Modifier]]:
    """The modifiers to the hit rolls and to the target's Defense rolls of ``arm`` fired by ``models``: ``shoot``'s
    and the window's preview alike. ``cover_to_hit`` (AoF:R 2.16 "Cover Terrain"): cover is -1 to hit instead of +1
    to Defense."""
    to_hit = volley_to_hit(state, shooter, target, arm, models, hero_target=hero_target, cover_to_hit=cover_to_hit,
                           rules=rules)
    defense = defense_modifiers(state, shooter, target, arm.weapon, models, hero_target=hero_target,
                                indirect_fire=indirect(arm.profile, arm.weapon), cover=not cover_to_hit)
    return to_hit, defense


def volley_to_hit(state: GameState, shooter: Unit, target: Unit, arm: Arm, models: list[int], *,
                  hero_target: bool = False, cover_to_hit: bool = False, rules: ShotRules = AOWFBR_SHOTS
                  ) -> list[Modifier]:
    """The modifiers to the hit rolls of ``arm`` fired by ``models`` (``to_hit_modifiers``; with ``cover_to_hit``,
    AoF:R 2.16 "Cover Terrain": -1 when the target is in cover from them)."""
    to_hit = to_hit_modifiers(state, shooter, target, arm.weapon, profile=arm.profile, hero_target=hero_target,
                              rules=rules)
    if cover_to_hit and not ignores_cover(arm.weapon) and state.scene.in_cover(
            shooter.id, target.id, models, hero_index(target.formation) if hero_target else None,
            not indirect(arm.profile, arm.weapon)):
        to_hit.append(Modifier("Cover", -1))
    if unstoppable(arm.profile, arm.weapon):      # the AoF:R quick rules' "Unstoppable"
        to_hit = [m for m in to_hit if m.value >= 0]
    return to_hit


def sergeant_index(unit: Unit) -> int | None:
    """Index (``geometry.formation.model_centres`` order) of the Sergeant: the middle model of the front row (next
    to a joined hero standing there; ``geometry.formation.sergeant_index``).

    None if the unit has no Sergeant or none of its own models is left (docs/rulings.md: the command group stands
    in the middle of the front row and casualties are taken from the back, so the Sergeant is among the last
    models left, before the hero).
    """
    if SERGEANT not in unit.upgrades or unit.regulars <= 0:
        return None
    return formation_sergeant(unit.formation)


# --- targets -----------------------------------------------------------------------------------------------------


def _shooters(state: GameState, shooter: Unit, target: Unit, rows: int, max_range: float | None,
              arm: Arm | None = None, target_model: int | None = None) -> list[int]:
    """Models of ``shooter`` in its first ``rows`` rows that may fire ``arm`` (None: any weapon) at ``target``
    (rulebook "Who Can Shoot"): its hero for the hero's weapons, its other models for theirs.

    ``max_range`` None: range does not matter (Stand and Shoot). Indirect weapons need no line of sight
    (``Scene.models_in_range``). ``target_model``: a Sniper's pick (sight and range to that model only).
    """
    if rows <= 0:
        return []
    if arm is not None and indirect(arm.profile, arm.weapon):
        models = state.scene.models_in_range(shooter.id, target.id, rows, max_range, target_model)
    else:
        models = state.scene.models_with_sight(shooter.id, target.id, rows, max_range, target_model)
    if arm is None:
        return models
    hero = hero_index(shooter.formation)
    return [m for m in models if (m == hero) == arm.hero]


def _target_problem(state: GameState, shooter: Unit, target: Unit) -> str | None:
    """Why ``target`` is not an enemy unit that may be shot at, ignoring sight and range; None if it may."""
    if target.player == shooter.player:
        return f"{target.name} is not an enemy unit"
    if target.embarked_in is not None and target.removed is None:  # rulebook "Transport(X)"
        return f"{target.name} is inside a Transport: units outside have no line of sight to the inside"
    if not target.on_table:
        return f"{target.name} is not on the table"
    if target.engaged:
        return f"{target.name} is in melee and may not be shot at"
    return None


def valid_targets(state: GameState, unit_id: str, weapons: tuple[str, ...] | None = None, *,
                  all_rows: bool = False, nearest: bool = False) -> list[str]:
    """Enemy units ``unit_id`` may shoot at now (rulebook "Picking Targets"), scenario order.

    A target is an enemy unit on the table, not in melee, such that at least one model of the shooting rows
    sees one of its models in its front arc (Indirect weapons: has it in its front arc) and has a weapon of the
    group (``weapons``; None = every ranged weapon not fired yet) within range of it. Once a unit has shot at two
    targets, only those remain (rulebook "Multiple Weapon Types"). Empty if the unit may not shoot. Raises
    ``IllegalAction`` for bad weapon names. ``all_rows``: every model may fire (AoF:R 2.16 "Who Can Shoot").
    ``nearest``: only the nearest valid target (closest distance, then id), found nearest first so that the sight of
    the farther ones is never worked out (a player's quick pick, or whether the unit has any target at all).
    """
    unit = state.unit(unit_id)
    rows = shooting_rows(unit)
    if all_rows and rows:
        rows = ALL_ROWS
    group = weapon_group(unit, weapons)
    if rows == 0 or not group:
        return []
    enemies = [t for t in state.enemies_of(unit.player) if _target_problem(state, unit, t) is None
               and (len(unit.shot_targets) < MAX_TARGETS or t.id in unit.shot_targets)]
    if nearest and len(enemies) > 1:
        gaps = state.scene.distances(unit_id, [t.id for t in enemies])
        enemies = [t for _, t in sorted(zip(gaps, enemies, strict=True), key=lambda gt: (gt[0], gt[1].id))]
    out: list[str] = []
    for target in enemies:
        if any(_shooters(state, unit, target, rows, arm.weapon.range, arm) for arm in group):
            out.append(target.id)
            if nearest:
                break
    return out


# --- resolving a weapon ------------------------------------------------------------------------------------------


@dataclass
class Volley:
    """One weapon fired by some models of a unit at one target."""

    shooter: Unit
    """The shooting unit."""
    target: Unit
    """The unit shot at."""
    arm: Arm
    """The weapon fired and the models' profile."""
    models: list[int]
    """Indices of the models firing it (``model_centres`` order)."""
    verb: str
    """'shoot' or 'stand and shoot', for the event texts."""
    to_hit: list[Modifier]
    """Modifiers to every hit roll (the Sergeant's +1 comes on top, for its own batch)."""
    relentless: bool
    """Relentless applies (Hold action, Shooting Phase)."""
    hero_target: bool = False
    """A Sniper shooting the target's joined hero as a unit of one (rulebook "Sniper")."""
    cover_defense: bool = True
    """Cover gives +1 to Defense rolls (AoWFBR); False when it was a -1 to hit instead (AoF:R 2.16)."""
    rules: ShotRules = AOWFBR_SHOTS
    """The book's meanings of the shooting rules (``ShotRules``)."""


def volley_defense(state: GameState, v: Volley, rending: bool = False
                   ) -> tuple[Profile, list[Modifier], list[Modifier] | None]:
    """Who rolls Defense against ``v`` and with what (rulebook "Roll to Block", "Hero", "Rending"): (the profile
    whose Defense is rolled, modifiers against ordinary hits, modifiers against Rending 6s or None when
    ``rending`` is False). Pure: used by ``_fire`` and by the odds advisor (``game.odds``)."""
    target, weapon = v.target, v.arm.weapon
    hero_target = v.hero_target and target.hero_alive
    defender = target.hero.profile if hero_target and target.hero is not None else defense_profile(target)
    if v.rules.artillery_defense is not None and defender.has("Artillery") \
            and defender.defense > v.rules.artillery_defense:
        # AoF:R 2.16 "Artillery": "count as having Defense 2+ against all shooting attacks"
        defender = replace(defender, name=f"{defender.name}, Artillery", defense=v.rules.artillery_defense)
    indirect_fire = indirect(v.arm.profile, weapon)
    normal = defense_modifiers(state, v.shooter, target, weapon, v.models, hero_target=hero_target,
                               indirect_fire=indirect_fire, cover=v.cover_defense)
    rend_ap = weapon.ap + RENDING_AP if v.rules.rending_plus else max(weapon.ap, RENDING_AP)
    rend = (defense_modifiers(state, v.shooter, target, weapon, v.models, rend_ap,
                              hero_target=hero_target, indirect_fire=indirect_fire, cover=v.cover_defense)
            if rending else None)
    return defender, normal, rend


def _fire(state: GameState, dice: Dice, v: Volley) -> list[Event]:
    """The Shooting Sequence for one weapon (rulebook "The Shooting Sequence"): attacks, hits, blocks, casualties."""
    shooter, target, weapon, prof = v.shooter, v.target, v.arm.weapon, v.arm.profile
    hero_target = v.hero_target and target.hero_alive
    victim = target.hero.name if hero_target and target.hero is not None else target.name
    who = f"{shooter.hero.name} with {shooter.name}" if v.arm.hero and shooter.hero is not None else shooter.name
    label = f"{who} {v.verb} {weapon.name} at {victim}"
    events: list[Event] = []
    # 1. Determine attacks (the Sergeant's rolled as a batch of their own, with +1).
    sarge = sergeant_index(shooter) if not v.arm.hero else None
    sarge_fires = sarge is not None and sarge in v.models
    attacks = len(v.models) * weapon.attacks
    events.append(Event("shoot", f"{label}: {len(v.models)} model{'s' if len(v.models) != 1 else ''}, "
                                 f"{attacks} attack{'s' if attacks != 1 else ''}",
                        {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "models": list(v.models),
                         "attacks": attacks, "stand_and_shoot": v.verb != "shoot", "hero": v.arm.hero,
                         "target_hero": target.hero.id if hero_target and target.hero is not None else None}))
    if target.removed is not None or (v.hero_target and not hero_target):
        gone = "the target is already destroyed" if target.removed is not None else "the hero is already dead"
        events.append(Event("info", f"{label}: {gone}", {"unit": shooter.id}))
        return events
    # 2. Roll to hit.
    quality, need = attack_quality(prof, weapon, True)
    batches = [(attacks - (weapon.attacks if sarge_fires else 0), v.to_hit, "to hit")]
    if sarge_fires:
        batches.append((weapon.attacks, v.to_hit if v.rules.sergeant_sixes else [*v.to_hit, sergeant_modifier()],
                        "to hit (Sergeant)"))
    hits = sixes = sarge_extra = 0
    for count, mods, what in batches:
        if count <= 0:
            continue
        hr = roll_to_hit(dice, count, quality, mods, f"{label}: {what}", need_text=need)
        events += hr.events
        hits += hr.hits
        sixes += hr.sixes
        if v.rules.sergeant_sixes and what.endswith("(Sergeant)"):
            sarge_extra = hr.sixes      # the AoF:R quick rules' Sergeant: its 6s deal 1 extra hit
    rending = rending_hits(prof, weapon, sixes)
    extra = relentless_extra_hits(prof, weapon, sixes, v.relentless) + surge_extra_hits(prof, weapon, sixes)
    poison = poison_multiplied(prof, weapon, sixes, v.rules.poison_multiplier)
    blast = blast_multiplier(weapon, 1 if hero_target else target.models)
    normal_hits = (hits - rending + extra + sarge_extra + (0 if rending else poison)) * blast
    rending_hits_ = (rending + (poison if rending else 0)) * blast
    total_hits = normal_hits + rending_hits_
    notes = []
    if extra:
        notes.append(f"{'Surge' if weapon.has('Surge') or prof.has('Surge') else 'Relentless'} +{extra}")
    if sarge_extra:
        notes.append(f"Sergeant +{sarge_extra}")
    if poison:
        notes.append(f"Poison 6s x{v.rules.poison_multiplier}: +{poison}")
    if blast > 1:
        notes.append(f"Blast x{blast}")
    events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}"
                                + (f" ({', '.join(notes)})" if notes else ""),
                        {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "hits": total_hits}))
    if total_hits == 0:
        return events
    # 3. Roll to block.
    defender, normal_mods, rending_mods = volley_defense(state, v, rending=bool(rending_hits_))
    defense = defender.defense
    need_block = f"Defense {defense}+" + (f" ({defender.name})" if defender is not target.profile else "")
    block_batches = [(normal_hits, normal_mods, "Defense")]
    if rending_hits_ and rending_mods is not None:
        block_batches.append((rending_hits_, rending_mods, "Defense against Rending 6s"))
    wounds, evs = block_hits(dice, block_batches, defender, prof, weapon, lambda what: f"{label}: {what}", label,
                             need_block, target.id, aowfbr_poison=v.rules.poison_multiplier is None)
    events += evs
    # 4. Remove casualties.
    if wounds and weapon.has("Deadly"):
        wounds = deadly_wounds(target, wounds, weapon_value(weapon, "Deadly"), hero_target)
    events += apply_wounds(state, target, wounds, f"{weapon.name} of {who}", dice, hero_only=hero_target)
    return events


# --- the Shooting action -------------------------------------------------------------------------------------


def _illegal(rule: str, message: str, unit: Unit) -> IllegalAction:
    return IllegalAction(rule, message, unit.pose.xy if unit.pose is not None else None)


def _rows_text(rows: int) -> str:
    return "" if rows >= ALL_ROWS else f" in the {'front row' if rows == 1 else 'two front rows'}"


def _range_text(weapon: Weapon) -> str:
    return f'{weapon.range:g}"' if weapon.range is not None else "any range"


def _sniper_pick(target: Unit, model: str | None, unit: Unit) -> int | None:
    """The model a Sniper picks (rulebook "Sniper"): the index of the target's living joined hero named
    ``model``; None when no model is picked. Raises ``IllegalAction`` for anything else."""
    if model is None:
        return None
    hero = target.hero
    if hero is None or hero.id != model or not target.hero_alive:
        raise _illegal("Sniper", f"{model!r} is not a living hero of {target.name}; a Sniper (or Takedown) weapon "
                                 f"may pick a hero joined to its target", unit)
    return hero_index(target.formation)


def plan_shot(state: GameState, action: Shoot, *, all_rows: bool = False) -> tuple[list[tuple[Arm, list[int]]], bool]:
    """What ``action`` would fire, without rolling or changing anything (rulebook "Shooting"): the weapons in fire
    order, each with the models firing it, and whether a Sniper picked the target's hero (``action.model``).

    Checks (raising ``IllegalAction`` naming the rule): the unit may shoot at all (``shooting_restriction``),
    the weapon group (``weapon_group``), at most two different targets per phase ("Multiple Weapon Types"),
    the target is an enemy unit on the table not in melee ("Picking Targets"), and models in the shooting rows
    see it with the weapons in range ("Who Can Shoot"; Indirect weapons need no sight): with ``weapons`` None,
    the unfired weapons that reach the target fire and the others stay unfired; every named weapon must reach
    it. With ``model`` (rulebook "Sniper") only Sniper weapons fire, at the target's joined hero as a unit of one.
    AoF:R 2.16 "Who Can Shoot": ``all_rows`` lets every model fire.
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
    pick = _sniper_pick(target, action.model, unit)
    if pick is not None:
        not_snipers = [a.name for a in group if not picks_model(a.profile, a.weapon)]
        if action.weapons is not None and not_snipers:
            raise _illegal("Sniper", f"only Sniper or Takedown weapons may pick a model ({', '.join(not_snipers)} "
                                     "may not)", unit)
        group = tuple(a for a in group if picks_model(a.profile, a.weapon))
        if not group:
            raise _illegal("Sniper", f"{unit.name} has no Sniper or Takedown weapon left to pick a model with", unit)
    rows = shooting_rows(unit)
    if all_rows and rows:
        rows = ALL_ROWS
    firing: list[tuple[Arm, list[int]]] = []
    for arm in group:
        models = _shooters(state, unit, target, rows, arm.weapon.range, arm, pick)
        if models:
            firing.append((arm, models))
        elif action.weapons is not None and not any(a.name == arm.name and a is not arm for a in group):
            sees = "has in its front arc" if indirect(arm.profile, arm.weapon) else "sees"
            raise _illegal("Who Can Shoot", f"no model{_rows_text(rows)} "
                                            f"of {unit.name} {sees} {target.name} within {arm.name} range "
                                            f"({_range_text(arm.weapon)})", unit)
    if action.weapons is not None:
        fired_names = {a.name for a, _ in firing}
        missing = [n for n in action.weapons if n not in fired_names]
        if missing:
            raise _illegal("Who Can Shoot", f"no model{_rows_text(rows)} "
                                            f"of {unit.name} sees {target.name} within {missing[0]} range", unit)
    if not firing:
        raise _illegal("Picking Targets", f"no model{_rows_text(rows)} of "
                                          f"{unit.name} sees {target.name} within range of its weapons", unit)
    by_arm = {id(a): m for a, m in firing}
    return [(arm, by_arm[id(arm)]) for arm in _fire_order([a for a, _ in firing])], pick is not None


def volley_now(state: GameState, action: Shoot, arm: Arm, models: list[int], sniping: bool, *,
               cover_to_hit: bool = False, rules: ShotRules = AOWFBR_SHOTS) -> Volley:
    """The volley of ``arm`` fired by ``models`` for ``action`` (one item of ``plan_shot``), with the to-hit
    modifiers as they stand now (rulebook "The Shooting Sequence"; Relentless after a Hold or no move).
    ``cover_to_hit`` (AoF:R 2.16 "Cover Terrain"): cover is -1 to hit instead of +1 to Defense; ``rules`` the book's
    meanings (``ShotRules``: the AoF:R quick rules' Relentless over 9", Sergeant, Rendering, Artillery)."""
    unit, target = state.unit(action.unit), state.unit(action.target)
    to_hit = volley_to_hit(state, unit, target, arm, models, hero_target=sniping, cover_to_hit=cover_to_hit,
                           rules=rules)
    if rules.relentless_far:
        relentless = state.scene.distance(unit.id, target.id) > RELENTLESS_FAR
    else:
        relentless = unit.move_action in (None, MoveAction.HOLD)
    return Volley(unit, target, arm, models, "shoot", to_hit, relentless, sniping, cover_defense=not cover_to_hit,
                  rules=rules)


def shoot(state: GameState, dice: Dice, action: Shoot, *, all_rows: bool = False,
          cover_to_hit: bool = False, rules: ShotRules = AOWFBR_SHOTS) -> list[Event]:
    """Fire one weapon group of ``action.unit`` at ``action.target`` (rulebook "Shooting"): the weapons and models
    of ``plan_shot``, each through the Shooting Sequence (see the module docstring for the order of the dice);
    then the group is recorded in ``shot_targets``, ``weapons_fired`` and, for Limited weapons, ``limited_used``.
    Raises ``IllegalAction`` as ``plan_shot``. Whose turn and phase it is are checked by the caller. AoF:R 2.16
    ("Who Can Shoot", "Cover Terrain"): ``all_rows`` lets every model fire; ``cover_to_hit`` makes cover a -1 to
    hit instead of +1 to Defense; ``rules`` the book's meanings (``ShotRules``: AoF:R 2.16's Stealth, Poison and
    Artillery; the quick rules' Sergeant, Relentless, Rending and Artillery).
    """
    order, sniping = plan_shot(state, action, all_rows=all_rows)
    unit, target = state.unit(action.unit), state.unit(action.target)
    events: list[Event] = []
    for arm, models in order:
        events += _fire(state, dice, volley_now(state, action, arm, models, sniping, cover_to_hit=cover_to_hit,
                                                rules=rules))
        unit.weapons_fired.add(arm.name)
        use_limited(unit, arm.weapon)
    if target.id not in unit.shot_targets:
        unit.shot_targets.append(target.id)
    return events


# --- Stand and Shoot -----------------------------------------------------------------------------------------


def can_stand_and_shoot(state: GameState, unit_id: str, charger_id: str) -> str | None:
    """None if ``unit_id`` may Stand and Shoot against ``charger_id``, else the reason (rulebook "Charge
    Reactions"): not Shaken, not already in melee, not Entrenched, has ranged weapons it may still use (artillery
    cannot; no profile marks artillery yet), the charger is at least 6" away before its charge move, and a model in
    the front row sees it (or has it in its front arc, for Indirect weapons). Only one reaction per charged unit
    may be Stand and Shoot: that is the caller's check.
    """
    unit = state.unit(unit_id)
    charger = state.unit(charger_id)
    if not unit.on_table or not charger.on_table:
        return f"{unit.name if not unit.on_table else charger.name} is not on the table"
    if unit.shaken:
        return f"{unit.name} is Shaken"
    if unit.engaged:
        return f"{unit.name} is already in melee"
    if unit.any_has("Entrenched"):
        return f"{unit.name} is Entrenched"
    arms = [a for a in ranged_arms(unit) if limited_available(unit, a.weapon)]
    if not arms:
        return f"{unit.name} has no ranged weapons"
    distance = state.scene.distance(unit.id, charger.id)
    if distance < STAND_AND_SHOOT_MIN_DISTANCE:
        return f'{charger.name} is {distance:.1f}" away, closer than 6"'
    if not any(_shooters(state, unit, charger, 1, None, a) for a in arms):
        return f"no model in the front row of {unit.name} can see {charger.name}"
    return None


def stand_and_shoot(state: GameState, dice: Dice, unit_id: str, charger_id: str) -> list[Event]:
    """The Stand and Shoot charge reaction (rulebook "Charge Reactions"): before the charge move, the models of
    the front row that see the charger fire all their ranged weapons at it, at any range, with -1 to hit.

    Raises ``IllegalAction("Stand and Shoot", reason)`` if ``can_stand_and_shoot`` refuses. Relentless does
    not apply (it is not a Hold action) and the unit's ``weapons_fired`` is left alone (it is not its Shooting
    Phase); a Limited weapon fired here is used up.
    """
    reason = can_stand_and_shoot(state, unit_id, charger_id)
    unit = state.unit(unit_id)
    if reason is not None:
        raise _illegal("Stand and Shoot", reason, unit)
    charger = state.unit(charger_id)
    events: list[Event] = []
    arms = [a for a in ranged_arms(unit) if limited_available(unit, a.weapon)]
    for arm in _fire_order(arms):
        models = _shooters(state, unit, charger, 1, None, arm)
        if not models:
            continue
        volley = Volley(unit, charger, arm, models, "stand and shoot",
                         to_hit_modifiers(state, unit, charger, arm.weapon, stand_and_shoot=True, profile=arm.profile),
                         False)
        events += _fire(state, dice, volley)
        use_limited(unit, arm.weapon)
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
