"""Shooting, melee strikes and wound effects of loose models (AoF: Skirmish "Shooting", "Melee", "Wound Effects",
"Groups & Wounds", "Special Rules Reference"; docs/rulings.md "AoF Skirmish").

Every attack is a Quality test to hit (a natural 6 always hits, a 1 always misses), each hit a Defense roll to
block, each failed block a wound. The wounds of one unit's attack on one target (one ``shoot``, or one unit's
strikes in a melee: Impact and every melee weapon) are placed together and checked once (``take_wounds``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.engine.attacks import Modifier, roll_to_block, roll_to_hit
from game.engine.dice import Dice
from game.engine.events import Event, roll_event
from game.engine.profiles import Weapon
from game.engine.skirmish.loose import (
    XY,
    LooseModel,
    base_radius,
    centre,
    command_index,
    gap,
    height_at,
    model_in_cover,
    models_killed,
    points_of,
    sight,
    warband_of,
)
from game.engine.special_rules import weapon_value
from game.engine.spell_effects import effect_modifiers, melee_attacks
from game.engine.state import GameState, Removal, Unit

SERGEANT = "sergeant"
"""The command group upgrade "Sergeant" (unmodified 6s to hit deal 1 extra hit)."""
STRIKE_REACH = 2.0
""""Melee": models strike enemies within 2" horizontally ..."""
VERTICAL_REACH = 4.0
"""... "and 4" vertically" (the heights models stand at: ``loose.height_at``)."""
STEALTH_RANGE = 9.0
"""Stealth and Relentless: shots from over 9" away."""
IMPACT_NEED = 2
"""Impact(X): "For each 2+ the target takes one hit"."""
REGENERATION_NEED = 5
"""Regeneration: "On a 5+ it is ignored"."""
RENDING_AP = 4
"""Rending: "on unmodified results of 6 to hit, those hits get AP(+4)" (added to the weapon's AP)."""
KNOCKED_OUT = 6
"""Wound effects: 6+ Knocked Out (5+X with Tough(X))."""
BLAST_REACH = 3.0
"""Blast(X): enemy models and units "within 3\"" of the target (base edge to base edge)."""


def in_range(state: GameState, shooter: Unit, target: Unit, weapon: Weapon) -> list[int]:
    """Indices of the models of ``shooter`` that may fire ``weapon`` at ``target``: a target model within range
    (base edge to base edge) and in line of sight ("Shooting": "Models in range and line of sight"; Indirect: "may
    target enemies that are not in line of sight as if in line of sight")."""
    rs, rt = base_radius(shooter.profile), base_radius(target.profile)
    foes = points_of(state, target.id)
    reach = weapon.range or 0.0
    indirect = weapon.has("Indirect")
    out = []
    for i, p in enumerate(points_of(state, shooter.id)):
        if any(gap(p, rs, q, rt) <= reach + 1e-6 and (indirect or sight(state, p, q)) for q in foes):
            out.append(i)
    return out


def in_cover(state: GameState, target: Unit, shooters: list[XY]) -> bool:
    """"Cover Terrain": most models of ``target`` (a single model: itself) are in cover from ``shooters``."""
    pts = points_of(state, target.id)
    r = base_radius(target.profile)
    covered = sum(1 for p in pts if model_in_cover(state, p, r, shooters, len(pts) == 1))
    return covered * 2 > len(pts)


def blast_units(state: GameState, target: Unit) -> tuple[list[Unit], int]:
    """Blast(X) ("Special Rules Reference"): the units its hits are split between, ``target`` first and then the
    other units of its player on the table with a model within 3" (base edge to base edge) of one of the target's,
    nearest first; and the enemy models counted for X: the target's and the other units' models within 3" of one of
    the target's (docs/rulings.md "AoF Skirmish", Blast)."""
    rt = base_radius(target.profile)
    foes = points_of(state, target.id)
    models = len(foes)
    near: list[tuple[float, str, Unit]] = []
    for u in state.units.values():
        if u.id == target.id or u.player != target.player or not u.on_table:
            continue
        ru = base_radius(u.profile)
        gaps = [min(gap(p, ru, q, rt) for q in foes) for p in points_of(state, u.id)] if foes else []
        close = [d for d in gaps if d <= BLAST_REACH + 1e-6]
        if close:
            models += len(close)
            near.append((min(close), u.id, u))
    return [target] + [u for _, _, u in sorted(near, key=lambda t: (t[0], t[1]))], models


