"""Deployment as the rulebook describes it, made of game-record actions (rulebook "Deploying Armies", "Playing the
Game", special rules "Scout" and "Ambush").

The sequence, each decision a ``Pending`` answered by an action (``game.engine.actions``):

0. **The mission** (``game.engine.objectives``; AoF:R 2.16 "Extra Missions", "Placing Objectives"): ``random``
   rolls one die for the mission. When the players place markers (the scenario placed none, and the mission's rule
   does not place them), the engine rolls D3+2 for the standard mission, then a roll-off; the winner picks who places
   the first (``choose_objective_order {player, first}``, decision ``choose_objective_order``); then the players
   alternate ``place_objective {player, x, y}`` (decision ``place_objective``) until all are placed.
1. **Deployment roll-off** (done by the engine when the game starts): each player rolls a D6, ties are re-rolled.
2. ``choose_deployment {player, edge?, first}`` by the roll-off winner (decision ``choose_deployment``, options the
   edges it may pick): the long table edge the winner deploys on and who places the first unit. Edges are named on
   the table as the scenario lays it out: ``south`` is y = 0, ``north`` is y = depth. Player 1's edge is always
   y = 0 (spec), so when the winner picks the edge that is not their own in the scenario's layout, the terrain is
   turned 180 degrees about the table centre instead (``DeploymentState.rotated``; the window must redraw it). When
   the scenario has already placed units the edges are fixed and only ``first`` is chosen (options empty).
3. **Setting aside** (decision ``set_aside``, options the units that may): "May be set aside before deployment":
   first the player deploying first, then the other, set aside Scout and Ambush units with
   ``set_aside {player, unit, rule?}``, and end with ``done``. A player with nothing to set aside is not asked.
4. **Alternating placement** (decision ``deploy``, options the units to place): ``deploy {player, unit, pose}``,
   one unit each, starting with the chosen player, each fully within 12" of its own table edge; a player whose units
   are all placed is skipped.
5. **Scouts** (decision ``deploy`` with the set-aside Scout units, then ``scout_move`` for the unit just placed):
   after all other units, players alternate placing Scout units (fully within 12" of their edge as usual),
   starting with the player who would have placed next; each may then be placed anywhere within 12" of that
   position with ``scout_move {player, unit, pose}`` (its centre moves at most 12"), or stay with ``done``.
6. **First-turn roll-off** (by the engine): each player rolls a D6, +1 for the player who finished deploying first
   (whose last placement came first; a player with nothing to place finished at once); ties re-roll.
7. ``choose_first_turn {player, first}`` by the winner (decision ``choose_first_turn``): sets
   ``GameState.first_player`` and the game starts at round 1 with that player's turn.

**Ambush**: a unit set aside with Ambush waits in ``DeploymentState.reserves``. At the start of each of its
player's turns from round 2 on (step 1.1 "Deploy Ambusher Units", ``Step.AMBUSH``, decision ``ambush``), it may be
deployed with ``deploy {player, unit, pose}`` fully within 6" of any table edge; ``done`` ends the step (the rest
wait). Ambushers never deployed stay off the table.

Placement rules for every placement: the footprint fully on the table, at least 1" from every other unit (rulebook
"General Movement"), not in impassable terrain. Dice go through the game's ``Dice`` with a purpose. Interpretations:
docs/rulings.md, "Set-up and deployment".

Public API: ``DeploymentState``, ``begin``, ``check``, ``apply``, ``finished``, ``ambush_step``, ``reserves_of``,
``deploy_zone``, ``DONE_STEPS`` and the constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from shapely import Polygon

from game.engine import deployment_styles, objectives, side_missions
from game.engine.actions import (
    Action,
    ChooseDeployment,
    ChooseFirstTurn,
    ChooseObjectiveOrder,
    Deploy,
    Done,
    PlaceObjective,
    ScoutMove,
    SelectSideMission,
    SetAside,
)
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.state import DEPLOYMENT_DEPTH, GameState, Pending, Phase, Step, Unit
from geometry.pose import Pose
from geometry.scene import Scene
from geometry.shapes import footprint_polygon, overlap_area
from geometry.terrain import TerrainShape

SCOUT_DISTANCE = 12.0
"""Inches: a Scout unit may be placed anywhere within this distance of its position (rulebook "Scout")."""
AMBUSH_DEPTH = 6.0
"""Inches: an Ambush unit deploys fully within this distance of any table edge (rulebook "Ambush")."""
EDGES: tuple[str, ...] = ("south", "north")
"""The long table edges as the scenario lays the table out: ``south`` is y = 0, ``north`` is y = depth."""
SET_ASIDE_RULES: tuple[str, ...] = ("Scout", "Ambush")
"""Special rules that let a unit be set aside before deployment."""
DONE_STEPS: frozenset[Step] = frozenset({Step.SET_ASIDE, Step.SCOUT_MOVE, Step.AMBUSH})
"""Steps of this module where ``done`` is an answer (no more set-asides, Scout stays, no more ambushers)."""

_EPS = 1e-6


@dataclass
class DeploymentState:
    """Progress through deployment (``GameState.deployment``); kept after deployment for Ambush reserves."""

    stage: str = "choose"
    """``objective_order``, ``objectives``, ``choose``, ``set_aside``, ``place``, ``scout``, ``scout_move``,
    ``first_turn`` or ``done``."""
    objectives_to_place: int = 0
    """How many objective markers the players place before deployment (D3+2), 0 when none."""
    objective_winner: int | None = None
    """Winner of the objective roll-off, who picks who places the first marker."""
    roll_off_winner: int | None = None
    """Winner of the deployment roll-off, who chooses the edge and who deploys first."""
    first_deployer: int | None = None
    """The player who places the first unit."""
    edge: str | None = None
    """The edge the roll-off winner took, in the scenario's layout (``south``/``north``); None until chosen."""
    rotated: bool = False
    """True if the terrain was turned 180 degrees about the table centre (the winner took the other edge)."""
    edges_fixed: bool = False
    """True when the scenario placed units already: the edges stay as laid out and no edge is chosen."""
    set_aside_order: list[int] = field(default_factory=list)
    """Players still to decide which units to set aside, in order (the one deciding now first)."""
    reserves: dict[str, str] = field(default_factory=dict)
    """Units set aside and not yet placed: unit id -> ``Scout`` or ``Ambush``."""
    placements: list[int] = field(default_factory=list)
    """The player of each placement during deployment (normal and Scout), in order."""
    last_placer: int | None = None
    """The player who placed the last unit in the alternating placement (before Scouts)."""
    scout_unit: str | None = None
    """The Scout unit just placed that may now be placed again within 12"; None otherwise."""
    scout_from: Pose | None = None
    """Where that Scout unit was placed."""
    scout_last: int | None = None
    """The player who placed the last Scout unit."""
    finished_first: int | None = None
    """The player who finished deploying first (+1 to the first-turn roll-off), None if neither."""
    first_turn_winner: int | None = None
    """Winner of the first-turn roll-off."""
    ambush_turn: tuple[int, int] | None = None
    """(round, player) whose Ambush step has already been offered."""
    resume: tuple[Step, Pending | None] | None = None
    """The strategy step and decision to return to after the Ambush step."""
    first_turn_roll_off: bool = True
    """AoWFBR "Playing the Game": a first-turn roll-off ends deployment. False for AoF:R 2.16 ("the player that won
    the deployment roll-off takes the first turn"): deployment ends with ``first_player`` its winner."""
    ambush_round: dict[str, int] = field(default_factory=dict)
    """Units that arrived from Ambush: unit id -> the round (they neither seize nor contest objectives then)."""
    scout_roll_off: bool = False
    """AoF:R 2.16 "Scout": "If both players have units with Scout, they must roll-off to see who goes first, and
    then alternate in placing them"; False: AoWFBR's order (the player who would have placed next)."""
    scout_reach: float | None = None
    """The AoF:R quick rules' "Scout": placed "anywhere fully within 12\" of their deployment zone" (this many inches
    around the zone), with no move after it, the first by "the player that activates next" (the deployment roll-off
    winner); None: placed in the zone, then moved up to 12" (``scout_move``: AoWFBR, AoF:R 2.16)."""


