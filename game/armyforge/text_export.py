"""Army Forge's 'Share as Text' export, read with ``re`` (the format is not documented: tolerant of spacing,
strict about what it uses).

::

    ++ Ironhelm Warband (v2.16) [AoF:R 315pts] [2 Units] ++

    Warlord [1] Q3+ D4+ | 95pts | Hero, Tough(3), 1x Warhorse(Fast, Impact(1))
    Hand Weapon (A3), Lance (A1, Lance)
    | Joined to:
    2x Spearmen [10] Q4+ D4+ | 110pts | Musician, Shield Wall
    10x Spear (A1, Counter)

This is the shape public readers of the export parse (docs/formats.md "Army Forge import" cites them): the header
``++ NAME (VERSION) [SYSTEM POINTSpts] [N Units] ++`` (the version and the unit count may be missing) gives the
list's name, its game system and its points (Army Forge shows the list's total there: it is both the points the
units must add up to and the list's points limit). Each unit is a line ``Name [size] Q4+ D5+ | COSTpts | rules``
(a leading ``2x``: that many identical units; the rules section may be empty), followed by its weapons on the next
lines until a blank line or the next unit. A line ``| Joined to:`` after a hero's weapons says the hero deploys with
the unit that follows it (``| Joined to: NAME`` at the end of the hero's line, naming the unit, is read too). A rule
item ``1x Upgrade(Rule, Rule)`` gives the unit the rules inside; ``Name(X)`` with a whole number X is a rule with a
rating. A weapon is ``[Nx ]Name (RANGE", A<attacks>, rules)``; without a count every model carries one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.armyforge.export import (
    MAX_NAME_CHARS,
    Export,
    ExportRefused,
    ExportRule,
    ExportUnit,
    ExportWeapon,
    where,
)
from game.limits import MAX_LIST_ITEMS, MAX_MODELS_PER_UNIT, MAX_UNITS_PER_ARMY

MAX_LINE_CHARS = 2000
"""A longer line is refused (a unit with every upgrade is under 400 characters)."""

_HEADER = re.compile(r"^\+\+\s*(?P<name>[^\[\]]*?)\s*\[\s*(?P<inner>[^\[\]]*?)\s*\]"
                     r"(?:\s*\[\s*\d{1,4}\s*units?\s*\])?\s*\+\+$", re.IGNORECASE)
_VERSION = re.compile(r"\s*\(\s*v?\s*\d{1,3}(?:\.\d{1,3}){0,3}\s*\)$", re.IGNORECASE)
"""The army book version Army Forge writes after the list's name, ``(v3.4.1)``: not part of the name."""
_JOIN_LINE = re.compile(r"^\|\s*joined\s+to\s*:?\s*$", re.IGNORECASE)
"""``| Joined to:`` alone on a line: the hero above deploys with the unit that follows."""
_POINTS = re.compile(r"^(?:(?P<system>.*?)\s+)?(?P<points>\d{1,6})\s*pts?$", re.IGNORECASE)
_UNIT_HEAD = re.compile(r"^(?:(?P<count>\d{1,3})\s*x\s+)?(?P<name>[^\[\]]+?)\s*\[\s*(?P<size>\d{1,4})\s*\]\s*"
                        r"Q\s*(?P<q>\d)\+\s*D\s*(?P<d>\d)\+$")
_COST = re.compile(r"^(?P<cost>\d{1,6})\s*pts?$", re.IGNORECASE)
_JOINED = re.compile(r"^joined\s+to\s*:?\s*(?P<name>.+)$", re.IGNORECASE)
_COUNTED = re.compile(r"^(?P<count>\d{1,4})\s*x\s+(?P<rest>.+)$")
_CALL = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<inner>.*)\)$")
_RANGE = re.compile(r"^(?P<range>\d{1,3}(?:\.\d{1,2})?)\s*(?:\"|''|”|″|in)$")
_ATTACKS = re.compile(r"^A\s*(?P<attacks>\d{1,3})$")
_RATED = re.compile(r"^(?P<name>[^()]+?)\s*\(\s*(?P<rating>\d{1,3})\s*\)$")


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside parentheses, each part stripped (empty parts dropped). Raises
    ``ValueError`` for unbalanced parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise ValueError("a ')' without its '('")
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth != 0:
        raise ValueError("a '(' without its ')'")
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_rule_item(item: str) -> tuple[list[ExportRule], list[str]]:
    """One item of a unit's rules section: (rules, upgrade names). ``1x Horse(Fast, Impact(1))`` gives the rules
    inside; ``1x Musician`` an upgrade name; ``Tough(3)`` a rule with a rating; anything else (``Tough(+3)``) a
    rule whose whole text is its name (the ruleset will not know it). Raises ``ValueError``."""
    counted = _COUNTED.match(item)
    if counted:
        rest = counted.group("rest").strip()
        call = _CALL.match(rest)
        if call is None:
            return [], [_name(rest)]
        rules: list[ExportRule] = []
        for inner in split_top(call.group("inner")):
            if _COUNTED.match(inner):
                raise ValueError(f"an upgrade inside an upgrade: {item[:MAX_NAME_CHARS]!r}")
            rules += parse_rule_item(inner)[0]
        return rules, []
    rated = _RATED.match(item)
    if rated:
        return [ExportRule(_name(rated.group("name")), int(rated.group("rating")))], []
    return [ExportRule(_name(item))], []


