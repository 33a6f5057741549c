"""Computer players for headless games: each picks a random legal action (``main.py autoplay``).

The players use their own seeded generator, separate from the game's dice, so the same seed gives the same game
twice. Moves are sampled (a random Advance or Rush toward or past the enemy, or a pivot) and checked with the
engine's validator; the first legal one is made.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from geometry.pose import Pose, bearing_difference, bearing_to
from game.engine.actions import (
    Action,
    ChargeReaction,
    Consolidate,
    DeclareCharge,
    Deploy,
    Done,
    FollowUp,
    Move,
    Pursue,
    RallyPivot,
    Redirect,
    Shoot,
)
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.state import GameState, MoveAction, Unit

MOVE_TRIES = 12
"""Candidate moves sampled per unit before it holds."""


@dataclass
class RandomPlayer:
    """Chooses random legal actions for whichever player must decide."""

    rng: random.Random
    """The player's own generator (never the game's dice)."""
    moved: set[tuple[int, int, str]] = field(default_factory=set)
    """(round, player, unit) already considered for a move this turn."""

    def choose(self, game: Game) -> Action:
        """A legal action answering ``game.pending``. Raises ``RuntimeError`` when the game is over."""
        p = game.pending
        if p is None:
            raise RuntimeError("the game is over")
        s = game.state
        player = p.player
        if p.decision == "declare_charge":
            for uid in self._shuffled([u.id for u in s.units_of(player)]):
                targets = game.charge_targets(uid)
                if targets and self.rng.random() < 0.7:
                    return DeclareCharge(player, uid, self.rng.choice(targets))
            return Done(player)
        if p.decision == "charge_reaction":
            assert p.unit is not None
            return ChargeReaction(player, p.unit, self.rng.choice(list(p.options)))
        if p.decision == "redirect":
            assert p.unit is not None
            targets = game.redirect_targets(p.unit)
            if targets and self.rng.random() < 0.5:
                return Redirect(player, p.unit, self.rng.choice(targets))
            return Redirect(player, p.unit, None)
        if p.decision == "move":
            for uid in game.units_to_move(player):
                key = (s.round, player, uid)
                if key in self.moved:
                    continue
                self.moved.add(key)
                move = self._sample_move(game, s.units[uid])
                if move is not None:
                    return move
            return Done(player)
        if p.decision == "shoot":
            for uid in self._shuffled([u.id for u in s.units_of(player)]):
                targets = game.shooting_targets(uid)
                if targets:
                    return Shoot(player, uid, self.rng.choice(targets))
            return Done(player)
        if p.decision == "pursue":
            assert p.unit is not None
            return Pursue(player, p.unit, self.rng.random() < 0.7)
        if p.decision == "follow_up":
            assert p.unit is not None
            return FollowUp(player, p.unit, self.rng.random() < 0.7)
        if p.decision == "consolidate":
            assert p.unit is not None
            unit = s.units[p.unit]
            if unit.pose is not None and self.rng.random() < 0.5:
                action = Consolidate(player, p.unit, (unit.pose.turned(self.rng.uniform(-180, 180)),))
                if _legal(game, action):
                    return action
            return Done(player)
        if p.decision == "rally":
            for uid in p.options:
                unit = s.units[uid]
                if unit.pose is not None and self.rng.random() < 0.5:
                    action = RallyPivot(player, uid, unit.pose.turned(self.rng.uniform(-180, 180)).facing)
                    if _legal(game, action):
                        return action
            return Done(player)
        if p.decision == "deploy":
            return self._sample_deploy(game, player, list(p.options))
        return Done(player)

    def _shuffled(self, items: list[str]) -> list[str]:
        items = list(items)
        self.rng.shuffle(items)
        return items

    def _sample_move(self, game: Game, unit: Unit) -> Move | None:
        assert unit.pose is not None
        s = game.state
        enemies = s.enemies_of(unit.player)
        start = unit.pose
        for _ in range(MOVE_TRIES):
            kind = self.rng.choices(["advance", "rush", "hold"], weights=[6, 3, 1])[0]
            if kind == "hold":
                path: tuple[Pose, ...] = (start.turned(self.rng.uniform(-90, 90)),)
            else:
                facing = start.facing
                if enemies and self.rng.random() < 0.8:
                    near = min(enemies, key=lambda e: s.scene.distance(unit.id, e.id))
                    assert near.pose is not None
                    want = bearing_to(start.xy, near.pose.xy)
                    turn = max(-90.0, min(90.0, bearing_difference(facing, want)))
                else:
                    turn = self.rng.uniform(-45, 45)
                facing = start.turned(turn).facing
                limit = 6.0 if kind == "advance" else 12.0
                dist = self.rng.uniform(0.3, 1.0) * limit
                r = math.radians(facing)
                end = Pose(start.x + dist * math.sin(r), start.y + dist * math.cos(r), facing)
                path = (start.facing_to(facing), end)
            move = Move(unit.player, unit.id, kind, path)
            if game.check_move(move) is None:
                return move
        return None

    def _sample_deploy(self, game: Game, player: int, options: list[str]) -> Action:
        s = game.state
        uid = options[0]
        unit = s.units[uid]
        f = unit.formation
        for _ in range(200):
            x = self.rng.uniform(f.width / 2 + 0.5, s.table.width - f.width / 2 - 0.5)
            depth = f.depth / 2 + 0.5
            y = self.rng.uniform(depth, 12 - depth) if player == 1 else \
                self.rng.uniform(s.table.depth - 12 + depth, s.table.depth - depth)
            action = Deploy(player, uid, Pose(x, y, 0.0 if player == 1 else 180.0))
            if _legal(game, action):
                return action
        raise RuntimeError(f"no room to deploy {unit.name}")


def _legal(game: Game, action: Action) -> bool:
    """Whether ``action`` is legal now, asked of the engine's validators (nothing changes)."""
    if isinstance(action, Move):
        return game.check_move(action) is None
    if isinstance(action, Deploy):
        return game.check_deploy(action) is None
    if isinstance(action, RallyPivot):
        return game.check_rally_pivot(action) is None
    return True  # consolidation: play_out falls back to Done if the engine refuses it


