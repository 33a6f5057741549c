"""Limits on what a file may ask of the program (docs/formats.md "Limits").

Every file a player is handed is untrusted. These bounds are far above what any real game needs (a 1500-point
battle has about 25 units, 15 terrain pieces and a few hundred actions) and are checked before any expensive
work, so that a malformed or hostile file is refused in bounded time and memory instead of running for minutes.
"""

from __future__ import annotations

from game.engine.actions import MAX_PATH_POSES as _MAX_PATH_POSES

KIB = 1024
MIB = 1024 * KIB

MAX_FILE_BYTES = 1 * MIB
"""A scenario, army, army list, lesson or progress file: at most this many bytes (a 1500-point scenario is
about 20 KiB)."""

MAX_RECORD_BYTES = 8 * MIB
"""A game record (replay, save, test script): at most this many bytes (a 5-round game is about 25 KiB)."""

MAX_YAML_NODES = 250_000
"""YAML nodes in one file, counted with every alias expanded (the values a loader and a validator would walk)."""

MAX_YAML_DEPTH = 64
"""Levels of nesting in one YAML file (real files use fewer than 10)."""

MAX_NUMBER_DIGITS = 30
"""Digits of one number written in a file (Python refuses integers of more than 4,300 digits with a crash)."""

MAX_ARMIES = 2
"""Armies in a scenario: one per player."""

MAX_UNITS_PER_ARMY = 100
"""Units in one army of a scenario or one army list (a 1500-point army has 10-15)."""

MAX_PROFILES = 200
"""Unit profiles in one army file or scenario army."""

MAX_LIST_ITEMS = 50
"""Weapons of a profile, special rules of a profile or weapon, upgrades of a unit, spells of an army."""

MAX_MODELS_PER_UNIT = 500
"""Models in one unit (a horde of 40 is large)."""

MAX_TERRAIN_PIECES = 200
"""Terrain pieces on a table (the rulebook's guideline is 10-15)."""

MAX_POLYGON_POINTS = 256
"""Corners of one terrain polygon."""

MAX_ACTIONS = 20_000
"""Actions in one game record (a whole 1500-point game takes a few hundred)."""

MAX_PATH_POSES = _MAX_PATH_POSES
"""Poses in the path of one move (the window sends one to three); checked where actions are read."""

MAX_LESSON_STEPS = 200
"""Steps of one lesson."""
