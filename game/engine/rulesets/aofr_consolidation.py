"""AoF:R 2.16 "Consolidation Moves": the charger moves back 1" after a melee both units survive, or the survivor
consolidates (``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine.actions import Consolidate, pose_to_dict
from game.engine.consolidation import consolidation_move
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.rulesets.aofr_morale import AoFRMorale
from game.engine.rulesets.aofr_state import BACK_OFF, Activations
from game.engine.state import GameState, Unit
from geometry.pose import Pose, forward_vector
from geometry.shapes import footprint_polygon


class AoFRConsolidation(AoFRMorale):
    """Moving back 1" after a melee, and the survivor's consolidation."""

    def _back_off(self, charger: Unit, target: Unit) -> list[Event]:
        """"Consolidation Moves": the charger moves straight back 1", away from the defending unit. If something
        blocks it, the defending unit moves 1" the other way (along the charger's facing) instead; else the charger
        moves back as far as it can (3/4", 1/2", 1/4"); else they stay (the quick rules: "if possible").
        docs/rulings.md "AoF:R 2.16"."""
        s = self.state
        s.disengage(charger, target)
        tries = [(charger, target, BACK_OFF), (target, charger, BACK_OFF)] + \
            [(charger, target, d) for d in (0.75, 0.5, 0.25)]
        assert charger.pose is not None
        fx, fy = forward_vector(charger.pose.facing)     # the charger's straight back is -forward
        legal: list[tuple[Unit, Pose, float]] = []
        for mover, _other, d in tries:
            assert mover.pose is not None
            sign = -1.0 if mover is charger else 1.0
            end = mover.pose.moved(sign * fx * d, sign * fy * d)
            if s.scene.check_path(mover.id, mover.pose, [end], exclusion=0.0).ok:
                legal.append((mover, end, d))
        if not legal:
            self._note_close(charger, target)
            return [Event("consolidate", f"{charger.name} cannot move back", {"unit": charger.id, "kind": "none"})]
        # the first that leaves both 1" from every enemy (the charge may have ended nearer another); else the first
        # that brings neither nearer an enemy it stands within 1" of ("Advancing": models may not move within 1" of
        # other units); else the first (docs/rulings.md "Moving back 1"")
        mover, end, d = next((c for c in legal if self._clear_of_enemies(c[0], c[1], charger, target)), None) or \
            next((c for c in legal if not self._closer_to_enemies(c[0], c[1])), legal[0])
        assert mover.pose is not None
        start = mover.pose
        s.place(mover, end)
        self._note_close(charger, target)
        return [Event("consolidate", f"{mover.name} moves back {d:g}\"",
                      {"unit": mover.id, "kind": "back", "from": pose_to_dict(start), "to": pose_to_dict(end)})]

    def _closer_to_enemies(self, mover: Unit, end: Pose) -> bool:
        """Whether ``mover`` at ``end`` would stand nearer than now to an enemy it would be within 1" of."""
        scene = self.state.scene
        fp = footprint_polygon(end, mover.formation)
        for enemy in self.state.enemies_of(mover.player):
            d = fp.distance(scene.footprint(enemy.id))
            if d < 1.0 - 1e-6 and d < scene.distance(mover.id, enemy.id) - 1e-6:
                return True
        return False

    def _note_close(self, charger: Unit, target: Unit) -> None:
        """Remember enemy pairs a melee leaves within 1" of each other out of melee (a blocked move back; a charge
        that ended near another enemy): legal by docs/rulings.md "Moving back 1"", until one of them moves away
        (``tolerated_closeness``)."""
        a, scene = self.act, self.state.scene
        for unit in (charger, target):
            if not unit.on_table:
                continue
            for enemy in self.state.enemies_of(unit.player):
                pair = sorted((unit.id, enemy.id))
                if enemy.id not in unit.engaged_with and scene.distance(unit.id, enemy.id) < 1.0 - 1e-6 \
                        and pair not in a.close:
                    a.close.append(pair)

    @classmethod
    def tolerated_closeness(cls, state: GameState) -> set[frozenset[str]]:
        """Enemy pairs left within 1" of each other out of melee by a melee (see ``_note_close``) and still that
        close: the invariant checks (``game.autoplay.state_is_consistent``) accept them."""
        a = state.activation
        if not isinstance(a, Activations):
            return set()
        out = set()
        for pair in a.close:
            x, y = (state.units.get(u) for u in pair)
            if x is not None and y is not None and x.on_table and y.on_table and \
                    state.scene.distance(x.id, y.id) < 1.0 - 1e-6:
                out.add(frozenset(pair))
        return out

    def _clear_of_enemies(self, mover: Unit, end: Pose, charger: Unit, target: Unit) -> bool:
        """Whether ``mover`` at ``end`` and the other unit of the melee stand 1" from every enemy unit."""
        scene = self.state.scene
        fp = footprint_polygon(end, mover.formation)
        for unit in (charger, target):
            for enemy in self.state.enemies_of(unit.player):
                if unit is mover:
                    d = fp.distance(scene.footprint(enemy.id))
                elif enemy is mover:
                    d = scene.footprint(unit.id).distance(fp)
                else:
                    d = scene.distance(unit.id, enemy.id)
                if d < 1.0 - 1e-6:
                    return False
        return True

    def _consolidate(self, action: Consolidate) -> list[Event]:
        a = self._expect(action, "consolidate")
        pending = self.state.pending
        unit = self.own_unit(action)
        if pending is None or unit.id != pending.unit:
            raise IllegalAction("Consolidation Moves", f"{pending.unit if pending else '?'} consolidates now")
        del a
        return consolidation_move(self.state, self.dice, unit, action.path) + self._end_activation()
