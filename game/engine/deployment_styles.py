"""Deployment styles (AoF:R 2.16 "Deployment Styles"): the shape of each player's deployment zone.

"Whilst you can simply pick one deployment style of your choice, it can be interesting to have it be randomly
selected before the game begins ... roll one die: 1 Front Line, 2 Long Haul, 3 Side Battle, 4 Ambush, 5 Spearhead,
6 Flank Assault." Front Line "is the standard deployment from the core rules" (AoWFBR "Deploying Armies": fully
within 12" of one's own long table edge). The book's diagrams of the other five did not survive the text
extraction; the zones below are the project's reconstruction of OPR's diagrams, one ruling each in docs/rulings.md
("Deployment styles"). Every zone is given in the table's frame (player 1's edge is y = 0) and player 2's is
player 1's turned 180 degrees about the table centre, so the deployment roll-off winner's choice of side still
works by turning the table (game.engine.deployment).

Zones are shapely polygons in inches; a unit deploys fully within its player's zone; objective markers are
placed outside both (game.engine.objectives).
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely import Point, Polygon, box
from shapely.affinity import rotate
from shapely.geometry.base import BaseGeometry

from game.engine.state import DEPLOYMENT_DEPTH, GameState, Table


@dataclass(frozen=True)
class DeploymentStyle:
    """One deployment style of AoF:R 2.16 "Deployment Styles"."""

    name: str
    """Its name in the rulebook."""
    summary: str
    """Player 1's zone in words (player 2's is the same turned half round)."""
    home: str
    """The table edge player 1's zone stands on for rules that say "their table edge" (Sabotage, Secret Mission):
    ``south`` (y = 0) or ``west`` (x = 0)."""


STYLES: dict[str, DeploymentStyle] = {
    "front_line": DeploymentStyle("Front Line", "the whole long table edge, 12\" deep (the standard)", "south"),
    "long_haul": DeploymentStyle("Long Haul", "the whole short table edge, 12\" deep; the armies start the "
                                              "length of the table apart", "west"),
    "side_battle": DeploymentStyle("Side Battle", "half of the long table edge, 12\" deep; the armies face each "
                                                  "other from opposite halves", "south"),
    "ambush": DeploymentStyle("Ambush", "one table quarter, over 12\" from the table centre; the armies start in "
                                        "opposite quarters", "south"),
    "spearhead": DeploymentStyle("Spearhead", "a triangle in one corner: half the long edge and the whole short "
                                              "edge; the armies start in opposite corners", "south"),
    "flank_assault": DeploymentStyle("Flank Assault", "an L along half the long edge and three quarters of the "
                                                      "short edge, 12\" deep", "south"),
}
"""Every deployment style, by its scenario name (``deployment:``), in the rulebook's order."""
RANDOM_STYLES: tuple[str, ...] = tuple(STYLES)
"""``deployment: random``: one die picks the style, 1 Front Line ... 6 Flank Assault."""
ALL_STYLES: tuple[str, ...] = (*STYLES, "random")
"""Every value a scenario's ``deployment`` may take."""
DEFAULT_STYLE = "front_line"
AMBUSH_CENTRE_GAP = 12.0
"""Inches: Ambush zones stay over this distance from the table centre."""


def style_of(state: GameState) -> str:
    """The deployment style played (``front_line`` when the scenario gives none or ``random`` is not rolled)."""
    style = state.deployment_style
    return style if style in STYLES else DEFAULT_STYLE


def zone(style: str, table: Table, player: int) -> Polygon:
    """``player``'s deployment zone for ``style`` on ``table`` (inches, the table's frame). Raises ``KeyError`` for
    an unknown style."""
    if style not in STYLES:
        raise KeyError(f"unknown deployment style {style!r}")
    w, d = table.width, table.depth
    z = DEPLOYMENT_DEPTH
    first: BaseGeometry
    if style == "front_line":
        first = box(0, 0, w, min(z, d))
    elif style == "long_haul":
        first = box(0, 0, min(z, w), d)
    elif style == "side_battle":
        first = box(0, 0, w / 2, min(z, d))
    elif style == "ambush":
        first = box(0, 0, w / 2, d / 2).difference(Point(w / 2, d / 2).buffer(AMBUSH_CENTRE_GAP, 64))
    elif style == "spearhead":
        first = Polygon([(0, 0), (w / 2, 0), (0, d)])
    else:   # flank_assault
        first = box(0, 0, w / 2, min(z, d)).union(box(0, 0, min(z, w), 3 * d / 4))
    if player == 2:
        first = rotate(first, 180, origin=(w / 2, d / 2))
    assert isinstance(first, Polygon)
    return first


def zone_of(state: GameState, player: int) -> Polygon:
    """``player``'s deployment zone in the game (its style; see ``zone``)."""
    return zone(style_of(state), state.table, player)


def home_edge(state: GameState, player: int) -> str:
    """The table edge ``player``'s zone stands on: ``south``, ``north``, ``west`` or ``east``."""
    first = STYLES[style_of(state)].home
    if player == 1:
        return first
    return {"south": "north", "west": "east"}[first]


def edge_line(table: Table, edge: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of a table edge, inches."""
    w, d = table.width, table.depth
    return {"south": ((0.0, 0.0), (w, 0.0)), "north": ((0.0, d), (w, d)), "west": ((0.0, 0.0), (0.0, d)),
            "east": ((w, 0.0), (w, d))}[edge]
