"""Age of Fantasy: Regiments, the current quick rules (issue 14; ../shared/rules/aofr-quick-rules.md), behind the
ruleset seam (``game.engine.rulesets.base``) as ``ruleset: aofr-quick``.

The quick rules have the structure of AoF:R 2.16 ("Playing the Game", "Activation", "Movement", "Shooting", the
"Mission"), so this ruleset is ``AoFR216`` (game.engine.rulesets.aofr) with what the quick rules write differently:

* "Morale": a failed test makes the unit **Shaken** (not Wavering). "Shaken": it must stay idle (its activation is
  idle, with a pivot up to 90°, and then it is no longer Shaken), may strike back counting as fatigued, always
  fails morale tests, and neither contests nor seizes objective markers.
* "Melee Results": wounds caused + full rows (+ Fear(X)); the lowest total loses and takes a morale test: failed at
  half strength or less it routs, else it is Shaken. "Flanking": -1/-2 to that test when the loser was charged in
  its flank/rear.
* "Fatigue": after charging or striking back, a unit hits only on unmodified 6s in melee for the rest of the round.
* The melee rules of its reference: Impact(X) dice hitting on 2+ (less the Counter models of a target charged in
  the front), Counter weapons striking first, Furious and the Sergeant's extra hits on 6s, Rending's AP(+4), Fear.
* "Morale Tests": the Banner's +1, Fearless's re-roll on 4+ (``game.engine.morale.morale_test``).
* "Shooting" and "Cover Terrain": every model fires; cover is +1 to Defense (as AoWFBR).
* "Movement": a Rush may pivot once by up to 90° at any point. "Dangerous Terrain": a unit that activates in it
  tests too.
* "Regiments", "Combined Units", "Force Org." (optional, ``force_org: true``): checked when a scenario loads
  (``game.engine.rulesets.aofr_quick_forces``).

The special rules it plays are ``SPECIAL_RULES``; a scenario using another is refused at load naming the ruleset.
Rulings: docs/rulings.md "AoF:R quick rules".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from game.engine import activation_magic, magic
from game.engine import charge as charging
from game.engine.actions import Action, Activate, CastSpell, DeclareCharge, Dispel, Done, Move, StrikeBack
from game.engine.attacks import Modifier, roll_to_hit
from game.engine.casualties import apply_wounds, dangerous_terrain_test
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event, roll_event
from game.engine.melee import counter_models, has_counter, impact_dice
from game.engine.morale import MoraleTerms, morale_terms, morale_test
from game.engine.profiles import Profile, Weapon
from game.engine.rulesets import aofr_quick_forces
from game.engine.rulesets.aofr import DECISIONS, Activations, AoFR216
from game.engine.rulesets.aofr_quick_forces import army_problems
from game.engine.rulesets.base import ListedUnit, Problem
from game.engine.shooting import ShotRules, sergeant_index
from game.engine.special_rules import (
    BANNER,
    MUSICIAN,
    SERGEANT,
    ap_modifier,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_wounds,
    defense_profile,
    fear_bonus,
    furious_extra_hits,
    lance_modifier,
    limited_available,
    modifiers_in_force,
    rending_hits,
    surge_extra_hits,
    takedown,
    use_limited,
    weapon_value,
)
from game.engine.state import GameState, MoveAction, Pending, Unit
from geometry.arcs import Arc
from geometry.formation import hero_index
from geometry.motion import MoveCheck
from geometry.shapes import model_polygons, overlap_area

SPECIAL_RULES = frozenset({
    "Ambush", "AP", "Artillery", "Bane", "Blast", "Counter", "Deadly", "Fast", "Fear", "Fearless", "Flying", "Furious",
    "Hero", "Immobile", "Impact", "Indirect", "Limited", "Regeneration", "Relentless", "Reliable", "Rending", "Scout",
    "Slow", "Stealth", "Strider", "Surge", "Takedown", "Thrust", "Tough", "Unstoppable", "Caster",
})
"""The quick rules' "Special Rules Reference" as this ruleset plays it (Scout and Ambush through AoF:R 2.16's
deployment and round start, with the quick rules' distances and order: ``AoFRQuick.scout_reach`` and the
``ambush_*`` attributes; "Caster(X)": tokens each round, spells cast within the caster's activation before it
attacks, ``activation_magic``). Refused at load, naming the ruleset: AoWFBR's own rules it does not have
(Entrenched, Lance, Poison, Sniper, Transport). A
Hero without Regeneration joining a unit with it is refused (``aofr_quick_forces``)."""

UPGRADES = frozenset({SERGEANT, MUSICIAN, BANNER})
"""The quick rules' "Command Groups": Sergeant (its unmodified 6s to hit deal 1 extra hit), Musician (+1" to move
actions), Banner (+1 to morale tests)."""

RENDING_AP_BONUS = 4
"""The quick rules' "Rendering": unmodified 6s to hit get AP(+4), on top of the weapon's AP."""

FLANK_MORALE = {Arc.LEFT: -1, Arc.RIGHT: -1, Arc.REAR: -2}
"""The quick rules' "Flanking": -1/-2 to morale rolls of a unit charged in its flank/rear."""

