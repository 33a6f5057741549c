"""Random Scatter for Artillery (AoWFBR 1.4 "Optional Rules", p.19; scenario ``options.artillery_scatter``).

"These rules add random scatter directions and distances to artillery shots." Artillery is a unit that is
Immobile and carries a ranged weapon (docs/rulings.md "Artillery"); its type (rulebook "Artillery Types") is the
profile's ``artillery_type`` when given, else derived from its weapons (``derived_type``):

1. **Bolt throwers and volley/organ guns** "work unchanged": they ``shoot`` at units as usual.
2. **Stone throwers, mortars and rocket batteries** (the Indirect special rule) and
3. **Cannons** (Blast(X), or Deadly(3) with two attacks, and not Indirect) shoot at a **target point**
   (action ``shoot_point``): within the weapon's range of a firing model (in its front arc), not touching a unit
   engaged in melee, in line of sight for a cannon. Then for each attack (``fire_at_point``):

   - type 2: the **scatter die** (hit: the shot lands on the point); type 3: a **Quality test** (passed: it lands
     on the point), which the player may skip (``ShootPoint.skip_test``);
   - else the **artillery die**: misfire (the **misfire table**, ``misfire``) or the scatter distance 2..10";
   - one **Quality test per 2"** of scatter, each success taking 2" off;
   - the point moves the rest: type 2 in the arrow's direction, type 3 straight away from the shooter;
   - the unit the point touches, friend or foe, takes the hit ("resolved as usual": Blast, Deadly, Defense...);
     a unit in melee shares the hits at random with every unit of that melee; a Sniper's hit may pick a joined
     hero of the unit hit (``ShootPoint.model``).

The special dice are rolled with D6 (docs/rulings.md "Random Scatter for Artillery"; the order of the dice is in
docs/formats.md): scatter die 1-2 hit, 3-6 arrow; artillery die 1 misfire, 2..6 -> 2, 4, 6, 8, 10"; the arrow's
bearing from two more D6, ``(first - 1) * 60 + (second - 1) * 10 + 5`` degrees.
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely

from game.engine.actions import ShootPoint
from game.engine.attacks import Modifier, roll_to_hit, succeeds
from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.morale import make_shaken
from game.engine.profiles import Profile, Weapon
from game.engine.shooting import Arm, defense_modifiers, shooting_restriction, shooting_rows, weapon_group
from game.engine.special_rules import (
    ap_modifier,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_first,
    deadly_wounds,
    defense_profile,
    indirect,
    indirect_modifier,
    sniper,
    use_limited,
    weapon_value,
)
from game.engine.spell_effects import effect_modifiers
from game.engine.state import GameState, Unit
from geometry.arcs import Arc, arc_of_point
from geometry.formation import hero_index
from geometry.pose import Point, Pose, bearing_to, forward_vector

OPTION = "artillery_scatter"
"""The scenario option (``options``) that turns the rule on."""
RULE = "Random Scatter for Artillery"
"""The rule's name, as IllegalAction and the events cite it."""

BOLT_THROWER, STONE_THROWER, CANNON = 1, 2, 3
"""The artillery types (rulebook "Artillery Types")."""
TYPE_NAMES: dict[int, str] = {
    BOLT_THROWER: "bolt thrower / volley gun",
    STONE_THROWER: "stone thrower / mortar / rocket battery",
    CANNON: "cannon",
}
"""Each type in the rulebook's words."""
SCATTER_HIT_FACES = 2
"""Scatter die from a D6: 1..2 are the two hit symbols, 3..6 the four arrows."""
ARTILLERY_DIE: dict[int, int | None] = {1: None, 2: 2, 3: 4, 4: 6, 5: 8, 6: 10}
"""Artillery die from a D6: 1 is the misfire symbol (None), 2..6 the numbers 2, 4, 6, 8, 10 (inches)."""
TEST_STEP = 2.0
"""Inches of scatter per Quality test, and taken off by each success."""
TOUCH = 1e-6
"""Inches: a point this close to a footprint touches it."""


