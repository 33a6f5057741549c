"""AoF:R 2.16 "Morale": the tests at the end of an activation and after a lost melee, Wavering and Rout, and a
Wavering unit's idle activation ("Wavering Units"; ``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from game.engine.actions import RallyPivot, pose_to_dict
from game.engine.attacks import Modifier, succeeds, total
from game.engine.casualties import at_half_strength, remaining_strength, starting_strength
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event, roll_event
from game.engine.morale import MoraleTerms, morale_fail_estimate
from game.engine.movement import path_problem
from game.engine.rulesets import aofr_rules
from game.engine.rulesets.aofr_rounds import AoFRRounds
from game.engine.rulesets.aofr_state import WAVERING_PIVOT
from game.engine.spell_effects import effect_modifiers
from game.engine.state import Removal, Unit
from geometry.pose import Pose, bearing_difference
from geometry.shapes import footprint_polygon


class AoFRMorale(AoFRRounds):
    """Morale tests, Wavering and Rout; the end of an activation."""

    def _end_activation(self) -> list[Event]:
        """"Morale: When to Test": units left at half strength or less by wounds taken this activation outside
        melee take a morale test (Wavering if failed); then the other player activates."""
        s, a = self.state, self.act
        events: list[Event] = []
        for u in list(s.units.values()):
            if not u.on_table or u.id in a.melee or u.id not in a.strength:
                continue
            if remaining_strength(u) < a.strength[u.id] and at_half_strength(u):
                passed, evs = self._morale_test(u, "at half strength")
                events += evs
                if not passed and not u.shaken:
                    u.shaken = True
                    events.append(Event("shaken", f"{u.name} is {self.morale_states['shaken']}", {"unit": u.id}))
        player = s.units[a.unit].player if a.unit is not None else s.active_player
        return events + self._next_activation(3 - player)

    @classmethod
    def morale_test_terms(cls, unit: Unit) -> MoraleTerms:
        """AoF:R 2.16 "Taking Morale Tests": a Quality test of the unit's own Quality; "Fearless": +1 to the roll;
        "Hero": the joined hero's Quality may be used; a Wavering unit fails automatically ("Wavering Units")."""
        quality, taker = aofr_rules.morale_quality(unit)
        fearless = aofr_rules.fearless(unit, taker)
        mods = (fearless,) if fearless is not None else ()
        who = f"taken by {taker.name} (Hero)" if taker is not unit.profile else ""
        return MoraleTerms(quality, who, mods, False, unit.shaken)

    flank_morale: ClassVar[Mapping[str, int]] = {}
    """Modifiers of a melee loser's morale test by the side it was charged in (2.16: none; the quick rules'
    "Flanking" -1/-2)."""

    def melee_loss_estimate(self, unit: Unit, difference: int, side: str) -> tuple[float, float, float]:
        """The estimate of ``Ruleset.melee_loss_estimate`` under AoF:R 2.16 "Morale": the loser tests (no modifier
        for the difference; ``flank_morale`` by the side); failed, it routs at half strength or less, else it is
        Wavering (the quick rules: Shaken). Nothing flees."""
        fail = morale_fail_estimate(self.morale_test_terms(unit),
                                    self.flank_morale.get(side, 0) + self._spell_morale(unit))
        if at_half_strength(unit):
            return 0.0, 0.0, fail
        return (0.0 if unit.shaken else fail), 0.0, 0.0

    @classmethod
    def _spell_morale(cls, unit: Unit) -> int:
        """Spells' morale modifiers a test of ``unit`` adds beside ``morale_test_terms`` (2.16: ``_morale_test``
        adds them; the quick rules' terms hold them already)."""
        return total(effect_modifiers(unit, "morale"))

    @classmethod
    def tests_morale_after_shot(cls, unit: Unit, wounds: int, left: int) -> bool:
        """AoF:R 2.16 "Morale: When to Test": a unit that took wounds outside melee this activation and is left at
        half strength or less tests when the activation ends (``_end_activation``); a Wavering unit fails it."""
        return wounds > 0 and 0 < left and left * 2 <= starting_strength(unit)

    def _lost_melee(self, loser: Unit, mods: list[Modifier]) -> list[Event]:
        """"Morale": the loser of a melee tests (with ``mods``: the quick rules' "Flanking"); failed, it routs at half
        strength or less, else it takes the ruleset's morale state (2.16 Wavering, the quick rules' Shaken)."""
        passed, events = self._morale_test(loser, "lost the melee", mods)
        if not passed:
            if at_half_strength(loser):
                events.append(Event("rout", f"{loser.name} routs", {"unit": loser.id}))
                self.state.remove(loser, Removal.ROUTED)
            elif not loser.shaken:
                loser.shaken = True
                events.append(Event("shaken", f"{loser.name} is {self.morale_states['shaken']}", {"unit": loser.id}))
        return events

    def _morale_test(self, unit: Unit, reason: str, mods: list[Modifier] | None = None) -> tuple[bool, list[Event]]:
        """AoF:R 2.16 "Taking Morale Tests": one Quality test; Wavering units fail automatically; "Fearless": +1;
        "Hero": the unit may use its joined hero's Quality (``morale_test_terms``, ``aofr_rules.morale_quality``)."""
        terms = self.morale_test_terms(unit)
        if terms.automatic_fail:
            return False, [Event("morale", f"{unit.name} is Wavering and automatically fails its morale test "
                                 f"({reason})", {"unit": unit.id, "passed": False, "automatic": True})]
        quality, taker = aofr_rules.morale_quality(unit)
        mods = list(terms.modifiers) + effect_modifiers(unit, "morale") + list(mods or [])   # spells, then given
        roll = self.dice.one(f"Morale test of {unit.name} ({reason})")
        passed = succeeds(roll, quality, total(mods))
        need = f"Quality {quality}+" + (f" ({taker.name}, Hero)" if taker is not unit.profile else "")
        events = [roll_event(f"Morale test of {unit.name} ({reason})", [roll], quality, total(mods),
                             1 if passed else 0, [need] + [str(m) for m in mods], unit=unit.id),
                  Event("morale", f"{unit.name} {'passes' if passed else 'fails'} its morale test ({reason})",
                        {"unit": unit.id, "passed": passed, "reason": reason})]
        return passed, events

    def _validate_wavering_pivot(self, action: RallyPivot) -> tuple[Unit, Pose, float]:
        a = self._expect(action, "wavering")
        unit = self._active_unit(action, a)
        assert unit.pose is not None
        turn = bearing_difference(unit.pose.facing, action.facing)
        if abs(turn) > WAVERING_PIVOT + 1e-6:
            word = self.morale_states["shaken"]
            raise IllegalAction(self.recover_section, f"a {word} unit may only pivot by up to 90°")
        new = unit.pose.facing_to(action.facing)
        # "Pivoting": "you may ignore all terrain and units (friendly or enemy) to complete the pivot"; where it
        # ends must still be free (no overlap, on the table)
        scene = self.state.scene
        check = scene.check_path(unit.id, unit.pose, [new], exclusion=0.0)
        if not check.ok:
            raise path_problem(check, self.state)
        # where it ends keeps the 1" of "Advancing" from other units (or comes no closer than it stood)
        end = footprint_polygon(new, unit.formation)
        for other in scene.units_within(unit.id, 1.0 + unit.formation.width + unit.formation.depth):
            d_end, d_now = end.distance(scene.footprint(other)), scene.distance(unit.id, other)
            if d_end < 1.0 - 1e-6 and d_end < d_now - 1e-6:
                raise IllegalAction("Pivoting", f"the pivot would end within 1\" of {self.state.units[other].name} "
                                    f"({d_end:.2f}\")")
        return unit, new, turn

    @reports_illegal
    def check_rally_pivot(self, action: RallyPivot) -> None:
        """Why a proposed pivot of a Wavering unit's idle activation is illegal, or None."""
        self.check_turn(action)
        self._validate_wavering_pivot(action)

    def _wavering_pivot(self, action: RallyPivot) -> list[Event]:
        unit, new, turn = self._validate_wavering_pivot(action)
        self.state.place(unit, new)
        events = [Event("move", f"{unit.name} pivots {abs(turn):.0f}°", {"unit": unit.id, "to": pose_to_dict(new)})]
        return events + self._recover(unit)

    def _recover(self, unit: Unit) -> list[Event]:
        unit.shaken = False
        return [Event("rally", f"{unit.name} stays idle and is no longer {self.morale_states['shaken']}",
                       {"unit": unit.id})] + \
            self._end_activation()
