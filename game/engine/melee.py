"""Fighting one combat: who strikes, the four steps of the Order of Attacks, Melee Resolution and the Melee
Morale Tests (rulebook "Melee": Who Can Strike, Order of Attacks, The Melee Sequence, Return Strikes, Fatigue,
Melee Resolution, Multiple Units in Combat; "Morale": Melee Morale Tests, Flanking, Shaken Units; special rules
Counter, Impact(X), Fear(X), Furious, Lance, Reliable, AP(X), Rending, Poison, Deadly(X), Blast(X),
Regeneration, Immobile; "Command Groups": Sergeant).

A combat is a list of unit ids (both sides, the active player's units first, scenario order). Everything is
deterministic; every die goes through ``Dice`` with its purpose.

Order of the dice (what a fixed dice sequence must follow): the four steps in turn (1 Counter, 2 Impact,
3 charging units, 4 remaining attacks); within a step the combat's units in order; within a unit its targets in
combat order; for each target the weapons in profile order (Deadly weapons first) and then the Impact attacks;
for one weapon: the hit rolls of the striking models but the Sergeant, then the Sergeant's hit rolls, then the
Defense rolls (hits without Rending AP first, then the Rending 6s), then the Poison re-rolls of 6, then the
Regeneration rolls. Casualties of a step are removed together after every unit of the step has struck.

Rulings made here (for docs/rulings.md):

* Who Can Strike: each model strikes once (with all its melee weapons) at one enemy unit. A model of the two
  front rows strikes an enemy unit engaged with its unit's front (``contact_arcs`` FRONT); with several such
  units it strikes the one whose footprint is nearest to the model's base centre (ties: combat order). Models
  not striking to the front strike an enemy in base contact with them on the unit's flank (normal hits) or
  else on its rear (hits only on unmodified 6s); ``geometry.contact.models_in_contact`` decides base contact.
* Who strikes is recomputed at the start of each step, so casualties of an earlier step (and gaps they open)
  count; units killed during a step still strike in that step (simultaneous attacks).
* Counter: a model's Counter weapons strike in step 1 against an enemy that charged its unit in the front this
  first round (the enemy ``fights_as_charger``, is in ``first_round_with`` and in the FRONT contact arc); its
  other weapons strike in their usual step. A unit rule Counter makes all its melee weapons Counter weapons.
* Counter vs Impact: against a unit whose front it fights, an Impact unit rolls (or, in later rounds, gets)
  1 fewer Impact die/attack per enemy model with Counter in the enemy's two front rows, never below 0.
* Impact(X): in the charge round (``fights_as_charger``) each model of the two front rows striking to the front
  rolls X dice in step 2, hitting on 2+ (a natural 1 fails), with no weapon rule, no Fatigue and no Sergeant;
  the hits go to the model's target. In later rounds the same models get X extra attacks in step 4 at the
  unit's Quality (Sergeant +1 and Fatigue apply, no weapon rule); a unit charged gets none in the charge's round
  (it did not charge, and that round is not a following one).
* Lance and Furious apply when the unit ``fights_as_charger`` (charged this turn or followed up), and may be
  written on the weapon or the unit. Lance adds AP(+1) to weapons with or without AP.
* Deadly(X) wounds use ``shooting.deadly_wounds`` against the target's state at the start of the step.
* Wounds caused (for Melee Resolution) are the wounds put on the enemy after Defense, Regeneration and Deadly,
  including wounds beyond the last model (overkill counts), and including wounds caused by units destroyed in
  the same combat.
* Melee Resolution by side (rulebook "Multiple Units in Combat"): wounds caused by every unit of the side,
  +1 per full row (models // starting front-row size, max 3) of each unit still on the table (a unit that
  started as one model always has one full row), +1 per unit still on the table that ``fights_as_charger``,
  +X per unit with Fear(X) still on the table (once per unit, not per model), and per enemy unit still on the
  table +1 for each of its flank sides and +2 for its rear side that a unit of the side on the table touches
  (``contact_arcs``), once per side of that enemy.
* A side whose units in the combat were all destroyed loses; the other side wins without any morale test. If
  both sides were destroyed there is no winner.
* Melee Morale Tests: "remaining minus the difference" zero or less gives -2 instead of -1 (not -3). Flanking:
  -1 if an enemy still engaged touches the unit's flank, -2 if one touches its rear (the larger only); these add
  to the -1/-2. "Already Shaken" is judged before the test.
* Immobile losers that fail stay locked in combat (Shaken); if they would flee they rout instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from game.engine.attacks import Modifier, roll_to_hit
from game.engine.casualties import apply_wounds, remaining_strength, starting_strength
from game.engine.dice import Dice
from game.engine.events import Event
from game.engine.morale import make_shaken, morale_test
from game.engine.profiles import Profile, Weapon
from game.engine.shooting import sergeant_index
from game.engine.special_rules import (
    IMPACT_NEED,
    RENDING_AP,
    ap_modifier,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_first,
    deadly_wounds,
    defense_profile,
    fear_bonus,
    furious_extra_hits,
    immobile,
    lance_modifier,
    limited_available,
    rending_hits,
    sergeant_modifier,
    use_limited,
    weapon_value,
)
from game.engine.spell_effects import effect_modifiers, melee_attacks
from game.engine.state import GameState, Unit
from geometry.arcs import Arc
from geometry.contact import models_in_contact
from geometry.formation import hero_index

STEP_NAMES: dict[int, str] = {
    1: "Counter attacks",
    2: "Impact hits",
    3: "attacks from charging units",
    4: "remaining attacks",
}
"""Rulebook "Order of Attacks": the four steps of a round of melee."""

MAX_ROW_BONUS = 3
"""Rulebook "Melee Resolution": +1 per full row, up to +3 per unit."""

FLANK_BONUS = 1
"""Rulebook "Melee Resolution": +1 for attacking in the flank."""

REAR_BONUS = 2
"""Rulebook "Melee Resolution": +2 for attacking in the rear."""


# --- who can strike ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Strike:
    """One model's strike: which model (``model_centres`` order), at which enemy unit, from which facing."""

    model: int
    """Index of the striking model, front row first."""
    target: str
    """Enemy unit id."""
    kind: str
    """"front" (two front rows), "flank" (base contact on a flank) or "rear" (base contact on the rear)."""