# --- which units, which type -------------------------------------------------------------------------------------


def active(state: GameState) -> bool:
    """Whether the game plays Random Scatter for Artillery."""
    return bool(state.options.get(OPTION, False))


def is_artillery_profile(profile: Profile) -> bool:
    """Artillery as the referee knows it (docs/rulings.md "Artillery"): Immobile and a ranged weapon."""
    return profile.has("Immobile") and bool(profile.ranged_weapons)


def _cannon_like(profile: Profile, weapon: Weapon) -> bool:
    """Rulebook "Cannons": "typically have 2 attacks and either Blast(3) or Deadly(3), but not Indirect". Blast(X)
    of 2 or more marks a cannon whatever its attacks (a bolt thrower has none); Deadly(X) only with 2 or more
    attacks and X up to 3 (a bolt thrower has 1 attack with Deadly(6), docs/rulings.md)."""
    if indirect(profile, weapon):
        return False
    if weapon.has("Blast") and weapon_value(weapon, "Blast") >= 2:
        return True
    return weapon.has("Deadly") and weapon.attacks >= 2 and 2 <= weapon_value(weapon, "Deadly") <= 3


def derived_type(profile: Profile) -> int:
    """The type the rulebook's descriptions give an artillery ``profile``: 2 with an Indirect weapon, 3 with a
    cannon's weapon (``_cannon_like``), else 1 (bolt throwers, volley guns)."""
    ranged = profile.ranged_weapons
    if any(indirect(profile, w) for w in ranged):
        return STONE_THROWER
    if any(_cannon_like(profile, w) for w in ranged):
        return CANNON
    return BOLT_THROWER


def profile_type(profile: Profile) -> int | None:
    """The artillery type of ``profile`` (its ``artillery_type``, else ``derived_type``); None if not artillery."""
    if not is_artillery_profile(profile):
        return None
    return profile.artillery_type or derived_type(profile)


def artillery_type(unit: Unit) -> int | None:
    """The artillery type of ``unit``, 1 to 3, or None if it is no artillery."""
    return profile_type(unit.profile)


def fires_at_points(state: GameState, unit: Unit) -> bool:
    """True when ``unit`` shoots at target points (``shoot_point``) instead of units: the rule is played and the
    unit is artillery of type 2 or 3."""
    return active(state) and artillery_type(unit) in (STONE_THROWER, CANNON)


# --- the special dice from D6 ---------------------------------------------------------------------------------


def roll_scatter_die(dice: Dice, purpose: str) -> tuple[bool, Event]:
    """The scatter die: True for a hit symbol (D6 1-2), False for an arrow (3-6)."""
    d = dice.one(purpose)
    hit = d <= SCATTER_HIT_FACES
    return hit, roll_event(purpose, [d], details=["scatter die: 1-2 hit, 3-6 arrow",
                                                  "hit" if hit else "arrow: the shot scatters"], scatter_hit=hit)


def roll_artillery_die(dice: Dice, purpose: str) -> tuple[int | None, Event]:
    """The artillery die: None for the misfire symbol (D6 1), else 2, 4, 6, 8 or 10 inches (D6 2..6)."""
    d = dice.one(purpose)
    value = ARTILLERY_DIE[d]
    return value, roll_event(purpose, [d], details=["artillery die: 1 misfire, 2-6 -> 2, 4, 6, 8, 10\"",
                                                    "misfire" if value is None else f"{value}\" of scatter"],
                             artillery=value)


def roll_direction(dice: Dice, purpose: str) -> tuple[float, Event]:
    """The arrow's bearing in degrees: two D6, ``(a - 1) * 60 + (b - 1) * 10 + 5`` (36 bearings 10 degrees
    apart; 0 is towards player 2's edge, 90 to the right)."""
    a, b = dice.d6(2, purpose)
    bearing = (a - 1) * 60.0 + (b - 1) * 10.0 + 5.0
    return bearing, roll_event(purpose, [a, b], details=["first die: 60° sector, second: 10° step",
                                                         f"bearing {bearing:g}°"], bearing=bearing)


