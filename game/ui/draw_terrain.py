"""The static layer: table felt, grid, table edges and terrain, rendered once per zoom and cached.

Terrain is coloured by kind (forest green, hill brown, building grey, water blue, lava orange...). A
``TerrainShape`` carries a name and traits only; the kind comes from the scenario's ``terrain_kinds`` (parallel
to its terrain), else it is guessed from the name and then from the traits.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence

import pygame

from game.terrain_kinds import KIND_TRAITS, KINDS
from game.ui import palette
from game.ui.assets import text_cache
from game.ui.label_layout import TERRAIN, Label, LabelLayout, clear_of
from game.ui.table_view import TableView
from geometry.pose import Point
from geometry.terrain import TerrainShape

MAX_CACHED_PIXELS = 14_000_000
"""Above this size the whole-table layer is not cached; only the visible part is rendered."""

TRAIT_WORDS = {
    "impassable": "impassable",
    "blocking": "blocks sight",
    "cover": "cover",
    "difficult": "difficult",
    "dangerous": "dangerous",
    "dangerous_when_rushing": "dangerous if rushing",
    "elevated": "elevated",
    "see_into_not_through": "sight in, not through",
}
"""Trait names in words, for labels and the legend."""

_NAME_HINTS = {"wood": "forest", "tree": "forest", "grove": "forest", "pond": "lake", "water": "lake",
               "stream": "river", "ford": "river", "marsh": "swamp", "bog": "swamp", "house": "building",
               "farm": "building", "tower": "building", "wall": "barricade", "fence": "barricade",
               "hedge": "barricade", "crop": "field", "wheat": "field", "rock": "mountain", "crag": "mountain",
               "mound": "hill", "ridge": "hill"}


def terrain_kind(piece: TerrainShape) -> str:
    """The kind of a terrain piece (a key of ``game.terrain_kinds.KIND_TRAITS``).

    Uses ``piece.kind`` when present, else a kind named in the piece's name, else the kind whose default traits
    equal the piece's traits, else ``open``.
    """
    kind = getattr(piece, "kind", None)
    if isinstance(kind, str) and kind in KIND_TRAITS:
        return kind
    name = piece.name.lower()
    for k in KINDS:
        if k in name:
            return k
    for hint, k in _NAME_HINTS.items():
        if hint in name:
            return k
    traits = frozenset(piece.traits)
    for k in KINDS:
        if KIND_TRAITS[k] == traits and k != "open":
            return k
    if "dangerous" in traits:
        return "lava"
    if "impassable" in traits:
        return "building"
    return "open"


def _shade(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    r, g, b = colour
    if factor >= 1:
        return (min(255, int(r + (255 - r) * (factor - 1))), min(255, int(g + (255 - g) * (factor - 1))),
                min(255, int(b + (255 - b) * (factor - 1))))
    return (int(r * factor), int(g * factor), int(b * factor))


def _centroid(points: Sequence[Point]) -> Point:
    """Area centroid of a simple polygon (falls back to the mean of the points)."""
    a = cx = cy = 0.0
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(a) < 1e-9:
        return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n)
    return (cx / (3 * a), cy / (3 * a))


def point_in_polygon(point: Point, poly: Sequence[Point]) -> bool:
    """True if ``point`` lies inside the simple polygon ``poly`` (even-odd rule)."""
    x, y = point
    inside = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _visible_part(points: Sequence[tuple[float, float]],
                  bounds: pygame.Rect) -> tuple[tuple[float, float], list[tuple[float, float]]] | None:
    """The part of a screen polygon inside ``bounds``: a point well inside it (its centroid, or a point on its
    surface when the centroid falls outside a concave part) and its outline; None if nothing of it shows."""
    from shapely.geometry import Polygon, box  # only when zoomed in past a piece's centre

    shape = Polygon(points).buffer(0).intersection(box(bounds.left, bounds.top, bounds.right, bounds.bottom))
    if shape.is_empty or shape.area < 1:
        return None
    centre = shape.centroid
    if not shape.contains(centre):
        centre = shape.representative_point()
    x0, y0, x1, y1 = shape.bounds
    return (centre.x, centre.y), [(x0, y0), (x1, y1)]


RULER_COLOUR = (200, 210, 190)
"""Colour of the inch marks along the bottom edge."""


def ruler_size(scale: float) -> int:
    """Font size of the inch marks at ``scale`` pixels per inch."""
    return max(9, min(14, round(scale * 0.55)))


class StaticLayer:
    """Renders and caches the table and terrain for the current zoom."""

    def __init__(self, width: float, depth: float, terrain: Sequence[TerrainShape],
                 kinds: Sequence[str] | None = None, names: bool = True) -> None:
        self.width = width
        self.depth = depth
        self.terrain = list(terrain)
        given = list(kinds or [])
        self.kinds = [given[i] if i < len(given) and given[i] in KIND_TRAITS else terrain_kind(t)
                      for i, t in enumerate(self.terrain)]
        """Kind of each piece: the scenario's ``terrain_kinds`` when given, else guessed (``terrain_kind``)."""
        self.names = names
        """Paint each piece's name and traits into the layer (False: the battle screen lays them out with its other
        labels, ``ask_labels``)."""
        self._centres = [_centroid(t.polygon) for t in self.terrain]
        self._name_labels: dict[tuple[int, int], tuple[pygame.Surface, pygame.Surface]] = {}
        self._asked: tuple[object, list[Label]] = (None, [])
        self._surface: pygame.Surface | None = None
        self._key: tuple[object, ...] | None = None
        self._exact: pygame.Surface | None = None
        """The last whole-table render, the source of the scaled frames while zooming."""
        self._exact_flipped = False
        self._last_scale: float | None = None
        self.renders = 0
        """How many times the layer was rendered (for tests and benchmarks)."""
        self.home: str | None = "south"
        """The edge player 1's deployment zone stands on (``south`` or ``west`` for Long Haul's short edges;
        game.engine.deployment_styles.home_edge; AoF: Skirmish: any of the four, None before it is chosen); each
        player's edge is drawn in their colour (None: neither). Changing it renders the layer again."""

    def piece_at(self, point: Point) -> int | None:
        """Index of the terrain piece under table ``point`` (the last drawn wins), or None."""
        for i in range(len(self.terrain) - 1, -1, -1):
            if point_in_polygon(point, self.terrain[i].polygon):
                return i
        return None

    def describe(self, index: int) -> list[str]:
        """A terrain piece in words: name and kind, then its traits."""
        piece = self.terrain[index]
        traits = ", ".join(TRAIT_WORDS.get(t, t) for t in sorted(piece.traits)) or "open ground, no effect"
        head = f"{piece.name} ({self.kinds[index]}"
        head += f", {piece.height:g}\" high)" if piece.height else ")"
        return [head, traits]

    def ask_labels(self, layout: LabelLayout, view: TableView) -> None:
        """Ask ``layout`` for each piece's label on screen: name over traits at its centre, nudged within the piece,
        never over a unit's body; else the name alone; else none (the hover note still names it). A piece whose
        centre is off the view (zoomed in) is labelled at the middle of its visible part. The labels asked are
        cached while the view stays the same."""
        key = (view.key, view.rect.topleft)
        if self._asked[0] != key:
            own = LabelLayout(view.rect)
            self._ask_labels(own, view)
            self._asked = (key, own.asked)
        layout.extend(self._asked[1])

    def _ask_labels(self, layout: LabelLayout, view: TableView) -> None:
        if view.scale < 6:
            return
        size = max(10, min(15, round(view.scale * 0.6)))
        bounds = view.rect
        band = self.ruler_band(view)
        for i, piece in enumerate(self.terrain):
            full, name = self._name_label(i, size)
            cx, cy = view.to_screen(self._centres[i])
            xs = [view.to_screen(p) for p in piece.polygon]
            if not bounds.contains(full.get_rect(center=(round(cx), round(cy)))):
                visible = _visible_part(xs, bounds)
                if visible is None:
                    continue
                (cx, cy), xs = visible
            box = pygame.Rect(min(p[0] for p in xs), min(p[1] for p in xs), 1, 1)
            box.width = max(1, round(max(p[0] for p in xs) - box.x))
            box.height = max(1, round(max(p[1] for p in xs) - box.y))
            forms = []
            for surf in (full, name):
                rect = surf.get_rect(center=(round(cx), round(cy)))
                # nudges kept within the piece's screen box: a terrain name names what it lies on
                steps = [(0, 0), (0, -rect.h), (0, rect.h), (-rect.w // 2, 0), (rect.w // 2, 0),
                         (0, -2 * rect.h), (0, 2 * rect.h)]
                spots = [rect.move(dx, dy) for dx, dy in steps]
                inside = [r for r in spots if box.collidepoint(r.center)] or spots[:1]
                if any(r.colliderect(band) for r in inside):      # a piece on the bottom edge: else just above
                    up = inside[0].move(0, min(0, band.top - inside[0].bottom))
                    inside += [up.move(dx, dy) for dy in (0, -up.h) for dx in (0, up.w // 2, -up.w // 2)]
                forms.append((surf, clear_of(inside, view.table_rect, band)))
            layout.add("terrain", TERRAIN, forms[0][0], forms[0][1], short=forms[1:], shy="never")

    def _name_label(self, index: int, size: int) -> tuple[pygame.Surface, pygame.Surface]:
        """A piece's name over its traits, and its name alone (cached per size)."""
        got = self._name_labels.get((index, size))
        if got is None:
            piece = self.terrain[index]
            name = text_cache.get(piece.name, size, (255, 255, 255), True, (0, 0, 0, 120), 2)
            traits = ", ".join(TRAIT_WORDS.get(t, t) for t in sorted(piece.traits)) or "open ground"
            small = text_cache.get(traits, max(9, size - 3), (235, 235, 235), False, (0, 0, 0, 110), 2)
            both = pygame.Surface((max(name.get_width(), small.get_width()), name.get_height() + small.get_height()),
                                  pygame.SRCALPHA)
            both.blit(name, ((both.get_width() - name.get_width()) // 2, 0))
            both.blit(small, ((both.get_width() - small.get_width()) // 2, name.get_height()))
            got = self._name_labels[(index, size)] = (both, name)
        return got

    def draw(self, screen: pygame.Surface, view: TableView) -> None:
        """Blit the static layer for ``view`` onto ``screen`` (rendering it only when the zoom changed).

        While the zoom changes from one frame to the next (the wheel is turning), the last exact render is
        scaled instead; the first frame at a steady zoom renders it exactly again.
        """
        tw, th = self.width * view.scale, self.depth * view.scale
        whole = tw * th <= MAX_CACHED_PIXELS
        key: tuple[object, ...] = ("whole", round(view.scale, 4), view.flipped, self.home) if whole \
            else ("view", view.key, self.home)
        if key != self._key or self._surface is None:
            zooming = (whole and self._exact is not None and self._last_scale is not None
                       and view.scale != self._last_scale and self._exact_flipped == view.flipped)
            if zooming:
                assert self._exact is not None
                size = (max(1, math.ceil(tw)), max(1, math.ceil(th)))
                self._surface = pygame.transform.scale(self._exact, size)
                self._key = ("scaled", *key[1:])  # differs from every exact key: re-rendered once zoom settles
            else:
                self._surface = self._render_whole(view.scale, view.flipped) if whole else self._render_view(view)
                self._key = key
                self.renders += 1
                if whole:
                    self._exact, self._exact_flipped = self._surface, view.flipped
        self._last_scale = view.scale
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        if whole:
            screen.blit(self._surface, (round(view.ox), round(view.oy)))
        else:
            screen.blit(self._surface, view.rect.topleft)
        screen.set_clip(clip)

    # --- rendering ----------------------------------------------------------------------------------------
    def _render_whole(self, scale: float, flipped: bool) -> pygame.Surface:
        surf = pygame.Surface((max(1, math.ceil(self.width * scale)), max(1, math.ceil(self.depth * scale))))

        def tf(p: Point) -> tuple[float, float]:
            if flipped:
                return ((self.width - p[0]) * scale, p[1] * scale)
            return (p[0] * scale, (self.depth - p[1]) * scale)

        self._paint(surf, tf, scale)
        return surf.convert() if pygame.display.get_surface() is not None else surf

    def _render_view(self, view: TableView) -> pygame.Surface:
        surf = pygame.Surface(view.rect.size)
        surf.fill(palette.BACKGROUND)
        left, top = view.rect.topleft

        def tf(p: Point) -> tuple[float, float]:
            x, y = view.to_screen(p)
            return (x - left, y - top)

        self._paint(surf, tf, view.scale)
        return surf

    def _paint(self, surf: pygame.Surface, tf, scale: float) -> None:  # type: ignore[no-untyped-def]
        w, d = self.width, self.depth
        corners = [tf((0, 0)), tf((w, 0)), tf((w, d)), tf((0, d))]
        pygame.draw.polygon(surf, palette.TABLE, corners)
        # 6" grid, with heavier lines every 12"
        for i in range(1, int(w // 6) + 1):
            x = i * 6
            if x >= w:
                break
            pygame.draw.line(surf, palette.TABLE_GRID, tf((x, 0)), tf((x, d)), 2 if x % 12 == 0 else 1)
        for j in range(1, int(d // 6) + 1):
            y = j * 6
            if y >= d:
                break
            pygame.draw.line(surf, palette.TABLE_GRID, tf((0, y)), tf((w, y)), 2 if y % 12 == 0 else 1)
        # players' table edges, drawn just inside the table
        strip = max(3, round(0.3 * scale))
        t = strip / scale
        first, last = (1, 2) if self.home in ("south", "west") else (2, 1)     # players at x or y = 0, at w or d
        if self.home in ("west", "east"):
            pygame.draw.polygon(surf, palette.PLAYER[first], [tf((0, 0)), tf((t, 0)), tf((t, d)), tf((0, d))])
            pygame.draw.polygon(surf, palette.PLAYER[last], [tf((w - t, 0)), tf((w, 0)), tf((w, d)), tf((w - t, d))])
        elif self.home in ("south", "north"):
            pygame.draw.polygon(surf, palette.PLAYER[first], [tf((0, 0)), tf((w, 0)), tf((w, t)), tf((0, t))])
            pygame.draw.polygon(surf, palette.PLAYER[last], [tf((0, d - t)), tf((w, d - t)), tf((w, d)), tf((0, d))])
        for piece, kind in zip(self.terrain, self.kinds, strict=True):
            self._paint_piece(surf, tf, scale, piece, kind)
        # inch marks along the long edges, every 6"
        size = ruler_size(scale)
        near = 0.0 if tf((0, 0))[1] > tf((0, d))[1] else d     # the edge at the bottom of the screen
        for i in range(0, int(w) + 1, 6):
            if 0 < i < w:
                label = text_cache.get(f'{i}"', size, RULER_COLOUR)
                x, y = tf((i, near))
                surf.blit(label, (x + 3, y - strip - label.get_height()))

    @staticmethod
    def ruler_band(view: TableView) -> pygame.Rect:
        """Screen rectangle of the strip along the table's bottom edge (on screen) that holds the player's edge
        colour and the inch marks (``_paint``): unit labels keep off it (``UnitPainter.ask_labels``)."""
        table = view.table_rect
        strip = max(3, round(0.3 * view.scale))
        high = strip + text_cache.get('6"', ruler_size(view.scale), RULER_COLOUR).get_height()
        return pygame.Rect(table.x, table.bottom - high, table.w, high)

    def _paint_piece(self, surf: pygame.Surface, tf, scale: float, piece: TerrainShape, kind: str) -> None:  # type: ignore[no-untyped-def]
        colour = palette.TERRAIN.get(kind, palette.TERRAIN["open"])
        pts = [tf(p) for p in piece.polygon]
        pygame.draw.polygon(surf, colour, pts)
        rng = random.Random(zlib.crc32(repr((piece.name, piece.polygon)).encode()))
        xs = [p[0] for p in piece.polygon]
        ys = [p[1] for p in piece.polygon]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        if kind == "forest":
            dark, light = _shade(colour, 0.7), _shade(colour, 1.25)
            n = int((x1 - x0) * (y1 - y0) / 2.2) + 3
            for _ in range(n):
                p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
                if point_in_polygon(p, piece.polygon):
                    r = max(2, round(scale * rng.uniform(0.45, 0.75)))
                    c = tf(p)
                    pygame.draw.circle(surf, dark, c, r)
                    pygame.draw.circle(surf, light, (c[0] - r / 3, c[1] - r / 3), max(1, r // 2))
        elif kind in ("hill", "mountain"):
            cx, cy = _centroid(piece.polygon)
            for f, shade in ((0.66, 1.12), (0.33, 1.24)):
                inner = [tf((cx + (x - cx) * f, cy + (y - cy) * f)) for x, y in piece.polygon]
                pygame.draw.polygon(surf, _shade(colour, shade), inner)
                pygame.draw.polygon(surf, _shade(colour, 0.8), inner, 1)
        elif kind in ("lake", "river", "swamp"):
            light = _shade(colour, 1.3)
            for _ in range(int((x1 - x0) * (y1 - y0) / 6) + 2):
                p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
                if point_in_polygon(p, piece.polygon):
                    c = tf(p)
                    L = scale * 0.6
                    pygame.draw.arc(surf, light, (c[0] - L, c[1] - L / 3, L, L / 1.5), 0.3, 2.8, 1)
                    pygame.draw.arc(surf, light, (c[0], c[1] - L / 3, L, L / 1.5), 3.5, 6.0, 1)
        elif kind == "lava":
            hot = (255, 200, 60)
            for _ in range(int((x1 - x0) * (y1 - y0) / 3) + 2):
                p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
                if point_in_polygon(p, piece.polygon):
                    pygame.draw.circle(surf, hot, tf(p), max(1, round(scale * rng.uniform(0.15, 0.35))))
        elif kind in ("building", "ruins"):
            cx, cy = _centroid(piece.polygon)
            inner = [tf((cx + (x - cx) * 0.8, cy + (y - cy) * 0.8)) for x, y in piece.polygon]
            pygame.draw.polygon(surf, _shade(colour, 0.85 if kind == "building" else 1.1), inner,
                                0 if kind == "building" else 2)
        elif kind == "field":
            step = max(4, round(scale * 0.8))
            line = _shade(colour, 0.8)
            bx = pygame.Rect(min(p[0] for p in pts), min(p[1] for p in pts), 1, 1)
            bx.width = int(max(p[0] for p in pts) - bx.x) + 1
            bx.height = int(max(p[1] for p in pts) - bx.y) + 1
            mask = pygame.Surface(bx.size, pygame.SRCALPHA)
            pygame.draw.polygon(mask, (255, 255, 255, 255), [(p[0] - bx.x, p[1] - bx.y) for p in pts])
            rows = pygame.Surface(bx.size, pygame.SRCALPHA)
            for yy in range(0, bx.height, step):
                pygame.draw.line(rows, line, (0, yy), (bx.width, yy), 1)
            rows.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            surf.blit(rows, bx.topleft)
        border = _shade(colour, 0.55) if kind != "lava" else (120, 30, 10)
        width = 3 if "impassable" in piece.traits else 2
        pygame.draw.polygon(surf, border, pts, width)
        if "dangerous" in piece.traits or "dangerous_when_rushing" in piece.traits:
            pygame.draw.polygon(surf, (255, 220, 60), pts, 1)
        # name and traits
        if scale >= 6 and self.names:
            cx, cy = tf(_centroid(piece.polygon))
            size = max(10, min(15, round(scale * 0.6)))
            name = text_cache.get(piece.name, size, (255, 255, 255), True, (0, 0, 0, 120), 2)
            traits = ", ".join(TRAIT_WORDS.get(t, t) for t in sorted(piece.traits)) or "open ground"
            small = text_cache.get(traits, max(9, size - 3), (235, 235, 235), False, (0, 0, 0, 110), 2)
            room = surf.get_width()       # a piece at the table's edge keeps its words whole on the table
            for text, top in ((name, cy - name.get_height()), (small, cy)):
                left = max(0.0, min(cx - text.get_width() / 2, room - text.get_width()))
                surf.blit(text, (left, top))