def _order_key(state: GameState, order: list[str]) -> Callable[[str], int]:
    index = {uid: i for i, uid in enumerate(order)}
    fallback = {uid: len(order) + i for i, uid in enumerate(state.units)}
    return lambda uid: index.get(uid, fallback.get(uid, 1 << 30))


def enemies_in(state: GameState, unit: Unit, order: list[str]) -> list[Unit]:
    """Enemy units engaged with ``unit`` and on the table, in ``order`` (then scenario order)."""
    key = _order_key(state, order)
    return [state.units[e] for e in sorted(unit.engaged_with, key=key) if state.units[e].on_table]


def strikes_of(state: GameState, unit: Unit, order: list[str]) -> list[Strike]:
    """The strikes ``unit`` makes now (rulebook "Who Can Strike"; see the module rulings).

    Returns one ``Strike`` per striking model, in model order. Empty for a unit not on the table.
    """
    if not unit.on_table or unit.models <= 0:
        return []
    enemies = enemies_in(state, unit, order)
    if not enemies:
        return []
    scene = state.scene
    rows = scene.model_rows(unit.id)
    centres = scene.model_centres(unit.id)
    front = [e for e in enemies if unit.contact_arcs.get(e.id) is Arc.FRONT]
    out: dict[int, Strike] = {}
    if front:
        # each model of the two front rows strikes the front enemy nearest its centre (the first on a tie)
        striking = [i for i in range(len(rows)) if int(rows[i]) <= 1]
        gaps = [[0.0] * len(striking)] if len(front) == 1 else \
            [[round(d, 6) for d in scene.distances_to_points(e.id, centres[striking])] for e in front]
        for j, i in enumerate(striking):
            best = min(range(len(front)), key=lambda k: (gaps[k][j], k))
            out[i] = Strike(i, front[best].id, "front")
    for kind, arcs in (("flank", (Arc.LEFT, Arc.RIGHT)), ("rear", (Arc.REAR,))):
        for e in enemies:
            if unit.contact_arcs.get(e.id) not in arcs:
                continue
            for i in models_in_contact(scene, unit.id, e.id):
                if i not in out:
                    out[i] = Strike(int(i), e.id, kind)
    return [out[i] for i in sorted(out)]