SCOUT_REACH = 12.0
""""Scout": "may be deployed anywhere fully within 12\" of their deployment zone"."""

AMBUSH_EDGE = 6.0
""""Ambush": "deployed fully within 6\" of any table edge"."""

AMBUSH_DISTANCE = 9.0
""""Ambush": "over 9\" away from enemy units"."""

IMPACT_NEED = 2
"""The quick rules' "Impact(X)": each die of 2+ is one hit."""

TERRAIN_TRAITS = frozenset({"impassable", "blocking", "cover", "difficult", "dangerous", "see_into_not_through"})
"""The quick rules' "Terrain": cover, difficult and dangerous terrain, and impassable pieces and sight blockers (a
forest is seen into, not through: docs/rulings.md "AoF:R 2.16"). AoWFBR's "dangerous when rushing" and elevated
pieces (rivers, ruins, hills), which the quick rules do not have, are refused at load."""

QUICK_SHOTS = ShotRules(sergeant_sixes=True, relentless_far=True, rending_plus=True, artillery_to_hit=True)
"""The quick rules' meanings of shooting rules: the Sergeant's 6s deal an extra hit, Relentless over 9", Rendering
AP(+4), Artillery's +1/-2 to hit from over 9" (``shooting.ShotRules``)."""


@dataclass
class QuickActivations(Activations):
    """The round of activations of a quick-rules game: AoF:R 2.16's and what its melee needs."""

    flanked: int = 0
    """The morale modifier of the charged unit of this activation's melee: -1 charged in a flank, -2 in the rear."""
    counter_first: bool = False
    """The charged unit's Counter weapons strike before the charger ("Counter"): its strike back comes first."""
    answered: bool = False
    """The charged unit has decided whether to strike back (before the charger, with Counter weapons)."""
    struck: list[str] = field(default_factory=list)
    """Units that struck back in this activation's melee (fatigued when the melee ends)."""
    resume: str = "action"
    """"Caster(X)": the stage to return to once the opponent's ``dispel`` answer is rolled (``action`` or
    ``shoot``)."""
    picks: dict[str, str] = field(default_factory=dict)
    """"Takedown" in this activation's melee: striking unit id -> the enemy's joined hero its Takedown weapons
    strike as a unit of one (``declare_charge``/``strike_back`` ``model``)."""


