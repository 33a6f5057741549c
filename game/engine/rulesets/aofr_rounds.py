"""AoF:R 2.16 "Playing the Game", "Deploying Armies", "Ambush": deployment, the rounds and who activates next
("Activating Units"; ``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine import deployment, magic, objectives
from game.engine.actions import Action, Activate, ChooseDeployment, Deploy, Done, pose_to_dict
from game.engine.activation_order import first_of_next_round, offer_activation
from game.engine.casualties import remaining_strength
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event
from game.engine.rulesets import aofr_rules
from game.engine.rulesets.aofr_victory import AoFRVictory
from game.engine.state import Pending, Phase, Step, Unit


class AoFRRounds(AoFRVictory):
    """Deployment, rounds of alternating activations and Ambush at their beginning."""

    def start(self) -> list[Event]:
        """Deployment (markers and units placed alternately; no first-turn roll-off), or the scenario's round with
        its player activating first."""
        s = self.state
        s.hills_going_up = True        # "Terrain Guidelines": "Hills - difficult terrain when going up"
        s.elevation_height = self.elevation_height     # "Elevation": the climb counts as movement
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

    @reports_illegal
    def check_deploy(self, action: Action) -> None:
        """Why a proposed deployment action is illegal, or None (nothing changes)."""
        self.check_turn(action)
        a = self._current()
        if a is not None and a.stage == "ambush" and self.state.phase is Phase.ACTIVATION:
            if not isinstance(action, Deploy):
                raise IllegalAction("Ambush", f"'{action.type}' is not possible now; place a unit from Ambush "
                                    "(deploy) or done")
            self._check_ambush(action)
            return
        self._check_deploy_rules(action)
        deployment.check(self.state, action)

    def _begin_round(self, first: int) -> list[Event]:
        s = self.state
        s.phase, s.step = Phase.ACTIVATION, Step.ACTIVATION
        s.first_player = first
        old = self._current()
        # pairs a melee left within 1" stay tolerated while they stay that close: read from the round ending,
        # before its activation state is replaced
        kept = [sorted(p) for p in self.tolerated_closeness(s)] if old is not None else []
        s.activation = self.activations_type(first)
        s.activation.close = kept
        for u in s.units.values():
            u.reset_turn_flags()
        events = [Event("phase", f"Round {s.round}: player {first} activates first", {"round": s.round,
                                                                                      "player": first})]
        return events + self._round_magic() + self._begin_ambush()

    def _round_magic(self) -> list[Event]:
        """The start of a round for magic: spells cast last round end (docs/rulings.md "AoF:R 2.16": spell
        durations within activations)."""
        return magic.expire_effects(self.state)

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
                                                                             "to": pose_to_dict(action.pose)})]
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
