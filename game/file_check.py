"""Checking any file of the game's formats without running it: the ``check`` command (spec "CLI").

It sits above ``game.scenario`` (scenario and army files) and ``game.setup.army_list`` (army lists, which are built
on army files), so neither of those imports the other's checker.
"""

from __future__ import annotations

from pathlib import Path

from game.reader import FileRefused, YamlFile, read_yaml
from game.scenario import ARMY_FORMAT, ScenarioError, load_army, load_scenario
from game.setup.army_list import LIST_FORMAT, check_list_file


def check_scenario_file(path: str | Path, read: YamlFile | None = None) -> list[str]:
    """Problems of a scenario file, or of an army file if its ``format`` is ``regiments-army/1``, or of an army list
    (``regiments-list/1``: ``game.setup.army_list.check_list_file``); [] if valid.

    Each problem is ``FILE:LINE: PATH: message``. ``read``: the file already read. Never raises for a bad file
    (the ``check`` command uses it).
    """
    path = Path(path)
    if read is None:
        try:
            read = read_yaml(path)
        except FileRefused as e:
            return list(e.problems)
    if isinstance(read.data, dict) and read.data.get("format") == LIST_FORMAT:
        return check_list_file(path)
    try:
        if isinstance(read.data, dict) and read.data.get("format") == ARMY_FORMAT:
            load_army(path, read)
        else:
            load_scenario(path, read)
    except ScenarioError as e:
        return list(e.problems)
    return []


__all__ = ["check_scenario_file"]