def _share(total: int, i: int, n: int) -> int:
    """The ``i``-th of ``n`` even shares of ``total``: the remainder one each to the first units."""
    return total // n + (1 if i < total % n else 0)


def blast(state: GameState, target: Unit, weapon: Weapon, hits: int, rending: int
          ) -> tuple[int, list[tuple[Unit, Strike]]]:
    """Blast(X): "Ignores cover, and after resolving other special rules, each hit is multiplied by X, where X is up
    to as many hits as enemy models in the target unit and within 3\" of it. Hits must be split evenly between all
    enemy units within 3\" of any model from the target". ``hits`` (without the Rending 6s) and ``rending``: the
    weapon's hits after its other rules. Returns (the multiplier, one strike per unit that gets hits, without cover).
    The remainder of an uneven split goes one hit each to the target first, then the nearest units."""
    units, models = blast_units(state, target)
    x = max(1, min(weapon_value(weapon, "Blast"), models))
    n = len(units)
    out = [(u, Strike(weapon, _share(hits * x, i, n), _share(rending * x, i, n))) for i, u in enumerate(units)]
    return x, [(u, st) for u, st in out if st.hits or st.rending]


def _resolve(state: GameState, dice: Dice, attacker: Unit, target: Unit, strikes: list[Strike],
             others: list[tuple[Unit, Strike]], label: str, source: XY, fear: int = 0) -> list[Event]:
    """Defense rolls and wounds of one attack: ``target``'s ``strikes`` first, then each other unit's Blast hits
    (``others``, in order, each blocked and wounded on its own)."""
    events: list[Event] = []
    by_unit: dict[str, tuple[Unit, list[Strike]]] = {target.id: (target, list(strikes))}
    for u, st in others:
        by_unit.setdefault(u.id, (u, []))[1].append(st)
    for unit, own in by_unit.values():
        if not own:
            continue
        wounds, deadly, evs = block(dice, unit, attacker, own, label)
        events += evs
        events += take_wounds(state, dice, unit, wounds, source, fear if wounds or deadly else 0, deadly)
    return events


@dataclass
class Strike:
    """Hits of one weapon (or Impact) on a target, split by the AP they carry, and whether the target has cover
    from them (+1 to Defense)."""

    weapon: Weapon | None
    hits: int
    rending: int = 0
    cover: bool = False
    ap_bonus: int = 0
    """Thrust: AP(+1) when charging."""


def _extra_sixes(weapon: Weapon | None, sixes: int, *, charging: bool, furious: bool, far: bool) -> int:
    """Extra hits from unmodified 6s to hit: Surge (the weapon), Furious (charging), Relentless (shooting over
    9"); each gives 1 extra hit per 6."""
    extra = 0
    if weapon is not None and weapon.has("Surge"):
        extra += sixes
    if furious and charging:
        extra += sixes
    if far and weapon is not None and weapon.has("Relentless"):
        extra += sixes
    return extra


