"""Colours of the window: players, terrain kinds, markers."""

from __future__ import annotations

PLAYER = {1: (52, 104, 196), 2: (190, 48, 48)}
"""Base fill of each player's units: player 1 blue, player 2 red."""
PLAYER_LIGHT = {1: (120, 165, 240), 2: (240, 120, 110)}
"""Lighter shade (front row, labels)."""
PLAYER_DARK = {1: (22, 44, 92), 2: (88, 18, 18)}
"""Outline of each player's bases."""
PLAYER_HTML = {1: "#7fb0ff", 2: "#ff8a80"}
"""Player colours for HTML text (log, cards)."""
FRONT_EDGE = (255, 236, 140)
"""The highlighted front edge of a unit."""

TABLE = (74, 92, 62)
"""Table felt."""
TABLE_GRID = (86, 106, 73)
"""6" grid lines."""
TABLE_EDGE = (40, 46, 38)
"""Outside the table."""
BACKGROUND = (28, 31, 34)
"""Window background behind the table."""

TERRAIN = {
    "forest": (36, 104, 48),
    "hill": (140, 104, 64),
    "building": (128, 128, 134),
    "mountain": (104, 96, 92),
    "ruins": (150, 140, 126),
    "rubble": (132, 120, 104),
    "barricade": (120, 84, 50),
    "field": (178, 160, 80),
    "lake": (56, 110, 178),
    "river": (66, 128, 196),
    "swamp": (72, 104, 88),
    "lava": (226, 104, 26),
    "open": (98, 116, 84),
}
"""Fill of each terrain kind (game/terrain_kinds.py)."""

SELECT = (255, 255, 255)
"""Outline of the selected unit."""
TARGET = (255, 214, 64)
"""Outline of valid targets (charge, shooting)."""
LEGAL = (90, 220, 120)
"""Ghost of a legal move."""
ILLEGAL = (240, 70, 60)
"""Ghost of an illegal move, and the broken rule."""
SHAKEN = (255, 170, 40)
"""Shaken marker."""
FLEEING = (255, 90, 200)
"""Fleeing marker."""
ENGAGED = (255, 240, 200)
"""Engaged (locked in melee) marker."""
MEASURE = (120, 230, 255)
"""The measuring tape."""
FLASH = (255, 150, 60)
"""Outline of units the last action hit, charged or broke (fades out)."""
