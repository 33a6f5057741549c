"""Age of Fantasy: Regiments 2.16, core rules (issue 14): rounds of alternating unit activations behind the ruleset
seam (``game.engine.rulesets.base``; the book: ../shared/rules/aofr-2.16-full-rulebook.txt).

"Playing the Game": each round the players alternate activating one unit that has not activated yet, the deployment
roll-off winner first in round 1 and, each new round, the player who finished activating first on the last round.
An activation is one action (decisions, docs/formats.md "AoF:R 2.16 activations"): ``activate {unit}`` (decision
``activate``), then (decision ``action``) ``move`` (Hold, Advance, Rush: "Movement"), ``declare_charge`` (a
Charge, melee at once: "Melee") or ``done`` (stay idle); after a Hold or Advance ``shoot`` (decision ``shoot``,
every model may fire: "Shooting") or ``done``. A charge is fought in the book's order: the charger's Impact hits and
strikes of its two front rows, casualties, then the charged unit may ``strike_back`` (or ``done``), the melee result
(wounds caused + full rows), the loser's morale test, consolidation (the charger moves back 1" unless a unit was
destroyed or routed; then the other may ``consolidate``: pivot up to 180° or move up to 3"). "Morale": a unit that
ends an activation at half strength or less after taking wounds outside melee takes a morale test (Wavering if it
fails); a Wavering unit's activation is idle (``rally_pivot`` up to 90° or ``done``, decision ``wavering``) and
ends its Wavering. "The Mission" and the "Extra Missions": markers seized at the end of each round; after 4 rounds
the mission decides the winner ("Mission Objectives"), or with "Side-Missions" victory points.

The special rules this ruleset plays are ``SPECIAL_RULES``: every rule of the book (its wording where it differs
from AoWFBR: Impact automatic hits, Furious +1 attack, Fearless +1 to morale, and ``aofr_rules``: Fear +D3, Poison
6s x3, Stealth at any distance, Artillery Defense 2+ against shooting, a joined Hero's strikes and Quality, the
Musician / Battle Standard +1, hills difficult going up, Phalanx; ``aofr_breath``: Breath Attack); "Elevation" (hills
3" or taller) counts the climb as movement (``movement.elevation_climb``); "Scout" is the shared deployment's with a
roll-off, "Ambush" a step at the beginning of rounds 2+ (decision ``ambush``: ``deploy`` anywhere over 12" from
enemies, or ``done``). A scenario using any other rule is refused at load (``game.scenario.refusals``). Rulings:
docs/rulings.md "AoF:R 2.16".

``AoFR216`` is built from one module per job, each class on the one before: ``aofr_state`` (the lists and the
round's ``Activations``), ``aofr_core`` (settings, whose decision an action answers), ``aofr_victory`` (the
mission's winner), ``aofr_rounds`` (deployment, rounds, Ambush, who activates), ``aofr_morale`` (morale tests,
Wavering, the end of an activation), ``aofr_consolidation`` (moving back 1", consolidation), ``aofr_melee`` (the
charge and its melee), ``aofr_moves_shooting`` (Hold, Advance, Rush, shooting), ``aofr_casting`` (Wizard(X));
this module adds the book's names and texts, the actions' handlers, the decisions' answers and ``done``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from game.engine import objectives
from game.engine.actions import (
    Action,
    Activate,
    CastSpell,
    ChooseDeployment,
    ChooseFirstTurn,
    ChooseObjectiveOrder,
    Consolidate,
    DeclareCharge,
    Deploy,
    Dispel,
    Done,
    Move,
    PlaceObjective,
    RallyPivot,
    ScoutMove,
    SelectSideMission,
    SetAside,
    Shoot,
    StrikeBack,
)
from game.engine.activation_order import listed_answers
from game.engine.events import Event
from game.engine.rulesets.aofr_casting import AoFRCasting
from game.engine.rulesets.aofr_rules import AOFR_SHOTS
from game.engine.rulesets.aofr_state import (
    BACK_OFF,
    DECISIONS,
    ELEVATION_HEIGHT,
    SIDE_MISSION_RULES,
    SPECIAL_RULES,
    TERRAIN_TRAITS,
    UPGRADES,
    WAVERING_PIVOT,
    Activations,
)
from game.engine.rulesets.base import Handler
from game.engine.shooting import ShotRules
from game.engine.side_missions import SideMissionRules
from game.engine.state import MoveAction, Phase


class AoFR216(AoFRCasting):
    """The AoF:R 2.16 core rules for one ``Game``."""

    id: ClassVar[str] = "aofr-2.16"
    # "Wizard(X)": the number in brackets a D6+X roll must reach (activation_magic; docs/rulings.md)
    spell_values: ClassVar[tuple[int, int]] = (2, 12)
    title: ClassVar[str] = "Age of Fantasy: Regiments 2.16"
    short_title: ClassVar[str] = "AoF:R 2.16"
    morale_states: ClassVar[Mapping[str, str]] = {"shaken": "Wavering", "routed": "Rout"}
    special_rules: ClassVar[frozenset[str] | None] = SPECIAL_RULES
    upgrades: ClassVar[frozenset[str] | None] = UPGRADES
    terrain_traits: ClassVar[frozenset[str] | None] = TERRAIN_TRAITS
    # "Extra Missions": every mission and the random roll; a battle without one has no winner ("none" refused)
    missions: ClassVar[frozenset[str] | None] = frozenset(objectives.ALL_MISSIONS)
    optional_rules: ClassVar[bool] = False
    side_mission_rules: ClassVar[SideMissionRules] = SIDE_MISSION_RULES
    force_org: ClassVar[bool] = False   # "Preparing your Army": "There are no limitations as to how many units..."
    points_guideline: ClassVar[str] = "AoF:R 2.16: 750 pts each to start, then bigger armies; no limits on units"
    first_turn_text: ClassVar[str] = ("no second roll-off: the deployment roll-off winner activates first, then the "
                                      "players alternate activating one unit each (AoF:R 2.16 \"Game Structure\")")
    all_models_shoot: ClassVar[bool] = True
    cover_to_hit: ClassVar[bool] = True
    shot_rules: ClassVar[ShotRules] = AOFR_SHOTS
    valueless_rules: ClassVar[frozenset[str]] = frozenset({"Fear"})
    elevation_height: ClassVar[float | None] = ELEVATION_HEIGHT
    breath_attacks: ClassVar[bool] = True
    rule_hints: ClassVar[Mapping[str, str]] = {
        "Caster": "AoF:R 2.16 writes Wizard(X): D6+X against the spell's value, blocked by enemy wizards"}
    upgrade_hints: ClassVar[Mapping[str, str]] = {
        "musician": "AoF:R 2.16's \"Musician / Battle Standard\" is one upgrade: write banner"}
    activation_words: ClassVar[tuple[str, str]] = ("this round", "round")
    rule_texts: ClassVar[Mapping[str, str]] = {
        "Impact": "When it charges (not fatigued), each model of the two front rows deals X automatic hits.",
        "Furious": "When it charges, each striking model gets +1 attack with its first melee weapon.",
        "Fearless": "+1 to its morale test rolls.",
        "Fear": "In melee it counts as having caused +D3 wounds when working out who won.",
        "Poison": "Each unmodified 6 to hit with this weapon is multiplied by 3 (shooting and melee).",
        "Stealth": "Enemies shooting at it get -1 to hit (any distance).",
        "Artillery": "Counts as having Defense 2+ against all shooting attacks.",
        "Indirect": "May shoot at enemies out of sight and ignores cover from sight obstructions; -1 to hit after "
                    "moving (pivots included).",
        "Sniper": "Shoots at Quality 2+ and may pick one model of the target (a joined hero) as a unit of one.",
        "Hero": "May be deployed as part of one other friendly unit: the unit may use its Quality for morale tests "
                "and blocks with the unit's Defense until the other models are killed; it takes wounds last.",
        "Scout": "May be deployed after all other units (roll-off if both sides have Scouts, then alternate), then "
                 "moved up to 12\" ignoring terrain.",
        "Ambush": "May be kept in reserve; at the beginning of any round after the first it may be placed anywhere "
                  "over 12\" from enemy units (roll-off if both sides have some, then alternate).",
        "Banner": "Musician / Battle Standard: always counts as having dealt +1 wound for seeing who won melee.",
        "Breath Attack": "Once per round: 3 automatic hits with AP(1) per model, either in melee (charging or "
                         "striking back) or at one enemy unit within 12\" when shooting.",
        "Phalanx": "Enemies charging its front (every model has Phalanx) do not count as having charged for special "
                   "rules and first take a Dangerous Terrain test (at most one die per Phalanx model of its two "
                   "front rows).",
    }
    shaken_text: ClassVar[str | None] = ("Wavering: hits only on unmodified 6s in melee, fails morale tests; its next "
                                         "activation is idle (a pivot up to 90°), then it recovers")
    mission_text: ClassVar[str | None] = ("markers are seized at the end of each round; with side-missions victory "
                                          "points decide instead (the mission's, and 1 per side-mission)")
    units_score: ClassVar[bool] = False
    turn_word: ClassVar[str] = "activation"
    score_words: ClassVar[tuple[str, str]] = ("objective markers held", "markers")
    decisions: ClassVar[frozenset[str] | None] = DECISIONS
    start_phases: ClassVar[frozenset[str] | None] = frozenset({Phase.DEPLOYMENT.value, Phase.ACTIVATION.value})

    prompts: ClassVar[Mapping[str, str]] = {
        "ambush": "Ambush: place {unit} anywhere over 12\" from enemy units (click or drag, Q/E pivots, Enter); "
                  "Space places no more this round.",
    }

    def handlers(self) -> Mapping[type[Action], Handler]:
        """Every action of an AoF:R 2.16 game and the method that answers it."""
        return {
            Deploy: self._deploy, ChooseDeployment: self._deploy, SetAside: self._deploy, ScoutMove: self._deploy,
            ChooseFirstTurn: self._deploy, ChooseObjectiveOrder: self._deploy, PlaceObjective: self._deploy,
            SelectSideMission: self._deploy,
            Activate: self._activate,
            Move: self._move,
            DeclareCharge: self._charge,
            Shoot: self._shoot,
            StrikeBack: self._strike_back,
            Consolidate: self._consolidate,
            RallyPivot: self._wavering_pivot,
            CastSpell: self._cast,
            Dispel: self._block,
            Done: self._done,
        }

    def state_keys(self) -> dict[str, Any]:
        """The state file's ``activation`` key (docs/formats.md): ``{first, activated, unit, stage,
        finished_first, fatigued}`` of the round in progress; none before the first round."""
        a = self._current()
        if a is None:
            return {}
        return {"activation": {"first": a.first, "activated": list(a.activated), "unit": a.unit, "stage": a.stage,
                               "finished_first": a.finished_first, "fatigued": list(a.fatigued),
                               "ambush_passed": list(a.ambush_passed), "ambush_next": a.ambush_next,
                               "spell_used": list(a.spell_used),
                               "cast": a.cast.to_dict() if a.cast is not None else None,
                               "breath_used": list(a.breath_used)}}

    def decision_options(self) -> list[Action] | None:
        """The discrete answers to an activation's decision (docs/formats.md "AoF:R 2.16 activations"): ``activate``
        each unit not activated yet; ``action`` stay idle or charge each valid target (moves are poses:
        ``units_to_move``); ``shoot`` each valid target, or done; ``strike_back`` or not; ``consolidate`` and
        ``wavering`` done (their pivots and moves are poses). None during deployment (its decisions are
        AoWFBR's, answered by name)."""
        s = self.state
        p, a = s.pending, self._current()
        if p is None or a is None or s.phase is not Phase.ACTIVATION:
            return None
        listed = listed_answers(p, self.charge_targets, self.shooting_targets, ("consolidate", "wavering"))
        me, unit = p.player, p.unit
        if listed is None or unit is None:
            return listed
        # "Breath Attack": the answers that use it come first (a fixed policy taking the first answer breathes)
        if p.decision == "shoot":
            return [Shoot(me, unit, t, breath=True) for t in self.breath_targets(unit)] + listed
        if not self.breath_in_melee(unit):
            return listed
        if p.decision == "action":
            return listed[:1] + [answer for charge in listed[1:] if isinstance(charge, DeclareCharge)
                                 for answer in (replace(charge, breath=True), charge)]
        if p.decision == "strike_back":
            return [StrikeBack(me, unit, breath=True), *listed]
        return listed

    def _done(self, action: Done) -> list[Event]:
        s = self.state
        if s.phase is Phase.DEPLOYMENT:
            return self._deploy(action)
        a = self._expect(action, "action", "shoot", "strike_back", "consolidate", "wavering", "ambush",
                         "block_spell")
        if a.stage == "ambush":
            return self._ambush(action)
        if a.stage == "block_spell":
            return self._block(Dispel(action.player))
        unit = s.units[a.unit] if a.unit is not None else None
        assert unit is not None
        if a.stage == "action":
            unit.move_action = MoveAction.HOLD
            return [Event("move", f"{unit.name} stays idle", {"unit": unit.id, "action": "hold"})] + \
                self._end_activation()
        if a.stage == "strike_back":
            target = s.units[a.melee[1]]
            return [Event("melee", f"{target.name} does not strike back", {"unit": target.id})] + \
                self._melee_result()
        if a.stage == "wavering":
            return self._recover(unit)
        return self._end_activation()


__all__ = [
    "BACK_OFF", "DECISIONS", "ELEVATION_HEIGHT", "SIDE_MISSION_RULES", "SPECIAL_RULES", "TERRAIN_TRAITS", "UPGRADES",
    "WAVERING_PIVOT", "Activations", "AoFR216",
]
