"""AoF:R 2.16 "Wizard(X)" within an activation: the activated wizard's cast before attacking and the other
player's block (``game.engine.activation_magic`` rolls them; ``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine import activation_magic
from game.engine.actions import Action, CastSpell, Dispel
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event
from game.engine.rulesets.aofr_moves_shooting import AoFRMovesShooting
from game.engine.rulesets.aofr_state import Activations
from game.engine.state import Pending, Unit


class AoFRCasting(AoFRMovesShooting):
    """Casting and blocking within an activation."""

    def _casting_unit(self, action: CastSpell) -> tuple[Activations, Unit]:
        a = self._expect(action, "action", "shoot")
        return a, self._active_unit(action, a)

    @reports_illegal
    def check_magic(self, action: Action) -> None:
        """Why a proposed ``cast_spell`` or ``dispel`` (a block) is illegal now, or None (nothing changes)."""
        self.check_turn(action)
        if isinstance(action, CastSpell):
            a, unit = self._casting_unit(action)
            activation_magic.plan_cast(self.state, unit, action, a.spell_used, a.stage)
        elif isinstance(action, Dispel):
            a = self._expect(action, "block_spell")
            assert a.cast is not None
            activation_magic.block_choice(a.cast, action)

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
        if cast.resume == "shoot" and not self._may_shoot(unit):
            return events + self._end_activation()
        self.state.active_player = unit.player
        self.state.pending = Pending(unit.player, cast.resume, unit.id)
        return events
