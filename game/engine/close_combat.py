"""The Close Combat Phase (turn sequence 5.1-5.6): every combat is fought, resolved, tested, and followed by its
flight, pursuit, retreat, follow up and consolidation moves before the next combat (rulebook "Melee",
"Consolidation Moves", "Flight Moves", "Pursuit Moves", "Consolidation Moves and Multiple Units", "Morale").

Interface used by the turn sequence (``game.engine.game``):

* ``start_close_combat(state, dice)``: find the combats, store the progress in ``state.combat``.
* ``advance_close_combat(state, dice)``: do everything automatic until a player decision is needed or the phase
  is over.
* ``close_combat_pending(state)``: the decision waited for (``Pending`` with decision ``pursue``,
  ``pursue_target``, ``follow_up``, ``consolidate`` or ``pivot_to_face``; ``player`` is the owner of ``unit``), or
  None when the phase is finished.
* ``apply_close_combat_action(state, dice, action)``: answer that decision with ``Pursue``, ``FollowUp``,
  ``Consolidate``, ``PivotToFace`` or ``Done`` (skip a consolidation or a pivot to face); then continues like
  ``advance_close_combat``.

Fighting, resolution and the morale tests live in ``game.engine.melee``; flight and pursuit in
``game.engine.flight``; consolidation moves, retreats and follow ups in ``game.engine.consolidation``.

Rulings made here (for docs/rulings.md):

* Combats are the connected groups of engaged units, found at the start of the phase in the order of the active
  player's units (scenario order), then the other player's; within a combat the active player's units come
  first. Each unit fights once per phase.
* After the morale tests, every winning unit gets at most one of: pursue, follow up, consolidation move. It gets
  none while it is Shaken (Shaken units stay idle) or still bound in combat with an enemy that passed its test
  (or an Immobile one that stays). Its target is chosen by the precedence of "Consolidation Moves and Multiple
  Units": the front facing before the flanks before the rear, then follow up before pursuit within that facing;
  units already claimed by another winner of the combat are ignored. With several candidates in the facing its
  player chooses (decision ``pursue_target`` after the flight moves, ``follow_up`` with the candidates as options
  after the retreats); only follow ups that can reach their unit are offered.
* Order within a combat: pursue decisions (and the morale test of a winner that declines), all flight moves,
  all pursuit moves, fleeing units still within 1" of an enemy caught and routed (``flight.catch_cornered``;
  whoever pursued them may then consolidate), all retreats, follow up decisions and moves, consolidation moves
  (3" or pivot), pivots to face, closing gaps.
* Entrenched and Immobile winners cannot pursue or follow up: they get a consolidation move instead without a
  morale test (Immobile: the 180 degree pivot only).
* Pivot to face (after a passed test, or a tie) is offered to every winning unit (every unit in a tie, active
  player's first) that has no enemy in its front arc (decision ``pivot_to_face``, options: the flank enemies,
  then the rear enemies it has room to face); it turns to face the chosen enemy and is placed flush against the
  side of that enemy it touched; other enemies that lost contact or now overlap it are moved flush against the
  side of it nearest to them.
* Closing gaps (``consolidation.close_gaps``): an engaged pair out of base contact is put back in contact by a
  straight move of one of them (forward, then sideways, then backward) or, failing that, by placing it flush
  against the other; the mover keeps touching every enemy it touches and 1" from units outside the combat. A gap
  that cannot be closed leaves the two locked in combat (docs/rulings.md).
* ``fights_as_charger`` and ``first_round_with`` are cleared for every unit of a combat once it is resolved;
  a unit that follows up gets ``fights_as_charger`` again, and both units get each other in ``first_round_with``
  (it fights next turn "as if it charged": Impact hits, +1 charge bonus, the enemy's Counter).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from game.engine.actions import Action, Consolidate, Done, FollowUp, PivotToFace, Pursue
from game.engine.consolidation import (
    close_gaps,
    consolidation_move,
    follow_up_move,
    pivot_candidates,
    pivot_to_face,
    plan_follow_up,
    retreat,
)
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.flight import FlightOutcome, catch_cornered, flee, pursue
from game.engine.melee import FLEES, PASSED, SHAKEN, STAYS, fight, melee_morale_test, resolve
from game.engine.morale import morale_test
from game.engine.special_rules import immobile, no_pursuit_or_follow_up
from game.engine.state import GameState, Pending, Removal, Unit
from geometry.arcs import Arc
from geometry.pose import Pose

DESTROYED = "destroyed"
ROUTED = "routed"
"""Loser outcomes besides those of ``melee``: destroyed in the fight, routed (an Immobile unit that had to flee)."""

_FACING_GROUPS: tuple[tuple[Arc, ...], ...] = ((Arc.FRONT,), (Arc.LEFT, Arc.RIGHT), (Arc.REAR,))
"""Rulebook "Consolidation Moves and Multiple Units": front before flank before rear."""


@dataclass
class Plan:
    """What one winning unit does after the morale tests."""

    unit: str
    """The winning unit."""
    kind: str
    """"pursue", "follow_up" or "consolidate"."""
    targets: list[str] = field(default_factory=list)
    """Candidate enemies (pursue / follow up), combat order."""
    pursue: bool | None = None
    """Pursuit: True once it will pursue (chosen, or forced by a failed test), False if it declined and passed."""


@dataclass
class Aftermath:
    """Progress of one combat after its melee resolution."""

    units: list[str]
    """The combat's units, active player's first."""
    winner: int | None
    """Winning player, None for a tie."""
    outcomes: dict[str, str]
    """Each losing unit's outcome: passed, shaken (retreats), flees, stays, destroyed, routed."""
    before: dict[str, dict[str, Arc]]
    """Contact arcs of every unit at the start of the fight."""
    after: dict[str, dict[str, Arc]]
    """Contact arcs of every unit still on the table after the fight."""
    plans: list[Plan] = field(default_factory=list)
    """What each winning unit may do, combat order."""
    stage: str = "pursue_decisions"
    """pursue_decisions, flights, pursuits, retreats, follow_up_decisions, consolidations, pivots, done."""
    queue: deque[str] = field(default_factory=deque)
    """Units waiting for a decision in the current stage."""
    flights: dict[str, FlightOutcome] = field(default_factory=dict)
    """Flight moves made, by fleeing unit (their line is the pursuit line)."""
    retreats: dict[str, tuple[Pose, Pose]] = field(default_factory=dict)
    """Retreats made, by retreating unit: (pose before, pose after)."""
    claimed: set[str] = field(default_factory=set)
    """Losers already pursued or followed up (ignored as targets by later winners)."""
    consolidate: list[str] = field(default_factory=list)
    """Units allowed a consolidation move (3" or a pivot), in order."""
    followed: set[str] = field(default_factory=set)
    """Winners that followed up (they fight next turn as chargers)."""
    pursued: dict[str, str] = field(default_factory=dict)
    """Pursuit moves made: pursuing unit -> the fleeing unit it pursued."""

    def plan(self, unit_id: str) -> Plan:
        """The plan of ``unit_id``; raises ``KeyError``."""
        for p in self.plans:
            if p.unit == unit_id:
                return p
        raise KeyError(unit_id)