def front_two_rows(state: GameState, unit: Unit) -> int:
    """Models of ``unit`` in its two front rows."""
    if not unit.on_table:
        return 0
    return sum(1 for r in state.scene.model_rows(unit.id) if int(r) <= 1)


def has_counter(profile: Profile | Unit, weapon: Weapon) -> bool:
    """True if ``weapon`` counts as a Counter weapon for models of ``profile`` (rulebook "Counter"; a unit rule
    Counter makes every melee weapon of those models a Counter weapon). A ``Unit`` stands for its own profile."""
    prof = profile.profile if isinstance(profile, Unit) else profile
    return weapon.has("Counter") or prof.has("Counter")


def _kinds(unit: Unit, models: list[int]) -> list[tuple[Profile, bool, list[int]]]:
    """``models`` split by kind: (profile, is_hero, indices) for the unit's own models, then its joined hero."""
    hero = hero_index(unit.formation) if unit.hero_alive else None
    own = [m for m in models if m != hero]
    out = [(unit.profile, False, own)] if own else []
    if hero is not None and hero in models and unit.hero is not None:
        out.append((unit.hero.profile, True, [hero]))
    return out


def counter_models(state: GameState, unit: Unit) -> int:
    """Models with a Counter weapon in the two front rows of ``unit`` (rulebook "Counter"), a joined hero
    counted by its own weapons."""
    if not unit.on_table:
        return 0
    rows = state.scene.model_rows(unit.id)
    front = [i for i in range(len(rows)) if int(rows[i]) <= 1]
    return sum(len(models) for prof, _, models in _kinds(unit, front)
               if any(has_counter(prof, w) for w in prof.melee_weapons))


def counters_charge(unit: Unit, enemy: Unit) -> bool:
    """True if ``unit``'s Counter weapons strike first against ``enemy``: ``enemy`` charged ``unit`` in the front
    and this is their first round of combat (rulebook "Counter")."""
    return (enemy.fights_as_charger and enemy.id in unit.first_round_with
            and unit.contact_arcs.get(enemy.id) is Arc.FRONT)


def impact_dice(profile: Profile, models: int, counter_cut: int) -> tuple[int, int]:
    """Rulebook "Impact(X)": X dice (or, in later rounds, X attacks) per model of ``profile`` striking to the
    front, less the enemy's Counter models (rulebook "Counter": -1 per model), never below 0. Returns (dice, the
    Counter cut still to take off other models)."""
    dice = profile.value("Impact") * models
    cut = min(dice, counter_cut)
    return dice - cut, counter_cut - cut


# --- one batch of attacks --------------------------------------------------------------------------------------


@dataclass
class _Batch:
    """Attacks of one weapon (or Impact) of some models of one kind (the unit's own or its hero) at one target,
    in one step."""

    unit: Unit
    target: Unit
    weapon: Weapon | None
    """None for Impact hits (step 2) or Impact attacks (step 4)."""
    models: list[int]
    only_sixes: str | None
    """Why hits need a 6 (Fatigue, rear), or None."""
    step: int
    impact_dice: int = 0
    """Impact hits in step 2 / Impact attacks in step 4: the number of dice (after Counter)."""
    profile: Profile | None = None
    """The striking models' profile (Quality, rules); None for the unit's own."""
    hero: bool = False
    """The striking model is the unit's joined hero."""


@dataclass
class StepResult:
    """What one step did: wounds to put on each unit and wounds caused by each unit."""

    wounds_on: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    """Wounds to put on each unit at the end of the step."""
    caused_by: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    """Wounds each unit caused in the step."""
    events: list[Event] = field(default_factory=list)
    """Rolls and hits of the step."""


