"""Special rules of AoWFBR 1.4 (rulebook "Special Rules Reference") and the command groups (rulebook "Command
Groups"): a registry the window and the docs read, and the code of every rule that changes a roll or a move.

``RULES`` holds one ``SpecialRule`` per rule of the Special Rules Reference, under its rulebook name, with a summary
in our own words for the unit card, the phases it acts in and where its code lives (``implemented_in``: dotted
``module.function`` names, each resolvable; a test checks them). ``UPGRADES_INFO`` does the same for the Sergeant,
Musician and Banner. ``describe(unit)`` lists a unit's rules and command group as (label, summary) pairs;
``modifiers_in_force(state, unit)`` says in words what applies to it right now.

Where a rule is read (docs/rulings.md "Special rules and heroes"):

* weapon rules (AP, Blast, Deadly, Limited, Counter) from the weapon; Relentless, Reliable, Sniper, Indirect,
  Poison, Rending, Furious, Lance from the weapon or the model's profile (``carries``);
* rules about the unit as a whole from the models still in it (a joined hero included): Stealth, Entrenched,
  Fast, Strider, Flying when every model has them, Slow and Immobile when any has, Fearless when most have;
* rules of single models (Tough, Regeneration, Fear, Impact) from each model's own profile.

Dice and modifiers: a die is re-rolled at most once (rulebook "Re-Rolls": Poison re-rolls only the first roll of a
Defense die); a natural 6 always succeeds and a natural 1 always fails whatever the modifiers
(``attacks.succeeds``). Every roll event lists, in ``details``, what it needed and every modifier in words
("Quality 4+", '-1 Stealth at 12.0"', "+1 Sergeant").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.engine.attacks import Modifier, roll_to_block
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.profiles import KNOWN_RULES, RULES_WITH_VALUE, Profile, Weapon, parse_rule, rule_value
from game.engine.state import GameState, MoveAction, Unit

STEALTH_ENTRENCHED_DISTANCE = 9.0
"""Rulebook "Stealth", "Entrenched": the to-hit penalties apply when shooting from over 9" away."""
IMPACT_NEED = 2
"""Rulebook "Impact(X)": each Impact die hits on 2+."""
REGENERATION_NEED = 5
"""Rulebook "Regeneration": a wound is ignored on 5+."""
FEARLESS_NEED = 4
"""Rulebook "Fearless": a failed morale test counts as passed on 4+."""
RENDING_AP = 4
"""Rulebook "Rending": unmodified 6s to hit get AP(4)."""
RELIABLE_QUALITY = 2
"""Rulebook "Reliable", "Sniper": attacks at Quality 2+."""
TRANSPORT_EXIT = 6.0
"""Rulebook "Transport(X)": units exiting (or put down when it is destroyed) stay fully within 6" of it."""

SERGEANT = "sergeant"
MUSICIAN = "musician"
BANNER = "banner"


# --- the registry ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpecialRule:
    """One special rule of the rulebook's Special Rules Reference (or a command group upgrade)."""

    name: str
    """The rulebook's name, e.g. ``Tough`` (written ``Tough(3)`` in profiles when ``takes_value``)."""
    takes_value: bool
    """Written with an (X) value."""
    summary: str
    """What it does, in our own words, for the unit card (X stands for the value)."""
    implemented_in: tuple[str, ...]
    """Where its code lives: ``module.function`` names under ``game.engine`` (or ``geometry``)."""
    phases: tuple[str, ...]
    """When it acts: phase values of ``state.Phase`` (``deployment``, ``movement``, ...) or ``any``."""
    carried_by: str = "unit"
    """``unit``, ``weapon`` or ``unit or weapon``: where a profile writes it."""

    def label(self, value: int | None = None) -> str:
        """``Tough(3)`` or ``Fearless``."""
        return f"{self.name}({value})" if self.takes_value and value is not None else self.name

    def text(self, value: int | None = None) -> str:
        """The summary with X replaced by ``value``."""
        return self.summary.replace("X", str(value)) if self.takes_value and value is not None else self.summary


def _r(name: str, summary: str, where: tuple[str, ...], phases: tuple[str, ...], carried_by: str = "unit"
       ) -> SpecialRule:
    return SpecialRule(name, name in RULES_WITH_VALUE, summary, where, phases, carried_by)


_M = "movement"
_S = "shooting"
_C = "close_combat"
_D = "deployment"