@dataclass
class CombatPhase:
    """Progress through the Close Combat Phase (kept in ``GameState.combat``)."""

    combats: list[list[str]]
    """The combats found at the start of the phase, in the order they are fought."""
    index: int = 0
    """The combat being fought or next to fight."""
    current: Aftermath | None = None
    """The combat in its post-resolution moves, if any."""
    pending: Pending | None = None
    """The decision waited for."""
    fought: set[str] = field(default_factory=set)
    """Units that already fought this phase."""
    finished: bool = False
    """True once every combat is resolved."""


# --- finding the combats ---------------------------------------------------------------------------------------


def _unit_order(state: GameState) -> list[str]:
    """Unit ids: the active player's in scenario order, then the other player's."""
    ids = list(state.units)
    return [u for u in ids if state.units[u].player == state.active_player] + \
        [u for u in ids if state.units[u].player != state.active_player]


def _component(state: GameState, seeds: list[str], skip: set[str]) -> list[str]:
    """The connected group of engaged units on the table reachable from ``seeds``, in ``_unit_order``."""
    seen: set[str] = set()
    stack = [s for s in seeds if s in state.units and state.units[s].on_table and s not in skip]
    while stack:
        uid = stack.pop()
        if uid in seen:
            continue
        seen.add(uid)
        for other in state.units[uid].engaged_with:
            o = state.units.get(other)
            if o is not None and o.on_table and other not in seen and other not in skip:
                stack.append(other)
    return [u for u in _unit_order(state) if u in seen]