# ---------------------------------------------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------------------------------------------


def progress(state: GameState) -> DeploymentState | None:
    """The game's ``DeploymentState``, or None if the game did not start with deployment."""
    return cast(DeploymentState | None, state.deployment)


def finished(state: GameState) -> bool:
    """True once deployment is over (first player chosen) or if there was none."""
    d = progress(state)
    return d is None or d.stage == "done"


def reserves_of(state: GameState, player: int, rule: str | None = None) -> list[str]:
    """Ids of ``player``'s units set aside and not yet placed (only those set aside with ``rule`` if given)."""
    d = progress(state)
    if d is None:
        return []
    return [uid for uid, r in d.reserves.items() if state.units[uid].player == player and (rule is None or r == rule)
            and state.units[uid].pose is None and state.units[uid].removed is None]


def may_set_aside(state: GameState, player: int) -> list[str]:
    """Ids of ``player``'s units that may still be set aside: Scout or Ambush, not placed, not set aside."""
    d = progress(state)
    reserved = d.reserves if d is not None else {}
    return [u.id for u in state.units.values() if u.player == player and u.pose is None and u.removed is None
            and u.id not in reserved and any(u.has(r) for r in SET_ASIDE_RULES)]


def to_place(state: GameState, player: int) -> list[str]:
    """Ids of ``player``'s units still to place in the alternating placement (not set aside), scenario order."""
    d = progress(state)
    reserved = d.reserves if d is not None else {}
    return [u.id for u in state.units.values() if u.player == player and u.pose is None and u.removed is None
            and u.id not in reserved]


def deploy_zone(state: GameState, player: int) -> tuple[float, float, float, float]:
    """The bounds (x0, y0, x1, y1), inches, of ``player``'s deployment zone (``zone_polygon``)."""
    x0, y0, x1, y1 = zone_polygon(state, player).bounds
    return (float(x0), float(y0), float(x1), float(y1))