RULES: dict[str, SpecialRule] = {r.name: r for r in (
    _r("Ambush", "May be kept off the table at deployment; from its second turn on it may arrive fully within 6\" "
       "of any table edge.", ("deployment.ambush_step", "deployment.apply"), (_D, "strategy_1")),
    _r("AP", "Enemies get -X to their Defense rolls against this weapon.", ("special_rules.ap_modifier",),
       (_S, _C), "weapon"),
    _r("Artillery", "AoF:R 2.16: counts as having Defense 2+ against all shooting attacks. The AoF:R quick rules: "
       "only Holds; +1 to hit shooting at enemies over 9\" away; enemies shooting at it from over 9\" get -2 to hit.",
       ("shooting.volley_defense", "special_rules.artillery_modifiers", "shooting.to_hit_modifiers"), (_M, _S)),
    _r("Blast", "Ignores cover; each hit becomes X hits, at most as many as models in the target.",
       ("special_rules.blast_multiplier", "special_rules.ignores_cover"), (_S, _C), "weapon"),
    _r("Bane", "Ignores Regeneration; the target must re-roll unmodified Defense 6s (once).",
       ("special_rules.poisoned", "special_rules.regenerates"), (_S, _C), "unit or weapon"),
    _r("Breath Attack", "AoF:R 2.16: once per round, 3 automatic hits with AP(1) per model, either in melee or at "
       "one enemy unit within 12\" when shooting.",
       ("rulesets.aofr_breath.breathe_shooting", "rulesets.aofr_breath.melee_breathers"), (_S, _C)),
    _r("Caster", "Gets X spell tokens each round (holds at most 6) to cast its army's spells in the strategy "
       "phases: 4+ to succeed.", ("magic.caster_value", "magic.start_of_round"), ("strategy_1", "strategy_2")),
    _r("Counter", "Strikes first with this weapon when charged in the front (first round); each such model in "
       "the two front rows takes one Impact die or attack off the charger.",
       ("melee.has_counter", "melee.counters_charge", "melee.counter_models"), (_C,), "unit or weapon"),
    _r("Deadly", "Each wound goes on one model and counts X times; it never spills over to other models; "
       "resolved first.", ("special_rules.deadly_wounds", "special_rules.deadly_first"), (_S, _C), "weapon"),
    _r("Entrenched", "Enemies shooting from over 9\" get -2 to hit while it has not moved since its last "
       "activation began. Cannot pursue, follow up or Stand and Shoot.",
       ("special_rules.entrenched_modifier", "special_rules.no_pursuit_or_follow_up",
        "shooting.can_stand_and_shoot"), (_S, _C, _M)),
    _r("Fast", "+2\" when it Advances, +4\" when it Rushes or Charges (also +2\" to flight and pursuit).",
       ("special_rules.fast_modifier", "flight.advance_bonus"), (_M, _C)),
    _r("Fear", "Counts as having caused X more wounds when working out who won a melee.",
       ("special_rules.fear_bonus",), (_C,)),
    _r("Fearless", "When most of its models have it and it fails a morale test, roll a die: on 4+ it passes.",
       ("special_rules.fearless_roll",), ("any",)),
    _r("Flying", "Moves over units and terrain (not ending on them) and ignores terrain while moving.",
       ("special_rules.flying", "movement.validate_move", "movement.dangerous_terrain_tests"), (_M,)),
    _r("Furious", "When it charged, each unmodified 6 to hit in melee scores one extra hit.",
       ("special_rules.furious_extra_hits",), (_C,), "unit or weapon"),
    _r("Hero", "May join one unit of several models as one of them: takes its morale tests, uses its Defense "
       "while other models live, takes wounds last.",
       ("special_rules.morale_quality", "special_rules.defense_profile", "casualties.apply_wounds",
        "geometry.formation.hero_index"), ("any",)),
    _r("Immobile", "Only Holds; never pursues, follows up or moves back; routs instead of fleeing.",
       ("special_rules.immobile", "movement.validate_move", "charge.can_charge", "flight.flee",
        "melee.melee_morale_test", "special_rules.no_pursuit_or_follow_up"), (_M, _C)),
    _r("Impact", "After charging, each model in the two front rows rolls X dice, hitting on 2+; in later rounds "
       "of the same melee (whoever charged) it gets X extra attacks instead.", ("melee.impact_dice",), (_C,)),
    _r("Indirect", "May shoot at enemies out of sight (still in its front arc), ignoring cover from things in the "
       "way; -1 to hit after moving or pivoting.",
       ("special_rules.indirect_modifier", "special_rules.indirect", "geometry.sight.models_in_range"), (_S,),
       "unit or weapon"),
    _r("Lance", "When it charged: +1 to hit and +1 AP in melee.", ("special_rules.lance_modifier",), (_C,),
       "unit or weapon"),
    _r("Limited", "This weapon may be used once per game.", ("special_rules.limited_available",
                                                            "special_rules.use_limited"), (_S, _C), "weapon"),
    _r("Phalanx", "AoF:R 2.16: enemies charging its front (every model has it) do not count as having charged for "
       "special rules and first take a Dangerous Terrain test (at most a die per Phalanx model of its two front "
       "rows).", ("rulesets.aofr_rules.phalanx_test",), (_C,)),
    _r("Poison", "Ignores Regeneration; the target re-rolls unmodified Defense 6s (once).",
       ("special_rules.poison_rerolls",), (_S, _C), "unit or weapon"),
    _r("Regeneration", "Each wound it takes is ignored on a 5+ (not against Poison or Rending).",
       ("special_rules.regeneration_rolls",), ("any",)),
    _r("Relentless", "When it Held (or did not move) and shoots, each unmodified 6 to hit scores one extra hit.",
       ("special_rules.relentless_extra_hits",), (_S,), "unit or weapon"),
    _r("Reliable", "Attacks at Quality 2+ with this weapon.", ("special_rules.attack_quality",), (_S, _C),
       "unit or weapon"),
    _r("Rending", "Unmodified 6s to hit get AP(4); ignores Regeneration.", ("special_rules.rending_hits",),
       (_S, _C), "unit or weapon"),
    _r("Scout", "May be kept aside at deployment and placed after all other units, then moved up to 12\".",
       ("deployment.apply",), (_D,)),
    _r("Slow", "-2\" when it Advances, -4\" when it Rushes or Charges (also -2\" to flight and pursuit).",
       ("special_rules.slow_modifier", "flight.advance_bonus"), (_M, _C)),
    _r("Sniper", "Shoots at Quality 2+ before other weapons and may pick one model of the target (such as a "
       "joined hero) and shoot it as a unit of one.", ("special_rules.sniper", "special_rules.attack_quality",
                                                      "shooting.shoot"), (_S,), "unit or weapon"),
    _r("Stealth", "Enemies shooting from over 9\" get -1 to hit (when every model of the unit has it).",
       ("special_rules.stealth_modifier",), (_S,)),
    _r("Strider", "Ignores difficult terrain when moving.", ("special_rules.strider",), (_M,)),
    _r("Surge", "Each unmodified 6 to hit with this weapon deals 1 extra hit.", ("special_rules.surge_extra_hits",),
       (_S, _C), "unit or weapon"),
    _r("Thrust", "When charging: +1 to hit and AP(+1) in melee.", ("special_rules.lance_modifier",), (_C,),
       "unit or weapon"),
    _r("Takedown", "May pick one model of the target (a joined hero) and attack it as a unit of one; resolved before "
       "other weapons.", ("special_rules.takedown", "shooting.plan_shot"), (_S, _C), "unit or weapon"),
    _r("Tough", "Each model takes X wounds before it is removed; wounds stay on the most wounded model.",
       ("casualties.apply_wounds", "special_rules.deadly_wounds"), ("any",)),
    _r("Transport", "Carries up to X models (non-hero models with Tough take 3 places); units get in and out "
       "with a move action within 6\", or charge out; units inside see nothing outside and cannot be seen; if it "
       "is destroyed they are put down, Shaken, after a dangerous terrain test.",
       ("transport.embark", "transport.disembark", "casualties.unload_destroyed", "transport.transport_spaces",
        "charge_out.make_charge_out"), (_M, "any")),
    _r("Unstoppable", "Ignores Regeneration and every negative modifier to this weapon's hit rolls.",
       ("special_rules.regenerates", "shooting.volley_to_hit"), (_S, _C), "unit or weapon"),
    _r("Wizard", "AoF:R 2.16: may cast one spell of its army during its activation, before attacking: D6+X, equal "
       "to or higher than the spell's value; enemy wizards within 18\" in line of sight may roll D6+X to block "
       "(higher blocks). Each wizard casts or blocks once per round.",
       ("activation_magic.plan_cast", "activation_magic.resolve_216"), ("activation",)),
)}
"""Every rule of the Special Rules Reference by name."""

