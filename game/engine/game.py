"""A game in progress: the generic machinery every ruleset shares (issue 14, "The seam").

``Game.apply(action)`` checks that the action answers the pending decision's player, hands it to the handler the
game's ruleset gives for its type (``game.engine.rulesets``: AoWFBR 1.4's turn sequence is
``game.engine.rulesets.aowfbr``), and records the action, its events, a digest of them and the dice it rolled. The
handler applies it and runs everything the rules do by themselves until the next decision. A game is fully
described by its scenario (which names the ruleset), its dice and the list of actions: replaying them gives the
same game. The queries and ``check_*`` the window and the players use are answered by the ruleset.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from game.engine import side_missions
from game.engine.actions import Action, CastSpell, Disembark, Embark, Move, RallyPivot, ShootPoint
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.rulesets import make_ruleset
from game.engine.rulesets.base import Handler, Ruleset, check_turn
from game.engine.state import GameState, Pending
from geometry.motion import MoveCheck


class Game:
    """A game in progress: the state, the dice, the actions applied and every event so far, refereed by the
    ruleset the state names (``GameState.ruleset``)."""

    def __init__(self, state: GameState, dice: Dice) -> None:
        """Raises ``ValueError`` when ``state.ruleset`` is not a playable ruleset."""
        self.state = state
        """The game state (mutated only through ``apply``)."""
        self.dice = dice
        """The one source of dice."""
        self.history: list[Action] = []
        """Actions applied, in order: with the scenario and dice, the game record."""
        self.log: list[Event] = []
        """Every event so far, in order."""
        self.digests: list[str] = []
        """For each action applied, a short digest of its outcome (the events it caused)."""
        self.keep_digests = True
        """False: ``digests`` gets "" for each action applied (a look-ahead copy nothing records or replays, e.g.
        the computer opponent's seat view: the digests were about 5% of its thinking time)."""
        self.dice_used: list[int] = []
        """For each action applied, how many D6 it rolled (0: it may be taken back)."""
        self.log_index: list[int] = []
        """For each action applied, the index in ``log`` of its first event."""
        self.ruleset: Ruleset = make_ruleset(state.ruleset, self)
        """The rules of this game's system (turn structure, queries, victory)."""
        self._handlers: Mapping[type[Action], Handler] | None = None   # built at the first apply (clones are many)

    # --- construction --------------------------------------------------------------------------------------
    @classmethod
    def start(cls, state: GameState, dice: Dice) -> Game:
        """Begin a game at the position the scenario gives and run until the first decision (``Ruleset.start``)."""
        game = cls(state, dice)
        game.log += game.ruleset.start()
        return game

    # --- queries (answered by the ruleset) -----------------------------------------------------------------------
    @property
    def pending(self) -> Pending | None:
        """The decision the engine waits for, or None when the game is over."""
        return self.state.pending

    def check_move(self, action: Move) -> IllegalAction | None:
        """Why a proposed move is illegal, or None if it may be made now (nothing changes)."""
        return self.ruleset.check_move(action)

    def move_info(self, action: Move) -> MoveCheck | None:
        """The geometry of a legal proposed move (distance, terrain crossed), or None if it is illegal."""
        return self.ruleset.move_info(action)

    def charge_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may declare a charge against now."""
        return self.ruleset.charge_targets(unit_id)

    def melee_pick(self, unit_id: str, enemy_id: str) -> str | None:
        """The model ``unit_id`` may pick in a melee with ``enemy_id`` (``Ruleset.melee_pick``), or None."""
        return self.ruleset.melee_pick(unit_id, enemy_id)

    def activation_casts(self, player: int) -> list[CastSpell]:
        """Spells ``player``'s activated unit may try now (``Ruleset.activation_casts``)."""
        return self.ruleset.activation_casts(player)

    def redirect_targets(self, unit_id: str) -> list[str]:
        """Units a charger whose target fled may redirect to now, if it may still redirect."""
        return self.ruleset.redirect_targets(unit_id)

    def shooting_targets(self, unit_id: str, nearest: bool = False) -> list[str]:
        """Valid shooting targets of ``unit_id`` now (empty for artillery that fires at target points); ``nearest``:
        only the nearest of them (closest distance, then id), found without working out the others."""
        return self.ruleset.shooting_targets(unit_id, nearest)

    def breath_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may hit with its Breath Attack when shooting now (``Ruleset.breath_targets``)."""
        return self.ruleset.breath_targets(unit_id)

    def breath_in_melee(self, unit_id: str) -> bool:
        """Whether ``unit_id`` may use its Breath Attack in the melee it fights next (``Ruleset.breath_in_melee``)."""
        return self.ruleset.breath_in_melee(unit_id)

    def point_shooter(self, unit_id: str) -> bool:
        """True if ``unit_id`` may fire at a target point now; whether a given point is valid:
        ``check_shoot_point``."""
        return self.ruleset.point_shooter(unit_id)

    def check_shoot_point(self, action: ShootPoint) -> IllegalAction | None:
        """Why a proposed ``shoot_point`` is illegal now, or None (nothing changes)."""
        return self.ruleset.check_shoot_point(action)

    def units_to_move(self, player: int) -> list[str]:
        """Units of ``player`` that may still take a move action now."""
        return self.ruleset.units_to_move(player)

    def chargers(self, player: int) -> list[str]:
        """Units of ``player`` that have at least one valid charge target now (units inside a Transport too)."""
        return self.ruleset.chargers(player)

    def shooters(self, player: int) -> list[str]:
        """Units of ``player`` that have at least one valid shooting target now, or may fire at a target point."""
        return self.ruleset.shooters(player)

    def check_deploy(self, action: Action) -> IllegalAction | None:
        """Why a proposed deployment action is illegal, or None (nothing changes)."""
        return self.ruleset.check_deploy(action)

    def check_magic(self, action: Action) -> IllegalAction | None:
        """Why a proposed ``cast_spell``, ``dispel`` or ``allocate_tokens`` is illegal now, or None (nothing
        changes)."""
        return self.ruleset.check_magic(action)

    def check_transport(self, action: Embark | Disembark) -> IllegalAction | None:
        """Why a proposed embark or disembark is illegal now, or None (nothing changes)."""
        return self.ruleset.check_transport(action)

    def check_rally_pivot(self, action: RallyPivot) -> IllegalAction | None:
        """Why a proposed pivot after rallying is illegal, or None (nothing changes)."""
        return self.ruleset.check_rally_pivot(action)

    def victory_points(self) -> dict[int, int]:
        """Victory points each player would score now (the ruleset's victory conditions)."""
        return self.ruleset.victory_points()

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """Where each player's victory points come from, line by line."""
        return self.ruleset.victory_breakdown()

    # --- applying actions ----------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and everything that follows until the next decision; returns the events.

        Raises ``IllegalAction`` naming the rule the action breaks; the state is then unchanged.
        """
        check_turn(self.state.pending, action)
        if self._handlers is None:
            self._handlers = self.ruleset.handlers()
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction("Turn Sequence", f"{action.type} is not an action of this game")
        if getattr(action, "model", None) is not None and action.type in ("declare_charge", "strike_back") \
                and not self.ruleset.melee_picks:
            raise IllegalAction("Takedown", f"{action.type} names no model under {self.ruleset.title}: only the AoF:R "
                                "quick rules' Takedown picks a model in melee")
        if getattr(action, "breath", False) and not self.ruleset.breath_attacks:
            raise IllegalAction("Breath Attack", f"{action.type} uses no Breath Attack under {self.ruleset.title}: "
                                "only AoF:R 2.16 plays it")
        before = self.dice.consumed
        events = handler(action)
        side_missions.observe(self.state, self.ruleset.melee_wins(events))   # Onslaught: melees won by 3+ wounds
        self.history.append(action)
        self.digests.append(outcome_digest(events) if self.keep_digests else "")
        self.dice_used.append(self.dice.consumed - before)
        self.log_index.append(len(self.log))
        self.log += events
        return events

    def clone(self) -> Game:
        """An independent copy of this game (state, dice, history) that continues exactly as this one would."""
        twin = Game(self.state.clone(), self.dice.clone())
        twin.history = list(self.history)
        twin.log = list(self.log)
        twin.digests = list(self.digests)
        twin.keep_digests = self.keep_digests
        twin.dice_used = list(self.dice_used)
        twin.log_index = list(self.log_index)
        return twin

    def can_take_back(self, player: int) -> bool:
        """Whether ``player`` may take back the last action: it was theirs and no die has been rolled since
        (a move, a pivot, a declared charge before the opponent answered). Undo is by replay (game.history).
        """
        return bool(self.history) and self.history[-1].player == player and self.dice_used[-1] == 0


def outcome_digest(events: list[Event]) -> str:
    """A short, stable digest of what an action caused (its events' kinds, texts and data), 10 hex digits."""
    payload = json.dumps([[e.kind, e.text, _rounded(e.data)] for e in events], sort_keys=True, default=str,
                         separators=(",", ":"))
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()[:10]


def _rounded(value: Any) -> Any:
    """Floats rounded to 1/1000 inch or degree, so digests do not depend on the last bits of a platform."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {str(k): _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value