def _resolve_batch(state: GameState, dice: Dice, b: _Batch, out: StepResult) -> None:
    """The Melee Sequence for one batch (rulebook "The Melee Sequence"): attacks, hits, blocks; wounds noted."""
    unit, target, weapon = b.unit, b.target, b.weapon
    prof = b.profile or unit.profile
    charging = unit.fights_as_charger
    events = out.events
    who = f"{unit.hero.name} with {unit.name}" if b.hero and unit.hero is not None else unit.name
    if b.step == 2:
        label = f"{who} Impact hits on {target.name}"
        attacks = b.impact_dice
    elif weapon is None:
        label = f"{who} Impact attacks on {target.name}"
        attacks = b.impact_dice
    else:
        label = f"{who} strikes {target.name} with {weapon.name}"
        attacks = len(b.models) * melee_attacks(unit, weapon.attacks)
    if attacks <= 0:
        return
    if weapon is not None:
        use_limited(unit, weapon)
    events.append(Event("info", f"{label}: {attacks} {'dice' if b.step == 2 else 'attacks'}"
                        + (f" (hit only on 6: {b.only_sixes})" if b.only_sixes and b.step != 2 else ""),
                        {"unit": unit.id, "target": target.id, "step": b.step,
                         "weapon": weapon.name if weapon else "Impact", "models": list(b.models),
                         "attacks": attacks, "hero": b.hero}))
    # 2. Roll to hit.
    hits = sixes = 0
    if b.step == 2:
        hr = roll_to_hit(dice, attacks, IMPACT_NEED, [], f"{label} ({IMPACT_NEED}+)",
                         need_text=f"Impact {IMPACT_NEED}+")
        events += hr.events
        hits = hr.hits
    else:
        quality, need = attack_quality(prof, weapon, False)
        mods: list[Modifier] = []
        lance, lance_ap = lance_modifier(prof, weapon, charging)
        if lance is not None:
            mods.append(lance)
        mods += effect_modifiers(unit, "to_hit")  # spells (game.engine.magic)
        sarge = sergeant_index(unit) if not b.hero else None
        per_model = melee_attacks(unit, weapon.attacks) if weapon is not None else prof.value("Impact")
        sarge_attacks = min(per_model, attacks) if sarge is not None and sarge in b.models else 0
        batches = [(attacks - sarge_attacks, mods, "to hit")]
        if sarge_attacks:
            batches.append((sarge_attacks, [*mods, sergeant_modifier()], "to hit (Sergeant)"))
        for count, m, what in batches:
            if count <= 0:
                continue
            hr = roll_to_hit(dice, count, quality, m, f"{label}: {what}", only_sixes=b.only_sixes, need_text=need)
            events += hr.events
            hits += hr.hits
            sixes += hr.sixes
    rending = rending_hits(prof, weapon, sixes)
    furious = furious_extra_hits(prof, weapon, sixes, charging) if b.step != 2 else 0
    blast = blast_multiplier(weapon, target.models)
    normal_hits = (hits - rending + furious) * blast
    rending_hits_ = rending * blast
    total_hits = normal_hits + rending_hits_
    notes = ([f"Furious +{furious}"] if furious else []) + ([f"Blast x{blast}"] if blast > 1 else [])
    events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}"
                        + (f" ({', '.join(notes)})" if notes else ""),
                        {"unit": unit.id, "target": target.id, "step": b.step,
                         "weapon": weapon.name if weapon else "Impact", "hits": total_hits}))
    if total_hits == 0:
        return
    # 3. Roll to block.
    ap = 0
    if weapon is not None:
        ap = weapon.ap + lance_modifier(prof, weapon, charging)[1]
    defender = defense_profile(target)
    defense = defender.defense
    need_block = f"Defense {defense}+" + (f" ({defender.name})" if defender is not target.profile else "")

    def ap_mods(x: int) -> list[Modifier]:
        apm = ap_modifier(x)
        return ([apm] if apm is not None else []) + effect_modifiers(target, "defense")  # spells: magic

    block_batches = [(normal_hits, ap_mods(ap), "Defense")]
    if rending_hits_:
        block_batches.append((rending_hits_, ap_mods(max(ap, RENDING_AP)), "Defense against Rending 6s"))
    wounds, evs = block_hits(dice, block_batches, defender, prof, weapon,
                             lambda what: f"{target.name} {what} against {who}", f"{target.name} against {who}",
                             need_block, target.id)
    events += evs
    if wounds and weapon is not None and weapon.has("Deadly"):
        wounds = deadly_wounds(target, wounds, weapon_value(weapon, "Deadly"))
    out.wounds_on[target.id] += wounds
    out.caused_by[unit.id] += wounds


