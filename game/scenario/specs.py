"""What a loaded scenario or army file is: the frozen dataclasses ``Scenario``, ``ArmySpec``, ``UnitSpec``,
``StartSpec`` and ``ArmyFile``, ``ScenarioError``, and the file constants (spec "Scenario file", docs/formats.md
"Scenario file", "Army file"). Distances are inches, angles degrees, base sizes millimetres.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from game.engine.magic import Spell
from game.engine.profiles import Profile
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.state import Phase, Step, Table
from game.files import FileProblems
from geometry.formation import default_per_row
from geometry.pose import Pose
from geometry.terrain import TerrainShape

SCENARIO_FORMAT = "regiments-scenario/1"
"""The ``format`` value of a scenario file."""
ARMY_FORMAT = "regiments-army/1"
"""The ``format`` value of an army file."""
RULESETS: frozenset[str] = frozenset(ENGINE_RULESETS)
"""Rulesets a scenario may name (``ruleset``): the playable ones (``game.engine.rulesets.RULESETS``); one known but
not playable yet (``PLANNED``) is refused saying so."""
OPTION_DEFAULTS: dict[str, object] = {
    "random_charge_distance": False,
    "artillery_scatter": False,
    "spell_tokens": "basic",
}
"""Scenario ``options`` and their defaults (rulebook "Optional Rules"); ``Scenario.options`` has every key."""
SPELL_TOKEN_MODES: tuple[str, ...] = ("basic", "spell_and_dispel", "pooled")
"""Values of ``options.spell_tokens`` (rulebook "Caster(X)", "Spell and Dispel Tokens", "Pooled Tokens")."""
PHASE_FIRST_STEP: dict[Phase, Step] = {
    Phase.DEPLOYMENT: Step.DEPLOY,
    Phase.STRATEGY_1: Step.STRATEGY,
    Phase.MOVEMENT: Step.DECLARE_CHARGES,
    Phase.STRATEGY_2: Step.STRATEGY,
    Phase.SHOOTING: Step.RANGED_ATTACKS,
    Phase.CLOSE_COMBAT: Step.MELEE,
    Phase.RALLY: Step.RALLY,
    Phase.ACTIVATION: Step.ACTIVATION,
}
"""The first step of each phase: where a game given ``start: {phase: ...}`` begins."""


class ScenarioError(FileProblems):
    """A scenario or army file that cannot be used.

    ``problems`` lists every problem found, each formatted ``FILE:LINE: PATH: message`` with LINE 1-based.
    """


@dataclass(frozen=True)
class UnitSpec:
    """One unit as the scenario lists it (spec "Scenario file", ``armies[].units[]``)."""

    id: str
    """Unique id within the scenario."""
    profile: str
    """Name of its profile in the army's ``profiles``."""
    models: int
    """Starting size: profile size x copies (rulebook "Combined Units")."""
    per_row: int | None = None
    """Models per full row; None for the rulebook default (``geometry.formation.default_per_row``)."""
    upgrades: frozenset[str] = frozenset()
    """Command group: any of sergeant, musician, banner (rulebook "Command Groups")."""
    joined_by: str | None = None
    """Id of a hero deployed as part of this unit (rulebook "Hero"), or None."""
    embarked_in: str | None = None
    """Id of a Transport of the same army the unit starts inside (rulebook "Transport(X)"), or None."""
    pose: Pose | None = None
    """Where it starts (centre in inches, facing in degrees); None to deploy during the game."""
    positions: tuple[tuple[float, float], ...] = ()
    """AoF: Skirmish: where each model starts, (x, y) inches (loose models have no formation); empty to deploy
    during the game."""
    command_picks: tuple[str, ...] = ()
    """AoF: Skirmish: the up to 3 friendly units a Musician or Banner unit picks before the game ("Command Groups")."""

    @property
    def formation_per_row(self) -> int:
        """Models per row actually used: ``per_row`` or the rulebook default for ``models``."""
        return self.per_row or default_per_row(self.models)


