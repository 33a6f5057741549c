"""Loading scenario and army files: ``load_scenario``, ``load_scenario_mapping``, ``load_army``
(spec "Scenario file"; docs/formats.md "Scenario file", "Army file").

A bad file is refused with every problem found (``ScenarioError``), each ``FILE:LINE: PATH: message``: the file's
keys (``game.scenario.models``), its armies and units (``game.scenario.army_checks``), where units start
(``game.scenario.placement``, ``game.scenario.skirmish``), its mission (``game.scenario.missions``) and what its
ruleset plays (``game.scenario.refusals``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from game.engine.objectives import FIXED_MISSIONS
from game.engine.profiles import Profile
from game.engine.state import Phase, Table
from game.reader import YamlFile
from game.scenario.army_checks import _check_generals, _check_ids, _check_joins, _check_models, _check_transports
from game.scenario.fields import _hint
from game.scenario.missions import _check_mission, _side_missions
from game.scenario.models import ArmyTopModel, OptionsModel, ScenarioTopModel, StartModel, UnitModel
from game.scenario.placement import _check_poses, _check_start
from game.scenario.profiles import _read_profiles
from game.scenario.refusals import _check_ruleset_armies, _check_ruleset_game, _check_ruleset_rules
from game.scenario.session import _LoadedArmyFile, _Session, _UnitEntry
from game.scenario.skirmish import _check_loose
from game.scenario.specs import OPTION_DEFAULTS, ArmyFile, ArmySpec, Scenario, ScenarioError, UnitSpec
from game.scenario.spells import _read_spells
from game.scenario.terrain import _read_terrain
from game.scenario.validation import _field, _validate
from game.scenario.yaml_doc import Loc, _display, _Doc, _Problem, _read_yaml, _show
from geometry.pose import Pose


def _load_army(raw: Any, ai: int, doc: _Doc, source: Path, state: _Session, first_army_of: dict[int, int],
               entries: list[_UnitEntry], broken_ids: set[str]) -> ArmySpec | None:
    """Validate ``armies[ai]``: its player, its profiles (the included army file's, then its own over them), its
    spells and its units (added to ``entries``; the ids of units too broken to read to ``broken_ids``). Problems go
    to ``state``; the army if it names its player."""
    out = state.problems
    aloc: Loc = ("armies", ai)
    if not isinstance(raw, dict):
        out.append(doc.problem(aloc, f"an army must be a mapping of keys, got {_show(raw)}"))
        return None
    _validate(ArmyTopModel, raw, doc, aloc, out)
    player = _field(ArmyTopModel, raw, "player", None)
    if player is not None:
        if player in first_army_of:
            out.append(doc.problem(aloc + ("player",),
                                   f"player {player} already has an army (armies[{first_army_of[player]}])"))
        else:
            first_army_of[player] = ai
    include = _field(ArmyTopModel, raw, "include", None)
    included, profiles, broken = _army_profiles(raw, aloc, include, doc, source, state)
    spells = dict(included.spells) if included is not None else {}
    spells.update(_read_spells(_field(ArmyTopModel, raw, "spells", []), doc, aloc + ("spells",), out))
    name = _field(ArmyTopModel, raw, "name", None) or (included.name if included else None) \
        or f"Player {player or ai + 1}"
    units: list[UnitSpec] = []
    for ui, uraw in enumerate(_field(ArmyTopModel, raw, "units", [])):
        loaded = _load_unit(uraw, aloc + ("units", ui), doc, profiles, broken, out)
        if loaded is None:
            if isinstance(uraw, dict) and isinstance(uraw.get("id"), str):
                broken_ids.add(uraw["id"])
            continue
        spec, profile = loaded
        units.append(spec)
        entries.append(_UnitEntry(ai, player or 0, ui, spec, profile))
    general = _field(ArmyTopModel, raw, "general", None)
    if player is None:
        return None
    return ArmySpec(player, name, general, profiles, tuple(units), include, spells)


def _army_profiles(raw: dict[str, Any], aloc: Loc, include: str | None, doc: _Doc, source: Path, state: _Session
                   ) -> tuple[_LoadedArmyFile | None, dict[str, Profile], set[str]]:
    """An army's profiles: the included army file's, then its own over them; returns the included file (None if
    none or unreadable), the profiles by name and the names of broken ones (``*``: any unknown name may be one)."""
    out = state.problems
    included: _LoadedArmyFile | None = None
    profiles: dict[str, Profile] = {}
    broken: set[str] = set()
    if include is not None:
        inc_path = Path(include)
        if not inc_path.is_absolute():
            inc_path = source.parent / inc_path
        if not inc_path.is_file():
            out.append(doc.problem(aloc + ("include",), f"no army file {_display(inc_path)}"))
            broken.add("*")  # every unknown profile may come from the missing file: don't report them
        else:
            included = state.army_file(inc_path)
            if included is None:
                broken.add("*")
            else:
                profiles.update(included.profiles)
                broken |= included.broken
    own, own_broken = _read_profiles(_field(ArmyTopModel, raw, "profiles", {}), doc, aloc + ("profiles",), out)
    profiles.update(own)
    broken |= own_broken
    return included, profiles, broken


def _load_unit(uraw: Any, uloc: Loc, doc: _Doc, profiles: dict[str, Profile], broken: set[str], out: list[_Problem]
               ) -> tuple[UnitSpec, Profile | None] | None:
    """Validate one ``armies[].units[]`` entry against the army's profiles; None if it cannot be read at all."""
    um = _validate(UnitModel, uraw, doc, uloc, out)
    if um is None:
        return None
    spec = UnitSpec(
        id=um.id,
        profile=um.profile,
        models=um.models,
        per_row=um.per_row,
        upgrades=frozenset(um.upgrades),
        joined_by=um.joined_by,
        embarked_in=um.embarked_in,
        pose=Pose(float(um.pose.x), float(um.pose.y), float(um.pose.facing)) if um.pose else None,
        positions=tuple((float(p.x), float(p.y)) for p in um.positions or ()),
        command_picks=tuple(um.command_picks),
    )
    profile = profiles.get(um.profile)
    if profile is None:
        if um.profile not in broken and "*" not in broken:
            known = ", ".join(sorted(profiles)) or "none"
            out.append(doc.problem(uloc + ("profile",),
                                   f"unknown profile {um.profile!r}{_hint(um.profile, profiles)} "
                                   f"(profiles: {known})"))
    else:
        _check_models(doc, uloc, um, profile, out)
    for i, up in enumerate(um.upgrades):
        if up in um.upgrades[:i]:
            out.append(doc.problem(uloc + ("upgrades", i),
                                   f"{up} listed twice (rulebook Command Groups: one of each per unit)"))
    return spec, profile


def _load(data: Any, doc: _Doc, source: Path, state: _Session) -> Scenario | None:
    """Validate a scenario mapping; problems go to ``state``; the Scenario if there were none."""
    out = state.problems
    if not isinstance(data, dict):
        out.append(doc.problem((), "a scenario file must be a mapping of keys (format, name, ruleset, armies, ...)"))
        return None
    _validate(ScenarioTopModel, data, doc, (), out)
    table_m = _field(ScenarioTopModel, data, "table", None)
    table = Table(float(table_m.width), float(table_m.depth)) if table_m is not None else None
    rounds = _field(ScenarioTopModel, data, "rounds", None)
    start_m: StartModel | None = _field(ScenarioTopModel, data, "start", None)

    terrain, kinds = _read_terrain(_field(ScenarioTopModel, data, "terrain", []), doc, table, out)

    armies_raw = _field(ScenarioTopModel, data, "armies", [])
    armies: list[tuple[int, ArmySpec]] = []  # (index in file, army)
    entries: list[_UnitEntry] = []
    broken_ids: set[str] = set()
    first_army_of: dict[int, int] = {}
    for ai, raw in enumerate(armies_raw):
        army = _load_army(raw, ai, doc, source, state, first_army_of, entries, broken_ids)
        if army is not None:
            armies.append((ai, army))

    _check_ids(doc, entries, out)
    _check_generals(doc, armies, entries, broken_ids, out)
    _check_joins(doc, entries, broken_ids, out)
    _check_transports(doc, entries, broken_ids, out)
    if table is not None:
        _check_poses(doc, entries, table, terrain, out)
    start = _check_start(doc, start_m, rounds, entries, out)
    mission, markers = _check_mission(doc, data, table, terrain, out)
    _check_ruleset_rules(doc, _field(ScenarioTopModel, data, "ruleset", ""), entries, terrain, start_m, out)
    if table is not None:
        _check_loose(doc, _field(ScenarioTopModel, data, "ruleset", ""), entries, table, terrain, out)
    _check_ruleset_game(doc, data, mission, out)
    _check_ruleset_armies(doc, data, armies, entries, out)

    if out:
        return None
    assert table is not None and rounds is not None
    options = dict(OPTION_DEFAULTS)
    options.update(_field(ScenarioTopModel, data, "options", OptionsModel()).model_dump_options())
    by_player = {army.player: army for _, army in armies}
    scenario = Scenario(
        name=_field(ScenarioTopModel, data, "name", ""),
        ruleset=_field(ScenarioTopModel, data, "ruleset", ""),
        table=table,
        rounds=rounds,
        seed=_field(ScenarioTopModel, data, "seed", None),
        options=options,
        terrain=tuple(terrain),
        terrain_kinds=tuple(kinds),
        armies=by_player,
        start=start,
        source=source,
        description=_field(ScenarioTopModel, data, "description", None),
        mission=mission,
        objectives=markers,
        deployment=_field(ScenarioTopModel, data, "deployment", None),
        side_missions=_side_missions(data),
    )
    return scenario if _check_before_deployment(doc, data, scenario, out) else None


def _check_before_deployment(doc: _Doc, data: Mapping[str, Any], scenario: Scenario, out: list[_Problem]) -> bool:
    """What the players choose before deployment (objective markers they place, a deployment style, side-missions;
    AoF:R 2.16 "Mission Objectives", "Deployment Styles", "Side-Missions") needs a game that starts by deploying:
    False, with a problem in ``out``, when ``scenario`` starts with every unit placed."""
    mission, markers = scenario.mission, scenario.objectives
    starts_deploying = scenario.start.phase is Phase.DEPLOYMENT if scenario.start is not None \
        else scenario.needs_deployment()
    if mission is not None and not markers and mission not in FIXED_MISSIONS and not starts_deploying:
        out.append(doc.problem(("mission",), "the players place the objective markers before deployment, but this "
                                             "scenario starts with every unit placed: give the markers with "
                                             "objectives: [{x, y}, ...]"))
        return False
    for key, what in (("deployment", "a deployment style is chosen"), ("side_missions", "side-missions are "
                                                                                         "selected")):
        if data.get(key) is not None and not starts_deploying:
            out.append(doc.problem((key,), f"{what} before deployment, but this scenario starts with every unit "
                                           "placed: leave it out or let the players deploy"))
            return False
    return True


def _finish(state: _Session, main_file: str) -> list[str]:
    """Problems sorted by file (the scenario first) and line, without repeats."""
    seen: set[_Problem] = set()
    unique = [p for p in state.problems if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
    unique.sort(key=lambda p: (p.file != main_file, p.file, p.line))
    return [str(p) for p in unique]


def load_scenario(path: str | Path, read: YamlFile | None = None) -> Scenario:
    """Read and validate a scenario file (spec "Scenario file"; docs/formats.md).

    ``include:`` paths are relative to the scenario file. ``read``: the file already read with
    ``game.reader.read_yaml``. Raises ``ScenarioError`` listing every problem found, each
    ``FILE:LINE: PATH: message``; problems in an included army file name that file and its lines.
    """
    path = Path(path)
    state = _Session()
    loaded = _read_yaml(path, state.problems, read)
    scenario = None
    if loaded is not None:
        doc, data = loaded
        scenario = _load(data, doc, path, state)
    if state.problems or scenario is None:
        raise ScenarioError(_finish(state, _display(path)))
    return scenario


def load_scenario_mapping(data: Any, path: str | Path, node: yaml.Node | None = None) -> Scenario:
    """Validate a scenario given as an already-parsed mapping (e.g. inline in a game record).

    ``path`` names it in problems and anchors relative ``include:`` paths (its folder). ``node`` is the
    mapping's YAML node, if known, for line numbers; without it every problem is reported at line 1.
    Raises ``ScenarioError`` like ``load_scenario``.
    """
    path = Path(path)
    state = _Session()
    doc = _Doc(_display(path), node)
    scenario = _load(data, doc, path, state)
    if state.problems or scenario is None:
        raise ScenarioError(_finish(state, doc.file))
    return scenario


def load_army(path: str | Path, read: YamlFile | None = None) -> ArmyFile:
    """Read and validate an army file (``format: regiments-army/1``; docs/formats.md "Army file").

    ``read``: the file already read with ``game.reader.read_yaml``. Raises ``ScenarioError`` listing every
    problem, each ``FILE:LINE: PATH: message``.
    """
    path = Path(path)
    state = _Session()
    loaded = state.army_file(path, read)
    if state.problems or loaded is None:
        raise ScenarioError(_finish(state, _display(path)))
    return ArmyFile(loaded.name or path.stem, loaded.profiles, path, loaded.description,
                    dict(loaded.upgrade_costs), dict(loaded.spells))