def zone_polygon(state: GameState, player: int) -> Polygon:
    """``player``'s deployment zone, a polygon in inches: the deployment style's (AoF:R 2.16 "Deployment Styles",
    game.engine.deployment_styles); Front Line, the standard, is the strip within 12" of their own long edge."""
    return deployment_styles.zone_of(state, player)


# ---------------------------------------------------------------------------------------------------------------
# The sequence
# ---------------------------------------------------------------------------------------------------------------


def begin(state: GameState, dice: Dice, *, first_turn_roll_off: bool = True,
          scout_roll_off: bool = False, scout_reach: float | None = None) -> list[Event]:
    """Start deployment: the deployment roll-off and the winner's choice of edge and first player.

    ``first_turn_roll_off`` False (AoF:R 2.16): no first-turn roll-off; the deployment roll-off winner takes the
    first turn (``DeploymentState.first_turn_roll_off``). ``scout_roll_off`` (AoF:R 2.16 "Scout"): when both
    players set Scout units aside, a roll-off decides who places the first (``DeploymentState.scout_roll_off``).
    ``scout_reach`` (the AoF:R quick rules' "Scout"): ``DeploymentState.scout_reach``.

    With no unit to deploy the deployment roll-off is skipped and the first-turn roll-off follows at once.
    Sets ``state.deployment``, ``state.step`` and ``state.pending``.
    """
    s = state
    d = DeploymentState(first_turn_roll_off=first_turn_roll_off, scout_roll_off=scout_roll_off,
                        scout_reach=scout_reach)
    s.deployment = d
    s.phase = Phase.DEPLOYMENT
    s.round = 1
    events = [Event("phase", "Deployment", {"phase": Phase.DEPLOYMENT.value})]
    d.edges_fixed = any(u.pose is not None for u in s.units.values())
    if s.deployment_style == "random":    # "first roll to see which deployment style you will use, then ..."
        events += _random_style(s, dice)
    if s.mission == "random":
        events += _random_mission(s, dice)
    elif s.mission in objectives.FIXED_MISSIONS:
        s.objectives = objectives.fixed_markers(s.mission, s.table, deployment_styles.style_of(s))
    if side_missions.active(s):
        events += side_missions.begin(s, dice)
        if side_missions.waiting(s):
            d.stage = "side_missions"
            return events
    return events + after_side_missions(s, dice)


def after_side_missions(state: GameState, dice: Dice) -> list[Event]:
    """Once the side-missions are selected (game.engine.side_missions): the objective markers, then the deployment
    roll-off."""
    s = state
    d = progress(s)
    assert d is not None
    count = objectives.markers_to_place(s)
    if count != 0:
        return _objective_roll_off(s, d, dice, count)
    return _deployment_roll_off(s, d, dice)


def _random_mission(s: GameState, dice: Dice) -> list[Event]:
    """AoF:R 2.16 "Random Mission Selection": one die, 1 Duel (the standard mission) ... 6 King of the Hill."""
    die = dice.one("Random mission")
    s.mission = objectives.RANDOM_MISSIONS[die - 1]
    mission = objectives.MISSIONS[s.mission]
    s.objectives += objectives.fixed_markers(s.mission, s.table, deployment_styles.style_of(s))
    return [roll_event("Random mission", [die], total=die, details=[f"{die}: {mission.name}"]),
            Event("objective", f"The mission is {mission.name}: {mission.summary}", {"mission": s.mission})]


def _random_style(s: GameState, dice: Dice) -> list[Event]:
    """AoF:R 2.16 "Random Deployment Style": one die, 1 Front Line ... 6 Flank Assault."""
    die = dice.one("Random deployment style")
    s.deployment_style = deployment_styles.RANDOM_STYLES[die - 1]
    style = deployment_styles.STYLES[s.deployment_style]
    return [roll_event("Random deployment style", [die], total=die, details=[f"{die}: {style.name}"]),
            Event("deploy", f"The deployment style is {style.name}: {style.summary}",
                  {"deployment_style": s.deployment_style})]


def _objective_roll_off(s: GameState, d: DeploymentState, dice: Dice, count: int | None) -> list[Event]:
    """AoF:R 2.16 "Placing Objectives": the markers (D3+2 when ``count`` is None), then a roll-off whose winner
    picks who places first."""
    events: list[Event] = []
    if count is None:
        die = dice.one("Objective markers: D3+2")
        d3 = (die + 1) // 2     # a D3 is a D6 halved, rounding up (spec "Game record")
        count = d3 + 2
        events.append(roll_event("Objective markers: D3+2", [die], total=count,
                                 details=[f"D3 = {d3} (the D6 halved, rounding up), +2"]))
    d.objectives_to_place = count
    events.append(Event("objective", f"{count} objective marker{'s' if count != 1 else ''} will be placed before "
                        "deployment", {"objective_count": count}))
    winner, roll_events = _roll_off(dice, "Objective roll-off", {1: 0, 2: 0})
    d.objective_winner = winner
    events += roll_events
    events.append(Event("objective", f"Player {winner} wins the objective roll-off and picks who places the first "
                        "marker", {"roll_off": "objectives", "winner": winner}))
    d.stage = "objective_order"
    s.step = Step.OBJECTIVE_ORDER
    s.pending = Pending(winner, "choose_objective_order", None, ("1", "2"))
    return events


