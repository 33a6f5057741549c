"""Scenario and army files: loading, validation and the starting game state.

The formats are fixed by ``../shared/spec.md`` ("Scenario file") and documented key by key in ``docs/formats.md``
("Scenario file", "Army file"). A bad file is refused with every problem found, each as
``FILE:LINE: PATH: message`` (LINE 1-based, PATH like ``armies[0].units[2].models``)::

    scenarios/x.yaml:14: armies[0].profiles.Spearmen.quality: must be 2 to 6, got 7

Checks follow the rulebook: "Unit Stats" (Quality and Defense 2+ to 6+), "Combined Units" (up to four copies of a
multi-model unit, at most 20 models, two copies for units with Tough), "Command Groups" (one sergeant, musician and
banner per unit), "Hero" (heroes with up to Tough(6) may join one multi-model unit), "Victory Conditions" (the
General is one of the army's heroes), "Deploying Armies" and "Terrain Setup Guidelines" (``game/terrain_kinds.py``).
Distances are inches, angles degrees, base sizes millimetres.

Public API: ``load_scenario``, ``load_scenario_mapping``, ``load_army``, ``new_game_state``, ``ScenarioError`` and
the frozen dataclasses ``Scenario``, ``ArmySpec``, ``UnitSpec``, ``StartSpec`` and ``ArmyFile``; what each ruleset
plays: ``ruleset_content``, ``profile_rule_problem``, ``rule_refusal``, ``upgrade_problems``. Checking a file of
any format (army lists too) is ``game.file_check.check_scenario_file``, above this package.

One job per module, each importing only the ones above it in this list:

- ``yaml_doc``: YAML documents with node marks, problems ``FILE:LINE: PATH: message``, duplicate keys;
- ``fields``: field types with plain-language messages (``Number``, ``Int``, ``Text``, ``Score``, ``RuleText``...);
- ``specs``: what a loaded file is (``Scenario``, ``ArmySpec``, ``UnitSpec``, ``StartSpec``, ``ArmyFile``,
  ``ScenarioError``) and the file constants;
- ``models``: the pydantic models of the file keys;
- ``validation``: pydantic errors as problems (``_validate``), one field of a partly bad file (``_field``);
- ``profiles``, ``spells``, ``terrain``: readers of a file's profiles, spells and terrain pieces;
- ``session``: the state of one load (its problems) and the army files it reads once each (``include``);
- ``army_checks``: Combined Units, unit ids, the General, heroes joining units, units inside a Transport;
- ``placement``: unit poses on the table and the ``start`` position;
- ``skirmish``: AoF: Skirmish's loose model ``positions`` and ``command_picks``;
- ``missions``: the mission, objective markers and side-missions;
- ``refusals``: what each ruleset plays, and the refusals of the rest;
- ``loader``: the public loaders, running the checks above in order;
- ``new_game``: the ``GameState`` at the scenario's start.
"""

from __future__ import annotations

from game.scenario.army_checks import MAX_COMBINED_MODELS, MAX_COPIES, MAX_JOINING_TOUGH, MAX_TOUGH_COPIES
from game.scenario.loader import load_army, load_scenario, load_scenario_mapping
from game.scenario.new_game import new_game_state
from game.scenario.refusals import (
    RulesetContent,
    profile_rule_problem,
    rule_refusal,
    ruleset_content,
    upgrade_problems,
)
from game.scenario.skirmish import command_units
from game.scenario.specs import (
    ARMY_FORMAT,
    OPTION_DEFAULTS,
    PHASE_FIRST_STEP,
    RULESETS,
    SCENARIO_FORMAT,
    SPELL_TOKEN_MODES,
    ArmyFile,
    ArmySpec,
    Scenario,
    ScenarioError,
    StartSpec,
    UnitSpec,
)

__all__ = [
    "ARMY_FORMAT", "ArmyFile", "ArmySpec", "MAX_COMBINED_MODELS", "MAX_COPIES", "MAX_JOINING_TOUGH",
    "MAX_TOUGH_COPIES", "OPTION_DEFAULTS", "PHASE_FIRST_STEP", "RULESETS", "SCENARIO_FORMAT", "SPELL_TOKEN_MODES",
    "RulesetContent", "Scenario", "ScenarioError", "StartSpec", "UnitSpec", "command_units",
    "load_army", "load_scenario", "load_scenario_mapping", "new_game_state", "profile_rule_problem", "rule_refusal",
    "ruleset_content", "upgrade_problems",
]