assert set(RULES) == set(KNOWN_RULES), sorted(set(RULES) ^ set(KNOWN_RULES))

UPGRADES_INFO: dict[str, SpecialRule] = {
    SERGEANT: SpecialRule("Sergeant", False, "+1 to hit for the Sergeant's own attacks (it stands in the middle of "
                          "the front row).", ("special_rules.sergeant_modifier", "geometry.formation.sergeant_index"),
                          (_S, _C)),
    MUSICIAN: SpecialRule("Musician", False, "The unit moves +1\" with every move action and pursues +1\".",
                          ("special_rules.musician_modifier", "flight.pursuit_range_bonus"), (_M, _C)),
    BANNER: SpecialRule("Banner", False, "+1 to the unit's morale tests; worth 50 more victory points to the enemy "
                        "if the unit is destroyed.", ("special_rules.banner_modifier", "victory.unit_victory_points"),
                        ("any",)),
}
"""Command group upgrades (rulebook "Command Groups"), at most one of each per unit."""


def resolve(dotted: str) -> object:
    """The function a registry entry names (``shooting.shoot`` -> ``game.engine.shooting.shoot``).

    Raises ``ImportError`` or ``AttributeError`` if it does not exist."""
    module, _, name = dotted.rpartition(".")
    full = module if module.startswith("geometry") else f"game.engine.{module}"
    return getattr(importlib.import_module(full), name)