def find_combats(state: GameState) -> list[list[str]]:
    """Every combat: each connected group of units locked in melee (rulebook "Multiple Units in Combat"), in the
    order of the active player's units; each group lists the active player's units first (scenario order)."""
    out: list[list[str]] = []
    seen: set[str] = set()
    for uid in _unit_order(state):
        unit = state.units[uid]
        if uid in seen or not unit.on_table or not unit.engaged:
            continue
        group = _component(state, [uid], set())
        if len(group) >= 2:
            out.append(group)
        seen.update(group)
    return out


# --- the interface -------------------------------------------------------------------------------------------------


def _phase(state: GameState) -> CombatPhase:
    phase = state.combat
    if not isinstance(phase, CombatPhase):
        raise IllegalAction("Close Combat Phase", "the close combat phase has not started")
    return phase


def start_close_combat(state: GameState, dice: Dice) -> list[Event]:
    """Begin the Close Combat Phase (turn sequence 5): find every combat and store the progress in
    ``state.combat`` (a ``CombatPhase``). Units not in melee lose ``fights_as_charger`` and ``first_round_with``
    (a charge that did not end in melee gives no bonus later). Rolls nothing; returns an ``info`` event listing the
    combats."""
    for unit in state.units.values():  # a charge that did not end in melee (target fled, charge failed)
        if not unit.engaged:
            unit.fights_as_charger = False
            unit.first_round_with.clear()
    combats = find_combats(state)
    state.combat = CombatPhase(combats)
    if not combats:
        return [Event("info", "No units are in melee", {"combats": []})]
    names = ["; ".join(state.units[u].name for u in c) for c in combats]
    return [Event("info", f"{len(combats)} combat{'s' if len(combats) != 1 else ''} to fight: "
                  + " | ".join(names), {"combats": [list(c) for c in combats]})]


def close_combat_pending(state: GameState) -> Pending | None:
    """The decision the close combat phase waits for, or None when the phase is finished.

    Decisions: ``pursue`` (options true/false, before the flight rolls), ``pursue_target`` (options: the fleeing
    units it may pursue, answered by ``Pursue`` with ``target``), ``follow_up`` (options: the retreated units it
    may follow up; ``FollowUp`` with ``target``, or ``follow_up`` false), ``consolidate`` (answer with
    ``Consolidate`` or ``Done``), ``pivot_to_face`` (options: the enemies it may face; ``PivotToFace`` or
    ``Done``). ``player`` is the owner of ``unit``.
    """
    phase = state.combat
    if not isinstance(phase, CombatPhase) or phase.finished:
        return None
    return phase.pending


def advance_close_combat(state: GameState, dice: Dice) -> list[Event]:
    """Run the phase until a player decision is needed or every combat is resolved; returns the events.

    Does nothing while a decision is pending. Raises ``IllegalAction`` if the phase has not started.
    """
    phase = _phase(state)
    events: list[Event] = []
    while phase.pending is None and not phase.finished:
        if phase.current is None:
            if phase.index >= len(phase.combats):
                phase.finished = True
                events.append(Event("info", "Every combat is resolved", {}))
                break
            order = _component(state, phase.combats[phase.index], phase.fought)
            if len({state.units[u].player for u in order}) < 2:
                phase.index += 1
                continue
            events += _fight_combat(state, dice, phase, order)
            continue
        events += _run_stage(state, dice, phase)
    return events


