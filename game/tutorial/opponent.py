"""Computer players for lessons: a small deterministic rule-based player, or the autoplay random player.

``SimplePlayer`` plays like a beginner who knows the rules: it charges whatever it can reach (the nearest
target), answers charges with Stand and Shoot when it may, else Holds, runs down fleeing units, advances toward the
nearest enemy (or holds to shoot when a target is already in range), shoots the nearest valid target, always
pursues and follows up, and casts no spells; in an activation ruleset (AoF:R 2.16) it activates its units in
scenario order and always strikes back. It never rolls dice of its own and uses its seeded generator only for
the few decisions it leaves to ``game.autoplay.RandomPlayer`` (deployment). It keeps no memory between calls (all
it needs is in the game state), so it may be asked about cloned games. Moves are checked by the engine's validator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from game import skirmish_play
from game.autoplay import RandomPlayer, point_shot
from game.engine.actions import (
    Action,
    Activate,
    ChargeReaction,
    DeclareCharge,
    Dispel,
    Done,
    FollowUp,
    Move,
    Pursue,
    Redirect,
    RollCharge,
    Shoot,
    StrikeBack,
    TokenSpend,
    rounded_pose,
)
from game.engine.game import Game
from game.engine.skirmish.loose import Warband
from game.engine.state import Unit
from geometry.pose import Pose, bearing_difference, bearing_to

ADVANCE_TRIES = (6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
"""Distances (inches) the simple player tries for an Advance, longest first."""


@dataclass
class SimplePlayer:
    """A deterministic rule-based player (see module docstring)."""

    seed: int = 1
    """Seed of the generator used for the decisions left to the random player."""
    _fallback: RandomPlayer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._fallback = RandomPlayer(random.Random(self.seed))

    def choose(self, game: Game) -> Action:
        """A legal action answering ``game.pending``. Raises ``RuntimeError`` when the game is over."""
        p = game.pending
        if p is None:
            raise RuntimeError("the game is over")
        if isinstance(game.state.activation, Warband):   # AoF: Skirmish's loose models
            return skirmish_play.choose(game, self._fallback.rng, simple=True)
        s = game.state
        player = p.player
        d = p.decision
        if d in ("strategy", "dispel", "rally", "consolidate", "ambush", "wavering"):
            return Done(player)
        if d == "activate":         # an activation ruleset (AoF:R 2.16): its units in scenario order
            return Activate(player, p.options[0])
        if d == "block_spell":      # AoF:R 2.16 "Wizard(X)": every wizard that may block rolls to block
            return Dispel(player, tuple(TokenSpend(1, uid) for uid in p.options))
        if d == "action":           # a wizard casts its first spell, then charges the nearest target or moves
            assert p.unit is not None
            casts = game.activation_casts(player)
            if casts:
                return casts[0]
            targets = game.charge_targets(p.unit)
            if targets:     # AoF:R 2.16 "Breath Attack": it breathes in the melee when it may
                return DeclareCharge(player, p.unit, self._nearest(game, s.units[p.unit], targets),
                                     breath=game.breath_in_melee(p.unit))
            return self._move(game, s.units[p.unit])
        if d == "strike_back":
            assert p.unit is not None
            return StrikeBack(player, p.unit, breath=game.breath_in_melee(p.unit))
        if d == "declare_charge":
            for unit in s.units_of(player):
                targets = game.charge_targets(unit.id)
                if targets:
                    return DeclareCharge(player, unit.id, self._nearest(game, unit, targets))
            return Done(player)
        if d == "charge_reaction":
            assert p.unit is not None
            reaction = "stand_and_shoot" if "stand_and_shoot" in p.options else "hold"
            return ChargeReaction(player, p.unit, reaction)
        if d == "redirect":
            assert p.unit is not None
            return Redirect(player, p.unit, None)
        if d == "roll_charge":      # Random Charge Distances: the charges in the order they were declared
            return RollCharge(player, p.options[0])
        if d == "move":
            for uid in game.units_to_move(player):
                return self._move(game, s.units[uid])
            return Done(player)
        if d == "shoot":
            for unit in s.units_of(player):
                if unit.shot_targets:
                    continue  # one weapon group per unit is enough for this player
                if game.point_shooter(unit.id):     # Random Scatter for Artillery: the nearest enemy's centre
                    shot = point_shot(game, player, unit.id, None)
                    if shot is not None:
                        return shot
                    continue
                breath = game.breath_targets(unit.id)     # AoF:R 2.16 "Breath Attack": first, at the nearest
                if breath:
                    return Shoot(player, unit.id, self._nearest(game, unit, breath), breath=True)
                targets = game.shooting_targets(unit.id)
                if targets:
                    return Shoot(player, unit.id, self._nearest(game, unit, targets))
            return Done(player)
        if d == "pursue":
            assert p.unit is not None
            return Pursue(player, p.unit, True)
        if d == "follow_up":
            assert p.unit is not None
            return FollowUp(player, p.unit, True, p.options[0] if p.options else None)  # options: the candidates
        return self._fallback.choose(game)

    @staticmethod
    def _nearest(game: Game, unit: Unit, ids: list[str]) -> str:
        scene = game.state.scene
        return min(ids, key=lambda t: (scene.distance(unit.id, t), t))

    def _move(self, game: Game, unit: Unit) -> Move:
        """Hold if a ranged weapon already has a target in range, else Advance toward the nearest enemy."""
        s = game.state
        assert unit.pose is not None
        hold = Move(unit.player, unit.id, "hold", ())
        enemies = s.enemies_of(unit.player)
        if not enemies:
            return hold
        near = min(enemies, key=lambda e: (s.scene.distance(unit.id, e.id), e.id))
        gap = s.scene.distance(unit.id, near.id)
        reach = max((w.range or 0.0 for w in unit.profile.weapons), default=0.0)
        start = unit.pose
        assert near.pose is not None
        want = bearing_to(start.xy, near.pose.xy)
        turn = max(-90.0, min(90.0, bearing_difference(start.facing, want)))
        if reach and gap <= reach:
            pivot = Move(unit.player, unit.id, "hold", (rounded_pose(start.turned(turn)),))
            return pivot if abs(turn) > 1.0 and game.check_move(pivot) is None else hold
        facing = start.turned(turn).facing
        r = math.radians(facing)
        for dist in ADVANCE_TRIES:
            dist = min(dist, max(gap - 1.2, 0.0))
            if dist <= 0.2:
                break
            end = Pose(start.x + dist * math.sin(r), start.y + dist * math.cos(r), facing)
            path = (start.facing_to(facing), end) if abs(turn) > 1e-6 else (end,)
            move = Move(unit.player, unit.id, "advance", tuple(rounded_pose(p) for p in path))
            if game.check_move(move) is None:
                return move
        return hold


__all__ = ["SimplePlayer"]
