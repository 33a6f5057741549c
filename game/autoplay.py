"""Computer players for headless games: each picks a random legal action (``main.py autoplay``).

The players use their own seeded generator, separate from the game's dice, so the same seed gives the same game
twice. Moves are sampled (a random Advance or Rush toward or past the enemy, or a pivot) and checked with the
engine's validator; the first legal one is made.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from game import skirmish_play
from game.engine import magic, side_missions
from game.engine.actions import (
    Action,
    Activate,
    AllocateTokens,
    ChargeReaction,
    ChooseDeployment,
    ChooseFirstTurn,
    ChooseObjectiveOrder,
    Consolidate,
    DeclareCharge,
    Deploy,
    Dispel,
    Done,
    FollowUp,
    Move,
    PivotToFace,
    PlaceObjective,
    Pursue,
    RallyPivot,
    Redirect,
    RollCharge,
    ScoutMove,
    SelectSideMission,
    SetAside,
    Shoot,
    ShootPoint,
    StrikeBack,
    TokenSpend,
    TokenSplit,
    rounded_pose,
)
from game.engine.close_combat import awaiting_pursuit
from game.engine.deployment import zone_polygon
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.game import Game
from game.engine.objectives import free_area, placement_point
from game.engine.rulesets import RULESETS
from game.engine.skirmish.invariants import loose_problems
from game.engine.skirmish.loose import Warband
from game.engine.state import GameState, MoveAction, Pending, Unit
from geometry.pose import Pose, bearing_difference, bearing_to
from geometry.shapes import overlap_area

POINT_TRIES = 8
"""Target points sampled around each enemy for an artillery shot (Random Scatter for Artillery)."""
MOVE_TRIES = 12
"""Candidate moves sampled per unit before it holds."""
OVERLAP_AREA = 0.01
"""Square inches: two footprints sharing more area than this overlap. Geometry counts shapes overlapping by less
than ``geometry.shapes.CONTACT_TOL`` (0.001") as touching, so units in base contact along a whole side (up to
about 10") may share up to 0.01 sq in."""


@dataclass
class RandomPlayer:
    """Chooses random legal actions for whichever player must decide."""

    rng: random.Random
    """The player's own generator (never the game's dice)."""
    moved: set[tuple[int, int, str]] = field(default_factory=set)
    """(round, player, unit) already considered for a move this turn."""

    def choose(self, game: Game) -> Action:
        """A legal action answering ``game.pending``. Raises ``RuntimeError`` when the game is over.

        One named step per pending decision (``_CHOOSERS``); a decision it has no step for is answered ``done``.
        A ruleset with other decisions (issue 14: ``activate`` in AoF:R) adds its steps there.
        """
        p = game.pending
        if p is None:
            raise RuntimeError("the game is over")
        if isinstance(game.state.activation, Warband):   # AoF: Skirmish's loose models
            return skirmish_play.choose(game, self.rng, simple=False)
        step = _CHOOSERS.get(p.decision)
        action = step(self, game, p) if step is not None else None
        return action if action is not None else Done(p.player)

    def _choose_magic(self, game: Game, p: Pending) -> Action | None:
        return self._magic(game, p.player, p.decision, p.unit)

    def _choose_charge(self, game: Game, p: Pending) -> Action | None:
        s, player = game.state, p.player
        inside = [u.id for u in s.units.values() if u.player == player and u.embarked_in and u.removed is None]
        for uid in self._shuffled([u.id for u in s.units_of(player)] + inside):
            targets = game.charge_targets(uid)
            if targets and self.rng.random() < 0.7:
                return DeclareCharge(player, uid, self.rng.choice(targets))
        return None

    def _choose_reaction(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        return ChargeReaction(p.player, p.unit, self.rng.choice(list(p.options)))

    def _choose_redirect(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        targets = game.redirect_targets(p.unit)
        if targets and self.rng.random() < 0.5:
            return Redirect(p.player, p.unit, self.rng.choice(targets))
        return Redirect(p.player, p.unit, None)

    def _choose_move(self, game: Game, p: Pending) -> Action | None:
        s, player = game.state, p.player
        for uid in game.units_to_move(player):
            key = (s.round, player, uid)
            if key in self.moved:
                continue
            self.moved.add(key)
            move = self._sample_move(game, s.units[uid])
            if move is not None:
                return move
        return None

    def _choose_cast(self, game: Game, p: Pending) -> Action | None:
        """AoF:R 2.16 "Wizard(X)": often tries a spell the activated unit may cast before attacking."""
        casts = game.activation_casts(p.player)
        return self.rng.choice(casts) if casts and self.rng.random() < 0.6 else None

    def _choose_block(self, game: Game, p: Pending) -> Action | None:
        """AoF:R 2.16 "Wizard(X)": each wizard that may block rolls to block half the time (None: none blocks)."""
        wizards = [uid for uid in p.options if self.rng.random() < 0.5]
        return Dispel(p.player, tuple(TokenSpend(1, uid) for uid in wizards)) if wizards else None

    def _choose_shot(self, game: Game, p: Pending) -> Action | None:
        s, player = game.state, p.player
        cast = self._choose_cast(game, p)
        if cast is not None:
            return cast
        for uid in self._shuffled([u.id for u in s.units_of(player)]):
            if game.point_shooter(uid):         # Random Scatter for Artillery: a target point
                shot = point_shot(game, player, uid, self.rng)
                if shot is not None:
                    return shot
                continue
            breath = game.breath_targets(uid)       # AoF:R 2.16 "Breath Attack" when shooting
            if breath and self.rng.random() < 0.7:
                return Shoot(player, uid, self.rng.choice(breath), breath=True)
            targets = game.shooting_targets(uid)
            if targets:
                return Shoot(player, uid, self.rng.choice(targets))
        return None

    def _choose_pursue(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        if p.decision == "pursue_target":
            return Pursue(p.player, p.unit, True, self.rng.choice(list(p.options)))
        return Pursue(p.player, p.unit, self.rng.random() < 0.7)

    def _choose_follow_up(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        wants = self.rng.random() < 0.7
        return FollowUp(p.player, p.unit, wants, self.rng.choice(list(p.options)) if wants else None)

    def _choose_pivot_to_face(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        if self.rng.random() < 0.7:
            return PivotToFace(p.player, p.unit, self.rng.choice(list(p.options)))
        return None

    def _choose_consolidation(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        unit = game.state.units[p.unit]
        if unit.pose is not None and self.rng.random() < 0.5:
            turn = round(self.rng.uniform(-180, 180), 1)
            # a pivot in place: the centre stays exactly where it is (rounded, it would be a move as well)
            pivoted = unit.pose.turned(turn)
            action = Consolidate(p.player, p.unit, (Pose(unit.pose.x, unit.pose.y, round(pivoted.facing, 3)),))
            if _legal(game, action):
                return action
        return None

    def _choose_rally_pivot(self, game: Game, p: Pending) -> Action | None:
        for uid in p.options:
            unit = game.state.units[uid]
            if unit.pose is not None and self.rng.random() < 0.5:
                turn = round(self.rng.uniform(-180, 180), 1)
                pivot = RallyPivot(p.player, uid, rounded_pose(unit.pose.turned(turn)).facing)
                if _legal(game, pivot):
                    return pivot
        return None

    def _choose_activation(self, game: Game, p: Pending) -> Action | None:
        """An activation ruleset (AoF:R 2.16): any unit not activated yet."""
        return Activate(p.player, self.rng.choice(list(p.options)))

    def _choose_action(self, game: Game, p: Pending) -> Action | None:
        """The activated unit's action: often a Charge when it has a target, else a move (None: stays idle)."""
        assert p.unit is not None
        cast = self._choose_cast(game, p)
        if cast is not None:
            return cast
        targets = game.charge_targets(p.unit)
        if targets and self.rng.random() < 0.7:
            target = self.rng.choice(targets)
            # AoF:R 2.16 "Breath Attack": often used when it may be (no draw otherwise: other games unchanged)
            return DeclareCharge(p.player, p.unit, target,
                                 breath=game.breath_in_melee(p.unit) and self.rng.random() < 0.7)
        return self._choose_move(game, p)

    def _choose_strike_back(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        if self.rng.random() >= 0.8:
            return None
        return StrikeBack(p.player, p.unit, breath=game.breath_in_melee(p.unit) and self.rng.random() < 0.7)

    def _choose_wavering(self, game: Game, p: Pending) -> Action | None:
        """A Wavering unit's idle activation: sometimes a pivot by up to 90 degrees."""
        unit = game.state.units[p.unit] if p.unit is not None else None
        if unit is not None and unit.pose is not None and self.rng.random() < 0.5:
            pivot = RallyPivot(p.player, unit.id, rounded_pose(unit.pose.turned(round(self.rng.uniform(-90, 90),
                                                                                    1))).facing)
            if _legal(game, pivot):
                return pivot
        return None

    def _choose_deploy(self, game: Game, p: Pending) -> Action | None:
        return self._sample_deploy(game, p.player, list(p.options))

    def _choose_deployment(self, game: Game, p: Pending) -> Action | None:
        edge = self.rng.choice(list(p.options)) if p.options else None
        choice = ChooseDeployment(p.player, self.rng.choice([1, 2]), edge)
        if game.check_deploy(choice) is not None:    # AoF:R 2.16: the roll-off winner deploys first
            choice = ChooseDeployment(p.player, p.player, edge)
        return choice

    def _choose_set_aside(self, game: Game, p: Pending) -> Action | None:
        if p.options and self.rng.random() < 0.7:
            return SetAside(p.player, self.rng.choice(list(p.options)))
        return None

    def _choose_scout_move(self, game: Game, p: Pending) -> Action | None:
        assert p.unit is not None
        return self._sample_scout_move(game, p.player, p.unit)

    def _choose_ambush(self, game: Game, p: Pending) -> Action | None:
        if self.rng.random() < 0.7:
            return self._sample_ambush(game, p.player, list(p.options))
        return None

    def _choose_first_turn(self, game: Game, p: Pending) -> Action | None:
        return ChooseFirstTurn(p.player, self.rng.choice([1, 2]))

    def _choose_roll_charge(self, game: Game, p: Pending) -> Action | None:
        return RollCharge(p.player, self.rng.choice(list(p.options)))

    def _choose_objective_order(self, game: Game, p: Pending) -> Action | None:
        return ChooseObjectiveOrder(p.player, self.rng.choice([1, 2]))

    def _choose_objective(self, game: Game, p: Pending) -> Action | None:
        return self._sample_objective(game, p.player)

    def _choose_side_mission(self, game: Game, p: Pending) -> Action | None:
        # offered() is what this seat may pick; a hidden selection's options are not in the pending decision
        return SelectSideMission(p.player, self.rng.choice(side_missions.offered(game.state)))

    def _magic(self, game: Game, player: int, decision: str, unit: str | None) -> Action | None:
        """Spells (game.engine.magic): often casts a spell it may cast (sometimes with extra tokens), sometimes
        spends tokens against the opponent's cast, splits its tokens at random. None: nothing to do (Done)."""
        s = game.state
        action: Action
        if decision == "strategy":
            options = magic.cast_options(s, player)
            if not options or self.rng.random() < 0.3:
                return None
            action = cast = self.rng.choice(options)
            caster = s.units[cast.unit]
            value = magic.spells_of(s, player)[cast.spell].value
            spare = [(u, n - (value if u in (caster.id, None) else 0))
                     for u, n in magic.token_sources(s, caster, player)]
            spare = [(u, n) for u, n in spare if n > 0]
            if spare and self.rng.random() < 0.5:
                u, n = self.rng.choice(spare)
                boost = (TokenSpend(self.rng.randint(1, n), u),)
                action = type(cast)(player, cast.unit, cast.spell, cast.target, boost, cast.point)
        elif decision == "dispel":
            assert unit is not None
            sources = magic.token_sources(s, s.units[unit], player)
            action = Dispel(player)
            if sources and self.rng.random() < 0.5:
                u, n = self.rng.choice(sources)
                action = Dispel(player, (TokenSpend(self.rng.randint(1, n), u),))
        else:
            total = magic.allocation_total(s, player)
            if magic.magic_of(s).mode == "pooled":
                dispel = self.rng.randint(0, total)
                action = AllocateTokens(player, spell_tokens=total - dispel, dispel_tokens=dispel)
            else:
                splits = []
                for c in magic.casters_of(s, player):
                    get = max(0, min(magic.caster_value(c), magic.MAX_TOKENS - c.spell_tokens - c.dispel_tokens))
                    dispel = self.rng.randint(0, get)
                    splits.append(TokenSplit(c.id, get - dispel, dispel))
                action = AllocateTokens(player, casters=tuple(splits))
        return action if game.check_magic(action) is None else None

    def _shuffled(self, items: list[str]) -> list[str]:
        items = list(items)
        self.rng.shuffle(items)
        return items

    def _sample_move(self, game: Game, unit: Unit) -> Move | None:
        assert unit.pose is not None
        s = game.state
        enemies = s.enemies_of(unit.player)
        start = unit.pose
        nearest: list[Unit] = []   # the nearest enemy, found at the first try that wants it (the same for all)
        for _ in range(MOVE_TRIES):
            kind = self.rng.choices(["advance", "rush", "hold"], weights=[6, 3, 1])[0]
            if kind == "hold":
                path: tuple[Pose, ...] = (start.turned(round(self.rng.uniform(-90, 90), 1)),)
            else:
                facing = start.facing
                if enemies and self.rng.random() < 0.8:
                    if not nearest:
                        nearest.append(min(enemies, key=lambda e: s.scene.distance(unit.id, e.id)))
                    near = nearest[0]
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
            move = Move(unit.player, unit.id, kind, tuple(rounded_pose(p) for p in path))
            if game.check_move(move) is None:
                return move
        return None

    def _sample_objective(self, game: Game, player: int) -> Action:
        """A random legal point for an objective marker (the mission's placing rules, asked of the engine)."""
        s = game.state
        area = free_area(s, player)
        if not area.is_empty:
            lo_x, lo_y, hi_x, hi_y = area.bounds
            for _ in range(500):       # uniform within the room left (its bounding box, then the shape)
                x, y = placement_point(s, player, round(self.rng.uniform(lo_x, hi_x), 1),
                                       round(self.rng.uniform(lo_y, hi_y), 1))
                action = PlaceObjective(player, x, y)
                if _legal(game, action):
                    return action
            inside = area.representative_point()
            action = PlaceObjective(player, *placement_point(s, player, inside.x, inside.y))
            if _legal(game, action):
                return action
        raise RuntimeError("no room for an objective marker")   # the engine ends the placing before that

    def _sample_deploy(self, game: Game, player: int, options: list[str]) -> Action:
        """A random legal placement in the player's deployment zone (its style's polygon), facing the table
        centre."""
        s = game.state
        uid = options[0]
        unit = s.units[uid]
        zone = zone_polygon(s, player)
        x0, y0, x1, y1 = zone.bounds
        cx, cy = zone.centroid.x, zone.centroid.y
        facing = round(bearing_to((cx, cy), (s.table.width / 2, s.table.depth / 2)) / 45.0) * 45.0 % 360.0
        for _ in range(400):
            pose = rounded_pose(Pose(self.rng.uniform(x0, x1), self.rng.uniform(y0, y1), facing))
            action = Deploy(player, uid, pose)
            if _legal(game, action):
                return action
        raise RuntimeError(f"no room to deploy {unit.name}")

    def _sample_scout_move(self, game: Game, player: int, uid: str) -> Action:
        """A random placement within 12" of the Scout unit's position (rulebook "Scout"), or stay."""
        unit = game.state.units[uid]
        assert unit.pose is not None
        if self.rng.random() < 0.8:
            for _ in range(30):
                r, a = 12.0 * math.sqrt(self.rng.random()), self.rng.uniform(0, 2 * math.pi)
                pose = Pose(unit.pose.x + r * math.sin(a), unit.pose.y + r * math.cos(a),
                            unit.pose.facing + self.rng.uniform(-45, 45))
                action = ScoutMove(player, uid, pose)
                if _legal(game, action):
                    return action
        return Done(player)

    def _sample_ambush(self, game: Game, player: int, options: list[str]) -> Action | None:
        """An Ambush unit placed fully within 6" of a random table edge, facing the table (AoWFBR "Ambush"), else
        anywhere on the table (AoF:R 2.16 "Ambush": over 12" from enemy units); None when no try is legal."""
        s = game.state
        uid = self.rng.choice(options)
        f = s.units[uid].formation
        w, d = s.table.width, s.table.depth
        for _ in range(60):
            edge = self.rng.choice(["south", "north", "west", "east"])
            half = f.depth / 2 + 0.05
            along = self.rng.uniform(f.width / 2 + 0.1, (w if edge in ("south", "north") else d) - f.width / 2 - 0.1)
            inward = self.rng.uniform(half, 6.0 - half) if half < 3.0 else half
            pose = {"south": Pose(along, inward, 0.0), "north": Pose(along, d - inward, 180.0),
                    "west": Pose(inward, along, 90.0), "east": Pose(w - inward, along, 270.0)}[edge]
            action = Deploy(player, uid, pose)
            if _legal(game, action):
                return action
        for _ in range(60):     # AoF:R 2.16 "Ambush": anywhere over 12" from enemy units
            pose = Pose(self.rng.uniform(f.width / 2 + 0.1, w - f.width / 2 - 0.1),
                        self.rng.uniform(f.depth / 2 + 0.1, d - f.depth / 2 - 0.1), self.rng.uniform(0.0, 360.0))
            action = Deploy(player, uid, pose)
            if _legal(game, action):
                return action
        return None


_CHOOSERS: dict[str, Callable[[RandomPlayer, Game, Pending], Action | None]] = {
    "strategy": RandomPlayer._choose_magic, "dispel": RandomPlayer._choose_magic,
    "allocate_tokens": RandomPlayer._choose_magic,
    "declare_charge": RandomPlayer._choose_charge, "charge_reaction": RandomPlayer._choose_reaction,
    "redirect": RandomPlayer._choose_redirect, "roll_charge": RandomPlayer._choose_roll_charge,
    "move": RandomPlayer._choose_move, "shoot": RandomPlayer._choose_shot,
    "pursue": RandomPlayer._choose_pursue, "pursue_target": RandomPlayer._choose_pursue,
    "follow_up": RandomPlayer._choose_follow_up, "pivot_to_face": RandomPlayer._choose_pivot_to_face,
    "consolidate": RandomPlayer._choose_consolidation, "rally": RandomPlayer._choose_rally_pivot,
    "deploy": RandomPlayer._choose_deploy, "choose_deployment": RandomPlayer._choose_deployment,
    "set_aside": RandomPlayer._choose_set_aside, "scout_move": RandomPlayer._choose_scout_move,
    "ambush": RandomPlayer._choose_ambush, "choose_first_turn": RandomPlayer._choose_first_turn,
    "choose_objective_order": RandomPlayer._choose_objective_order,
    "place_objective": RandomPlayer._choose_objective, "select_side_mission": RandomPlayer._choose_side_mission,
    "activate": RandomPlayer._choose_activation, "action": RandomPlayer._choose_action,
    "strike_back": RandomPlayer._choose_strike_back, "wavering": RandomPlayer._choose_wavering,
    "block_spell": RandomPlayer._choose_block,
}
"""The random player's step for each pending decision (``RandomPlayer.choose``); ``done`` for any other."""


def _legal(game: Game, action: Action) -> bool:
    """Whether ``action`` is legal now, asked of the engine's validators (nothing changes)."""
    if isinstance(action, Move):
        return game.check_move(action) is None
    if isinstance(action, (Deploy, ScoutMove, PlaceObjective)):
        return game.check_deploy(action) is None
    if isinstance(action, RallyPivot):
        return game.check_rally_pivot(action) is None
    return game.ruleset.check(action) is None     # applied to a clone: the IllegalAction it raised, or None


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


class Player(Protocol):
    """A computer player: answers whatever decision ``game.pending`` asks of its seat."""

    def choose(self, game: Game) -> Action:
        """A legal action for ``game.pending``."""
        ...


def play_out(game: Game, seed: int, after_action: Callable[[Game, Action], None] | None = None,
             max_actions: int = 20000, players: Mapping[int, Player] | None = None) -> list[Action]:
    """Let two computer players finish ``game`` (``players`` by seat; two random players seeded with ``seed`` by
    default); ``after_action`` is called after every action (invariants).

    Raises ``RuntimeError`` if a player proposes an illegal action (a bug) or the game does not end.
    """
    random_player = RandomPlayer(random.Random(seed))
    seats: Mapping[int, Player] = players or {1: random_player, 2: random_player}
    actions: list[Action] = []
    while game.pending is not None:
        if len(actions) >= max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions")
        action = seats[game.pending.player].choose(game)
        try:
            game.apply(action)
        except IllegalAction as e:
            raise RuntimeError(f"player {action.player} chose an illegal action {action.to_dict()}: {e}") from e
        actions.append(action)
        if after_action is not None:
            after_action(game, action)
    return actions


def state_is_consistent(state: GameState) -> list[str]:
    """Invariants of a game state after any action; returns the violations found (empty when all hold).

    No overlapping units (sharing more than ``OVERLAP_AREA``); no unit within 1" of an enemy unless they are locked
    in melee or one of them charged this turn (rulebook "General Movement": the 1" rule does not bind a Charge
    action), or they are a fleeing unit and an enemy of its combat waiting for the pursuit moves
    (``close_combat.awaiting_pursuit``); everything on the table; model counts never negative and never above the
    starting size.
    """
    if isinstance(state.activation, Warband):
        return loose_problems(state)   # AoF: Skirmish: loose models, coherency
    problems: list[str] = []
    scene = state.scene
    on = [u for u in state.units.values() if u.on_table]
    fleeing, their_combat = awaiting_pursuit(state)
    factory = RULESETS.get(state.ruleset)
    tolerate = getattr(factory, "tolerated_closeness", None)
    tolerated: set[frozenset[str]] = tolerate(state) if tolerate is not None else set()
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
            if overlap_area(fa, fb) > OVERLAP_AREA:
                problems.append(f"{a.id} overlaps {b.id}")
            elif a.player != b.player and fa.distance(fb) < 1.0 - 1e-3:
                related = (b.id in a.engaged_with or a.id in b.engaged_with or _in_same_combat(state, a, b)
                           or MoveAction.CHARGE in (a.move_action, b.move_action)
                           or ({a.id, b.id} <= their_combat and bool({a.id, b.id} & fleeing))
                           or frozenset((a.id, b.id)) in tolerated)     # a ruling's (AoF:R: moving back 1")
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


def point_shot(game: Game, player: int, unit_id: str, rng: random.Random | None) -> ShootPoint | None:
    """A legal ``shoot_point`` for artillery ``unit_id`` (Random Scatter for Artillery), or None when no target point
    is found: the centre of each enemy unit, nearest first, then (with ``rng``) points sampled within 3" of each
    centre; with ``rng`` a random legal one and a cannon skips its first Quality test now and then. The engine
    checks each candidate (``Game.check_shoot_point``)."""
    s = game.state
    enemies = sorted((e for e in s.enemies_of(player) if e.on_table and e.pose is not None),
                     key=lambda e: (s.scene.distance(unit_id, e.id), e.id))
    legal: list[ShootPoint] = []
    for enemy in enemies:
        assert enemy.pose is not None
        points = [enemy.pose.xy]
        if rng is not None:
            points += [(enemy.pose.x + rng.uniform(-3, 3), enemy.pose.y + rng.uniform(-3, 3))
                       for _ in range(POINT_TRIES)]
        for x, y in points:
            skip = rng is not None and rng.random() < 0.2
            shot = ShootPoint(player, unit_id, round(x, 3), round(y, 3), skip_test=skip)
            if game.check_shoot_point(shot) is None:
                if rng is None:
                    return shot
                legal.append(shot)
    return rng.choice(legal) if legal and rng is not None else None
