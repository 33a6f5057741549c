"""The state of one load (``_Session``: the problems found, the army files read) and its readers of a file's
profiles (rulebook "Unit Stats"), spells (rulebook "Caster(X)"), army files (``include``) and terrain pieces
(rulebook "Terrain Setup Guidelines"); ``_UnitEntry`` is a unit as read, with where it stands in the file."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shapely import Polygon, box
from shapely.validation import explain_validity

from game.engine.artillery_scatter import is_artillery_profile
from game.engine.magic import Spell, SpellArea, SpellHits, SpellModifier
from game.engine.profiles import Profile, Weapon
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets import unplayable
from game.engine.state import Table
from game.reader import YamlFile
from game.scenario.models import ArmyFileModel, ProfileModel, SpellModel, TerrainModel
from game.scenario.specs import UnitSpec
from game.scenario.validation import _field, _validate
from game.scenario.yaml_doc import Loc, _Doc, _path, _Problem, _read_yaml
from game.terrain_kinds import KIND_HEIGHT, KIND_TRAITS
from geometry.terrain import TerrainShape, rect_to_polygon


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

    def add(self, p: _Problem) -> None:
        self.problems.append(p)

    # --- profiles -------------------------------------------------------------------------------------------
    def profiles(self, raw: Mapping[Any, Any], doc: _Doc, prefix: Loc
                 ) -> tuple[dict[str, Profile], set[str]]:
        """Validate a ``profiles`` mapping: the good profiles by name and the names of bad ones."""
        good: dict[str, Profile] = {}
        broken: set[str] = set()
        for key, value in raw.items():
            name = str(key)
            loc = prefix + (name,)
            pm = _validate(ProfileModel, value, doc, loc, self.problems)
            if pm is None:
                broken.add(name)
                continue
            seen: dict[str, int] = {}
            for i, w in enumerate(pm.weapons):
                if w.name in seen:
                    self.add(doc.problem(loc + ("weapons", i, "name"),
                                         f"duplicate weapon name {w.name!r} (also weapons[{seen[w.name]}])"))
                seen.setdefault(w.name, i)
            good[name] = Profile(
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
            if pm.artillery_type is not None and not is_artillery_profile(good[name]):
                self.add(doc.problem(loc + ("artillery_type",), "only artillery has an artillery type (Random "
                                     "Scatter for Artillery): a profile with Immobile and a ranged weapon"))
                del good[name]
                broken.add(name)
        return good, broken

    def spells(self, raw: list[Any], doc: _Doc, prefix: Loc) -> dict[str, Spell]:
        """Validate a ``spells`` list (docs/formats.md "Spells"): the good spells by name."""
        good: dict[str, Spell] = {}
        first: dict[str, int] = {}
        for i, item in enumerate(raw):
            loc = prefix + (i,)
            sm = _validate(SpellModel, item, doc, loc, self.problems)
            if sm is None:
                continue
            bad = False
            if sm.name in first:
                self.add(doc.problem(loc + ("name",), f"duplicate spell name {sm.name!r} "
                                                      f"(also {_path(prefix + (first[sm.name],))})"))
                bad = True
            first.setdefault(sm.name, i)
            if sm.hits is None and sm.modifier is None and sm.heal is None and not sm.rally:
                self.add(doc.problem(loc, "a spell needs at least one effect: hits, modifier, heal or rally"))
                bad = True
            if sm.target != "self" and sm.range is None:
                what = "a point" if sm.target == "point" else f"a unit ({sm.target})"
                self.add(doc.problem(loc, f"missing range: a spell that targets {what} needs a range in inches"))
                bad = True
            if sm.target == "point" and sm.area is None:
                self.add(doc.problem(loc, "missing area: a spell that targets a point needs area: {radius, affects}"))
                bad = True
            if sm.target != "point" and sm.area is not None:
                self.add(doc.problem(loc + ("area",), "an area needs target point"))
                bad = True
            affects = sm.area.affects if sm.area is not None and sm.target == "point" else None
            if sm.target == "self" and sm.range is not None:
                self.add(doc.problem(loc + ("range",), "a spell with target self has no range"))
                bad = True
            unknown = sm.target == "point" and affects is None    # reported as a missing area above
            if sm.hits is not None and sm.target != "enemy" and affects not in ("enemy", "all") and not unknown:
                self.add(doc.problem(loc + ("hits",), "hits need target enemy, or target point with area.affects "
                                                      "enemy or all"))
                bad = True
            for key, present in (("heal", sm.heal is not None), ("rally", sm.rally)):
                if present and (sm.target == "enemy" or (sm.target == "point" and affects != "friend" and not unknown)):
                    self.add(doc.problem(loc + (key,), f"{key} needs target friend or self, or target point with "
                                                       "area.affects friend"))
                    bad = True
            for rid, v in sm.values.items():
                if rid not in ENGINE_RULESETS:
                    self.add(doc.problem(loc + ("values", rid), f"a spell's value is given for a ruleset: "
                                                                f"{unplayable(rid)}"))
                    bad = True
                    continue
                lo, hi = getattr(ENGINE_RULESETS[rid], "spell_values", (1, 6))
                if not lo <= v <= hi:
                    self.add(doc.problem(loc + ("values", rid), f"a spell's value under {rid} must be {lo} to {hi}, "
                                                                f"got {v}"))
                    bad = True
            if bad:
                continue
            good[sm.name] = Spell(
                name=sm.name, value=sm.value, target=sm.target,
                range=None if sm.range is None else float(sm.range),
                hits=None if sm.hits is None else SpellHits(sm.hits.count, sm.hits.ap, sm.hits.cover),
                modifier=None if sm.modifier is None else SpellModifier(sm.modifier.stat, sm.modifier.value,
                                                                        sm.modifier.duration),
                heal=0 if sm.heal is None else sm.heal.wounds, rally=sm.rally, description=sm.description,
                area=None if sm.area is None else SpellArea(float(sm.area.radius), sm.area.affects),
                values=tuple(sorted(sm.values.items())))
        return good

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
                self.add(doc.problem((), "an army file must be a mapping of keys (format, name, profiles)"))
            else:
                _validate(ArmyFileModel, data, doc, (), self.problems)
                raw = _field(ArmyFileModel, data, "profiles", {})
                profiles, broken = self.profiles(raw, doc, ("profiles",))
                result = _LoadedArmyFile(_field(ArmyFileModel, data, "name", None),
                                         _field(ArmyFileModel, data, "description", None), profiles, broken,
                                         dict(_field(ArmyFileModel, data, "upgrade_costs", {})),
                                         self.spells(_field(ArmyFileModel, data, "spells", []), doc, ("spells",)))
        self.army_files[key] = result
        return result

    # --- terrain --------------------------------------------------------------------------------------------
    def terrain(self, raw: list[Any], doc: _Doc, table: Table | None) -> tuple[list[TerrainShape], list[str]]:
        shapes: list[TerrainShape] = []
        kinds: list[str] = []
        for i, item in enumerate(raw):
            loc: Loc = ("terrain", i)
            tm = _validate(TerrainModel, item, doc, loc, self.problems)
            if tm is None:
                continue
            if tm.polygon is None and tm.rect is None:
                self.add(doc.problem(loc, "needs a polygon or a rect"))
                continue
            if tm.polygon is not None and tm.rect is not None:
                self.add(doc.problem(loc + ("rect",), "give either polygon or rect, not both"))
                continue
            if tm.rect is not None:
                r = tm.rect
                points = rect_to_polygon(r.x, r.y, r.width, r.depth, r.angle)
                where: Loc = loc + ("rect",)
            else:
                assert tm.polygon is not None
                points = tuple((float(p[0]), float(p[1])) for p in tm.polygon)
                where = loc + ("polygon",)
                if len(points) < 3:
                    self.add(doc.problem(where, f"needs at least 3 points, got {len(points)}"))
                    continue
                poly = Polygon(points)
                if poly.convex_hull.area <= 0:
                    self.add(doc.problem(where, "outline has no area: its points lie on one line"))
                    continue
                if not poly.is_valid:
                    reason = explain_validity(poly)
                    m = re.search(r"\[([-\d.e+]+) ([-\d.e+]+)\]", reason)
                    near = f" near ({float(m.group(1)):g}, {float(m.group(2)):g})" if m else ""
                    self.add(doc.problem(where, f"outline crosses itself{near}: list the points in order "
                                                "around the piece"))
                    continue
            if table is not None and not Polygon(points).intersects(box(0, 0, table.width, table.depth)):
                self.add(doc.problem(where, "lies entirely off the table"))
                continue
            name = tm.name or f"{tm.kind.capitalize()} {i + 1}"
            traits = frozenset(tm.traits) if tm.traits is not None else KIND_TRAITS[tm.kind]
            height = float(tm.height) if tm.height is not None else KIND_HEIGHT[tm.kind]
            try:
                shapes.append(TerrainShape(len(shapes), name, points, traits, height))
            except ValueError as e:  # pragma: no cover - the checks above catch what TerrainShape refuses
                self.add(doc.problem(where, str(e)))
                continue
            kinds.append(tm.kind)
        return shapes, kinds


@dataclass
class _UnitEntry:
    army: int  # index in armies
    player: int
    index: int  # index in the army's units
    spec: UnitSpec
    profile: Profile | None
