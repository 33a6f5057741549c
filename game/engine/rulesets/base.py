"""The ruleset seam: the one small interface between the generic game machinery and the rules of one game system
(issue 14). ``Game`` (game.engine.game) keeps what every ruleset shares: the state, the dice, the history of
actions, the log, the digests, ``dice_used``, ``apply()``'s guarantees (an illegal action raises ``IllegalAction``
and changes nothing, the acting player is checked against the pending decision), ``clone`` and
``can_take_back``. A ``Ruleset`` says what the turn structure is: how the game starts, which handler answers each
action type, what the window and the players may ask (``charge_targets``, ``units_to_move``, ``check_move``...),
the morale state names it uses and who won.

A ruleset is a class built once per ``Game`` by the factory registered under its id in
``game.engine.rulesets.RULESETS`` (the scenario's ``ruleset`` key, ``GameState.ruleset``). It keeps no game state
of its own (only caches that a clone may lose): everything a replay needs is in ``GameState``, so a game record =
scenario + dice + actions still replays exactly.

Design note: how an activation-based ruleset plugs in (AoF:R 2.16 "Playing the Game", "Activation", "Melee",
"Morale"; the quick rules; Age of Fantasy: Skirmish, issue 18)
-------------------------------------------------------------------------------------------------------------------
A module ``game/engine/rulesets/aofr.py`` with ``class AoFR216(Ruleset)`` (id ``aofr-2.16``), registered in
``RULESETS`` (and removed from ``PLANNED``), implements:

* ``start()``: deployment as today (``deployment.begin``/``deployment.apply``: objective markers placed alternately
  by ``objectives``, units placed alternately by ``deployment``), then round 1 with the deployment roll-off winner
  activating first. Its own turn state (who activates next, which units have activated this round, who finished
  first last round) lives in a dataclass of its module kept in ``GameState`` like ``combat`` and ``magic`` (an
  ``object`` field written to the state file under ruleset-specific keys), never in the ruleset object.
* ``handlers()``: the pending decisions of an activation. ``activate {unit}`` (decision ``activate``: the active
  player picks a unit that has not activated), then within that activation one of ``move`` (Hold/Advance/Rush with
  its pivots: ``movement.validate_move``/``apply_move``), ``declare_charge`` (a Charge: ``charge.plan_charge`` and
  ``charge.make_charge_move``, no reactions), ``shoot`` after a Hold or Advance (``shooting.valid_targets``,
  ``shooting.shoot``), then ``done``. Melee happens inside the charging unit's activation: the ruleset calls the
  shared hit/block mechanics of ``melee`` (``melee.fight``: impact, strikes of the two front rows, the defender
  striking back) and its own melee result (wounds caused + full rows, ``melee.full_rows``) and consolidation
  (the charger moves back 1" unless a side was destroyed or routed: a straight move back like
  ``consolidation.retreat``'s, 1" instead of D3+3"; else pivot 180° or move 3": ``consolidation.consolidation_move``).
  Morale at the end of the activation (``morale.morale_test``; ``casualties.at_half_strength``): the flag
  ``Unit.shaken`` is the book's Wavering, so ``morale_states = {"shaken": "Wavering", "routed": "Rout"}``; a
  Wavering unit's activation is idle (a pivot up to 90°: ``rally_pivot``-like) and ends its Wavering. At the end of
  the round ``objectives.seize``; after 4 rounds the winner by markers (``victory``).
* Queries: ``charge_targets``/``shooting_targets``/``units_to_move``/``chargers``/``shooters`` answer for the unit
  being activated (the window already asks the engine, never the ruleset id); ``redirect_targets`` and
  ``point_shooter`` keep the defaults (AoF:R has no reactions nor scatter). ``check_*`` of the decisions it has.
  ``decision_options`` lists the discrete answers of each decision (units to activate, charges, shots, striking
  back), so a computer player (``game.ai``) answers decisions it does not know by name.
* ``victory_points``/``victory_breakdown``/``winner``: markers held (``objectives``), the mission decides.

The current AoF:R quick rules (``rulesets/aofr_quick.py``, id ``aofr-quick``) are ``AoFR216`` subclassed: the same
activations, with class switches for what the texts write differently (``rush_pivots_first``, ``cover_to_hit``,
``shot_rules``, ``activations_type``) and its own melee, melee result and
morale methods; ``army_problems`` checks its regiments and force organisation at load, ``in_force_words`` tells
the unit card about Fatigue.

Shared modules an activation ruleset reuses unchanged: dice, events, state, actions, profiles, special_rules (rules
shared by name; a ruleset refuses the ones it lacks when the scenario loads), attacks, shooting, casualties,
movement, charge, melee (hit and block mechanics), consolidation, flight, transport, objectives, deployment,
deployment_styles, side_missions. AoWFBR-only: the phase/step sequence in ``rulesets/aowfbr.py`` (``Phase``,
``Step``), close_combat (its phase of several melees), random_charge, charge reactions, magic's strategy phases.
"""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from game.engine.actions import (
    Action,
    CastSpell,
    Disembark,
    Embark,
    Move,
    RallyPivot,
    ShootPoint,
)
from game.engine.casualties import remaining_strength, starting_strength
from game.engine.charge import ChargePlan, plan_charge
from game.engine.dice import Dice
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event
from game.engine.melee import full_rows
from game.engine.morale import MoraleTerms, morale_fail_estimate, morale_terms
from game.engine.profiles import Profile
from game.engine.shooting import AOWFBR_SHOTS, ShotRules
from game.engine.side_missions import AOWFBR_SIDE_MISSIONS, SideMissionRules
from game.engine.special_rules import fear_bonus, immobile, modifiers_in_force
from game.engine.state import GameState, Pending, Unit
from geometry.motion import MoveCheck