def random_pick(dice: Dice, count: int, purpose: str) -> tuple[int, list[Event]]:
    """A random index in ``range(count)`` from D6: no die for one choice; else k D6 read as a base-6 number
    (k the fewest with 6**k >= count), re-rolled when it falls in the uneven remainder, and split in equal
    bands (e.g. two choices: 1-3, 4-6; four: 1, 2, 3, 4 and 5-6 re-rolled)."""
    if count <= 1:
        return 0, []
    k = 1
    while 6 ** k < count:
        k += 1
    usable = 6 ** k - (6 ** k) % count
    events: list[Event] = []
    while True:
        ds = dice.d6(k, purpose)
        value = 0
        for d in ds:
            value = value * 6 + (d - 1)
        keep = value < usable
        events.append(roll_event(purpose, ds, details=[f"{count} choices" + ("" if keep else ": re-roll")]))
        if keep:
            return value // (usable // count), events


# --- the target point -----------------------------------------------------------------------------------------


def units_touching(state: GameState, point: Point) -> list[str]:
    """Ids of the units on the table whose footprint the point touches, scenario order."""
    scene = state.scene
    p = shapely.Point(point)
    return [u.id for u in state.units.values()
            if u.on_table and scene.has_unit(u.id) and scene.footprint(u.id).distance(p) <= TOUCH]


def on_table(state: GameState, point: Point) -> bool:
    """The point lies on the table (edges included)."""
    return 0.0 <= point[0] <= state.table.width and 0.0 <= point[1] <= state.table.depth


def _models(state: GameState, unit: Unit, arm: Arm, point: Point, rows: int, need_sight: bool,
            touching: list[str]) -> tuple[list[int], str]:
    """Models of ``unit`` (first ``rows`` rows, ``model_centres`` order) that may fire ``arm`` at ``point``: the point
    in the model's front arc and within the weapon's range of its base (rulebook "Who Can Shoot", "Measuring
    Distances"); for a cannon (``need_sight``) also a clear sight line from the model to the point, the units the
    point touches not blocking it (rulebook "Line of Sight"). With none, also the first check every model failed:
    ``arc``, ``range`` or ``sight``."""
    scene = state.scene
    if rows <= 0 or unit.pose is None or arm.hero:
        return [], "arc"
    formation = unit.formation
    centres = scene.model_centres(unit.id)
    row_of = scene.model_rows(unit.id)
    bases = scene.model_polygons(unit.id)
    hero = hero_index(formation)
    p = shapely.Point(point)
    out: list[int] = []
    furthest = "arc"
    for i, (cx, cy) in enumerate(centres.tolist()):
        if i == hero or int(row_of[i]) >= rows:
            continue
        base = Pose(cx, cy, unit.pose.facing)
        if arc_of_point(base, formation.base_width, formation.base_depth, point) is not Arc.FRONT:
            continue
        reach = arm.weapon.range
        if reach is not None and bases[i].distance(p) > reach + 1e-9:
            furthest = "range" if furthest == "arc" else furthest
            continue
        if need_sight and not scene.line_clear((cx, cy), point, touching, unit.id):
            furthest = "sight"
            continue
        out.append(i)
    return out, furthest


