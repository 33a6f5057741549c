"""The AoF:R 2.16 ruleset's base (``aofr.AoFR216`` is built on it): how its rounds are played where the quick
rules differ (class settings), the round of activations in the state (``act``), whose decision an action answers
(``_expect``, ``_active_unit``) and the unit card's words for a round ("Activating Units").
"""

from __future__ import annotations

from typing import ClassVar

from game.engine.actions import Action
from game.engine.errors import IllegalAction
from game.engine.rulesets import aofr_breath, aofr_rules
from game.engine.rulesets.aofr_state import Activations
from game.engine.rulesets.base import GameHost, Ruleset
from game.engine.state import GameState, Phase, Unit


class AoFRCore(Ruleset):
    """The AoF:R 2.16 core rules for one ``Game``: settings and the round's state."""

    activations_type: ClassVar[type[Activations]] = Activations
    """The dataclass of a round of activations this ruleset keeps in ``GameState.activation``."""
    rush_pivots_first: ClassVar[bool] = True
    """"Rushing": the unit pivots first, then moves in a straight line (False: the quick rules' "pivot once by up to
    90° at any point")."""
    recover_section: ClassVar[str] = "Wavering Units"
    """The section a refused pivot of the idle activation that ends the morale state names."""

    scout_roll_off: ClassVar[bool] = True
    """"Scout": a roll-off when both players have Scouts (False: the quick rules' order, ``scout_reach``)."""
    scout_reach: ClassVar[float | None] = None
    """Inches around the deployment zone a Scout unit is placed in, with no move after (the quick rules' "Scout";
    ``deployment.DeploymentState.scout_reach``); None: placed in the zone, then moved 12"."""
    ambush_distance: ClassVar[float] = aofr_rules.AMBUSH_DISTANCE
    """"Ambush": placed over this many inches from enemy units."""
    ambush_edge: ClassVar[float | None] = None
    """"Ambush": fully within this many inches of a table edge (the quick rules' 6"); None: anywhere."""
    ambush_roll_off: ClassVar[bool] = True
    """"Ambush": a roll-off when both players have units waiting (False: the round's first player places first,
    the quick rules' "starting with the player that activates next")."""
    ambush_seizes: ClassVar[bool] = True
    """Whether a unit arriving by Ambush seizes and contests markers that round (the quick rules': it does not)."""

    @classmethod
    def in_force_words(cls, state: GameState, unit: Unit) -> list[str]:
        """AoF:R 2.16's modifiers on ``unit`` in words (``aofr_rules.in_force_words``)."""
        a = state.activation
        fatigued = isinstance(a, Activations) and unit.id in a.fatigued
        out = aofr_rules.in_force_words(state, unit, fatigued)
        if isinstance(a, Activations) and aofr_breath.has_breath(unit):
            out.append("Breath Attack: used this round" if unit.id in a.breath_used else
                       "Breath Attack: ready this round (melee, or one enemy within 12\" when shooting)")
        return out

    @classmethod
    def activation_status(cls, state: GameState, unit: Unit) -> str | None:
        """"Activating Units": whether ``unit`` is being activated, has activated or may still activate this
        round."""
        a = state.activation
        if not isinstance(a, Activations) or not unit.on_table:
            return None
        if a.unit == unit.id:
            return "Being activated"
        return "Activated this round" if unit.id in a.activated else "Not activated yet this round"

    def __init__(self, game: GameHost) -> None:
        super().__init__(game)

    @property
    def act(self) -> Activations:
        """The round's activations (raises ``IllegalAction`` before the first round)."""
        a = self.state.activation
        if not isinstance(a, Activations):
            raise IllegalAction("Game Structure", "the rounds have not begun yet")
        return a

    def _current(self) -> Activations | None:
        a = self.state.activation
        return a if isinstance(a, Activations) else None

    def _expect(self, action: Action, *stages: str) -> Activations:
        a = self._current()
        if a is None or a.stage not in stages or self.state.phase is not Phase.ACTIVATION:
            pending = self.state.pending
            raise IllegalAction("Activating Units", f"'{action.type}' is not possible now; the game waits for "
                                f"{pending.decision if pending else 'nothing'}")
        return a

    def _active_unit(self, action: Action, a: Activations) -> Unit:
        unit = self.own_unit(action)
        if unit.id != a.unit:
            raise IllegalAction("Activating Units", f"{a.unit} is being activated, not {unit.id}")
        return unit
