"""The move tool of loose models (AoF: Skirmish, issue 18): drag the unit as a group (it keeps its shape), nudge
one model on its own (Shift-drag), spread or tighten the group, then propose the move to the engine.

The tool only builds points; every check is the engine's (``AoFSkirmish.check_move_models``), asked once per new
set of points. Points are inches, (x, y) as in the state; nothing here draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.engine.actions import MoveModels, TablePoint
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.rulesets.skirmish import AoFSkirmish
from game.engine.skirmish import elevation, moves
from game.engine.skirmish.elevation import Jump, PathPlan
from game.engine.skirmish.loose import COHERENCY_NEAR, XY, base_radius, centre, gap, points_of

SPREAD_STEP = 1.15
"""Factor of one spread (its inverse tightens): distances from the group's centre grow by 15%."""


@dataclass
class LooseMoveTool:
    """Proposed end points of the models of ``unit_id`` for a ``move_models`` (``consolidate``: after a melee)."""

    game: Game
    unit_id: str
    player: int
    consolidate: bool = False
    start: list[XY] = field(default_factory=list)
    """Where the models stand now."""
    points: list[XY] = field(default_factory=list)
    """Where they would end."""
    grab: tuple[int | None, XY, list[XY]] | None = None
    """While dragging: (the model nudged, or None for the whole group; the table point grabbed; the points then)."""
    _checked: dict[tuple[str, tuple[XY, ...]], IllegalAction | None] = field(default_factory=dict)
    _plans: tuple[tuple[XY, ...], list[PathPlan | None]] | None = None

    def __post_init__(self) -> None:
        self.start = points_of(self.game.state, self.unit_id)
        self.points = list(self.start)

    @property
    def radius(self) -> float:
        """Inches: the base radius of the unit's models."""
        return base_radius(self.game.state.units[self.unit_id].profile)

    @property
    def dragging(self) -> bool:
        """A drag is in progress."""
        return self.grab is not None

    def model_at(self, point: XY) -> int | None:
        """The model whose (proposed) base contains ``point``, or None."""
        r = self.radius
        hits = [(math.dist(p, point), i) for i, p in enumerate(self.points) if math.dist(p, point) <= r + 0.05]
        return min(hits)[1] if hits else None

    def begin(self, point: XY, single: bool) -> bool:
        """Start dragging at ``point``: the model there alone (``single``) or the whole group. False when no model
        of the unit is there."""
        i = self.model_at(point)
        if i is None:
            return False
        self.grab = (i if single else None, point, list(self.points))
        return True

    def drag_to(self, point: XY) -> None:
        """Follow the mouse: the whole group moves by the same vector, or the one model nudged."""
        if self.grab is None:
            return
        index, at, before = self.grab
        dx, dy = point[0] - at[0], point[1] - at[1]
        if index is None:
            self.points = [(x + dx, y + dy) for x, y in before]
        else:
            self.points = list(before)
            self.points[index] = (before[index][0] + dx, before[index][1] + dy)

    def end_drag(self) -> None:
        """Drop what is dragged where it is."""
        self.grab = None

    def spread(self, factor: float) -> None:
        """Spread (``factor`` > 1) or tighten (< 1) the group about its centre; models never closer than base to
        base."""
        c = centre(self.points)
        r = self.radius
        out = [(c[0] + (x - c[0]) * factor, c[1] + (y - c[1]) * factor) for x, y in self.points]
        for i in range(len(out)):
            for j in range(len(out)):
                if i != j and gap(out[i], r, out[j], r) < 0.0:
                    return      # tighter would put bases on top of each other
        self.points = out

    def reset(self) -> None:
        """Back to where the models stand."""
        self.points = list(self.start)
        self.grab = None

    def plans(self) -> list[PathPlan | None]:
        """Each model's path with elevation (``elevation.plan_path``: what counts, climbs, jumps); None for a path
        the rules refuse (a drop of over 6")."""
        key = tuple(self.points)
        if self._plans is not None and self._plans[0] == key:
            return self._plans[1]
        unit = self.game.state.units[self.unit_id]
        out: list[PathPlan | None] = []
        for a, b in zip(self.start, self.points, strict=True):
            try:
                out.append(elevation.plan_path(self.game.state, unit, a, b))
            except IllegalAction:
                out.append(None)
        self._plans = (key, out)
        return out

    def longest(self) -> float:
        """Inches: the longest distance a model would move as the move counts it (climbs and drops of up to 3"
        counted, jumps not: "Jumping")."""
        dists = [p.counted if p is not None else math.dist(a, b)
                 for p, a, b in zip(self.plans(), self.start, self.points, strict=True)]
        return max(dists, default=0.0)

    def moved(self) -> bool:
        """Some model would move."""
        return any(math.dist(a, b) > 1e-3 for a, b in zip(self.start, self.points, strict=True))

    def jumps(self) -> list[tuple[int, Jump]]:
        """(model index, jump) of every jump the move would roll for, model order then path order."""
        return [(i, j) for i, p in enumerate(self.plans()) if p is not None for j in p.jumps]

    def jump_odds(self) -> float:
        """The chance that every jump of the move lands (each die passes on 3+, Strider 2+; a 1 fails)."""
        unit = self.game.state.units[self.unit_id]
        each = (7 - max(2, elevation.jump_need(unit))) / 6
        return math.prod(each ** j.dice for _, j in self.jumps())

    def elevation_lines(self) -> list[str]:
        """The climbs and jumps of the move in words, for the ghost's label: the highest climb, then each jump
        (at most three, then the count) with its dice and the chance it lands, then the chance all land."""
        unit = self.game.state.units[self.unit_id]
        need = elevation.jump_need(unit)
        out = []
        climb = max((p.climb for p in self.plans() if p is not None), default=0.0)
        if climb > 1e-3:
            out.append(f"climbs {climb:.1f}\" (counts toward the move)")
        jumps = self.jumps()
        for i, j in jumps[:3]:
            odds = ((7 - need) / 6) ** j.dice
            out.append(f"model {i + 1} jumps: {j.words()}, {j.dice} dice {need}+ ({odds:.0%} to land, else falls "
                       f"{j.top - j.bottom:.1f}\")")
        if len(jumps) > 3:
            out.append(f"... {len(jumps) - 3} more jumps")
        if len(jumps) > 1:
            out.append(f"all {len(jumps)} jumps land: {self.jump_odds():.0%}")
        return out

    def kind(self) -> str:
        """The action the move needs: ``consolidate`` after a melee, else ``advance`` when it is within the Advance
        distance, else ``rush``."""
        if self.consolidate:
            return "consolidate"
        unit = self.game.state.units[self.unit_id]
        return "advance" if self.longest() <= moves.allowance(self.game.state, unit, "advance") + 1e-3 else "rush"

    def action(self, kind: str | None = None) -> MoveModels:
        """The ``move_models`` of the proposed points (rounded to 1/1000")."""
        pts = tuple(TablePoint(round(x, 3), round(y, 3)) for x, y in self.points)
        return MoveModels(self.player, self.unit_id, kind or self.kind(), pts)

    def problem(self, kind: str | None = None) -> IllegalAction | None:
        """Why the proposed move is illegal (the engine's answer, cached), or None."""
        action = self.action(kind)
        key = (action.action, tuple((p.x, p.y) for p in action.positions))
        if key not in self._checked:
            ruleset = self.game.ruleset
            assert isinstance(ruleset, AoFSkirmish)
            self._checked[key] = ruleset.check_move_models(action)
        return self._checked[key]

    def links(self) -> list[tuple[int, int, bool]]:
        """Coherency links to draw: each model to its nearest fellow, True when within 1" (base edge to base
        edge), as (i, j, ok), each pair once."""
        r = self.radius
        out: set[tuple[int, int, bool]] = set()
        for i, p in enumerate(self.points):
            others = [(gap(p, r, q, r), j) for j, q in enumerate(self.points) if j != i]
            if not others:
                continue
            d, j = min(others)
            out.add((min(i, j), max(i, j), d <= COHERENCY_NEAR + 1e-6))
        return sorted(out)