Handler = Callable[[Any], list[Event]]
"""Applies one action of its type and everything the rules then do by themselves, until the next decision;
returns the events. Raises ``IllegalAction`` before changing anything when the action is illegal."""


Problem = tuple[tuple[str | int, ...], str]
"""A problem of a scenario file a ruleset finds: where (keys and indices from the top, e.g. ``("armies", 0,
"units", 2, "models")``) and what is wrong."""


@dataclass(frozen=True)
class ListedUnit:
    """One unit of a scenario's army as a ruleset checks it when the scenario loads (``Ruleset.army_problems``)."""

    where: tuple[str | int, ...]
    """The unit in the file: ``("armies", a, "units", u)``."""
    profile: Profile
    """Its profile."""
    models: int
    """Its starting size (profile size x copies)."""
    per_row: int
    """Models per row of its formation."""
    joined_by: str | None = None
    """The id of a hero deployed as part of it, or None."""
    cost: int = 0
    """Its points cost (profile cost x copies)."""
    hero: Profile | None = None
    """The profile of that hero, when known."""
    upgrades: frozenset[str] = frozenset()
    """Its command group upgrades (``sergeant``, ``musician``, ``banner``)."""


class GameHost(Protocol):
    """What a ruleset sees of its ``Game`` (game.engine.game.Game): the state, the dice and the actions so far."""

    state: GameState
    dice: Dice
    history: list[Action]

    def clone(self) -> GameHost:
        """An independent copy that continues exactly as this game would."""
        ...

    def apply(self, action: Action) -> list[Event]:
        """Apply an action (``Game.apply``)."""
        ...


