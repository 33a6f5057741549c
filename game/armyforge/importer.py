"""Import an Army Forge export: read the file (bounded), map it (``convert``), write an army file and an army list.

``read_export(path)`` reads either export (told apart by its first character: ``{`` is the JSON export) within
``MAX_FILE_BYTES``, and refuses everything else with ``FILE:LINE: ...`` problems (``ExportRefused``).
``plan_import(path, ruleset)`` reads and maps it. ``write_import(plan, list_path, army_path, bases)`` writes the
army file (``format: regiments-army/1``) and the list (``format: regiments-list/1``), each atomically, checks
both by loading them back, and returns the list and its problems (``validate``) with and without Force
Organisation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from game.armyforge.convert import Plan, convert
from game.armyforge.export import Export, ExportRefused, where
from game.armyforge.json_export import parse_json
from game.armyforge.rulesets import DEFAULT_RULESET
from game.armyforge.text_export import parse_text
from game.files import atomic_write_text, imported_armies_dir, lists_dir, slug
from game.limits import MAX_FILE_BYTES
from game.reader import FileRefused, display_name, read_text
from game.scenario import ARMY_FORMAT, ScenarioError, load_army
from game.setup.army_list import ArmyList, ArmyListError, load_list, save_list, validate


def read_export(path: str | Path) -> Export:
    """Read an Army Forge export, 'Share as Text' or JSON. Raises ``ExportRefused`` (every problem as
    ``FILE:LINE: unit N "Name": message``), also for a file that is missing, too large, not UTF-8 or neither
    export ('Share as File' says which export to use instead)."""
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except FileRefused as e:
        raise ExportRefused(e.problems) from None
    file = display_name(path)
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise ExportRefused([f"{where(file, 1)}: the file is empty"])
    if text.lstrip().startswith(("{", "[")):
        return parse_json(text, file)
    return parse_text(text, file)


def plan_import(path: str | Path, ruleset: str = DEFAULT_RULESET) -> Plan:
    """``read_export`` then ``convert`` onto ``ruleset``. Raises ``ExportRefused`` or ``ValueError`` (ruleset)."""
    return convert(read_export(path), ruleset)


def default_paths(plan: Plan, lists_folder: Path | None = None, armies_folder: Path | None = None
                  ) -> tuple[Path, Path]:
    """(list file, army file) for ``plan`` named after the list, in ``lists_folder`` (default: "My lists",
    ``game.files.lists_dir()``) and ``armies_folder`` (default: ``game.files.imported_armies_dir()``); a name
    already taken in either gets ``-2``, ``-3``..."""
    lists_folder = lists_folder if lists_folder is not None else lists_dir()
    armies_folder = armies_folder if armies_folder is not None else imported_armies_dir()
    stem = slug(plan.export.name, "army-forge-list")
    n, suffix = 1, ""
    while (lists_folder / f"{stem}{suffix}.yaml").exists() or (armies_folder / f"{stem}{suffix}.yaml").exists():
        n += 1
        suffix = f"-{n}"
    return lists_folder / f"{stem}{suffix}.yaml", armies_folder / f"{stem}{suffix}.yaml"


def army_path_beside(list_path: Path) -> Path:
    """The army file written with a list given by name: ``NAME.army.yaml`` beside ``NAME.yaml``."""
    return list_path.with_name(f"{list_path.stem}.army.yaml")


@dataclass
class Written:
    """What ``write_import`` wrote."""

    army_list: ArmyList
    list_path: Path
    army_path: Path
    problems: list[str]
    """``validate`` without Force Organisation: what keeps the list from being played (fix it in the set-up)."""
    force_org: list[str]
    """What only Force Organisation (optional) would refuse."""


def army_text(plan: Plan, bases: dict[str, tuple[float, float]] | None = None) -> str:
    """The army file (YAML) of ``plan``; ``bases``: base sizes (mm) chosen by the player, by profile name."""
    ex = plan.export
    profiles = {}
    for name, prof in plan.profiles.items():
        prof = dict(prof)
        if bases and name in bases:
            prof["base"] = list(bases[name])
        prof["base"] = [int(v) if float(v).is_integer() else float(v) for v in prof["base"]]
        profiles[name] = prof
    system = f" ({ex.system})" if ex.system else ""
    data = {"format": ARMY_FORMAT, "name": ex.name,
            "description": f"Imported from Army Forge{system}, {Path(ex.file).name}, {time.strftime('%Y-%m-%d')}, "
                           f"for {plan.ruleset}.",
            "profiles": profiles}
    return ("# Army file imported from Army Forge (docs/formats.md \"Army Forge import\")\n"
            + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=120, allow_unicode=True))


def write_import(plan: Plan, list_path: str | Path, army_path: str | Path,
                 bases: dict[str, tuple[float, float]] | None = None) -> Written:
    """Write the army file at ``army_path`` and the list at ``list_path`` (each atomically), then read both back
    (``load_army``, ``load_list``). Raises ``OSError``, or ``ScenarioError`` / ``ArmyListError`` if what was
    written does not load (a bug: the plan's profiles are built to be valid). Base sizes must be above 0 mm."""
    list_path, army_path = Path(list_path), Path(army_path)
    for name, (w, d) in (bases or {}).items():
        if not (w > 0 and d > 0):
            raise ValueError(f"{name}: base sizes must be greater than 0 mm, got {w:g} x {d:g}")
    atomic_write_text(army_path, army_text(plan, bases))
    army = load_army(army_path)
    entries = [replace(e, upgrades=list(e.upgrades)) for e in plan.entries]
    lst = ArmyList(army, plan.points, entries, plan.general, plan.export.name)
    save_list(list_path, lst)
    lst = load_list(list_path)
    problems = validate(lst, force_org=False)
    force = [p for p in validate(lst, force_org=True) if p not in problems]
    return Written(lst, list_path, army_path, problems, force)


__all__ = ["ArmyListError", "ExportRefused", "Plan", "ScenarioError", "Written", "army_path_beside", "army_text",
           "default_paths", "plan_import", "read_export", "write_import"]
