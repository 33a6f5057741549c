"""Watching a recorded game: step forward and back by action, jump to any round, player turn and phase.

A ``ReplayCursor`` replays the record once, keeping a snapshot (a cloned ``Game``) every ``SNAPSHOT_EVERY``
actions; going to any position clones the nearest snapshot at or before it and applies the few actions left.
The timeline lists the main events (charges, combats, units destroyed, routed or fled) with their action index.

A ``Rewinder`` does the same for a game in progress (``game.rewind``, re-exported here with the take-back rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.events import Event
from game.engine.game import Game
from game.engine.state import Phase
from game.record import Record, new_game, scenario_of
from game.rewind import SNAPSHOT_EVERY, Rewinder, TakeBackRefused, take_back_refusal

TIMELINE_KINDS = {"charge", "resolution", "destroyed", "rout", "flee", "victory"}
"""Event kinds that make the timeline."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A point of the game a viewer can jump to."""

    index: int
    """Number of actions applied at this point (0 = the start)."""
    round: int
    """Game round."""
    player: int
    """Active player."""
    phase: Phase
    """Phase at this point."""


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """A main event of the game and the position just after the action that caused it."""

    index: int
    """Actions applied when it had happened."""
    round: int
    """Round it happened in."""
    kind: str
    """Event kind (charge, resolution, destroyed, rout, flee, victory)."""
    text: str
    """The event in words."""


class ReplayCursor:
    """Random access to the positions of a recorded game.

    Raises what ``game.record.new_game`` raises for a bad scenario. Actions that are illegal or whose outcome
    differs from the recorded digest end the replay there (``stopped_at`` and ``problem`` say so).
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        """The record being watched."""
        self.scenario = scenario_of(record)
        """The record's scenario (terrain kinds for drawing, name)."""
        game = new_game(record, self.scenario)
        self._snapshots: dict[int, Game] = {0: game.clone()}
        self.marks: list[Mark] = [self._mark(game, 0)]
        """Where each position is in the turn sequence, for positions 0..len."""
        self.problem: str | None = None
        """Why the replay stopped before the end of the record, if it did."""
        for i, action in enumerate(record.actions):
            try:
                game.apply(action)
            except Exception as e:  # noqa: BLE001 - illegal action, dice run out: watch up to there
                self.problem = f"action {i} ({action.type}) is illegal: {e}"
                break
            want = record.digests[i] if i < len(record.digests) else None
            if want is not None and game.digests[-1] != want:
                self.problem = f"action {i} no longer gives the recorded outcome; the replay stops there"
                break
            self.marks.append(self._mark(game, i + 1))
            if (i + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots[i + 1] = game.clone()
        self.final = game
        """The game at the end of the replay (including a last action whose outcome diverged, if any)."""
        self.length = len(self.marks) - 1
        """Number of actions that replay."""
        self.timeline = self._timeline(game)
        """The main events, in order."""

    @staticmethod
    def _mark(game: Game, index: int) -> Mark:
        s = game.state
        return Mark(index, s.round, s.active_player, s.phase)

    def _timeline(self, game: Game) -> list[TimelineEntry]:
        out: list[TimelineEntry] = []
        for i in range(min(self.length, len(game.log_index))):
            start = game.log_index[i]
            end = game.log_index[i + 1] if i + 1 < len(game.log_index) else len(game.log)
            for e in game.log[start:end]:
                if e.kind in TIMELINE_KINDS and not e.data.get("declared"):
                    out.append(TimelineEntry(i + 1, self.marks[i + 1].round, e.kind, e.text))
        return out

    def game_at(self, index: int) -> Game:
        """A fresh copy of the game after ``index`` actions (0 <= index <= length); raises ``IndexError``."""
        if not 0 <= index <= self.length:
            raise IndexError(f"position {index} is outside 0..{self.length}")
        base = max(k for k in self._snapshots if k <= index)
        game = self._snapshots[base].clone()
        for action in self.record.actions[base:index]:
            game.apply(action)
        return game

    def events_of(self, index: int) -> list[Event]:
        """The events caused by action ``index - 1`` (the step that led to position ``index``)."""
        if index <= 0 or index > self.length:
            return []
        log_index = self.final.log_index
        start = log_index[index - 1]
        end = log_index[index] if index < len(log_index) else len(self.final.log)
        return self.final.log[start:end]

    def find(self, round: int, player: int | None = None, phase: Phase | None = None) -> int:
        """The first position at the given round (and player turn, and phase); raises ``KeyError`` if none."""
        for m in self.marks:
            if m.round == round and (player is None or m.player == player) and (phase is None or m.phase is phase):
                return m.index
        raise KeyError(f"no position at round {round}, player {player}, phase {phase}")


def action_text(game: Game, action: object) -> str:
    """An action in a few words for the window ("Player 1: Spearmen advance", "Player 2: done")."""
    to_dict = getattr(action, "to_dict", None)
    d: dict[str, object] = to_dict() if callable(to_dict) else {}
    units = game.state.units

    def name(uid: object) -> str:
        unit = units.get(uid) if isinstance(uid, str) else None
        return unit.profile.name if unit is not None else str(uid)

    kind = str(d.get("type", "action"))
    who = f"Player {d.get('player', '?')}: "
    unit, target = d.get("unit"), d.get("target")
    if kind == "done":
        return who + "done"
    if kind == "declare_charge":
        return who + f"{name(unit)} declares a charge on {name(target)}"
    if kind in ("move", "move_models"):
        return who + f"{name(unit)} — {d.get('action', 'move')}"
    if kind == "shoot":
        return who + f"{name(unit)} shoots at {name(target)}"
    if kind == "charge_reaction":
        return who + f"{name(unit)} reacts: {str(d.get('reaction', '')).replace('_', ' ')}"
    if kind == "cast_spell":
        point = d.get("point")
        at = f" at ({point.get('x')}, {point.get('y')})" if isinstance(point, dict) else ""
        return who + f"{name(unit)} casts {d.get('spell')}" + (f" on {name(target)}" if target else at)
    if kind == "redirect":
        return who + f"{name(unit)} " + (f"redirects to {name(target)}" if target else "runs down")
    text = kind.replace("_", " ")
    return who + (f"{name(unit)} — {text}" if unit else text)


__all__ = ["SNAPSHOT_EVERY", "Mark", "ReplayCursor", "Rewinder", "TakeBackRefused", "TimelineEntry", "action_text",
           "take_back_refusal"]