def _deployment_roll_off(s: GameState, d: DeploymentState, dice: Dice) -> list[Event]:
    """The deployment roll-off; the winner chooses the table edge (unless fixed) and who deploys first. With no
    unit to deploy the first-turn roll-off follows at once."""
    events: list[Event] = []
    if not any(u.pose is None and u.removed is None for u in s.units.values()):
        d.edges_fixed = True
        return events + _first_turn_roll_off(s, dice)
    winner, roll_events = _roll_off(dice, "Deployment roll-off", {1: 0, 2: 0})
    d.roll_off_winner = winner
    events += roll_events
    events.append(Event("deploy", f"Player {winner} wins the deployment roll-off and chooses "
                        f"{'who deploys first' if d.edges_fixed else 'the table edge and who deploys first'}",
                        {"roll_off": "deployment", "winner": winner}))
    d.stage = "choose"
    s.step = Step.CHOOSE_DEPLOYMENT
    s.pending = Pending(winner, "choose_deployment", None, () if d.edges_fixed else EDGES)
    return events


def check(state: GameState, action: Action) -> Unit | None:
    """Raise ``IllegalAction`` (naming the rule) if ``action`` may not be made now; nothing changes.

    Covers ``choose_deployment``, ``set_aside``, ``deploy`` (deployment, Scouts, Ambush), ``scout_move``,
    ``choose_first_turn`` and ``done`` in the steps of ``DONE_STEPS``. Returns the unit concerned, if any.
    The caller has checked that the action's player is the one the game waits for.
    """
    s = state
    d = progress(s)
    if d is None or not _step_allows(s, action):
        if d is not None and isinstance(action, Deploy) and d.reserves.get(action.unit) == "Ambush":
            raise IllegalAction("Ambush", f"{action.unit} waits in Ambush: it may be deployed at the start of any of "
                                "its player's turns after the first (step 1.1 from round 2)")
        wanted = s.pending.decision if s.pending else "nothing"
        raise IllegalAction("Turn Sequence", f"'{action.type}' is not possible now; the game waits for: {wanted}")
    if isinstance(action, ChooseDeployment):
        if action.first not in (1, 2):
            raise IllegalAction("Deploying Armies", f"first must be player 1 or 2, got {action.first}")
        if action.edge is not None and action.edge not in EDGES:
            raise IllegalAction("Deploying Armies", f"edge must be south or north, got {action.edge!r}")
        if d.edges_fixed and action.edge is not None and action.edge != own_edge(action.player):
            raise IllegalAction("Deploying Armies", "the scenario has placed units already, so the table edges are "
                                f"fixed: player {action.player} deploys on the {own_edge(action.player)} edge")
        return None
    if isinstance(action, ChooseFirstTurn):
        if action.first not in (1, 2):
            raise IllegalAction("Playing the Game", f"first must be player 1 or 2, got {action.first}")
        return None
    if isinstance(action, ChooseObjectiveOrder):
        if action.first not in (1, 2):
            raise IllegalAction("Placing Objectives", f"first must be player 1 or 2, got {action.first}")
        return None
    if isinstance(action, PlaceObjective):
        objectives.check_place(s, action.player, action.x, action.y)
        return None
    if isinstance(action, SelectSideMission):
        side_missions.check(s, action)
        return None
    if isinstance(action, Done):
        return None
    unit = _own_unit(s, action)
    if isinstance(action, SetAside):
        return _check_set_aside(s, d, unit, action)
    if isinstance(action, ScoutMove):
        if unit.id != d.scout_unit:
            raise IllegalAction("Scout", f"only {d.scout_unit} may be placed again now")
        assert d.scout_from is not None
        moved = d.scout_from.distance_to(action.pose)
        if moved > SCOUT_DISTANCE + _EPS:
            raise IllegalAction("Scout", f"a Scout unit may be placed anywhere within {SCOUT_DISTANCE:g}\" of its "
                                f"position; this is {moved:.1f}\" away", action.pose.xy)
        check_placement(s, unit, action.pose, "Scout")
        return unit
    assert isinstance(action, Deploy)
    if unit.pose is not None:
        raise IllegalAction("Deploying Armies", f"{unit.name} is already deployed")
    if s.step is Step.AMBUSH:
        if d.reserves.get(unit.id) != "Ambush":
            raise IllegalAction("Ambush", f"{unit.name} was not set aside in Ambush")
        check_ambush_zone(s, unit, action.pose)
        check_placement(s, unit, action.pose, "Ambush")
        return unit
    if d.stage == "scout":
        if d.reserves.get(unit.id) != "Scout":
            raise IllegalAction("Scout", f"only Scout units set aside are placed now; {unit.name} is not one")
    elif unit.id in d.reserves:
        rule = d.reserves[unit.id]
        raise IllegalAction(rule, f"{unit.name} was set aside ({rule}); it is placed "
                            f"{'after all other units' if rule == 'Scout' else 'from round 2 by Ambush'}")
    reach = d.scout_reach if d.stage == "scout" and d.scout_reach is not None else 0.0
    scouting = reach > 0
    _check_zone(s, unit, action.pose, reach)
    check_placement(s, unit, action.pose, "Scout" if scouting else "Deploying Armies")
    return unit


