"""Map an Army Forge export onto a ruleset: profiles for an army file, entries for an army list, and everything
the ruleset does not know, listed per unit (docs/formats.md "Army Forge import", docs/rulings.md "Army Forge
imports").

- Each unit becomes a profile (identical units share one; units of the same name that differ get ``Name (2)``).
- Special rules keep their Army Forge name when the ruleset knows it (any case; ``Tough`` with rating 3 is
  ``Tough(3)``); a rule it does not know, a rating it does not take or lacks, a weapon rule on a unit (or the
  reverse), a weapon only some models carry and an upgrade without rules are ``Unknown`` items: the player
  drops them or cancels. ``Caster(X)`` is one too: the export holds no spells.
- ``Sergeant``, ``Musician``, ``Banner`` / ``Standard Bearer`` (as rules or upgrades) are command groups; one the
  ruleset does not play (AoF:R 2.16 plays the Sergeant only) is an ``Unknown`` item.
- A weapon carried ``count`` times by a unit of ``size`` models: every model carries it when ``count`` is a
  multiple of ``size``, with ``count / size`` times its attacks.
- ``combined`` units are one more copy of the unit they join (rulebook "Combined Units"); heroes with
  ``joinToUnit`` deploy with that unit (``hero`` of the list entry; rulebook "Hero").
- Base sizes: the export's square base, else by kind (``base_for``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.armyforge.export import Export, ExportRefused, ExportRule, ExportUnit, ExportWeapon, where
from game.armyforge.rulesets import DEFAULT_RULESET, KnownRules, known_rules
from game.engine.profiles import KNOWN_RULES
from game.setup.army_list import ListEntry

FOOT = (20.0, 20.0)
LARGE_FOOT = (25.0, 25.0)
CAVALRY = (25.0, 50.0)
MONSTER = (50.0, 50.0)
MONSTER_TOUGH = 6
"""Tough(6) or more without a mount rule: a monster (or a hero riding one)."""
LARGE_TOUGH = 3
"""Tough(3) to Tough(5) on foot: large foot (heroes on foot stay on foot bases)."""
NO_SPELLS = ("the export holds no spells, so a caster here would get spell tokens and nothing to cast; drop it "
             "(or add spells to the army file afterwards)")


@dataclass(frozen=True)
class Unknown:
    """One thing of a unit the ruleset cannot play: dropped if the player agrees, else the import is cancelled."""

    unit: int
    """The unit's position in the export, 1-based."""
    name: str
    line: int | None
    what: str
    """``rule Shield Wall``, ``weapon rule Bane(1) of Spear``, ``weapon 1x Great Weapon (A3)``..."""
    reason: str

    def message(self, file: str) -> str:
        """``FILE:LINE: unit N "Name": what: reason``."""
        return f"{where(file, self.line, self.unit, self.name)}: {self.what}: {self.reason}"


@dataclass
class Plan:
    """What an import will write: an army file's profiles and an army list's entries."""

    export: Export
    ruleset: str
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Army file profiles by name (docs/formats.md "Profiles"), ``base`` as chosen."""
    base_kinds: dict[str, str] = field(default_factory=dict)
    """Profile name -> where its base size comes from (``the export``, ``cavalry``, ``foot``...)."""
    entries: list[ListEntry] = field(default_factory=list)
    general: str | None = None
    points: int = 0
    """The list's points limit: the export's limit, else its points."""
    unknown: list[Unknown] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Things the player should know (a hero that could not join, points that do not add up), in words."""

    def unknown_messages(self) -> list[str]:
        """Each unknown item as ``FILE:LINE: unit N "Name": what: reason``."""
        return [u.message(self.export.file) for u in self.unknown]

    def points_used(self) -> int:
        """Points of the list as imported: copies x profile cost of every entry plus its joined hero."""
        total = 0
        for e in self.entries:
            total += self.profiles[e.profile]["cost"] * e.copies
            if e.hero is not None:
                total += self.profiles[e.hero]["cost"]
        return total


def base_for(unit: ExportUnit) -> tuple[tuple[float, float], str]:
    """The base of one model (width across the front, depth; mm) and where it comes from: the export's square
    base; else by kind (docs/formats.md "Army Forge import"): Immobile (artillery) or Tough(6)+ 50x50, mounted
    (Fast or Impact) 25x50, heroes on foot 20x20, Tough(3)+ large foot 25x25, others foot 20x20."""
    if unit.base_mm is not None:
        return unit.base_mm, "the export's square base"
    names = {r.name.strip().lower() for r in unit.rules}
    tough = max((r.rating or 1 for r in unit.rules if r.name.strip().lower() == "tough"), default=1)
    if "immobile" in names:
        return MONSTER, "artillery"
    if "fast" in names or "impact" in names:
        return CAVALRY, "mounted"
    if tough >= MONSTER_TOUGH:
        return MONSTER, "monster"
    if "hero" in names:
        return FOOT, "hero on foot"
    if tough >= LARGE_TOUGH:
        return LARGE_FOOT, "large foot"
    return FOOT, "foot"