def describe(unit: Unit) -> list[tuple[str, str]]:
    """The unit's special rules, weapon rules, joined hero and command group as (label, summary) pairs for the
    unit card, in profile order, each rule once (its highest value)."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(rules: Sequence[str], prefix: str = "") -> None:
        for text in rules:
            name, _ = parse_rule(text)
            key = prefix + name
            if key in seen:
                continue
            seen.add(key)
            value = rule_value(tuple(rules), name)
            rule = RULES[name]
            out.append((prefix + rule.label(value), rule.text(value)))

    add(unit.profile.rules)
    for w in unit.profile.weapons:
        add(w.rules, f"{w.name}: ")
    if unit.hero is not None:
        hero = unit.hero
        state = "killed" if hero.killed else f"Quality {hero.profile.quality}+, Defense {hero.profile.defense}+"
        out.append((f"Hero {hero.profile.name}", f"Joined to the unit ({state}); its rules below."))
        add(hero.profile.rules, f"{hero.profile.name}: ")
        for w in hero.profile.weapons:
            add(w.rules, f"{hero.profile.name}, {w.name}: ")
    for up in (SERGEANT, MUSICIAN, BANNER):
        if up in unit.upgrades:
            info = UPGRADES_INFO[up]
            out.append((info.name, info.summary))
    return out


def modifiers_in_force(state: GameState, unit: Unit) -> list[str]:
    """What changes the unit's rolls and moves right now, in words (for the unit card)."""
    out: list[str] = []
    if unit.shaken:
        out.append("Shaken: hits only on unmodified 6s in melee, fails morale tests, stays idle")
    for action, what in ((MoveAction.ADVANCE, "Advance"), (MoveAction.RUSH, "Rush/Charge")):
        bits = [str(m) for m in (fast_modifier(unit, action), slow_modifier(unit, action), musician_modifier(unit))
                if m is not None]
        if bits:
            out.append(f"{what}: {', '.join(bits)}")
    if unit.all_have("Entrenched"):
        moved = unit.moved_since_activation
        out.append("Entrenched: " + ("has moved since its activation began, no penalty to be hit" if moved else
                                     "-2 to be hit from over 9\""))
    if unit.all_have("Stealth"):
        out.append("Stealth: -1 to be hit from over 9\"")
    if BANNER in unit.upgrades:
        out.append("+1 Banner to morale tests")
    q, who = morale_quality(unit)
    if who:
        out.append(f"Morale tests at Quality {q}+ ({who})")
    if unit.hero_alive and unit.regulars > 0:
        out.append(f"Defense {unit.profile.defense}+ of the unit, also for its hero, while other models live")
    if unit.limited_used:
        out.append("Limited weapons used: " + ", ".join(sorted(unit.limited_used)))
    if unit.embarked_in is not None:
        out.append(f"Inside transport {unit.embarked_in}")
    return out


# --- where a rule is read -----------------------------------------------------------------------------------


def carries(profile: Profile, weapon: Weapon | None, rule: str) -> bool:
    """True if ``weapon`` or the model's ``profile`` has ``rule`` (rules printed on either)."""
    return (weapon is not None and weapon.has(rule)) or profile.has(rule)


def weapon_value(weapon: Weapon | None, rule: str) -> int:
    """X of the weapon's rule(X), 0 without it (or without a weapon)."""
    if weapon is None:
        return 0
    return rule_value(weapon.rules, rule) or 0


# --- to hit ---------------------------------------------------------------------------------------------------


def attack_quality(profile: Profile, weapon: Weapon | None, shooting: bool) -> tuple[int, str]:
    """The Quality the attacks of ``weapon`` by a ``profile`` model need, and why, in words.

    Rulebook "Reliable" (Quality 2+; the roll may still be modified) and "Sniper" (shoots at Quality 2+)."""
    if weapon is not None and carries(profile, weapon, "Reliable"):
        return RELIABLE_QUALITY, f"Quality {RELIABLE_QUALITY}+ (Reliable)"
    if shooting and weapon is not None and carries(profile, weapon, "Sniper"):
        return RELIABLE_QUALITY, f"Quality {RELIABLE_QUALITY}+ (Sniper)"
    return profile.quality, f"Quality {profile.quality}+"


def sergeant_modifier() -> Modifier:
    """Rulebook "Command Groups": the Sergeant gets +1 to hit rolls."""
    return Modifier("Sergeant", 1)


def _distance_text(d: float) -> str:
    return f'{d:.1f}"'