def _roll_hits(state: GameState, dice: Dice, unit: Unit, idx: list[int], weapon: Weapon, mods: list[Modifier],
               label: str, only: str | None = None) -> tuple[int, int, list[Event]]:
    """The to-hit rolls of the models ``idx`` of ``unit`` with ``weapon``: (hits, unmodified 6s, events). Sergeant
    ("Command Groups"): when the model carrying it attacks, its dice are rolled apart, after the others', and each
    of its unmodified 6s to hit deals 1 extra hit (counted in hits, not in the 6s: only the original hit counts as
    a 6 for special rules)."""
    quality = attack_quality(unit, weapon)
    mods = _unstoppable(weapon, list(mods) + effect_modifiers(unit, "to_hit"))     # spells (game.engine.magic)
    per = per_model(unit, weapon)
    sarge = command_index(state, unit, SERGEANT)
    if sarge is None or sarge not in idx:
        hr = roll_to_hit(dice, len(idx) * per, quality, mods, f"{label}: to hit", only_sixes=only)
        return hr.hits, hr.sixes, hr.events
    rest = roll_to_hit(dice, (len(idx) - 1) * per, quality, mods, f"{label}: to hit", only_sixes=only)
    own = roll_to_hit(dice, per, quality, mods, f"{label}: to hit (Sergeant)", only_sixes=only)
    events = rest.events + own.events
    if own.sixes:
        events.append(Event("info", f"{label}: Sergeant, {own.sixes} extra hit{'s' if own.sixes != 1 else ''}",
                            {"unit": unit.id, "weapon": weapon.name, "sergeant": own.sixes}))
    return rest.hits + own.hits + own.sixes, rest.sixes + own.sixes, events


def per_model(unit: Unit, weapon: Weapon) -> int:
    """Attacks of ``weapon`` per model: a melee weapon's after spells (stat ``attacks``, ``melee_attacks``)."""
    return weapon.attacks if weapon.range else melee_attacks(unit, weapon.attacks)


def block(dice: Dice, target: Unit, attacker: Unit, strikes: list[Strike],
          label: str) -> tuple[int, list[int], list[Event]]:
    """Defense rolls against every strike's hits ("Shooting": "roll one die trying to score their Defense value
    or higher to block"); AP(X) -X, Rending 6s AP(+4), Thrust AP(+1) when charging, cover +1 against shooting;
    Bane re-rolls unmodified 6s; then Regeneration (all models have it; not against Bane, Rending or
    Unstoppable). Returns (wounds, the multiplier X of each wound from a Deadly(X) weapon, events)."""
    events: list[Event] = []
    wounds = 0
    deadly: list[int] = []
    defense = target.profile.defense
    for s in strikes:
        ap = (s.weapon.ap if s.weapon is not None else 0) + s.ap_bonus
        for count, x, what in ((s.hits, ap, "Defense"), (s.rending, ap + RENDING_AP, "Defense (Rending 6s)")):
            if count <= 0:
                continue
            mods = [Modifier(f"AP({x})", -x)] if x else []
            if s.cover:
                mods.append(Modifier("Cover", +1))
            mods += effect_modifiers(target, "defense")     # spells (game.engine.magic)
            br = roll_to_block(dice, count, defense, mods, f"{target.name} {what} against {label}")
            events += br.events
            failed = br.wounds
            if s.weapon is not None and s.weapon.has("Bane"):
                sixes = sum(1 for d in br.dice if d == 6)
                if sixes:
                    again = roll_to_block(dice, sixes, defense, mods, f"{target.name} re-rolls 6s (Bane)")
                    events += again.events
                    failed += again.wounds
            if failed and target.all_have("Regeneration") and not (s.weapon is not None and any(
                    s.weapon.has(r) for r in ("Bane", "Rending", "Unstoppable"))):
                rolls = dice.d6(failed, f"{target.name} Regeneration")
                saved = sum(1 for d in rolls if d >= REGENERATION_NEED)
                events.append(roll_event(f"{target.name} Regeneration", rolls, REGENERATION_NEED, 0, saved))
                failed -= saved
            x = _deadly(s.weapon)
            if x:
                deadly += [x] * failed
            else:
                wounds += failed
    return wounds, deadly, events


def _deadly(weapon: Weapon | None) -> int:
    """X of the weapon's Deadly(X), 0 without it."""
    return weapon_value(weapon, "Deadly") if weapon is not None and weapon.has("Deadly") else 0


