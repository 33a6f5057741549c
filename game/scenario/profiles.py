"""Reading a ``profiles`` mapping of a scenario or army file (rulebook "Unit Stats"; docs/formats.md "Profiles")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.engine.artillery_scatter import is_artillery_profile
from game.engine.profiles import Profile, Weapon
from game.scenario.models import ProfileModel
from game.scenario.validation import _validate
from game.scenario.yaml_doc import Loc, _Doc, _Problem


def _read_profiles(raw: Mapping[Any, Any], doc: _Doc, prefix: Loc, out: list[_Problem]
                   ) -> tuple[dict[str, Profile], set[str]]:
    """Validate a ``profiles`` mapping (at ``prefix``): the good profiles by name and the names of bad ones.
    Problems go to ``out``."""
    good: dict[str, Profile] = {}
    broken: set[str] = set()
    for key, value in raw.items():
        name = str(key)
        loc = prefix + (name,)
        pm = _validate(ProfileModel, value, doc, loc, out)
        if pm is None:
            broken.add(name)
            continue
        _check_weapon_names(pm, doc, loc, out)
        good[name] = _profile(name, pm)
        if pm.artillery_type is not None and not is_artillery_profile(good[name]):
            out.append(doc.problem(loc + ("artillery_type",), "only artillery has an artillery type (Random "
                                   "Scatter for Artillery): a profile with Immobile and a ranged weapon"))
            del good[name]
            broken.add(name)
    return good, broken


def _check_weapon_names(pm: ProfileModel, doc: _Doc, loc: Loc, out: list[_Problem]) -> None:
    """Each weapon of a profile has a name of its own."""
    seen: dict[str, int] = {}
    for i, w in enumerate(pm.weapons):
        if w.name in seen:
            out.append(doc.problem(loc + ("weapons", i, "name"),
                                   f"duplicate weapon name {w.name!r} (also weapons[{seen[w.name]}])"))
        seen.setdefault(w.name, i)


def _profile(name: str, pm: ProfileModel) -> Profile:
    """The engine's ``Profile`` of a validated profile (base sizes in mm, ranges in inches)."""
    return Profile(
        name=name,
        quality=pm.quality,
        defense=pm.defense,
        base_width_mm=float(pm.base[0]),
        base_depth_mm=float(pm.base[1]),
        size=pm.size,
        cost=pm.cost,
        weapons=tuple(Weapon(w.name, w.attacks, None if w.range is None else float(w.range), tuple(w.rules))
                      for w in pm.weapons),
        rules=tuple(pm.rules),
        artillery_type=pm.artillery_type,
    )