def stealth_modifier(state: GameState, shooter: Unit, target: Unit, hero_only: bool = False,
                     over: float | None = STEALTH_ENTRENCHED_DISTANCE) -> Modifier | None:
    """Rulebook "Stealth": -1 to hit when every model of the target has Stealth and the shooter is over 9" away
    (unit to unit). ``hero_only``: a Sniper shooting the joined hero as a unit of one (its own Stealth). ``over``
    None: at any distance (AoF:R 2.16 "Stealth")."""
    if hero_only:
        has = target.hero is not None and target.hero.profile.has("Stealth")
    else:
        has = target.all_have("Stealth")
    if not has:
        return None
    if over is None:
        return Modifier("Stealth", -1)
    d = state.scene.distance(shooter.id, target.id)
    if d <= over:
        return None
    return Modifier(f"Stealth at {_distance_text(d)}", -1)


def entrenched_modifier(state: GameState, shooter: Unit, target: Unit, hero_only: bool = False) -> Modifier | None:
    """Rulebook "Entrenched": -2 to hit when shooting from over 9" at models with Entrenched that have not moved
    since the beginning of their last activation (``Unit.moved_since_activation``)."""
    if hero_only:
        has = target.hero is not None and target.hero.profile.has("Entrenched")
    else:
        has = target.all_have("Entrenched")
    if not has or target.moved_since_activation:
        return None
    d = state.scene.distance(shooter.id, target.id)
    if d <= STEALTH_ENTRENCHED_DISTANCE:
        return None
    return Modifier(f"Entrenched at {_distance_text(d)}", -2)


def artillery_modifiers(state: GameState, shooter: Unit, target: Unit, profile: Profile | None = None
                        ) -> list[Modifier]:
    """The AoF:R quick rules' "Artillery": "When this model shoots at enemies over 9" away, it gets +1 to hit
    rolls. When enemy units shoot at this model from over 9" away, they get -2 to hit rolls" (9" unit to unit; the
    target's -2 when every model of it has the rule)."""
    shooting_artillery = (profile or shooter.profile).has("Artillery")
    if not shooting_artillery and not target.all_have("Artillery"):
        return []
    d = state.scene.distance(shooter.id, target.id)
    if d <= STEALTH_ENTRENCHED_DISTANCE:
        return []
    out = [Modifier(f"Artillery at {_distance_text(d)}", 1)] if shooting_artillery else []
    if target.all_have("Artillery"):
        out.append(Modifier(f"shooting at Artillery from {_distance_text(d)}", -2))
    return out


def indirect(profile: Profile, weapon: Weapon) -> bool:
    """Rulebook "Indirect": the weapon may fire at targets out of sight and ignores cover from sight
    obstructions."""
    return carries(profile, weapon, "Indirect")


def indirect_modifier(profile: Profile, weapon: Weapon, shooter: Unit, stand_and_shoot: bool = False
                      ) -> Modifier | None:
    """Rulebook "Indirect": -1 to hit when shooting after moving (pivoting included) this activation; not for Stand
    and Shoot, which has its own -1 (docs/rulings.md)."""
    if stand_and_shoot or not indirect(profile, weapon):
        return None
    moved = shooter.moved_since_activation or shooter.pivoted or shooter.move_action in (
        MoveAction.ADVANCE, MoveAction.RUSH, MoveAction.CHARGE)
    return Modifier("Indirect after moving", -1) if moved else None


def sniper(profile: Profile, weapon: Weapon) -> bool:
    """Rulebook "Sniper": Quality 2+, fires before other weapons, and may pick one model of the target."""
    return carries(profile, weapon, "Sniper")


def takedown(profile: Profile, weapon: Weapon) -> bool:
    """The AoF:R quick rules' "Takedown": "This model may pick any model in the target unit as its individual
    target, which is resolved as if it was a unit of [1]. Takedown attacks must be resolved before other weapons"."""
    return carries(profile, weapon, "Takedown")


def picks_model(profile: Profile, weapon: Weapon) -> bool:
    """The weapon may pick one model of its target (a joined hero) and attack it as a unit of one, before the
    other weapons: rulebook "Sniper", the AoF:R quick rules' "Takedown"."""
    return sniper(profile, weapon) or takedown(profile, weapon)


def deadly_first(weapon: Weapon) -> bool:
    """Rulebook "Deadly(X)": hits from Deadly are resolved first."""
    return weapon.has("Deadly")


def lance_modifier(profile: Profile, weapon: Weapon | None, charging: bool, rule: str = "Lance"
                   ) -> tuple[Modifier | None, int]:
    """Rulebook "Lance" (and the AoF:R quick rules' "Thrust", ``rule``, written the same): when charging, +1 to hit
    and AP(+1) in melee. Returns (to-hit modifier, extra AP)."""
    if weapon is None or not charging or not carries(profile, weapon, rule):
        return None, 0
    return Modifier(rule, 1), 1


# --- extra hits ---------------------------------------------------------------------------------------------


def relentless_extra_hits(profile: Profile, weapon: Weapon, sixes: int, held: bool) -> int:
    """Rulebook "Relentless": after a Hold (or no move), each unmodified 6 to hit when shooting deals one extra
    hit (an ordinary hit; only the original counts as a 6)."""
    return sixes if held and carries(profile, weapon, "Relentless") else 0