def apply_close_combat_action(state: GameState, dice: Dice, action: Action) -> list[Event]:
    """Answer the pending close combat decision with ``action`` and continue the phase; returns the events.

    ``pursue``: ``Pursue(unit, pursue)``; declining makes the unit take a morale test and pursue if it fails.
    ``follow_up``: ``FollowUp(unit, follow_up)``. ``consolidate``: ``Consolidate(unit, path)`` (a pivot in
    place of up to 180 degrees, or a straight move of up to 3" keeping the facing; see
    ``consolidation.consolidation_move``) or ``Done`` to skip. Raises ``IllegalAction`` (state unchanged) for an
    action that does not answer the decision or an illegal consolidation.
    """
    phase = _phase(state)
    pending = phase.pending
    if pending is None:
        raise IllegalAction("Close Combat Phase", "no close combat decision is waited for")
    if action.player != pending.player:
        raise IllegalAction("Close Combat Phase", f"player {pending.player} must decide now ({pending.decision} "
                                                  f"for {pending.unit})")
    after = phase.current
    assert after is not None and pending.unit is not None
    unit = state.unit(pending.unit)
    events: list[Event] = []
    if pending.decision == "pursue":
        if not isinstance(action, Pursue) or action.unit != unit.id:
            raise IllegalAction("Pursuit Moves", f"{unit.name} must decide whether to pursue (pursue)")
        plan = after.plan(unit.id)
        if action.target is not None and plan.targets != [action.target]:
            raise IllegalAction("Consolidation Moves and Multiple Units",
                                f"{unit.name} chooses which fleeing unit to pursue after the flight moves; now it "
                                "only decides whether to pursue")
        events += _decide_pursuit(state, dice, after, unit, action.pursue)
    elif pending.decision == "pursue_target":
        if not isinstance(action, Pursue) or action.unit != unit.id or not action.pursue:
            raise IllegalAction("Consolidation Moves and Multiple Units",
                                f"{unit.name} pursues: choose which fleeing unit ({', '.join(pending.options)})")
        if action.target not in pending.options:
            raise IllegalAction("Consolidation Moves and Multiple Units",
                                f"{unit.name} has to choose which one to pursue: {', '.join(pending.options)}")
        events += _pursuit(state, dice, after, after.plan(unit.id), action.target)
    elif pending.decision == "follow_up":
        if not isinstance(action, FollowUp) or action.unit != unit.id:
            raise IllegalAction("Consolidation Moves", f"{unit.name} must decide whether to follow up (follow_up)")
        target = action.target
        if action.follow_up:
            if target is None and len(pending.options) == 1:
                target = pending.options[0]
            if target not in pending.options:
                raise IllegalAction("Consolidation Moves and Multiple Units",
                                    f"{unit.name} has to choose which one to follow up: {', '.join(pending.options)}")
        events += _decide_follow_up(state, dice, after, unit, action.follow_up, target)
    elif pending.decision == "pivot_to_face":
        if isinstance(action, Done):
            events.append(Event("info", f"{unit.name} does not pivot to face", {"unit": unit.id, "pivot": False}))
        elif isinstance(action, PivotToFace) and action.unit == unit.id:
            target = action.target
            if target is None and len(pending.options) == 1:
                target = pending.options[0]
            if target not in pending.options:
                raise IllegalAction("Consolidation Moves", f"{unit.name} may pivot to face "
                                    f"{' or '.join(pending.options)} (pivot_to_face), or not (done)")
            events += pivot_to_face(state, unit, after.units, target)
        else:
            raise IllegalAction("Consolidation Moves", f"{unit.name} may pivot to face an enemy in its flank or rear "
                                                       "(pivot_to_face), or not (done)")
    elif pending.decision == "consolidate":
        if isinstance(action, Done):
            events.append(Event("consolidate", f"{unit.name} makes no consolidation move",
                                {"unit": unit.id, "kind": "skip"}))
        elif isinstance(action, Consolidate) and action.unit == unit.id:
            events += consolidation_move(state, dice, unit, action.path)
        else:
            raise IllegalAction("Consolidation Moves", f"{unit.name} may pivot up to 180° or move up to 3\" "
                                                       "(consolidate), or skip it (done)")
    else:  # pragma: no cover - no other decisions are made here
        raise IllegalAction("Close Combat Phase", f"unknown decision {pending.decision}")
    after.queue.popleft()
    phase.pending = None
    return events + advance_close_combat(state, dice)


