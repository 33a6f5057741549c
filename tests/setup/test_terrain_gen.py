"""Terrain generation (game/setup/terrain_gen.py): the AoWFBR guidelines measured over many seeds, and the AoF:R
placement styles' rules."""

from __future__ import annotations

import math

import pytest
import shapely
from shapely import Point, Polygon, box

from game.setup.terrain_gen import (
    AOFR_STYLES,
    LARGE_SIZE,
    MAX_GAP,
    MIN_GAP,
    SCATTER_KINDS,
    SCATTER_SIZE,
    STYLES,
    TerrainPieceSpec,
    coverage,
    generate_layout,
    generate_table,
    max_gap,
    min_gap,
    piece_size,
    trait_counts,
)
from game.terrain_kinds import KIND_TRAITS

SEEDS = range(20)
W, D = 72.0, 48.0


def on_table(pieces: list[TerrainPieceSpec], margin: float = 0.0) -> bool:
    table = box(margin, margin, W - margin, D - margin)
    return all(table.buffer(1e-6).contains(p.shape()) for p in pieces)


def no_overlaps(pieces: list[TerrainPieceSpec]) -> bool:
    shapes = [p.shape() for p in pieces]
    return all(not shapes[i].intersects(shapes[j]) for i in range(len(shapes)) for j in range(i + 1, len(shapes)))


def independent_max_gap(pieces: list[TerrainPieceSpec]) -> float:
    """Longest link of the minimum spanning tree of the gaps (Kruskal, written separately from the module's Prim)."""
    shapes = [p.shape() for p in pieces]
    n = len(shapes)
    edges = sorted((float(shapes[i].distance(shapes[j])), i, j) for i in range(n) for j in range(i + 1, n))
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    longest, joined = 0.0, 1
    for d, i, j in edges:
        a, b = find(i), find(j)
        if a != b:
            parent[a] = b
            longest, joined = max(longest, d), joined + 1
            if joined == n:
                break
    return longest


@pytest.mark.parametrize("seed", SEEDS)
def test_guidelines_tables(seed):
    """AoWFBR "Terrain Placement": at least 10 pieces; at least 50% block line of sight, 33% give cover, 33% are
    difficult; one dangerous piece per player; no gaps bigger than 12"; gaps of at least 6"; "Terrain Overview"
    sizes; every piece on the table, none overlapping; "as many pieces of terrain as you need to fully cover at
    least 25% of the table"."""
    pieces = generate_table(seed)
    n = len(pieces)
    assert 10 <= n <= 20
    assert coverage(pieces) >= 0.25
    counts = trait_counts(pieces)
    assert counts["blocking"] * 2 >= n
    assert counts["cover"] * 3 >= n
    assert counts["difficult"] * 3 >= n
    dangerous = [p for p in pieces if "dangerous" in p.traits]
    assert len(dangerous) == 2
    halves = sorted(p.shape().centroid.y < D / 2 for p in dangerous)
    assert halves == [False, True]  # one in each player's half
    assert all(p.shape().bounds[3] <= D / 2 + 1e-6 or p.shape().bounds[1] >= D / 2 - 1e-6 for p in dangerous)
    assert min_gap(pieces) >= MIN_GAP - 1e-9
    assert independent_max_gap(pieces) <= MAX_GAP + 1e-9
    assert math.isclose(max_gap(pieces), independent_max_gap(pieces), abs_tol=1e-9)
    assert on_table(pieces)
    assert no_overlaps(pieces)
    for p in pieces:
        short, long = piece_size(p)
        lo, hi = SCATTER_SIZE if p.kind in SCATTER_KINDS else LARGE_SIZE
        assert lo - 0.05 <= short and long <= hi + 0.05, (p.name, p.kind, short, long)
        assert p.traits == KIND_TRAITS[p.kind]
        assert Polygon(p.outline()).is_valid
    assert len({p.name for p in pieces}) == n


def test_same_seed_same_table_and_different_seeds_differ():
    """The seed reproduces the table (its own random.Random, not the game's dice)."""
    assert generate_table(7) == generate_table(7)
    assert generate_table(7) != generate_table(8)
    for style in STYLES:
        assert generate_layout(3, style=style) == generate_layout(3, style=style)


def test_piece_count_and_table_size_are_honoured():
    pieces = generate_table(1, pieces=18)
    assert len(pieces) == 18 and min_gap(pieces) >= MIN_GAP and max_gap(pieces) <= MAX_GAP
    big = generate_table(2, width=96, depth=60)
    assert len(big) >= 15
    assert all(p.shape().bounds[2] <= 96 + 1e-6 and p.shape().bounds[3] <= 60 + 1e-6 for p in big)