def surge_extra_hits(profile: Profile, weapon: Weapon | None, sixes: int) -> int:
    """The AoF:R quick rules' "Surge": each unmodified 6 to hit deals 1 extra hit (an ordinary hit)."""
    return sixes if carries(profile, weapon, "Surge") else 0


def furious_extra_hits(profile: Profile, weapon: Weapon | None, sixes: int, charging: bool) -> int:
    """Rulebook "Furious": when charging, each unmodified 6 to hit in melee deals one extra hit (an ordinary
    hit)."""
    return sixes if charging and carries(profile, weapon, "Furious") else 0


def poison_multiplied(profile: Profile, weapon: Weapon | None, sixes: int, multiplier: int | None) -> int:
    """AoF:R 2.16 "Poison": each unmodified 6 to hit of a Poison attack is multiplied by ``multiplier`` (3);
    returns the extra hits, ``sixes * (multiplier - 1)``. 0 without Poison or when ``multiplier`` is None (AoWFBR's
    Poison re-rolls Defense 6s instead: ``poison_rerolls``)."""
    if multiplier is None or sixes <= 0 or weapon is None or not carries(profile, weapon, "Poison"):
        return 0
    return sixes * (multiplier - 1)


def rending_hits(profile: Profile, weapon: Weapon | None, sixes: int) -> int:
    """Rulebook "Rending": unmodified 6s to hit get AP(4) (the weapon's AP if higher); returns how many."""
    return sixes if weapon is not None and carries(profile, weapon, "Rending") else 0


def blast_multiplier(weapon: Weapon | None, target_models: int) -> int:
    """Rulebook "Blast(X)": each hit is multiplied by X, up to as many as models in the target (at least 1)."""
    if weapon is None or not weapon.has("Blast"):
        return 1
    return max(1, min(weapon_value(weapon, "Blast"), target_models))


def ignores_cover(weapon: Weapon) -> bool:
    """Rulebook "Blast(X)": ignores cover."""
    return weapon.has("Blast")


# --- to block -----------------------------------------------------------------------------------------------


def ap_modifier(x: int) -> Modifier | None:
    """Rulebook "AP(X)": -X to the target's Defense rolls."""
    return Modifier(f"AP({x})", -x) if x else None


def defense_profile(unit: Unit) -> Profile:
    """Whose Defense the unit rolls (rulebook "Hero": a joined hero uses the unit's Defense until all other models
    have been killed)."""
    if unit.regulars > 0 or unit.hero is None:
        return unit.profile
    return unit.hero.profile


BlockBatch = tuple[int, list[Modifier], str]
"""Hits rolled together against Defense: (count, modifiers, what they are, e.g. "Defense against Rending 6s")."""


def block_hits(dice: Dice, batches: Sequence[BlockBatch], defender: Profile, attacker: Profile,
               weapon: Weapon | None, name_roll: Callable[[str], str], purpose: str, need_text: str,
               unit_id: str, *, aowfbr_poison: bool = True) -> tuple[int, list[Event]]:
    """Roll to Block for shooting and melee alike; returns (wounds, events).

    Rulebook "Roll to Block": one Defense die per hit of each batch (ordinary hits, then Rending 6s at AP(4));
    then "Poison" re-rolls of unmodified 6s, once each ("Re-Rolls"); then "Regeneration" (5+ per wound, not
    against Poison or Rending). ``name_roll(what)`` words each Defense roll; ``purpose`` words the re-rolls and
    Regeneration. Deadly and casualties are the caller's. ``aowfbr_poison`` False: AoF:R 2.16's Poison (it multiplied
    the 6s to hit instead: ``poison_multiplied``) neither re-rolls Defense nor stops Regeneration.
    """
    defense = defender.defense
    poison = aowfbr_poison and poisoned(attacker, weapon)
    wounds = 0
    events: list[Event] = []
    rerolls: list[tuple[int, list[Modifier]]] = []
    for count, mods, what in batches:
        if count <= 0:
            continue
        br = roll_to_block(dice, count, defense, mods, name_roll(what), need_text=need_text)
        events += br.events
        wounds += br.wounds
        if poison:
            rerolls.append((sum(1 for d in br.dice if d == 6), mods))
    for count, mods in rerolls:
        extra, evs = poison_rerolls(dice, count, defense, mods, purpose)
        events += evs
        wounds += extra
    wounds, evs = regeneration_rolls(dice, wounds, defender, attacker, weapon, purpose, unit_id,
                                     poison_stops=aowfbr_poison)
    return wounds, events + evs


def poisoned(attacker: Profile, weapon: Weapon | None) -> bool:
    """Rulebook "Poison" (and the AoF:R quick rules' "Bane", its like): the attack makes the target re-roll
    unmodified Defense 6s."""
    return weapon is not None and (carries(attacker, weapon, "Poison") or carries(attacker, weapon, "Bane"))