def apply(state: GameState, dice: Dice, action: Action) -> list[Event]:
    """Apply a deployment action (see ``check``) and run the engine's part up to the next decision.

    Raises ``IllegalAction`` (the state is then unchanged). When deployment ends, ``finished(state)`` is True and
    ``state.first_player`` is set; the caller starts round 1. After an Ambush step the strategy step resumes.
    """
    s = state
    unit = check(s, action)
    d = progress(s)
    assert d is not None
    if isinstance(action, ChooseDeployment):
        return _choose_deployment(s, d, action, dice)
    if isinstance(action, (ChooseObjectiveOrder, PlaceObjective)):
        return _objectives(s, d, action, dice)
    if isinstance(action, SelectSideMission):
        events = side_missions.apply(s, dice, action)
        return events if side_missions.waiting(s) else events + after_side_missions(s, dice)
    if isinstance(action, SetAside):
        assert unit is not None
        rule = action.rule or next(r for r in SET_ASIDE_RULES if unit.has(r))
        d.reserves[unit.id] = rule
        events = [Event("deploy", f"{unit.name} is set aside ({rule})", {"unit": unit.id, "set_aside": rule})]
        if not may_set_aside(s, action.player):
            d.set_aside_order.pop(0)
        return events + _next(s, dice)
    if isinstance(action, Done):
        if s.step is Step.SET_ASIDE:
            d.set_aside_order.pop(0)
            return _next(s, dice)
        if s.step is Step.SCOUT_MOVE:
            d.scout_unit, d.scout_from = None, None
            return _next(s, dice)
        return _end_ambush(s, d)
    if isinstance(action, ScoutMove):
        assert unit is not None and unit.pose is not None
        start = unit.pose
        s.place(unit, action.pose)
        d.scout_unit, d.scout_from = None, None
        return [Event("deploy", f"{unit.name} scouts {start.distance_to(action.pose):.1f}\"",
                      {"unit": unit.id, "from": _pose(start), "to": _pose(action.pose), "scout": True})] + \
            _next(s, dice)
    if isinstance(action, ChooseFirstTurn):
        s.first_player = action.first
        d.stage = "done"
        s.pending = None
        return [Event("deploy", f"Player {action.player} chooses: player {action.first} takes the first turn",
                      {"first_player": action.first})]
    assert isinstance(action, Deploy) and unit is not None
    s.place(unit, action.pose)
    if s.step is Step.AMBUSH:
        del d.reserves[unit.id]
        d.ambush_round[unit.id] = s.round
        events = [Event("deploy", f"{unit.name} arrives from Ambush", {"unit": unit.id, "ambush": True,
                                                                         "to": _pose(action.pose)})]
        waiting = reserves_of(s, action.player, "Ambush")
        if waiting:
            s.pending = Pending(action.player, "ambush", None, tuple(waiting))
            return events
        return events + _end_ambush(s, d)
    d.placements.append(action.player)
    events = [Event("deploy", f"{unit.name} deploys", {"unit": unit.id, "to": _pose(action.pose)})]
    if d.stage == "scout":
        del d.reserves[unit.id]
        d.scout_last = action.player
        if d.scout_reach is not None:        # the quick rules: placed once, within 12" of the zone
            return events + _next(s, dice)
        d.scout_unit, d.scout_from = unit.id, action.pose
        d.stage = "scout_move"
        s.step = Step.SCOUT_MOVE
        s.pending = Pending(action.player, "scout_move", unit.id)
        return events
    d.last_placer = action.player
    return events + _next(s, dice)


def ambush_step(state: GameState) -> list[Event]:
    """Step 1.1 "Deploy Ambusher Units" at the start of the active player's first strategy phase: if they have
    Ambush units waiting and it is round 2 or later, switch to ``Step.AMBUSH`` (decision ``ambush``), remembering
    the strategy step to resume. Call after the strategy step has been set up. Does nothing otherwise."""
    s = state
    d = progress(s)
    p = s.active_player
    if d is None or s.round < 2 or d.ambush_turn == (s.round, p):
        return []
    waiting = reserves_of(s, p, "Ambush")
    if not waiting:
        return []
    d.ambush_turn = (s.round, p)
    d.resume = (s.step, s.pending)
    s.step = Step.AMBUSH
    s.pending = Pending(p, "ambush", None, tuple(waiting))
    return [Event("info", f"1.1 Player {p} may deploy Ambush units", {"ambush": list(waiting)})]


# ---------------------------------------------------------------------------------------------------------------
# Internals
# ---------------------------------------------------------------------------------------------------------------