def parse_weapon(item: str, size: int) -> ExportWeapon:
    """One weapon, ``2x Bow (24", A1, AP(1))``; without a count every one of ``size`` models carries it. Raises
    ``ValueError``."""
    count = size
    counted = _COUNTED.match(item)
    if counted:
        count = int(counted.group("count"))
        item = counted.group("rest").strip()
    call = _CALL.match(item)
    if call is None:
        raise ValueError(f"weapon {item[:MAX_NAME_CHARS]!r} has no profile in parentheses, as in Spear (A1)")
    name = _name(call.group("name"))
    rng: float | None = None
    attacks: int | None = None
    rules: list[ExportRule] = []
    for part in split_top(call.group("inner")):
        if (m := _RANGE.match(part)) is not None:
            rng = float(m.group("range")) or None
        elif (m := _ATTACKS.match(part)) is not None:
            attacks = int(m.group("attacks"))
        else:
            rules += parse_rule_item(part)[0]
    if attacks is None:
        raise ValueError(f"weapon {name!r} has no attacks (A1, A2...)")
    if count < 1:
        raise ValueError(f"weapon {name!r}: a count of {count}")
    if len(rules) > MAX_LIST_ITEMS:
        raise ValueError(f"weapon {name!r} has {len(rules)} rules; at most {MAX_LIST_ITEMS}")
    return ExportWeapon(name, count, rng, attacks, tuple(rules))


def _name(text: str) -> str:
    text = text.strip()
    if not text:
        raise ValueError("an empty name")
    if len(text) > MAX_NAME_CHARS:
        raise ValueError(f"a name of {len(text)} characters; at most {MAX_NAME_CHARS}")
    return text


def parse_text(text: str, file: str) -> Export:
    """Read a 'Share as Text' export (module doc). ``file``: the name shown in messages. Raises ``ExportRefused``
    with every problem, each ``FILE:LINE: unit N "Name": message`` or ``FILE:LINE: (file): message``."""
    reader = _TextReader(file)
    for n, raw in enumerate(text.splitlines(), start=1):
        if not reader.read_line(n, raw.strip()):
            break
    return reader.export()


_Header = tuple[str, str | None, int | None]
"""The header line's list name, game system (or None) and points (None when the header is bad)."""


