"""Save a set-up as a scenario file (``format: regiments-scenario/1``, spec "Scenario file", docs/formats.md).

``write_scenario(path, name, table, terrain, lists, poses)`` writes the table, the terrain pieces (from
``game.setup.terrain_gen`` or ``pieces_from_scenario``) and the two players' army lists (``game.setup.army_list``):

- each army ``include:``s its army file by a path relative to the scenario's folder (the profiles are not copied);
- each list entry becomes a unit ``{id, profile, models: copies x size, upgrades, joined_by}`` and a joined hero a
  unit of its own ``{id: hero_id, profile, models: 1}`` right after it; the list's General becomes ``general``;
- units get a ``pose`` only if ``poses`` gives one; without poses the game starts with deployment
  (``game.engine.deployment``), so ``python main.py play FILE`` starts by deploying.

Unit ids must be unique in a scenario: when both lists use the same id (two players picking the same army), player
2's id gets the prefix ``p2-`` (``scenario_unit_ids`` tells the ids used). The file is validated with the scenario
loader before it is written and written atomically.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from game.engine.state import Table
from game.files import atomic_write_text
from game.scenario import OPTION_DEFAULTS, SCENARIO_FORMAT, Scenario, load_scenario_mapping
from game.setup.army_list import UPGRADE_ORDER, ArmyList
from game.setup.terrain_gen import TerrainPieceSpec
from geometry.pose import Pose

RULESET = "aowfbr-1.4"
"""The ruleset written into scenarios unless told another (``ruleset=``)."""


def scenario_unit_ids(lists: Sequence[ArmyList]) -> dict[tuple[int, str], str]:
    """The scenario id of every unit of the lists: ``(player, list unit id) -> scenario id``.

    Player 1's ids are kept; a player 2 id that player 1 also uses becomes ``p2-<id>`` (with a number added if even
    that is taken). ``lists[0]`` is player 1's, ``lists[1]`` player 2's.
    """
    out: dict[tuple[int, str], str] = {}
    used: set[str] = set()
    for player, lst in enumerate(lists, start=1):
        for uid in lst.unit_ids():
            new = uid
            if new in used:
                new = f"p{player}-{uid}"
                n = 2
                while new in used:
                    new = f"p{player}-{uid}-{n}"
                    n += 1
            used.add(new)
            out[(player, uid)] = new
    return out


def scenario_mapping(path: str | Path, name: str, table: Table | tuple[float, float],
                     terrain: Sequence[TerrainPieceSpec], lists: Sequence[ArmyList],
                     poses: Mapping[str, Pose] | None = None, *, rounds: int = 4, seed: int | None = None,
                     options: Mapping[str, object] | None = None, description: str | None = None,
                     mission: str | None = None, deployment: str | None = None,
                     side_missions: tuple[str, str] | None = None, ruleset: str = RULESET
                     ) -> dict[str, Any]:
    """The scenario mapping ``write_scenario`` would write at ``path`` (see there). Nothing is checked or written.

    Raises ``ValueError`` if a list's army file location is unknown, there are not exactly two lists or ``poses``
    names a unit that is not in the lists.
    """
    if len(lists) != 2:
        raise ValueError(f"a scenario needs two army lists (player 1, player 2), got {len(lists)}")
    width, depth = (table.width, table.depth) if isinstance(table, Table) else (float(table[0]), float(table[1]))
    folder = Path(path).resolve().parent
    ids = scenario_unit_ids(lists)
    poses = poses or {}
    unknown = sorted(set(poses) - set(ids.values()))
    if unknown:
        raise ValueError(f"poses given for units that are not in the lists: {', '.join(unknown)}")
    data: dict[str, Any] = {"format": SCENARIO_FORMAT, "name": name}
    if description:
        data["description"] = description
    data["ruleset"] = ruleset
    data["table"] = {"width": _num(width), "depth": _num(depth)}
    data["rounds"] = rounds
    if seed is not None:
        data["seed"] = seed
    if options:
        data["options"] = {k: options[k] for k in OPTION_DEFAULTS if k in options}
    if mission is not None and mission != "none":
        data["mission"] = mission
    if deployment is not None and deployment != "front_line":
        data["deployment"] = deployment
    if side_missions is not None:
        data["side_missions"] = {"playstyle": side_missions[0], "selection": side_missions[1]}
    data["terrain"] = [p.to_scenario() for p in terrain]
    armies = []
    for player, lst in enumerate(lists, start=1):
        if lst.army.source is None:
            raise ValueError(f"player {player}'s army file has no known location (army.source)")
        include = Path(os.path.relpath(Path(lst.army.source).resolve(), folder)).as_posix()
        army: dict[str, Any] = {"player": player, "name": lst.display_name}
        if lst.general is not None:
            army["general"] = ids.get((player, lst.general), lst.general)
        army["include"] = include
        units: list[dict[str, Any]] = []
        order = {u: i for i, u in enumerate(UPGRADE_ORDER)}
        for e in lst.entries:
            uid = ids[(player, e.id)]
            unit: dict[str, Any] = {"id": uid, "profile": e.profile, "models": lst.models(e)}
            if e.upgrades:
                unit["upgrades"] = sorted(e.upgrades, key=lambda u: order.get(u, len(order)))
            if e.hero is not None and e.hero_id is not None:
                unit["joined_by"] = ids[(player, e.hero_id)]
            if uid in poses:
                unit["pose"] = _pose(poses[uid])
            units.append(unit)
            if e.hero is not None and e.hero_id is not None:
                hid = ids[(player, e.hero_id)]
                hero: dict[str, Any] = {"id": hid, "profile": e.hero, "models": 1}
                if hid in poses:
                    hero["pose"] = _pose(poses[hid])
                units.append(hero)
        army["units"] = units
        armies.append(army)
    data["armies"] = armies
    return data


def write_scenario(path: str | Path, name: str, table: Table | tuple[float, float],
                   terrain: Sequence[TerrainPieceSpec], lists: Sequence[ArmyList],
                   poses: Mapping[str, Pose] | None = None, *, rounds: int = 4, seed: int | None = None,
                   options: Mapping[str, object] | None = None, description: str | None = None,
                   mission: str | None = None, deployment: str | None = None,
                   side_missions: tuple[str, str] | None = None, ruleset: str = RULESET,
                   force_org: bool = False) -> Scenario:
    """Write a scenario file at ``path`` and return it as loaded (``game.scenario.Scenario``).

    ``table``: a ``Table`` or (width, depth) in inches. ``terrain``: the pieces, in order. ``lists``: player 1's and
    player 2's army lists (their army files must have a known ``source``). ``poses``: unit id (as in
    ``scenario_unit_ids``) -> pose (centre in inches, facing in degrees) for units already placed; None or missing
    ids: deployed during the game. ``rounds``, ``seed``, ``options`` (keys of ``game.scenario.OPTION_DEFAULTS``),
    ``description``, ``mission`` (``game.engine.objectives.ALL_MISSIONS``; None or ``none``: no mission),
    ``deployment`` (``game.engine.deployment_styles.ALL_STYLES``; None or ``front_line``: the standard) and
    ``side_missions`` ((playstyle, selection) of ``game.engine.side_missions``; None: not played), ``ruleset``
    (a playable ruleset's id, ``game.engine.rulesets.RULESETS``): as in the scenario format. ``force_org``: writes
    ``force_org: true`` (the ruleset's own force organisation, checked by the loader: ``Ruleset.scenario_force_org``).

    The mapping is validated with the scenario loader first (against the army files, relative to ``path``): raises
    ``game.scenario.ScenarioError`` listing the problems (nothing is written), ``ValueError`` as
    ``scenario_mapping``, ``OSError`` if the file cannot be written (an old file is then untouched). Points limits
    and Force Organisation are not checked here: use ``game.setup.army_list.validate``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # relative include paths are checked through this folder
    data = scenario_mapping(path, name, table, terrain, lists, poses, rounds=rounds, seed=seed, options=options,
                            description=description, mission=mission, deployment=deployment,
                            side_missions=side_missions, ruleset=ruleset)
    if force_org:
        data["force_org"] = True
    scenario = load_scenario_mapping(data, path)
    header = (f"# {name}: written by the battle set-up (game/setup/scenario_writer.py); the format is described in\n"
              "# docs/formats.md \"Scenario file\". Units without a pose are deployed at the start of the game.\n")
    text = header + dump_yaml(data)
    atomic_write_text(path, text)
    return scenario


class _Flow(list):  # type: ignore[type-arg]
    """A list written on one line (polygons)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def dump_yaml(data: Mapping[str, Any]) -> str:
    """Scenario YAML text: keys in order, short lists and mappings on one line, each polygon on one line."""
    def flow_polygons(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: (_Flow(v) if k == "polygon" else flow_polygons(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [flow_polygons(v) for v in value]
        return value
    return yaml.dump(flow_polygons(dict(data)), Dumper=_Dumper, sort_keys=False, default_flow_style=None,
                     width=100000, allow_unicode=True)


def pieces_from_scenario(scenario: Scenario) -> list[TerrainPieceSpec]:
    """The terrain of a loaded scenario as ``TerrainPieceSpec`` (polygons), to reuse a table in a new set-up."""
    out = []
    for shape, kind in zip(scenario.terrain, scenario.terrain_kinds, strict=True):
        out.append(TerrainPieceSpec(shape.name, kind, shape.traits, polygon=tuple(shape.polygon),
                                    height=shape.height))
    return out


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else round(float(v), 4)


def _pose(p: Pose) -> dict[str, float]:
    return {"x": round(p.x, 4), "y": round(p.y, 4), "facing": round(p.facing, 4)}


__all__ = ["RULESET", "dump_yaml", "pieces_from_scenario", "scenario_mapping", "scenario_unit_ids", "write_scenario"]
