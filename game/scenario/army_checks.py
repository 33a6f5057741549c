"""The rulebook's checks of the units an army lists (AoWFBR 1.4): "Combined Units" (models = size x copies, up to
four copies and 20 models, two copies with Tough), unique unit ids, "Victory Conditions" (the General is one of the
army's heroes), "Hero" (heroes with up to Tough(6) join one multi-model unit) and "Transport(X)" (units starting
inside a Transport). Each check adds problems ``FILE:LINE: PATH: message`` to ``out``."""

from __future__ import annotations

from game.engine.profiles import Profile
from game.engine.transport import model_spaces
from game.scenario.models import UnitModel
from game.scenario.session import _UnitEntry
from game.scenario.specs import ArmySpec
from game.scenario.yaml_doc import Loc, _Doc, _Problem

MAX_COPIES = 4
"""Rulebook "Combined Units": up to four copies of the same multi-model unit."""
MAX_COMBINED_MODELS = 20
"""Rulebook "Combined Units": the maximum unit size is 20 models."""
MAX_TOUGH_COPIES = 2
"""Rulebook "Combined Units": units with Tough(X) may only combine two unit copies."""
MAX_JOINING_TOUGH = 6
"""Rulebook "Hero": heroes with up to Tough(6) may deploy as part of one multi-model unit."""


def _check_models(doc: _Doc, uloc: Loc, um: UnitModel, profile: Profile, out: list[_Problem]) -> None:
    """Rulebook "Combined Units": models = size x copies, up to 4 copies and 20 models, 2 copies with Tough."""
    where = uloc + ("models",)
    size = profile.size
    if um.models % size:
        out.append(doc.problem(where, f"must be a multiple of profile {profile.name!r}'s size {size} "
                                      f"(one copy or a combined unit of 2 to {MAX_COPIES}), got {um.models}"))
    else:
        copies = um.models // size
        if copies > 1:
            if size == 1:
                out.append(doc.problem(where, f"must be 1: only multi-model units may be combined "
                                              f"(rulebook Combined Units), got {um.models}"))
            elif copies > MAX_COPIES:
                out.append(doc.problem(where, f"combines {copies} copies of {profile.name!r}; at most {MAX_COPIES} "
                                              f"(rulebook Combined Units)"))
            elif um.models > MAX_COMBINED_MODELS:
                out.append(doc.problem(where, f"a combined unit has at most {MAX_COMBINED_MODELS} models "
                                              f"(rulebook Combined Units), got {um.models}"))
            elif profile.tough > 1 and copies > MAX_TOUGH_COPIES:
                out.append(doc.problem(where, f"combines {copies} copies; units with Tough may combine only "
                                              f"{MAX_TOUGH_COPIES} (rulebook Combined Units)"))
    if um.per_row is not None and um.per_row > um.models:
        out.append(doc.problem(uloc + ("per_row",), f"must be at most the unit's models ({um.models}), "
                                                    f"got {um.per_row}"))


def _check_ids(doc: _Doc, entries: list[_UnitEntry], out: list[_Problem]) -> None:
    first: dict[str, _UnitEntry] = {}
    for e in entries:
        if e.spec.id in first:
            f = first[e.spec.id]
            line = doc.line(("armies", f.army, "units", f.index, "id"))
            out.append(doc.problem(("armies", e.army, "units", e.index, "id"),
                                   f"duplicate unit id {e.spec.id!r} (first at line {line})"))
        else:
            first[e.spec.id] = e