class AoFRQuick(AoFR216):
    """The Age of Fantasy: Regiments quick rules for one ``Game``."""

    id: ClassVar[str] = "aofr-quick"
    spell_values: ClassVar[tuple[int, int]] = (1, 6)     # "Caster(X)": token costs, as AoWFBR's
    title: ClassVar[str] = "Age of Fantasy: Regiments (quick rules)"
    short_title: ClassVar[str] = "AoF:R quick"
    points_guideline: ClassVar[str] = "AoF:R quick rules: 750 pts each to start, 1500 pts each for a full match"
    first_turn_text: ClassVar[str] = ("no second roll-off: the deployment roll-off winner activates first, then the "
                                      "players alternate activating one unit each (the quick rules' \"Playing the "
                                      "Game\")")
    morale_states: ClassVar[Mapping[str, str]] = {"shaken": "Shaken", "routed": "Rout"}
    special_rules: ClassVar[frozenset[str] | None] = SPECIAL_RULES
    upgrades: ClassVar[frozenset[str] | None] = UPGRADES
    terrain_traits: ClassVar[frozenset[str] | None] = TERRAIN_TRAITS
    # "Caster(X)": the opponent's tokens against a cast (AoWFBR's dispel decision), not 2.16's block_spell
    decisions: ClassVar[frozenset[str] | None] = (DECISIONS - {"block_spell"}) | {"dispel"}
    rule_hints: ClassVar[Mapping[str, str]] = {"Wizard": "Wizard(X) is AoF:R 2.16's; the quick rules write Caster(X)"}
    cover_to_hit: ClassVar[bool] = False
    rush_pivots_first: ClassVar[bool] = False
    shot_rules: ClassVar[ShotRules] = QUICK_SHOTS
    recover_section: ClassVar[str] = "Shaken"
    activations_type: ClassVar[type[Activations]] = QuickActivations
    scenario_force_org: ClassVar[bool] = True
    melee_picks: ClassVar[bool] = True      # "Takedown" in melee: declare_charge / strike_back name the hero
    breath_attacks: ClassVar[bool] = False  # AoF:R 2.16's "Breath Attack" is not a rule of the quick rules
    # "Scout": within 12" of the zone, alternating from "the player that activates next" (no roll-off, no move after)
    scout_roll_off: ClassVar[bool] = False
    scout_reach: ClassVar[float | None] = SCOUT_REACH
    # "Ambush": fully within 6" of a table edge, over 9" from enemies, from the player that activates next; it
    # "can't seize or contest objectives on the round they deploy"
    ambush_distance: ClassVar[float] = AMBUSH_DISTANCE
    ambush_edge: ClassVar[float | None] = AMBUSH_EDGE
    ambush_roll_off: ClassVar[bool] = False
    ambush_seizes: ClassVar[bool] = False
    force_org: ClassVar[bool] = False   # AoWFBR's limits are not offered: the set-up offers "Force Org." instead
    rule_texts: ClassVar[Mapping[str, str]] = {
        "Impact": "After charging (not fatigued), each model of the two front rows rolls X dice: each 2+ is a hit "
                  "(-1 die per Counter model of a target charged in the front).",
        "Furious": "When charging, each unmodified 6 to hit in melee deals 1 extra hit.",
        "Fearless": "When it fails a morale test, roll a die: on 4+ it passes instead.",
        "Counter": "Strikes first with this weapon when charged; a charger in its front rolls 1 Impact die less per "
                   "Counter model in its two front rows.",
        "Fear": "Counts as having dealt X more wounds when working out who won a melee.",
        "Rending": "Ignores Regeneration; unmodified 6s to hit get AP(+4).",
        "Hero": "With up to Tough(6) it may deploy as part of one unit of several models: it may take the unit's "
                "morale tests, uses the unit's Defense until the other models are killed, takes wounds last.",
        "Fast": "Moves +2\" when using Advance, and +4\" when using Rush/Charge.",
        "Slow": "Moves -2\" when using Advance, and -4\" when using Rush/Charge.",
        "Immobile": "May only use Hold actions.",
        "Regeneration": "Each wound it takes is ignored on a 5+ (not against Rending).",
        "Musician": "The unit moves +1\" when taking move actions.",
        "Banner": "+1 to the unit's morale test rolls.",
        "Sergeant": "Its unmodified 6s to hit (shooting and melee) deal 1 extra hit.",
        "Relentless": "When it shoots at enemies over 9\" away, each unmodified 6 to hit deals 1 extra hit.",
        "Bane": "Ignores Regeneration; the target must re-roll unmodified Defense results of 6.",
        "Artillery": "Only Holds; +1 to hit shooting at enemies over 9\" away; enemies shooting at it from over 9\" "
                     "get -2 to hit.",
        "Takedown": "Resolved before other weapons; it may pick a hero joined to the target (shooting, charging or "
                    "striking back) and strike it as a unit of one.",
        "Scout": "May be set aside; after all other units are deployed, placed fully within 12\" of its deployment "
                 "zone (players alternate, starting with the player that activates next).",
        "Caster": "Gets X spell tokens each round (holds at most 6); in its activation, before attacking, spends a "
                  "spell's value to try it (once per spell): 4+ casts; models within 18\" in sight may spend tokens "
                  "for +1/-1 each.",
        "Ambush": "May be set aside; at the start of any round after the first, placed fully within 6\" of a table "
                  "edge, over 9\" from enemy units (players alternate, starting with the player that activates "
                  "next); it cannot seize or contest objectives that round.",
    }
    shaken_text: ClassVar[str | None] = ("Shaken: stays idle (may still strike back, hitting only on 6s), always fails "
                                         "morale tests, cannot seize or contest objective markers; its next "
                                         "activation is idle (a pivot up to 90°), then it is no longer Shaken")
    # What AoF:R 2.16 writes otherwise and the quick rules do not: Fear and its other rules take their (X) values,
    # the Musician is its own upgrade, no hills (no Elevation), its own Ambush distances.
    valueless_rules: ClassVar[frozenset[str]] = frozenset()
    elevation_height: ClassVar[float | None] = None
    flank_morale: ClassVar[Mapping[str, int]] = {"flank": -1, "rear": -2}
    """"Flanking": -1/-2 to the morale test of a melee loser charged in its flank/rear (``melee_loss_estimate``)."""
    upgrade_hints: ClassVar[Mapping[str, str]] = {}
    prompts: ClassVar[Mapping[str, str]] = {
        "ambush": "Ambush: place {unit} fully within 6\" of a table edge, over 9\" from enemy units (click or drag, "
                  "Q/E pivots, Enter); Space places no more this round.",
    }

    @classmethod
    def _spell_morale(cls, unit: Unit) -> int:
        """Nothing beside ``morale_test_terms``, which holds the spells' morale modifiers already."""
        return 0

    @classmethod
    def morale_test_terms(cls, unit: Unit) -> MoraleTerms:
        """"Morale Tests" before any die: a Quality test (a joined hero's, Banner +1), Shaken units always fail,
        Fearless re-rolls on 4+ (``morale.morale_terms``, as ``_morale_test`` rolls it; not AoF:R 2.16's)."""
        return morale_terms(unit, [])

    @classmethod
    def army_problems(cls, units: Sequence[ListedUnit], points: int, force_org: bool) -> list[Problem]:
        """"Regiments", "Combined Units", "Hero" and (with ``force_org``) "Force Org." for one army
        (``aofr_quick_forces.army_problems``)."""
        return army_problems(units, points, force_org)

    @classmethod
    def force_org_problems(cls, units: Sequence[ListedUnit], points: int) -> list[Problem]:
        """"Force Org." for one army of ``points`` (``aofr_quick_forces.force_org_problems``)."""
        return aofr_quick_forces.force_org_problems(units, points)

    @classmethod
    def force_org_words(cls, points: int) -> str | None:
        """"Force Org." at ``points`` in words (``aofr_quick_forces.force_org_words``)."""
        return aofr_quick_forces.force_org_words(points)

    @classmethod
    def in_force_words(cls, state: GameState, unit: Unit) -> list[str]:
        """What changes the unit's rolls now, in words (the unit card): the shared modifiers (their meanings are the
        quick rules'), and "Fatigue": a unit that charged or struck back this round hits only on 6s in melee."""
        words = list(modifiers_in_force(state, unit))
        a = state.activation
        if isinstance(a, QuickActivations) and unit.id in a.fatigued:
            words.append("Fatigued: hits only on unmodified 6s in melee until the end of the round")
        return words

    # --- "Artillery": "May only use Hold actions" ----------------------------------------------------------------
    def _validate_move(self, action: Move) -> tuple[Unit, MoveAction, MoveCheck]:
        """AoF:R 2.16's move checks, and "Artillery": "May only use Hold actions"."""
        unit, kind, check = super()._validate_move(action)
        if kind is not MoveAction.HOLD and unit.any_has("Artillery"):
            raise IllegalAction("Artillery", f"{unit.name} may only use Hold actions")
        return unit, kind, check

    def charge_targets(self, unit_id: str) -> list[str]:
        """Enemies the activated unit may charge (none for "Artillery": "May only use Hold actions")."""
        unit = self.state.units.get(unit_id)
        if unit is not None and unit.any_has("Artillery"):
            return []
        return super().charge_targets(unit_id)

    @property
    def qact(self) -> QuickActivations:
        """The round's activations (raises ``IllegalAction`` before the first round)."""
        a = self.act
        assert isinstance(a, QuickActivations)
        return a

    # --- activation: dangerous terrain ------------------------------------------------------------------------
    def _activate(self, action: Activate) -> list[Event]:
        """AoF:R 2.16's activation, then "Dangerous Terrain": the models that activate in dangerous terrain roll
        (one die each, as many as their Tough value); a unit destroyed by it ends its activation at once."""
        events = super()._activate(action)
        unit = self.state.units[action.unit]
        models = self._in_dangerous_terrain(unit)
        if models:
            events += dangerous_terrain_test(self.state, self.dice, unit, models, "activating in dangerous terrain")
            if not unit.on_table:
                events += self._end_activation()
        return events

    def _in_dangerous_terrain(self, unit: Unit) -> list[int]:
        pieces = [t for t in self.state.terrain if "dangerous" in t.traits]
        if not pieces or unit.pose is None or not unit.on_table:
            return []
        polys = model_polygons(unit.pose, unit.formation)
        return [m for m, poly in enumerate(polys) if any(overlap_area(poly, t.shape) > 1e-9 for t in pieces)]

    # --- morale -----------------------------------------------------------------------------------------------
    def _morale_test(self, unit: Unit, reason: str, mods: list[Modifier] | None = None) -> tuple[bool, list[Event]]:
        """"Morale Tests": a Quality test (Banner +1, "Flanking" ``mods``); Shaken units always fail; "Fearless":
        a failed test is passed on a 4+ (``game.engine.morale.morale_test``)."""
        result = morale_test(self.dice, unit, list(mods or []), reason, fearless_all=True)
        return result.passed, result.events

    # --- melee --------------------------------------------------------------------------------------------------
    def _charge(self, action: DeclareCharge) -> list[Event]:
        """"Melee": the charge move, then the strikes: the charged unit's Counter weapons first when it strikes back
        (it decides before the charger strikes), else the charger first."""
        a = self._expect(action, "action")
        s = self.state
        unit = self._active_unit(action, a)
        if unit.any_has("Artillery"):
            raise IllegalAction("Artillery", f"{unit.name} may only use Hold actions")
        target = s.units.get(action.target)
        if target is None:
            return super()._charge(action)    # refused there, naming the rule
        self._check_pick(unit, target, action.model)
        self._plan(unit, target)
        events = [Event("charge", f"{unit.name} charges {target.name}", {"unit": unit.id, "target": target.id,
                                                                          "declared": True})]
        events += charging.make_charge_move(s, self.dice, unit, target)
        if not (unit.on_table and target.on_table and target.id in unit.engaged_with):
            return events + self._end_activation()
        q = self.qact
        a.melee = [unit.id, target.id]
        a.caused = {unit.id: 0, target.id: 0}
        q.flanked = FLANK_MORALE.get(target.contact_arcs.get(unit.id) or Arc.FRONT, 0)
        q.struck, q.answered = [], False
        q.picks = {unit.id: action.model} if action.model is not None else {}
        if action.model is not None and target.hero is not None:
            events.append(Event("info", f"{unit.name}'s Takedown weapons pick {target.hero.profile.name}",
                                {"unit": unit.id, "model": action.model}))
        q.counter_first = bool(self._strikers(target, unit)) and self._counter_weapons(target, True)
        if q.counter_first:
            a.stage = "strike_back"
            s.pending = Pending(target.player, "strike_back", target.id)
            return events
        return events + self._charger_strikes()

    def _counter_weapons(self, unit: Unit, counter: bool) -> bool:
        """Whether a model of the unit's two front rows has a melee weapon that is (``counter``) or is not a
        Counter weapon."""
        return any(has_counter(prof, w) == counter for prof, _, _ in self._striking_kinds(unit)
                   for w in prof.melee_weapons)

    def _charger_strikes(self) -> list[Event]:
        """The charger strikes; then the charged unit may strike back, or (when it chose before the charger, with
        its Counter weapons first) strikes with its other weapons."""
        s, a, q = self.state, self.act, self.qact
        unit, target = (s.units[u] for u in a.melee)
        events = self._strike(unit, target, charging_now=True)
        if not (target.on_table and unit.on_table and self._strikers(target, unit)):
            return events + self._melee_result()
        if q.answered:
            if target.id in q.struck and self._counter_weapons(target, False):
                events += self._strike(target, unit, charging_now=False, weapons="rest")
            return events + self._melee_result()
        a.stage = "strike_back"
        s.pending = Pending(target.player, "strike_back", target.id)
        return events

    def _strike_back(self, action: StrikeBack) -> list[Event]:
        a = self._expect(action, "strike_back")
        unit = self.own_unit(action)
        if len(a.melee) != 2 or unit.id != a.melee[1]:
            raise IllegalAction("Melee", "only the charged unit may strike back")
        q = self.qact
        charger = self.state.units[a.melee[0]]
        self._check_pick(unit, charger, action.model)
        events_pick: list[Event] = []
        if action.model is not None and charger.hero is not None:
            q.picks[unit.id] = action.model
            events_pick.append(Event("info", f"{unit.name}'s Takedown weapons pick {charger.hero.profile.name}",
                                     {"unit": unit.id, "model": action.model}))
        q.struck.append(unit.id)
        if q.counter_first:
            q.counter_first, q.answered = False, True
            events = [Event("melee", f"{unit.name} strikes back, first with its Counter weapons", {"unit": unit.id})]
            return events + events_pick + self._strike(unit, charger, charging_now=False, weapons="counter") + \
                self._charger_strikes()
        events = [Event("melee", f"{unit.name} strikes back", {"unit": unit.id})]
        return events + events_pick + self._strike(unit, charger, charging_now=False) + self._melee_result()

    def melee_pick(self, unit_id: str, enemy_id: str) -> str | None:
        """"Takedown": the hero joined to ``enemy_id`` that ``unit_id``'s Takedown melee weapons may pick, or None."""
        s = self.state
        unit, enemy = s.units.get(unit_id), s.units.get(enemy_id)
        if unit is None or enemy is None or not enemy.hero_alive or enemy.hero is None:
            return None
        try:
            self._check_pick(unit, enemy, enemy.hero.id)
        except IllegalAction:
            return None
        return enemy.hero.id

    def _check_pick(self, unit: Unit, enemy: Unit, model: str | None) -> None:
        """"Takedown": "This model may pick any model in the target unit as its individual target": ``model`` (if
        any) must be the living hero joined to ``enemy`` (its other models are alike: docs/rulings.md), and ``unit``
        must have a Takedown melee weapon. Raises ``IllegalAction`` naming "Takedown"."""
        if model is None:
            return
        if not (enemy.hero_alive and enemy.hero is not None and enemy.hero.id == model):
            raise IllegalAction("Takedown", f"{model!r} is not a living hero joined to {enemy.name}: Takedown picks "
                                "that hero (the unit's other models are alike)")
        kinds = [unit.profile] + ([unit.hero.profile] if unit.hero_alive and unit.hero is not None else [])
        if not any(takedown(p, w) for p in kinds for w in p.melee_weapons):
            raise IllegalAction("Takedown", f"{unit.name} has no Takedown melee weapon to pick a model with")

    # --- "Caster(X)": tokens, spells within the activation (activation_magic, magic) -------------------------------
    def _round_magic(self) -> list[Event]:
        """"Caster(X)": spells cast last round end, then every caster "Gets X spell tokens at the start of each
        round" (at most 6)."""
        # the round's phase (activation) is already set: start_of_round only gives tokens in the basic mode
        return super()._round_magic() + magic.start_of_round(self.state, self.state.phase)

    def activation_casts(self, player: int) -> list[CastSpell]:
        """"Caster(X)": the spells the activated caster of ``player`` may try now with its tokens (before
        attacking)."""
        a = self._current()
        if a is None or a.stage not in ("action", "shoot") or a.unit is None or player != self.state.active_player:
            return []
        unit = self.state.units[a.unit]
        return activation_magic.token_cast_options(self.state, unit) if unit.player == player else []

    @reports_illegal
    def check_magic(self, action: Action) -> None:
        """Why a proposed ``cast_spell`` or ``dispel`` is illegal now, or None (nothing changes)."""
        activation_magic.check_token_magic(self.state, action, self.check_turn, self._casting_unit,
                                           lambda a: self._expect(a, "dispel"))

    def _cast(self, action: CastSpell) -> list[Event]:
        """"Caster(X)": "At any point before attacking, spend as many tokens as the spell's value to try casting"
        (``boost``: more tokens of casters in reach, +1 each); the opponent may spend tokens against it (decision
        ``dispel``), else it is rolled at once (4+)."""
        _, unit = self._casting_unit(action)
        a = self.qact
        resume = a.stage
        events = magic.cast_spell(self.state, self.dice, action, in_activation=True)
        p = self.state.pending
        if p is not None and p.decision == "dispel":
            a.stage = "dispel"
            a.resume = resume
            return events
        return events + self._after_token_cast(a, unit, resume)

    def _block(self, action: Dispel) -> list[Event]:
        """"Caster(X)": the opponent's tokens against the cast (-1 each; none: ``done``), then the roll."""
        self._expect(action, "dispel")
        a = self.qact
        cast = magic.magic_of(self.state).cast
        assert cast is not None
        events = magic.dispel(self.state, self.dice, action)
        return events + self._after_token_cast(a, self.state.units[cast.caster], a.resume)

    def _after_token_cast(self, a: Activations, unit: Unit, resume: str) -> list[Event]:
        """Back to the activation where it was, or its end when the caster is gone or has nothing left to shoot."""
        a.stage = resume
        if not unit.on_table or (resume == "shoot" and not self.shooting_targets(unit.id, nearest=True)):
            return self._end_activation()
        self.state.active_player = unit.player
        self.state.pending = Pending(unit.player, resume, unit.id)
        return []

    def _done(self, action: Done) -> list[Event]:
        a = self.state.activation
        if isinstance(a, QuickActivations) and a.stage == "dispel":
            return self._block(Dispel(action.player))
        if isinstance(a, QuickActivations) and a.stage == "strike_back" and a.counter_first:
            self.check_turn(action)
            a.counter_first, a.answered = False, True
            target = self.state.units[a.melee[1]]
            events = [Event("melee", f"{target.name} does not strike back", {"unit": target.id})]
            return events + self._charger_strikes()
        return super()._done(action)

    def _strike(self, unit: Unit, enemy: Unit, charging_now: bool, weapons: str = "all") -> list[Event]:
        """"Melee" for ``unit`` against ``enemy``: the models of the two front rows strike with every melee weapon
        (``weapons``: ``all``, only the ``counter`` ones, or the ``rest``), the unit's own models, then its joined
        hero with its own profile ("Hero"); after charging (not fatigued) Impact dice first. Fatigued or Shaken
        units hit only on unmodified 6s ("Fatigue", "Shaken"). Deadly first."""
        a = self.act
        events: list[Event] = []
        if not self._strikers(unit, enemy):
            return events
        only = "Fatigue" if unit.id in a.fatigued else ("Shaken" if unit.shaken else None)
        kinds = self._striking_kinds(unit)
        if charging_now and not only and weapons != "counter":
            cut = counter_models(self.state, enemy) if enemy.contact_arcs.get(unit.id) is Arc.FRONT else 0
            for prof, models, _ in kinds:
                if prof.value("Impact") and enemy.on_table:
                    evs, cut = self._impact(unit, prof, enemy, len(models), cut)
                    events += evs
        for prof, models, sarge in kinds:
            # "Takedown attacks must be resolved before other weapons"; "Hits from Deadly must be resolved first"
            for weapon in sorted(prof.melee_weapons, key=lambda w: (not takedown(prof, w), not w.has("Deadly"))):
                if weapons != "all" and has_counter(prof, weapon) != (weapons == "counter"):
                    continue
                if not enemy.on_table:
                    return events
                if not limited_available(unit, weapon):     # "Limited": once per game
                    continue
                use_limited(unit, weapon)
                picked = takedown(prof, weapon) and enemy.hero_alive and enemy.hero is not None \
                    and self.qact.picks.get(unit.id) == enemy.hero.id
                events += self._weapon_strikes(unit, enemy, prof, weapon, len(models), sarge, charging_now, only,
                                               picked)
        return events

    def _striking_kinds(self, unit: Unit) -> list[tuple[Profile, list[int], bool]]:
        """The models of the two front rows by profile: (the unit's own, their indices, whether the Sergeant is
        among them), then a living joined hero's (its own profile)."""
        rows = self.state.scene.model_rows(unit.id)
        front = [i for i in range(len(rows)) if int(rows[i]) <= 1]
        hero = hero_index(unit.formation) if unit.hero_alive else None
        sarge = sergeant_index(unit)
        own = [i for i in front if i != hero]
        out = [(unit.profile, own, sarge is not None and sarge in own)] if own else []
        if hero is not None and hero in front and unit.hero is not None:
            out.append((unit.hero.profile, [hero], False))
        return out

    def _weapon_strikes(self, unit: Unit, enemy: Unit, prof: Profile, weapon: Weapon, n: int, sarge: bool,
                        charging_now: bool, only: str | None, hero_only: bool = False) -> list[Event]:
        """One melee weapon of ``n`` striking models of ``prof``: hit rolls (the Sergeant's apart: its 6s deal 1
        extra hit; "Thrust" +1 when charging), extra hits on 6s (Furious when charging, Surge), Blast, then blocks
        and casualties. ``hero_only``: "Takedown" picked the enemy's joined hero, struck as a unit of one."""
        attacks = n * weapon.attacks
        who = unit.name if prof is unit.profile else f"{prof.name} with {unit.name}"
        victim = enemy.hero.profile.name if hero_only and enemy.hero is not None else enemy.name
        label = f"{who} strikes {victim} with {weapon.name}" + (" (Takedown)" if hero_only else "")
        events = [Event("info", f"{label}: {attacks} attacks" + (f" (hit only on 6: {only})" if only else ""),
                        {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "attacks": attacks})]
        quality, need = attack_quality(prof, weapon, False)
        thrust, more_ap = lance_modifier(prof, weapon, charging_now, "Thrust")     # "Thrust"
        mods = [thrust] if thrust is not None else []
        batches = [(attacks - (weapon.attacks if sarge else 0), "to hit")]
        if sarge:
            batches.append((weapon.attacks, "to hit (Sergeant)"))
        hits = sixes = extra = 0
        for count, what in batches:
            if count > 0:
                hr = roll_to_hit(self.dice, count, quality, mods, f"{label}: {what}", only_sixes=only, need_text=need)
                events += hr.events
                hits, sixes = hits + hr.hits, sixes + hr.sixes
                extra += hr.sixes if what.endswith("(Sergeant)") else 0
        extra += furious_extra_hits(prof, weapon, sixes, charging_now) + surge_extra_hits(prof, weapon, sixes)
        rending = rending_hits(prof, weapon, sixes)
        blast = blast_multiplier(weapon, 1 if hero_only else enemy.models)
        total_hits = (hits + extra) * blast
        note = f" ({extra} extra on 6s)" if extra else ""
        events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}{note}",
                            {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "hits": total_hits}))
        return events + self._wound(unit, enemy, (hits + extra - rending) * blast, weapon, rending * blast, prof,
                                    more_ap, hero_only)

    def _impact(self, unit: Unit, prof: Profile, enemy: Unit, strikers: int, cut: int) -> tuple[list[Event], int]:
        """"Impact(X)": X dice per model of ``prof`` in the two front rows, each 2+ a hit (blocked as usual);
        "Counter": ``cut`` dice fewer (1 per Counter model in the two front rows of a target charged in its front).
        Returns the events and the cut left for the next models."""
        count, left = impact_dice(prof, strikers, cut)
        who = unit.name if prof is unit.profile else f"{prof.name} with {unit.name}"
        purpose = f"{who} Impact on {enemy.name}"
        rolls = self.dice.d6(count, purpose)
        hits = sum(1 for r in rolls if r >= IMPACT_NEED)
        details = [f"Impact({prof.value('Impact')}) x {strikers} models"] + \
            ([f"Counter -{cut - left}"] if cut - left else [])
        events = [roll_event(purpose, rolls, IMPACT_NEED, 0, hits, details, unit=unit.id),
                  Event("hits", f"{who} Impact hits on {enemy.name}: {hits}",
                        {"unit": unit.id, "target": enemy.id, "weapon": "Impact", "hits": hits})]
        return events + self._wound(unit, enemy, hits, None, 0, prof), left

    def _wound(self, unit: Unit, enemy: Unit, hits: int, w: Weapon | None, rending: int,
               attacker: Profile | None = None, more_ap: int = 0, hero_only: bool = False) -> list[Event]:
        """Blocks and casualties for ``hits`` (and ``rending`` Rending 6s at the weapon's AP + 4) on ``enemy`` by
        ``attacker`` models of ``unit`` (default its own); ``more_ap``: "Thrust"'s AP(+1) when charging. The enemy
        blocks with its own Defense while it has other models than a joined hero ("Hero"); ``hero_only``: a hero
        picked by "Takedown", a unit of one, blocks with its own Defense and takes the wounds alone."""
        if hits + rending <= 0:
            return []
        ap = (w.ap if w is not None else 0) + more_ap

        def mods(x: int) -> list[Modifier]:
            m = ap_modifier(x)
            return [m] if m is not None else []

        batches = [(hits, mods(ap), "Defense")]
        if rending:
            batches.append((rending, mods(ap + RENDING_AP_BONUS), "Defense against Rending 6s"))
        defender = enemy.hero.profile if hero_only and enemy.hero is not None else defense_profile(enemy)
        defense = defender.defense
        who = w.name if w is not None else "Impact"
        name = f"{defender.name} with {enemy.name}" if hero_only else enemy.name
        wounds, events = block_hits(self.dice, batches, defender, attacker or unit.profile, w,
                                    lambda what: f"{name} {what} against {unit.name} ({who})",
                                    f"{name} against {unit.name}", f"Defense {defense}+", enemy.id)
        if wounds and w is not None and w.has("Deadly"):
            wounds = deadly_wounds(enemy, wounds, weapon_value(w, "Deadly"), hero_only)
        a = self.act
        a.caused[unit.id] = a.caused.get(unit.id, 0) + wounds
        return events + apply_wounds(self.state, enemy, wounds, f"melee with {unit.name}", self.dice,
                                     hero_only=hero_only)

    def melee_result_extra(self, unit: Unit, charged: bool, side: str) -> float:
        """Quick rules "Melee Results", as expected before any die (``Ruleset.melee_result_extra``): full rows and
        "Fear(X)" +X; nothing for charging nor for the side a charge hits."""
        return float(self.full_rows(unit) + fear_bonus(unit))

    def _melee_result(self) -> list[Event]:
        """"Melee Results": wounds caused + full rows + Fear(X); the lowest total loses (a tie: nobody) and takes a
        morale test ("Flanking" -1/-2 when it was charged in its flank/rear): failed at half strength or less it
        routs, else it is Shaken. Then "Fatigue" for the charger and a unit that struck back, and the moves after
        the melee ("Melee": move back 1", or pivot/move 3" when a unit was destroyed)."""
        s, a, q = self.state, self.act, self.qact
        charger, target = (s.units[u] for u in a.melee)
        score = {u.id: a.caused.get(u.id, 0) + self.full_rows(u) + (fear_bonus(u) if u.on_table else 0)
                 for u in (charger, target)}
        events = [Event("melee", f"Melee result: {charger.name} {score[charger.id]}, {target.name} "
                        f"{score[target.id]} (wounds caused + full rows + Fear)",
                        {"scores": dict(score), "units": [charger.id, target.id], "winner": None if score[charger.id]
                         == score[target.id] else (charger.player if score[charger.id] > score[target.id]
                                                   else target.player),
                         "caused": {u: a.caused.get(u, 0) for u in (charger.id, target.id)}})]
        loser: Unit | None = None
        if charger.on_table and target.on_table and score[charger.id] != score[target.id]:
            loser = target if score[charger.id] > score[target.id] else charger
        if loser is not None:
            flank = [Modifier("Flanking", q.flanked)] if loser is target and q.flanked else []
            events += self._lost_melee(loser, flank)
        for uid in [charger.id] + [u for u in q.struck if u == target.id]:
            if uid not in a.fatigued:
                a.fatigued.append(uid)
        return events + self._after_melee(charger, target)

    def _after_melee(self, charger: Unit, target: Unit) -> list[Event]:
        """"Melee": "If one of the units is destroyed, the other may pivot by up to 180° or move by up to 3" in any
        direction, else chargers must move back and separate by 1" (if possible)"."""
        s, a = self.state, self.act
        if charger.on_table and target.on_table:
            return self._back_off(charger, target) + self._end_activation()
        for u in (charger, target):
            for other in list(u.engaged_with):
                s.disengage(u, s.units[other])
        survivor = charger if charger.on_table else target if target.on_table else None
        if survivor is None:
            return self._end_activation()
        a.stage = "consolidate"
        s.pending = Pending(survivor.player, "consolidate", survivor.id)
        return []

    def state_keys(self) -> dict[str, object]:
        """AoF:R 2.16's ``activation`` key, with ``flanked`` and ``counter_first`` of the melee in progress."""
        keys = super().state_keys()
        a = self._current()
        if isinstance(a, QuickActivations) and "activation" in keys:
            act = keys["activation"]
            assert isinstance(act, dict)
            act.update({"flanked": a.flanked, "counter_first": a.counter_first, "picks": dict(a.picks)})
        return keys


__all__ = ["AoFRQuick", "QuickActivations", "SPECIAL_RULES", "UPGRADES"]