@dataclass
class GameSummary:
    """One autoplayed game: the line ``autoplay`` prints."""

    seed: int
    rounds: int
    victory_points: dict[int, int]
    actions: int
    seconds: float
    events: list[Event] = field(default_factory=list)

    @property
    def winner(self) -> int | None:
        """1, 2 or None for a draw."""
        a, b = self.victory_points[1], self.victory_points[2]
        return None if a == b else (1 if a > b else 2)


def play_out(game: Game, seed: int, after_action: Callable[[Game, Action], None] | None = None,
             max_actions: int = 20000) -> list[Action]:
    """Let two random players finish ``game``; ``after_action`` is called after every action (invariants).

    Raises ``RuntimeError`` if a player proposes an illegal action (a bug) or the game does not end.
    """
    player = RandomPlayer(random.Random(seed))
    actions: list[Action] = []
    while game.pending is not None:
        if len(actions) >= max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions")
        action = player.choose(game)
        try:
            game.apply(action)
        except IllegalAction as e:
            if not isinstance(action, Consolidate):
                raise RuntimeError(f"random player chose an illegal action {action.to_dict()}: {e}") from e
            action = Done(action.player)
            game.apply(action)
        actions.append(action)
        if after_action is not None:
            after_action(game, action)
    return actions


def state_is_consistent(state: GameState) -> list[str]:
    """Invariants of a game state after any action; returns the violations found (empty when all hold).

    No overlapping units; no unit within 1" of an enemy unless they are locked in melee or one of them charged
    this turn (rulebook "General Movement": the 1" rule does not bind a Charge action); everything on the table; model counts never negative and never above the starting size.
    """
    problems: list[str] = []
    scene = state.scene
    on = [u for u in state.units.values() if u.on_table]
    for u in state.units.values():
        if u.models < 0 or u.models > u.starting_models:
            problems.append(f"{u.id} has {u.models} models (started with {u.starting_models})")
        if u.on_table and u.models == 0:
            problems.append(f"{u.id} is on the table with no models")
    for u in on:
        if not scene.on_table(scene.footprint(u.id)):
            problems.append(f"{u.id} is off the table")
    for i, a in enumerate(on):
        fa = scene.footprint(a.id)
        for b in on[i + 1:]:
            fb = scene.footprint(b.id)
            if fa.intersection(fb).area > 1e-6:
                problems.append(f"{a.id} overlaps {b.id}")
            elif a.player != b.player and fa.distance(fb) < 1.0 - 1e-3:
                related = (b.id in a.engaged_with or a.id in b.engaged_with or _in_same_combat(state, a, b)
                           or MoveAction.CHARGE in (a.move_action, b.move_action))
                if not related:
                    problems.append(f"{a.id} is within 1\" of enemy {b.id} outside melee "
                                    f"({fa.distance(fb):.2f}\")")
    return problems


def _in_same_combat(state: GameState, a: Unit, b: Unit) -> bool:
    """Units of one continuous combat may touch (rulebook "Multiple Units in Combat")."""
    seen = {a.id}
    todo = [a.id]
    while todo:
        cur = state.units[todo.pop()]
        for other in cur.engaged_with:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return b.id in seen and bool(a.engaged_with)
