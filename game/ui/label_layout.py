"""One layout pass for every text label drawn over the table, so that no two overlap and none covers a panel.

Each frame the battle screen *asks* for its labels (unit names, terrain names, distance tapes, the charge reach,
the contacted sides, arc names, combat-trail labels, "not in sight", the hover and move notes) instead of drawing
them; ``LabelLayout.solve`` then places them from the most important down: each at the first of its candidate
spots (preferred first, then a few nudges) that lies inside the table view, clear of the panels and of every label
placed before it; else its shorter form (an abbreviation) at its spots; else it is dropped. A label may also be
*shy* of some screen boxes (the units' bodies): its spots clear of them are tried first, and with ``never`` it
may not cover them at all. Notes the player must see are *required*: placed at their least crowded spot even when
crowded. The result is deterministic (ties keep the order of asking) and cheap: a few ``Rect.collidelist`` calls per
label. ``placed`` keeps every box put down (for tests and for the notes drawn later to stay clear of).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

# Priorities: higher is placed first and keeps its spot; lower ones move or go.
NOTE = 100
"""A note next to the mouse or the ghost (what a click would do, why not): always shown."""
MARKER = 95
"""Objective marker numbers (drawn on the marker, never moved): only kept clear of."""
MEASURE = 90
"""The tape the player is measuring with, or to the unit under the mouse."""
LESSON = 85
"""What a lesson's step points at (its goal area, its points): the learner must find it."""
UNIT = 80
"""A unit's name, models left and state (Shaken, Fleeing, Engaged)."""
DECLARED = 70
"""The tape of a charge declared this phase."""
CHARGE_SIDE = 65
"""The side a charge would contact and its distance, behind the charger's ghost."""
TARGET_TAPE = 60
"""Distance to a valid target (shooting, redirect)."""
REACH = 55
"""The charge reach outline's label."""
AID = 50
"""Other aids: "not in sight", "Cannot charge"."""
TRAIL = 45
"""What happened in the last combat (flight, pursuit, caught)."""
ARC = 40
"""Facing arc names."""
TERRAIN = 20
"""Terrain names (and their traits)."""


@dataclass
class Form:
    """One way of showing a label: its surface and where it may go (screen rectangles of the surface's size,
    preferred first)."""

    surface: pygame.Surface | None
    spots: list[pygame.Rect]


@dataclass
class Label:
    """A label asked for: its forms (full, then shorter), its priority and how it treats the shy boxes."""

    kind: str
    """What it labels (``unit``, ``terrain``, ``tape``...): for tests and debugging."""
    priority: int
    forms: list[Form]
    order: int
    shy: str = "prefer"
    """``prefer``: spots clear of the layout's ``shy_of`` boxes first; ``never``: only those; ``ignore``."""
    required: bool = False
    """Shown even where it overlaps (at its least crowded spot), never dropped."""
    draw: Callable[[pygame.Surface, pygame.Rect], None] | None = None
    """Draws it instead of blitting the form's surface (notes)."""


@dataclass
class Placed:
    """A label put down: its box, the form used (0 = full) and the surface blitted there."""

    kind: str
    priority: int
    rect: pygame.Rect
    form: int
    surface: pygame.Surface | None
    draw: Callable[[pygame.Surface, pygame.Rect], None] | None = None