# --- fighting one combat -----------------------------------------------------------------------------------------


def _fight_combat(state: GameState, dice: Dice, phase: CombatPhase, order: list[str]) -> list[Event]:
    """Fight, resolve and test one combat; set up its post-resolution moves in ``phase.current``."""
    names = " vs ".join(
        ", ".join(state.units[u].name for u in order if state.units[u].player == p)
        for p in sorted({state.units[u].player for u in order}, key=lambda p: (p != state.active_player, p)))
    events = [Event("info", f"Combat: {names}", {"units": list(order), "combat": phase.index})]
    before = {u: dict(state.units[u].contact_arcs) for u in order}
    result = fight(state, dice, order)
    events += result.events
    res = resolve(state, order, result.caused)
    events += res.events
    outcomes: dict[str, str] = {}
    if res.winner is not None:
        for uid in order:
            unit = state.units[uid]
            if unit.player == res.winner:
                continue
            if not unit.on_table:
                outcomes[uid] = DESTROYED
                continue
            outcome, evs = melee_morale_test(state, dice, unit, res.difference)
            events += evs
            if outcome == FLEES and immobile(unit):
                state.remove(unit, Removal.ROUTED)
                events.append(Event("rout", f"{unit.name} is Immobile and cannot flee: it is routed",
                                    {"unit": unit.id, "reason": "immobile"}))
                outcome = ROUTED
            outcomes[uid] = outcome
    after = {u: dict(state.units[u].contact_arcs) for u in order if state.units[u].on_table}
    for uid in order:  # the charge is over: next round they fight as equals (unless following up)
        unit = state.units[uid]
        unit.fights_as_charger = False
        unit.first_round_with.clear()
    phase.fought.update(order)
    aftermath = Aftermath(list(order), res.winner, outcomes, before, after)
    phase.current = aftermath
    if res.winner is not None:
        _make_plans(state, aftermath)
    aftermath.queue = deque(p.unit for p in aftermath.plans if p.kind == "pursue")
    return events


def _make_plans(state: GameState, a: Aftermath) -> None:
    """Decide what each winning unit may do (see the module rulings)."""
    for uid in a.units:
        unit = state.units[uid]
        if unit.player != a.winner or not unit.on_table or unit.shaken:
            continue
        enemies = a.after.get(uid, {})
        if any(a.outcomes.get(e) in (PASSED, STAYS) for e in enemies):
            continue  # still bound in combat
        leaving = {e: arc for e, arc in enemies.items() if a.outcomes.get(e) in (FLEES, SHAKEN)}
        plan: Plan | None = None
        for group in _FACING_GROUPS:
            members = [e for e in a.units if e in leaving and leaving[e] in group and e not in a.claimed]
            if not members:
                continue
            retreating = [e for e in members if a.outcomes[e] == SHAKEN]
            fleeing = [e for e in members if a.outcomes[e] == FLEES]
            plan = Plan(uid, "follow_up", retreating) if retreating else Plan(uid, "pursue", fleeing)
            break
        if plan is None or no_pursuit_or_follow_up(unit):
            plan = Plan(uid, "consolidate")
        if len(plan.targets) == 1:
            a.claimed.add(plan.targets[0])
        a.plans.append(plan)
        if plan.kind == "consolidate":
            # its enemies were destroyed or routed, or it cannot pursue or follow up (Entrenched, Immobile), or
            # every leaving enemy is already chased by another winner
            a.consolidate.append(uid)


