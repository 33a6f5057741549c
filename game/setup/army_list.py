"""Army lists: units chosen from one army file up to a points limit (rulebook "Preparing Your Army").

An ``ArmyList`` is built from one army file (``scenarios/armies/*.yaml``, read with ``game.scenario.load_army``) and a
points limit (the rulebook recommends 750 to start and 1500 for full matches; any positive whole number is
accepted). Each ``ListEntry`` is one unit of the list:

- ``profile``: a profile name of the army file;
- ``copies``: how many copies of the profile it combines (rulebook "Combined Units": up to four copies of a
  multi-model unit, at most 20 models, Tough(X) profiles only two copies);
- ``upgrades``: command group, any of ``sergeant``, ``musician``, ``banner``, one of each (rulebook "Command
  Groups"); each costs what the army file's optional ``upgrade_costs`` says, else nothing;
- ``hero``: the profile name of a Hero with up to Tough(6) deployed as part of this multi-model unit (rulebook
  "Hero"), with its own unit id ``hero_id``.

``ArmyList.general`` is the unit id of the hero that is the army's General (rulebook "Victory Conditions"): a hero
entry's ``id`` or a joined hero's ``hero_id``.

Points used = the sum over entries of copies x profile cost + upgrade costs + the joined hero's cost.
``validate(army_list, force_org)`` lists every problem in words (an empty list: the list may be played).

Lists are saved as YAML (``format: regiments-list/1``, docs/formats.md "Army list file") with ``save_list`` and
read back with ``load_list``.

Example::

    army = load_army("scenarios/armies/free_cantons_of_aldmark.yaml")
    lst = ArmyList(army, points=750)
    pikes = lst.add("Canton Pikemen", copies=2, upgrades=["banner"])
    lst.join_hero(pikes.id, "Landvogt")          # the Landvogt deploys as part of the pikemen
    lst.general = pikes.hero_id
    assert validate(lst, force_org=True) == []
    save_list("my_cantons.yaml", lst)
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.engine.actions import field_path, show_value
from game.engine.profiles import UPGRADES, Profile
from game.files import FileProblems, atomic_write_text
from game.limits import MAX_UNITS_PER_ARMY
from game.reader import FileRefused, display_name, mapping_nodes, node_line, read_yaml
from game.scenario import (
    MAX_COMBINED_MODELS,
    MAX_COPIES,
    MAX_JOINING_TOUGH,
    MAX_TOUGH_COPIES,
    ArmyFile,
    ScenarioError,
    load_army,
)

LIST_FORMAT = "regiments-list/1"
"""The ``format`` value of an army list file."""
STANDARD_POINTS: tuple[int, ...] = (750, 1500)
"""Game sizes the rulebook recommends (rulebook "Preparing Your Army"); any positive whole number is accepted."""
UPGRADE_ORDER: tuple[str, ...] = ("sergeant", "musician", "banner")
"""Command group upgrades in the order they are shown and saved (rulebook "Command Groups")."""
POINTS_PER_HERO = 375
"""Force Organisation: only 1 hero per 375 pts."""
POINTS_PER_EXTRA_COPY = 750
"""Force Organisation: only 1+X copies of the same unit, X = 1 per 750 pts."""
MAX_UNIT_SHARE_PERCENT = 35
"""Force Organisation: no single unit worth over 35% of the total points."""
POINTS_PER_UNIT = 150
"""Force Organisation: only 1 unit per 150 pts."""


class ArmyListError(FileProblems):
    """An army list file that cannot be read; ``problems`` lists each as ``FILE:LINE: PATH: message``."""


@dataclass
class ListEntry:
    """One unit of an army list (becomes one scenario unit, plus one for a joined hero)."""

    id: str
    """Unit id, unique within the list (and, once written, within the scenario); no spaces."""
    profile: str
    """Profile name in the army file."""
    copies: int = 1
    """Copies of the profile combined into this unit (rulebook "Combined Units"); models = copies x size."""
    upgrades: list[str] = field(default_factory=list)
    """Command group upgrades: sergeant, musician, banner (rulebook "Command Groups")."""
    hero: str | None = None
    """Profile name of a Hero deployed as part of this unit (rulebook "Hero"), or None."""
    hero_id: str | None = None
    """Unit id of the joined hero (set when ``hero`` is); None without a hero."""


@dataclass
class ArmyList:
    """An army list: an army file, a points limit, the units chosen and the General.

    Mutate it freely (entries are plain dataclasses) or through the helpers; ``validate`` says what is wrong.
    """

    army: ArmyFile
    """The army file the profiles come from (``army.source`` is where it was read; needed to save the list)."""
    points: int
    """The agreed game size in points (rulebook "Preparing Your Army": 750 or 1500 recommended)."""
    entries: list[ListEntry] = field(default_factory=list)
    """The units, in the order they were added."""
    general: str | None = None
    """Unit id of the General: a hero entry's ``id`` or a joined hero's ``hero_id`` (rulebook "Victory
    Conditions"); None when not chosen yet."""
    name: str | None = None
    """Name of the list; None to use the army's name (``display_name``)."""

    # --- queries ---------------------------------------------------------------------------------------------
    @property
    def display_name(self) -> str:
        """``name``, or the army file's name."""
        return self.name or self.army.name

    def profile(self, name: str) -> Profile:
        """The army file's profile called ``name``; raises ``KeyError``."""
        return self.army.profiles[name]

    def entry(self, entry_id: str) -> ListEntry:
        """The entry with this id; raises ``KeyError``."""
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise KeyError(entry_id)

    def upgrade_cost(self, upgrade: str) -> int:
        """Points for one command group upgrade (the army file's ``upgrade_costs``, else 0)."""
        return int(self.army.upgrade_costs.get(upgrade, 0))

    def unit_cost(self, entry: ListEntry) -> int:
        """Points of the unit itself: copies x profile cost + its upgrades (the joined hero not included).
        Unknown profiles cost 0 (``validate`` reports them)."""
        prof = self.army.profiles.get(entry.profile)
        base = prof.cost * entry.copies if prof is not None else 0
        return base + sum(self.upgrade_cost(u) for u in entry.upgrades)

    def hero_cost(self, entry: ListEntry) -> int:
        """Points of the hero joined to ``entry`` (0 without one or for an unknown profile)."""
        if entry.hero is None:
            return 0
        prof = self.army.profiles.get(entry.hero)
        return prof.cost if prof is not None else 0

    def entry_cost(self, entry: ListEntry) -> int:
        """Points of the entry: copies x cost + upgrade costs + joined hero cost."""
        return self.unit_cost(entry) + self.hero_cost(entry)

    @property
    def points_used(self) -> int:
        """Sum of ``entry_cost`` over all entries."""
        return sum(self.entry_cost(e) for e in self.entries)

    @property
    def points_left(self) -> int:
        """``points - points_used`` (negative when over the limit)."""
        return self.points - self.points_used

    def models(self, entry: ListEntry) -> int:
        """Models in the unit: copies x the profile's size (the joined hero not included); 0 if unknown."""
        prof = self.army.profiles.get(entry.profile)
        return prof.size * entry.copies if prof is not None else 0

    def heroes(self) -> list[tuple[str, str]]:
        """Every hero of the list as (unit id, profile name): hero entries and joined heroes, list order."""
        out: list[tuple[str, str]] = []
        for e in self.entries:
            prof = self.army.profiles.get(e.profile)
            if prof is not None and prof.is_hero:
                out.append((e.id, e.profile))
            if e.hero is not None and e.hero_id is not None:
                out.append((e.hero_id, e.hero))
        return out

    def unit_ids(self) -> list[str]:
        """Every unit id the list will have in a scenario: entries and joined heroes, list order."""
        out: list[str] = []
        for e in self.entries:
            out.append(e.id)
            if e.hero is not None and e.hero_id is not None:
                out.append(e.hero_id)
        return out

    def units(self) -> Iterator[tuple[str, str, int]]:
        """Every unit as (unit id, profile name, models): entries then their joined hero, list order."""
        for e in self.entries:
            yield e.id, e.profile, self.models(e)
            if e.hero is not None and e.hero_id is not None:
                yield e.hero_id, e.hero, 1

    def copy_options(self, profile: str) -> list[int]:
        """The numbers of copies ``profile`` may combine (rulebook "Combined Units"), e.g. [1, 2] for Tough(3)
        cavalry of 5, [1] for a single model; raises ``KeyError`` for an unknown profile."""
        return allowed_copies(self.profile(profile))

    def joinable_units(self, hero_profile: str) -> list[str]:
        """Entry ids a hero of ``hero_profile`` may join now: multi-model units that are not heroes and have no
        hero yet (rulebook "Hero"); [] if the profile is not a Hero with up to Tough(6)."""
        hero = self.army.profiles.get(hero_profile)
        if hero is None or not hero.is_hero or hero.tough > MAX_JOINING_TOUGH:
            return []
        out = []
        for e in self.entries:
            prof = self.army.profiles.get(e.profile)
            if prof is not None and not prof.is_hero and self.models(e) >= 2 and e.hero is None:
                out.append(e.id)
        return out

    # --- editing ---------------------------------------------------------------------------------------------
    def new_id(self, profile: str) -> str:
        """A fresh unit id for ``profile``: its name in lower case with dashes and a number (``canton-pikemen-2``)."""
        base = re.sub(r"[^a-z0-9]+", "-", profile.lower()).strip("-") or "unit"
        used = set(self.unit_ids())
        n = 1
        while f"{base}-{n}" in used:
            n += 1
        return f"{base}-{n}"

    def add(self, profile: str, copies: int = 1, upgrades: list[str] | tuple[str, ...] = (),
            hero: str | None = None) -> ListEntry:
        """Append a unit of ``profile`` (with a fresh id) and return it. Nothing is checked here (``validate``).

        ``hero``: the profile name of a hero joining it (its id is made fresh too).
        """
        entry = ListEntry(self.new_id(profile), profile, copies, list(upgrades))
        self.entries.append(entry)
        if hero is not None:
            entry.hero = hero
            entry.hero_id = self.new_id(hero)
        return entry

    def remove(self, entry_id: str) -> ListEntry:
        """Remove the entry with this id (and its joined hero); clears ``general`` if it was one of them.
        Raises ``KeyError``."""
        entry = self.entry(entry_id)
        self.entries.remove(entry)
        if self.general is not None and self.general in (entry.id, entry.hero_id):
            self.general = None
        return entry

    def join_hero(self, entry_id: str, hero_profile: str, hero_id: str | None = None) -> ListEntry:
        """Make a hero of ``hero_profile`` join the unit ``entry_id`` (replacing any hero it had).

        ``hero_id``: the hero's unit id; by default a standalone hero entry of that profile is moved into the
        unit keeping its id (and so its General status), else a fresh id is made. Raises ``KeyError`` for an
        unknown entry. Rules are checked by ``validate``.
        """
        entry = self.entry(entry_id)
        if hero_id is None:
            standalone = next((e for e in self.entries if e.profile == hero_profile and e.hero is None
                               and e.id != entry_id and self.army.profiles.get(e.profile) is not None
                               and self.army.profiles[e.profile].is_hero), None)
            if standalone is not None:
                self.entries.remove(standalone)
                hero_id = standalone.id
            else:
                hero_id = self.new_id(hero_profile)
        entry.hero = hero_profile
        entry.hero_id = hero_id
        return entry

    def detach_hero(self, entry_id: str) -> ListEntry | None:
        """Take the hero out of unit ``entry_id`` as a unit of its own (same id, right after the unit); returns
        the new hero entry, or None if the unit had no hero. Raises ``KeyError``."""
        entry = self.entry(entry_id)
        if entry.hero is None or entry.hero_id is None:
            entry.hero = entry.hero_id = None
            return None
        hero = ListEntry(entry.hero_id, entry.hero)
        entry.hero = entry.hero_id = None
        self.entries.insert(self.entries.index(entry) + 1, hero)
        return hero


def allowed_copies(profile: Profile) -> list[int]:
    """Copies of ``profile`` one unit may combine (rulebook "Combined Units"): 1, or up to four copies of a
    multi-model unit with at most 20 models, only two for profiles with Tough(X)."""
    if profile.size < 2:
        return [1]
    top = MAX_TOUGH_COPIES if profile.tough > 1 else MAX_COPIES
    return [c for c in range(1, top + 1) if c == 1 or profile.size * c <= MAX_COMBINED_MODELS]


# ---------------------------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------------------------


def force_org_limits(points: int) -> dict[str, int]:
    """The Force Organisation limits at ``points`` (rulebook "Force Organisation (Optional)").

    Keys: ``heroes`` (1 per 375 pts), ``copies`` (1 + 1 per 750 pts of the same unit), ``units`` (1 per 150 pts).
    The 35% cap is ``points * 35 / 100`` points. Example: 1500 -> 4 heroes, 3 copies, 10 units.
    """
    return {
        "heroes": points // POINTS_PER_HERO,
        "copies": 1 + points // POINTS_PER_EXTRA_COPY,
        "units": points // POINTS_PER_UNIT,
    }


def validate(army_list: ArmyList, force_org: bool = False) -> list[str]:
    """Every problem of ``army_list`` in words, in a fixed order; [] when it may be played.

    Checks: the points limit (rulebook "Preparing Your Army"), unknown profiles, "Combined Units" (copies at least
    1; only multi-model units combine; at most 4 copies, 20 models, 2 copies with Tough(X)), "Command Groups" (known
    upgrades, one of each), "Hero" (only a Hero with up to Tough(6) joins, and only a multi-model unit that is not a
    hero), unit ids (unique, no spaces), "Victory Conditions" (the General is a hero of the list; a list with
    heroes must name one). With ``force_org`` also "Force Organisation (Optional)": 1 hero per 375 pts, 1+X copies
    of the same unit (X = 1 per 750 pts; a combined unit counts once; joined heroes count as units of their
    profile), no unit worth over 35% of the points limit (a joined hero counted as a unit of its own), 1 unit per
    150 pts (joined heroes count as units). Limits use the list's ``points`` (the game size).
    """
    lst = army_list
    out: list[str] = []
    profiles = lst.army.profiles
    if lst.points <= 0:
        out.append(f"the points limit must be a positive whole number, got {lst.points}")
    used = lst.points_used
    if lst.points > 0 and used > lst.points:
        out.append(f"{used} points used, {used - lst.points} over the limit of {lst.points} (Preparing Your Army)")
    if not lst.entries:
        out.append("the list has no units")

    seen_ids: set[str] = set()
    for uid in lst.unit_ids():
        if uid in seen_ids:
            out.append(f"unit id {uid!r} is used twice")
        seen_ids.add(uid)
        if not uid or any(c.isspace() for c in uid):
            out.append(f"unit id {uid!r} must be non-empty text without spaces")

    for e in lst.entries:
        label = f"{e.id} ({e.profile})"
        prof = profiles.get(e.profile)
        if prof is None:
            out.append(f"{e.id}: the army {lst.army.name!r} has no profile {e.profile!r}")
        else:
            out += _combined_unit_problems(label, prof, e.copies)
        known = [u for u in e.upgrades if u in UPGRADES]
        for u in e.upgrades:
            if u not in UPGRADES:
                out.append(f"{label}: unknown upgrade {u!r} (upgrades: {', '.join(UPGRADE_ORDER)})")
        for u, n in sorted(Counter(known).items()):
            if n > 1:
                out.append(f"{label}: {u} taken {n} times; a unit may have one of each upgrade (Command Groups)")
        if e.hero is not None:
            out += _join_problems(lst, e, label, prof)

    out += _general_problems(lst)
    if force_org and lst.points > 0:
        out += _force_org_problems(lst)
    return out


def _combined_unit_problems(label: str, prof: Profile, copies: int) -> list[str]:
    if copies < 1:
        return [f"{label}: copies must be at least 1, got {copies}"]
    if copies == 1:
        return []
    if prof.size < 2:
        return [f"{label}: {prof.name} is a single model; only multi-model units may be combined (Combined Units)"]
    if copies > MAX_COPIES:
        return [f"{label}: {copies} copies combined; at most {MAX_COPIES} (Combined Units)"]
    out = []
    models = prof.size * copies
    if models > MAX_COMBINED_MODELS:
        out.append(f"{label}: {models} models; a combined unit has at most {MAX_COMBINED_MODELS} (Combined Units)")
    if prof.tough > 1 and copies > MAX_TOUGH_COPIES:
        out.append(f"{label}: {copies} copies combined; units with Tough({prof.tough}) may combine only "
                   f"{MAX_TOUGH_COPIES} (Combined Units)")
    return out


def _join_problems(lst: ArmyList, e: ListEntry, label: str, prof: Profile | None) -> list[str]:
    assert e.hero is not None
    hero = lst.army.profiles.get(e.hero)
    if hero is None:
        return [f"{label}: the army {lst.army.name!r} has no profile {e.hero!r} to join this unit"]
    if not hero.is_hero:
        return [f"{label}: {e.hero} is not a Hero; only heroes may join a unit (Hero)"]
    if hero.tough > MAX_JOINING_TOUGH:
        return [f"{label}: {e.hero} has Tough({hero.tough}); only heroes with up to Tough({MAX_JOINING_TOUGH}) "
                f"may join a unit (Hero)"]
    if prof is not None and (prof.is_hero or prof.size * max(e.copies, 1) < 2):
        return [f"{label}: {e.hero} may only join a multi-model unit without another Hero (Hero)"]
    if e.hero_id is None:
        return [f"{label}: the joined hero {e.hero} needs a unit id (hero_id)"]
    return []


def _general_problems(lst: ArmyList) -> list[str]:
    heroes = lst.heroes()
    if lst.general is None:
        if heroes:
            ids = ", ".join(h for h, _ in heroes)
            return [f"no General chosen; one of the heroes ({ids}) must be the General (Victory Conditions)"]
        return []
    if lst.general not in lst.unit_ids():
        return [f"the General {lst.general!r} is not a unit of the list"]
    if lst.general not in {h for h, _ in heroes}:
        prof = next(p for uid, p, _ in lst.units() if uid == lst.general)
        return [f"the General {lst.general} ({prof}) is not a Hero (Victory Conditions)"]
    return []


def _force_org_problems(lst: ArmyList) -> list[str]:
    limits = force_org_limits(lst.points)
    out: list[str] = []
    heroes = len(lst.heroes())
    if heroes > limits["heroes"]:
        out.append(f"{heroes} heroes; at most {limits['heroes']} at {lst.points} points, 1 per {POINTS_PER_HERO} "
                   f"(Force Organisation)")
    counts = Counter(p for _, p, _ in lst.units())
    for prof, n in counts.items():
        if n > limits["copies"]:
            out.append(f"{n} units of {prof}; at most {limits['copies']} at {lst.points} points, 1 + 1 per "
                       f"{POINTS_PER_EXTRA_COPY} (Force Organisation)")
    cap = lst.points * MAX_UNIT_SHARE_PERCENT / 100
    for e in lst.entries:
        for uid, name, cost in ((e.id, e.profile, lst.unit_cost(e)), (e.hero_id, e.hero, lst.hero_cost(e))):
            if name is not None and cost * 100 > lst.points * MAX_UNIT_SHARE_PERCENT:
                out.append(f"{uid} ({name}): worth {cost} points, over {MAX_UNIT_SHARE_PERCENT}% of {lst.points} "
                           f"({cap:g}) (Force Organisation)")
    units = len(lst.unit_ids())
    if units > limits["units"]:
        out.append(f"{units} units; at most {limits['units']} at {lst.points} points, 1 per {POINTS_PER_UNIT} "
                   f"(Force Organisation)")
    return out


# ---------------------------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------------------------


def list_to_mapping(army_list: ArmyList, path: str | Path) -> dict[str, Any]:
    """The YAML mapping of ``army_list`` as saved at ``path`` (the army file path is made relative to ``path``'s
    folder). Raises ``ValueError`` if the army file's location is unknown (``army.source`` is None)."""
    if army_list.army.source is None:
        raise ValueError("the army list's army file has no known location (army.source); load it with load_army")
    army_ref = Path(os.path.relpath(Path(army_list.army.source).resolve(), Path(path).resolve().parent)).as_posix()
    data: dict[str, Any] = {"format": LIST_FORMAT}
    if army_list.name:
        data["name"] = army_list.name
    data["army"] = army_ref
    data["points"] = army_list.points
    if army_list.general is not None:
        data["general"] = army_list.general
    units = []
    for e in army_list.entries:
        unit: dict[str, Any] = {"id": e.id, "profile": e.profile, "copies": e.copies}
        if e.upgrades:
            order = {u: i for i, u in enumerate(UPGRADE_ORDER)}
            unit["upgrades"] = sorted(e.upgrades, key=lambda u: order.get(u, len(order)))
        if e.hero is not None:
            unit["hero"] = e.hero
            if e.hero_id is not None:
                unit["hero_id"] = e.hero_id
        units.append(unit)
    data["units"] = units
    return data


def save_list(path: str | Path, army_list: ArmyList) -> None:
    """Write ``army_list`` to ``path`` as YAML (``format: regiments-list/1``) atomically: a crash never leaves a
    half-written file. Raises ``OSError`` (the old file is then untouched) or ``ValueError`` (see
    ``list_to_mapping``). The list is saved as it is, even with problems (``validate`` them before playing)."""
    data = list_to_mapping(army_list, path)
    text = "# Army list (docs/formats.md \"Army list file\")\n" + yaml.safe_dump(
        data, sort_keys=False, default_flow_style=None, width=120, allow_unicode=True)
    atomic_write_text(path, text)


_TOP_KEYS = ("format", "name", "army", "points", "general", "units")
_UNIT_KEYS = ("id", "profile", "copies", "upgrades", "hero", "hero_id")


@dataclass
class _ListProblems:
    """The format problems of one army list file, in the order found, each ``FILE:LINE: PATH: message``."""

    name: str
    lines: list[str] = field(default_factory=list)

    def add(self, node: yaml.Node | None, where: str, message: str) -> None:
        """One problem at ``node``'s line (line 1 without a node)."""
        self.lines.append(f"{self.name}:{node_line(node)}: {where}: {message}")


def load_list(path: str | Path) -> ArmyList:
    """Read an army list file (docs/formats.md "Army list file").

    The army file (``army:``, relative to the list file) is loaded with ``load_army``. Raises ``ArmyListError``
    listing every format problem as ``FILE:LINE: PATH: message`` (problems of the army file itself keep its own
    file and lines). The composition is not checked here: call ``validate``.
    """
    path = Path(path)
    try:
        read = read_yaml(path)
    except FileRefused as e:
        raise ArmyListError(e.problems) from None
    name, root, data = read.name, read.root, read.data
    if not isinstance(data, dict) or root is None:
        raise ArmyListError([f"{name}:1: (root): an army list must be a mapping of keys ({', '.join(_TOP_KEYS)})"])
    problems = _ListProblems(name)
    top = mapping_nodes(root)
    _check_list_keys(data, top, problems)
    list_name, points, general = _list_header(data, top, problems)
    army = _list_army(data, top, path, problems)
    entries = _list_entries(data, top, problems)
    if problems.lines or army is None:
        raise ArmyListError(problems.lines or [f"{name}:1: army: the army file could not be read"])
    return ArmyList(army, points, entries, None if general is None else str(general), list_name)


def _check_list_keys(data: dict[Any, Any], top: dict[str, yaml.Node], problems: _ListProblems) -> None:
    """Unknown top-level keys, and the ``format``."""
    for key in data:
        if key not in _TOP_KEYS:
            problems.add(top.get(str(key)), field_path("", key).lstrip("."),
                         f"unknown key (keys: {', '.join(_TOP_KEYS)})")
    if data.get("format") != LIST_FORMAT:
        problems.add(top.get("format"), "format", f"must be {LIST_FORMAT}, got {show_value(data.get('format'))}")


def _list_header(data: dict[Any, Any], top: dict[str, yaml.Node],
                 problems: _ListProblems) -> tuple[str | None, int, str | int | None]:
    """The list's ``name`` (None when absent or bad), ``points`` (0 when bad) and ``general`` (None when absent
    or bad)."""
    list_name = data.get("name")
    if list_name is not None and not isinstance(list_name, str):
        problems.add(top.get("name"), "name", "must be text")
        list_name = None
    points = data.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        problems.add(top.get("points"), "points", f"must be a positive whole number, got {show_value(points)}")
        points = 0
    general = data.get("general")
    if general is not None and not isinstance(general, (str, int)):
        problems.add(top.get("general"), "general", "must be a unit id")
        general = None
    return list_name, points, general


def _list_army(data: dict[Any, Any], top: dict[str, yaml.Node], path: Path,
               problems: _ListProblems) -> ArmyFile | None:
    """The army file ``army:`` names (relative to the list file ``path``), or None when it is missing or bad (the
    army file's own problems are added with its own file and lines)."""
    army_ref = data.get("army")
    if not isinstance(army_ref, str) or not army_ref.strip():
        problems.add(top.get("army"), "army", "missing (required): the army file, relative to this list")
        return None
    army_path = Path(army_ref) if Path(army_ref).is_absolute() else path.parent / army_ref
    if not army_path.is_file():
        problems.add(top.get("army"), "army", f"no army file {os.path.normpath(str(army_path))}")
        return None
    try:
        return load_army(army_path)
    except ScenarioError as e:
        problems.lines += e.problems
        return None


def _list_entries(data: dict[Any, Any], top: dict[str, yaml.Node], problems: _ListProblems) -> list[ListEntry]:
    """The entries of ``units`` that are well formed (the others add their problems)."""
    raw_units = data.get("units", [])
    unit_nodes = top["units"].value if isinstance(top.get("units"), yaml.SequenceNode) else []
    if not isinstance(raw_units, list):
        problems.add(top.get("units"), "units", "must be a list")
        return []
    if len(raw_units) > MAX_UNITS_PER_ARMY:
        problems.add(top.get("units"), "units", f"{len(raw_units)} units; a list holds at most {MAX_UNITS_PER_ARMY} "
                                                "(docs/formats.md \"Limits\")")
        return []
    entries: list[ListEntry] = []
    for i, raw in enumerate(raw_units):
        entry = _list_entry(raw, unit_nodes[i] if i < len(unit_nodes) else None, f"units[{i}]", problems)
        if entry is not None:
            entries.append(entry)
    return entries


def _list_entry(raw: Any, node: yaml.Node | None, where: str, problems: _ListProblems) -> ListEntry | None:
    """One entry of ``units`` (``where``: its path), or None when it has problems (added, all of them)."""
    if not isinstance(raw, dict):
        problems.add(node, where, "must be a mapping {id, profile, copies, upgrades, hero, hero_id}")
        return None
    fields_ = mapping_nodes(node) if node is not None else {}
    bad = False
    for key in raw:
        if key not in _UNIT_KEYS:
            problems.add(fields_.get(str(key)), field_path(where, key), f"unknown key (keys: {', '.join(_UNIT_KEYS)})")
            bad = True
    texts: dict[str, str | None] = {}
    for key in ("id", "profile", "hero", "hero_id"):
        value = raw.get(key)
        if value is None:
            if key in ("id", "profile"):
                problems.add(node, f"{where}.{key}", "missing (required)")
                bad = True
            texts[key] = None
        elif isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            texts[key] = str(value)
        else:
            problems.add(fields_.get(key), f"{where}.{key}", "must be text")
            bad = True
    copies = raw.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int):
        problems.add(fields_.get("copies"), f"{where}.copies", f"must be a whole number, got {show_value(copies)}")
        bad = True
    upgrades = raw.get("upgrades", [])
    if not isinstance(upgrades, list) or not all(isinstance(u, str) for u in upgrades):
        problems.add(fields_.get("upgrades"), f"{where}.upgrades", "must be a list of upgrade names")
        bad = True
    if bad:
        return None
    entry_id, profile = texts["id"], texts["profile"]
    assert entry_id is not None and profile is not None
    return ListEntry(entry_id, profile, copies, list(upgrades), texts["hero"],
                     texts["hero_id"] if texts["hero"] is not None else None)


def check_list_file(path: str | Path) -> list[str]:
    """Problems of an army list file for ``python main.py check``: its form (``load_list``), then the rules it
    breaks (``validate`` without Force Organisation) as ``FILE:1: (list): message``; [] when it may be played.
    Never raises for a bad file."""
    try:
        lst = load_list(path)
    except ArmyListError as e:
        return list(e.problems)
    return [f"{display_name(path)}:1: (list): {p}" for p in validate(lst)]


__all__ = [
    "LIST_FORMAT", "STANDARD_POINTS", "UPGRADE_ORDER", "ArmyList", "ArmyListError", "ListEntry", "allowed_copies",
    "check_list_file",
    "force_org_limits", "list_to_mapping", "load_list", "save_list", "validate",
]