def aim(state: GameState, unit: Unit, point: Point, weapons: tuple[str, ...] | None
        ) -> list[tuple[Arm, list[int]]]:
    """The weapons of ``unit`` that fire at ``point`` and the models firing each; changes nothing.

    Raises ``IllegalAction`` naming the rule: the rule is not played or the unit is not artillery of type 2/3
    ("Random Scatter for Artillery"), the unit may not shoot ("Shaken Units", "Who Can Shoot"...), the weapon
    group ("Multiple Weapon Types", "Limited"), the point is off the table or touches a unit engaged in melee,
    or no model has the point in its front arc within range (and, for a cannon, in line of sight).
    """
    def illegal(rule: str, message: str) -> IllegalAction:
        return IllegalAction(rule, message, point)

    if not active(state):
        raise illegal(RULE, "the scenario does not play Random Scatter for Artillery (options.artillery_scatter)")
    kind = artillery_type(unit)
    if kind not in (STONE_THROWER, CANNON):
        what = "is not artillery" if kind is None else f"is artillery of type {kind} ({TYPE_NAMES[kind]})"
        raise illegal(RULE, f"{unit.name} {what}: it shoots at units, not at a target point")
    restriction = shooting_restriction(unit)
    if restriction is not None:
        raise illegal(*restriction)
    group = tuple(a for a in weapon_group(unit, weapons) if not a.hero)
    if not group:
        raise illegal("Multiple Weapon Types", f"{unit.name} has fired all its ranged weapons this phase")
    if not on_table(state, point):
        raise illegal(RULE, f"the target point ({point[0]:.1f}, {point[1]:.1f}) is off the table")
    touching = units_touching(state, point)
    engaged = [state.units[t] for t in touching if state.units[t].engaged]
    if engaged:
        raise illegal(RULE, f"the target point touches {engaged[0].name}, which is engaged in melee")
    rows = shooting_rows(unit)
    need_sight = kind == CANNON
    firing: list[tuple[Arm, list[int]]] = []
    first_failure = ""
    for arm in group:
        models, failed = _models(state, unit, arm, point, rows, need_sight and not indirect(arm.profile, arm.weapon),
                                 touching)
        if models:
            firing.append((arm, models))
        elif weapons is not None:
            raise illegal(*_why_not(unit, arm, failed))
        else:
            first_failure = first_failure or failed
    if not firing:
        raise illegal(*_why_not(unit, group[0], first_failure))
    return firing


def _why_not(unit: Unit, arm: Arm, failed: str) -> tuple[str, str]:
    """The rule and the reason no model may fire ``arm`` at the point, from the check that failed."""
    if failed == "range":
        reach = f'{arm.weapon.range:g}"' if arm.weapon.range is not None else "any range"
        return RULE, f"the target point is beyond the maximum range of {arm.name} ({reach})"
    if failed == "sight":
        return "Line of Sight", f"{unit.name} has no line of sight to the target point (a cannon needs it)"
    return "Who Can Shoot", f"the target point is not in the front arc of {unit.name}"


def point_problem(state: GameState, unit: Unit, point: Point, weapons: tuple[str, ...] | None = None) -> str | None:
    """Why ``unit`` may not fire at ``point`` now, in words (the rule and the reason), or None if it may."""
    try:
        aim(state, unit, point, weapons)
    except IllegalAction as e:
        return f"{e.rule}: {e.message}"
    return None


def max_range(unit: Unit) -> float | None:
    """The longest range among the unit's own ranged weapons, inches (None: a weapon of any range)."""
    ranges = [w.range for w in unit.profile.ranged_weapons]
    return None if any(r is None for r in ranges) else max((r for r in ranges if r is not None), default=0.0)


# --- firing ----------------------------------------------------------------------------------------------------


@dataclass
class Shot:
    """What one attack fired at a target point did (the data of its ``artillery`` event)."""

    target: Point
    """The target point chosen, inches."""
    final: Point
    """Where the shot landed (the target point when it did not scatter), inches."""
    rolled: int = 0
    """The artillery die's scatter distance, inches (0: no scatter rolled)."""
    remaining: float = 0.0
    """Scatter distance left after the Quality tests, inches."""
    bearing: float | None = None
    """Bearing the point moved along, degrees (None: it did not move)."""
    misfire: str | None = None
    """``critical``, ``damaged`` or ``jammed`` after a misfire; None otherwise."""
    hit_unit: str | None = None
    """The unit the landing point touches (None: the shot is wasted)."""