def _rule_text(rule: ExportRule, known: KnownRules, where_: str, allowed: frozenset[str]
               ) -> tuple[str | None, str | None]:
    """(our rule text, None) or (None, why it cannot be played)."""
    canon = known.canonical(rule.name)
    if canon is None:
        played = {n.lower(): n for n in KNOWN_RULES}.get(rule.name.strip().lower())
        if played is not None:      # a rule of another ruleset (AoWFBR's Counter under AoF:R 2.16)
            return None, f"{known.ruleset} does not play {played} here"
        return None, f"{known.ruleset} has no such special rule"
    if canon not in allowed:
        other = "weapon" if where_ == "unit" else "unit"
        return None, f"in {known.ruleset} {canon} is a {other} rule, not a {where_} rule"
    if canon in known.with_value:
        if rule.rating is None:
            return None, f"{canon} needs a value, as in {canon}(1)"
        if rule.rating < 1:
            return None, f"{canon}({rule.rating}) needs a value of at least 1"
        return f"{canon}({rule.rating})", None
    if rule.rating is not None:
        return None, f"{canon} takes no value in {known.ruleset}"
    return canon, None


def _no_group(known: KnownRules, name: str) -> str:
    """Why the command group ``name`` cannot be played under ``known``'s ruleset."""
    plays = sorted(set(known.upgrades.values()))
    return (f"{known.ruleset} has no {known.other_groups[name.strip().lower()]} command group here; it plays: "
            f"{', '.join(plays) or 'none'}")


