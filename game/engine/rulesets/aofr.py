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

The special rules this ruleset plays are ``SPECIAL_RULES`` (its book's wording where it differs from AoWFBR:
Impact automatic hits, Furious +1 attack, Fearless +1 to morale, and ``aofr_rules``: Fear +D3, Poison 6s x3,
Stealth at any distance, Artillery Defense 2+ against shooting, a joined Hero's strikes and Quality, the Musician /
Battle Standard +1, hills difficult going up); "Scout" is the shared deployment's with a roll-off, "Ambush" a step at
the beginning of rounds 2+ (decision ``ambush``: ``deploy`` anywhere over 12" from enemies, or ``done``). A scenario
using any other rule is refused at load (``game.scenario``). Rulings: docs/rulings.md "AoF:R 2.16".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from game.engine import activation_magic, deployment, magic, objectives, shooting, side_missions
from game.engine import charge as charging
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
from game.engine.activation_order import first_of_next_round, offer_activation
from game.engine.attacks import Modifier, roll_to_hit, succeeds, total
from game.engine.casualties import apply_wounds, at_half_strength, remaining_strength, starting_strength
from game.engine.consolidation import consolidation_move
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.melee import front_two_rows
from game.engine.morale import MoraleTerms
from game.engine.movement import apply_move, can_move, path_problem, path_shape, validate_move
from game.engine.profiles import Profile, Weapon
from game.engine.random_charge import charge_allowance
from game.engine.rulesets import aofr_rules
from game.engine.rulesets.aofr_rules import AOFR_SHOTS
from game.engine.rulesets.base import GameHost, Handler, Ruleset
from game.engine.shooting import ShotRules, sergeant_index
from game.engine.side_missions import SideMissionRules
from game.engine.special_rules import (
    RENDING_AP,
    ap_modifier,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_wounds,
    defense_profile,
    rending_hits,
    sergeant_modifier,
    weapon_value,
)
from game.engine.spell_effects import effect_modifiers, melee_attacks
from game.engine.state import GameState, MoveAction, Pending, Phase, Removal, Step, Unit
from geometry.arcs import Arc
from geometry.motion import MoveCheck
from geometry.pose import Pose, bearing_difference, forward_vector
from geometry.shapes import footprint_polygon

SPECIAL_RULES = frozenset({
    "Ambush", "AP", "Artillery", "Blast", "Deadly", "Fast", "Fear", "Fearless", "Flying", "Furious", "Hero",
    "Immobile", "Impact", "Indirect", "Poison", "Regeneration", "Rending", "Scout", "Slow", "Sniper", "Stealth",
    "Strider", "Tough", "Wizard",
})
"""AoF:R 2.16 "Special Rules" this ruleset plays (unit and weapon rules; ``aofr_rules`` where the book's meaning
differs from AoWFBR's; ``Wizard``: ``activation_magic``). The book's Breath Attack and Phalanx and AoWFBR's own
(Counter, Lance, Caster...) are refused when a scenario loads, naming the ruleset."""

UPGRADES = frozenset({"sergeant", "banner"})
"""AoF:R 2.16 "Command Groups" this ruleset plays: the Sergeant (+1 to hit for one model) and the "Musician / Battle
Standard" (+1 wound to the melee result), one upgrade written ``banner`` (``musician`` is refused at load, naming
``banner``: AoWFBR's Musician moves +1", which AoF:R's does not)."""

TERRAIN_TRAITS = frozenset({"impassable", "blocking", "cover", "difficult", "dangerous", "see_into_not_through",
                            "dangerous_when_rushing", "elevated"})
"""AoF:R 2.16 "Terrain" as this ruleset plays it: impassable, cover, difficult, dangerous terrain and sight blockers
(a forest is seen into, not through: docs/rulings.md), and the "Terrain Guidelines" kinds: rivers and ruins
(dangerous when crossing with Rush or Charge actions: ``dangerous_when_rushing``), hills (``elevated``: difficult
when going up, ``aofr_rules.hill_going_up``; units on top ignore one unit or piece for line of sight). "Elevation"
(pieces at least 3" tall: vertical movement counted) is not modelled: a hill given a height of 3" or more is refused
at load."""

SIDE_MISSION_RULES = SideMissionRules(vp=1, melee_phases=frozenset({Phase.ACTIVATION.value}),
                                      spell_phases=frozenset())
"""AoF:R 2.16 "Side-Missions" under activations: "1 VP for each side-mission that they completed"; a melee is fought
within an activation and a unit routs only when it fails the morale test of a lost melee ("Morale"), so every rout
is "in melee" (Terrify); the core rules cast no spells (Sorcerer Supreme cannot be completed). docs/rulings.md
"AoF:R 2.16"."""

ELEVATION_HEIGHT = 3.0
"""AoF:R 2.16 "Elevation": "Any terrain piece that is at least 3\" taller than the surface of the table"."""

DECISIONS = frozenset({
    "choose_objective_order", "place_objective", "choose_deployment", "deploy",   # deployment (shared)
    "activate", "action", "shoot", "strike_back", "consolidate", "wavering",      # an activation
    "block_spell",                                                                # Wizard(X)
    "set_aside", "scout_move", "ambush",                                          # Scout and Ambush
    "select_side_mission",                                                        # side-missions (shared)
})
"""The ``pending`` decisions of an AoF:R 2.16 game (docs/formats.md "AoF:R 2.16 activations")."""

BACK_OFF = 1.0
"""AoF:R 2.16 "Consolidation Moves": the charging unit moves back by 1"."""

WAVERING_PIVOT = 90.0
"""AoF:R 2.16 "Wavering Units": an idle activation may pivot by up to 90°."""


@dataclass
class Activations:
    """The round of activations (``GameState.activation``): who activates, what has, what the current unit does."""

    first: int
    """The player who activated first this round."""
    activated: list[str] = field(default_factory=list)
    """Units activated this round, in order."""
    unit: str | None = None
    """The unit being activated, None between activations."""
    stage: str = "activate"
    """``activate``, ``action``, ``shoot``, ``strike_back``, ``consolidate`` or ``wavering``."""
    finished_first: int | None = None
    """The player who ran out of units to activate first this round (goes first next round)."""
    fatigued: list[str] = field(default_factory=list)
    """Units that attacked in melee this round ("Fatigue": later melees hit only on 6s)."""
    strength: dict[str, int] = field(default_factory=dict)
    """Each unit's remaining strength when the activation began (morale tests from wounds)."""
    melee: list[str] = field(default_factory=list)
    """[charger, target] of the melee of this activation."""
    caused: dict[str, int] = field(default_factory=dict)
    """Wounds caused by each unit of that melee."""
    ambush_passed: list[int] = field(default_factory=list)
    """Players who placed all the Ambush units they wanted this round ("Ambush"; stage ``ambush``)."""
    ambush_next: int | None = None
    """The player who places the next Ambush unit this round."""
    close: list[list[str]] = field(default_factory=list)
    """Enemy pairs a melee left within 1" of each other out of melee ("Moving back 1"", docs/rulings.md), kept from
    round to round while they stay that close."""
    spell_used: list[str] = field(default_factory=list)
    """Wizards that tried to cast or block a spell this round ("Wizard(X)": one or the other, once a round)."""
    cast: activation_magic.ActivationCast | None = None
    """The cast waiting for the other player's ``block_spell`` answer (stage ``block_spell``), or None."""


class AoFR216(Ruleset):
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

    activations_type: ClassVar[type[Activations]] = Activations
    """The dataclass of a round of activations this ruleset keeps in ``GameState.activation``."""
    rush_pivots_first: ClassVar[bool] = True
    """"Rushing": the unit pivots first, then moves in a straight line (False: the quick rules' "pivot once by up to
    90° at any point")."""
    recover_section: ClassVar[str] = "Wavering Units"
    """The section a refused pivot of the idle activation that ends the morale state names."""

    scout_roll_off: ClassVar[bool] = True
    """"Scout": a roll-off when both players have Scouts (False: the quick rules' order, ``scout_reach``)."""
    scout_reach: ClassVar[float | None] = None
    """Inches around the deployment zone a Scout unit is placed in, with no move after (the quick rules' "Scout";
    ``deployment.DeploymentState.scout_reach``); None: placed in the zone, then moved 12"."""
    ambush_distance: ClassVar[float] = aofr_rules.AMBUSH_DISTANCE
    """"Ambush": placed over this many inches from enemy units."""
    ambush_edge: ClassVar[float | None] = None
    """"Ambush": fully within this many inches of a table edge (the quick rules' 6"); None: anywhere."""
    ambush_roll_off: ClassVar[bool] = True
    """"Ambush": a roll-off when both players have units waiting (False: the round's first player places first,
    the quick rules' "starting with the player that activates next")."""
    ambush_seizes: ClassVar[bool] = True
    """Whether a unit arriving by Ambush seizes and contests markers that round (the quick rules': it does not)."""

    prompts: ClassVar[Mapping[str, str]] = {
        "ambush": "Ambush: place {unit} anywhere over 12\" from enemy units (click or drag, Q/E pivots, Enter); "
                  "Space places no more this round.",
    }

    @classmethod
    def in_force_words(cls, state: GameState, unit: Unit) -> list[str]:
        """AoF:R 2.16's modifiers on ``unit`` in words (``aofr_rules.in_force_words``)."""
        a = state.activation
        fatigued = isinstance(a, Activations) and unit.id in a.fatigued
        return aofr_rules.in_force_words(state, unit, fatigued)

    @classmethod
    def activation_status(cls, state: GameState, unit: Unit) -> str | None:
        """"Activating Units": whether ``unit`` is being activated, has activated or may still activate this
        round."""
        a = state.activation
        if not isinstance(a, Activations) or not unit.on_table:
            return None
        if a.unit == unit.id:
            return "Being activated"
        return "Activated this round" if unit.id in a.activated else "Not activated yet this round"

    def __init__(self, game: GameHost) -> None:
        super().__init__(game)

    # --- the state of the round -------------------------------------------------------------------------------
    @property
    def act(self) -> Activations:
        """The round's activations (raises ``IllegalAction`` before the first round)."""
        a = self.state.activation
        if not isinstance(a, Activations):
            raise IllegalAction("Game Structure", "the rounds have not begun yet")
        return a

    def _current(self) -> Activations | None:
        a = self.state.activation
        return a if isinstance(a, Activations) else None

    # --- start, deployment ------------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        """Deployment (markers and units placed alternately; no first-turn roll-off), or the scenario's round with
        its player activating first."""
        s = self.state
        s.hills_going_up = True        # "Terrain Guidelines": "Hills - difficult terrain when going up"
        if s.phase is Phase.DEPLOYMENT:
            events = deployment.begin(s, self.dice, first_turn_roll_off=False, scout_roll_off=self.scout_roll_off,
                                      scout_reach=self.scout_reach)
            return events + self._after_deployment()
        return self._begin_round(s.active_player)

    def _after_deployment(self) -> list[Event]:
        s = self.state
        if s.phase is Phase.DEPLOYMENT and deployment.finished(s):
            s.round = 1
            return self._begin_round(s.first_player)
        return []

    def _deploy(self, action: Action) -> list[Event]:
        a = self._current()
        if a is not None and a.stage == "ambush" and self.state.phase is Phase.ACTIVATION:
            return self._ambush(action)
        self._check_deploy_rules(action)
        return deployment.apply(self.state, self.dice, action) + self._after_deployment()

    def _check_deploy_rules(self, action: Action) -> None:
        """"Deploying Armies": the deployment roll-off winner "must start deploying their army first"."""
        if self.state.phase is not Phase.DEPLOYMENT:
            raise IllegalAction("Deploying Armies", f"'{action.type}' is only possible during deployment")
        if isinstance(action, ChooseDeployment) and action.first != action.player:
            raise IllegalAction("Deploying Armies", f"the deployment roll-off winner deploys first: first must be "
                                f"{action.player}")

    def check_deploy(self, action: Action) -> IllegalAction | None:
        """Why a proposed deployment action is illegal, or None (nothing changes)."""
        try:
            self.check_turn(action)
            a = self._current()
            if a is not None and a.stage == "ambush" and self.state.phase is Phase.ACTIVATION:
                if not isinstance(action, Deploy):
                    raise IllegalAction("Ambush", f"'{action.type}' is not possible now; place a unit from Ambush "
                                        "(deploy) or done")
                self._check_ambush(action)
                return None
            self._check_deploy_rules(action)
            deployment.check(self.state, action)
        except IllegalAction as e:
            return e
        return None

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
                               "cast": a.cast.to_dict() if a.cast is not None else None}}

    # --- rounds -----------------------------------------------------------------------------------------------
    def _begin_round(self, first: int) -> list[Event]:
        s = self.state
        s.phase, s.step = Phase.ACTIVATION, Step.ACTIVATION
        s.first_player = first
        old = self._current()
        s.activation = self.activations_type(first)
        if old is not None:        # pairs a melee left within 1" stay tolerated while they stay that close
            s.activation.close = [sorted(p) for p in self.tolerated_closeness(s)]
        for u in s.units.values():
            u.reset_turn_flags()
        events = [Event("phase", f"Round {s.round}: player {first} activates first", {"round": s.round,
                                                                                      "player": first})]
        return events + self._round_magic() + self._begin_ambush()

    def _round_magic(self) -> list[Event]:
        """The start of a round for magic: spells cast last round end (docs/rulings.md "AoF:R 2.16": spell
        durations within activations)."""
        return magic.expire_effects(self.state)

    # --- Ambush ---------------------------------------------------------------------------------------------------
    def _waiting(self, player: int) -> list[str]:
        """The player's units kept in reserve by Ambush, not yet placed."""
        return deployment.reserves_of(self.state, player, "Ambush")

    def _begin_ambush(self) -> list[Event]:
        """"Ambush": "At the beginning of any round after the first, you may place the model anywhere on the table,
        over 12\" away from enemy units. If both players have units with Ambush, they must roll-off to see who
        deploys first, and then alternate in placing them." (stage ``ambush``, decision ``ambush``: ``deploy`` or
        ``done`` to place no more this round; docs/rulings.md)."""
        s, a = self.state, self.act
        waiting = {p: self._waiting(p) for p in (1, 2)}
        if s.round < 2 or not (waiting[1] or waiting[2]):
            return self._next_activation(a.first)
        events: list[Event] = []
        if not self.ambush_roll_off:
            winner = a.first        # the quick rules: "starting with the player that activates next"
        elif waiting[1] and waiting[2]:
            winner, events = deployment.roll_off(self.dice, "Ambush roll-off")
            events.append(Event("deploy", f"Player {winner} wins the Ambush roll-off and places first",
                                {"roll_off": "ambush", "winner": winner}))
        else:
            winner = 1 if waiting[1] else 2
        a.ambush_passed, a.ambush_next = [], winner
        return events + self._next_ambush()

    def _next_ambush(self) -> list[Event]:
        s, a = self.state, self.act
        assert a.ambush_next is not None
        for p in (a.ambush_next, 3 - a.ambush_next):
            if p not in a.ambush_passed and self._waiting(p):
                a.stage, a.ambush_next = "ambush", p
                s.active_player = p
                s.pending = Pending(p, "ambush", None, tuple(self._waiting(p)))
                return [Event("info", f"Player {p} may place a unit from Ambush", {"ambush": self._waiting(p)})]
        a.stage, a.ambush_next = "activate", None
        return self._next_activation(a.first)

    def _check_ambush(self, action: Deploy) -> Unit:
        """Why an Ambush placement is illegal (``IllegalAction`` naming the rule); returns the unit."""
        self._expect(action, "ambush")
        unit = self.own_unit(action)
        if unit.id not in self._waiting(action.player):
            raise IllegalAction("Ambush", f"{unit.name} is not waiting in Ambush")
        if self.ambush_edge is not None:
            deployment.check_ambush_zone(self.state, unit, action.pose, self.ambush_edge)
        why = aofr_rules.ambush_problem(self.state, unit, action.pose, self.ambush_distance)
        if why is not None:
            raise IllegalAction("Ambush", why, action.pose.xy)
        deployment.check_placement(self.state, unit, action.pose, "Ambush")
        return unit

    def _ambush(self, action: Action) -> list[Event]:
        s, a = self.state, self.act
        if isinstance(action, Done):
            self._expect(action, "ambush")
            a.ambush_passed.append(action.player)
            events = [Event("info", f"Player {action.player} keeps the rest in reserve this round", {})]
        else:
            assert isinstance(action, Deploy)
            unit = self._check_ambush(action)
            d = deployment.progress(s)
            assert d is not None
            s.place(unit, action.pose)
            del d.reserves[unit.id]
            if not self.ambush_seizes:
                d.ambush_round[unit.id] = s.round     # objectives.may_seize: not this round
            events = [Event("deploy", f"{unit.name} arrives from Ambush", {"unit": unit.id, "ambush": True,
                                                                             "to": _pose(action.pose)})]
        a.ambush_next = 3 - action.player
        return events + self._next_ambush()

    def _eligible(self, player: int) -> list[str]:
        done = set(self.act.activated)
        return [u.id for u in self.state.units_of(player) if u.id not in done]

    def _next_activation(self, player: int) -> list[Event]:
        """Player ``player`` activates next if it has a unit left, else the other; none left: the round ends."""
        s, a = self.state, self.act
        a.unit, a.stage, a.melee, a.caused = None, "activate", [], {}
        offered, a.finished_first = offer_activation(s, player, self._eligible, a.finished_first)
        return [] if offered else self._end_round()

    def _end_round(self) -> list[Event]:
        s, a = self.state, self.act
        events = objectives.seize(s)   # "The Mission": at the end of each round
        if s.round >= s.rounds:
            return events + self._end_game()
        s.round += 1
        return events + self._begin_round(first_of_next_round(a.finished_first, a.first))

    def _end_game(self) -> list[Event]:
        s = self.state
        s.game_over = True
        s.pending = None
        revealed = side_missions.reveal(s)   # hidden side-missions are shown now
        held = self.victory_points()
        verdict = "the game is a draw" if held[1] == held[2] else f"player {1 if held[1] > held[2] else 2} wins"
        names = self.score_names()
        what = "objective markers" if names == self.score_words else names[0]   # the core mission's words
        return revealed + [Event("victory", f"Game over after round {s.round}: {held[1]} to {held[2]} {what}, "
                                 f"{verdict}",
                                 {"victory_points": {"1": held[1], "2": held[2]}})]

    def victory_points(self) -> dict[int, int]:
        """Who the mission makes the winner (the higher count wins, equal counts draw): ``victory_breakdown``
        added up."""
        return {p: sum(v for _, v in lines) for p, lines in self.victory_breakdown().items()}

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """AoF:R 2.16 "Mission Objectives", "Extra Missions": the mission decides the winner. Without side-missions
        a line worth 1 per marker controlled (carried, in Relic Hunt), so the player who controls most markers wins
        (King of the Hill: the one who controls it); in Sabotage 1 for destroying the enemy marker and 1 for keeping
        one's own, so the higher count is exactly "the player that managed to destroy the enemy marker whilst
        keeping their own marker intact" and anything else is a draw. "Playing with Side-Missions": "the scoring at
        the end of the game is done using a Victory Points (VP) system, instead of winning based on the mission's
        conditions": the mission's VP (1 per marker, 2 for King of the Hill's, Sabotage 1 + 1) and 1 VP per
        side-mission completed (scored once the game is over)."""
        s = self.state
        if side_missions.active(s):
            out = objectives.objective_lines(s, per_vp=1)
            for p, lines in side_missions.side_mission_lines(s).items():
                out[p] += lines
            return out
        return {p: [(what, 1) for what, _ in lines] for p, lines in objectives.objective_lines(s).items()}

    def score_names(self) -> tuple[str, str]:
        """What the count is: victory points with side-missions; Sabotage's points; else markers held."""
        if side_missions.active(self.state):
            return ("victory points", "VP")
        if self.state.mission == "sabotage":
            return ("Sabotage points (enemy marker destroyed, own marker kept)", "points")
        return self.score_words

    def melee_wins(self, events: list[Event]) -> list[tuple[int, int]]:
        """The melee results of ``events`` (``melee`` events carrying ``winner`` and ``caused``): the winner and
        the wounds its unit caused minus the enemy unit's (docs/rulings.md "AoF:R 2.16": Onslaught)."""
        out: list[tuple[int, int]] = []
        for e in events:
            winner, caused, units = e.data.get("winner"), e.data.get("caused"), e.data.get("units")
            if e.kind != "melee" or winner not in (1, 2) or not caused or not units:
                continue
            side = {uid: self.state.units[uid].player for uid in units if uid in self.state.units}
            won = sum(n for uid, n in caused.items() if side.get(uid) == winner)
            lost = sum(n for uid, n in caused.items() if side.get(uid) == 3 - winner)
            out.append((winner, won - lost))
        return out

    # --- activations ------------------------------------------------------------------------------------------
    def _expect(self, action: Action, *stages: str) -> Activations:
        a = self._current()
        if a is None or a.stage not in stages or self.state.phase is not Phase.ACTIVATION:
            pending = self.state.pending
            raise IllegalAction("Activating Units", f"'{action.type}' is not possible now; the game waits for "
                                f"{pending.decision if pending else 'nothing'}")
        return a

    def _active_unit(self, action: Action, a: Activations) -> Unit:
        unit = self.own_unit(action)
        if unit.id != a.unit:
            raise IllegalAction("Activating Units", f"{a.unit} is being activated, not {unit.id}")
        return unit

    def _activate(self, action: Activate) -> list[Event]:
        a = self._expect(action, "activate")
        s = self.state
        unit = self.own_unit(action)
        if unit.id not in self._eligible(action.player):
            raise IllegalAction("Activating Units", f"{unit.name} has already been activated this round"
                                if unit.id in a.activated else f"{unit.name} cannot be activated")
        a.activated.append(unit.id)
        a.unit = unit.id
        a.strength = {u.id: remaining_strength(u) for u in s.units.values() if u.on_table}
        unit.reset_turn_flags()
        events = [Event("activate", f"Player {unit.player} activates {unit.name}", {"unit": unit.id})]
        if unit.shaken:
            a.stage = "wavering"
            s.pending = Pending(unit.player, "wavering", unit.id)
        else:
            a.stage = "action"
            s.pending = Pending(unit.player, "action", unit.id)
        return events

    def _end_activation(self) -> list[Event]:
        """"Morale: When to Test": units left at half strength or less by wounds taken this activation outside
        melee take a morale test (Wavering if failed); then the other player activates."""
        s, a = self.state, self.act
        events: list[Event] = []
        for u in list(s.units.values()):
            if not u.on_table or u.id in a.melee or u.id not in a.strength:
                continue
            if remaining_strength(u) < a.strength[u.id] and at_half_strength(u):
                passed, evs = self._morale_test(u, "at half strength")
                events += evs
                if not passed and not u.shaken:
                    u.shaken = True
                    events.append(Event("shaken", f"{u.name} is {self.morale_states['shaken']}", {"unit": u.id}))
        player = s.units[a.unit].player if a.unit is not None else s.active_player
        return events + self._next_activation(3 - player)

    @classmethod
    def morale_test_terms(cls, unit: Unit) -> MoraleTerms:
        """AoF:R 2.16 "Taking Morale Tests": a Quality test of the unit's own Quality; "Fearless": +1 to the roll;
        "Hero": the joined hero's Quality may be used; a Wavering unit fails automatically ("Wavering Units")."""
        quality, taker = aofr_rules.morale_quality(unit)
        fearless = aofr_rules.fearless(unit, taker)
        mods = (fearless,) if fearless is not None else ()
        who = f"taken by {taker.name} (Hero)" if taker is not unit.profile else ""
        return MoraleTerms(quality, who, mods, False, unit.shaken)

    @classmethod
    def tests_morale_after_shot(cls, unit: Unit, wounds: int, left: int) -> bool:
        """AoF:R 2.16 "Morale: When to Test": a unit that took wounds outside melee this activation and is left at
        half strength or less tests when the activation ends (``_end_activation``); a Wavering unit fails it."""
        return wounds > 0 and 0 < left and left * 2 <= starting_strength(unit)

    def melee_played_out(self, round_: int, player: int) -> bool:
        """AoF:R 2.16 "Melee": the charge is fought within the charger's activation; it is played out once that
        activation has ended (the next one is asked for) or the round or the game has."""
        s = self.state
        return s.pending is None or s.round != round_ or s.pending.decision == "activate"

    def _lost_melee(self, loser: Unit, mods: list[Modifier]) -> list[Event]:
        """"Morale": the loser of a melee tests (with ``mods``: the quick rules' "Flanking"); failed, it routs at half
        strength or less, else it takes the ruleset's morale state (2.16 Wavering, the quick rules' Shaken)."""
        passed, events = self._morale_test(loser, "lost the melee", mods)
        if not passed:
            if at_half_strength(loser):
                events.append(Event("rout", f"{loser.name} routs", {"unit": loser.id}))
                self.state.remove(loser, Removal.ROUTED)
            elif not loser.shaken:
                loser.shaken = True
                events.append(Event("shaken", f"{loser.name} is {self.morale_states['shaken']}", {"unit": loser.id}))
        return events

    def _morale_test(self, unit: Unit, reason: str, mods: list[Modifier] | None = None) -> tuple[bool, list[Event]]:
        """AoF:R 2.16 "Taking Morale Tests": one Quality test; Wavering units fail automatically; "Fearless": +1;
        "Hero": the unit may use its joined hero's Quality (``morale_test_terms``, ``aofr_rules.morale_quality``)."""
        terms = self.morale_test_terms(unit)
        if terms.automatic_fail:
            return False, [Event("morale", f"{unit.name} is Wavering and automatically fails its morale test "
                                 f"({reason})", {"unit": unit.id, "passed": False, "automatic": True})]
        quality, taker = aofr_rules.morale_quality(unit)
        mods = list(terms.modifiers) + effect_modifiers(unit, "morale") + list(mods or [])   # spells, then given
        roll = self.dice.one(f"Morale test of {unit.name} ({reason})")
        passed = succeeds(roll, quality, total(mods))
        need = f"Quality {quality}+" + (f" ({taker.name}, Hero)" if taker is not unit.profile else "")
        events = [roll_event(f"Morale test of {unit.name} ({reason})", [roll], quality, total(mods),
                             1 if passed else 0, [need] + [str(m) for m in mods], unit=unit.id),
                  Event("morale", f"{unit.name} {'passes' if passed else 'fails'} its morale test ({reason})",
                        {"unit": unit.id, "passed": passed, "reason": reason})]
        return passed, events

    # --- Hold, Advance, Rush ----------------------------------------------------------------------------------
    def _validate_move(self, action: Move) -> tuple[Unit, MoveAction, MoveCheck]:
        a = self._expect(action, "action")
        unit = self._active_unit(action, a)
        try:
            kind = MoveAction(action.action)
        except ValueError:
            raise IllegalAction("Activating Units", f"unknown action {action.action!r}; use hold, advance or rush "
                                "(a Charge is declare_charge)") from None
        if kind is MoveAction.CHARGE:
            raise IllegalAction("Activating Units", "a Charge is taken with declare_charge")
        assert unit.pose is not None
        shape = path_shape(unit.pose, action.path)
        if kind is not MoveAction.HOLD and len(shape.pivots) > 1:
            raise IllegalAction("Advancing" if kind is MoveAction.ADVANCE else "Rushing",
                                "the unit may pivot once by up to 90°")
        if kind is MoveAction.RUSH and self.rush_pivots_first and shape.pivots and shape.legs and \
                abs(bearing_difference(shape.legs[0][0].facing, shape.end.facing)) > 1e-6:
            raise IllegalAction("Rushing", "the unit may first pivot by up to 90°, and then moves in a straight line")
        # "Hills - difficult terrain when going up": GameState.hills_going_up, set by start()
        check = validate_move(self.state, unit, kind, action.path, rush_near_enemy=True)
        return unit, kind, check

    def check_move(self, action: Move) -> IllegalAction | None:
        """Why a proposed move is illegal, or None (nothing changes)."""
        try:
            self.check_turn(action)
            self._validate_move(action)
        except IllegalAction as e:
            return e
        return None

    def move_info(self, action: Move) -> MoveCheck | None:
        """The geometry of a legal proposed move, or None."""
        try:
            return self._validate_move(action)[2]
        except IllegalAction:
            return None

    def _move(self, action: Move) -> list[Event]:
        unit, kind, check = self._validate_move(action)
        events = apply_move(self.state, self.dice, unit, kind, action.path, check)
        return events + self._after_move(unit)

    def _after_move(self, unit: Unit) -> list[Event]:
        """"Activating Units": after a Hold or an Advance the unit may shoot."""
        a = self.act
        if unit.on_table and unit.move_action in (MoveAction.HOLD, MoveAction.ADVANCE) \
                and shooting.valid_targets(self.state, unit.id, all_rows=self.all_models_shoot):
            a.stage = "shoot"
            self.state.pending = Pending(unit.player, "shoot", unit.id)
            return []
        return self._end_activation()

    def units_to_move(self, player: int) -> list[str]:
        """The unit being activated, when it is to take its action."""
        a = self._current()
        if a is None or a.stage != "action" or a.unit is None or player != self.state.active_player:
            return []
        return [a.unit] if can_move(self.state, self.state.units[a.unit]) is None else []

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
        me = p.player
        if p.decision == "activate":
            return [Activate(me, uid) for uid in p.options]
        unit = p.unit
        if unit is None:
            return None
        if p.decision == "action":
            return [Done(me)] + [DeclareCharge(me, unit, t) for t in self.charge_targets(unit)]
        if p.decision == "shoot":
            return [Shoot(me, unit, t) for t in self.shooting_targets(unit)] + [Done(me)]
        if p.decision == "strike_back":
            return [StrikeBack(me, unit), Done(me)]
        if p.decision in ("consolidate", "wavering"):
            return [Done(me)]
        return None

    # --- shooting -----------------------------------------------------------------------------------------------
    def shooting_targets(self, unit_id: str) -> list[str]:
        """Valid targets of the activated unit after its Hold or Advance (every model may fire)."""
        a = self._current()
        if a is None or a.stage != "shoot" or a.unit != unit_id:
            return []
        return shooting.valid_targets(self.state, unit_id, all_rows=self.all_models_shoot)

    def _shoot(self, action: Shoot) -> list[Event]:
        a = self._expect(action, "shoot")
        unit = self._active_unit(action, a)
        events = shooting.shoot(self.state, self.dice, action, all_rows=self.all_models_shoot,
                                cover_to_hit=self.cover_to_hit, rules=self.shot_rules)
        if unit.on_table and shooting.valid_targets(self.state, unit.id, all_rows=self.all_models_shoot):
            return events   # "Multiple Weapon Types": another weapon group may fire
        return events + self._end_activation()

    # --- charge and melee ---------------------------------------------------------------------------------------
    def charge_targets(self, unit_id: str) -> list[str]:
        """"Melee: Picking Targets": enemies the activated unit can reach with a clear path (no sight needed)."""
        s = self.state
        a = self._current()
        unit = s.units.get(unit_id)
        if a is None or a.stage != "action" or a.unit != unit_id or unit is None or charging.can_charge(unit):
            return []
        reach = charge_allowance(s, unit)
        out = []
        for enemy_id in s.scene.units_within(unit.id, reach, players=[3 - unit.player]):
            try:
                self._plan(unit, s.units[enemy_id], explain=False)
            except IllegalAction:
                continue
            out.append(enemy_id)
        return [u for u in s.units if u in out]

    def _charge(self, action: DeclareCharge) -> list[Event]:
        a = self._expect(action, "action")
        s = self.state
        unit = self._active_unit(action, a)
        target = s.units.get(action.target)
        if target is None:
            raise IllegalAction("Picking Targets", f"there is no unit {action.target!r}")
        self._plan(unit, target)   # raises when it is not a valid charge
        events = [Event("charge", f"{unit.name} charges {target.name}", {"unit": unit.id, "target": target.id,
                                                                          "declared": True})]
        events += charging.make_charge_move(s, self.dice, unit, target)
        if not (unit.on_table and target.on_table and target.id in unit.engaged_with):
            return events + self._end_activation()
        a.melee = [unit.id, target.id]
        a.caused = {unit.id: 0, target.id: 0}
        events += self._strike(unit, target, charging_now=True)
        if target.on_table and unit.on_table and self._strikers(target, unit):
            a.stage = "strike_back"
            s.pending = Pending(target.player, "strike_back", target.id)
            return events
        return events + self._melee_result()

    def _plan(self, unit: Unit, target: Unit, explain: bool = True) -> charging.ChargePlan:
        """"Charging": a clear path within charge distance (no line of sight needed), ending in contact with the
        target only. Raises ``IllegalAction`` naming the rule."""
        plan = charging.plan_charge(self.state, unit, target, need_sight=False, explain=explain)
        if plan.also_contacts:
            others = ", ".join(self.state.units[u].name for u in plan.also_contacts)
            raise IllegalAction("Charging", f"the charge would end in base contact with {others} too; a Charge "
                                "brings the unit into contact with its target only (docs/rulings.md)")
        return plan

    def charge_plan(self, unit_id: str, target_id: str) -> charging.ChargePlan:
        """How the charge would go (the window's preview); ``IllegalAction`` when it is not a valid charge."""
        return self._plan(self.state.units[unit_id], self.state.units[target_id])

    def _strikers(self, unit: Unit, enemy: Unit) -> int:
        """"Who Can Strike": models of the two front rows, only at targets in their front facing."""
        if not unit.on_table or unit.contact_arcs.get(enemy.id) is not Arc.FRONT:
            return 0
        return front_two_rows(self.state, unit)

    def _strike(self, unit: Unit, enemy: Unit, charging_now: bool) -> list[Event]:
        """"The Melee Sequence" for ``unit`` against ``enemy``: Impact hits (charging, not fatigued), then each
        melee weapon of the striking models (Furious: +1 attack each when charging), hits, blocks, casualties.
        Fatigued or Wavering units hit only on unmodified 6s. A joined "Hero" in the two front rows strikes with
        its own weapons, Quality and rules, after the unit's own models (``aofr_rules.strike_kinds``); "Poison":
        each unmodified 6 to hit becomes 3 hits."""
        s, a = self.state, self.act
        n = self._strikers(unit, enemy)
        events: list[Event] = []
        only = "Fatigue" if unit.id in a.fatigued else ("Wavering" if unit.shaken else None)
        kinds = aofr_rules.strike_kinds(s, unit) if n else []
        for prof, hero, count in kinds:
            if charging_now and not only and prof.value("Impact") and count and enemy.on_table:
                hits = count * prof.value("Impact")
                who = self._who(unit, hero)
                events.append(Event("hits", f"{who} Impact hits on {enemy.name}: {hits}",
                                    {"unit": unit.id, "target": enemy.id, "weapon": "Impact", "hits": hits,
                                     "hero": hero}))
                events += self._wound(unit, enemy, hits, None, 0, prof)
        sarge = sergeant_index(unit)
        sarge_strikes = sarge is not None and int(s.scene.model_rows(unit.id)[sarge]) <= 1 if unit.on_table \
            else False
        for prof, hero, count in kinds:
            who = self._who(unit, hero)
            for i, weapon in enumerate(sorted(prof.melee_weapons, key=lambda w: not w.has("Deadly"))):
                if not enemy.on_table or count == 0:
                    break
                per_model = melee_attacks(unit, weapon.attacks) + (1 if charging_now and prof.has("Furious")
                                                                   and i == 0 else 0)   # spells: magic
                attacks = count * per_model
                label = f"{who} strikes {enemy.name} with {weapon.name}"
                events.append(Event("info", f"{label}: {attacks} attacks" + (f" (hit only on 6: {only})" if only
                                                                               else ""),
                                    {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "attacks": attacks,
                                     "hero": hero}))
                quality, need = attack_quality(prof, weapon, False)
                sarge_here = sarge_strikes and not hero
                spells = effect_modifiers(unit, "to_hit")   # spells (game.engine.magic)
                batches: list[tuple[int, list[Modifier], str]] = [(attacks - (per_model if sarge_here else 0),
                                                                   list(spells), "to hit")]
                if sarge_here:
                    batches.append((per_model, [sergeant_modifier(), *spells], "to hit (Sergeant)"))
                hits = sixes = 0
                for cnt, mods, what in batches:
                    if cnt > 0:
                        hr = roll_to_hit(self.dice, cnt, quality, mods, f"{label}: {what}", only_sixes=only,
                                         need_text=need)
                        events += hr.events
                        hits, sixes = hits + hr.hits, sixes + hr.sixes
                rending = rending_hits(prof, weapon, sixes)
                poison = aofr_rules.poison_extra(prof, weapon, sixes)
                blast = blast_multiplier(weapon, enemy.models)
                total_hits = (hits + poison) * blast
                note = f" (Poison 6s x{aofr_rules.POISON_MULTIPLIER}: +{poison})" if poison else ""
                events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}{note}",
                                    {"unit": unit.id, "target": enemy.id, "weapon": weapon.name,
                                     "hits": total_hits}))
                normal = hits - rending + (0 if rending else poison)
                rend = rending + (poison if rending else 0)
                events += self._wound(unit, enemy, normal * blast, weapon, rend * blast, prof)
        if n and unit.id not in a.fatigued:
            a.fatigued.append(unit.id)
        return events

    @staticmethod
    def _who(unit: Unit, hero: bool) -> str:
        return f"{unit.hero.name} with {unit.name}" if hero and unit.hero is not None else unit.name

    def _wound(self, unit: Unit, enemy: Unit, hits: int, w: Weapon | None, rending: int,
               attacker: Profile | None = None) -> list[Event]:
        """Roll to Block and Remove Casualties for ``hits`` (and ``rending`` Rending 6s at AP(4)) on ``enemy`` by
        ``attacker`` models (default the unit's own). "Hero": the unit blocks with its own Defense until all
        non-hero models are killed (``special_rules.defense_profile``); the hero takes wounds last."""
        if hits + rending <= 0:
            return []
        ap = w.ap if w is not None else 0

        def mods(x: int) -> list[Modifier]:
            m = ap_modifier(x)
            return ([m] if m is not None else []) + effect_modifiers(enemy, "defense")   # spells: magic

        batches = [(hits, mods(ap), "Defense")]
        if rending:
            batches.append((rending, mods(max(ap, RENDING_AP)), "Defense against Rending 6s"))
        defender = defense_profile(enemy)
        defense = defender.defense
        who = w.name if w is not None else "Impact"
        wounds, events = block_hits(self.dice, batches, defender, attacker or unit.profile, w,
                                    lambda what: f"{enemy.name} {what} against {unit.name} ({who})",
                                    f"{enemy.name} against {unit.name}", f"Defense {defense}+", enemy.id,
                                    aowfbr_poison=False)
        if wounds and w is not None and w.has("Deadly"):
            wounds = deadly_wounds(enemy, wounds, weapon_value(w, "Deadly"))
        a = self.act
        a.caused[unit.id] = a.caused.get(unit.id, 0) + wounds
        return events + apply_wounds(self.state, enemy, wounds, f"melee with {unit.name}", self.dice)

    def _strike_back(self, action: StrikeBack) -> list[Event]:
        a = self._expect(action, "strike_back")
        unit = self.own_unit(action)
        if len(a.melee) != 2 or unit.id != a.melee[1]:
            raise IllegalAction("Return Strikes", "only the charged unit may strike back")
        charger = self.state.units[a.melee[0]]
        events = [Event("melee", f"{unit.name} strikes back", {"unit": unit.id})]
        return events + self._strike(unit, charger, charging_now=False) + self._melee_result()

    def full_rows(self, unit: Unit) -> int:
        """"Combat Resolution": the unit's full rows (a single model counts as one)."""
        if not unit.on_table or unit.models <= 0:
            return 0
        if unit.starting_models == 1:
            return 1
        return unit.models // max(unit.per_row, 1)

    def _melee_result(self) -> list[Event]:
        """"Combat Resolution" (wounds caused + full rows; "Fear" +D3, rolled charger first; "Musician / Battle
        Standard" +1) and "Consolidation Moves"."""
        s, a = self.state, self.act
        charger, target = (s.units[u] for u in a.melee)
        events: list[Event] = []
        extra: dict[str, list[str]] = {charger.id: [], target.id: []}
        score = {u.id: a.caused.get(u.id, 0) + self.full_rows(u) for u in (charger, target)}
        for u in (charger, target):
            if not (charger.on_table and target.on_table):
                break                      # a destroyed unit: no melee result ("Consolidation Moves")
            fear, evs = aofr_rules.fear_wounds(self.dice, u)   # "Fear": +D3 wounds
            events += evs
            if fear:
                score[u.id] += fear
                extra[u.id].append(f"Fear +{fear}")
            if aofr_rules.command_wounds(u):                  # "Musician / Battle Standard": +1 wound
                score[u.id] += 1
                extra[u.id].append("Battle Standard +1")
        # units / winner (player) / caused (wounds by unit): the keys every ruleset's melee result carries
        # (docs/formats.md "Events"), read by the odds advisor and the statistics
        winner = None if score[charger.id] == score[target.id] else \
            (charger.player if score[charger.id] > score[target.id] else target.player)
        words = {u.id: f"{u.name} {score[u.id]}" + (f" ({', '.join(extra[u.id])})" if extra[u.id] else "")
                 for u in (charger, target)}
        events.append(Event("melee", f"Melee result: {words[charger.id]}, {words[target.id]} "
                            f"(wounds caused + full rows)",
                            {"scores": dict(score), "units": [charger.id, target.id], "winner": winner,
                             "caused": {u: a.caused.get(u, 0) for u in (charger.id, target.id)}}))
        loser: Unit | None = None
        if charger.on_table and target.on_table and score[charger.id] != score[target.id]:
            loser = target if score[charger.id] > score[target.id] else charger
        if loser is not None:
            events += self._lost_melee(loser, [])
        if charger.on_table and target.on_table:
            return events + self._back_off(charger, target) + self._end_activation()
        for u in (charger, target):
            for other in list(u.engaged_with):
                s.disengage(u, s.units[other])
        survivor = charger if charger.on_table else target if target.on_table else None
        if survivor is None:
            return events + self._end_activation()
        a.stage = "consolidate"
        s.pending = Pending(survivor.player, "consolidate", survivor.id)
        return events

    def _back_off(self, charger: Unit, target: Unit) -> list[Event]:
        """"Consolidation Moves": the charger moves straight back 1", away from the defending unit. If something
        blocks it, the defending unit moves 1" the other way (along the charger's facing) instead; else the charger
        moves back as far as it can (3/4", 1/2", 1/4"); else they stay (the quick rules: "if possible").
        docs/rulings.md "AoF:R 2.16"."""
        s = self.state
        s.disengage(charger, target)
        tries = [(charger, target, BACK_OFF), (target, charger, BACK_OFF)] + \
            [(charger, target, d) for d in (0.75, 0.5, 0.25)]
        assert charger.pose is not None
        fx, fy = forward_vector(charger.pose.facing)     # the charger's straight back is -forward
        legal: list[tuple[Unit, Pose, float]] = []
        for mover, _other, d in tries:
            assert mover.pose is not None
            sign = -1.0 if mover is charger else 1.0
            end = mover.pose.moved(sign * fx * d, sign * fy * d)
            if s.scene.check_path(mover.id, mover.pose, [end], exclusion=0.0).ok:
                legal.append((mover, end, d))
        if not legal:
            self._note_close(charger, target)
            return [Event("consolidate", f"{charger.name} cannot move back", {"unit": charger.id, "kind": "none"})]
        # the first that leaves both 1" from every enemy (the charge may have ended nearer another); else the first
        # that brings neither nearer an enemy it stands within 1" of ("Advancing": models may not move within 1" of
        # other units); else the first (docs/rulings.md "Moving back 1"")
        mover, end, d = next((c for c in legal if self._clear_of_enemies(c[0], c[1], charger, target)), None) or \
            next((c for c in legal if not self._closer_to_enemies(c[0], c[1])), legal[0])
        assert mover.pose is not None
        start = mover.pose
        s.place(mover, end)
        self._note_close(charger, target)
        return [Event("consolidate", f"{mover.name} moves back {d:g}\"",
                      {"unit": mover.id, "kind": "back", "from": _pose(start), "to": _pose(end)})]

    def _closer_to_enemies(self, mover: Unit, end: Pose) -> bool:
        """Whether ``mover`` at ``end`` would stand nearer than now to an enemy it would be within 1" of."""
        scene = self.state.scene
        fp = footprint_polygon(end, mover.formation)
        for enemy in self.state.enemies_of(mover.player):
            d = fp.distance(scene.footprint(enemy.id))
            if d < 1.0 - 1e-6 and d < scene.distance(mover.id, enemy.id) - 1e-6:
                return True
        return False

    def _note_close(self, charger: Unit, target: Unit) -> None:
        """Remember enemy pairs a melee leaves within 1" of each other out of melee (a blocked move back; a charge
        that ended near another enemy): legal by docs/rulings.md "Moving back 1"", until one of them moves away
        (``tolerated_closeness``)."""
        a, scene = self.act, self.state.scene
        for unit in (charger, target):
            if not unit.on_table:
                continue
            for enemy in self.state.enemies_of(unit.player):
                pair = sorted((unit.id, enemy.id))
                if enemy.id not in unit.engaged_with and scene.distance(unit.id, enemy.id) < 1.0 - 1e-6 \
                        and pair not in a.close:
                    a.close.append(pair)

    @classmethod
    def tolerated_closeness(cls, state: GameState) -> set[frozenset[str]]:
        """Enemy pairs left within 1" of each other out of melee by a melee (see ``_note_close``) and still that
        close: the invariant checks (``game.autoplay.state_is_consistent``) accept them."""
        a = state.activation
        if not isinstance(a, Activations):
            return set()
        out = set()
        for pair in a.close:
            x, y = (state.units.get(u) for u in pair)
            if x is not None and y is not None and x.on_table and y.on_table and \
                    state.scene.distance(x.id, y.id) < 1.0 - 1e-6:
                out.add(frozenset(pair))
        return out

    def _clear_of_enemies(self, mover: Unit, end: Pose, charger: Unit, target: Unit) -> bool:
        """Whether ``mover`` at ``end`` and the other unit of the melee stand 1" from every enemy unit."""
        scene = self.state.scene
        fp = footprint_polygon(end, mover.formation)
        for unit in (charger, target):
            for enemy in self.state.enemies_of(unit.player):
                if unit is mover:
                    d = fp.distance(scene.footprint(enemy.id))
                elif enemy is mover:
                    d = scene.footprint(unit.id).distance(fp)
                else:
                    d = scene.distance(unit.id, enemy.id)
                if d < 1.0 - 1e-6:
                    return False
        return True

    def _consolidate(self, action: Consolidate) -> list[Event]:
        a = self._expect(action, "consolidate")
        pending = self.state.pending
        unit = self.own_unit(action)
        if pending is None or unit.id != pending.unit:
            raise IllegalAction("Consolidation Moves", f"{pending.unit if pending else '?'} consolidates now")
        del a
        return consolidation_move(self.state, self.dice, unit, action.path) + self._end_activation()

    # --- Wavering -----------------------------------------------------------------------------------------------
    def _validate_wavering_pivot(self, action: RallyPivot) -> tuple[Unit, Pose, float]:
        a = self._expect(action, "wavering")
        unit = self._active_unit(action, a)
        assert unit.pose is not None
        turn = bearing_difference(unit.pose.facing, action.facing)
        if abs(turn) > WAVERING_PIVOT + 1e-6:
            word = self.morale_states["shaken"]
            raise IllegalAction(self.recover_section, f"a {word} unit may only pivot by up to 90°")
        new = unit.pose.facing_to(action.facing)
        # "Pivoting": "you may ignore all terrain and units (friendly or enemy) to complete the pivot"; where it
        # ends must still be free (no overlap, on the table)
        scene = self.state.scene
        check = scene.check_path(unit.id, unit.pose, [new], exclusion=0.0)
        if not check.ok:
            raise path_problem(check, self.state)
        # where it ends keeps the 1" of "Advancing" from other units (or comes no closer than it stood)
        end = footprint_polygon(new, unit.formation)
        for other in scene.units_within(unit.id, 1.0 + unit.formation.width + unit.formation.depth):
            d_end, d_now = end.distance(scene.footprint(other)), scene.distance(unit.id, other)
            if d_end < 1.0 - 1e-6 and d_end < d_now - 1e-6:
                raise IllegalAction("Pivoting", f"the pivot would end within 1\" of {self.state.units[other].name} "
                                    f"({d_end:.2f}\")")
        return unit, new, turn

    def check_rally_pivot(self, action: RallyPivot) -> IllegalAction | None:
        """Why a proposed pivot of a Wavering unit's idle activation is illegal, or None."""
        try:
            self.check_turn(action)
            self._validate_wavering_pivot(action)
        except IllegalAction as e:
            return e
        return None

    def _wavering_pivot(self, action: RallyPivot) -> list[Event]:
        unit, new, turn = self._validate_wavering_pivot(action)
        self.state.place(unit, new)
        events = [Event("move", f"{unit.name} pivots {abs(turn):.0f}°", {"unit": unit.id, "to": _pose(new)})]
        return events + self._recover(unit)

    def _recover(self, unit: Unit) -> list[Event]:
        unit.shaken = False
        return [Event("rally", f"{unit.name} stays idle and is no longer {self.morale_states['shaken']}",
                       {"unit": unit.id})] + \
            self._end_activation()

    # --- done -----------------------------------------------------------------------------------------------------
    # --- Wizard(X) (activation_magic) ---------------------------------------------------------------------------
    def _casting_unit(self, action: CastSpell) -> tuple[Activations, Unit]:
        a = self._expect(action, "action", "shoot")
        return a, self._active_unit(action, a)

    def check_magic(self, action: Action) -> IllegalAction | None:
        """Why a proposed ``cast_spell`` or ``dispel`` (a block) is illegal now, or None (nothing changes)."""
        try:
            self.check_turn(action)
            if isinstance(action, CastSpell):
                a, unit = self._casting_unit(action)
                activation_magic.plan_cast(self.state, unit, action, a.spell_used, a.stage)
            elif isinstance(action, Dispel):
                a = self._expect(action, "block_spell")
                assert a.cast is not None
                activation_magic.block_choice(a.cast, action)
        except IllegalAction as e:
            return e
        return None

    def activation_casts(self, player: int) -> list[CastSpell]:
        """"Wizard(X)": the casts the activated unit of ``player`` may try now (before attacking)."""
        a = self._current()
        if a is None or a.stage not in ("action", "shoot") or a.unit is None or player != self.state.active_player:
            return []
        unit = self.state.units[a.unit]
        return activation_magic.cast_options(self.state, unit, a.spell_used) if unit.player == player else []

    def _cast(self, action: CastSpell) -> list[Event]:
        """"Wizard(X)": a cast at any point of the activation before attacking; the other player may then block
        with wizards in reach (decision ``block_spell``), else it is rolled at once."""
        a, unit = self._casting_unit(action)
        cast = activation_magic.plan_cast(self.state, unit, action, a.spell_used, a.stage)
        a.spell_used.append(unit.id)
        who = activation_magic.wizard_name(unit)
        aim = self.state.units[cast.target].name if cast.target is not None else \
            f"({cast.point[0]:.1f}, {cast.point[1]:.1f})" if cast.point is not None else ""
        events = [Event("info", f"{who} tries {cast.spell} on {aim}",
                        {"unit": unit.id, "spell": cast.spell, "target": cast.target})]
        if cast.blockers:
            a.cast, a.stage = cast, "block_spell"
            self.state.pending = Pending(3 - unit.player, "block_spell", unit.id, cast.blockers)
            return events
        return events + self._after_cast(a, cast, [])

    def _block(self, action: Dispel) -> list[Event]:
        """"Wizard(X)": the wizards the other player names roll D6+X to block (none: ``done`` or no tokens)."""
        a = self._expect(action, "block_spell")
        cast = a.cast
        assert cast is not None
        if action.player != 3 - self.state.units[cast.caster].player:
            raise IllegalAction(activation_magic.SECTION, "only the caster's opponent may block")
        blocking = activation_magic.block_choice(cast, action)
        a.spell_used.extend(blocking)
        return self._after_cast(a, cast, blocking)

    def _after_cast(self, a: Activations, cast: activation_magic.ActivationCast, blocking: list[str]) -> list[Event]:
        """Roll the cast, then go on with the activation where it was (or end it when nothing is left to do)."""
        events = activation_magic.resolve_216(self.state, self.dice, cast, blocking)
        a.cast, a.stage = None, cast.resume
        unit = self.state.units[cast.caster]
        if not unit.on_table:
            return events + self._end_activation()
        if cast.resume == "shoot" and not shooting.valid_targets(self.state, unit.id, all_rows=self.all_models_shoot):
            return events + self._end_activation()
        self.state.active_player = unit.player
        self.state.pending = Pending(unit.player, cast.resume, unit.id)
        return events

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


def _pose(p: Pose) -> dict[str, float]:
    return {"x": p.x, "y": p.y, "facing": p.facing}
