"""AoF:R 2.16 special rules, command groups and terrain that differ from AoWFBR 1.4's, as small functions the
``aofr-2.16`` ruleset (``game.engine.rulesets.aofr``) calls (the book: ../shared/rules/aofr-2.16-full-rulebook.txt,
"Special Rules", "Command Groups", "Terrain", "Advanced Rules: Terrain Placement"; rulings: docs/rulings.md
"AoF:R 2.16").

* Shooting rules whose meaning differs (Stealth at any distance, Poison's 6s multiplied by 3, Artillery's Defense
  2+ against shooting) are ``AOFR_SHOTS``, handed to the shared shooting code (``shooting.ShotRules``); Indirect
  and Sniper mean what AoWFBR's mean and are the shared code's.
* Melee: ``strike_kinds`` (the two front rows by kind: the unit's own models and a joined "Hero" with its own
  weapons and Quality), ``fear_wounds`` ("Fear": +D3 wounds to the melee result), ``command_wounds`` ("Musician /
  Battle Standard": +1), ``poison_extra`` (melee Poison 6s).
* Morale: ``morale_quality`` / ``fearless`` ("Hero": the unit may use the hero's Quality).
* Terrain: hills are difficult "when going up": the shared ``movement.crosses_difficult`` and the charge path
  (``charge.plan_charge``), switched on by ``GameState.hills_going_up``.
* Phalanx ("Phalanx"): ``phalanx_front`` (a charge into the front of a unit all of whose models have it) and
  ``phalanx_test`` (the charger's capped Dangerous Terrain test); the charger does not count as having charged for
  special rules (the ruleset strikes without Impact and Furious). Breath Attack: ``aofr_breath``.
* Ambush ("Ambush"): ``ambush_problem`` (anywhere, over 12" from enemy units, at the beginning of a round after
  the first).
"""

from __future__ import annotations

from game.engine.attacks import Modifier
from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.profiles import Profile, Weapon
from game.engine.shooting import ShotRules
from game.engine.special_rules import BANNER, MUSICIAN, carries, defense_profile, fast_modifier, slow_modifier
from game.engine.state import GameState, MoveAction, Unit
from geometry.arcs import Arc
from geometry.formation import hero_index
from geometry.pose import Pose
from geometry.shapes import footprint_polygon

POISON_MULTIPLIER = 3
"""AoF:R 2.16 "Poison": an unmodified 6 to hit "is multiplied by 3"."""
ARTILLERY_DEFENSE = 2
"""AoF:R 2.16 "Artillery": "count as having Defense 2+ against all shooting attacks"."""
AMBUSH_DISTANCE = 12.0
"""AoF:R 2.16 "Ambush": placed "over 12\" away from enemy units"."""

AOFR_SHOTS = ShotRules(stealth_range=None, poison_multiplier=POISON_MULTIPLIER, artillery_defense=ARTILLERY_DEFENSE)
"""AoF:R 2.16's meanings of Stealth ("Enemies targeting this unit get -1 to hit when shooting at it": any distance),
Poison (6s to hit multiplied by 3, Regeneration still rolled) and Artillery (Defense 2+ against shooting)."""


def strike_kinds(state: GameState, unit: Unit) -> list[tuple[Profile, bool, int]]:
    """"Who Can Strike": the models of ``unit``'s two front rows by kind, as (profile, is the joined hero, how
    many): the unit's own models first, then a living joined hero standing there ("Hero": it is one of the unit's
    models, with its own weapons and Quality). Empty when the unit is not on the table."""
    if not unit.on_table:
        return []
    rows = state.scene.model_rows(unit.id)
    hero = hero_index(unit.formation) if unit.hero_alive else None
    front = [i for i, r in enumerate(rows) if int(r) <= 1]
    own = sum(1 for i in front if i != hero)
    out: list[tuple[Profile, bool, int]] = [(unit.profile, False, own)] if own else []
    if hero is not None and hero in front and unit.hero is not None:
        out.append((unit.hero.profile, True, 1))
    return out


