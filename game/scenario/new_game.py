"""The game state at a scenario's start (``new_game_state``): units, Generals, table, terrain, options, objective
markers, side-missions and magic as the engine's ``GameState`` (game.engine.state)."""

from __future__ import annotations

from game.engine.deployment_styles import DEFAULT_STYLE, STYLES
from game.engine.magic import new_magic_state
from game.engine.objectives import fixed_markers
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets.skirmish import ID as SKIRMISH_ID
from game.engine.side_missions import AOWFBR_SIDE_MISSIONS, SideMissionState
from game.engine.skirmish.loose import Warband, new_models
from game.engine.state import GameState, JoinedHero, Objective, Phase, Step, Unit, make_unit
from game.scenario.skirmish import command_units
from game.scenario.specs import Scenario
from geometry.pose import Pose


def new_game_state(scenario: Scenario) -> GameState:
    """The game state at the scenario's start: units built with ``make_unit`` (cost = profile cost x copies,
    starting size = models), Generals, table, terrain, options and rounds.

    A hero ``joined_by`` a unit becomes part of it (``Unit.hero``; the unit's size grows by one) and is no unit of
    its own; a General may be such a hero (``GameState.host_of``). A unit ``embarked_in`` a Transport starts inside
    it (``Unit.embarked_in``, off the table, with the Transport's pose as a marker).

    The start is ``scenario.start`` (at the first step of its phase) if given; otherwise deployment if any unit
    lacks a pose (rulebook "Deploying Armies"), else round 1, player 1, strategy phase 1. ``pending`` is left for
    the engine to set.
    """
    rnd, player, phase, step = _start(scenario)
    state = GameState(
        name=scenario.name,
        ruleset=scenario.ruleset,
        table=scenario.table,
        terrain=list(scenario.terrain),
        units=_units(scenario),
        generals=_generals(scenario),
        rounds=scenario.rounds,
        round=rnd,
        first_player=1,
        active_player=player,
        phase=phase,
        step=step,
        options=dict(scenario.options),
        mission=scenario.mission,
        objectives=[Objective(x, y) for x, y in scenario.objectives] if scenario.objectives else
        fixed_markers(scenario.mission or "", scenario.table, scenario.deployment
                      if scenario.deployment in STYLES else DEFAULT_STYLE),
        deployment_style=scenario.deployment,
        side_missions=None if scenario.side_missions is None else SideMissionState(
            *scenario.side_missions, rules=getattr(ENGINE_RULESETS.get(scenario.ruleset), "side_mission_rules",
                                                   AOWFBR_SIDE_MISSIONS)),
        magic=new_magic_state(str(scenario.options.get("spell_tokens", "basic")),
                              {p: dict(a.spells) for p, a in scenario.armies.items()}, scenario.ruleset),
    )
    if scenario.ruleset == SKIRMISH_ID:
        _place_loose_models(state, scenario)
    return state


def _units(scenario: Scenario) -> dict[str, Unit]:
    """The units at the start by id: a hero joined to a unit is part of it (rulebook "Hero"), a unit inside a
    Transport has the Transport's pose (rulebook "Transport(X)")."""
    units = {}
    joined = scenario.joined_heroes()
    poses = {spec.id: spec.pose for _, spec in scenario.units()}
    for army, spec in scenario.units():
        if spec.id in joined:
            continue  # part of the unit it joined (rulebook "Hero")
        hero = None
        if spec.joined_by is not None:
            hspec = army.unit(spec.joined_by)
            hero = JoinedHero(hspec.id, army.profile_of(hspec), army.cost_of(hspec))
        pose = spec.pose if spec.embarked_in is None else poses.get(spec.embarked_in)
        unit = make_unit(spec.id, army.player, army.profile_of(spec), spec.models, pose, spec.per_row,
                         spec.upgrades, hero)
        unit.embarked_in = spec.embarked_in
        units[spec.id] = unit
    return units


def _generals(scenario: Scenario) -> dict[int, str | None]:
    """Each player's General (rulebook "Victory Conditions"), None where the army names none."""
    generals: dict[int, str | None] = {1: None, 2: None}
    for player, army in scenario.armies.items():
        generals[player] = army.general
    return generals


def _start(scenario: Scenario) -> tuple[int, int, Phase, Step]:
    """(round, player, phase, step) where the game starts (rulebook "Deploying Armies")."""
    if scenario.start is not None:
        rnd, player, phase, step = scenario.start.round, scenario.start.player, scenario.start.phase, \
            scenario.start.step
    elif scenario.needs_deployment():
        rnd, player, phase, step = 1, 1, Phase.DEPLOYMENT, Step.DEPLOY
    else:
        rnd, player, phase, step = 1, 1, Phase.STRATEGY_1, Step.STRATEGY
    return rnd, player, phase, step


def _place_loose_models(state: GameState, scenario: Scenario) -> None:
    """AoF: Skirmish: the warband state of the placed models and of the command picks ("Command Groups")."""
    # loose models: each model's position lives in the warband state, the unit's pose marks their centre
    state.activation = Warband(models={spec.id: new_models(state.units[spec.id], spec.positions)
                                       for _, spec in scenario.units() if spec.positions},
                               inspired=command_units(spec for _, spec in scenario.units()))
    for uid, ms in state.activation.models.items():
        unit = state.units[uid]
        unit.pose = Pose(sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms), 0.0)