@pytest.mark.parametrize("kwargs, message", [
    ({"style": "scattered"}, "unknown terrain style 'scattered'"),
    ({"pieces": 6}, "at least 10 pieces"),
    ({"width": 12}, "24\" to 240\""),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        generate_table(1, **kwargs)


@pytest.mark.parametrize("style", AOFR_STYLES)
def test_aofr_styles_keep_pieces_6_inches_apart_on_the_table(style):
    """AoF:R "Terrain Placement Styles": pieces at least 6" from each other; a piece that cannot be placed is
    removed; "Terrain Guidelines": 4"x4" to 8"x8" (barricades as walls 4"-6" long)."""
    for seed in range(8):
        layout = generate_layout(seed, style=style)
        pieces = layout.pieces
        assert layout.style == style and pieces
        assert min_gap(pieces) >= MIN_GAP - 1e-9
        assert on_table(pieces) and no_overlaps(pieces)
        for p in pieces:
            short, long = piece_size(p)
            assert long <= 8.0 + 0.05
            if p.kind != "barricade":
                assert short >= 4.0 - 0.05, (p.kind, short)


def test_aofr_terrain_selection():
    """AoF:R "Terrain Selection": 2 impassable, 2 forests or fields, 2 hills or fields, then 2D3 more."""
    for seed in range(8):
        layout = generate_layout(seed, style="alternating_free")
        rolled = int(layout.notes[0].split("2D3 = ")[1].split()[0])
        assert 2 <= rolled <= 6
        placed = len(layout.pieces)
        removed = sum(1 for n in layout.notes if "cannot be placed" in n)
        assert placed + removed == 6 + rolled


@pytest.mark.parametrize("style", ["full_table", "two_halves"])
def test_full_table_and_two_halves_keep_6_inches_from_the_edges(style):
    """AoF:R "Full Table", "Two Halves": at least 6" away from each other and the table edge."""
    for seed in range(6):
        assert on_table(generate_table(seed, style=style), margin=MIN_GAP)


def test_two_halves_pieces_alternate_between_the_two_diagonal_halves():
    """AoF:R "Two Halves": players alternate placing terrain each on their own half of a corner-to-corner line."""
    for seed in range(6):
        layout = generate_layout(seed, style="two_halves")
        diagonal = next(n for n in layout.notes if "diagonal" in n)
        line = shapely.LineString([(0, 0), (W, D)] if "sw-ne" in diagonal else [(0, D), (W, 0)])
        for p in layout.pieces:
            assert not p.shape().crosses(line) and p.placed_by in (1, 2)
        sides: dict[int, set[bool]] = {1: set(), 2: set()}
        for p in layout.pieces:
            c = p.shape().centroid
            x0, y0, x1, y1 = line.coords[0] + line.coords[1]
            sides[p.placed_by].add((x1 - x0) * (c.y - y0) - (y1 - y0) * (c.x - x0) > 0)
        assert all(len(s) <= 1 for s in sides.values()) and sides[1] != sides[2]


def test_six_squares_pieces_lie_inside_a_section():
    """AoF:R "Six Squares": each piece is placed in a random 2'x2' section."""
    sections = [box(c * 24, r * 24, (c + 1) * 24, (r + 1) * 24).buffer(1e-6) for r in range(2) for c in range(3)]
    for seed in range(6):
        for p in generate_table(seed, style="six_squares"):
            assert any(s.contains(p.shape()) for s in sections)


@pytest.mark.parametrize("restriction", range(1, 7))
def test_alternating_restricted(restriction):
    """AoF:R "Alternating (Restricted)": the six restrictions."""
    centre = Point(W / 2, D / 2)
    corners = [Point(0, 0), Point(W, 0), Point(0, D), Point(W, D)]
    quarters = [box(0, 0, 36, 24), box(36, 0, 72, 24), box(0, 24, 36, 48), box(36, 24, 72, 48)]
    for seed in range(4):
        layout = generate_layout(seed, style="alternating_restricted", restriction=restriction)
        assert layout.restriction == restriction
        shapes = [p.shape() for p in layout.pieces]
        assert min_gap(layout.pieces) >= MIN_GAP - 1e-9
        if restriction == 1:
            assert all(s.distance(centre) >= 12 - 1e-9 for s in shapes)
        elif restriction == 2:
            assert on_table(layout.pieces, margin=12.0)
        elif restriction in (3, 4):
            first = shapes[0]
            assert first.centroid.distance(centre) < 0.5
            for i, s in enumerate(shapes[1:], start=1):
                if restriction == 3:
                    assert s.distance(first) > 12
                else:
                    assert min(s.distance(o) for o in shapes[:i]) <= 9 + 1e-9
        elif restriction == 5:
            used = [min(range(4), key=lambda k, s=s: s.distance(corners[k])) for s in shapes[:4]]
            assert len(set(used)) == len(used)
            assert all(s.distance(corners[k]) <= 12 + 1e-9 for s, k in zip(shapes[:4], used, strict=True))
        else:
            used = [next(k for k, q in enumerate(quarters) if q.buffer(1e-6).contains(s)) for s in shapes[:4]]
            assert len(set(used)) == len(used)


def test_random_style_and_rolled_style_notes():
    """AoF:R "Random": section rolls and a 2D6" move; "roll one die" for the style."""
    layout = generate_layout(4, style="random")
    assert any("moved toward section" in n for n in layout.notes)
    rolled = generate_layout(4, style="roll")
    assert rolled.notes[0].startswith("Placement style rolled: ") and rolled.style in AOFR_STYLES


def test_pieces_become_scenario_terrain_and_engine_shapes():
    pieces = generate_table(11)
    for i, p in enumerate(pieces):
        data = p.to_scenario()
        assert data["kind"] == p.kind and ("rect" in data) != ("polygon" in data)
        shape = p.to_shape(i)
        assert shape.index == i and shape.traits == p.traits and shape.polygon == tuple(p.outline())
