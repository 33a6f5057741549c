"""The state of a game: table, terrain, units, turn position and the decision the engine waits for.

Plain dataclasses and enums. The geometry cache (``GameState.scene``) is derived from the units and kept in step
by the mutators ``place``, ``set_models`` and ``remove``; rules modules change poses and model counts only
through them.
"""

from __future__ import annotations

import copy
import types
import typing
from dataclasses import dataclass, field, fields
from enum import Enum

from game.engine.profiles import Profile
from geometry.arcs import Arc
from geometry.formation import Formation, default_per_row, pose_keeping_front
from geometry.pose import Pose
from geometry.scene import Scene
from geometry.terrain import TerrainShape


class Phase(str, Enum):
    """Phases of the AoWFBR 1.4 turn sequence (rulebook "Turn Sequence"), with deployment before round 1."""

    DEPLOYMENT = "deployment"
    STRATEGY_1 = "strategy_1"
    MOVEMENT = "movement"
    STRATEGY_2 = "strategy_2"
    SHOOTING = "shooting"
    CLOSE_COMBAT = "close_combat"
    RALLY = "rally"
    ACTIVATION = "activation"
    """AoF:R 2.16 "Playing the Game": a round of alternating unit activations (game.engine.rulesets.aofr)."""


class Step(str, Enum):
    """Steps within a phase that wait for a player (turn sequence numbering in the value's comment)."""

    CHOOSE_DEPLOYMENT = "choose_deployment"
    """Deployment: the roll-off winner picks the table edge and who deploys first (game.engine.deployment)."""
    SET_ASIDE = "set_aside"
    """Deployment: Scout and Ambush units may be set aside."""
    DEPLOY = "deploy"
    """Deployment: place units (alternating, then Scout units)."""
    SCOUT_MOVE = "scout_move"
    """Deployment: the Scout unit just placed may be placed again within 12"."""
    FIRST_TURN = "first_turn"
    """Deployment: the first-turn roll-off winner decides who takes the first turn."""
    OBJECTIVE_ORDER = "objective_order"
    """Before deployment: the roll-off winner picks who places the first objective marker (game.engine.objectives)."""
    PLACE_OBJECTIVES = "place_objectives"
    """Before deployment: the players alternate placing objective markers."""
    SIDE_MISSION = "side_mission"
    """Before deployment: a player selects a side-mission (game.engine.side_missions)."""
    AMBUSH = "ambush"
    """1.1 Deploy Ambusher units (round 2 on)."""
    STRATEGY = "strategy"
    """1.2/1.3 and 3.1/3.2: special rules and spells."""
    DECLARE_CHARGES = "declare_charges"
    """2.1 Declare charges."""
    CHARGE_REACTIONS = "charge_reactions"
    """2.2 Declare charge reactions (the opponent decides)."""
    REDIRECT = "redirect"
    """2.3 A charger whose target fled chooses to run down or redirect."""
    ROLL_CHARGES = "roll_charges"
    """2.3 Random Charge Distances: the charging player picks the declared charge to roll for next."""
    REMAINING_MOVES = "remaining_moves"
    """2.4 Remaining moves."""
    RANGED_ATTACKS = "ranged_attacks"
    """4.2 Ranged attacks."""
    MELEE = "melee"
    """5.1-5.6 Close combat: decisions after melee resolution (pursue, follow up, consolidation)."""
    RALLY = "rally"
    """6.1 Rally: rallied units may pivot."""
    ALLOCATE_TOKENS = "allocate_tokens"
    """0.1 Allocate spell tokens: each player splits spell and dispel tokens (optional rules; game.engine.magic)."""
    ACTIVATION = "activation"
    """AoF:R 2.16: the decisions of one unit's activation (game.engine.rulesets.aofr)."""
    DISPEL = "dispel"
    """1.3/3.2 The opponent may spend tokens against the spell being cast (game.engine.magic)."""