@dataclass
class _TextReader:
    """Reads an export line by line: the header, then each unit line followed by its weapon lines (a blank line or
    the next unit ends them); a hero's '| Joined to:' line makes it join the next unit."""

    file: str
    problems: list[str] = field(default_factory=list)
    header: _Header | None = None
    units: list[ExportUnit] = field(default_factory=list)
    current: ExportUnit | None = None
    """The unit whose weapon lines are being read."""
    weapon_text: list[tuple[int, str]] = field(default_factory=list)
    joining: ExportUnit | None = None
    """A hero whose '| Joined to:' line was read: it joins the next unit."""

    def read_line(self, n: int, line: str) -> bool:
        """Read line ``n`` (stripped); False when the rest of the file is not read."""
        if len(line) > MAX_LINE_CHARS:
            self.problems.append(f"{where(self.file, n)}: a line of {len(line):,} characters; at most "
                                 f"{MAX_LINE_CHARS:,}")
            self.finish_unit()
            return True
        if not line:
            self.finish_unit()
            return True
        if self.header is None and line.startswith("++"):
            self.header = self._header(n, line)
            return True
        if _JOIN_LINE.match(line):
            if self.current is None:
                self.problems.append(f"{where(self.file, n)}: '| Joined to:' must follow a hero's unit and its "
                                     "weapons")
            else:
                self.joining = self.current
            self.finish_unit()
            return True
        segments = line.split("|")
        head = _UNIT_HEAD.match(segments[0].strip())
        if head is not None:
            return self._unit_line(n, head, segments)
        if self.current is None:
            if self.header is None:
                self.problems.append(f"{where(self.file, n)}: not an Army Forge 'Share as Text' export: the first "
                                     "line must read ++ NAME [SYSTEM POINTSpts] ++")
                return False
            self.problems.append(f"{where(self.file, n)}: not a unit line (Name [size] Q4+ D5+ | 100pts | rules) "
                                 "and not the weapons of a unit")
            return True
        self.weapon_text.append((n, line))
        if len(self.weapon_text) > MAX_LIST_ITEMS:
            self.problems.append(f"{self.current.at(self.file)}: more than {MAX_LIST_ITEMS} lines of weapons")
            self.weapon_text = []
        return True

    def _header(self, n: int, line: str) -> _Header:
        m = _HEADER.match(line)
        pm = _POINTS.match(m.group("inner")) if m else None
        if m is None or pm is None:
            self.problems.append(f"{where(self.file, n)}: the header must read ++ NAME [SYSTEM POINTSpts] ++")
            return ("", None, None)
        return (_VERSION.sub("", m.group("name").strip()), (pm.group("system") or "").strip() or None,
                int(pm.group("points")))

    def _unit_line(self, n: int, head: re.Match[str], segments: list[str]) -> bool:
        """A unit line: the unit it starts (False when the list already holds ``MAX_UNITS_PER_ARMY``)."""
        self.finish_unit()
        if self.header is None:
            self.problems.append(f"{where(self.file, n)}: a unit before the header line ++ NAME [SYSTEM "
                                 "POINTSpts] ++")
            self.header = ("", None, None)
        unit = _unit(head, segments, n, len(self.units) + 1, self.file, self.problems)
        if self.joining is not None:     # the unit after '| Joined to:' is the one the hero joins
            unit.keys = (f"line {n}",)
            self.joining.join_to = unit.keys[0]
            self.joining = None
        if len(self.units) >= MAX_UNITS_PER_ARMY:
            self.problems.append(f"{where(self.file, n)}: more than {MAX_UNITS_PER_ARMY} units; a list holds at "
                                 f"most {MAX_UNITS_PER_ARMY}")
            return False
        self.units.append(unit)
        self.current = unit
        return True

    def finish_unit(self) -> None:
        """The current unit's weapon lines are all read: parse them."""
        current = self.current
        if current is not None:
            for ln, wline in self.weapon_text:
                try:
                    items = split_top(wline)
                    current.weapons += [parse_weapon(w, current.size) for w in items]
                except ValueError as e:
                    self.problems.append(f"{where(self.file, ln, current.index, current.name)}: {e}")
            if len(current.weapons) > MAX_LIST_ITEMS:
                self.problems.append(f"{current.at(self.file)}: {len(current.weapons)} weapons; at most "
                                     f"{MAX_LIST_ITEMS}")
                current.weapons = []
        self.current, self.weapon_text = None, []

    def export(self) -> Export:
        """The export read, or ``ExportRefused`` with every problem."""
        self.finish_unit()
        problems, file = self.problems, self.file
        if self.joining is not None:
            problems.append(f"{self.joining.at(file)}: '| Joined to:' with no unit after it")
        if self.header is None and not problems:
            problems.append(f"{where(file, 1)}: not an Army Forge 'Share as Text' export: the first line must read "
                            "++ NAME [SYSTEM POINTSpts] ++")
        if not self.units and not problems:
            problems.append(f"{where(file, 1)}: the list has no units")
        if problems:
            raise ExportRefused(problems)
        assert self.header is not None
        name, system, points = self.header
        return Export(file, "text", name or "Army Forge list", system, points, points, self.units)


def _unit(head: re.Match[str], segments: list[str], line: int, index: int, file: str,
          problems: list[str]) -> ExportUnit:
    name = head.group("name").strip()[:MAX_NAME_CHARS * 2]
    unit = ExportUnit(index, name, int(head.group("size")), int(head.group("q")), int(head.group("d")), 0, line)
    unit.count = int(head.group("count") or 1)
    at = unit.at(file)
    if len(name) > MAX_NAME_CHARS:
        problems.append(f"{at}: a name of {len(name)} characters; at most {MAX_NAME_CHARS}")
    if not 1 <= unit.size <= MAX_MODELS_PER_UNIT:
        problems.append(f"{at}: [{unit.size}] models; a unit has 1 to {MAX_MODELS_PER_UNIT}")
    if not 1 <= unit.count <= MAX_UNITS_PER_ARMY:
        problems.append(f"{at}: {unit.count}x units; 1 to {MAX_UNITS_PER_ARMY}")
    cost = _COST.match(segments[1].strip()) if len(segments) > 1 else None
    if cost is None:
        problems.append(f"{at}: the points must follow the stats, as in | 100pts |")
    else:
        unit.cost = int(cost.group("cost"))
    for seg in segments[2:]:
        seg = seg.strip()
        joined = _JOINED.match(seg)
        if joined:
            unit.join_to = joined.group("name").strip()
            continue
        try:
            for item in split_top(seg):
                rules, upgrades = parse_rule_item(item)
                unit.rules += rules
                unit.upgrades += upgrades
        except ValueError as e:
            problems.append(f"{at}: {e}")
    if len(unit.rules) + len(unit.upgrades) > MAX_LIST_ITEMS:
        problems.append(f"{at}: {len(unit.rules) + len(unit.upgrades)} rules; at most {MAX_LIST_ITEMS}")
        unit.rules, unit.upgrades = [], []
    return unit
