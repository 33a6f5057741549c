"""Computer players for lessons: a small deterministic rule-based player, or the autoplay random player.

``SimplePlayer`` plays like a beginner who knows the rules: it charges whatever it can reach (the nearest
target), answers charges with Stand and Shoot when it may, else Holds, runs down fleeing units, advances toward the
nearest enemy (or holds to shoot when a target is already in range), shoots the nearest valid target, always
pursues and follows up, and casts no spells in AoWFBR's strategy phases; in an activation ruleset (AoF:R 2.16, the
quick rules) it activates its units in scenario order, always strikes back, and its wizards and casters cast the
plainest useful spell before acting (``_pick_cast``: hits or a curse on the nearest enemy, a rally or heal where
needed, a boon on a friend near the enemy) and stand against the enemy's spells that fall on its units (every
wizard that may blocks; under the quick rules up to ``DISPEL_TOKENS`` tokens against them). It never rolls dice of
its own and uses its seeded generator only for the few decisions it leaves to ``game.autoplay.RandomPlayer``
(deployment). It keeps no memory between calls (all
it needs is in the game state), so it may be asked about cloned games. Moves are checked by the engine's validator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from game import skirmish_play
from game.autoplay import RandomPlayer, point_shot
from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    CastSpell,
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
from game.engine.state import Phase, Unit
from geometry.pose import Pose, bearing_difference, bearing_to

ADVANCE_TRIES = (6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
"""Distances (inches) the simple player tries for an Advance, longest first."""
DISPEL_TOKENS = 2
"""Tokens the simple player spends at most against an enemy spell falling on its units (the quick rules)."""
BOON_REACH = 12.0
"""Inches from an enemy within which a friend is worth a boon (a spell raising its stats)."""


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
        if d == "dispel" and s.phase is Phase.ACTIVATION:     # the quick rules' Caster(X)
            return self._dispel(game, player)
        if d in ("strategy", "dispel", "rally", "consolidate", "ambush", "wavering"):
            return Done(player)
        if d == "activate":         # an activation ruleset (AoF:R 2.16): its units in scenario order
            return Activate(player, p.options[0])
        if d == "block_spell":      # AoF:R 2.16 "Wizard(X)": block what falls on its units
            return self._block(game, player)
        if d in ("action", "shoot"):  # a wizard or caster casts first (before attacking)
            cast = _pick_cast(game, player)
            if cast is not None:
                return cast
        if d == "action":           # then it charges the nearest target or moves
            assert p.unit is not None
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
                targets = game.shooting_targets(unit.id, nearest=True)
                if targets:
                    return Shoot(player, unit.id, targets[0])
            return Done(player)
        if d == "pursue":
            assert p.unit is not None
            return Pursue(player, p.unit, True)
        if d == "follow_up":
            assert p.unit is not None
            return FollowUp(player, p.unit, True, p.options[0] if p.options else None)  # options: the candidates
        return self._fallback.choose(game)

    @staticmethod
    def _block(game: Game, player: int) -> Action:
        """AoF:R 2.16 ``block_spell``: every wizard that may blocks a spell falling on its units; a spell on the
        caster's own side only with wizards that have already activated (the others keep their try to cast)."""
        p = game.pending
        assert p is not None
        waiting = getattr(game.state.activation, "cast", None)
        if waiting is None:
            return Done(player)
        activated = set(getattr(game.state.activation, "activated", ()))
        harmful = _falls_on(game, player, waiting.caster, waiting.spell, waiting.target, waiting.point)
        wizards = [uid for uid in p.options if harmful or uid in activated]
        return Dispel(player, tuple(TokenSpend(1, uid) for uid in wizards)) if wizards else Done(player)

    @staticmethod
    def _dispel(game: Game, player: int) -> Action:
        """The quick rules' ``dispel``: up to ``DISPEL_TOKENS`` tokens (from the casters holding the most) against a
        spell falling on its units; none against the others."""
        s = game.state
        cast = magic.magic_of(s).cast
        caster = magic.find_caster(s, cast.caster) if cast is not None else None
        if cast is None or caster is None or not _falls_on(game, player, cast.caster, cast.spell, cast.target,
                                                           cast.point):
            return Done(player)
        sources = sorted(magic.token_sources(s, caster, player), key=lambda un: (-un[1], str(un[0])))
        spends = magic.take_tokens(sources, DISPEL_TOKENS)
        action = Dispel(player, spends)
        return action if spends and game.check_magic(action) is None else Done(player)

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


def _falls_on(game: Game, player: int, caster_id: str, name: str, target: str | None,
              point: tuple[float, float] | None) -> bool:
    """Whether the spell ``name`` cast by ``caster_id`` falls on a unit of ``player`` (its target, or a unit in the
    area around ``point``)."""
    s = game.state
    caster = magic.find_caster(s, caster_id)
    spell = magic.spells_of(s, 3 - player).get(name)
    if caster is None or spell is None:
        return False
    if point is not None:
        return any(u.player == player for u in magic.units_in_area(s, caster, spell, point))
    unit = s.units.get(target) if target is not None else None
    return unit is not None and unit.player == player


def _pick_cast(game: Game, player: int) -> CastSpell | None:
    """The plainest useful cast of the activated unit (``Game.activation_casts``), or None: hits on the nearest
    enemy (or at the point whose area holds the most enemy units and none of its own), a rally of a Shaken friend,
    a heal of a wounded one, a curse on the nearest enemy, a boon on the friend nearest an enemy within
    ``BOON_REACH``; the first of these the engine accepts."""
    s = game.state
    scene = s.scene
    spells = magic.spells_of(s, player)
    enemies = [e for e in s.enemies_of(player) if e.on_table and e.pose is not None]

    def near(uid: str) -> float:
        return min((scene.distance(uid, e.id) for e in enemies), default=99.0)

    ranked: list[tuple[int, float, int, CastSpell]] = []
    for i, c in enumerate(game.activation_casts(player)):
        spell = spells.get(c.spell)
        caster = magic.find_caster(s, c.unit)
        if spell is None or caster is None:
            continue
        if c.point is not None:
            hit = magic.units_in_area(s, caster, spell, (c.point.x, c.point.y))
            foes = sum(1 for u in hit if u.player != player)
            if foes and not any(u.player == player for u in hit):
                ranked.append((0 if spell.hits is not None else 3, -float(foes), i, c))
            continue
        t = s.units.get(c.target) if c.target is not None else caster
        if t is None:
            continue
        if t.player != player:
            ranked.append((0 if spell.hits is not None else 3, scene.distance(caster.id, t.id), i, c))
        elif spell.rally and t.shaken:
            ranked.append((1, 0.0, i, c))
        elif spell.heal and t.models < t.starting_models:
            ranked.append((2, 0.0, i, c))
        elif spell.modifier is not None and spell.modifier.value > 0 and near(t.id) <= BOON_REACH:
            ranked.append((4, near(t.id), i, c))
    for *_, c in sorted(ranked, key=lambda r: (r[0], r[1], r[2])):
        if game.check_magic(c) is None:
            return c
    return None


__all__ = ["SimplePlayer"]