REGENERATION_IGNORED_BY = ("Poison", "Rending", "Bane", "Unstoppable")
"""Rules of an attack that Regeneration does not work against (rulebook "Poison", "Rending"; the AoF:R quick rules'
"Bane", "Rendering", "Unstoppable")."""


def regenerates(defender: Profile, attacker: Profile, weapon: Weapon | None, poison_stops: bool = True) -> bool:
    """Rulebook "Regeneration": the defender may ignore wounds from this attack on 5+ (not against Poison, Rending,
    Bane or Unstoppable). ``poison_stops`` False: AoF:R 2.16, where Poison does not stop it (only Rending "ignores
    the Regeneration rule")."""
    if not defender.has("Regeneration"):
        return False
    stops = REGENERATION_IGNORED_BY if poison_stops else tuple(r for r in REGENERATION_IGNORED_BY if r != "Poison")
    return not (weapon is not None and any(carries(attacker, weapon, r) for r in stops))


def unstoppable(attacker: Profile, weapon: Weapon | None) -> bool:
    """The AoF:R quick rules' "Unstoppable": the weapon ignores all negative modifiers (to its hit rolls)."""
    return weapon is not None and carries(attacker, weapon, "Unstoppable")


def poison_rerolls(dice: Dice, sixes: int, defense: int, mods: list[Modifier], purpose: str
                   ) -> tuple[int, list[Event]]:
    """Rulebook "Poison": the target re-rolls its unmodified Defense 6s; a die is re-rolled once only (rulebook
    "Re-Rolls"), so a second 6 blocks. Returns (wounds from the re-rolls, events)."""
    if sixes <= 0:
        return 0, []
    br = roll_to_block(dice, sixes, defense, mods, f"{purpose}: Defense re-rolls of 6 (Poison)",
                       need_text=f"Defense {defense}+, re-roll (Poison)")
    return br.wounds, br.events


def regeneration_rolls(dice: Dice, wounds: int, defender: Profile, attacker: Profile, weapon: Weapon | None,
                       purpose: str, unit_id: str, poison_stops: bool = True) -> tuple[int, list[Event]]:
    """Rulebook "Regeneration": each wound is ignored on a 5+; not against Poison or Rending (rulebook "Poison",
    "Rending"; ``poison_stops`` False: AoF:R 2.16, Rending only). Returns (wounds left, events)."""
    if wounds <= 0 or not regenerates(defender, attacker, weapon, poison_stops):
        return wounds, []
    rolls = dice.d6(wounds, f"{purpose}: Regeneration")
    saved = sum(1 for d in rolls if d >= REGENERATION_NEED)
    ev = roll_event(f"{purpose}: Regeneration", rolls, REGENERATION_NEED, 0, saved,
                    [f"Regeneration {REGENERATION_NEED}+ per wound"], unit=unit_id)
    return wounds - saved, [ev]


def wound_capacities(unit: Unit, hero_only: bool = False) -> list[int]:
    """Wounds each model of ``unit`` can still take, in the order wounds go on them (rulebook "Tough(X)": the most
    wounded Tough model first, heroes last). ``hero_only``: the joined hero alone (a Sniper's unit of one)."""
    out: list[int] = []
    if not hero_only:
        regulars = unit.regulars
        if regulars > 0:
            tough = unit.tough
            out.append(tough - unit.wounds)
            out += [tough] * (regulars - 1)
    if unit.hero_alive:
        assert unit.hero is not None
        out.append(unit.hero.tough - unit.hero.wounds)
    return [max(0, c) for c in out]


def deadly_wounds(target: Unit, wounds: int, x: int, hero_only: bool = False) -> int:
    """Rulebook "Deadly(X)": each wound goes to one model and is multiplied by X, without carrying over to other
    models. Returns the wounds to put on ``target`` (``casualties.apply_wounds`` fills the models in the same
    order: the most wounded first, a joined hero last)."""
    dealt = 0
    for cap, _ in zip(wound_capacities(target, hero_only), range(wounds), strict=False):
        dealt += min(x, cap)
    return dealt


# --- morale -------------------------------------------------------------------------------------------------


def morale_quality(unit: Unit) -> tuple[int, str]:
    """The Quality of the unit's morale tests and who takes them (rulebook "Hero": the hero may take morale tests
    on behalf of the unit; the referee lets it when its Quality is better, docs/rulings.md). Returns (quality,
    "" or the hero's name)."""
    if unit.hero_alive:
        assert unit.hero is not None
        hq = unit.hero.profile.quality
        if hq < unit.profile.quality or unit.regulars == 0:
            return hq, f"taken by {unit.hero.name}"
    return unit.profile.quality, ""


def banner_modifier(unit: Unit) -> Modifier | None:
    """Rulebook "Command Groups": the Banner gives +1 to morale test rolls."""
    return Modifier("Banner", 1) if BANNER in unit.upgrades else None