@dataclass
class Objective:
    """An objective marker (AoF:R 2.16 "Mission Objectives"): a point on the table and who controls it."""

    x: float
    """Inches from the left table edge."""
    y: float
    """Inches from player 1's table edge."""
    controller: int | None = None
    """The player who seized it last (1 or 2), or None while neutral; a Sabotage marker's owner while it stands."""
    placed_by: int | None = None
    """The player who placed it during the game, None for a marker the scenario or the mission placed."""
    owner: int | None = None
    """Sabotage: the player the marker belongs to (it stays 12" from their table edge); None otherwise."""
    carried_by: str | None = None
    """Relic Hunt: the unit carrying it (then ``x``, ``y`` are where it was picked up); None on the table."""
    destroyed: bool = False
    """Sabotage: seized by the enemy and removed from play."""


class MoveAction(str, Enum):
    """The action a unit took in the movement phase (rulebook "Movement Phase")."""

    HOLD = "hold"
    ADVANCE = "advance"
    RUSH = "rush"
    CHARGE = "charge"


class Removal(str, Enum):
    """Why a unit left the game (state file ``removed``)."""

    DESTROYED = "destroyed"
    ROUTED = "routed"
    FLED = "fled"


DEPLOYMENT_DEPTH = 12.0
"""Inches: the deployment zones reach this far from the long table edges (rulebook "Deploying Armies"); objective
markers go outside them (AoF:R 2.16 "Placing Objectives") and Sabotage markers stand on their line."""


@dataclass(frozen=True, slots=True)
class RemovalRecord:
    """A unit out of the game, or a joined hero killed (``GameState.removals``)."""

    id: str
    """The unit's id, or the joined hero's."""
    player: int
    """Its player."""
    how: str
    """``destroyed``, ``routed``, ``fled`` or ``hero_killed``."""
    round: int
    """The round it happened in."""
    phase: str
    """The phase it happened in (``Phase`` value)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The table, inches: x in [0, width], y in [0, depth]; player 1's edge is y = 0."""

    width: float = 72.0
    depth: float = 48.0


@dataclass
class JoinedHero:
    """A Hero deployed as part of a unit (rulebook "Hero", "Heroes & Units With Mixed Base Sizes").

    It counts as one of the unit's models (``Unit.models``), stands in the front row (or beside the unit when its
    base does not fit), takes wounds last, and may take morale tests for the unit. It never leaves the unit.
    """

    id: str
    """The hero's unit id in the scenario (a General may be a joined hero)."""
    profile: Profile
    """The hero's own profile: Quality, Defense, weapons, special rules, base."""
    cost: int = 0
    """The hero's points cost."""
    wounds: int = 0
    """Wounds the hero carries (with Tough(X) it dies at X)."""
    killed: bool = False
    """True once the hero has been killed (the unit may live on)."""

    @property
    def tough(self) -> int:
        """Tough value of the hero (1 without Tough)."""
        return self.profile.tough

    @property
    def name(self) -> str:
        """Display name: the profile name and id."""
        return f"{self.profile.name} ({self.id})"