def _weapon_order(unit: Unit | Profile) -> list[Weapon]:
    """Melee weapons, Deadly first (rulebook "Deadly(X)"), else profile order."""
    prof = unit.profile if isinstance(unit, Unit) else unit
    return sorted(prof.melee_weapons, key=lambda w: not deadly_first(w))


def _batches_for_step(state: GameState, unit: Unit, step: int, order: list[str]) -> list[_Batch]:
    """The batches ``unit`` rolls in ``step`` (1-4) of the Order of Attacks: per target, per kind of model (the
    unit's own, then its joined hero with its own weapons and Quality), per weapon, per facing."""
    strikes = strikes_of(state, unit, order)
    if not strikes:
        return []
    key = _order_key(state, order)
    by_target: dict[str, list[Strike]] = defaultdict(list)
    for s in strikes:
        by_target[s.target].append(s)
    fatigue = "Fatigue (Shaken)" if unit.shaken else None
    batches: list[_Batch] = []
    for tid in sorted(by_target, key=key):
        target = state.units[tid]
        group = by_target[tid]
        front_models = [s.model for s in group if s.kind == "front"]
        counter_first = counters_charge(unit, target)
        counter_cut = (counter_models(state, target)
                       if target.contact_arcs.get(unit.id) is Arc.FRONT else 0)
        if step == 2:
            if unit.fights_as_charger:
                for prof, hero, models in _kinds(unit, front_models):
                    n, counter_cut = impact_dice(prof, len(models), counter_cut)
                    if prof.value("Impact"):
                        batches.append(_Batch(unit, target, None, models, None, 2, n, prof, hero))
            continue
        if step == 1 and not counter_first:
            continue
        if step == 3 and not unit.fights_as_charger:
            continue
        if step == 4 and unit.fights_as_charger:
            continue
        for prof, hero, _ in _kinds(unit, [s.model for s in group]):
            for weapon in _weapon_order(prof):
                if not limited_available(unit, weapon):
                    continue
                is_counter = has_counter(prof, weapon) and counter_first
                if (step == 1) != is_counter:
                    continue
                for kind in ("front", "flank", "rear"):
                    models = [s.model for s in group if s.kind == kind]
                    models = next((m for p, h, m in _kinds(unit, models) if h == hero), [])
                    if not models:
                        continue
                    only = fatigue or ("strike to the rear" if kind == "rear" else None)
                    batches.append(_Batch(unit, target, weapon, models, only, step, 0, prof, hero))
        if step == 4 and not unit.fights_as_charger and tid not in unit.first_round_with:
            # "in the following rounds": not in the round this enemy charged the unit (docs/rulings.md "Impact(X)")
            for prof, hero, models in _kinds(unit, front_models):
                n, counter_cut = impact_dice(prof, len(models), counter_cut)
                if prof.value("Impact"):
                    batches.append(_Batch(unit, target, None, models, fatigue, 4, n, prof, hero))
    return batches


@dataclass
class FightResult:
    """The outcome of the four steps: wounds caused by each unit (for Melee Resolution) and the events."""

    caused: dict[str, int]
    """Wounds caused by each unit of the combat."""
    events: list[Event]


def fight(state: GameState, dice: Dice, order: list[str]) -> FightResult:
    """Fight one round of melee between the units of ``order`` (rulebook "Order of Attacks").

    ``order``: the combat's unit ids, active player's first. Steps 1-4 in turn; in each step every unit (still
    on the table at the start of the step) rolls its batches, then all the step's wounds are put on their
    targets at once (``casualties.apply_wounds``: a unit with no models left is destroyed and leaves the melee).
    Returns the wounds caused per unit.
    """
    caused: dict[str, int] = {uid: 0 for uid in order}
    events: list[Event] = []
    for step in (1, 2, 3, 4):
        result = StepResult()
        for uid in order:
            unit = state.units[uid]
            if not unit.on_table:
                continue
            for batch in _batches_for_step(state, unit, step, order):
                _resolve_batch(state, dice, batch, result)
        if result.events:
            events.append(Event("info", f"Step {step}: {STEP_NAMES[step]}", {"step": step}))
            events += result.events
        for uid in order:
            caused[uid] += result.caused_by.get(uid, 0)
        for uid in order:
            n = result.wounds_on.get(uid, 0)
            unit = state.units[uid]
            if n and unit.on_table:
                events += apply_wounds(state, unit, n, "melee", dice)
    return FightResult(caused, events)