def fearless_roll(dice: Dice, unit: Unit, all_models: bool = False) -> tuple[bool, list[Event]]:
    """Rulebook "Fearless": when most models of the unit have it (``all_models``: all of them, the AoF:R quick
    rules' "a unit where all models have this rule") and it fails a morale test, one die: on 4+ the test counts as
    passed. Returns (passed now, events); (False, []) without Fearless."""
    if not (unit.all_have("Fearless") if all_models else unit.most_have("Fearless")):
        return False, []
    again = dice.one(f"Fearless roll of {unit.name}")
    ok = again >= FEARLESS_NEED
    return ok, [roll_event(f"Fearless roll of {unit.name}", [again], FEARLESS_NEED, 0, 1 if ok else 0,
                           [f"Fearless {FEARLESS_NEED}+"], unit=unit.id)]


def fear_bonus(unit: Unit) -> int:
    """Rulebook "Fear(X)": +X to the wounds the unit counts as having dealt for melee resolution (the unit's own
    Fear once, docs/rulings.md, plus a living joined hero's)."""
    bonus = unit.profile.value("Fear") if unit.regulars > 0 or unit.hero is None else 0
    if unit.hero_alive and unit.hero is not None:
        bonus += unit.hero.profile.value("Fear")
    return bonus


# --- movement -----------------------------------------------------------------------------------------------


def fast_modifier(unit: Unit, action: MoveAction) -> Modifier | None:
    """Rulebook "Fast": +2" Advance, +4" Rush/Charge, when every model of the unit is Fast."""
    if action is MoveAction.HOLD or not unit.all_have("Fast"):
        return None
    return Modifier("Fast", 2 if action is MoveAction.ADVANCE else 4)


def slow_modifier(unit: Unit, action: MoveAction) -> Modifier | None:
    """Rulebook "Slow": -2" Advance, -4" Rush/Charge, when any model of the unit is Slow."""
    if action is MoveAction.HOLD or not unit.any_has("Slow"):
        return None
    return Modifier("Slow", -2 if action is MoveAction.ADVANCE else -4)


def musician_modifier(unit: Unit) -> Modifier | None:
    """Rulebook "Command Groups": the Musician's unit moves +1" when taking move actions (and pursues +1")."""
    return Modifier("Musician", 1) if MUSICIAN in unit.upgrades else None


def strider(unit: Unit) -> bool:
    """Rulebook "Strider": may ignore the effects of difficult terrain (every model of the unit has it)."""
    return unit.all_have("Strider")


def flying(unit: Unit) -> bool:
    """Rulebook "Flying": moves through units and terrain and ignores terrain effects while moving (every model
    of the unit has it)."""
    return unit.all_have("Flying")


def immobile(unit: Unit) -> bool:
    """Rulebook "Immobile": the unit only Holds, never pursues or follows up, does not move back, routs instead
    of fleeing (any model of the unit has it)."""
    return unit.any_has("Immobile")


def no_pursuit_or_follow_up(unit: Unit) -> bool:
    """Rulebook "Entrenched", "Immobile": the unit cannot make pursuit or follow up moves."""
    return unit.any_has("Entrenched") or immobile(unit)


# --- Limited ------------------------------------------------------------------------------------------------


def limited_available(unit: Unit, weapon: Weapon) -> bool:
    """Rulebook "Limited": a Limited weapon may be used once per game; False once ``unit`` used it."""
    return not weapon.has("Limited") or weapon.name not in unit.limited_used


def use_limited(unit: Unit, weapon: Weapon) -> None:
    """Note that ``unit`` used ``weapon`` (for Limited weapons; others are not tracked)."""
    if weapon.has("Limited"):
        unit.limited_used.add(weapon.name)


__all__ = [
    "BANNER", "MUSICIAN", "RULES", "SERGEANT", "SpecialRule", "UPGRADES_INFO", "ap_modifier", "artillery_modifiers",
    "attack_quality",
    "banner_modifier", "blast_multiplier", "carries", "deadly_first", "deadly_wounds", "defense_profile",
    "describe", "entrenched_modifier", "fast_modifier", "fear_bonus", "fearless_roll", "flying",
    "furious_extra_hits", "ignores_cover", "immobile", "indirect", "indirect_modifier", "lance_modifier",
    "limited_available", "modifiers_in_force", "morale_quality", "musician_modifier", "no_pursuit_or_follow_up",
    "picks_model", "poison_multiplied", "poison_rerolls", "poisoned", "regenerates", "regeneration_rolls",
    "relentless_extra_hits", "rending_hits", "resolve", "surge_extra_hits", "takedown", "unstoppable",
    "sergeant_modifier", "slow_modifier", "sniper", "stealth_modifier", "strider", "use_limited",
    "weapon_value", "wound_capacities",
]