def take_wounds(state: GameState, dice: Dice, unit: Unit, wounds: int, source: XY, fear: int = 0,
                deadly: Sequence[int] = ()) -> list[Event]:
    """Place ``wounds`` on ``unit`` ("Wound Effects", "Groups & Wounds"): while more than one model remains each
    wound goes to one model (the most-wounded, then the nearest to ``source``), which dies once it has as many as
    its Tough value; the last model keeps its markers and, once it has at least its Tough value, rolls one die +
    markers (+``fear`` in melee, +1 when Shaken): 1-5 Shaken, 6+ (5+X with Tough(X)) Knocked Out. ``deadly``: the
    X of each wound of a Deadly(X) weapon, resolved first: X markers on one model, which do not carry over to another
    when it dies."""
    if wounds <= 0 and not deadly:
        return []
    w = warband_of(state)
    models = w.models[unit.id]
    tough = unit.tough
    taken = wounds + sum(deadly)
    killed = 0
    extra = 0       # Deadly markers on the last model
    dead: list[LooseModel] = []
    for x in deadly:
        if len(models) > 1:
            i = min(range(len(models)), key=lambda k: (-models[k].wounds, math.dist(models[k].xy, source), k))
            models[i].wounds += x
            if models[i].wounds >= tough:
                dead.append(models.pop(i))
                killed += 1
        else:
            extra += x
    while wounds > 0 and len(models) > 1:
        i = min(range(len(models)), key=lambda k: (-models[k].wounds, math.dist(models[k].xy, source), k))
        models[i].wounds += 1
        wounds -= 1
        if models[i].wounds >= tough:
            dead.append(models.pop(i))
            killed += 1
    text = f"{unit.name} takes {taken} wound{'s' if taken != 1 else ''}"
    if killed:
        text += f": {killed} model{'s' if killed != 1 else ''} killed"
        unit.models = len(models)
        if unit.id not in w.incoherent:
            w.incoherent.append(unit.id)
    events = [Event("wounds", text, {"unit": unit.id, "wounds": taken, "killed": killed})]
    events += _commands_lost(state, unit, dead)
    if wounds + extra > 0:
        last = models[0]
        last.wounds += wounds + extra
        events += _wound_effect(state, dice, unit, last, fear)
    unit.wounds = max((m.wounds for m in models), default=0)   # the state file's "wounds"
    return events


def _commands_lost(state: GameState, unit: Unit, dead: list[LooseModel]) -> list[Event]:
    """Musician and Banner lost with the model carrying them ("Command Groups"; ``models_killed``)."""
    return [Event("info", f"{unit.name}'s {up.capitalize()} is killed: its unit and the deployed units it picked lose "
                  "the rule", {"unit": unit.id, "command_lost": up}) for up in models_killed(state, unit, dead)]


def _wound_effect(state: GameState, dice: Dice, unit: Unit, last: LooseModel, fear: int) -> list[Event]:
    tough = unit.tough
    markers = last.wounds + fear
    if markers < tough:
        return [Event("info", f"{unit.name} has {last.wounds} wound marker{'s' if last.wounds != 1 else ''} "
                      f"(Tough({tough}): rolls from {tough})", {"unit": unit.id, "markers": last.wounds})]
    roll = dice.one(f"{unit.name} wound effects")
    bonus = markers + (1 if unit.shaken else 0)
    need = KNOCKED_OUT - 1 + tough
    details = [f"+{last.wounds} wound markers"] + ([f"+{fear} Fear"] if fear else []) + \
        (["+1 Shaken"] if unit.shaken else [])
    events = [roll_event(f"{unit.name} wound effects", [roll], need, bonus, None, details)]
    if roll + bonus >= need:
        events.append(Event("destroyed", f"{unit.name} is Knocked Out", {"unit": unit.id}))
        events += _commands_lost(state, unit, [last])
        warband_of(state).models[unit.id] = []
        unit.models = 0
        state.remove(unit, Removal.DESTROYED)
    else:
        if not unit.shaken:
            unit.shaken = True
        # "wound_effect": a Shaken result of the wound table, which the attacker may try to push ("Pushing")
        events.append(Event("shaken", f"{unit.name} is Shaken", {"unit": unit.id, "wound_effect": True}))
    return events


def attack_quality(unit: Unit, weapon: Weapon | None) -> int:
    """Reliable: attacks at Quality 2+."""
    if weapon is not None and weapon.has("Reliable") or unit.has("Reliable"):
        return 2
    return unit.profile.quality


