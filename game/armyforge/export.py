"""What an Army Forge export holds, read but not yet mapped to a ruleset: plain dataclasses both readers fill.

``text_export.parse_text`` ('Share as Text') and ``json_export.parse_json`` (the Tabletop Simulator JSON) each
return an ``Export``; ``convert.convert`` maps it onto a ruleset. Every problem is reported as
``FILE:LINE: unit N "Name": message`` (``ExportProblem``); a file that cannot be used at all raises
``ExportRefused`` with all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.files import FileProblems

MAX_NAME_CHARS = 80
"""Names longer than this (a unit, a weapon, a rule) are refused: no real export has them."""


MAX_PROBLEMS = 100
"""Problems listed for one file; past this a line says how many more there are (a hostile file could have one
per line)."""


class ExportRefused(FileProblems):
    """An export that cannot be imported; ``problems`` lists each as ``FILE:LINE: unit N "Name": message`` (or
    ``FILE:LINE: (file): message`` for the whole file), at most ``MAX_PROBLEMS`` and a line counting the rest."""

    def __init__(self, problems: list[str]) -> None:
        if len(problems) > MAX_PROBLEMS:
            m = re.match(r"^(.*?):\d+: ", problems[0])
            head = m.group(1) if m else "(file)"
            problems = problems[:MAX_PROBLEMS] + [f"{head}:1: (file): ... and {len(problems) - MAX_PROBLEMS} more "
                                                  "problems"]
        super().__init__(problems)


def shown(text: str) -> str:
    """``text`` safe for a one-line message: cut to ``MAX_NAME_CHARS``, unprintable characters as ``?``."""
    cut = text[:MAX_NAME_CHARS] + ("..." if len(text) > MAX_NAME_CHARS else "")
    return "".join(c if c.isprintable() else "?" for c in cut)


def where(file: str, line: int | None, unit: int | None = None, name: str | None = None) -> str:
    """``FILE:LINE: unit N "Name"``, or ``FILE:LINE: (file)`` without a unit (LINE 1 when unknown)."""
    head = f"{file}:{line or 1}:"
    if unit is None:
        return f"{head} (file)"
    return f'{head} unit {unit} "{shown(name or "?")}"'


@dataclass(frozen=True)
class ExportRule:
    """A special rule as Army Forge writes it: ``name`` and an optional ``rating`` (the X of ``Tough(3)``)."""

    name: str
    rating: int | None = None

    @property
    def label(self) -> str:
        """``Tough(3)`` or ``Fearless``."""
        return f"{self.name}({self.rating})" if self.rating is not None else self.name


@dataclass(frozen=True)
class ExportWeapon:
    """A weapon line: ``count`` copies in the unit, ``range`` in inches (None in melee), ``attacks`` per weapon."""

    name: str
    count: int
    range: float | None
    attacks: int
    rules: tuple[ExportRule, ...] = ()

    @property
    def label(self) -> str:
        """As Army Forge writes it: ``2x Bow (24", A1, AP(1))``."""
        parts = ([f'{self.range:g}"'] if self.range is not None else []) + [f"A{self.attacks}"]
        parts += [r.label for r in self.rules]
        return f"{self.count}x {self.name} ({', '.join(parts)})"


@dataclass
class ExportUnit:
    """One unit of the export (its position in the file is ``index``, 1-based, for messages)."""

    index: int
    name: str
    size: int
    quality: int
    defense: int
    cost: int
    line: int | None = None
    """Line of the unit in the file, when known."""
    keys: tuple[str, ...] = ()
    """The export's ids of this unit (JSON ``selectionId`` and ``id``): what another unit's ``join_to`` names."""
    base_mm: tuple[float, float] | None = None
    """The export's square base, width x depth mm (JSON ``bases.square``); None: chosen by the unit's kind."""
    combined: bool = False
    """A copy combined into another unit (JSON ``combined``)."""
    join_to: str | None = None
    """Key of the unit this one joins (JSON ``joinToUnit``), or, in the text export, the joined unit's name."""
    rules: list[ExportRule] = field(default_factory=list)
    """Unit special rules, those of upgrades included (``1x Horse(Fast, Impact(1))`` gives Fast and Impact(1))."""
    upgrades: list[str] = field(default_factory=list)
    """Names of upgrades without rules (``Musician``, ``Banner``...): command groups, or unknown."""
    weapons: list[ExportWeapon] = field(default_factory=list)
    count: int = 1
    """The text export's leading ``2x``: that many identical units."""

    def at(self, file: str) -> str:
        """``FILE:LINE: unit N "Name"`` for messages."""
        return where(file, self.line, self.index, self.name)


@dataclass
class Export:
    """A whole export: the list's name, game system, points limit, the points the export adds up to, units."""

    file: str
    """The file name as shown in messages."""
    kind: str
    """``text`` or ``json``."""
    name: str
    system: str | None
    points_limit: int | None
    list_points: int | None
    units: list[ExportUnit] = field(default_factory=list)