@dataclass(frozen=True)
class ArmySpec:
    """One player's army: name, General, profiles and units."""

    player: int
    """1 or 2; player 1's table edge is y = 0."""
    name: str
    """Army name shown to players (the scenario's ``name``, else the included army file's, else "Player N")."""
    general: str | None
    """Id of the unit that is the army's General (a Hero; rulebook "Victory Conditions"), or None."""
    profiles: dict[str, Profile]
    """Profiles by name: the included army file's, overridden by the scenario's own."""
    units: tuple[UnitSpec, ...]
    """Units in file order."""
    include: str | None = None
    """The ``include`` path as written, or None."""
    spells: dict[str, Spell] = field(default_factory=dict)
    """Spells its casters may cast, by name: the included army file's, overridden by the scenario's own."""

    def profile_of(self, unit: UnitSpec) -> Profile:
        """The profile of ``unit``."""
        return self.profiles[unit.profile]

    def copies_of(self, unit: UnitSpec) -> int:
        """How many copies of its profile ``unit`` combines (rulebook "Combined Units")."""
        return max(1, -(-unit.models // max(self.profile_of(unit).size, 1)))

    def cost_of(self, unit: UnitSpec) -> int:
        """Points cost of ``unit``: profile cost x copies (command group upgrades are free)."""
        return self.profile_of(unit).cost * self.copies_of(unit)

    @property
    def points(self) -> int:
        """Total points cost of the army."""
        return sum(self.cost_of(u) for u in self.units)

    def unit(self, unit_id: str) -> UnitSpec:
        """The unit with this id; raises ``KeyError``."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)


@dataclass(frozen=True)
class StartSpec:
    """Where a game of the scenario starts (spec ``start``)."""

    round: int
    """Round, 1-based."""
    player: int
    """Whose turn, 1 or 2."""
    phase: Phase
    """Phase; the game starts at the phase's first step (``PHASE_FIRST_STEP``)."""

    @property
    def step(self) -> Step:
        """The first step of ``phase``."""
        return PHASE_FIRST_STEP[self.phase]


@dataclass(frozen=True)
class Scenario:
    """A validated scenario file (spec "Scenario file")."""

    name: str
    """Battle name."""
    ruleset: str
    """Ruleset id, e.g. ``aowfbr-1.4``."""
    table: Table
    """Table size, inches."""
    rounds: int = 4
    """Rounds in the game."""
    seed: int | None = None
    """Default dice seed, or None."""
    options: dict[str, object] = field(default_factory=lambda: dict(OPTION_DEFAULTS))
    """Optional rules; every key of ``OPTION_DEFAULTS`` is present."""
    terrain: tuple[TerrainShape, ...] = ()
    """Terrain pieces; ``terrain[i].index == i``."""
    terrain_kinds: tuple[str, ...] = ()
    """Kind of each terrain piece (parallel to ``terrain``), e.g. ``forest``: the window colours by kind."""
    armies: dict[int, ArmySpec] = field(default_factory=dict)
    """Armies by player, in file order."""
    start: StartSpec | None = None
    """Given start position, or None (deployment if any unit lacks a pose, else round 1, player 1, strategy_1)."""
    source: Path | None = None
    """The file it was read from."""
    description: str | None = None
    """Optional briefing text."""
    mission: str | None = None
    """The mission played (``standard``; game.engine.objectives), or None: no objective markers."""
    objectives: tuple[tuple[float, float], ...] = ()
    """Objective markers the scenario places, (x, y) in inches; empty: placed in the game when a mission is
    played."""
    deployment: str | None = None
    """The deployment style (game.engine.deployment_styles: ``front_line`` ... ``flank_assault``, ``random``), or
    None: Front Line."""
    side_missions: tuple[str, str] | None = None
    """(playstyle, selection) of AoF:R 2.16 "Side-Missions" (game.engine.side_missions), or None: not played."""

    def army(self, player: int) -> ArmySpec | None:
        """The army of ``player`` or None."""
        return self.armies.get(player)

    def units(self) -> Iterator[tuple[ArmySpec, UnitSpec]]:
        """Every (army, unit) pair, in file order."""
        for army in self.armies.values():
            for unit in army.units:
                yield army, unit

    def joined_heroes(self) -> dict[str, str]:
        """Hero id -> id of the unit it joined (rulebook "Hero"); such heroes are part of that unit in the game."""
        return {u.joined_by: u.id for _, u in self.units() if u.joined_by is not None}

    def needs_deployment(self) -> bool:
        """True if some unit must be placed during the game: it has no pose, is not a hero joined to a unit and does
        not start inside a Transport."""
        joined = self.joined_heroes()
        return any(u.pose is None and not u.positions and u.id not in joined and u.embarked_in is None
                   for _, u in self.units())


@dataclass(frozen=True)
class ArmyFile:
    """A validated army file (``format: regiments-army/1``; docs/formats.md "Army file")."""

    name: str
    """Army name."""
    profiles: dict[str, Profile]
    """Unit profiles by name."""
    source: Path | None = None
    """The file it was read from."""
    description: str | None = None
    """Optional text about the army."""
    upgrade_costs: dict[str, int] = field(default_factory=dict)
    """Points per unit for command group upgrades (``sergeant``, ``musician``, ``banner``) when the army file
    prices them (optional ``upgrade_costs``); an upgrade not listed is free. Used by army lists
    (``game.setup.army_list``); victory points still use profile cost x copies."""
    spells: dict[str, Spell] = field(default_factory=dict)
    """The army's spells by name (optional ``spells``; rulebook "Caster(X)": casters pick from their faction)."""