# --- melee resolution --------------------------------------------------------------------------------------------


def full_rows(unit: Unit) -> int:
    """Full rows for Melee Resolution, at most 3 (rulebook "Melee Resolution"): models // starting front-row size
    (before adding heroes); a unit that started as one model has one full row while it lives.

    A joined hero counts as the places it takes when its base fits into formation, else (beside the unit) only
    once the unit's other models are down to one row, as one model (rulebook "Heroes & Units With Mixed Base
    Sizes")."""
    if not unit.on_table or unit.models <= 0:
        return 0
    if unit.starting_models == 1:
        return 1
    return min(MAX_ROW_BONUS, resolution_models(unit) // max(unit.starting_rows_width, 1))


def resolution_models(unit: Unit) -> int:
    """How many models ``unit`` counts as for its full rows (rulebook "Heroes & Units With Mixed Base Sizes")."""
    if not unit.hero_alive:
        return unit.models
    slots = unit.formation.hero_slots
    if slots is not None:
        return unit.regulars + slots[0] * slots[1]
    return unit.regulars + (1 if unit.regulars <= unit.per_row else 0)


@dataclass
class SideScore:
    """One side's Melee Resolution total and its parts."""

    player: int
    """The side."""
    wounds: int = 0
    """Wounds caused by the side's units."""
    rows: int = 0
    """Full rows of its units on the table (max 3 each)."""
    charge: int = 0
    """+1 per unit on the table that charged this turn (or followed up)."""
    fear: int = 0
    """Fear(X) of its units on the table."""
    flank: int = 0
    """+1 per enemy flank side attacked."""
    rear: int = 0
    """+2 per enemy rear side attacked."""
    units: list[str] = field(default_factory=list)
    """The side's units in this combat (destroyed ones included)."""

    @property
    def total(self) -> int:
        """Sum of every bonus."""
        return self.wounds + self.rows + self.charge + self.fear + self.flank + self.rear

    def to_dict(self) -> dict[str, int]:
        """The parts as data for the window."""
        return {"wounds": self.wounds, "rows": self.rows, "charge": self.charge, "fear": self.fear,
                "flank": self.flank, "rear": self.rear, "total": self.total}


@dataclass
class Resolution:
    """Melee Resolution of one combat."""

    scores: dict[int, SideScore]
    """Each player's total."""
    winner: int | None
    """Winning player, or None for a tie (or both sides destroyed)."""
    difference: int
    """Winner's total minus loser's total (0 for a tie)."""
    wiped: int | None = None
    """A player whose units in this combat were all destroyed, if any."""
    events: list[Event] = field(default_factory=list)
    """The resolution event."""

    @property
    def loser(self) -> int | None:
        """The losing player, None for a tie."""
        return None if self.winner is None else 3 - self.winner


def resolve(state: GameState, order: list[str], caused: dict[str, int]) -> Resolution:
    """Melee Resolution by side (rulebook "Melee Resolution", "Multiple Units in Combat"; module rulings).

    Uses the units' state after casualties: ``contact_arcs`` for flank/rear bonuses, ``fights_as_charger`` for
    the charge bonus. Returns the resolution with a ``resolution`` event.
    """
    players = sorted({state.units[u].player for u in order}, key=lambda p: (p != state.active_player, p))
    scores = {p: SideScore(p) for p in (1, 2)}
    for uid in order:
        unit = state.units[uid]
        sc = scores[unit.player]
        sc.units.append(uid)
        sc.wounds += caused.get(uid, 0)
        if unit.on_table:
            sc.rows += full_rows(unit)
            sc.charge += 1 if unit.fights_as_charger else 0
            sc.fear += fear_bonus(unit)
    # Flank and rear bonuses: once per side of each enemy unit.
    for uid in order:
        enemy = state.units[uid]
        if not enemy.on_table:
            continue
        sides = {enemy.contact_arcs[a] for a in enemy.engaged_with
                 if a in enemy.contact_arcs and state.units[a].on_table}
        sc = scores[3 - enemy.player]
        sc.flank += FLANK_BONUS * sum(1 for s in sides if s.is_flank)
        sc.rear += REAR_BONUS if Arc.REAR in sides else 0
    alive = {p: any(state.units[u].on_table for u in scores[p].units) for p in (1, 2)}
    present = {p: bool(scores[p].units) for p in (1, 2)}
    wiped = next((p for p in players if present[p] and not alive[p]), None)
    winner: int | None
    if present[1] and present[2] and not alive[1] and not alive[2]:
        winner, diff = None, 0
    elif wiped is not None:
        winner = 3 - wiped
        diff = max(0, scores[winner].total - scores[wiped].total)
    else:
        t1, t2 = scores[1].total, scores[2].total
        winner = None if t1 == t2 else (1 if t1 > t2 else 2)
        diff = abs(t1 - t2)
    parts = []
    for p in players:
        s = scores[p]
        bits = [f"{s.wounds} wounds", f"{s.rows} rows"]
        for name, v in (("charge", s.charge), ("Fear", s.fear), ("flank", s.flank), ("rear", s.rear)):
            if v:
                bits.append(f"{v} {name}")
        parts.append(f"player {p}: {s.total} ({', '.join(bits)})")
    if winner is None:
        verdict = "both sides are destroyed" if wiped is not None else "the melee is a tie"
    elif wiped is not None:
        verdict = f"player {winner} wins: every enemy unit was destroyed"
    else:
        verdict = f"player {winner} wins by {diff}"
    ev = Event("resolution", f"Melee resolution: {'; '.join(parts)}: {verdict}", {
        "units": list(order), "scores": {p: scores[p].to_dict() for p in players}, "winner": winner,
        "difference": diff, "wiped": wiped, "caused": dict(caused)})
    return Resolution(scores, winner, diff, wiped, [ev])


# --- melee morale tests ------------------------------------------------------------------------------------------

PASSED = "passed"
SHAKEN = "shaken"
FLEES = "flees"
STAYS = "stays"
"""Morale outcomes of a loser: passed, Shaken (retreats), Shaken and Flees, Shaken but Immobile (stays locked)."""


def melee_morale_modifiers(state: GameState, unit: Unit, difference: int) -> tuple[list[Modifier], bool]:
    """Modifiers of a Melee Morale Test and whether a failure makes the unit flee (rulebook "Melee Morale Tests",
    "Flanking"). Returns (modifiers, flees_on_failure)."""
    left = remaining_strength(unit) - difference
    start = starting_strength(unit)
    mods: list[Modifier] = []
    if left <= 0:
        mods.append(Modifier("nothing left after the resolution difference", -2))
    elif left * 2 <= start:
        mods.append(Modifier("half or less left after the resolution difference", -1))
    arcs = {unit.contact_arcs[e] for e in unit.engaged_with if e in unit.contact_arcs}
    if Arc.REAR in arcs:
        mods.append(Modifier("charged in the rear", -2))
    elif Arc.LEFT in arcs or Arc.RIGHT in arcs:
        mods.append(Modifier("charged in the flank", -1))
    return mods, left * 2 <= start


def melee_morale_test(state: GameState, dice: Dice, unit: Unit, difference: int) -> tuple[str, list[Event]]:
    """The Melee Morale Test of a losing unit and its outcome (rulebook "Melee Morale Tests", "Shaken Units",
    "Immobile"). Returns (PASSED | SHAKEN | FLEES | STAYS, events). Makes the unit Shaken on a failure; the
    flight itself is the caller's."""
    mods, flees = melee_morale_modifiers(state, unit, difference)
    was_shaken = unit.shaken
    test = morale_test(dice, unit, mods, f"lost the melee by {difference}")
    events = list(test.events)
    if test.passed:
        return PASSED, events
    if not unit.shaken:
        events.append(make_shaken(unit))
    if flees or was_shaken:
        why = "already Shaken" if was_shaken else "half or less left after the resolution difference"
        events.append(Event("morale", f"{unit.name} is Shaken and Flees ({why})",
                            {"unit": unit.id, "outcome": FLEES}))
        return FLEES, events
    if immobile(unit):
        events.append(Event("info", f"{unit.name} is Immobile: it does not move back and stays locked in combat",
                            {"unit": unit.id, "outcome": STAYS}))
        return STAYS, events
    return SHAKEN, events