def _check_generals(doc: _Doc, armies: list[tuple[int, ArmySpec]], entries: list[_UnitEntry],
                    broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Victory Conditions": the General is one of the army's heroes."""
    for ai, army in armies:
        if army.general is None or army.general in broken_ids:
            continue
        mine = [e for e in entries if e.army == ai and e.spec.id == army.general]
        if not mine:
            out.append(doc.problem(("armies", ai, "general"), f"{army.general!r} is not a unit of this army"))
        elif mine[0].profile is not None and not mine[0].profile.is_hero:
            out.append(doc.problem(("armies", ai, "general"),
                                   f"{army.general!r} is not a Hero (profile {mine[0].profile.name!r} has no Hero "
                                   f"rule); the General must be one of the army's heroes"))


def _army_unit(entries: list[_UnitEntry], army: int, unit_id: str) -> _UnitEntry | None:
    """The unit ``unit_id`` of army ``army`` (its index in ``armies``) among ``entries``, or None."""
    return next((u for u in entries if u.army == army and u.spec.id == unit_id), None)


def _check_joins(doc: _Doc, entries: list[_UnitEntry], broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Hero": heroes with up to Tough(6) may deploy as part of one multi-model unit without a hero."""
    joined: dict[str, str] = {}
    for e in entries:
        hero_id = e.spec.joined_by
        if hero_id is None or hero_id in broken_ids:
            continue
        where = ("armies", e.army, "units", e.index, "joined_by")
        hero = _army_unit(entries, e.army, hero_id)
        if hero_id == e.spec.id:
            out.append(doc.problem(where, "a unit cannot join itself"))
        elif hero is None:
            out.append(doc.problem(where, f"{hero_id!r} is not a unit of this army"))
        elif hero.profile is None or e.profile is None:
            continue
        elif not hero.profile.is_hero:
            out.append(doc.problem(where, f"{hero_id!r} is not a Hero; only heroes may join a unit"))
        elif hero.profile.tough > MAX_JOINING_TOUGH:
            out.append(doc.problem(where, f"{hero_id!r} has Tough({hero.profile.tough}); only heroes with up to "
                                          f"Tough({MAX_JOINING_TOUGH}) may join a unit"))
        elif e.profile.is_hero or e.spec.models < 2:
            out.append(doc.problem(where, "only a multi-model unit without a hero may be joined by a hero"))
        elif hero_id in joined:
            out.append(doc.problem(where, f"{hero_id!r} already joins unit {joined[hero_id]!r}"))
        elif hero.spec.joined_by is not None:
            out.append(doc.problem(where, f"{hero_id!r} is joined by another unit itself"))
        else:
            joined[hero_id] = e.spec.id


def _check_transports(doc: _Doc, entries: list[_UnitEntry], broken_ids: set[str], out: list[_Problem]) -> None:
    """Rulebook "Transport(X)": transports may deploy with units inside. A unit starting inside names a Transport of
    its army that the scenario places (it has a pose), has no pose itself, and they fit (``transport_spaces``)."""
    used: dict[str, int] = {}
    joined = {e.spec.joined_by: e for e in entries if e.spec.joined_by is not None}
    for e in entries:
        tid = e.spec.embarked_in
        if tid is None or tid in broken_ids:
            continue
        where = ("armies", e.army, "units", e.index, "embarked_in")
        t = _army_unit(entries, e.army, tid)
        if t is None:
            out.append(doc.problem(where, f"{tid!r} is not a unit of this army"))
            continue
        if t.profile is None or e.profile is None:
            continue
        capacity = t.profile.value("Transport")
        if not capacity:
            out.append(doc.problem(where, f"{tid!r} has no Transport rule"))
        elif e.spec.id in joined:
            out.append(doc.problem(where, "a hero joined to a unit goes where its unit goes; put the unit inside"))
        elif t.spec.pose is None:
            out.append(doc.problem(where, f"Transport {tid!r} has no pose: units can start inside a Transport only "
                                          f"when the scenario places it"))
        elif e.spec.pose is not None:
            out.append(doc.problem(("armies", e.army, "units", e.index, "pose"),
                                   "a unit inside a Transport has no pose"))
        else:
            per = model_spaces(e.profile)
            hero_entry = _army_unit(entries, e.army, e.spec.joined_by) if e.spec.joined_by is not None else None
            hero_spaces = model_spaces(hero_entry.profile) if hero_entry and hero_entry.profile else 0
            if per is None or hero_spaces is None or e.profile.has("Transport"):
                out.append(doc.problem(where, f"{e.spec.id!r} cannot be transported (too tough, or a Transport)"))
                continue
            need = per * e.spec.models + (hero_spaces or 0)
            used[tid] = used.get(tid, 0) + need
            if used[tid] > capacity:
                out.append(doc.problem(where, f"Transport({capacity}) {tid!r} has no room for {e.spec.id!r} "
                                              f"({need} spaces; {used[tid]} asked in all)"))