def poison_extra(profile: Profile, weapon: Weapon | None, sixes: int) -> int:
    """AoF:R 2.16 "Poison" in melee: each unmodified 6 to hit with a Poison weapon (or by a model with Poison)
    becomes 3 hits; returns the extra hits (docs/rulings.md: "firing" read as attacking, as for Rending)."""
    if sixes <= 0 or weapon is None or not carries(profile, weapon, "Poison"):
        return 0
    return sixes * (POISON_MULTIPLIER - 1)


def has_fear(unit: Unit) -> bool:
    """AoF:R 2.16 "Fear": the unit's own models (while any are left) or its living joined hero have it; several
    models with Fear do not stack ("Rules Priority & Stacking Effects")."""
    own = unit.regulars > 0 and unit.profile.has("Fear")
    hero = unit.hero_alive and unit.hero is not None and unit.hero.profile.has("Fear")
    return own or hero


def fear_wounds(dice: Dice, unit: Unit) -> tuple[int, list[Event]]:
    """AoF:R 2.16 "Fear": "When in melee, units with this special rule count as having caused +D3 wounds when
    determining who won the combat". Rolls one D3 when ``has_fear``; returns (wounds, events); (0, []) without."""
    if not unit.on_table or not has_fear(unit):
        return 0, []
    purpose = f"Fear of {unit.name} (D3 wounds to the melee result)"
    n = dice.d3(purpose)
    return n, [roll_event(purpose, [n], None, 0, n, ["D3"], unit=unit.id)]


def command_wounds(unit: Unit) -> int:
    """AoF:R 2.16 "Command Groups": "Musician / Battle Standard: Always counts as having dealt +1 wound for seeing
    who won melee" (one upgrade: a unit has at most one, checked at load)."""
    return 1 if unit.on_table and (MUSICIAN in unit.upgrades or BANNER in unit.upgrades) else 0


def morale_quality(unit: Unit) -> tuple[int, Profile]:
    """AoF:R 2.16 "Hero": "When rolling morale tests units may use the hero's Quality value": the better of the
    unit's and its living joined hero's (the hero's alone once the others are dead). Returns (Quality, the profile
    whose Quality it is)."""
    if unit.hero_alive and unit.hero is not None:
        hp = unit.hero.profile
        if unit.regulars <= 0 or hp.quality < unit.profile.quality:
            return hp.quality, hp
    return unit.profile.quality, unit.profile


def fearless(unit: Unit, taker: Profile) -> Modifier | None:
    """AoF:R 2.16 "Fearless": "+1 to their morale test rolls", when the model whose Quality the test uses
    (``morale_quality``) has it (docs/rulings.md)."""
    return Modifier("Fearless", 1) if taker.has("Fearless") else None


def in_force_words(state: GameState, unit: Unit, fatigued: bool) -> list[str]:
    """What changes ``unit``'s rolls and moves right now under AoF:R 2.16, in words for the unit card (its book's
    meanings: no AoWFBR Musician move, Stealth at any distance...). ``fatigued``: it struck in a melee this round."""
    out: list[str] = []
    if unit.shaken:
        out.append("Wavering: hits only on unmodified 6s in melee, fails morale tests; its next activation is idle")
    if fatigued:
        out.append("Fatigue: struck in a melee this round, hits only on unmodified 6s in later melees")
    for action, what in ((MoveAction.ADVANCE, "Advance"), (MoveAction.RUSH, "Rush/Charge")):
        bits = [str(m) for m in (fast_modifier(unit, action), slow_modifier(unit, action)) if m is not None]
        if bits:
            out.append(f"{what}: {', '.join(bits)}")
    if unit.all_have("Stealth"):
        out.append("Stealth: -1 to be hit by shooting")
    if defense_profile(unit).has("Artillery"):
        out.append(f"Artillery: Defense {ARTILLERY_DEFENSE}+ against shooting")
    if has_fear(unit):
        out.append("Fear: +D3 wounds to its melee results")
    if command_wounds(unit):
        out.append("Musician / Battle Standard: +1 wound to its melee results")
    q, taker = morale_quality(unit)
    if taker is not unit.profile:
        out.append(f"Morale tests at Quality {q}+ (its hero's)")
    if unit.hero_alive and unit.regulars > 0:
        out.append(f"Blocks with the unit's Defense {unit.profile.defense}+, its hero included, while other models "
                   "live")
    if unit.on_table and state.scene.is_elevated(unit.id):
        out.append("On a hill: sees over one unit or terrain piece in the way")
    return out