def _weapon(w: ExportWeapon, size: int, known: KnownRules, add: Any) -> dict[str, Any] | None:
    if w.count % size != 0:
        add(f"weapon {w.label}", f"carried by {w.count} of {size} models; every model of a profile here carries "
                                 "the same weapons")
        return None
    out: dict[str, Any] = {"name": w.name, "attacks": w.attacks * (w.count // size)}
    if w.range is not None:
        out["range"] = w.range
    rules = []
    for r in w.rules:
        text, why = _rule_text(r, known, "weapon", known.weapon_rules)
        if text is None:
            add(f"weapon rule {r.label} of {w.name}", why)
        elif text not in rules:
            rules.append(text)
    if rules:
        out["rules"] = rules
    return out


def _profile(unit: ExportUnit, known: KnownRules, add: Any) -> tuple[dict[str, Any], list[str], str]:
    """(profile mapping, command group upgrades, base kind)."""
    rules: list[str] = []
    upgrades: list[str] = []
    for r in unit.rules:
        group = known.upgrades.get(r.name.strip().lower())
        if group is not None:
            if group not in upgrades:
                upgrades.append(group)
            continue
        if r.name.strip().lower() in known.other_groups:
            add(f"rule {r.label}", _no_group(known, r.name))
            continue
        text, why = _rule_text(r, known, "unit", known.unit_rules)
        if text is None:
            add(f"rule {r.label}", why)
        elif text.startswith("Caster("):
            add(f"rule {r.label}", NO_SPELLS)
        elif text not in rules:
            rules.append(text)
    for name in unit.upgrades:
        group = known.upgrades.get(name.strip().lower())
        if group is None and name.strip().lower() in known.other_groups:
            add(f"upgrade {name}", _no_group(known, name))
        elif group is None:
            add(f"upgrade {name}", "it gives no special rule this ruleset knows")
        elif group not in upgrades:
            upgrades.append(group)
    weapons: list[dict[str, Any]] = []
    for w in unit.weapons:
        mapped = _weapon(w, unit.size, known, add)
        if mapped is None:
            continue
        names = {x["name"] for x in weapons}
        if mapped["name"] in names:        # weapon names are unique in a profile
            n = 2
            while f"{mapped['name']} {n}" in names:
                n += 1
            mapped["name"] = f"{mapped['name']} {n}"
        weapons.append(mapped)
    base, kind = base_for(unit)
    profile: dict[str, Any] = {"quality": unit.quality, "defense": unit.defense, "base": [base[0], base[1]],
                               "size": unit.size, "cost": unit.cost}
    if weapons:
        profile["weapons"] = weapons
    if rules:
        profile["rules"] = rules
    return profile, upgrades, kind


def convert(export: Export, ruleset: str = DEFAULT_RULESET) -> Plan:
    """Map ``export`` onto ``ruleset`` (module doc). Raises ``ExportRefused`` when a unit cannot be mapped at
    all (a Quality outside 2+ to 6+, a ``joinToUnit`` naming no unit), and ``ValueError`` for an unknown
    ruleset."""
    known = known_rules(ruleset)
    plan = Plan(export, ruleset)
    file = export.file
    problems: list[str] = []
    mapped: list[tuple[ExportUnit, str, list[str]]] = []    # unit, profile name, upgrades
    for unit in export.units:
        at = unit.at(file)
        bad = [f"{at}: {stat} {v}+ is not 2+ to 6+" for stat, v in (("Quality", unit.quality),
                                                                     ("Defense", unit.defense)) if not 2 <= v <= 6]
        if bad:
            problems += bad
            continue

        def add(what: str, reason: str | None, unit: ExportUnit = unit) -> None:
            plan.unknown.append(Unknown(unit.index, unit.name, unit.line, what, reason or "cannot be played"))

        profile, upgrades, kind = _profile(unit, known, add)
        name = unit.name
        n = 2
        while name in plan.profiles and plan.profiles[name] != profile:
            name = f"{unit.name} ({n})"
            n += 1
        plan.profiles[name] = profile
        plan.base_kinds[name] = kind
        mapped.append((unit, name, upgrades))
    if problems:
        raise ExportRefused(problems)
    _entries(plan, mapped, problems)
    if problems:
        raise ExportRefused(problems)
    plan.general = next((e.hero_id if e.hero is not None else e.id for e in plan.entries
                         if e.hero is not None or "Hero" in plan.profiles[e.profile].get("rules", [])), None)
    used = plan.points_used()
    plan.points = export.points_limit or export.list_points or used or 1
    if export.list_points is not None and export.list_points != used:
        plan.notes.append(f"the export says the list is worth {export.list_points} points; imported, it is worth "
                          f"{used} (Army Forge counts upgrade costs its own way: check the units' points)")
    if used > plan.points:
        plan.notes.append(f"the list is worth {used} points, over its limit of {plan.points}")
    return plan


def _is_hero(plan: Plan, profile: str) -> bool:
    return "Hero" in plan.profiles[profile].get("rules", [])


def _entries(plan: Plan, mapped: list[tuple[ExportUnit, str, list[str]]], problems: list[str]) -> None:
    """List entries: one per unit (times its text count), combined units as copies, joined heroes as ``hero``."""
    file = plan.export.file
    used_ids: set[str] = set()

    def new_id(profile: str) -> str:
        base = "".join(c if c.isalnum() else "-" for c in profile.lower()).strip("-")
        base = "-".join(p for p in base.split("-") if p) or "unit"
        n = 1
        while f"{base}-{n}" in used_ids:
            n += 1
        used_ids.add(f"{base}-{n}")
        return f"{base}-{n}"

    by_unit: dict[int, ListEntry] = {}
    found: ListEntry | None
    joining: list[tuple[ExportUnit, str]] = []
    combining: list[tuple[ExportUnit, str, list[str]]] = []
    for unit, profile, upgrades in mapped:
        if unit.combined:
            combining.append((unit, profile, upgrades))
            continue
        if unit.join_to is not None and _is_hero(plan, profile):
            joining.append((unit, profile))
            continue
        if unit.join_to is not None:
            plan.notes.append(f"{unit.at(file)}: joins another unit but is not a Hero in {plan.ruleset} "
                              "(rulebook \"Hero\"); it is imported as a unit of its own")
        for _ in range(unit.count):
            entry = ListEntry(new_id(profile), profile, 1, list(upgrades))
            plan.entries.append(entry)
            by_unit.setdefault(unit.index, entry)
    units = [u for u, _, _ in mapped]

    def target_of(unit: ExportUnit) -> ExportUnit | None:
        assert unit.join_to is not None
        ref = unit.join_to
        for other in units:
            if other is not unit and ref in other.keys:
                return other
        for other in units:     # '| Joined to: NAME' names the unit
            if other is not unit and other.name.lower() == ref.lower():
                return other
        return None

    for unit, profile, upgrades in combining:
        host = target_of(unit) if unit.join_to is not None else next(
            (u for u in reversed(units[:units.index(unit)]) if u.name == unit.name and not u.combined), None)
        found = by_unit.get(host.index) if host is not None else None
        if found is None:
            problems.append(f"{unit.at(file)}: a combined unit, but the unit it combines with is not in the list")
            continue
        entry = found
        if entry.profile != profile:
            plan.notes.append(f"{unit.at(file)}: combined with unit {host.index if host else '?'} but its "
                              "profile differs (other weapons, rules or cost); imported as a unit of its own")
            plan.entries.append(ListEntry(new_id(profile), profile, 1, list(upgrades)))
            continue
        entry.copies += 1
        entry.upgrades += [u for u in upgrades if u not in entry.upgrades]
        by_unit[unit.index] = entry        # a hero joining this copy joins the combined unit
    for unit, profile in joining:
        host = target_of(unit)
        found = by_unit.get(host.index) if host is not None else None
        if found is None:
            problems.append(f"{unit.at(file)}: joins unit {unit.join_to!r}, which is not in the list")
            continue
        entry = found
        if entry.hero is not None or _is_hero(plan, entry.profile):
            why = "it has a hero already" if entry.hero is not None else "it is a hero"
            plan.notes.append(f"{unit.at(file)}: cannot join {entry.profile} ({why}); imported as a unit of its own")
            plan.entries.append(ListEntry(new_id(profile), profile))
            continue
        entry.hero, entry.hero_id = profile, new_id(profile)
