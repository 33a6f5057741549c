"""The state of one load (``_Session``: the problems found, the army files read) and the army files it reads once
each (``include``); ``_UnitEntry`` is a unit as read, with where it stands in the file. The readers of profiles,
spells and terrain are ``game.scenario.profiles``, ``game.scenario.spells`` and ``game.scenario.terrain``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from game.engine.magic import Spell
from game.engine.profiles import Profile
from game.reader import YamlFile
from game.scenario.models import ArmyFileModel
from game.scenario.profiles import _read_profiles
from game.scenario.specs import UnitSpec
from game.scenario.spells import _read_spells
from game.scenario.validation import _field, _validate
from game.scenario.yaml_doc import _Problem, _read_yaml


@dataclass
class _LoadedArmyFile:
    name: str | None
    description: str | None
    profiles: dict[str, Profile]
    broken: set[str]
    upgrade_costs: dict[str, int] = field(default_factory=dict)
    spells: dict[str, Spell] = field(default_factory=dict)


@dataclass
class _Session:
    """State of one load: the problems found and the army files read so far."""

    problems: list[_Problem] = field(default_factory=list)
    army_files: dict[str, _LoadedArmyFile | None] = field(default_factory=dict)

    def army_file(self, path: Path, read: YamlFile | None = None) -> _LoadedArmyFile | None:
        """Read an army file once (a second include of the same file reuses it); ``read``: already read."""
        key = os.path.normcase(os.path.abspath(path))
        if key in self.army_files:
            return self.army_files[key]
        result: _LoadedArmyFile | None = None
        loaded = _read_yaml(path, self.problems, read)
        if loaded is not None:
            doc, data = loaded
            if not isinstance(data, dict):
                self.problems.append(doc.problem((), "an army file must be a mapping of keys (format, name, "
                                                     "profiles)"))
            else:
                _validate(ArmyFileModel, data, doc, (), self.problems)
                raw = _field(ArmyFileModel, data, "profiles", {})
                profiles, broken = _read_profiles(raw, doc, ("profiles",), self.problems)
                result = _LoadedArmyFile(_field(ArmyFileModel, data, "name", None),
                                         _field(ArmyFileModel, data, "description", None), profiles, broken,
                                         dict(_field(ArmyFileModel, data, "upgrade_costs", {})),
                                         _read_spells(_field(ArmyFileModel, data, "spells", []), doc, ("spells",),
                                                      self.problems))
        self.army_files[key] = result
        return result


@dataclass
class _UnitEntry:
    army: int  # index in armies
    player: int
    index: int  # index in the army's units
    spec: UnitSpec
    profile: Profile | None
