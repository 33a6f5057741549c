"""Setting up a battle: army lists, terrain generation and writing the result as a scenario.

Pure Python, no pygame: the set-up window (``game/ui``) builds on these modules.

- ``game.setup.army_list``: build, validate (rulebook "Preparing Your Army", "Force Organisation", "Combined Units",
  "Command Groups", "Hero", "Victory Conditions"), save and load army lists (``format: regiments-list/1``).
- ``game.setup.terrain_gen``: generate a table of terrain following the AoWFBR "Terrain Placement" guidelines or one
  of the AoF:R advanced "Terrain Placement Styles", reproducibly from a seed.
- ``game.setup.scenario_writer``: write table, terrain and two army lists as a ``regiments-scenario/1`` file that
  ``python main.py play`` starts (units without poses are deployed in the game: ``game.engine.deployment``).
"""
