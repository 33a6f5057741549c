"""What the battle set-up screens edit: both army lists, the agreed game size, the terrain and the battle's name.

No pygame here: the set-up scenes (``setup_armies``, ``setup_table``, ``setup_battle``) show and change a
``SetupState``; this module holds the rules-side helpers they share:

- army files (``scenarios/armies/*.yaml``) and saved lists (``user_data_dir()/lists``, "My lists");
- thin adapters over ``game.setup.army_list`` for what the screens do in one click (a standalone hero joining a
  unit keeping its id and General status, copies within "Combined Units");
- terrain editing that ``game.setup.terrain_gen`` does not offer: a piece of each kind with a default size
  (``make_piece``), moving and rotating a piece (``moved``, ``rotated``), the piece under a point (``piece_at``)
  and the live guideline report (``guideline_report``: AoWFBR "Terrain Placement");
- writing the scenario (``SetupState.write``, with ``game.setup.scenario_writer.write_scenario``) into
  ``user_data_dir()/scenarios``.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from game.engine.rulesets import RULESETS
from game.files import fresh_path, lists_dir, scenarios_dir, slug
from game.scenario import ArmyFile, Scenario, ScenarioError, load_army
from game.setup.army_list import (
    STANDARD_POINTS,
    ArmyList,
    ArmyListError,
    ListEntry,
    allowed_copies,
    force_org_limits,
    load_list,
    save_list,
    validate,
)
from game.setup.ruleset_offer import fit_terrain, force_org_problems, list_problems, offer, setup_refusal
from game.setup.scenario_writer import RULESET, write_scenario
from game.setup.terrain_gen import (
    MAX_GAP,
    MIN_GAP,
    STYLES,
    RectSpec,
    TerrainPieceSpec,
    coverage,
    generate_layout,
    max_gap,
    min_gap,
    trait_counts,
)
from game.terrain_kinds import KIND_TRAITS
from geometry.pose import Point

ROOT = Path(__file__).resolve().parents[3]
"""The project folder."""
ARMIES_DIR = ROOT / "scenarios" / "armies"
"""The shipped army files."""
TABLE_SIZE = (72.0, 48.0)
"""The table of a set-up battle: 6' x 4' (rulebook "Preparation")."""
GAME_SIZES: tuple[int, ...] = STANDARD_POINTS
"""Game sizes offered (rulebook "Preparing Your Army": 750 to start, 1500 for full matches)."""
ROUND_CHOICES: tuple[int, ...] = (3, 4, 5, 6)
"""Numbers of rounds offered (rulebook "Playing the Game": usually 4)."""

PALETTE: tuple[str, ...] = ("forest", "hill", "building", "ruins", "field", "swamp", "lake", "lava", "river",
                            "rubble", "mountain", "barricade")
"""Terrain kinds the table screen can place, in the order shown."""

PIECE_SHAPES: dict[str, tuple[str, float, float]] = {
    "forest": ("blob", 7.0, 6.0),
    "hill": ("blob", 8.0, 6.0),
    "building": ("rect", 5.0, 4.0),
    "ruins": ("rect", 5.0, 5.0),
    "field": ("rect", 7.0, 5.0),
    "swamp": ("blob", 6.0, 5.0),
    "lake": ("blob", 6.0, 5.0),
    "lava": ("blob", 5.0, 4.0),
    "river": ("rect", 12.0, 3.0),
    "rubble": ("blob", 3.0, 2.5),
    "mountain": ("blob", 7.0, 6.0),
    "barricade": ("rect", 3.0, 1.0),
}
"""Default outline of a placed piece of each kind: ``rect`` or ``blob`` (an uneven oval), width along x and depth
along y in inches (AoWFBR "Terrain Overview": scatter 1"-3", large features 4"-8", up to 12")."""

KIND_WORDS: dict[str, str] = {
    "forest": "Forest", "hill": "Hill", "building": "Building", "ruins": "Ruins", "field": "Field",
    "swamp": "Swamp", "lake": "Lake", "lava": "Lava", "river": "River", "rubble": "Rubble",
    "mountain": "Mountain", "barricade": "Barricade", "open": "Open ground",
}
"""Kind names as shown to players."""


# ---------------------------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------------------------


def army_files(folder: Path = ARMIES_DIR) -> list[Path]:
    """The army files in ``folder`` (``*.yaml`` with ``format: regiments-army/1`` that load), by army name."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        if _army(path.resolve()) is not None:
            out.append(path.resolve())
    return sorted(out, key=lambda p: army_name(p))


@lru_cache(maxsize=64)
def _army(path: Path) -> ArmyFile | None:
    try:
        return load_army(path)
    except (ScenarioError, OSError):
        return None


def army_file(path: Path) -> ArmyFile:
    """The army file at ``path`` (loaded once); raises ``ScenarioError`` if it cannot be used."""
    army = _army(Path(path).resolve())
    if army is None:
        return load_army(path)   # raises with the problems
    return army


def army_name(path: Path) -> str:
    """The ``name`` of the army file at ``path``, else its file name."""
    army = _army(Path(path).resolve())
    return army.name if army is not None else Path(path).stem


def saved_lists() -> list[Path]:
    """The saved army list files in "My lists", newest first."""
    files = [p for p in lists_dir().glob("*.yaml") if p.is_file()]
    return sorted(files, key=lambda p: (-p.stat().st_mtime, p.name))


# ---------------------------------------------------------------------------------------------------------------
# Army lists
# ---------------------------------------------------------------------------------------------------------------


def entry_label(lst: ArmyList, entry: ListEntry) -> str:
    """One line for the list: name, copies, models, upgrades, joined hero, General star and points."""
    prof = lst.army.profiles.get(entry.profile)
    parts = [entry.profile + (f" ×{entry.copies}" if entry.copies > 1 else "")]
    if prof is not None and prof.size > 1:
        parts.append(f"{lst.models(entry)} models")
    if entry.upgrades:
        parts.append("+" + "/".join(u.capitalize() for u in entry.upgrades))
    if entry.hero is not None:
        star = " ★" if lst.general is not None and lst.general == entry.hero_id else ""
        parts.append(f"with {entry.hero}{star}")
    elif lst.general is not None and lst.general == entry.id:
        parts[0] = "★ " + parts[0] + " (General)"
    return " · ".join(parts) + f" — {lst.entry_cost(entry)} pts"


def join_standalone_hero(lst: ArmyList, hero_entry_id: str, unit_id: str) -> ListEntry:
    """Move the standalone hero entry ``hero_entry_id`` into unit ``unit_id`` keeping its id (and so its General
    status); a hero the unit had becomes a standalone entry. Returns the unit's entry; raises ``KeyError``."""
    hero = lst.entry(hero_entry_id)
    unit = lst.entry(unit_id)
    if unit.hero is not None:
        lst.detach_hero(unit_id)
    lst.entries.remove(hero)      # not ``lst.remove``: that would forget the General
    return lst.join_hero(unit_id, hero.profile, hero_id=hero.id)


def hero_choices(lst: ArmyList) -> list[str]:
    """Profiles of the army that may join a unit (rulebook "Hero": a Hero with up to Tough(6))."""
    return [name for name, p in lst.army.profiles.items() if p.is_hero and p.tough <= 6]


def set_copies(lst: ArmyList, entry: ListEntry, copies: int) -> bool:
    """Combine ``copies`` copies in ``entry`` if "Combined Units" allows it; True if changed."""
    prof = lst.army.profiles.get(entry.profile)
    if prof is None or copies not in allowed_copies(prof) or copies == entry.copies:
        return False
    entry.copies = copies
    return True


def points_summary(lst: ArmyList) -> tuple[str, bool]:
    """``("585 / 750 points · 165 left", ok)``; ok is False when over the limit."""
    used, left = lst.points_used, lst.points_left
    if left >= 0:
        return f"{used} / {lst.points} points · {left} left", True
    return f"{used} / {lst.points} points · {-left} over the limit", False


def force_org_words(points: int) -> str:
    """The Force Organisation limits at ``points`` in words (rulebook "Force Organisation (Optional)")."""
    lim = force_org_limits(points)
    return (f"At {points} pts: at most {lim['heroes']} heroes, {lim['units']} units, {lim['copies']} of the same "
            f"unit, none worth over {points * 35 // 100} pts.")


# ---------------------------------------------------------------------------------------------------------------
# Terrain editing (adapters over TerrainPieceSpec)
# ---------------------------------------------------------------------------------------------------------------


def _round(v: float) -> float:
    return round(v, 2)


def blob_outline(x: float, y: float, width: float, depth: float, points: int = 14) -> tuple[Point, ...]:
    """An uneven oval ``width`` x ``depth`` inches centred on (x, y) (always a simple polygon)."""
    out = []
    for i in range(points):
        a = 2 * math.pi * i / points
        r = 1.0 + 0.07 * math.sin(3 * a + 0.5) + 0.04 * math.cos(5 * a)
        out.append((_round(x + math.cos(a) * width / 2 * r), _round(y + math.sin(a) * depth / 2 * r)))
    return tuple(out)


def next_name(pieces: list[TerrainPieceSpec], kind: str) -> str:
    """A name not used yet for a new piece of ``kind``: ``Forest``, ``Forest 2``..."""
    base = KIND_WORDS.get(kind, kind.capitalize())
    used = {p.name for p in pieces}
    if base not in used:
        return base
    n = 2
    while f"{base} {n}" in used:
        n += 1
    return f"{base} {n}"


def make_piece(kind: str, x: float, y: float, name: str, angle: float = 0.0) -> TerrainPieceSpec:
    """A piece of ``kind`` with its default size (``PIECE_SHAPES``) centred on (x, y), turned clockwise by ``angle``
    degrees, with the kind's default traits. Raises ``KeyError`` for a kind without a default shape."""
    shape, w, d = PIECE_SHAPES[kind]
    traits = KIND_TRAITS[kind]
    if shape == "rect":
        return TerrainPieceSpec(name, kind, traits, rect=RectSpec(_round(x), _round(y), w, d, round(angle % 360, 1)))
    piece = TerrainPieceSpec(name, kind, traits, polygon=blob_outline(x, y, w, d))
    return rotated(piece, angle) if angle else piece


def centre(piece: TerrainPieceSpec) -> Point:
    """The point a piece turns about: a rect's centre, a polygon's centroid."""
    if piece.rect is not None:
        return (piece.rect.x, piece.rect.y)
    c = piece.shape().centroid
    return (float(c.x), float(c.y))


def moved(piece: TerrainPieceSpec, dx: float, dy: float, table: tuple[float, float] = TABLE_SIZE
          ) -> TerrainPieceSpec:
    """The piece moved by (dx, dy) inches, its centre kept on the table (so it never lies off it)."""
    cx, cy = centre(piece)
    nx = min(max(cx + dx, 0.0), table[0])
    ny = min(max(cy + dy, 0.0), table[1])
    dx, dy = nx - cx, ny - cy
    if piece.rect is not None:
        r = piece.rect
        return dataclasses.replace(piece, rect=dataclasses.replace(r, x=_round(r.x + dx), y=_round(r.y + dy)))
    assert piece.polygon is not None
    return dataclasses.replace(piece, polygon=tuple((_round(x + dx), _round(y + dy)) for x, y in piece.polygon))


def rotated(piece: TerrainPieceSpec, degrees: float) -> TerrainPieceSpec:
    """The piece turned clockwise by ``degrees`` about its ``centre`` (a rect keeps its size, a polygon its
    shape)."""
    if piece.rect is not None:
        r = piece.rect
        return dataclasses.replace(piece, rect=dataclasses.replace(r, angle=round((r.angle + degrees) % 360.0, 1)))
    assert piece.polygon is not None
    cx, cy = centre(piece)
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    pts = tuple((_round(cx + (x - cx) * c + (y - cy) * s), _round(cy - (x - cx) * s + (y - cy) * c))
                for x, y in piece.polygon)
    return dataclasses.replace(piece, polygon=pts)


def piece_at(pieces: list[TerrainPieceSpec], point: Point, reach: float = 0.0) -> int | None:
    """Index of the piece under table ``point`` (the last one drawn wins), or within ``reach`` inches of it."""
    from shapely import Point as SPoint
    p = SPoint(point)
    best: tuple[float, int] | None = None
    for i in range(len(pieces) - 1, -1, -1):
        d = float(pieces[i].shape().distance(p))
        if d <= 1e-9:
            return i
        if d <= reach and (best is None or d < best[0]):
            best = (d, i)
    return best[1] if best is not None else None


@dataclass(frozen=True)
class GuidelineLine:
    """One line of the terrain guideline report."""

    label: str
    """What is counted, e.g. "Block line of sight"."""
    value: str
    """The count or measure, e.g. "7 of 12"."""
    target: str
    """What the rulebook recommends, e.g. "at least 6 (50%)"."""
    ok: bool | None
    """True when the recommendation is met, False when not, None when informative only."""


def guideline_report(pieces: list[TerrainPieceSpec], table: tuple[float, float] = TABLE_SIZE
                     ) -> list[GuidelineLine]:
    """The table against AoWFBR "Terrain Placement": pieces (10-15), blocking sight (50%), cover (33%), difficult
    (33%), dangerous (one per player), largest gap (at most 12"), smallest gap (at least 6", for large units),
    and the area covered (about 25%, informative)."""
    n = len(pieces)
    counts = trait_counts(pieces)
    half, third = math.ceil(n / 2), math.ceil(n / 3)
    out = [GuidelineLine("Pieces", str(n), "10-15 or more", n >= 10)]
    out.append(GuidelineLine("Block line of sight", f"{counts['blocking']} of {n}", f"at least {half} (50%)",
                             n > 0 and counts["blocking"] >= half))
    out.append(GuidelineLine("Give cover", f"{counts['cover']} of {n}", f"at least {third} (33%)",
                             n > 0 and counts["cover"] >= third))
    out.append(GuidelineLine("Difficult terrain", f"{counts['difficult']} of {n}", f"at least {third} (33%)",
                             n > 0 and counts["difficult"] >= third))
    out.append(GuidelineLine("Dangerous", str(counts["dangerous"]), "2 (one per player)", counts["dangerous"] == 2))
    if n >= 2:
        big, small = max_gap(pieces), min_gap(pieces)
        out.append(GuidelineLine("Largest gap", f'{big:.1f}"', f'at most {MAX_GAP:g}"', big <= MAX_GAP + 1e-6))
        out.append(GuidelineLine("Smallest gap", f'{small:.1f}"', f'at least {MIN_GAP:g}" (large units)',
                                 small >= MIN_GAP - 1e-6))
    else:
        out.append(GuidelineLine("Largest gap", "-", f'at most {MAX_GAP:g}"', None))
        out.append(GuidelineLine("Smallest gap", "-", f'at least {MIN_GAP:g}"', None))
    out.append(GuidelineLine("Table covered", f"{coverage(pieces, *table) * 100:.0f}%", "about 25%", None))
    return out


# ---------------------------------------------------------------------------------------------------------------
# The set-up
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class SetupState:
    """Everything the set-up screens edit; survives moving between the screens."""

    points: int = GAME_SIZES[0]
    """The agreed game size, both lists' points limit (rulebook "Preparing Your Army")."""
    force_org: bool = False
    """Both players agreed to use "Force Organisation (Optional)" (AoWFBR's, or the ruleset's own:
    ``RulesetOffer.own_force_org``, the AoF:R quick rules' "Force Org.")."""
    lists: dict[int, ArmyList] = field(default_factory=dict)
    """Each player's current army list."""
    kept: dict[tuple[int, Path], ArmyList] = field(default_factory=dict)
    """Lists kept per (player, army file) so that switching army and back loses nothing."""
    terrain: list[TerrainPieceSpec] = field(default_factory=list)
    """The terrain pieces, in placement order."""
    table_made: bool = False
    """True once the table step was opened (it generates a table the first time only)."""
    notes: list[str] = field(default_factory=list)
    """What the last generation rolled (style, restriction, pieces removed), in words."""
    style: str = "guidelines"
    """Terrain generation style (``game.setup.terrain_gen.STYLES``)."""
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(1, 100000))
    """Seed of the last generated table (the same seed and style give the same table)."""
    name: str = ""
    """The battle's name; empty for "<army 1> vs <army 2>"."""
    rounds: int = 4
    """Rounds in the game."""
    options: dict[str, object] = field(default_factory=dict)
    """Optional rules (keys of ``game.scenario.OPTION_DEFAULTS``)."""
    mission: str = "none"
    """The mission played (``game.engine.objectives.ALL_MISSIONS``), or ``none``."""
    deployment: str = "front_line"
    """The deployment style (``game.engine.deployment_styles.ALL_STYLES``)."""
    side_missions: tuple[str, str] | None = None
    """Side-missions (playstyle, selection) of ``game.engine.side_missions``, or None: not played."""
    ruleset: str = RULESET
    """The ruleset the battle is played under (the scenario's ``ruleset``): what an Army Forge import maps onto."""

    # --- armies ---------------------------------------------------------------------------------------------
    def army_list(self, player: int) -> ArmyList:
        """Player ``player``'s list (player 1 starts with the first army file, player 2 with the second)."""
        lst = self.lists.get(player)
        if lst is None:
            files = army_files()
            if not files:
                raise ScenarioError([f"{ARMIES_DIR}: no army files"])
            lst = self.choose_army(player, files[(player - 1) % len(files)])
        return lst

    def choose_army(self, player: int, path: Path) -> ArmyList:
        """Make ``player`` build a list from the army file at ``path`` (a list kept for it comes back)."""
        path = Path(path).resolve()
        current = self.lists.get(player)
        if current is not None and current.army.source is not None:
            self.kept[(player, Path(current.army.source).resolve())] = current
        lst = self.kept.get((player, path))
        if lst is None:
            lst = ArmyList(army_file(path), self.points)
        lst.points = self.points
        self.lists[player] = lst
        return lst

    def set_points(self, points: int) -> None:
        """Change the agreed game size: every list's points limit follows."""
        self.points = points
        for lst in [*self.lists.values(), *self.kept.values()]:
            lst.points = points

    def problems(self, player: int) -> list[str]:
        """What keeps ``player``'s list from being played, in words; [] when it is ready: ``validate`` and what the
        battle's ruleset does not play (``ruleset_offer.list_problems``: the scenario loader's message)."""
        lst = self.army_list(player)
        own = self.force_org and offer(self.ruleset).own_force_org
        return validate(lst, force_org=self.force_org and not own) + list_problems(lst, self.ruleset) + \
            (force_org_problems(lst, self.ruleset) if own else [])

    def set_ruleset(self, ruleset_id: str) -> list[str]:
        """Set the battle up under ``ruleset_id``: whatever that ruleset does not play (``ruleset_offer.offer``) is
        put back to what it does (the mission, deployment style, optional rules, side-missions, Force
        Organisation, the terrain: ``fit_terrain``). The army lists are kept: entries it does not play are
        flagged by ``problems``. Returns what changed, in words. Raises ``ValueError`` for a ruleset that is not
        playable or one the set-up cannot build (``ruleset_offer.setup_refusal``)."""
        o = offer(ruleset_id)
        why = setup_refusal(ruleset_id)
        if why is not None:
            raise ValueError(f"{o.title}: {why}")
        was_own = self.ruleset in RULESETS and offer(self.ruleset).own_force_org
        self.ruleset = ruleset_id
        notes: list[str] = []
        if self.force_org and o.force_org and o.own_force_org != was_own:
            notes.append(f"Force Organisation: {o.short_title}'s own limits" if o.own_force_org else
                         "Force Organisation: the AoWFBR limits")
        if self.mission not in o.missions:
            self.mission = o.missions[0] if o.missions else "none"
            notes.append(f"mission: {self.mission.replace('_', ' ')}")
        if self.deployment not in o.deployments:
            self.deployment = o.deployments[0]
            notes.append(f"deployment: {self.deployment.replace('_', ' ')}")
        dropped = [k for k in self.options if k not in o.options]
        for key in dropped:
            del self.options[key]
        if dropped:
            notes.append(f"no {', '.join(k.replace('_', ' ') for k in dropped)}")
        if self.side_missions is not None and not o.side_missions:
            self.side_missions = None
            notes.append("no side-missions")
        if self.force_org and not o.force_org:
            self.force_org = False
            notes.append("no Force Organisation")
        self.terrain, changed = fit_terrain(self.terrain, ruleset_id)
        return notes + changed

    def save_list(self, player: int, name: str) -> Path:
        """Save ``player``'s list in "My lists" as ``<name>.yaml`` (replacing a list of that name). Raises
        ``OSError``/``ValueError``."""
        lst = self.army_list(player)
        lst.name = name.strip() or None
        path = lists_dir() / f"{slug(name, 'my-list')}.yaml"
        save_list(path, lst)
        return path

    def load_list(self, player: int, path: Path) -> tuple[ArmyList, int]:
        """Load a saved list for ``player``: it takes the agreed game size. Returns the list and the points it
        was saved with. Raises ``ArmyListError``."""
        lst = load_list(path)
        saved_points = lst.points
        lst.points = self.points
        self.lists[player] = lst
        return lst, saved_points

    # --- terrain --------------------------------------------------------------------------------------------
    def ensure_table(self) -> None:
        """The first time the table is needed, generate one (a first-time player starts from a ready table)."""
        if not self.table_made and not self.terrain:
            self.generate(self.seed, self.style)
        self.table_made = True

    def generate(self, seed: int, style: str) -> list[TerrainPieceSpec]:
        """Replace the terrain with a generated table (``generate_table``); the same seed and style always give
        the same table. Raises ``ValueError`` for an unknown style."""
        if style not in STYLES:
            raise ValueError(f"unknown terrain style {style!r}")
        self.seed, self.style = seed, style
        layout = generate_layout(seed, TABLE_SIZE[0], TABLE_SIZE[1], style)
        self.terrain, changed = fit_terrain(layout.pieces, self.ruleset)   # kinds the ruleset plays
        self.notes = [n for n in layout.notes if ": section " not in n] + changed
        return self.terrain

    # --- the battle -----------------------------------------------------------------------------------------
    def battle_name(self) -> str:
        """``name``, or "<army 1> vs <army 2>"."""
        if self.name.strip():
            return self.name.strip()
        return f"{self.army_list(1).display_name} vs {self.army_list(2).display_name}"

    def ready(self) -> bool:
        """True when both lists may be played."""
        return not self.problems(1) and not self.problems(2)

    def write(self, path: Path) -> Scenario:
        """Write the battle as a scenario at ``path`` (units without poses: the game starts with deployment).
        Raises ``ScenarioError``, ``ValueError`` or ``OSError``."""
        lists = [self.army_list(1), self.army_list(2)]
        desc = (f"{self.points} points a side, set up in the window"
                + (" with Force Organisation" if self.force_org else "") + ".")
        own = self.force_org and offer(self.ruleset).own_force_org    # the ruleset checks it at load too
        return write_scenario(path, self.battle_name(), TABLE_SIZE, self.terrain, lists, rounds=self.rounds,
                              options=self.options or None, description=desc, mission=self.mission,
                              deployment=self.deployment, side_missions=self.side_missions, ruleset=self.ruleset,
                              force_org=own)

    def battle_path(self) -> Path:
        """A fresh file for a battle started now: ``scenarios/<name>-<date-time>.yaml`` in the user data folder."""
        return fresh_path(scenarios_dir(), slug(self.battle_name()), time.strftime("%Y%m%d-%H%M%S"))

    def save_path(self) -> Path:
        """Where "Save scenario" writes: ``scenarios/<name>.yaml`` in the user data folder."""
        return scenarios_dir() / f"{slug(self.battle_name())}.yaml"


__all__ = [
    "ARMIES_DIR", "GAME_SIZES", "GuidelineLine", "KIND_WORDS", "PALETTE", "PIECE_SHAPES", "ROUND_CHOICES",
    "SetupState", "TABLE_SIZE", "ArmyListError", "army_file", "army_files", "army_name", "blob_outline", "centre",
    "entry_label", "force_org_words", "guideline_report", "hero_choices", "join_standalone_hero", "lists_dir",
    "make_piece", "moved", "next_name", "piece_at", "points_summary", "rotated", "saved_lists", "scenarios_dir",
    "set_copies", "slug",
]