def shoot_point(state: GameState, dice: Dice, action: ShootPoint) -> list[Event]:
    """Fire one weapon group of ``action.unit`` at the target point (x, y) (rulebook "Random Scatter for
    Artillery"); checks ``aim`` first (raising ``IllegalAction``, nothing changed). Whose turn and phase it is are
    the caller's checks.

    Weapons fire in the order Sniper, Deadly, the rest (rulebook "Sniper", "Deadly(X)"); each attack of each
    firing model follows the procedure of the unit's type (``fire_one``) and is resolved before the next. A
    misfire ends the unit's shooting for the round: its weapons not fired yet are marked fired.
    """
    unit = state.units.get(action.unit)
    if unit is None:
        raise IllegalAction("Picking Targets", f"there is no unit {action.unit!r}")
    point = (action.x, action.y)
    firing = aim(state, unit, point, action.weapons)
    kind = artillery_type(unit)
    assert kind is not None
    events: list[Event] = []
    order = sorted(firing, key=lambda f: (not sniper(f[0].profile, f[0].weapon), not deadly_first(f[0].weapon)))
    for arm, models in order:
        attacks = len(models) * arm.weapon.attacks
        events.append(Event("shoot", f"{unit.name} fires {arm.name} at the target point ({point[0]:.1f}, "
                                     f"{point[1]:.1f}): {attacks} attack{'s' if attacks != 1 else ''}",
                            {"unit": unit.id, "weapon": arm.name, "point": [point[0], point[1]], "models": models,
                             "attacks": attacks, "artillery_type": kind}))
        unit.weapons_fired.add(arm.name)
        use_limited(unit, arm.weapon)
        for n in range(attacks):
            what = "shot" if arm.name == unit.profile.name else f"{arm.name} shot"
            shot, evs = fire_one(state, dice, unit, arm, models, point, kind, action,
                                 f"{unit.name}, {what} {n + 1}/{attacks}")
            events += evs
            if shot.misfire is not None:
                unit.weapons_fired.update(a.name for a, _ in firing)
                unit.weapons_fired.update(w.name for w in unit.profile.ranged_weapons)
                return events
            if not unit.on_table:
                return events
    return events