def phalanx_front(state: GameState, charger: Unit, target: Unit) -> int:
    """AoF:R 2.16 "Phalanx": when ``charger`` is in contact with ``target``'s front facing and every model of
    ``target`` (a joined hero included) has Phalanx, the Phalanx models of its two front rows (the most dice the
    charger's Dangerous Terrain test rolls); else 0."""
    if not (charger.on_table and target.on_table) or target.contact_arcs.get(charger.id) is not Arc.FRONT:
        return 0
    if not target.all_have("Phalanx"):
        return 0
    return sum(1 for r in state.scene.model_rows(target.id) if int(r) <= 1)


def phalanx_test(state: GameState, dice: Dice, charger: Unit, target: Unit) -> list[Event]:
    """AoF:R 2.16 "Phalanx": the charger "must take a Dangerous Terrain test before attacking", rolling "only up to
    as many Dangerous Terrain test dice as models with the Phalanx rule in the two front rows of the target unit":
    one die per model of the charger's two front rows (its Tough value in dice for a Tough model, "Dangerous
    Terrain"), at most ``phalanx_front`` dice; each 1 is a wound. Resolved, casualties removed, before impact hits
    and strikes ("Advanced Rules": Phalanx). No test (no events) when the charge is not into such a front."""
    cap = phalanx_front(state, charger, target)
    if not cap:
        return []
    rows = state.scene.model_rows(charger.id)
    hero = hero_index(charger.formation) if charger.hero_alive else None
    wanted = sum(charger.hero.tough if (i == hero and charger.hero is not None) else charger.tough
                 for i, r in enumerate(rows) if int(r) <= 1)
    count = min(wanted, cap)
    if count <= 0:
        return []
    purpose = f"Dangerous terrain test of {charger.name} (Phalanx of {target.name})"
    results = dice.d6(count, purpose)
    wounds = sum(1 for d in results if d == 1)
    note = f"{count} dice (at most {cap}: Phalanx models in the two front rows)" if wanted > cap else \
        f"{count} dice (the charger's two front rows)"
    events = [Event("info", f"{charger.name} charges the front of {target.name}'s Phalanx: it does not count as "
                    "having charged for special rules and takes a Dangerous Terrain test before attacking",
                    {"unit": charger.id, "target": target.id, "rule": "Phalanx"}),
              roll_event(purpose, results, None, 0, wounds, [note, "each 1 is a wound"], unit=charger.id)]
    return events + apply_wounds(state, charger, wounds, f"the Phalanx of {target.name}", dice)


def ambush_problem(state: GameState, unit: Unit, pose: Pose, distance: float = AMBUSH_DISTANCE) -> str | None:
    """AoF:R 2.16 "Ambush": "you may place the model anywhere on the table, over 12\" away from enemy units" (the
    quick rules': over 9", ``distance``). Why ``pose`` is not such a place for ``unit`` (the placement's other
    checks are the shared ones), or None."""
    fp = footprint_polygon(pose, unit.formation)
    for enemy in state.enemies_of(unit.player):
        d = fp.distance(state.scene.footprint(enemy.id))
        if d <= distance + 1e-6:
            return f"an Ambush unit is placed over {distance:g}\" away from enemy units; {enemy.name} " \
                   f"would be {d:.1f}\" away"
    return None


__all__ = [
    "AMBUSH_DISTANCE", "AOFR_SHOTS", "ARTILLERY_DEFENSE", "POISON_MULTIPLIER", "ambush_problem", "command_wounds",
    "fear_wounds", "fearless", "has_fear", "in_force_words", "morale_quality", "phalanx_front", "phalanx_test",
    "poison_extra", "strike_kinds",
]