def own_edge(player: int) -> str:
    """The long edge (``EDGES``) ``player`` deploys on as the scenario lays the table out: player 1 south."""
    return "south" if player == 1 else "north"


def _step_allows(s: GameState, action: Action) -> bool:
    step = s.step
    if isinstance(action, ChooseDeployment):
        return step is Step.CHOOSE_DEPLOYMENT
    if isinstance(action, SetAside):
        return step is Step.SET_ASIDE
    if isinstance(action, ScoutMove):
        return step is Step.SCOUT_MOVE
    if isinstance(action, ChooseFirstTurn):
        return step is Step.FIRST_TURN
    if isinstance(action, ChooseObjectiveOrder):
        return step is Step.OBJECTIVE_ORDER
    if isinstance(action, PlaceObjective):
        return step is Step.PLACE_OBJECTIVES
    if isinstance(action, SelectSideMission):
        return step is Step.SIDE_MISSION
    if isinstance(action, Deploy):
        return step in (Step.DEPLOY, Step.AMBUSH)
    if isinstance(action, Done):
        return step in DONE_STEPS
    return False


def _own_unit(s: GameState, action: Action) -> Unit:
    uid = getattr(action, "unit", None)
    unit = s.units.get(uid) if isinstance(uid, str) else None
    if unit is None:
        raise IllegalAction("Deploying Armies", f"there is no unit {uid!r}")
    if unit.player != action.player:
        raise IllegalAction("Deploying Armies", f"{unit.name} belongs to player {unit.player}")
    if unit.removed is not None:
        raise IllegalAction("Deploying Armies", f"{unit.name} is out of the game")
    return unit


def _check_set_aside(s: GameState, d: DeploymentState, unit: Unit, action: SetAside) -> Unit:
    if unit.pose is not None:
        raise IllegalAction("Deploying Armies", f"{unit.name} is already deployed")
    if unit.id in d.reserves:
        raise IllegalAction("Deploying Armies", f"{unit.name} is already set aside")
    rules = [r for r in SET_ASIDE_RULES if unit.has(r)]
    if not rules:
        raise IllegalAction("Deploying Armies", f"only Scout or Ambush units may be set aside; {unit.name} has "
                            "neither")
    if action.rule is not None and action.rule not in rules:
        raise IllegalAction("Deploying Armies", f"{unit.name} has no {action.rule} rule "
                            f"(it has {' and '.join(rules)})")
    if action.rule is None and len(rules) > 1:
        raise IllegalAction("Deploying Armies", f"{unit.name} has both Scout and Ambush: say which (rule)")
    return unit


def _check_zone(s: GameState, unit: Unit, pose: Pose, reach: float = 0.0) -> None:
    """Rulebook "Deploying Armies": fully within the player's deployment zone (12" of their own table edge, or the
    zone of the deployment style played: AoF:R 2.16 "Deployment Styles"); ``reach`` > 0: fully within that many
    inches of it (the AoF:R quick rules' "Scout")."""
    poly = footprint_polygon(pose, unit.formation)
    zone = zone_polygon(s, unit.player)
    if reach > 0:
        zone = zone.buffer(reach)
    if zone.buffer(_EPS).covers(poly):
        return
    outside = poly.difference(zone).area
    if reach > 0:
        raise IllegalAction("Scout", f"a Scout unit deploys fully within {reach:g}\" of its deployment zone; "
                            f"{outside:.1f} sq in of this unit is outside that", pose.xy)
    style = deployment_styles.STYLES[deployment_styles.style_of(s)]
    raise IllegalAction("Deploying Armies", f"units deploy fully within their deployment zone ({style.name}: "
                        f"{style.summary}); {outside:.1f} sq in of this unit is outside it", pose.xy)


def check_ambush_zone(s: GameState, unit: Unit, pose: Pose, depth: float = AMBUSH_DEPTH) -> None:
    """Rulebook "Ambush" (AoWFBR; the AoF:R quick rules write the same): fully within ``depth`` (6") inches of any
    table edge; raises ``IllegalAction`` naming "Ambush" otherwise."""
    minx, miny, maxx, maxy = footprint_polygon(pose, unit.formation).bounds
    w, d = s.table.width, s.table.depth
    a = depth + _EPS
    if maxy <= a or miny >= d - a or maxx <= a or minx >= w - a:
        return
    raise IllegalAction("Ambush", f"an Ambush unit deploys fully within {depth:g}\" of a table edge",
                        pose.xy)


def check_placement(s: GameState, unit: Unit, pose: Pose, rule: str) -> None:
    """Raises ``IllegalAction`` (naming ``rule`` or the rule broken) unless ``unit`` may be placed at ``pose``: on
    the table, 1" from every other unit, not in impassable terrain (every placement: deployment, Scout, Ambush)."""
    poly = footprint_polygon(pose, unit.formation)
    minx, miny, maxx, maxy = poly.bounds
    if minx < -_EPS or miny < -_EPS or maxx > s.table.width + _EPS or maxy > s.table.depth + _EPS:
        raise IllegalAction(rule, "the unit must be fully on the table", pose.xy)
    for other in s.units.values():
        if other.id != unit.id and other.on_table and \
                poly.distance(s.scene.footprint(other.id)) < 1.0 - _EPS:
            raise IllegalAction("General Movement", f"within 1\" of {other.name}", pose.xy)
    for t in s.terrain:
        if "impassable" in t.traits and overlap_area(poly, t.shape) > 1e-9:
            raise IllegalAction("Impassable Terrain", f"the unit would stand in {t.name}", pose.xy)