# --- the stages after resolution -------------------------------------------------------------------------------


def _owner_pending(state: GameState, unit_id: str, decision: str, options: tuple[str, ...] = ()) -> Pending:
    return Pending(state.units[unit_id].player, decision, unit_id, options)


def _run_stage(state: GameState, dice: Dice, phase: CombatPhase) -> list[Event]:
    """Advance the current combat's moves by one stage (``_STAGES``), or set ``phase.pending``."""
    a = phase.current
    assert a is not None
    stage = _STAGES.get(a.stage)
    if stage is None:       # "done": the next combat
        phase.current = None
        phase.index += 1
        return []
    return stage(state, dice, phase, a)


def _stage_pursue_decisions(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Consolidation Moves": each winner whose enemy flees decides whether to pursue."""
    events: list[Event] = []
    while a.queue:
        uid = a.queue[0]
        unit = state.units[uid]
        if unit.on_table:
            phase.pending = _owner_pending(state, uid, "pursue", ("true", "false"))
            return events
        a.queue.popleft()
    a.stage = "flights"
    return events


def _stage_flights(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Flight Moves": each unit that flees makes its flight move away from its enemies."""
    events: list[Event] = []
    for uid in a.units:
        if a.outcomes.get(uid) != FLEES:
            continue
        unit = state.units[uid]
        if not unit.on_table:
            continue
        arcs = a.after.get(uid) or a.before.get(uid, {})
        attackers = [(e, arc) for e, arc in arcs.items() if state.units[e].player != unit.player]
        if not attackers:
            continue
        outcome = flee(state, dice, unit, attackers)
        a.flights[uid] = outcome
        events += outcome.events
    a.stage = "pursuits"
    a.queue = deque(p.unit for p in a.plans if p.kind == "pursue" and p.pursue)
    return events


def _stage_pursuits(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Pursuit Moves": pursuers move (choosing among several fleeing enemies); a fleeing unit still
    within 1" of an enemy is caught; pursuers whose target left the table consolidate."""
    events: list[Event] = []
    while a.queue:
        uid = a.queue[0]
        unit = state.units[uid]
        plan = a.plan(uid)
        candidates = _pursuit_candidates(a, plan) if unit.on_table and not unit.engaged else []
        if len(candidates) > 1:  # "it has to choose which one to pursue (after flight moves have been made)"
            phase.pending = _owner_pending(state, uid, "pursue_target", tuple(candidates))
            return events
        a.queue.popleft()
        if candidates:
            events += _pursuit(state, dice, a, plan, candidates[0])
        elif unit.on_table and not unit.engaged:
            a.consolidate.append(unit.id)
            events.append(Event("info", f"{unit.name} has no fleeing enemy left to pursue", {"unit": unit.id}))
    # a fleeing unit still within 1" of an enemy after the pursuits could not get away: it is caught
    for uid in a.flights:
        unit = state.units[uid]
        if unit.on_table:
            events += catch_cornered(state, unit, [e for e in a.units if e != uid])
    for pursuer, target in a.pursued.items():
        unit = state.units[pursuer]
        if unit.on_table and not unit.engaged and not state.units[target].on_table \
                and pursuer not in a.consolidate:
            a.consolidate.append(pursuer)
    a.stage = "retreats"
    return events


def _stage_retreats(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Consolidation Moves": each Shaken loser retreats D3+3" straight back."""
    events: list[Event] = []
    for uid in a.units:
        unit = state.units[uid]
        if a.outcomes.get(uid) == SHAKEN and unit.on_table:
            evs, start, end = retreat(state, dice, unit)
            events += evs
            a.retreats[uid] = (start, end)
    a.stage = "follow_up_decisions"
    a.queue = deque(p.unit for p in a.plans if p.kind == "follow_up")
    return events


def _stage_follow_up_decisions(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Consolidation Moves": each winner whose enemy retreated may follow up."""
    events: list[Event] = []
    while a.queue:
        uid = a.queue[0]
        unit = state.units[uid]
        plan = a.plan(uid)
        candidates = _follow_candidates(state, a, plan) if unit.on_table and not unit.engaged else []
        if candidates:
            phase.pending = _owner_pending(state, uid, "follow_up", tuple(candidates))
            return events
        a.queue.popleft()
        if unit.on_table and not unit.engaged:
            a.consolidate.append(uid)
    a.stage = "consolidations"
    a.queue = deque(dict.fromkeys(a.consolidate))
    return events


def _stage_consolidations(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Consolidation Moves": units free of melee (not Shaken) may make a consolidation move."""
    events: list[Event] = []
    while a.queue:
        uid = a.queue[0]
        unit = state.units[uid]
        if unit.on_table and not unit.engaged and not unit.shaken:
            phase.pending = _owner_pending(state, uid, "consolidate")
            return events
        a.queue.popleft()
    a.stage = "pivots"
    # after a tie every unit, else the winner's units (active player's first) may pivot to face
    a.queue = deque(u for u in a.units if a.winner is None or state.units[u].player == a.winner)
    return events


def _stage_pivots(state: GameState, dice: Dice, phase: CombatPhase, a: Aftermath) -> list[Event]:
    """Rulebook "Consolidation Moves": after a tie every unit, else the winner's, may pivot to face an enemy;
    then the gaps between units still in melee are closed."""
    events: list[Event] = []
    while a.queue:
        uid = a.queue[0]
        unit = state.units[uid]
        candidates = pivot_candidates(state, unit, a.units) if unit.on_table and unit.engaged else []
        if candidates:
            phase.pending = _owner_pending(state, uid, "pivot_to_face", tuple(candidates))
            return events
        a.queue.popleft()
    events += close_gaps(state, a.units)
    a.stage = "done"
    return events


_STAGES: dict[str, Callable[[GameState, Dice, CombatPhase, Aftermath], list[Event]]] = {
    "pursue_decisions": _stage_pursue_decisions,
    "flights": _stage_flights,
    "pursuits": _stage_pursuits,
    "retreats": _stage_retreats,
    "follow_up_decisions": _stage_follow_up_decisions,
    "consolidations": _stage_consolidations,
    "pivots": _stage_pivots,
}
"""The stages of a combat's moves after melee resolution, in order; each sets ``a.stage`` to the next."""


def _decide_pursuit(state: GameState, dice: Dice, a: Aftermath, unit: Unit, wants: bool) -> list[Event]:
    """Rulebook "Consolidation Moves": pursue, or take a morale test and pursue anyway if it fails."""
    plan = a.plan(unit.id)
    if wants:
        plan.pursue = True
        return [Event("info", f"{unit.name} will pursue", {"unit": unit.id, "pursue": True})]
    test = morale_test(dice, unit, [], "to hold back from pursuing")
    events = list(test.events)
    if test.passed:
        plan.pursue = False
        a.consolidate.append(unit.id)
        events.append(Event("info", f"{unit.name} holds back and does not pursue",
                            {"unit": unit.id, "pursue": False}))
    else:
        plan.pursue = True
        events.append(Event("info", f"{unit.name} fails to hold back and must pursue",
                            {"unit": unit.id, "pursue": True, "forced": True}))
    return events


def _pursuit_candidates(a: Aftermath, plan: Plan) -> list[str]:
    """Fleeing enemies ``plan.unit`` may pursue: they made a flight move (off the table too: the pursuit move is
    still made) and are not pursued by, or the only quarry of, another pursuing winner (rulebook "Consolidation
    Moves and Multiple Units": units already pursued may be ignored)."""
    taken = set(a.pursued.values()) | {t for p in a.plans if p is not plan and p.kind == "pursue" and p.pursue
                                       and p.unit not in a.pursued and len(p.targets) == 1 for t in p.targets}
    return [t for t in plan.targets if t in a.flights and t not in taken]


def _pursuit(state: GameState, dice: Dice, a: Aftermath, plan: Plan, target: str) -> list[Event]:
    """Make one pursuit move of ``plan.unit`` after ``target`` (rulebook "Pursuit Moves"); a routed target lets the
    pursuer consolidate."""
    unit = state.units[plan.unit]
    if not unit.on_table or unit.engaged:
        return []
    a.claimed.add(target)
    a.pursued[unit.id] = target
    flight = a.flights[target]
    outcome = pursue(state, dice, unit, target, flight.bearing, flight.start.xy)
    events = list(outcome.events)
    if unit.on_table and (outcome.caught or not state.units[target].on_table):
        a.consolidate.append(unit.id)
    return events


def _follow_args(state: GameState, a: Aftermath, unit: Unit, target_id: str
                 ) -> tuple[tuple[float, float], Arc, Arc, list[str]]:
    """(retreat vector, arc of ``unit`` that touched it, side of it touched, other retreated enemies of ``unit``)
    for a follow up of ``target_id``."""
    start, end = a.retreats[target_id]
    vector = (end.x - start.x, end.y - start.y)
    arc_w = a.after[unit.id].get(target_id, Arc.FRONT)
    side_l = a.after.get(target_id, {}).get(unit.id, Arc.FRONT)
    return vector, arc_w, side_l, [t for t in a.retreats if t != target_id and t in a.after[unit.id]]


def _follow_candidates(state: GameState, a: Aftermath, plan: Plan) -> list[str]:
    """Retreated enemies ``plan.unit`` may follow up: on the table, not in melee, not claimed by another winner,
    and reachable (rulebook "Consolidation Moves and Multiple Units": "If making contact with the chosen unit
    becomes impossible another unit has to be followed instead")."""
    others = {t for p in a.plans if p is not plan and p.kind == "follow_up" and len(p.targets) == 1
              for t in p.targets} | (a.claimed - set(plan.targets if len(plan.targets) == 1 else ()))
    unit = state.units[plan.unit]
    out = []
    for t in plan.targets:
        u = state.units[t]
        if t in a.retreats and u.on_table and not u.engaged and t not in others:
            vector, arc_w, side_l, also = _follow_args(state, a, unit, t)
            if not isinstance(plan_follow_up(state, unit, u, vector, arc_w, side_l, also), Event):
                out.append(t)
    return out


def _decide_follow_up(state: GameState, dice: Dice, a: Aftermath, unit: Unit, wants: bool,
                      target_id: str | None = None) -> list[Event]:
    """Rulebook "Consolidation Moves": follow up the retreating enemy ``target_id`` (one of ``_follow_candidates``),
    or consolidate instead."""
    if not wants or target_id is None:
        a.consolidate.append(unit.id)
        return [Event("info", f"{unit.name} does not follow up", {"unit": unit.id, "follow_up": False})]
    vector, arc_w, side_l, also = _follow_args(state, a, unit, target_id)
    events, ok = follow_up_move(state, dice, unit, state.units[target_id], vector, arc_w, side_l, also)
    if ok:
        a.claimed.add(target_id)
        a.followed.add(unit.id)
        return events
    a.consolidate.append(unit.id)
    events.append(Event("info", f"{unit.name} cannot reach a retreating enemy and does not follow up",
                        {"unit": unit.id, "follow_up": False}))
    return events


def awaiting_pursuit(state: GameState) -> tuple[frozenset[str], frozenset[str]]:
    """(fleeing units, the units of their combat) while the combat being resolved has made its flight moves and
    its pursuit moves are still to come (stage ``pursuits``, e.g. decision ``pursue_target``): a flight blocked at
    once leaves its unit within 1" of the winner until then; after the pursuits one still within 1" of an enemy is
    caught (``flight.catch_cornered``; docs/rulings.md "A flight that cannot get away"). Empty sets otherwise."""
    phase = state.combat
    current = phase.current if isinstance(phase, CombatPhase) else None
    if current is None or current.stage != "pursuits":
        return frozenset(), frozenset()
    return frozenset(current.flights), frozenset(current.units)