def fire_one(state: GameState, dice: Dice, shooter: Unit, arm: Arm, models: list[int], point: Point, kind: int,
             action: ShootPoint, label: str) -> tuple[Shot, list[Event]]:
    """One attack fired at ``point`` by an artillery of type ``kind`` (2 or 3): the procedure of the rulebook
    ("Stone Throwers, Mortars & Rocket Batteries" or "Cannons"), then the hits on the unit the shot lands on."""
    events: list[Event] = []
    shot = Shot(point, point)
    weapon, prof = arm.weapon, arm.profile
    on_target = False
    if kind == STONE_THROWER:
        on_target, ev = roll_scatter_die(dice, f"{label}: scatter die")
        events.append(ev)
    elif not action.skip_test:
        quality, need = attack_quality(prof, weapon, True)
        mods: list[Modifier] = list(effect_modifiers(shooter, "to_hit"))
        ind = indirect_modifier(prof, weapon, shooter)
        if ind is not None:
            mods.append(ind)
        hr = roll_to_hit(dice, 1, quality, mods, f"{label}: Quality test", need_text=need)
        events += hr.events
        on_target = hr.hits > 0
    else:
        events.append(Event("info", f"{label}: the Quality test is skipped", {"unit": shooter.id}))
    if not on_target:
        distance, ev = roll_artillery_die(dice, f"{label}: artillery die")
        events.append(ev)
        if distance is None:
            shot.misfire, evs = misfire(state, dice, shooter, label)
            events.append(_shot_event(shooter, arm, kind, shot, label))
            return shot, events + evs
        shot.rolled = distance
        tests = int(distance // TEST_STEP)
        results = dice.d6(tests, f"{label}: Quality tests against {distance}\" of scatter")
        quality = shooter.profile.quality
        passed = sum(1 for d in results if succeeds(d, quality, 0))
        shot.remaining = max(0.0, distance - TEST_STEP * passed)
        events.append(roll_event(f"{label}: Quality tests against {distance}\" of scatter", results, quality, 0,
                                 passed, [f"Quality {quality}+, one per 2\"", f"{shot.remaining:g}\" left"],
                                 unit=shooter.id))
        if shot.remaining > 0:
            if kind == STONE_THROWER:
                bearing, ev = roll_direction(dice, f"{label}: scatter direction")
                events.append(ev)
            else:
                bearing = bearing_of_fire(shooter, point)
            shot.bearing = bearing
            fx, fy = forward_vector(bearing)
            shot.final = (point[0] + fx * shot.remaining, point[1] + fy * shot.remaining)
    touching = units_touching(state, shot.final) if on_table(state, shot.final) else []
    shot.hit_unit = touching[0] if touching else None
    events.append(_shot_event(shooter, arm, kind, shot, label))
    if shot.hit_unit is not None:
        events += _hits_on(state, dice, shooter, arm, models, state.units[shot.hit_unit], action.model, label)
    return shot, events


def _shot_event(shooter: Unit, arm: Arm, kind: int, shot: Shot, label: str) -> Event:
    if shot.misfire is not None:
        text = f"{label}: misfire ({shot.misfire})"
    elif shot.final == shot.target and shot.rolled:
        text = f"{label}: the Quality tests take off all {shot.rolled}\" of scatter: lands on the target point"
    elif shot.final == shot.target:
        text = f"{label}: lands on the target point"
    else:
        text = f"{label}: scatters {shot.remaining:g}\" (rolled {shot.rolled}\")"
    if shot.misfire is None:
        text += " and is wasted" if shot.hit_unit is None else " and hits a unit"
    return Event("artillery", text, {
        "unit": shooter.id, "weapon": arm.name, "artillery_type": kind,
        "target": [shot.target[0], shot.target[1]], "final": [shot.final[0], shot.final[1]],
        "rolled": shot.rolled, "remaining": shot.remaining, "bearing": shot.bearing, "misfire": shot.misfire,
        "hit_unit": shot.hit_unit})


def melee_group(state: GameState, unit: Unit) -> list[Unit]:
    """Every unit involved in the melee ``unit`` is engaged in: the units engaged with it, and with those, and so
    on; scenario order. Just ``[unit]`` when it is not engaged."""
    seen = {unit.id}
    todo = [unit.id]
    while todo:
        for other in state.units[todo.pop()].engaged_with:
            if other not in seen and other in state.units:
                seen.add(other)
                todo.append(other)
    return [u for u in state.units.values() if u.id in seen]


def _hits_on(state: GameState, dice: Dice, shooter: Unit, arm: Arm, models: list[int], landed: Unit,
             model: str | None, label: str) -> list[Event]:
    """The hit of one attack on the unit it landed on ("hits are resolved as usual"); a unit in melee shares it at
    random with every unit of that melee."""
    events: list[Event] = []
    target = landed
    group = melee_group(state, landed)
    if len(group) > 1:
        i, evs = random_pick(dice, len(group), f"{label}: which unit of the melee is hit")
        events += evs
        target = group[i]
        events.append(Event("info", f"{label}: the hit falls on {target.name} (one of {len(group)} units in melee)",
                            {"unit": target.id}))
    hero_target = (model is not None and sniper(arm.profile, arm.weapon) and target.hero is not None
                   and target.hero.id == model and target.hero_alive)
    return events + resolve_hits(state, dice, shooter, arm, models, target, 1, hero_target, label)


def resolve_hits(state: GameState, dice: Dice, shooter: Unit, arm: Arm, models: list[int], target: Unit, hits: int,
                 hero_target: bool, label: str) -> list[Event]:
    """``hits`` hits of ``arm`` on ``target`` as in the Shooting Sequence, steps 3-4 (rulebook "Roll to Block",
    "Remove Casualties"): Blast(X) multiplies them (up to the models of the target; one for a Sniper's unit of
    one), Defense rolls with AP and cover (none against the shooter itself), Poison, Regeneration, Deadly(X)."""
    weapon, prof = arm.weapon, arm.profile
    blast = blast_multiplier(weapon, 1 if hero_target else target.models)
    total = hits * blast
    victim = target.hero.name if hero_target and target.hero is not None else target.name
    events = [Event("hits", f"{label}: {total} hit{'s' if total != 1 else ''} on {victim}"
                            + (f" (Blast x{blast})" if blast > 1 else ""),
                    {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "hits": total})]
    defender = target.hero.profile if hero_target and target.hero is not None else defense_profile(target)
    if target.id == shooter.id:
        mods = [m for m in (ap_modifier(weapon.ap),) if m is not None] + effect_modifiers(target, "defense")
    else:
        mods = defense_modifiers(state, shooter, target, weapon, models, hero_target=hero_target,
                                 indirect_fire=indirect(prof, weapon))
    need = f"Defense {defender.defense}+" + (f" ({defender.name})" if defender is not target.profile else "")
    wounds, evs = block_hits(dice, [(total, mods, "Defense")], defender, prof, weapon,
                             lambda what: f"{label}: {what} of {victim}", label, need, target.id)
    events += evs
    if wounds and weapon.has("Deadly"):
        wounds = deadly_wounds(target, wounds, weapon_value(weapon, "Deadly"), hero_target)
    who = shooter.name
    events += apply_wounds(state, target, wounds, f"{weapon.name} of {who}", dice, hero_only=hero_target)
    return events


MISFIRES = {1: "critical", 2: "damaged", 3: "damaged", 4: "jammed", 5: "jammed", 6: "jammed"}
"""The misfire table: D6 -> result."""


def misfire(state: GameState, dice: Dice, unit: Unit, label: str) -> tuple[str, list[Event]]:
    """The misfire table (rulebook "Misfire Table"): D6 1 critical failure (D3 hits on the unit, Defense rolls
    allowed, and Shaken), 2-3 damaged (Shaken), 4-6 jammed. Every result ends the unit's shooting this round (the
    caller marks its weapons fired). Shaken "until it may regroup in the Rally Phase of the next turn": it became
    Shaken this turn, so it rallies in its player's next Rally Phase (docs/rulings.md)."""
    d = dice.one(f"{label}: misfire table")
    result = MISFIRES[d]
    words = {"critical": "critical failure: D3 hits, the crew is Shaken", "damaged": "damaged: the crew is Shaken",
             "jammed": "jammed: no more shooting this round"}[result]
    events = [roll_event(f"{label}: misfire table", [d], details=["1 critical failure, 2-3 damaged, 4-6 jammed",
                                                                  words], misfire=result, unit=unit.id)]
    if result == "critical":
        hits = dice.d3(f"{label}: critical failure hits (D3)")
        events.append(roll_event(f"{label}: critical failure hits (D3)", [dice.rolls[-1].dice[0]],
                                 details=[f"{hits} hit{'s' if hits != 1 else ''} on {unit.name}"], unit=unit.id))
        defender = defense_profile(unit)
        wounds, evs = block_hits(dice, [(hits, effect_modifiers(unit, "defense"), "Defense")], defender,
                                 unit.profile, None, lambda what: f"{label}: {what} of {unit.name}", label,
                                 f"Defense {defender.defense}+", unit.id)
        events += evs
        events += apply_wounds(state, unit, wounds, "its own misfire", dice)
    events.append(Event("misfire", f"{unit.name} misfires: {words}", {"unit": unit.id, "misfire": result}))
    if result in ("critical", "damaged") and unit.on_table and not unit.shaken:
        events.append(make_shaken(unit))
    return result, events


def bearing_of_fire(shooter: Unit, point: Point) -> float:
    """A cannon's line of fire: the bearing from the shooting unit's centre to the target point, degrees."""
    assert shooter.pose is not None
    return bearing_to(shooter.pose.xy, point) if shooter.pose.xy != tuple(point) else shooter.pose.facing