@dataclass
class LabelLayout:
    """The labels of one frame over the table view ``bounds``, kept off ``panels`` and each other."""

    bounds: pygame.Rect
    """Screen rectangle the labels must stay inside (the table view)."""
    panels: list[pygame.Rect] = field(default_factory=list)
    """Screen rectangles no label may cover (panels floating over the view)."""
    shy_of: list[pygame.Rect] = field(default_factory=list)
    """Screen boxes labels avoid when they can (the units' bodies)."""
    asked: list[Label] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    """Filled by ``solve``: every box put down, in the order placed (highest priority first)."""
    dropped: list[Label] = field(default_factory=list)
    """Filled by ``solve``: labels for which no spot was free."""

    def add(self, kind: str, priority: int, surface: pygame.Surface | None, spots: Sequence[pygame.Rect],
            short: Sequence[tuple[pygame.Surface, Sequence[pygame.Rect]]] = (), shy: str = "prefer",
            required: bool = False, draw: Callable[[pygame.Surface, pygame.Rect], None] | None = None) -> Label:
        """Ask for a label: ``surface`` at the first free rectangle of ``spots``, else a ``short`` form (surface,
        spots), else nothing. ``spots`` are screen rectangles of the surface's size, preferred first."""
        forms = [Form(surface, list(spots))] + [Form(s, list(sp)) for s, sp in short]
        label = Label(kind, priority, forms, len(self.asked), shy, required, draw)
        self.asked.append(label)
        return label

    def add_at(self, kind: str, priority: int, surface: pygame.Surface, centre: tuple[float, float],
               nudges: Sequence[tuple[int, int]] | None = None, **kw: object) -> Label:
        """Ask for ``surface`` centred on screen point ``centre``, or nudged by the given pixel offsets (by
        default ``nudges_for``)."""
        rect = surface.get_rect(center=(round(centre[0]), round(centre[1])))
        offsets = nudges_for(rect) if nudges is None else nudges
        return self.add(kind, priority, surface, [rect.move(dx, dy) for dx, dy in offsets], **kw)  # type: ignore[arg-type]

    def extend(self, labels: Sequence[Label], shift: tuple[int, int] = (0, 0)) -> None:
        """Ask again for labels asked of another layout (a cache of the labels that change only with the view and
        the game: units, terrain), moved by ``shift`` pixels (the view panned since), after those asked so far."""
        dx, dy = shift
        for label in labels:
            if dx or dy:
                label = Label(label.kind, label.priority,
                              [Form(f.surface, [r.move(dx, dy) for r in f.spots]) for f in label.forms], 0,
                              label.shy, label.required, label.draw)
            label.order = len(self.asked)
            self.asked.append(label)

    def reserve(self, kind: str, rect: pygame.Rect) -> None:
        """A box already drawn that labels must keep clear of (an objective marker's number)."""
        self.add(kind, MARKER, None, [rect], shy="ignore", required=True)

    def solve(self) -> list[Placed]:
        """Place every label asked for, the most important first (ties in the order asked); returns ``placed``."""
        self.placed = []
        self.dropped = []
        taken: list[pygame.Rect] = []
        inside = self.bounds.contains
        for label in sorted(self.asked, key=lambda lb: (-lb.priority, lb.order)):
            blocked = self.panels + taken
            shy = self.shy_of if label.shy != "ignore" else []
            got: tuple[int, pygame.Rect] | None = None
            for i, form in enumerate(label.forms):
                free = [r for r in form.spots if inside(r) and r.collidelist(blocked) < 0]
                if not free:
                    continue
                clear = [r for r in free if r.collidelist(shy) < 0] if shy else free
                if clear:
                    got = (i, clear[0])
                elif label.shy != "never":
                    got = (i, free[0])
                if got is not None:
                    break
            if got is None and label.required and label.forms[0].spots:
                got = (0, self._least_crowded(label.forms[0].spots, blocked))
            if got is None:
                self.dropped.append(label)
                continue
            i, rect = got
            taken.append(rect)
            self.placed.append(Placed(label.kind, label.priority, rect, i, label.forms[i].surface, label.draw))
        return self.placed

    def _least_crowded(self, spots: list[pygame.Rect], blocked: list[pygame.Rect]) -> pygame.Rect:
        best = None
        for r in spots:
            r = r.clamp(self.bounds) if r.w <= self.bounds.w and r.h <= self.bounds.h else r
            cost = len(r.collidelistall(blocked))
            if best is None or cost < best[0]:
                best = (cost, r)
        assert best is not None
        return best[1]

    def draw(self, screen: pygame.Surface) -> None:
        """Draw the placed labels, the least important first (so a required note lies on top), clipped to the
        view."""
        clip = screen.get_clip()
        screen.set_clip(self.bounds)
        for p in reversed(self.placed):
            if p.draw is not None:
                p.draw(screen, p.rect)
            elif p.surface is not None:
                screen.blit(p.surface, p.rect)
        screen.set_clip(clip)

    def rects(self, kind: str | None = None) -> list[pygame.Rect]:
        """Boxes placed (of one ``kind``, or all)."""
        return [p.rect for p in self.placed if kind is None or p.kind == kind]


def nudges_for(rect: pygame.Rect) -> list[tuple[int, int]]:
    """The default candidate offsets of a label: where it wants to be, then a step up, down, left, right, and two
    steps up and down."""
    h = rect.h + 2
    w = rect.w // 2 + 4
    return [(0, 0), (0, -h), (0, h), (-w, 0), (w, 0), (0, -2 * h), (0, 2 * h)]


def along(p: tuple[float, float], q: tuple[float, float], size: tuple[int, int], gap: int = 4,
          fractions: Sequence[float] = (0.5, 0.35, 0.65, 0.2, 0.8)) -> list[pygame.Rect]:
    """Spots for a label of ``size`` riding on the line from screen point ``p`` to ``q``: just above it at its
    middle, then toward either end, then just below."""
    w, h = size
    out = []
    for below in (False, True):
        for f in fractions:
            x, y = p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f
            top = y + gap if below else y - h - gap
            out.append(pygame.Rect(round(x - w / 2), round(top), w, h))
    return out


def clear_of(spots: list[pygame.Rect], table: pygame.Rect, band: pygame.Rect | None) -> list[pygame.Rect]:
    """``spots`` reordered (stable): inside ``table`` and clear of ``band`` first, then clear of it, then the rest
    (a label over the ruler along the table's bottom edge is half hidden by the inch marks and the edge colour)."""
    if band is None:
        return spots

    def rank(r: pygame.Rect) -> int:
        if r.colliderect(band):
            return 2
        return 0 if table.contains(r) else 1
    return sorted(spots, key=rank)
