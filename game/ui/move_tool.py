"""The move ghost: drag a unit and pivot it, see at once whether the move is legal and why not.

The tool builds a path of poses as ../shared/spec.md defines a ``move``: from the unit's pose, straight to each
pose's (x, y) keeping the facing, then pivot to that pose's facing. Dragging changes the last straight leg (a new
leg starts after a pivot); pivoting turns the last pose. Whenever the ghost changes, ``evaluate`` asks the engine
(``Game.check_move`` / ``Game.move_info``) once per frame at most; it never changes the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from game.engine.actions import Action, Consolidate, Deploy, Move, RallyPivot, ScoutMove
from game.engine.errors import IllegalAction
from game.engine.movement import Climb, elevation_climb, move_allowance, path_shape
from game.engine.state import MoveAction, Unit
from geometry.pose import Point, Pose, normalise_bearing

EPS = 1e-6
SNAP = 0.2
"""Inches within which a drag sticks to an allowance (see ``MoveTool.snap_distances``)."""

KINDS = ("move", "consolidate", "rally", "deploy", "scout")
"""What the tool makes: a Move (step 2.4), a Consolidate move, a RallyPivot, a Deploy (also Ambush) or a
ScoutMove. Deploy and scout tools place the unit anew: their ghost is ``start`` itself."""

PLACING = ("deploy", "scout")
"""Kinds that place the unit anew rather than move it along a path."""
MAX_PULL = 1.5
"""Inches: a dropped move at most this far past the legal (and a quarter of its leg) is pulled back."""
PULL_STEPS = 8
"""Halvings when pulling a move back: to within MAX_PULL / 256 inches of the farthest legal end."""
SCOUT_RANGE = 12.0
"""Rulebook "Scout": placed anywhere within 12" of its position."""


@dataclass
class Evaluation:
    """What the engine says about the ghost's current path."""

    action: str
    """hold, advance or rush for a move; the tool kind otherwise."""
    error: IllegalAction | None = None
    """Why the move is illegal, or None."""
    distance: float = 0.0
    """Straight travel of the centre, inches."""
    allowance: float | None = None
    """Advance allowance (Move only), inches."""
    pivots: tuple[float, ...] = ()
    """Signed pivots, degrees."""
    terrain: list[str] = field(default_factory=list)
    """Names of terrain pieces crossed."""
    traits: list[str] = field(default_factory=list)
    """Traits of the terrain crossed."""
    others: list[tuple[str, IllegalAction]] = field(default_factory=list)
    """Why the other move actions tried automatically are illegal too (action name, reason)."""
    climb: Climb = field(default_factory=Climb)
    """AoF:R 2.16 "Elevation": the climb onto elevation the move counts on top of ``distance`` (Move only)."""

    @property
    def legal(self) -> bool:
        """True if the engine accepts the path."""
        return self.error is None


