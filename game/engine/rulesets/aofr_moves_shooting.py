"""AoF:R 2.16 "Movement" and "Shooting" within an activation: Hold, Advance and Rush, then the shots (and the
Breath Attack when shooting) after a Hold or an Advance (``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine import shooting
from game.engine.actions import Move, Shoot
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event
from game.engine.movement import apply_move, can_move, path_shape, validate_move
from game.engine.rulesets import aofr_breath
from game.engine.rulesets.aofr_melee import AoFRMelee
from game.engine.state import MoveAction, Pending, Unit
from geometry.motion import MoveCheck
from geometry.pose import bearing_difference


class AoFRMovesShooting(AoFRMelee):
    """The activated unit's Hold, Advance or Rush, and its shooting."""

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

    @reports_illegal
    def check_move(self, action: Move) -> None:
        """Why a proposed move is illegal, or None (nothing changes)."""
        self.check_turn(action)
        self._validate_move(action)

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
        if unit.on_table and unit.move_action in (MoveAction.HOLD, MoveAction.ADVANCE) and self._may_shoot(unit):
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

    def _may_shoot(self, unit: Unit) -> bool:
        """Whether ``unit`` has something to shoot now: a weapon group with a valid target, or its Breath Attack
        with one ("Breath Attack": "to one enemy unit within 12\" when shooting")."""
        return bool(shooting.valid_targets(self.state, unit.id, all_rows=self.all_models_shoot, nearest=True)
                    or self._breath_targets(unit))

    def _breath_targets(self, unit: Unit) -> list[str]:
        a = self._current()
        if a is None or unit.id in a.breath_used:
            return []
        return aofr_breath.breath_targets(self.state, unit)

    def breath_targets(self, unit_id: str) -> list[str]:
        """"Breath Attack" when shooting: enemy units the activated unit may breathe on now (decision ``shoot``;
        not once it breathed this round)."""
        a = self._current()
        unit = self.state.units.get(unit_id)
        if a is None or a.stage != "shoot" or a.unit != unit_id or unit is None:
            return []
        return self._breath_targets(unit)

    def _breathe(self, action: Shoot, unit: Unit) -> list[Event]:
        """"Breath Attack" when shooting at ``action.target`` (within 12", seen); refused with weapons or a pick."""
        s, a = self.state, self.act
        if action.weapons is not None or action.model is not None:
            raise IllegalAction(aofr_breath.RULE, "a Breath Attack fires no weapon and picks no model: leave "
                                "weapons and model out")
        if unit.id in a.breath_used:
            raise IllegalAction(aofr_breath.RULE, f"{unit.name} has used its Breath Attack this round (once per "
                                "round)")
        target = s.units.get(action.target)
        if target is None:
            raise IllegalAction("Picking Targets", f"there is no unit {action.target!r}")
        if not aofr_breath.has_breath(unit):
            raise IllegalAction(aofr_breath.RULE, f"{unit.name} has no model with Breath Attack")
        why = aofr_breath.target_problem(unit, target)
        if why is None and not aofr_breath.shooting_breathers(s, unit, target):
            why = f"no model with Breath Attack sees {target.name} within {aofr_breath.BREATH_RANGE:g}\""
        if why is not None:
            raise IllegalAction(aofr_breath.RULE, why)
        a.breath_used.append(unit.id)
        return aofr_breath.breathe_shooting(s, self.dice, unit, target)

    def shooting_targets(self, unit_id: str, nearest: bool = False) -> list[str]:
        """Valid targets of the activated unit after its Hold or Advance (every model may fire); ``nearest``: only
        the nearest (``shooting.valid_targets``)."""
        a = self._current()
        if a is None or a.stage != "shoot" or a.unit != unit_id:
            return []
        return shooting.valid_targets(self.state, unit_id, all_rows=self.all_models_shoot, nearest=nearest)

    def _shoot(self, action: Shoot) -> list[Event]:
        a = self._expect(action, "shoot")
        unit = self._active_unit(action, a)
        if action.breath:
            events = self._breathe(action, unit)
        else:
            events = shooting.shoot(self.state, self.dice, action, all_rows=self.all_models_shoot,
                                    cover_to_hit=self.cover_to_hit, rules=self.shot_rules)
        if unit.on_table and self._may_shoot(unit):
            return events   # "Multiple Weapon Types": another weapon group may fire (or the Breath Attack)
        return events + self._end_activation()