@dataclass
class Unit:
    """One unit on the table (or waiting to deploy, or removed)."""

    id: str
    """Unique id within the scenario."""
    player: int
    """Owner, 1 or 2."""
    profile: Profile
    """The unit's profile."""
    starting_models: int
    """Models at the start of the game (starting size for morale and victory points)."""
    models: int
    """Models left."""
    per_row: int
    """Models in a full row."""
    pose: Pose | None = None
    """Centre and facing; None before deployment."""
    upgrades: frozenset[str] = frozenset()
    """Command group: sergeant, musician, banner."""
    cost: int = 0
    """Points cost of the whole unit (copies x profile cost)."""
    wounds: int = 0
    """Wounds carried by the most-wounded model with Tough (0 for units without Tough)."""
    shaken: bool = False
    """Rulebook "Shaken Units"."""
    fleeing: bool = False
    """True while the unit is making or has made a flight move this turn and is not yet routed or rallied."""
    removed: Removal | None = None
    """None while in the game."""
    engaged_with: set[str] = field(default_factory=set)
    """Ids of enemy units locked in melee with this one."""
    contact_arcs: dict[str, Arc] = field(default_factory=dict)
    """For each engaged enemy id: the arc of THIS unit that the enemy is in contact with."""
    fights_as_charger: bool = False
    """Strikes in step 3 (charging/attacking) and gets the charge bonus: charged this turn, or followed up."""
    first_round_with: set[str] = field(default_factory=set)
    """Enemies met this turn for the first time (Counter strikes first only in the first round)."""
    spell_tokens: int = 0
    """Caster(X): spell tokens held (at most 6 with dispel tokens; game.engine.magic)."""
    dispel_tokens: int = 0
    """Dispel tokens held (optional rule "Spell and Dispel Tokens")."""
    effects: list[object] = field(default_factory=list)
    """Active spell effects on the unit (game.engine.magic.ActiveEffect), removed when they expire."""
    hero: JoinedHero | None = None
    """A Hero deployed as part of this unit, counted in ``models`` (rulebook "Hero"); None without one."""
    limited_used: set[str] = field(default_factory=set)
    """Names of Limited weapons already used this game (rulebook "Limited")."""
    moved_since_activation: bool = False
    """The unit moved or pivoted since the beginning of its last activation (its player's turn): rulebook
    "Entrenched", "Indirect". Set by ``GameState.place``, cleared when its player's turn starts."""
    embarked_in: str | None = None
    """Id of the Transport the unit is inside (rulebook "Transport(X)"); it is then off the table (``on_table``
    False) and keeps its last pose."""
    # Per-turn flags, reset at the start of each player turn.
    move_action: MoveAction | None = None
    """What the unit did this movement phase."""
    pivoted: bool = False
    """The unit pivoted this turn (Indirect, Entrenched)."""
    shot_targets: list[str] = field(default_factory=list)
    """Targets shot at this shooting phase (at most two weapon groups)."""
    weapons_fired: set[str] = field(default_factory=set)
    """Weapon names fired this shooting phase."""
    became_shaken_this_turn: bool = False
    """Shaken units cannot rally in the turn they became Shaken."""
    lost_models_this_turn: bool = False
    """Took wounds this turn (morale test at the end of shooting)."""
    embarked_this_turn: bool = False
    """Embarked into or disembarked from a Transport this turn (rulebook "Transport(X)": not both)."""

    @property
    def formation(self) -> Formation:
        """Current formation (models left, per row, base size; a living joined hero with its own base)."""
        if self.hero_alive:
            assert self.hero is not None
            hp = self.hero.profile
            return Formation(max(self.models, 0), self.per_row, self.profile.base_width_mm,
                             self.profile.base_depth_mm, hp.base_width_mm, hp.base_depth_mm)
        return Formation(max(self.models, 0), self.per_row, self.profile.base_width_mm, self.profile.base_depth_mm)

    @property
    def on_table(self) -> bool:
        """Deployed, not removed and not inside a Transport."""
        return self.pose is not None and self.removed is None and self.embarked_in is None

    @property
    def hero_alive(self) -> bool:
        """A joined hero is in the unit and alive."""
        return self.hero is not None and not self.hero.killed and self.models > 0

    @property
    def regulars(self) -> int:
        """Models left other than the joined hero."""
        return max(0, self.models - (1 if self.hero_alive else 0))

    @property
    def total_cost(self) -> int:
        """Points cost including a joined hero (rulebook "Victory Conditions": "including heroes")."""
        return self.cost + (self.hero.cost if self.hero is not None else 0)

    def model_profiles(self) -> list[Profile]:
        """The profile of each kind of model still in the unit: its own if any are left, then the hero's."""
        out = [self.profile] if self.regulars > 0 else []
        if self.hero_alive:
            assert self.hero is not None
            out.append(self.hero.profile)
        return out

    def all_have(self, rule: str) -> bool:
        """Every model still in the unit (a joined hero included) has ``rule`` (e.g. rulebook "Stealth": "units
        where all models have this rule")."""
        if not self.hero_alive:     # the usual case, asked on every move and check: the unit's own profile
            return self.profile.has(rule)
        profiles = self.model_profiles() or [self.profile]
        return all(p.has(rule) for p in profiles)

    def any_has(self, rule: str) -> bool:
        """Some model still in the unit has ``rule``."""
        if not self.hero_alive:
            return self.profile.has(rule)
        profiles = self.model_profiles() or [self.profile]
        return any(p.has(rule) for p in profiles)

    def most_have(self, rule: str) -> bool:
        """More than half of the models still in the unit have ``rule`` (rulebook "Fearless")."""
        if self.models <= 0:
            return self.profile.has(rule)
        count = (self.regulars if self.profile.has(rule) else 0)
        if self.hero_alive and self.hero is not None and self.hero.profile.has(rule):
            count += 1
        return count * 2 > self.models

    @property
    def engaged(self) -> bool:
        """In melee with at least one enemy unit."""
        return bool(self.engaged_with)

    @property
    def tough(self) -> int:
        """Tough value of each model (1 without Tough)."""
        return self.profile.tough

    @property
    def starting_rows_width(self) -> int:
        """Models in the front row at the start of the game, before adding heroes: the size of a full row for
        melee resolution."""
        return max(1, min(self.per_row, self.starting_models - (1 if self.hero is not None else 0)))

    @property
    def name(self) -> str:
        """Display name: the profile name and id."""
        return f"{self.profile.name} ({self.id})"

    def has(self, rule: str) -> bool:
        """True if the unit's profile has special rule ``rule``."""
        return self.profile.has(rule)

    def reset_turn_flags(self) -> None:
        """Clear the per-turn flags at the start of a player turn."""
        self.move_action = None
        self.pivoted = False
        self.shot_targets = []
        self.weapons_fired = set()
        self.became_shaken_this_turn = False
        self.lost_models_this_turn = False
        self.embarked_this_turn = False


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the engine waits for (state file ``pending``)."""

    player: int
    """Who must decide."""
    decision: str
    """What: deploy, strategy, declare_charge, charge_reaction, redirect, move, shoot, pursue, follow_up,
    consolidate, rally; in deployment also choose_deployment, set_aside, scout_move, choose_first_turn,
    choose_objective_order, place_objective, select_side_mission; ambush (step 1.1); allocate_tokens (step 0.1) and
    dispel (magic, game.engine.magic)."""
    unit: str | None = None
    """The unit concerned, when the decision is about one unit."""
    options: tuple[str, ...] = ()
    """Allowed choices where they are a short list (reactions, targets)."""

    def to_dict(self) -> dict[str, object]:
        """The state-file form."""
        out: dict[str, object] = {"player": self.player, "decision": self.decision}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.options:
            out["options"] = list(self.options)
        return out


@dataclass
class DeclaredCharge:
    """A charge declared in step 2.1, resolved in 2.2-2.3."""

    unit: str
    """The charging unit."""
    target: str
    """Its (current) target."""
    reaction: str | None = None
    """hold, stand_and_shoot or flee once the opponent declared it; also flee when the target fled from another
    charger (rulebook "Flee": the charger must run down or redirect)."""
    shot: bool = False
    """The Stand and Shoot of this charge has been fired (a unit stands and shoots once)."""
    redirected: bool = False
    """The charge was already redirected once (no second redirect)."""
    resolved: bool = False
    """The charge move has been made."""
    picked: bool = False
    """Random Charge Distances: the charging player picked this charge to roll for next (step 5)."""
    flee_answered: bool = False
    """Random Charge Distances: the charger whose target fled has chosen to run down or redirect."""


@dataclass
class GameState:
    """Everything about a game in progress."""

    name: str
    """Scenario name."""
    table: Table
    """Table size."""
    terrain: list[TerrainShape]
    """Terrain pieces, index = position."""
    units: dict[str, Unit]
    """Units by id, in scenario order."""
    generals: dict[int, str | None]
    """Each player's General (unit id) or None."""
    ruleset: str = "aowfbr-1.4"
    """The ruleset refereeing the game (the scenario's ``ruleset``; ``game.engine.rulesets.RULESETS``)."""
    rounds: int = 4
    """Rounds in the game."""
    round: int = 1
    """Current round, 1-based."""
    first_player: int = 1
    """Who takes the first turn of each round."""
    active_player: int = 1
    """Whose turn it is."""
    phase: Phase = Phase.STRATEGY_1
    """Current phase."""
    step: Step = Step.STRATEGY
    """Current step within the phase."""
    pending: Pending | None = None
    """The decision the engine waits for; None when the game is over."""
    game_over: bool = False
    """True after the last rally phase of the last round."""
    options: dict[str, object] = field(default_factory=dict)
    """Scenario options (optional rules)."""
    charges: list[DeclaredCharge] = field(default_factory=list)
    """Charges declared this movement phase."""
    charges_closed: bool = False
    """Random Charge Distances: every charge of this movement phase is declared; they are rolled (step 5)."""
    rallied: list[str] = field(default_factory=list)
    """Units that rallied in this rally phase (each may pivot once by up to 180 degrees)."""
    activation: object | None = None
    """The round of activations of an activation ruleset (AoF:R 2.16: game.engine.rulesets.aofr.Activations)."""
    hills_going_up: bool = False
    """Hills (``elevated`` ``difficult`` terrain) are difficult only when going up (AoF:R 2.16 "Terrain Guidelines";
    set by that ruleset when the game starts: ``movement.crosses_difficult``); False: whenever crossed (AoWFBR)."""
    elevation_height: float | None = None
    """Elevated terrain (hills) at least this many inches tall counts as "Elevation": a move onto it spends the
    climb from its allowance (AoF:R 2.16 "Elevation"; set by that ruleset when the game starts:
    ``movement.elevation_climb``); None: heights do not change moves (AoWFBR)."""
    combat: object | None = None
    """Progress through the close combat phase (game.engine.close_combat.CombatPhase), None outside it."""
    deployment: object | None = None
    """Progress through deployment and the Ambush reserves (game.engine.deployment.DeploymentState); None if the
    game did not start with deployment."""
    magic: object | None = None
    """Spells, token pools and casts in progress (game.engine.magic.MagicState); None until first used."""
    mission: str | None = None
    """The mission played (``standard``; game.engine.objectives), or None for none: no objective markers."""
    objectives: list[Objective] = field(default_factory=list)
    """The objective markers on the table, in the order they were placed."""
    deployment_style: str | None = None
    """AoF:R 2.16 "Deployment Styles" (game.engine.deployment_styles): ``front_line`` ... ``flank_assault``, or
    ``random`` until rolled; None plays Front Line, the standard."""
    side_missions: object | None = None
    """AoF:R 2.16 "Side-Missions" in play (game.engine.side_missions.SideMissionState), None without them."""
    removals: list[RemovalRecord] = field(default_factory=list)
    """Every unit that left the game and every joined hero killed, in order, with when (for side-missions such
    as Obliterate, Terrify, Sorcerer Supreme: game.engine.side_missions)."""
    scene: Scene = field(init=False, repr=False)
    """Geometry cache of terrain and unit footprints; derived from ``units``."""

    def __post_init__(self) -> None:
        self.scene = Scene(self.table.width, self.table.depth, self.terrain)
        for unit in self.units.values():
            if unit.on_table:
                assert unit.pose is not None
                self.scene.set_unit(unit.id, unit.player, unit.pose, unit.formation)

    def clone(self) -> GameState:
        """An independent deep copy (profiles and terrain are shared, immutable; the geometry cache is copied,
        sharing what never changes). Fast enough to look ahead with: see ``benchmarks/engine_bench.py``."""
        memo: dict[int, object] = {}
        for u in self.units.values():
            memo[id(u.profile)] = u.profile
            if u.hero is not None:
                memo[id(u.hero.profile)] = u.hero.profile
        for t in self.terrain:
            memo[id(t)] = t
        twin = object.__new__(GameState)
        for f in fields(self):
            if f.init:
                setattr(twin, f.name, _copied(getattr(self, f.name), memo))
        twin.scene = self.scene.copy()
        return twin

    # --- queries -------------------------------------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; raises ``KeyError`` naming it."""
        try:
            return self.units[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r}") from None

    def units_of(self, player: int) -> list[Unit]:
        """Units of ``player`` that are on the table, scenario order."""
        return [u for u in self.units.values() if u.player == player and u.on_table]

    def enemies_of(self, player: int) -> list[Unit]:
        """Units of the other player that are on the table."""
        return self.units_of(3 - player)

    # --- mutators (keep the geometry cache in step) ----------------------------------------------------------
    def place(self, unit: Unit, pose: Pose) -> None:
        """Put ``unit`` at ``pose``. Outside deployment a change of position or facing marks the unit as having
        moved since its activation began (``Unit.moved_since_activation``)."""
        if unit.pose is not None and pose != unit.pose and self.phase is not Phase.DEPLOYMENT:
            unit.moved_since_activation = True
        unit.pose = pose
        if unit.removed is None and unit.embarked_in is None:
            self.scene.set_unit(unit.id, unit.player, pose, unit.formation)

    def set_models(self, unit: Unit, models: int) -> None:
        """Change the number of models; casualties come from the back, so the front edge stays in place.

        A joined hero stays among the ``models`` (it is removed last, with ``kill_hero``)."""
        models = max(0, models)
        old = unit.formation
        unit.models = models
        self._reshape(unit, old)

    def kill_hero(self, unit: Unit) -> None:
        """The hero joined to ``unit`` dies: one model fewer, the formation closes up, the front edge stays."""
        if not unit.hero_alive:
            return
        assert unit.hero is not None
        old = unit.formation
        unit.hero.killed = True
        self.removals.append(RemovalRecord(unit.hero.id, unit.player, "hero_killed", self.round, self.phase.value))
        unit.models = max(0, unit.models - 1)
        self._reshape(unit, old)

    def _reshape(self, unit: Unit, old: Formation) -> None:
        if unit.pose is not None and unit.models > 0:
            unit.pose = pose_keeping_front(unit.pose, old, unit.formation)
            if unit.removed is None and unit.embarked_in is None:
                self.scene.set_unit(unit.id, unit.player, unit.pose, unit.formation)

    def host_of(self, hero_id: str) -> Unit | None:
        """The unit a hero ``hero_id`` joined (rulebook "Hero"), or None."""
        for unit in self.units.values():
            if unit.hero is not None and unit.hero.id == hero_id:
                return unit
        return None

    def passengers(self, transport_id: str) -> list[Unit]:
        """Units inside the Transport ``transport_id``, scenario order (rulebook "Transport(X)")."""
        return [u for u in self.units.values() if u.embarked_in == transport_id and u.removed is None]

    def remove(self, unit: Unit, how: Removal) -> None:
        """Take ``unit`` out of the game (destroyed, routed or fled) and out of every melee. A Relic Hunt marker it
        carried is "dropped on the spot": at its centre, kept on the table, neutral (AoF:R 2.16 "Relic Hunt")."""
        if unit.removed is None:
            self.removals.append(RemovalRecord(unit.id, unit.player, how.value, self.round, self.phase.value))
        unit.removed = how
        unit.fleeing = False
        for o in self.objectives:
            if o.carried_by == unit.id:
                x, y = unit.pose.xy if unit.pose is not None else (o.x, o.y)
                o.x, o.y = min(max(x, 0.0), self.table.width), min(max(y, 0.0), self.table.depth)
                o.carried_by, o.controller = None, None
        for other_id in sorted(unit.engaged_with):
            other = self.units[other_id]
            other.engaged_with.discard(unit.id)
            other.contact_arcs.pop(unit.id, None)
        unit.engaged_with.clear()
        unit.contact_arcs.clear()
        if self.scene.has_unit(unit.id):
            self.scene.remove_unit(unit.id)
        for passenger in self.passengers(unit.id):
            # Units still inside a Transport that leaves the game (it routed or fled; a destroyed one has put
            # them down first: game.engine.transport) go with it (docs/rulings.md).
            self.remove(passenger, how)

    def engage(self, a: Unit, b: Unit, arc_of_a: Arc, arc_of_b: Arc) -> None:
        """Lock ``a`` and ``b`` in melee; ``arc_of_a`` is the arc of ``a`` that ``b`` touches, and vice versa."""
        a.engaged_with.add(b.id)
        b.engaged_with.add(a.id)
        a.contact_arcs[b.id] = arc_of_a
        b.contact_arcs[a.id] = arc_of_b

    def disengage(self, a: Unit, b: Unit) -> None:
        """End the melee between ``a`` and ``b``."""
        a.engaged_with.discard(b.id)
        b.engaged_with.discard(a.id)
        a.contact_arcs.pop(b.id, None)
        b.contact_arcs.pop(a.id, None)


