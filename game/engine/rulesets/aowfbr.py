"""AoWFBR 1.4 (Age of Warhammer Fantasy: Battle Regiments): its turn sequence as a state machine driven by actions
(rulebook "Game Structure", "Turn Sequence"), behind the ruleset seam (``game.engine.rulesets.base``).

Every round each player takes a turn of six phases: 1 strategy (Ambush, spells), 2 movement (2.1 declare charges,
2.2 charge reactions, 2.3 charge moves with Flee, run down and redirect, 2.4 remaining moves), 3 strategy, 4
shooting, 5 close combat, 6 rally. The phases and steps (``Phase``, ``Step``) are this module's: the shared rules
modules (movement, charge, shooting, close_combat, melee, morale, flight, consolidation, magic, objectives,
deployment...) are called from here as they were from ``Game``, so the game plays exactly as before the seam.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from game.engine import (
    artillery_scatter,
    charge_out,
    close_combat,
    deployment,
    magic,
    objectives,
    random_charge,
    shooting,
    side_missions,
    transport,
)
from game.engine import charge as charging
from game.engine.actions import (
    Action,
    AllocateTokens,
    CastSpell,
    ChargeReaction,
    ChooseDeployment,
    ChooseFirstTurn,
    ChooseObjectiveOrder,
    Consolidate,
    DeclareCharge,
    Deploy,
    Disembark,
    Dispel,
    Done,
    Embark,
    FollowUp,
    Move,
    PivotToFace,
    PlaceObjective,
    Pursue,
    RallyPivot,
    Redirect,
    RollCharge,
    ScoutMove,
    SelectSideMission,
    SetAside,
    Shoot,
    ShootPoint,
)
from game.engine.consolidation import consolidation_move
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event
from game.engine.flight import flight_move
from game.engine.morale import morale_test
from game.engine.movement import apply_move, can_move, path_problem, validate_move
from game.engine.profiles import AOWFBR_RULES
from game.engine.rulesets.base import GameHost, Handler, Ruleset
from game.engine.state import DeclaredCharge, MoveAction, Pending, Phase, Removal, Step, Unit
from game.engine.victory import victory_breakdown, victory_points
from geometry.arcs import Arc, arc_of_point
from geometry.motion import MoveCheck
from geometry.pose import Pose, bearing_difference

REACTIONS = ("hold", "stand_and_shoot", "flee")
"""Charge reactions (rulebook "Charge Reactions")."""


class AoWFBR(Ruleset):
    """The AoWFBR 1.4 turn sequence (phases and steps) for one ``Game``."""

    id: ClassVar[str] = "aowfbr-1.4"
    title: ClassVar[str] = "Age of Warhammer Fantasy: Battle Regiments 1.4"
    short_title: ClassVar[str] = "AoWFBR 1.4"
    morale_states: ClassVar[Mapping[str, str]] = {"shaken": "Shaken", "fleeing": "Flee", "routed": "Rout"}
    special_rules: ClassVar[frozenset[str] | None] = AOWFBR_RULES
    rule_hints: ClassVar[Mapping[str, str]] = {"Wizard": "Wizard(X) is AoF:R 2.16's; AoWFBR writes Caster(X)"}
    """Every rule of its Special Rules Reference; AoF:R's ``Artillery`` and the quick rules' own are not (refused at
    load)."""

    def __init__(self, game: GameHost) -> None:
        super().__init__(game)
        self._checked_move: tuple[int, Move, MoveCheck] | None = None
        """The last legal ``check_move`` (position in history, action, geometry), reused by ``apply``."""

    def start(self) -> list[Event]:
        """Begin a game at the position the scenario gives and run until the first decision: deployment
        (``deployment.begin``), or the scenario's round, player and phase (spell tokens first)."""
        s = self.state
        events: list[Event] = []
        if s.phase is Phase.DEPLOYMENT:
            events += deployment.begin(s, self.dice)
            events += self._next_deployment()
        else:
            for u in s.units.values():
                u.reset_turn_flags()
                if u.player == s.active_player:
                    u.moved_since_activation = False  # its activation begins (rulebook "Entrenched")
            events.append(Event("phase", f"Round {s.round}: player {s.active_player}'s turn",
                                {"round": s.round, "player": s.active_player}))
            events += magic.start_of_round(s, s.phase)  # 0.1 allocate spell tokens
            if not magic.waiting_for_allocation(s):
                events += self._enter(s.phase)
        return events

    @reports_illegal
    def check_move(self, action: Move) -> None:
        """Why a proposed move is illegal, or None if it may be made now (nothing changes)."""
        self.check_turn(action)
        self._expect(action, Step.REMAINING_MOVES)
        unit = self.own_unit(action)
        check = validate_move(self.state, unit, _move_action(action.action), action.path)
        # The state changes only through apply(), so the position in history identifies it.
        self._checked_move = (len(self.history), action, check)

    def move_info(self, action: Move) -> MoveCheck | None:
        """The geometry of a legal proposed move (distance, terrain crossed), or None if it is illegal."""
        try:
            unit = self.own_unit(action)
            return validate_move(self.state, unit, _move_action(action.action), action.path)
        except IllegalAction:
            return None

    def charge_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may declare a charge against now (empty outside step 2.1)."""
        s = self.state
        unit = s.units.get(unit_id)
        if unit is None or s.step is not Step.DECLARE_CHARGES or unit.player != s.active_player:
            return []
        if charge_out.inside(unit):  # rulebook "Transport(X)": units may use Charge actions to disembark
            return charge_out.charge_out_targets(s, unit)
        return charging.charge_targets(s, unit)

    def redirect_targets(self, unit_id: str) -> list[str]:
        """Units a charger whose target fled may redirect to (step 2.3), if it may still redirect."""
        s = self.state
        charge = self._current_redirect()
        if charge is None or charge.unit != unit_id or charge.redirected:
            return []
        unit = s.units[unit_id]
        return [t for t in self._charge_targets_ignoring_declaration(unit) if t != charge.target
                and not s.units[t].fleeing]

    def shooting_targets(self, unit_id: str, nearest: bool = False) -> list[str]:
        """Valid targets of ``unit_id`` now (empty outside step 4.2, and for artillery that fires at target points:
        ``point_shooter``); ``nearest``: only the nearest (``shooting.valid_targets``)."""
        s = self.state
        unit = s.units.get(unit_id)
        if unit is None or s.step is not Step.RANGED_ATTACKS or unit.player != s.active_player:
            return []
        if artillery_scatter.fires_at_points(s, unit):
            return []
        return shooting.valid_targets(s, unit_id, nearest=nearest)

    def point_shooter(self, unit_id: str) -> bool:
        """True if ``unit_id`` may fire at a target point now (step 4.2, Random Scatter for Artillery, type 2 or
        3, may shoot, a weapon left); whether a given point is valid: ``check_shoot_point``."""
        s = self.state
        unit = s.units.get(unit_id)
        if unit is None or s.step is not Step.RANGED_ATTACKS or unit.player != s.active_player:
            return False
        if not artillery_scatter.fires_at_points(s, unit) or shooting.shooting_restriction(unit) is not None:
            return False
        return bool(shooting.weapon_group(unit, None))

    @reports_illegal
    def check_shoot_point(self, action: ShootPoint) -> None:
        """Why a proposed ``shoot_point`` is illegal now, or None (nothing changes)."""
        self.check_turn(action)
        self._expect(action, Step.RANGED_ATTACKS)
        unit = self.own_unit(action)
        artillery_scatter.aim(self.state, unit, (action.x, action.y), action.weapons)

    def units_to_move(self, player: int) -> list[str]:
        """Units of ``player`` that may still take a move action in step 2.4."""
        s = self.state
        if s.step is not Step.REMAINING_MOVES or player != s.active_player:
            return []
        return [u.id for u in s.units_of(player) if can_move(s, u) is None]

    def chargers(self, player: int) -> list[str]:
        """Units of ``player`` that have at least one valid charge target now (units inside a Transport too)."""
        return [u.id for u in self.state.units.values() if u.player == player and (u.on_table or charge_out.inside(u))
                and self.charge_targets(u.id)]

    def shooters(self, player: int) -> list[str]:
        """Units of ``player`` that have at least one valid shooting target now, or may fire at a target point."""
        return [u.id for u in self.state.units_of(player) if self.shooting_targets(u.id, nearest=True)
                or self.point_shooter(u.id)]

    def melee_played_out(self, round_: int, player: int) -> bool:
        """A charge declared in ``player``'s turn of round ``round_`` is played out once that turn's Close Combat
        Phase is over (the Rally Phase has begun), or the turn, or the game (the odds advisor's simulations)."""
        return super().melee_played_out(round_, player) or self.state.phase is Phase.RALLY

    def victory_points(self) -> dict[int, int]:
        """Victory points each player would score now (rulebook "Victory Conditions")."""
        return victory_points(self.state)

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """Where each player's victory points come from, line by line."""
        return victory_breakdown(self.state)


    def handlers(self) -> Mapping[type[Action], Handler]:
        """Every action of AoWFBR 1.4 and the method that answers it."""
        return {
            Deploy: self._deploy,
            DeclareCharge: self._declare_charge,
            ChargeReaction: self._charge_reaction,
            Redirect: self._redirect,
            Move: self._move,
            Shoot: self._shoot,
            ShootPoint: self._shoot_point,
            Embark: self._transport,
            Disembark: self._transport,
            Pursue: self._close_combat_decision,
            FollowUp: self._close_combat_decision,
            Consolidate: self._consolidate,
            PivotToFace: self._close_combat_decision,
            RallyPivot: self._rally_pivot,
            Done: self._done,
            ChooseDeployment: self._deploy,
            SetAside: self._deploy,
            ScoutMove: self._deploy,
            ChooseFirstTurn: self._deploy,
            ChooseObjectiveOrder: self._deploy,
            RollCharge: self._roll_charge,
            PlaceObjective: self._deploy,
            SelectSideMission: self._deploy,
            CastSpell: self._magic,
            Dispel: self._magic,
            AllocateTokens: self._magic,
        }


    def _expect(self, action: Action, *steps: Step) -> None:
        if self.state.step not in steps:
            pending = self.state.pending
            wanted = pending.decision if pending else "nothing"
            raise IllegalAction("Turn Sequence", f"'{action.type}' is not possible in {self._where()}; "
                                f"the game waits for: {wanted}")

    def _where(self) -> str:
        s = self.state
        return f"round {s.round}, player {s.active_player}, {s.phase.value} ({s.step.value})"


    # --- deployment (rulebook "Deploying Armies", "Playing the Game", "Scout", "Ambush") ---------------------------
    def _next_deployment(self) -> list[Event]:
        """After a deployment decision: once deployment is over (first player chosen), start round 1."""
        s = self.state
        if s.phase is Phase.DEPLOYMENT and deployment.finished(s):
            s.round, s.active_player = 1, s.first_player
            return self._start_turn()
        return []

    @reports_illegal
    def check_deploy(self, action: Action) -> None:
        """Why a proposed deployment action is illegal, or None (nothing changes).

        Any action of ``game.engine.deployment`` may be asked: ``deploy`` (deployment, Scouts, Ambush in step 1.1),
        ``scout_move``, ``set_aside``, ``choose_deployment``, ``choose_first_turn``, ``choose_objective_order``,
        ``place_objective``.
        """
        self.check_turn(action)
        deployment.check(self.state, action)

    def _deploy(self, action: Action) -> list[Event]:
        """Every deployment action (and ``done`` in the deployment steps): game.engine.deployment."""
        events = deployment.apply(self.state, self.dice, action)
        return events + self._next_deployment()

    # --- magic: 0.1 allocate spell tokens, 1.3 / 3.2 cast spells (rulebook "Caster(X)"; game.engine.magic) ------
    def _magic(self, action: Action) -> list[Event]:
        """Every magic action (and ``done`` in the magic steps): game.engine.magic. After the last token split of
        step 0.1 the phase the round starts with is entered."""
        s = self.state
        allocating = s.step is Step.ALLOCATE_TOKENS
        events = magic.apply(s, self.dice, action)
        if allocating and not magic.waiting_for_allocation(s):
            events += self._enter(s.phase)
        return events

    @reports_illegal
    def check_magic(self, action: Action) -> None:
        """Why a proposed ``cast_spell``, ``dispel`` or ``allocate_tokens`` is illegal now, or None (nothing
        changes)."""
        self.check_turn(action)
        magic.check(self.state, action)

    # --- the turn sequence ---------------------------------------------------------------------------------
    def _start_turn(self) -> list[Event]:
        s = self.state
        for u in s.units.values():
            u.reset_turn_flags()
            u.fleeing = False
            if u.player == s.active_player:
                u.moved_since_activation = False  # its activation begins (rulebook "Entrenched")
        events = [Event("phase", f"Round {s.round}: player {s.active_player}'s turn",
                        {"round": s.round, "player": s.active_player})]
        events += magic.start_of_round(s, Phase.STRATEGY_1)  # 0.1 allocate spell tokens (once per round)
        if magic.waiting_for_allocation(s):
            return events
        return events + self._enter(Phase.STRATEGY_1)

    def _enter(self, phase: Phase) -> list[Event]:
        s = self.state
        s.phase = phase
        expired = magic.expire_effects(s)  # spell effects whose duration has ended
        p = s.active_player
        events = [Event("phase", f"{_PHASE_NAMES[phase]}", {"phase": phase.value, "player": p})] + expired
        if phase in (Phase.STRATEGY_1, Phase.STRATEGY_2):
            s.step = Step.STRATEGY
            s.pending = Pending(p, "strategy")
            if phase is Phase.STRATEGY_1:
                events += deployment.ambush_step(s)  # 1.1 Deploy Ambusher units, then the strategy step
        elif phase is Phase.MOVEMENT:
            s.step = Step.DECLARE_CHARGES
            s.charges = []
            s.charges_closed = False
            s.pending = Pending(p, "declare_charge")
        elif phase is Phase.SHOOTING:
            s.step = Step.RANGED_ATTACKS
            s.pending = Pending(p, "shoot")
        elif phase is Phase.CLOSE_COMBAT:
            s.step = Step.MELEE
            events += close_combat.start_close_combat(s, self.dice)
            events += self._settle_close_combat()
        elif phase is Phase.RALLY:
            events += self._rally()
        return events

    def _done(self, action: Done) -> list[Event]:
        s = self.state
        step = s.step
        if step in magic.DONE_STEPS:
            return self._magic(action)
        if step in deployment.DONE_STEPS:
            return self._deploy(action)
        if step is Step.STRATEGY:
            return self._enter(Phase.MOVEMENT if s.phase is Phase.STRATEGY_1 else Phase.SHOOTING)
        if step is Step.DECLARE_CHARGES:
            s.charges_closed = True     # Random Charge Distances: now the charges are rolled
            s.step = Step.CHARGE_REACTIONS
            return self._next_reaction()
        if step is Step.REMAINING_MOVES:
            return self._enter(Phase.STRATEGY_2)
        if step is Step.RANGED_ATTACKS:
            events = shooting.shooting_morale_tests(s, self.dice, s.active_player)
            return events + self._enter(Phase.CLOSE_COMBAT)
        if step is Step.MELEE:
            return self._close_combat_decision(action)
        if step is Step.REDIRECT and s.pending is not None and s.pending.decision == "consolidate":
            return self._run_down_consolidation(action)
        if step is Step.RALLY:
            return self._end_turn()
        raise IllegalAction("Turn Sequence", f"'done' is not possible now; the game waits for "
                            f"{s.pending.decision if s.pending else 'nothing'}")

    def _end_turn(self) -> list[Event]:
        s = self.state
        s.rallied = []
        second = 3 - s.first_player
        events: list[Event] = []
        if s.active_player == second:
            events = objectives.seize(s)   # "Seizing Objectives": at the end of each round
            if s.round >= s.rounds:
                return events + self._end_game()
            s.round += 1
            s.active_player = s.first_player
        else:
            s.active_player = second
        return events + self._start_turn()

    def _end_game(self) -> list[Event]:
        s = self.state
        s.game_over = True
        s.pending = None
        revealed = side_missions.reveal(s)   # hidden side-missions are shown now
        vp = victory_points(s)
        if vp[1] == vp[2]:
            verdict = "the game is a draw"
        else:
            verdict = f"player {1 if vp[1] > vp[2] else 2} wins"
        return revealed + [Event("victory", f"Game over after round {s.round}: {vp[1]} to {vp[2]} victory points, "
                                 f"{verdict}", {"victory_points": {"1": vp[1], "2": vp[2]}})]

    # --- 2.1 - 2.3 charges (rulebook "Charging", "Charge Reactions") ---------------------------------------------
    def _declare_charge(self, action: DeclareCharge) -> list[Event]:
        self._expect(action, Step.DECLARE_CHARGES)
        s = self.state
        unit = self.own_unit(action)
        target = s.units.get(action.target)
        if target is None:
            raise IllegalAction("Picking Targets", f"there is no unit {action.target!r}")
        if charge_out.inside(unit):
            plan = charge_out.plan_charge_out(s, unit, target)
        else:
            plan = charging.plan_charge(s, unit, target)
        s.charges.append(DeclaredCharge(unit.id, target.id))
        unit.move_action = MoveAction.CHARGE
        data: dict[str, Any] = {"unit": unit.id, "target": target.id, "declared": True}
        text = f"{unit.name} declares a charge against {target.name}"
        if random_charge.active(s):
            data["measured"] = round(random_charge.measured_distance(plan.distance, plan.travel), 3)
            text += f" ({data['measured']:.1f}\" away)"
        events = [Event("charge", text, data)]
        if random_charge.active(s):   # step 3: the reaction is declared and carried out at once
            s.step = Step.CHARGE_REACTIONS
            events += self._next_reaction()
        return events

    def charge_reactions(self, unit_id: str, target_id: str) -> tuple[str, ...]:
        """Rulebook "Charge Reactions" (step 2.2): the answers of ``target_id`` to a charge by ``unit_id`` declared
        now, with the reactions already declared against it by other chargers (``_reaction_options``)."""
        return self._reaction_options(DeclaredCharge(unit_id, target_id))

    def _reaction_options(self, charge: DeclaredCharge) -> tuple[str, ...]:
        s = self.state
        target = s.units[charge.target]
        others = [c for c in s.charges if c.target == charge.target and c is not charge and c.reaction]
        if any(c.reaction != "hold" for c in others) or target.fleeing:
            return ("hold",)
        options = ["hold"]
        if shooting.can_stand_and_shoot(s, target.id, charge.unit) is None and not _is_artillery(target):
            options.append("stand_and_shoot")
        if not target.engaged and not target.has("Immobile"):
            options.append("flee")
        return tuple(options)

    def _next_reaction(self) -> list[Event]:
        s = self.state
        events: list[Event] = []
        for charge in s.charges:
            if charge.reaction is not None or charge.resolved:
                continue
            target = s.units[charge.target]
            if not target.on_table or charge_out.charger_position(s, s.units[charge.unit]) is None:
                charge.reaction = "hold"
                continue
            options = self._reaction_options(charge)
            if options == ("hold",):
                charge.reaction = "hold"
                events.append(Event("reaction", f"{target.name} holds against {s.units[charge.unit].name}",
                                    {"unit": target.id, "charger": charge.unit, "reaction": "hold"}))
                continue
            s.pending = Pending(target.player, "charge_reaction", target.id, options)
            return events
        return events + self._resolve_charges()

    def _charge_reaction(self, action: ChargeReaction) -> list[Event]:
        self._expect(action, Step.CHARGE_REACTIONS)
        s = self.state
        pending = s.pending
        assert pending is not None
        if action.unit != pending.unit:
            raise IllegalAction("Charge Reactions", f"the reaction asked for is {pending.unit}'s")
        if action.reaction not in pending.options:
            raise IllegalAction("Charge Reactions", f"{action.reaction} is not allowed here; "
                                f"choose {', '.join(pending.options)}")
        charge = next(c for c in s.charges if c.target == action.unit and c.reaction is None and not c.resolved)
        charge.reaction = action.reaction
        target, charger = s.units[charge.target], s.units[charge.unit]
        words = {"hold": "holds", "stand_and_shoot": "stands and shoots", "flee": "flees"}[action.reaction]
        events = [Event("reaction", f"{target.name} {words} against the charge of {charger.name}",
                        {"unit": target.id, "charger": charger.id, "reaction": action.reaction})]
        return events + self._next_reaction()

    def _resolve_charges(self) -> list[Event]:
        """Step 2.3: the reactions (every Stand and Shoot, then every Flee) before any charge move, then the charge
        moves in the order the charges were declared; a charger whose target fled runs down or redirects."""
        s = self.state
        events: list[Event] = []
        # Stand and Shoot is resolved "before receiving the charge": before any charge move locks the unit.
        for charge in s.charges:
            if charge.resolved or charge.shot or charge.reaction != "stand_and_shoot":
                continue
            charge.shot = True  # a unit stands and shoots once; then the charge move follows
            unit, target = s.units[charge.unit], s.units[charge.target]
            if not (unit.on_table and target.on_table):
                continue
            why = shooting.can_stand_and_shoot(s, target.id, unit.id)
            if why is not None:
                events.append(Event("reaction", f"{target.name} can no longer Stand and Shoot ({why}) and holds",
                                    {"unit": target.id, "charger": unit.id, "reaction": "hold"}))
                continue
            events += shooting.stand_and_shoot(s, self.dice, target.id, unit.id)
        # Flee: the unit flees "before the charging unit makes its charge move" (before any charge reaches it).
        for charge in s.charges:
            if not charge.resolved and charge.reaction == "flee":
                target = s.units[charge.target]
                if target.on_table and not target.fleeing and not target.engaged:
                    events += self._flee_from_chargers(target)
        if random_charge.active(s):
            return events + self._random_charges()
        for charge in s.charges:
            if charge.resolved:
                continue
            if charge.reaction is None:  # a redirected charge waits for its new target's reaction
                s.step = Step.CHARGE_REACTIONS
                return events + self._next_reaction()
            unit, target = s.units[charge.unit], s.units[charge.target]
            if charge_out.charger_position(s, unit) is None:
                charge.resolved = True
                continue
            if charge.reaction == "flee":
                s.step = Step.REDIRECT
                options = ("run_down",) + (("redirect",) if not charge.redirected else ())
                s.pending = Pending(unit.player, "redirect", unit.id, options)
                return events
            if not target.on_table:
                charge.resolved = True
                events.append(Event("charge", f"{unit.name}'s target is gone; the charge ends", {"unit": unit.id}))
                continue
            if charge_out.inside(unit):
                events += charge_out.make_charge_out(s, self.dice, unit, target)
            else:
                events += charging.make_charge_move(s, self.dice, unit, target)
            charge.resolved = True
        s.step = Step.REMAINING_MOVES
        s.pending = Pending(s.active_player, "move")
        return events

    def _random_charges(self) -> list[Event]:
        """Random Charge Distances (rulebook "Optional Rules"; ``game.engine.random_charge``), once the reactions
        so far are carried out: back to declaring (step 4) until ``done``; then each declared charge in the order
        the charging player picks (``roll_charge``), a fled target's charger first choosing to run down or redirect
        (a redirect's new target reacting first), rolled and moved (steps 5-7)."""
        s = self.state
        if not s.charges_closed:
            s.step = Step.DECLARE_CHARGES
            s.pending = Pending(s.active_player, "declare_charge")
            return []
        events: list[Event] = []
        while True:
            for c in s.charges:
                if not c.resolved and not s.units[c.unit].on_table:
                    c.resolved = True
            waiting = [c for c in s.charges if not c.resolved]
            if not waiting:
                break
            charge = next((c for c in waiting if c.picked), None)
            if charge is None:
                if len(waiting) > 1:
                    s.step = Step.ROLL_CHARGES
                    s.pending = Pending(s.active_player, "roll_charge", None, tuple(c.unit for c in waiting))
                    return events
                charge = waiting[0]
                charge.picked = True
            if charge.reaction is None:      # a redirected charge: its new target reacts first (steps 1-3)
                s.step = Step.CHARGE_REACTIONS
                return events + self._next_reaction()
            unit, target = s.units[charge.unit], s.units[charge.target]
            if charge.reaction == "flee" and not charge.flee_answered:
                s.step = Step.REDIRECT
                options = ("run_down",) + (("redirect",) if not charge.redirected else ())
                s.pending = Pending(unit.player, "redirect", unit.id, options)
                return events
            run = charging.random_charge_move(s, self.dice, unit, target, running_down=charge.reaction == "flee")
            events += run
            charge.resolved = True
            if unit.on_table and not unit.engaged and any(e.data.get("ran_down") for e in run):
                s.step = Step.REDIRECT       # "the charging unit may either pivot by up to 180° or move by up to 3""
                s.pending = Pending(unit.player, "consolidate", unit.id)
                return events
        s.step = Step.REMAINING_MOVES
        s.pending = Pending(s.active_player, "move")
        return events

    def _roll_charge(self, action: RollCharge) -> list[Event]:
        """Random Charge Distances, step 5: the charging player picks the declared charge rolled next."""
        self._expect(action, Step.ROLL_CHARGES)
        s = self.state
        charge = next((c for c in s.charges if c.unit == action.unit and not c.resolved), None)
        if charge is None:
            raise IllegalAction("Random Charge Distances", f"{action.unit} has no declared charge left to roll for; "
                                f"pick one of {', '.join(s.pending.options) if s.pending else 'none'}")
        charge.picked = True
        return self._random_charges()

    def _flee_from_chargers(self, target: Unit) -> list[Event]:
        """Rulebook "Flee": ``target`` becomes Shaken and makes a flight move away from the units charging it
        (split the difference when charged from several directions: Flight Moves). Every charger whose charge
        is not resolved then has to run down or redirect (its charge is marked ``flee``)."""
        s = self.state
        assert target.pose is not None
        tf = target.formation
        attackers: list[tuple[str, Arc]] = []
        events: list[Event] = []
        for c in s.charges:
            charger = s.units[c.unit]
            where = charge_out.charger_position(s, charger)  # a unit inside a Transport: from the Transport
            if c.resolved or c.target != target.id or c.reaction is None or where is None:
                continue
            attackers.append((charger.id, arc_of_point(target.pose, tf.width, tf.depth, where.xy)))
            if c.reaction != "flee":
                c.reaction = "flee"
                events.append(Event("reaction", f"{target.name} flees from the charge of {charger.name} too",
                                    {"unit": target.id, "charger": charger.id, "reaction": "flee",
                                     "declared": False}))
        if not attackers:
            return events
        return events + flight_move(s, self.dice, target, attackers)

    def _current_redirect(self) -> DeclaredCharge | None:
        s = self.state
        if s.step is not Step.REDIRECT or s.pending is None or s.pending.decision != "redirect":
            return None
        fled = [c for c in s.charges if not c.resolved and c.reaction == "flee"]
        return next((c for c in fled if c.picked), fled[0] if fled else None)   # picked: Random Charge Distances

    def _charge_targets_ignoring_declaration(self, unit: Unit) -> list[str]:
        saved = unit.move_action
        unit.move_action = None
        try:
            if charge_out.inside(unit):
                return charge_out.charge_out_targets(self.state, unit)
            return charging.charge_targets(self.state, unit)
        finally:
            unit.move_action = saved

    def _redirect(self, action: Redirect) -> list[Event]:
        self._expect(action, Step.REDIRECT)
        s = self.state
        charge = self._current_redirect()
        if charge is None:
            raise IllegalAction("Turn Sequence", f"'redirect' is not possible now; the game waits for "
                                f"{s.pending.decision if s.pending else 'nothing'}")
        if action.unit != charge.unit:
            raise IllegalAction("Charge Reactions", f"{charge.unit} must decide whether to run down or redirect")
        unit = s.units[charge.unit]
        events: list[Event] = []
        if random_charge.active(s):
            return self._random_redirect(action, charge, unit)
        if action.target is not None:
            redirected, events = self._try_redirect(charge, unit, action.target)
            if redirected:
                s.step = Step.CHARGE_REACTIONS
                return events + self._next_reaction()
        fled = s.units[charge.target]
        by = next((c.unit for c in s.charges if c is not charge and c.resolved and c.target == fled.id
                   and c.reaction == "flee"), None)
        if not fled.on_table and fled.removed is Removal.ROUTED and by is not None:
            events.append(Event("charge", f"{fled.name} was already run down by {s.units[by].name}; the charge of "
                                f"{unit.name} ends", {"unit": unit.id, "target": fled.id}))
            charge.resolved = True
            return events + self._resolve_charges()
        run = self._run_down(unit, fled)
        events += run
        charge.resolved = True
        if unit.on_table and not unit.engaged and any(e.data.get("ran_down") for e in run):
            # "it is routed and the charging unit may either pivot by up to 180° or move by up to 3" in any direction"
            s.pending = Pending(unit.player, "consolidate", unit.id)
            return events
        return events + self._resolve_charges()

    def _random_redirect(self, action: Redirect, charge: DeclaredCharge, unit: Unit) -> list[Event]:
        """Random Charge Distances, step 5 for a charge whose target fled: "measure again ... You may now try to
        redirect the charge (repeat steps 1 to 3 for the redirected charge)", then roll (``_random_charges``)."""
        events: list[Event] = []
        redirected = False
        if action.target is not None:
            redirected, events = self._try_redirect(charge, unit, action.target)
        charge.flee_answered = not redirected       # a redirected charge's new target reacts first
        return events + self._random_charges()

    def _try_redirect(self, charge: DeclaredCharge, unit: Unit, target: str) -> tuple[bool, list[Event]]:
        """Rulebook "Flee": redirect ``charge`` to ``target`` if it may be redirected and ``unit`` passes its morale
        test; returns whether it was redirected, and the events. Raises ``IllegalAction`` (nothing changed) when
        the charge was redirected already or ``target`` is not a valid target."""
        s = self.state
        if charge.redirected:
            raise IllegalAction("Flee", "a charge may be redirected only once; it must run down")
        if target not in self.redirect_targets(unit.id):
            raise IllegalAction("Flee", f"{target} is not a valid target for a redirected charge")
        test = morale_test(self.dice, unit, [], "to redirect its charge")
        events = list(test.events)
        if not test.passed:
            return False, events
        charge.target = target
        charge.reaction = None
        charge.redirected = True
        events.append(Event("charge", f"{unit.name} redirects its charge to {s.units[target].name}",
                            {"unit": unit.id, "target": target, "redirect": True}))
        return True, events

    def _run_down(self, unit: Unit, fled: Unit) -> list[Event]:
        """Rulebook "Flee": the charger charges the fleeing unit with its normal charge distance (from inside a
        Transport: ``charge_out.run_down_out``)."""
        if charge_out.inside(unit):
            return charge_out.run_down_out(self.state, self.dice, unit, fled)
        return charging.run_down(self.state, self.dice, unit, fled)

    def _consolidate(self, action: Consolidate) -> list[Event]:
        """A ``consolidate`` answers either the close combat phase or the move after a run down (step 2.3)."""
        if self.state.step is Step.REDIRECT:
            return self._run_down_consolidation(action)
        return self._close_combat_decision(action)

    def _run_down_consolidation(self, action: Consolidate | Done) -> list[Event]:
        """Rulebook "Flee": after running down the fleeing unit the charger may pivot by up to 180 degrees or move
        by up to 3" (``consolidation.consolidation_move``); ``done`` skips it. Then the charges go on."""
        s = self.state
        pending = s.pending
        if pending is None or pending.decision != "consolidate" or pending.unit is None:
            raise IllegalAction("Turn Sequence", f"'{action.type}' is not possible now; the game waits for "
                                f"{pending.decision if pending else 'nothing'}")
        unit = s.units[pending.unit]
        if isinstance(action, Consolidate):
            if action.unit != unit.id:
                raise IllegalAction("Consolidation Moves", f"{unit.name} may pivot up to 180° or move up to 3\" "
                                    "(consolidate), or skip it (done)")
            events = consolidation_move(s, self.dice, unit, action.path)
        else:
            events = [Event("consolidate", f"{unit.name} makes no consolidation move",
                            {"unit": unit.id, "kind": "skip"})]
        return events + self._resolve_charges()

    # --- 2.4 remaining moves ---------------------------------------------------------------------------------
    def _move(self, action: Move) -> list[Event]:
        self._expect(action, Step.REMAINING_MOVES)
        unit = self.own_unit(action)
        memo = self._checked_move
        checked = memo[2] if memo is not None and memo[0] == len(self.history) and memo[1] == action else None
        return apply_move(self.state, self.dice, unit, _move_action(action.action), action.path, checked)

    # --- 4 shooting --------------------------------------------------------------------------------------------
    # --- 2.4 Transport(X): embark and disembark (game.engine.transport) --------------------------------------
    @reports_illegal
    def check_transport(self, action: Embark | Disembark) -> None:
        """Why a proposed embark or disembark is illegal now, or None (nothing changes)."""
        self.check_turn(action)
        self._expect(action, Step.REMAINING_MOVES)
        unit = self.own_unit(action)
        if isinstance(action, Embark):
            transport.check_embark(self.state, unit, action.transport, action.action)
        else:
            transport.check_disembark(self.state, unit, action.pose, action.action)

    def _transport(self, action: Embark | Disembark) -> list[Event]:
        self._expect(action, Step.REMAINING_MOVES)
        unit = self.own_unit(action)
        if isinstance(action, Embark):
            return transport.embark(self.state, unit, action.transport, action.action)
        return transport.disembark(self.state, unit, action.pose, action.action)

    def _shoot(self, action: Shoot) -> list[Event]:
        self._expect(action, Step.RANGED_ATTACKS)
        unit = self.own_unit(action)
        if artillery_scatter.fires_at_points(self.state, unit):
            kind = artillery_scatter.artillery_type(unit)
            raise IllegalAction(artillery_scatter.RULE, f"{unit.name} is artillery of type {kind} "
                                f"({artillery_scatter.TYPE_NAMES.get(kind or 0, '')}): it fires at a target point "
                                "(shoot_point), not at a unit")
        return shooting.shoot(self.state, self.dice, action)

    def _shoot_point(self, action: ShootPoint) -> list[Event]:
        """Random Scatter for Artillery: artillery of type 2 or 3 fires at a target point (step 4.2)."""
        self._expect(action, Step.RANGED_ATTACKS)
        self.own_unit(action)
        return artillery_scatter.shoot_point(self.state, self.dice, action)

    # --- 5 close combat ----------------------------------------------------------------------------------------
    def _close_combat_decision(self, action: Action) -> list[Event]:
        self._expect(action, Step.MELEE)
        events = close_combat.apply_close_combat_action(self.state, self.dice, action)
        return events + self._settle_close_combat()

    def _settle_close_combat(self) -> list[Event]:
        s = self.state
        events = close_combat.advance_close_combat(s, self.dice)
        pending = close_combat.close_combat_pending(s)
        if pending is not None:
            s.pending = pending
            return events
        s.combat = None
        return events + self._enter(Phase.RALLY)

    # --- 6 rally -----------------------------------------------------------------------------------------------
    def _rally(self) -> list[Event]:
        """Rulebook "Rally Phase": own Shaken units that did not become Shaken this turn rally."""
        s = self.state
        s.step = Step.RALLY
        s.rallied = []
        events: list[Event] = []
        for unit in s.units_of(s.active_player):
            if unit.shaken and not unit.became_shaken_this_turn:
                unit.shaken = False
                unit.fleeing = False
                s.rallied.append(unit.id)
                events.append(Event("rally", f"{unit.name} rallies", {"unit": unit.id}))
        s.pending = Pending(s.active_player, "rally", options=tuple(s.rallied))
        return events

    @reports_illegal
    def check_rally_pivot(self, action: RallyPivot) -> None:
        """Why a proposed pivot after rallying is illegal, or None (nothing changes)."""
        self.check_turn(action)
        self._validate_rally_pivot(action)

    def _rally_pivot(self, action: RallyPivot) -> list[Event]:
        unit, new, turn = self._validate_rally_pivot(action)
        s = self.state
        s.place(unit, new)
        s.rallied.remove(unit.id)
        s.pending = Pending(s.active_player, "rally", options=tuple(s.rallied))
        return [Event("move", f"{unit.name} pivots {abs(turn):.0f}° after rallying",
                      {"unit": unit.id, "to": _pose(new)})]

    def _validate_rally_pivot(self, action: RallyPivot) -> tuple[Unit, Pose, float]:
        self._expect(action, Step.RALLY)
        s = self.state
        unit = self.own_unit(action)
        if unit.id not in s.rallied:
            raise IllegalAction("Shaken Units", f"only a unit that rallied this phase may pivot ({unit.name} did not)")
        if unit.engaged:
            raise IllegalAction("Shaken Units", f"{unit.name} is locked in melee and cannot pivot")
        assert unit.pose is not None
        turn = bearing_difference(unit.pose.facing, action.facing)
        if abs(turn) > 180.0 + 1e-6:
            raise IllegalAction("Shaken Units", "a rallied unit may pivot by up to 180°")
        new = unit.pose.facing_to(action.facing)
        check = s.scene.check_path(unit.id, unit.pose, [new])
        if not check.ok:
            raise path_problem(check, s)
        return unit, new, turn



_PHASE_NAMES = {
    Phase.DEPLOYMENT: "Deployment",
    Phase.STRATEGY_1: "1. First Strategy Phase",
    Phase.MOVEMENT: "2. Movement Phase",
    Phase.STRATEGY_2: "3. Second Strategy Phase",
    Phase.SHOOTING: "4. Shooting Phase",
    Phase.CLOSE_COMBAT: "5. Close Combat Phase",
    Phase.RALLY: "6. Rally Phase",
}


def _move_action(name: str) -> MoveAction:
    try:
        action = MoveAction(name)
    except ValueError:
        raise IllegalAction("Movement Phase", f"unknown move action {name!r}; use hold, advance or rush") from None
    if action is MoveAction.CHARGE:
        raise IllegalAction("Movement Phase", "charges are declared with declare_charge in step 2.1")
    return action


def _is_artillery(unit: Unit) -> bool:
    """Rulebook "Charge Reactions": artillery cannot Stand and Shoot. The rulebook marks no unit as artillery; the
    referee takes a unit for artillery when it is Immobile and carries a ranged weapon (the war machines:
    docs/rulings.md)."""
    return unit.any_has("Immobile") and any(w.range for p in unit.model_profiles() or [unit.profile]
                                             for w in p.weapons)


def _pose(p: Pose | None) -> dict[str, float] | None:
    return None if p is None else {"x": p.x, "y": p.y, "facing": p.facing}