def roll_off(dice: Dice, what: str) -> tuple[int, list[Event]]:
    """"Roll-Offs": both players roll one die, re-rolling ties; returns the winner and the roll events."""
    return _roll_off(dice, what, {1: 0, 2: 0})


def _roll_off(dice: Dice, what: str, bonus: dict[int, int]) -> tuple[int, list[Event]]:
    """Both players roll a D6 (+ ``bonus``), re-rolling ties; returns the winner and the roll events."""
    events: list[Event] = []
    attempt = 1
    while True:
        totals: dict[int, int] = {}
        for p in (1, 2):
            purpose = f"{what}: player {p}" + (f" (re-roll {attempt - 1})" if attempt > 1 else "")
            die = dice.one(purpose)
            totals[p] = die + bonus[p]
            text = purpose + (f" +{bonus[p]}" if bonus[p] else "")
            events.append(roll_event(text, [die], modifier=bonus[p], player=p, total=totals[p]))
        if totals[1] != totals[2]:
            return (1 if totals[1] > totals[2] else 2), events
        events.append(Event("info", f"{what}: a tie ({totals[1]} each), both players roll again", {}))
        attempt += 1


def _choose_deployment(s: GameState, d: DeploymentState, action: ChooseDeployment, dice: Dice) -> list[Event]:
    winner = action.player
    edge = action.edge or own_edge(winner)
    d.edge = edge
    d.first_deployer = action.first
    events = []
    if edge != own_edge(winner):
        _rotate_table(s)
        d.rotated = True
        events.append(Event("terrain", "The table is turned around (the terrain rotated 180° about the centre): "
                            f"player {winner} deploys along the edge they chose", {"rotated": True}))
    events.insert(0, Event("deploy", f"Player {winner} chooses the {edge} edge of the table as it was set up; "
                           f"player {action.first} places the first unit", {"edge": edge, "first": action.first}))
    d.set_aside_order = [p for p in (action.first, 3 - action.first)]
    return events + _next(s, dice)


def _objectives(s: GameState, d: DeploymentState, action: ChooseObjectiveOrder | PlaceObjective,
                dice: Dice) -> list[Event]:
    """The order of placement is chosen, or one marker is placed (players alternate); after the last one, the
    deployment roll-off."""
    if isinstance(action, ChooseObjectiveOrder):
        d.stage = "objectives"
        s.step = Step.PLACE_OBJECTIVES
        events = [Event("objective", f"Player {action.player} chooses: player {action.first} places the first "
                        "objective marker", {"first": action.first})]
        return events + _next_marker(s, d, action.first, dice)
    objectives.placed(s, action.player, action.x, action.y)
    n = len(s.objectives)
    events = [Event("objective", f"Player {action.player} places objective marker {n} of {d.objectives_to_place} "
                    f"at ({action.x:.1f}, {action.y:.1f})", {"objective": n - 1, "x": action.x, "y": action.y})]
    return events + _next_marker(s, d, 3 - action.player, dice)


def _next_marker(s: GameState, d: DeploymentState, player: int, dice: Dice) -> list[Event]:
    """``player`` places the next marker; or, every marker placed or no spot left for the next one (a small table,
    a random mission that does not fit it), the placing ends and the deployment roll-off follows: the mission is
    played with the markers placed (docs/rulings.md "Objective markers that do not fit")."""
    n = len(s.objectives)
    events: list[Event] = []
    if n < d.objectives_to_place:
        if objectives.room_for_marker(s, player):
            s.pending = Pending(player, "place_objective")
            return events
        events.append(Event("objective", f"No room is left for objective marker {n + 1} (the mission's placing "
                            f"rules): the mission is played with {n}", {"placed": n, "rolled": d.objectives_to_place}))
        d.objectives_to_place = n
    d.stage = "choose"
    return events + _deployment_roll_off(s, d, dice)


def _rotate_table(s: GameState) -> None:
    """Turn every terrain piece (and objective marker) 180 degrees about the table centre and rebuild the geometry
    cache."""
    objectives.rotate(s)
    w, dep = s.table.width, s.table.depth
    s.terrain = [TerrainShape(t.index, t.name, tuple((w - x, dep - y) for x, y in t.polygon), t.traits, t.height)
                 for t in s.terrain]
    s.scene = Scene(w, dep, s.terrain)
    for u in s.units.values():
        if u.on_table:
            assert u.pose is not None
            s.scene.set_unit(u.id, u.player, u.pose, u.formation)