def make_unit(
    unit_id: str,
    player: int,
    profile: Profile,
    models: int,
    pose: Pose | None,
    per_row: int | None = None,
    upgrades: frozenset[str] = frozenset(),
    hero: JoinedHero | None = None,
) -> Unit:
    """Build a unit at the start of a game; its cost is the profile cost times the copies it is made of.

    ``models`` are the unit's own models; a joined ``hero`` adds one (rulebook "Hero": the unit's size is
    increased by 1). ``per_row`` defaults from the unit's own size."""
    copies = max(1, -(-models // max(profile.size, 1)))
    extra = 1 if hero is not None else 0
    return Unit(
        id=unit_id,
        player=player,
        profile=profile,
        starting_models=models + extra,
        models=models + extra,
        per_row=per_row or default_per_row(models),
        pose=pose,
        upgrades=upgrades,
        cost=profile.cost * copies,
        hero=hero,
    )


_IMMUTABLE = (str, int, float, bool, type(None), Enum, frozenset, Pose, Profile, Formation, Table, Pending)
"""Values a clone may share without looking inside."""
_FIELDS: dict[type, tuple[tuple[str, type | None], ...]] = {}
"""For each dataclass type copied so far: the fields that may hold a value a clone must copy, each with the container
type (set, list or dict) its annotation says holds shared values only (a shallow copy of it is a deep one), or None
(``_copied`` looks inside)."""


def _always_shared(hint: object) -> bool:
    """Whether every value a field annotated ``hint`` may hold is one a clone shares (``_IMMUTABLE`` types, frozen
    dataclasses, unions and tuples and frozensets of them)."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return all(_always_shared(a) for a in typing.get_args(hint))
    if origin is frozenset:
        return True
    if origin is tuple:
        return all(a is Ellipsis or _always_shared(a) for a in typing.get_args(hint))
    if origin is not None or not isinstance(hint, type):
        return False
    params = getattr(hint, "__dataclass_params__", None)
    return issubclass(hint, _IMMUTABLE) or (params is not None and params.frozen)


def _flat_fields(kind: type) -> tuple[tuple[str, type | None], ...]:
    """The fields of dataclass ``kind`` whose values a clone may have to copy: those whose annotations are not
    ``_always_shared`` (every field when the annotations do not resolve), each with the container (``set[str]``,
    ``list[str]``, ``dict[str, Arc]``: a set, list or dict of values a clone shares) a shallow copy copies whole,
    else None. Most of a unit's fields are numbers, flags, a pose and its profile: skipping them is most of the speed
    of ``GameState.clone``."""
    plan = _FIELDS.get(kind)
    if plan is None:
        try:
            hints = typing.get_type_hints(kind)
        except (NameError, TypeError):  # an annotation only a type checker resolves: look at every field
            hints = {}
        out: list[tuple[str, type | None]] = []
        for f in fields(kind):
            if f.name in hints and _always_shared(hints[f.name]):
                continue
            origin, args = typing.get_origin(hints.get(f.name)), typing.get_args(hints.get(f.name))
            flat = origin in (set, list, dict) and bool(args) and all(_always_shared(a) for a in args)
            out.append((f.name, origin if flat else None))
        plan = _FIELDS[kind] = tuple(out)
    return plan


def _mutable_fields(kind: type) -> tuple[str, ...]:
    """The names of ``_flat_fields``."""
    return tuple(name for name, _ in _flat_fields(kind))


_COPIED_TYPES: set[type] = set()
"""Types ``_copied`` has found not to be immutable (no need to ask again)."""
_SHARED_TYPES: set[type] = {str, int, float, bool, type(None), frozenset, Pose, Profile, Formation, Table, Pending}
"""Types whose values a clone shares (grown as ``_copied`` meets enum members and frozen dataclasses)."""


def _copied(value: object, memo: dict[int, object]) -> object:
    """A deep copy of a state value for ``GameState.clone`` that shares what cannot change: immutable values and
    frozen dataclasses (the state's frozen dataclasses hold immutable values only: poses, spells, pending
    decisions). ``memo`` maps ids of values already copied (or to share) to their copies, so that references
    shared in the state stay shared in the copy. Types it does not know go to ``copy.deepcopy``."""
    kind = type(value)
    if kind in _SHARED_TYPES:
        return value
    if kind not in _COPIED_TYPES:
        if isinstance(value, _IMMUTABLE):  # a subclass (an enum): all its values are immutable too
            _SHARED_TYPES.add(kind)
            return value
        _COPIED_TYPES.add(kind)
    hit = memo.get(id(value))
    if hit is not None:
        return hit
    out: object
    if kind is list:
        assert isinstance(value, list)
        items: list[object] = []
        memo[id(value)] = items
        items.extend([v if type(v) in _SHARED_TYPES else _copied(v, memo) for v in value])
        out = items
    elif kind is dict:
        assert isinstance(value, dict)
        mapping: dict[object, object] = {}
        memo[id(value)] = mapping
        mapping.update([(k, v if type(v) in _SHARED_TYPES else _copied(v, memo)) for k, v in value.items()])
        out = mapping
    elif kind is set:
        assert isinstance(value, set)
        out = set(value)  # members are hashable ids and names
    elif kind is tuple:
        assert isinstance(value, tuple)
        out = tuple(_copied(v, memo) for v in value)
    elif hasattr(kind, "__dataclass_params__"):
        if kind.__dataclass_params__.frozen:
            _SHARED_TYPES.add(kind)
            return value
        if hasattr(value, "__dict__"):  # what copy.copy does, without its protocol; then the fields in place
            out = object.__new__(kind)
            memo[id(value)] = out
            state = dict(value.__dict__)
            for name, flat in _flat_fields(kind):
                v = state[name]
                vt = type(v)
                if vt in _SHARED_TYPES:
                    continue
                if vt is set or vt is flat:  # most mutable fields: sets, lists and dicts of ids and names
                    hit = memo.get(id(v))
                    if hit is None:
                        hit = memo[id(v)] = vt(v)
                    state[name] = hit
                else:
                    state[name] = _copied(v, memo)
            out.__dict__ = state
        else:
            out = copy.copy(value)
            memo[id(value)] = out
            for name, _ in _flat_fields(kind):
                v = getattr(value, name)
                if type(v) not in _SHARED_TYPES and not isinstance(v, _IMMUTABLE):  # copy.copy shares those
                    object.__setattr__(out, name, _copied(v, memo))
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = out
    return out