def _unstoppable(weapon: Weapon | None, mods: list[Modifier]) -> list[Modifier]:
    """Unstoppable: "ignores all negative modifiers to this weapon"."""
    if weapon is not None and weapon.has("Unstoppable"):
        return [m for m in mods if m.value >= 0]
    return mods


def shoot(state: GameState, dice: Dice, shooter: Unit, target: Unit, weapons: list[Weapon], moved: bool = False
          ) -> list[Event]:
    """"Shooting": the models of ``shooter`` in range and line of sight fire ``weapons`` at ``target``: one
    Quality test per attack (Stealth -1 over 9"; Indirect -1 after moving (``moved``)), Defense rolls (cover +1;
    Indirect ignores cover from sight obstructions), then the wound effects. Each weapon is fired by the models that
    may fire it (``in_range``)."""
    events: list[Event] = []
    strikes: list[Strike] = []
    others: list[tuple[Unit, Strike]] = []
    firing: set[int] = set()
    pts = points_of(state, shooter.id)
    rs, rt = base_radius(shooter.profile), base_radius(target.profile)
    foes = points_of(state, target.id)
    for weapon in weapons:
        idx = in_range(state, shooter, target, weapon)
        if not idx:
            continue
        firing |= set(idx)
        nearest = min(gap(pts[i], rs, q, rt) for i in idx for q in foes)
        far = nearest > STEALTH_RANGE
        mods = []
        if far and target.all_have("Stealth"):
            mods.append(Modifier("Stealth", -1))
        if moved and weapon.has("Indirect"):
            mods.append(Modifier("Indirect after moving", -1))
        mods = _unstoppable(weapon, mods)
        attacks = len(idx) * weapon.attacks
        label = f"{shooter.name} shoots {target.name} with {weapon.name}"
        events.append(Event("shoot", f"{label}: {len(idx)} model{'s' if len(idx) != 1 else ''}, {attacks} "
                            f"attacks", {"unit": shooter.id, "target": target.id, "weapon": weapon.name,
                                         "models": idx, "attacks": attacks}))
        got, sixes, rolled = _roll_hits(state, dice, shooter, idx, weapon, mods, label)
        events += rolled
        extra = _extra_sixes(weapon, sixes, charging=False, furious=False, far=far)
        rending = sixes if weapon.has("Rending") else 0
        hits = got + extra
        events.append(Event("hits", f"{label}: {hits} hit{'s' if hits != 1 else ''}",
                            {"unit": shooter.id, "target": target.id, "weapon": weapon.name, "hits": hits}))
        if weapon.has("Blast"):           # ignores cover; multiplied and split between the units near the target
            events += _blast(state, target, weapon, hits - rending, rending, label, others)
            continue
        # cover from the models that fired this weapon; Indirect: only from being inside cover terrain
        cover = in_cover(state, target, [] if weapon.has("Indirect") else [pts[i] for i in idx])
        strikes.append(Strike(weapon, hits - rending, rending, cover))
    shooters = [pts[i] for i in sorted(firing)]
    return events + _resolve(state, dice, shooter, target, strikes, others, f"{shooter.name}'s shots",
                             centre(shooters) if shooters else (0.0, 0.0))


def _blast(state: GameState, target: Unit, weapon: Weapon, hits: int, rending: int, label: str,
           others: list[tuple[Unit, Strike]]) -> list[Event]:
    """A Blast weapon's hits multiplied and split (``blast``): the target's share first in ``others`` too (its
    strikes are merged by ``_resolve``); an event says how."""
    if hits + rending <= 0:
        return []
    x, split = blast(state, target, weapon, hits, rending)
    others += split
    shares = ", ".join(f"{u.name} {st.hits + st.rending}" for u, st in split)
    return [Event("info", f"{label}: Blast x{x}, {(hits + rending) * x} hits, ignoring cover ({shares})",
                  {"target": target.id, "weapon": weapon.name, "blast": x,
                   "split": {u.id: st.hits + st.rending for u, st in split}})]