class MoveTool:
    """A ghost of one unit being moved (or pivoted, or placed) by the deciding player."""

    def __init__(self, game: Any, unit: Unit, player: int, kind: str = "move", start: Pose | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown move tool kind {kind!r}")
        self.game = game
        self.unit = unit
        self.player = player
        self.kind = kind
        self.start: Pose = start or unit.pose or Pose(0.0, 0.0, 0.0)
        self.legs: list[Pose] = []
        self._pivoted: list[bool] = []
        self.forced: str | None = None
        """hold / advance / rush chosen with the buttons, or None to pick automatically."""
        self.dragging = False
        self._grab: Point = (0.0, 0.0)
        self._eval: Evaluation | None = None
        self.pulled: tuple[float, str] | None = None
        """The last drop was pulled back: (inches, the rule that the dropped pose broke); None otherwise."""

    # --- the ghost ----------------------------------------------------------------------------------------
    @property
    def ghost(self) -> Pose:
        """Where the unit would end."""
        return self.legs[-1] if self.legs else self.start

    @property
    def changed(self) -> bool:
        """True if the ghost differs from where the unit stands (a path was made, or it was placed elsewhere)."""
        if self.kind in PLACING:
            return self.unit.pose is None or self.unit.pose != self.start
        return bool(self.legs) and path_shape(self.start, self.legs).end != self.start

    @property
    def path(self) -> tuple[Pose, ...]:
        """The path as the action will carry it."""
        return tuple(self.legs)

    def _touch(self) -> None:
        self._eval = None

    def begin_drag(self, point: Point) -> None:
        """Start dragging: ``point`` is the table point grabbed."""
        self.pulled = None
        g = self.ghost
        self._grab = (g.x - point[0], g.y - point[1])
        self.dragging = True

    def drag_to(self, point: Point) -> None:
        """The mouse moved to table ``point`` while dragging."""
        if not self.dragging or self.kind == "rally":
            return
        self.translate_to((point[0] + self._grab[0], point[1] + self._grab[1]))

    def end_drag(self) -> None:
        """The mouse button was released: a move that ends just past what the rules allow is pulled back along
        the drag to the farthest legal pose (``pull_back``)."""
        self.dragging = False
        if self.kind in ("move", "consolidate"):
            self.pull_back()

    def pull_back(self) -> bool:
        """Shorten the last straight leg to the farthest legal end within ``MAX_PULL`` inches (and a quarter of
        the leg) of where it was dropped, when the dropped pose is illegal; ``pulled`` then says by how much and
        which rule moved it. The engine decides legality. True if the ghost was pulled back."""
        self.pulled = None
        ev = self.evaluate()
        if ev.legal or ev.error is None or not self.legs or self._pivoted[-1]:
            return False
        origin = self.legs[-2] if len(self.legs) >= 2 else self.start
        end = self.legs[-1]
        leg = math.hypot(end.x - origin.x, end.y - origin.y)
        if leg < EPS:
            return False
        rule = ev.error.rule

        def place(f: float) -> bool:
            self.legs[-1] = Pose(origin.x + (end.x - origin.x) * f, origin.y + (end.y - origin.y) * f, end.facing)
            self._touch()
            return self.evaluate().legal

        lo, hi = 1.0 - min(MAX_PULL, leg / 4) / leg, 1.0
        if not place(lo):           # not "just past": leave the red ghost and its reason
            place(1.0)
            return False
        for _ in range(PULL_STEPS):
            mid = (lo + hi) / 2
            if place(mid):
                lo = mid
            else:
                hi = mid
        place(lo)
        self.pulled = ((1.0 - lo) * leg, rule)
        return True

    def translate_to(self, xy: Point) -> None:
        """Move the ghost's centre to ``xy`` (same facing) by changing the last straight leg or adding one."""
        if self.kind == "rally":
            return
        if self.kind in PLACING:
            self.start = Pose(xy[0], xy[1], self.start.facing)
            self._touch()
            return
        xy = self._snap(xy)
        g = self.ghost
        if abs(g.x - xy[0]) < EPS and abs(g.y - xy[1]) < EPS:
            return
        facing = g.facing
        pose = Pose(xy[0], xy[1], facing)
        if self.legs and not self._pivoted[-1]:
            before = self.legs[-2] if len(self.legs) >= 2 else self.start
            if abs(before.x - xy[0]) < EPS and abs(before.y - xy[1]) < EPS:
                self.legs.pop()
                self._pivoted.pop()
            else:
                self.legs[-1] = pose
        else:
            self.legs.append(pose)
            self._pivoted.append(False)
        self._touch()

    def snap_distances(self) -> tuple[float, ...]:
        """Distances a drag sticks to: the Advance and Rush allowances, half an Advance, 6" (difficult terrain),
        3" for consolidation."""
        if self.kind == "consolidate":
            return (3.0,)
        adv = move_allowance(self.unit, MoveAction.ADVANCE)
        rush = move_allowance(self.unit, MoveAction.RUSH)
        return tuple(sorted({adv, rush, adv / 2, 6.0}))

    def _snap(self, xy: Point) -> Point:
        """Stretch or shrink the current leg so the whole move is exactly a snap distance when within
        ``SNAP`` inches of one (a drag to "as far as the unit may go" lands on the allowance, not a hair over)."""
        if self.kind not in ("move", "consolidate"):
            return xy
        extend = bool(self.legs) and not self._pivoted[-1]
        legs = self.legs[:-1] if extend else self.legs
        before = path_shape(self.start, legs).distance
        origin = legs[-1] if legs else self.start
        dx, dy = xy[0] - origin.x, xy[1] - origin.y
        leg = math.hypot(dx, dy)
        if leg < EPS:
            return xy
        total = before + leg
        for target in self.snap_distances():
            if abs(total - target) <= SNAP and target > before:
                f = (target - before - 1e-6) / leg
                return (origin.x + dx * f, origin.y + dy * f)
        return xy

    def pivot(self, degrees: float) -> None:
        """Pivot the ghost about its centre by ``degrees`` (clockwise positive)."""
        self.pulled = None
        if self.kind in PLACING:
            self.start = self.start.turned(degrees)
            self._touch()
            return
        g = self.ghost
        new = Pose(g.x, g.y, normalise_bearing(g.facing + degrees))
        if self.legs:
            self.legs[-1] = new
            self._pivoted[-1] = True
        else:
            self.legs.append(new)
            self._pivoted.append(True)
        self._touch()

    def undo(self) -> None:
        """Take back the last leg (or pivot)."""
        self.pulled = None
        if self.legs:
            self.legs.pop()
            self._pivoted.pop()
            self._touch()

    def reset(self) -> None:
        """Put the ghost back where the unit stands."""
        self.pulled = None
        self.legs.clear()
        self._pivoted.clear()
        self._touch()

    def set_forced(self, action: str | None) -> None:
        """Choose hold / advance / rush explicitly (None: pick the cheapest legal one). A ghost just past what the
        chosen action allows (a drag of 6.3" made an Advance) is pulled back to it (``pull_back``)."""
        self.forced = action
        self._touch()
        if action is not None and self.kind in ("move", "consolidate") and not self.dragging:
            self.pull_back()

    # --- asking the engine --------------------------------------------------------------------------------
    def _move(self, action: str) -> Move:
        return Move(player=self.player, unit=self.unit.id, action=action, path=self.path)

    def evaluate(self) -> Evaluation:
        """Legality and measurements of the current ghost (cached until the ghost changes)."""
        if self._eval is not None:
            return self._eval
        shape = path_shape(self.start, self.path)
        ev = Evaluation(self.kind, distance=shape.distance, pivots=shape.pivots)
        if self.kind == "move":
            ev = self._evaluate_move(ev)
        elif self.kind == "consolidate":
            ev = self._evaluate_consolidation(ev)
        elif self.kind == "deploy" and hasattr(self.game, "check_deploy"):
            ev.error = self.game.check_deploy(self.action())
        elif self.kind == "scout" and self.unit.pose is not None:
            ev.distance = self.unit.pose.distance_to(self.start)
            if ev.distance > SCOUT_RANGE + 1e-4:
                ev.error = IllegalAction("Scout", f"placed {ev.distance:.1f}\" away; at most 12\" from where it "
                                         "deployed", self.start.xy)
        elif self.kind == "rally" and hasattr(self.game, "check_rally_pivot"):
            ev.error = self.game.check_rally_pivot(self.action())
        self._eval = ev
        return ev

    def _evaluate_consolidation(self, ev: Evaluation) -> Evaluation:
        """Rulebook "Consolidation Moves": the engine's own check (``consolidation.check_consolidation``: pivot up
        to 180° or move up to 3", keeping 1" from other units), and the terrain the move crosses."""
        state = getattr(self.game, "state", None)
        if state is None or self.unit.pose is None:
            return ev
        try:
            from game.engine.consolidation import check_consolidation
            ev.action = "consolidate"
            kind = check_consolidation(state, self.unit, list(self.path))
            if kind != "none":
                ev.action = kind
        except IllegalAction as e:
            ev.error = e
        except ImportError:
            return ev
        if self.path and ev.distance > EPS:
            try:
                check = state.scene.check_path(self.unit.id, self.unit.pose, list(self.path), exclusion=0.0)
                ev.terrain = list(check.terrain_crossed or [])
                ev.traits = sorted(check.traits_crossed or [])
            except Exception:  # noqa: BLE001 - measuring must never break drawing
                pass
        return ev

    def _evaluate_move(self, ev: Evaluation) -> Evaluation:
        game = self.game
        ev.allowance = move_allowance(self.unit, MoveAction.ADVANCE)
        state = getattr(game, "state", None)
        if state is not None and self.path:
            ev.climb = elevation_climb(state, self.unit, self.path)
        moved = ev.distance > EPS
        if self.forced:
            candidates = [self.forced]
        elif not moved:
            candidates = ["hold", "advance"]
        else:
            candidates = ["advance", "rush"]
        errors: list[tuple[str, IllegalAction]] = []
        chosen: str | None = None
        for name in candidates:
            err = game.check_move(self._move(name))
            if err is None:
                chosen = name
                break
            errors.append((name, err))
        if chosen is not None:
            ev.action = chosen
        else:
            # beyond an Advance the Rush's reason is the one that matters; within it, the Advance's
            beyond = ev.distance + ev.climb.inches > (ev.allowance or 0) + 1e-4
            main = errors[-1] if beyond else errors[0]
            ev.action, ev.error = main
            ev.others = [e for e in errors if e is not main]
        if moved:
            try:
                info = game.move_info(self._move(ev.action))
            except Exception:  # noqa: BLE001 - measuring must never break drawing
                info = None
            if info is not None:
                ev.terrain = list(getattr(info, "terrain_crossed", []) or [])
                ev.traits = sorted(getattr(info, "traits_crossed", []) or [])
        return ev

    def action(self) -> Action:
        """The action that makes the ghost real."""
        if self.kind == "move":
            return self._move(self.evaluate().action)
        if self.kind == "consolidate":
            return Consolidate(player=self.player, unit=self.unit.id, path=self.path)
        if self.kind == "rally":
            return RallyPivot(player=self.player, unit=self.unit.id, facing=round(self.ghost.facing, 4))
        if self.kind == "scout":
            return ScoutMove(player=self.player, unit=self.unit.id, pose=self.start)
        return Deploy(player=self.player, unit=self.unit.id, pose=self.start)