def _next(s: GameState, dice: Dice) -> list[Event]:
    """Move on to the next decision of the sequence (set-asides, placements, Scouts, first-turn roll-off)."""
    d = progress(s)
    assert d is not None
    while d.set_aside_order:
        p = d.set_aside_order[0]
        options = may_set_aside(s, p)
        if options:
            d.stage = "set_aside"
            s.step = Step.SET_ASIDE
            s.pending = Pending(p, "set_aside", None, tuple(options))
            return []
        d.set_aside_order.pop(0)
    waiting = {p: to_place(s, p) for p in (1, 2)}
    if waiting[1] or waiting[2]:
        assert d.first_deployer is not None
        p = d.first_deployer if d.last_placer is None else 3 - d.last_placer
        if not waiting[p]:
            p = 3 - p
        d.stage = "place"
        s.step = Step.DEPLOY
        s.pending = Pending(p, "deploy", None, tuple(waiting[p]))
        return []
    scouts = {p: reserves_of(s, p, "Scout") for p in (1, 2)}
    events: list[Event] = []
    if scouts[1] or scouts[2]:
        if d.scout_last is not None:
            p = 3 - d.scout_last
        elif d.scout_reach is not None and d.roll_off_winner is not None:
            p = d.roll_off_winner        # the quick rules: "starting with the player that activates next"
        elif d.scout_roll_off and scouts[1] and scouts[2]:
            p, events = _roll_off(dice, "Scout roll-off", {1: 0, 2: 0})
            events.append(Event("deploy", f"Player {p} wins the Scout roll-off and places the first Scout unit",
                                {"roll_off": "scout", "winner": p}))
        elif d.last_placer is not None:
            p = 3 - d.last_placer
        else:
            assert d.first_deployer is not None
            p = d.first_deployer
        if not scouts[p]:
            p = 3 - p
        d.stage = "scout"
        s.step = Step.DEPLOY
        s.pending = Pending(p, "deploy", None, tuple(scouts[p]))
        return events
    return _first_turn_roll_off(s, dice)


def _first_turn_roll_off(s: GameState, dice: Dice) -> list[Event]:
    """Rulebook "Playing the Game": roll-off, +1 for the player who finished deploying first; ties re-roll.
    Without a first-turn roll-off (AoF:R 2.16) deployment ends here: ``_deployment_winner_first``."""
    d = progress(s)
    assert d is not None
    if not d.first_turn_roll_off:
        return _deployment_winner_first(s, d, dice)
    last = {p: max((i for i, q in enumerate(d.placements) if q == p), default=-1) for p in (1, 2)}
    d.finished_first = None if last[1] == last[2] else (1 if last[1] < last[2] else 2)
    bonus = {p: 1 if d.finished_first == p else 0 for p in (1, 2)}
    events = [Event("deploy", "Deployment is over" + (f"; player {d.finished_first} finished first and adds +1 to the "
                                                      "first-turn roll-off" if d.finished_first else ""),
                    {"finished_first": d.finished_first})]
    winner, roll_events = _roll_off(dice, "First-turn roll-off", bonus)
    d.first_turn_winner = winner
    events += roll_events
    events.append(Event("deploy", f"Player {winner} wins the first-turn roll-off and decides who takes the first turn",
                        {"roll_off": "first_turn", "winner": winner}))
    d.stage = "first_turn"
    s.step = Step.FIRST_TURN
    s.pending = Pending(winner, "choose_first_turn", None, ("1", "2"))
    return events


def _deployment_winner_first(s: GameState, d: DeploymentState, dice: Dice) -> list[Event]:
    """AoF:R 2.16 "Game Structure": "the player that won the deployment roll-off takes the first turn". When every
    unit was placed by the scenario there was no deployment roll-off: it is rolled now for the first turn
    (docs/rulings.md)."""
    events: list[Event] = [Event("deploy", "Deployment is over", {})]
    winner = d.roll_off_winner
    if winner is None:
        winner, roll_events = _roll_off(dice, "Deployment roll-off", {1: 0, 2: 0})
        d.roll_off_winner = winner
        events += roll_events
    s.first_player = winner
    d.stage = "done"
    events.append(Event("deploy", f"Player {winner} won the deployment roll-off and activates first",
                        {"first_player": winner}))
    return events


def _end_ambush(s: GameState, d: DeploymentState) -> list[Event]:
    """Leave step 1.1 and resume the strategy step the turn was at."""
    assert d.resume is not None
    s.step, s.pending = d.resume
    d.resume = None
    return []


def _pose(p: Pose) -> dict[str, float]:
    return {"x": p.x, "y": p.y, "facing": p.facing}


__all__ = [
    "AMBUSH_DEPTH", "DEPLOYMENT_DEPTH", "DONE_STEPS", "DeploymentState", "EDGES", "SCOUT_DISTANCE", "SET_ASIDE_RULES",
    "after_side_missions", "ambush_step", "apply", "begin", "check", "check_placement", "deploy_zone", "finished",
    "may_set_aside", "own_edge", "roll_off",
    "progress", "reserves_of", "to_place", "zone_polygon",
]