def strikers(state: GameState, unit: Unit, enemy: Unit) -> list[int]:
    """Indices of the models of ``unit`` within 2" horizontally (base edge to base edge) and 4" vertically (the
    heights they stand at, ``height_at``) of a model of ``enemy`` ("Melee": they must strike)."""
    ru, re = base_radius(unit.profile), base_radius(enemy.profile)
    foes = [(q, height_at(state, q)) for q in points_of(state, enemy.id)]
    return [i for i, p in enumerate(points_of(state, unit.id))
            if any(gap(p, ru, q, re) <= STRIKE_REACH + 1e-6
                   and abs(height_at(state, p) - zq) <= VERTICAL_REACH + 1e-6 for q, zq in foes)]


def strike(state: GameState, dice: Dice, unit: Unit, enemy: Unit, *, charging: bool, fatigued: bool,
           weapons: list[Weapon] | None = None, impact_penalty: int = 0) -> list[Event]:
    """"Melee": the models of ``unit`` within 2" of ``enemy`` strike with all melee weapons (``weapons``: only
    those; Impact(X) first when charging and not fatigued: X dice each, ``impact_penalty`` fewer in all (Counter),
    a hit on 2+). Fatigued (or Shaken, "counting as fatigued") models hit only on unmodified 6s. Thrust: +1 to hit
    and AP(+1) when charging; Furious: 6s to hit deal an extra hit when charging; Fear(X): +X to the wound effect
    roll; a Limited weapon strikes once per game."""
    idx = strikers(state, unit, enemy)
    events: list[Event] = []
    if not idx:
        return [Event("info", f"{unit.name} has no model within 2\" (4\" vertically) of {enemy.name}",
                      {"unit": unit.id})]
    strikes: list[Strike] = []
    others: list[tuple[Unit, Strike]] = []
    only = "Fatigue" if fatigued else ("Shaken" if unit.shaken else None)
    impact = unit.profile.value("Impact")
    if charging and not only and impact and len(idx) * impact - impact_penalty > 0:
        rolls = dice.d6(len(idx) * impact - impact_penalty, f"{unit.name} Impact on {enemy.name}")
        hits = sum(1 for d in rolls if d >= IMPACT_NEED)
        events.append(roll_event(f"{unit.name} Impact on {enemy.name}", rolls, IMPACT_NEED, 0, hits))
        strikes.append(Strike(None, hits))
    for weapon in unit.profile.melee_weapons if weapons is None else weapons:
        if weapon.has("Limited"):
            if weapon.name in unit.limited_used:
                continue
            unit.limited_used.add(weapon.name)
        attacks = len(idx) * per_model(unit, weapon)
        label = f"{unit.name} strikes {enemy.name} with {weapon.name}"
        mods: list[Modifier] = []
        thrust = charging and weapon.has("Thrust")
        if thrust:
            mods.append(Modifier("Thrust", +1))
        events.append(Event("info", f"{label}: {len(idx)} model{'s' if len(idx) != 1 else ''}, {attacks} attacks"
                            + (f" (hit only on 6: {only})" if only else ""),
                            {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "models": idx,
                             "attacks": attacks}))
        got, sixes, rolled = _roll_hits(state, dice, unit, idx, weapon, mods, label, only)
        events += rolled
        extra = _extra_sixes(weapon, sixes, charging=charging, furious=unit.has("Furious"), far=False)
        rending = sixes if weapon.has("Rending") else 0
        hits = got + extra
        events.append(Event("hits", f"{label}: {hits} hit{'s' if hits != 1 else ''}",
                            {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "hits": hits}))
        if weapon.has("Blast"):
            n0 = len(others)
            events += _blast(state, enemy, weapon, hits - rending, rending, label, others)
            for _, st in others[n0:]:
                st.ap_bonus = 1 if thrust else 0
            continue
        strikes.append(Strike(weapon, hits - rending, rending, ap_bonus=1 if thrust else 0))
    pts = points_of(state, unit.id)
    return events + _resolve(state, dice, unit, enemy, strikes, others, f"{unit.name}'s strikes",
                             centre([pts[i] for i in idx]), unit.profile.value("Fear"))