class Ruleset(ABC):
    """The rules of one game system as seen by ``Game``: start, handlers, queries, morale names, victory.

    Subclasses set ``id`` (the scenario's ``ruleset`` value), ``title`` and ``morale_states`` and implement
    ``start``, ``handlers`` and ``victory_points``; every query has a default that is right for a ruleset without
    that decision (no targets, nothing to move) and every ``check_*`` a default that tries the action on a clone.
    """

    id: ClassVar[str]
    """The scenario's ``ruleset`` value, e.g. ``aowfbr-1.4``."""
    title: ClassVar[str]
    """The rulebook's name, for messages and the window."""
    short_title: ClassVar[str] = ""
    """The name players abbreviate it to (``AoWFBR 1.4``), where the window has little room; empty: ``title``.
    Read from the class itself only (``vars``), so a subclass with its own ``title`` never shows its parent's."""
    morale_states: ClassVar[Mapping[str, str]]
    """The unit flags of morale this ruleset uses, by the name its book gives them (``shaken`` -> "Shaken" in
    AoWFBR, "Wavering" in AoF:R 2.16; ``fleeing``, ``routed``)."""
    special_rules: ClassVar[frozenset[str] | None] = None
    """The special rules (unit and weapon, by name) this ruleset plays; None: every rule the program knows. A
    scenario whose profiles use another is refused at load (``game.scenario.refusals``)."""
    upgrades: ClassVar[frozenset[str] | None] = None
    """The command group upgrades this ruleset plays; None: all of them."""
    terrain_traits: ClassVar[frozenset[str] | None] = None
    """The terrain traits this ruleset plays; None: all of them."""
    all_models_shoot: ClassVar[bool] = False
    """Every model of a shooting unit may fire (AoF:R 2.16 "Who Can Shoot"); False: AoWFBR's two front rows after a
    Hold, one after an Advance (``shooting.shooting_rows``)."""
    cover_to_hit: ClassVar[bool] = False
    """Cover gives the shooters -1 to hit (AoF:R 2.16 "Cover Terrain"); False: +1 to the target's Defense."""
    shot_rules: ClassVar[ShotRules] = AOWFBR_SHOTS
    """The book's meanings of the shooting special rules (``shooting.ShotRules``; AoWFBR's by default: AoF:R 2.16's
    Stealth, Poison and Artillery, the quick rules' Sergeant, Relentless, Rending and Artillery differ)."""
    valueless_rules: ClassVar[frozenset[str]] = frozenset()
    """Rules of ``profiles.VALUE_OPTIONAL`` this ruleset's book writes without an (X) value (AoF:R 2.16: ``Fear``);
    the others must be written with one. A scenario spelling one the other way is refused at load."""
    elevation_height: ClassVar[float | None] = None
    """Elevated terrain (hills) this tall or taller counts as "Elevation": moves onto it spend the climb
    (AoF:R 2.16; ``GameState.elevation_height``, ``movement.elevation_climb``); None: heights do not change moves."""
    upgrade_hints: ClassVar[Mapping[str, str]] = {}
    """Why an upgrade this ruleset refuses is refused, in words, by upgrade (the load message adds it)."""
    activation_words: ClassVar[tuple[str, str]] = ("this turn", "turn")
    """How the window says when a unit acted and the name of that period: ("this turn", "turn") for AoWFBR's player
    turns ("Held this turn"), ("this round", "round") for AoF:R 2.16's activations (with ``activation_status``:
    "Activated this round: Held, shot at Orcs")."""
    rule_texts: ClassVar[Mapping[str, str]] = {}
    """Summaries of the special rules whose meaning this ruleset's book changes, by name (the window's unit card);
    the others are ``special_rules.RULES``'s."""
    mission_text: ClassVar[str | None] = None
    """How this ruleset's missions are won, in words, where it differs from the mission's own summary
    (``objectives.MISSIONS``: AoWFBR's victory points); None: the summary. When set, the window shows each
    mission's ``goal`` (the book's words of who wins) followed by this."""
    shaken_text: ClassVar[str | None] = None
    """What the morale state ``shaken`` does, in words, for the unit card; None: AoWFBR's Shaken."""
    missions: ClassVar[frozenset[str] | None] = None
    """The scenario ``mission`` values this ruleset plays, ``none`` for a battle without one (None: every mission,
    or none)."""
    optional_rules: ClassVar[bool] = True
    """Whether a scenario may set ``options`` (AoWFBR 1.4's optional rules)."""
    side_missions: ClassVar[bool] = True
    """Whether a scenario may play side-missions."""
    side_mission_rules: ClassVar[SideMissionRules] = AOWFBR_SIDE_MISSIONS
    """What the side-missions ask of this ruleset's turn structure (``side_missions.SideMissionRules``: VP per
    side-mission, the phases of a rout "in melee" and of a kill by spell); AoWFBR 1.4's by default."""
    deployment_styles: ClassVar[frozenset[str] | None] = None
    """The scenario ``deployment`` values this ruleset plays (None: every style of
    ``deployment_styles.ALL_STYLES``)."""
    force_org: ClassVar[bool] = True
    """Whether its book has optional army-building limits the set-up may offer (AoWFBR 1.4 "Force Organisation
    (Optional)": ``game.setup.army_list.force_org_limits``)."""
    setup_refusal: ClassVar[str | None] = None
    """Why the battle set-up cannot build a battle of this ruleset (its armies are not regiments in formation),
    in words; None: it can."""
    points_guideline: ClassVar[str] = "AoWFBR 1.4: 750 pts each to start, 1500 pts each for full matches"
    """The game size its book recommends ("Preparing Your Army"), in a few words (the battle set-up shows it by
    the game size)."""
    first_turn_text: ClassVar[str] = ("another roll-off (+1 for the player who finished deploying first); the winner "
                                      "picks who plays first. Then round 1 begins")
    """Who plays first once the armies are deployed, in words (AoWFBR 1.4 "Deploying Armies"), for the set-up's
    "When you press Start battle"."""
    score_words: ClassVar[tuple[str, str]] = ("victory points", "VP")
    """What ``victory_points`` counts, in full and short, for the window's results (AoWFBR: victory points)."""
    turn_word: ClassVar[str] = "turn"
    """What a player's go is called, for the statistics ("player 1's turn"; AoF:R 2.16: "activation")."""
    units_score: ClassVar[bool] = True
    """Whether destroyed, routed or fled enemy units score (AoWFBR's victory points, ``game.engine.victory``);
    False when only the mission does (AoF:R 2.16: markers). The statistics credit units only when True."""
    decisions: ClassVar[frozenset[str] | None] = None
    """The ``pending`` decisions this ruleset asks; None: AoWFBR 1.4's (the window presents those: it refuses a
    ruleset with decisions it cannot present)."""
    melee_picks: ClassVar[bool] = False
    """Whether ``declare_charge`` and ``strike_back`` may name a ``model`` (the AoF:R quick rules' "Takedown": a
    joined hero picked and struck as a unit of one); refused otherwise (``Game.apply``)."""
    breath_attacks: ClassVar[bool] = False
    """Whether ``breath`` of ``declare_charge``, ``strike_back`` and ``shoot`` may be used (AoF:R 2.16 "Breath
    Attack"); ``Game.apply`` refuses it otherwise."""
    scenario_force_org: ClassVar[bool] = False
    """Whether a scenario may ask for this ruleset's own force organisation (``force_org: true``, checked by
    ``army_problems``); the set-up's "Force Organisation" check box then applies it (``force_org_problems``,
    ``force_org_words``) and writes ``force_org: true``, else it applies AoWFBR's limits (when ``force_org``)."""
    start_phases: ClassVar[frozenset[str] | None] = None
    """The phases a scenario's ``start: {phase}`` may name under this ruleset; None: AoWFBR 1.4's (every phase
    but ``activation``)."""
    spell_values: ClassVar[tuple[int, int]] = (1, 6)
    """The least and most a spell's value may be under this ruleset (army file ``spells[].values``): a token cost,
    1 to 6 (rulebook "Caster(X)": a caster holds at most 6 tokens)."""

    prompts: ClassVar[Mapping[str, str]] = {}
    rule_hints: ClassVar[Mapping[str, str]] = {}
    """Per special rule this ruleset refuses at load, why or what to write instead (the loader's message)."""
    """The window's instruction for a pending decision, by decision, where this ruleset's book words it otherwise
    than AoWFBR's (``{unit}`` stands for the unit's name); the others are the window's own."""

    @classmethod
    def in_force_words(cls, state: GameState, unit: Unit) -> list[str]:
        """What changes the unit's rolls and moves right now, in words, for the unit card (default: AoWFBR's
        ``special_rules.modifiers_in_force``)."""
        return modifiers_in_force(state, unit)

    @classmethod
    def tolerated_closeness(cls, state: GameState) -> set[frozenset[str]]:
        """Pairs of enemy unit ids this ruleset's rulings let stand within 1" of each other out of melee right now
        (the invariant checks accept them); default none."""
        return set()

    @classmethod
    def activation_status(cls, state: GameState, unit: Unit) -> str | None:
        """Where the unit stands in this round's activations, in words ("Activated this round"), or None for a
        ruleset without activations."""
        return None

    @classmethod
    def army_problems(cls, units: Sequence[ListedUnit], points: int, force_org: bool) -> list[Problem]:
        """What this ruleset refuses in one army of a scenario (its units, its total ``points``; ``force_org``: the
        players use the force organisation rules), as (where, message); default: nothing (AoWFBR's combined
        units and heroes are checked by ``game.scenario.army_checks`` itself)."""
        return []

    @classmethod
    def spell_problem(cls, spell: Any) -> str | None:
        """Why a spell of an army (``game.engine.magic.Spell``) can't be cast under this ruleset, or None; the
        loader refuses the scenario naming it (default: every spell is played)."""
        return None

    @classmethod
    def force_org_problems(cls, units: Sequence[ListedUnit], points: int) -> list[Problem]:
        """This ruleset's own force organisation (``scenario_force_org``) for one army of ``points`` (its total), as
        (where, message); the part of ``army_problems`` that ``force_org`` adds (the set-up's check box applies
        it). Default: none."""
        return []

    @classmethod
    def force_org_words(cls, points: int) -> str | None:
        """This ruleset's own force organisation limits at ``points`` in words (the set-up shows them), or None when
        it has none of its own (``scenario_force_org`` False: the set-up shows AoWFBR's)."""
        return None

    def __init__(self, game: GameHost) -> None:
        # A weak reference: the game holds its ruleset, and a cycle would keep every discarded clone (a searching
        # player makes thousands) and its state alive until the garbage collector runs.
        self._game = weakref.ref(game)

    @property
    def game(self) -> GameHost:
        """The game this ruleset referees (its state, dice and history). Raises ``RuntimeError`` once that game is
        gone (a ruleset lives as long as its game)."""
        game = self._game()
        if game is None:
            raise RuntimeError(f"the game refereed by this {self.id} ruleset no longer exists")
        return game

    @property
    def state(self) -> GameState:
        """The game state (mutated only by the handlers)."""
        return self.game.state

    @property
    def dice(self) -> Dice:
        """The game's one source of dice."""
        return self.game.dice

    @property
    def history(self) -> list[Action]:
        """Actions applied so far."""
        return self.game.history

    # --- the turn structure ---------------------------------------------------------------------------------------
    @abstractmethod
    def start(self) -> list[Event]:
        """Begin the game at the scenario's position and run until the first decision; returns the events."""

    @abstractmethod
    def handlers(self) -> Mapping[type[Action], Handler]:
        """The handler of each action type this ruleset knows (``Game.apply`` refuses any other type)."""

    # --- victory ----------------------------------------------------------------------------------------------------
    @abstractmethod
    def victory_points(self) -> dict[int, int]:
        """Victory points (or markers, or whatever this ruleset counts) each player would score now, {1: n, 2: m}."""

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """Where each player's points come from, line by line (default: one line of the total)."""
        return {p: [("total", v)] for p, v in self.victory_points().items()}

    def score_names(self) -> tuple[str, str]:
        """What ``victory_points`` counts in this game, in full and short (the window's results, the statistics):
        default the class's ``score_words``; a ruleset whose count depends on the mission or the side-missions
        says so here."""
        return self.score_words

    def melee_wins(self, events: list[Event]) -> list[tuple[int, int]]:
        """The melees decided by one action's ``events``, as (winning player, wounds its side caused minus the
        enemy's side), for the side-missions (Onslaught, ``side_missions.observe``). Default: AoWFBR 1.4's melee
        resolutions (``resolution`` events: ``winner`` and ``scores[player]["wounds"]``)."""
        out: list[tuple[int, int]] = []
        for e in events:
            if e.kind != "resolution":
                continue
            winner = e.data.get("winner")
            scores = e.data.get("scores") or {}
            if winner in (1, 2) and winner in scores and 3 - winner in scores:
                out.append((winner, scores[winner]["wounds"] - scores[3 - winner]["wounds"]))
        return out

    def winner(self) -> int | None:
        """The player ahead now (the winner once the game is over), or None for a draw."""
        vp = self.victory_points()
        return None if vp[1] == vp[2] else (1 if vp[1] > vp[2] else 2)

    # --- morale and melee, as the odds advisor asks them (game.odds) ----------------------------------------------
    @classmethod
    def morale_test_terms(cls, unit: Unit) -> MoraleTerms:
        """What a morale test of ``unit`` would need now, before any die (AoWFBR 1.4 "Morale Tests":
        ``morale.morale_terms``: Quality or the hero's, Banner, spells, Fearless 4+, Shaken fails)."""
        return morale_terms(unit, [])

    @classmethod
    def tests_morale_after_shot(cls, unit: Unit, wounds: int, left: int) -> bool:
        """Whether ``unit``, taking ``wounds`` wounds from a shot now that leave it ``left`` strength (as
        ``casualties.remaining_strength`` counts it; 0: destroyed), must take a morale test for it (AoWFBR 1.4
        "General Morale Tests": at the end of the Shooting Phase, at half strength or less after losing models this
        turn, not Shaken, not in melee; ``shooting.needs_shooting_morale_test`` after these wounds)."""
        return (0 < left and left * 2 <= starting_strength(unit) and (wounds > 0 or unit.lost_models_this_turn)
                and not unit.shaken and not unit.engaged)

    def melee_result_extra(self, unit: Unit, charged: bool, side: str) -> float:
        """What ``unit`` adds in a melee's result to the wounds it causes, as expected before any die: an estimate
        (the computer opponent's quick estimate of a charge, ``game.ai.evaluate.win_chance``); the melee itself
        counts what happened. AoWFBR 1.4 "Melee Resolution": its full rows (at most 3, ``melee.full_rows``), +1 in
        the turn it charged and then +1 when the charge hit the enemy's flank, +2 its rear (``side``: front, flank
        or rear of the enemy), and "Fear(X)" +X (``special_rules.fear_bonus``)."""
        extra = float(full_rows(unit) + fear_bonus(unit))
        if charged:
            extra += 1.0 + {"flank": 1.0, "rear": 2.0}.get(side, 0.0)
        return extra

    def strikers_estimate(self, unit: Unit, enemy: Unit, side: str) -> tuple[int, bool]:
        """How many of ``unit``'s models are expected to strike ``enemy`` standing at its ``side`` (front, flank or
        rear), and whether they hit only on unmodified 6s, before any die: an estimate for the computer opponent
        (``game.ai.melee_outlook``); the melee itself finds who strikes. AoWFBR 1.4 "Who Can Strike": the two front
        rows at its front; at a flank or the rear only the models in base contact (the end model of each row the
        enemy's frontage covers at a flank, the back row's models it covers at the rear, there on 6s only)."""
        per_row = max(unit.per_row, 1)
        if side == "front":
            return min(unit.models, 2 * per_row), False
        frontage = min(enemy.models, max(enemy.per_row, 1)) * enemy.profile.base_width_mm
        rows = -(-unit.models // per_row)
        if side == "flank":
            return min(rows, max(1, round(frontage / max(unit.profile.base_depth_mm, 1.0)))), False
        back = unit.models - (rows - 1) * per_row
        return min(back, max(1, round(frontage / max(unit.profile.base_width_mm, 1.0)))), True

    def melee_loss_estimate(self, unit: Unit, difference: int, side: str) -> tuple[float, float, float]:
        """Chances (shaken, flees, routs) that ``unit``, as its casualties leave it, losing a melee by ``difference``
        with the winner at its ``side`` (front, flank, rear), is only Shaken, Shaken and Flees, or routs at once, as
        expected before any die: an estimate for the computer opponent (``game.ai.melee_outlook``); the melee itself
        rolls the test. AoWFBR 1.4 "Melee Morale Tests": -2 when nothing is left after the difference, else -1 at
        half or less, "Flanking" -1 in the flank or -2 in the rear; a failure with half or less left (or already
        Shaken) Flees; "Immobile" stays locked, or routs where it would flee."""
        left = remaining_strength(unit) - difference
        start = starting_strength(unit)
        mod = -2 if left <= 0 else (-1 if left * 2 <= start else 0)
        mod += {"rear": -2, "flank": -1}.get(side, 0)
        fail = morale_fail_estimate(self.morale_test_terms(unit), mod)
        flees = left * 2 <= start or unit.shaken
        if immobile(unit):
            return (0.0, 0.0, fail) if flees else (fail, 0.0, 0.0)
        return (0.0, fail, 0.0) if flees else (fail, 0.0, 0.0)

    def melee_played_out(self, round_: int, player: int) -> bool:
        """Whether a charge declared in round ``round_`` by ``player`` has been played out to the end of its melee
        and what follows it (the odds advisor's simulations stop here). Default: that player's turn or the round is
        over (or the game); a ruleset says where its melees end sooner (AoWFBR 1.4: the Close Combat Phase)."""
        s = self.state
        return s.pending is None or s.active_player != player or s.round != round_

    def state_keys(self) -> dict[str, Any]:
        """The ruleset-specific keys of the state file (docs/formats.md "State file"), JSON-ready; default none."""
        return {}

    def charge_plan(self, unit_id: str, target_id: str) -> ChargePlan:
        """How ``unit_id``'s charge at ``target_id`` would go (the window's charge preview), raising
        ``IllegalAction`` naming the rule when it is not a valid charge (default: ``charge.plan_charge``, AoWFBR's
        line of sight from the unit or a friend within 6")."""
        return plan_charge(self.state, self.state.units[unit_id], self.state.units[target_id])

    # --- queries the window and the players ask (defaults: a ruleset without that decision) -----------------------
    def charge_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may charge now."""
        return []

    def redirect_targets(self, unit_id: str) -> list[str]:
        """Units a charger whose target fled may redirect to now."""
        return []

    def charge_reactions(self, unit_id: str, target_id: str) -> tuple[str, ...]:
        """The answers ``target_id`` would have to a charge by ``unit_id`` declared now (``charge_reaction``:
        hold, stand_and_shoot, flee), or empty (default: a ruleset without charge reactions)."""
        return ()

    def breath_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may hit with a Breath Attack when shooting now (``shoot`` with ``breath``: AoF:R
        2.16 "Breath Attack"), or empty (default: no ruleset breathes)."""
        return []

    def breath_in_melee(self, unit_id: str) -> bool:
        """Whether ``unit_id`` may use a Breath Attack in the melee of its ``declare_charge`` or ``strike_back``
        now (``breath``: AoF:R 2.16 "Breath Attack"); default False."""
        return False

    def melee_pick(self, unit_id: str, enemy_id: str) -> str | None:
        """The model ``unit_id`` may pick in a melee with ``enemy_id`` (``model`` of ``declare_charge`` and
        ``strike_back``: the AoF:R quick rules' "Takedown"), or None (default: no ruleset picks in melee)."""
        return None

    def activation_casts(self, player: int) -> list[CastSpell]:
        """Every spell ``player``'s activated unit may try now within its activation (``cast_spell``, issue 14:
        ``game.engine.activation_magic``), or empty (default: casting is not part of an activation)."""
        return []

    def shooting_targets(self, unit_id: str, nearest: bool = False) -> list[str]:
        """Valid shooting targets of ``unit_id`` now; ``nearest``: only the nearest of them (closest distance, then
        id), found without working out the others."""
        return []

    def point_shooter(self, unit_id: str) -> bool:
        """True if ``unit_id`` may fire at a target point now."""
        return False

    def units_to_move(self, player: int) -> list[str]:
        """Units of ``player`` that may take a move action now."""
        return []

    def chargers(self, player: int) -> list[str]:
        """Units of ``player`` with at least one charge target now (units inside a Transport too)."""
        return [u.id for u in self.state.units.values() if u.player == player and self.charge_targets(u.id)]

    def shooters(self, player: int) -> list[str]:
        """Units of ``player`` with a shooting target now, or that may fire at a target point."""
        return [u.id for u in self.state.units_of(player) if self.shooting_targets(u.id, nearest=True)
                or self.point_shooter(u.id)]

    def decision_options(self) -> list[Action] | None:
        """The discrete answers the rules offer to the pending decision (a unit to activate, a charge target, a
        shooting target, striking back, staying idle...), each a candidate the engine's ``check`` still judges; or
        None when this ruleset does not list them (a player then answers by the decision's name: AoWFBR 1.4's
        decisions, docs/formats.md). Answers that are a pose (moves, pivots, consolidation paths) are never listed:
        ``units_to_move``, ``check_move``, ``check_rally_pivot`` and ``check`` judge those. Default: None."""
        return None

    def move_info(self, action: Move) -> MoveCheck | None:
        """The geometry of a legal proposed move, or None (default: not known to this ruleset)."""
        return None

    # --- checks without changing anything (defaults: try the action on a clone) ------------------------------------
    @reports_illegal
    def check(self, action: Action) -> None:
        """Why ``action`` is illegal now, or None: the action is applied to a clone of the game (nothing here
        changes). A ruleset overrides the ``check_*`` the window calls often (while dragging) with cheaper ones."""
        self.game.clone().apply(action)

    def check_move(self, action: Move) -> IllegalAction | None:
        """Why a proposed move is illegal, or None."""
        return self.check(action)

    def check_shoot_point(self, action: ShootPoint) -> IllegalAction | None:
        """Why a proposed ``shoot_point`` is illegal, or None."""
        return self.check(action)

    def check_deploy(self, action: Action) -> IllegalAction | None:
        """Why a proposed deployment action is illegal, or None."""
        return self.check(action)

    def check_magic(self, action: Action) -> IllegalAction | None:
        """Why a proposed magic action is illegal, or None."""
        return self.check(action)

    def check_transport(self, action: Embark | Disembark) -> IllegalAction | None:
        """Why a proposed embark or disembark is illegal, or None."""
        return self.check(action)

    def check_rally_pivot(self, action: RallyPivot) -> IllegalAction | None:
        """Why a proposed pivot of a unit recovering from its morale state is illegal, or None."""
        return self.check(action)

    # --- helpers for handlers ---------------------------------------------------------------------------------------
    def check_turn(self, action: Action) -> None:
        """Raises ``IllegalAction`` unless the game waits for a decision of ``action.player``."""
        check_turn(self.state.pending, action)

    def own_unit(self, action: Any) -> Unit:
        """The unit ``action.unit`` of ``action.player``; raises ``IllegalAction`` for another player's or none."""
        unit = self.state.units.get(action.unit)
        if unit is None:
            raise IllegalAction("Turn Sequence", f"there is no unit {action.unit!r}")
        if unit.player != action.player:
            raise IllegalAction("Turn Sequence", f"{unit.name} belongs to player {unit.player}")
        return unit


def check_turn(pending: Pending | None, action: Action) -> None:
    """Raises ``IllegalAction`` when the game is over or ``action`` is not the pending decision's player's."""
    if pending is None:
        raise IllegalAction("Game Structure", "the game is over")
    if action.player != pending.player:
        raise IllegalAction("Turn Sequence", f"player {pending.player} must decide now ({pending.decision}), "
                            f"not player {action.player}")


RulesetFactory = Callable[[GameHost], Ruleset]
"""Builds the ruleset of one game (a ``Ruleset`` subclass itself is one)."""
