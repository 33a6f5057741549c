"""Army Forge's JSON export for Tabletop Simulator importers, read with pydantic (``extra="ignore"``: the export
has many keys we do not use; the ones we use are checked, unit by unit).

::

    {"name": "Ironhelm Warband", "gameSystem": "aofr", "pointsLimit": 750, "listPoints": 745,
     "specialRules": [...],
     "units": [{"id": "hX3", "selectionId": "a1", "name": "Spearmen", "size": 10, "quality": 4, "defense": 4,
                "cost": 110, "bases": {"round": "25", "square": "20"}, "combined": false, "joinToUnit": null,
                "rules": [{"name": "Tough", "rating": "3", "label": "Tough(3)"}],
                "loadout": [{"name": "Spear", "count": 10, "range": 0, "attacks": 1,
                             "specialRules": [{"name": "Counter", "rating": "", "label": "Counter"}]}]}]}

A unit's rules are ``rules`` (or ``specialRules``, as older exports write them); its weapons ``loadout`` (or
``weapons``, ``equipment``). A loadout entry without ``attacks`` is an item: its name may be a command group, its
``content`` / ``specialRules`` are the unit's rules (a weapon in ``content`` is the unit's). ``cost`` is the unit's
cost before upgrades: each of ``selectedUpgrades`` adds its option's cost (``option.costs`` for this unit's id, else
``option.cost``), and an option gaining a special rule (``ArmyBookRule``) gives it to the unit, since the loadout
does not show those. The list's points are ``listPoints`` (``points`` in older exports). ``joinToUnit`` names
another unit's ``selectionId`` (or ``id``). Where these shapes come from: docs/formats.md "Army Forge import".
Army Forge's 'Share as File' save (``saveVersion``, a ``list`` of unit ids and upgrade ids) is refused: it
cannot be read without Army Forge's army books.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from game.armyforge.export import MAX_NAME_CHARS, Export, ExportRefused, ExportRule, ExportUnit, ExportWeapon, where
from game.armyforge.rulesets import COMMAND_GROUP_NAMES
from game.limits import MAX_LIST_ITEMS, MAX_MODELS_PER_UNIT, MAX_UNITS_PER_ARMY

SHARE_AS_FILE = ("this is Army Forge's 'Share as File' save, which holds only unit and upgrade ids that need "
                 "Army Forge's army books; in Army Forge use 'Share as Text', or the JSON export for Tabletop "
                 "Simulator, and import that")
_SQUARE = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*(?:mm)?\s*(?:[x×X]\s*(\d{1,3}(?:\.\d{1,2})?)\s*(?:mm)?)?\s*$")


def _whole(v: Any) -> Any:
    """Whole numbers, also written as text ("3"); booleans and fractions refused."""
    if isinstance(v, bool):
        raise ValueError("must be a whole number")
    if isinstance(v, str) and v.strip().isdigit() and len(v.strip()) <= 9:
        return int(v.strip())
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if not isinstance(v, int):
        raise ValueError("must be a whole number")
    return v


def _text(v: Any) -> Any:
    if not isinstance(v, str):
        raise ValueError("must be text")
    v = v.strip()
    if not v:
        raise ValueError("must not be empty")
    if len(v) > MAX_NAME_CHARS:
        raise ValueError(f"{len(v)} characters; at most {MAX_NAME_CHARS}")
    return v


def _optional_text(v: Any) -> Any:
    return None if v is None or v == "" else _text(v) if isinstance(v, str) else str(_whole(v))


def _rating(v: Any) -> Any:
    """A rule's rating: "3", 3, "" or null; anything else (``"+1"``) kept as text (the ruleset will not know it)."""
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        raise ValueError("must be a number or text")
    if isinstance(v, int) or (isinstance(v, str) and v.strip().isdigit() and len(v.strip()) <= 6):
        return int(v)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e6:
        return int(v)
    if isinstance(v, (str, float)):
        return str(v)[:MAX_NAME_CHARS]
    raise ValueError("must be a number or text")


def _range(v: Any) -> Any:
    """A weapon's range in inches: 0 or missing for melee; ``24`` or ``"24\\""`` for ranged."""
    if v is None or v == "" or v == 0:
        return None
    if isinstance(v, str):
        m = re.match(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*(?:\"|''|”|in)?\s*$", v)
        if m is None:
            raise ValueError("must be a range in inches")
        return float(m.group(1)) or None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 999:
        raise ValueError("must be a range in inches, 0 for melee")
    return float(v) or None


Whole = Annotated[int, BeforeValidator(_whole)]
Text = Annotated[str, BeforeValidator(_text)]
OptText = Annotated[str | None, BeforeValidator(_optional_text)]


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, allow_inf_nan=False)


class RuleModel(_Lenient):
    """``{name, rating, label}`` (``key``, ``id``... ignored)."""

    name: Text
    rating: Annotated[int | str | None, BeforeValidator(_rating)] = None


class WeaponModel(_Lenient):
    """A loadout entry: a weapon (``attacks``) or an item (no ``attacks``)."""

    name: Text
    count: Whole = 1
    range: Annotated[float | None, BeforeValidator(_range)] = None
    attacks: Whole | None = None
    rules: Annotated[list[RuleModel], Field(max_length=MAX_LIST_ITEMS,
                                            validation_alias=AliasChoices("specialRules", "rules"))] = []
    content: Annotated[list[Any], Field(max_length=MAX_LIST_ITEMS)] = []


class BasesModel(_Lenient):
    """``{"round": "32", "square": "25x50"}`` (mm, as text)."""

    square: OptText = None


class OptionModel(_Lenient):
    """A chosen upgrade's option: its cost (``cost``, or per unit id in ``costs``) and what it ``gains``."""

    cost: Annotated[Whole, Field(ge=0, le=100_000)] = 0
    costs: Annotated[list[Any], Field(max_length=MAX_LIST_ITEMS)] = []
    gains: Annotated[list[Any], Field(max_length=MAX_LIST_ITEMS)] = []
    label: OptText = None


class SelectedUpgradeModel(_Lenient):
    """One of a unit's ``selectedUpgrades``: ``{instanceId, upgrade: {...}, option: {...}}``."""

    option: OptionModel | None = None


class UnitModel(_Lenient):
    """One unit of the export (only the keys we use)."""

    id: OptText = None
    selection_id: Annotated[OptText, Field(validation_alias=AliasChoices("selectionId", "selection_id"))] = None
    name: Text
    custom_name: Annotated[OptText, Field(validation_alias=AliasChoices("customName", "custom_name"))] = None
    size: Annotated[Whole, Field(ge=1, le=MAX_MODELS_PER_UNIT)]
    quality: Whole
    defense: Whole
    cost: Annotated[Whole, Field(ge=0, le=100_000)]
    bases: BasesModel | None = None
    combined: bool = False
    join_to_unit: Annotated[OptText, Field(validation_alias=AliasChoices("joinToUnit", "join_to_unit"))] = None
    rules: Annotated[list[RuleModel] | None, Field(max_length=MAX_LIST_ITEMS,
                                                   validation_alias=AliasChoices("rules", "specialRules"))] = None
    loadout: Annotated[list[WeaponModel] | None, Field(max_length=MAX_LIST_ITEMS,
                                                       validation_alias=AliasChoices("loadout", "weapons",
                                                                                     "equipment"))] = None
    selected_upgrades: Annotated[list[SelectedUpgradeModel], Field(
        max_length=MAX_LIST_ITEMS, validation_alias=AliasChoices("selectedUpgrades", "selected_upgrades"))] = []


class TopModel(_Lenient):
    """The top level (only the keys we use)."""

    name: Text = "Army Forge list"
    game_system: Annotated[OptText, Field(validation_alias=AliasChoices("gameSystem", "game_system"))] = None
    points_limit: Annotated[Whole | None, Field(validation_alias=AliasChoices("pointsLimit", "points_limit"),
                                                ge=0, le=1_000_000)] = None
    list_points: Annotated[Whole | None, Field(validation_alias=AliasChoices("listPoints", "list_points", "points"),
                                               ge=0, le=10_000_000)] = None
    units: list[Any]


def unit_offsets(text: str) -> list[int]:
    """Where each element of the top-level ``units`` array starts in ``text`` (character offsets), for line
    numbers; [] when it cannot be found. Linear in the text (``json.JSONDecoder.raw_decode`` per value)."""
    dec = json.JSONDecoder()
    ws = re.compile(r"[ \t\n\r]*")

    def skip(i: int) -> int:
        m = ws.match(text, i)
        return m.end() if m else i

    try:
        i = skip(0)
        if text[i] != "{":
            return []
        i = skip(i + 1)
        while i < len(text) and text[i] != "}":
            key, i = dec.raw_decode(text, i)
            i = skip(i)
            if text[i] != ":":
                return []
            i = skip(i + 1)
            if key == "units" and text[i] == "[":
                out = []
                i = skip(i + 1)
                while text[i] != "]":
                    out.append(i)
                    _, i = dec.raw_decode(text, i)
                    i = skip(i)
                    if text[i] == ",":
                        i = skip(i + 1)
                return out
            _, i = dec.raw_decode(text, i)
            i = skip(i)
            if text[i] == ",":
                i = skip(i + 1)
    except (ValueError, IndexError, RecursionError):
        return []
    return []


def _error_text(err: ValidationError) -> list[str]:
    out = []
    for e in err.errors()[:5]:
        loc = ".".join(str(p) for p in e.get("loc", ()))
        msg = "missing (required)" if e.get("type") == "missing" else str(e.get("msg", "invalid"))
        msg = msg.removeprefix("Value error, ")
        out.append(f"{loc}: {msg}" if loc else msg)
    return out


def looks_like_share_as_file(data: Any) -> bool:
    """True for Army Forge's 'Share as File' save: a ``list`` object or ``saveVersion`` at the top, or units that
    have ids but no Quality."""
    if not isinstance(data, dict):
        return False
    if isinstance(data.get("list"), dict) or "saveVersion" in data or "armyIds" in data:
        return True
    units = data.get("units")
    return (isinstance(units, list) and bool(units)
            and all(isinstance(u, dict) and "quality" not in u and "id" in u for u in units))


def parse_json(text: str, file: str) -> Export:
    """Read the JSON export (module doc). Raises ``ExportRefused`` with every problem, each
    ``FILE:LINE: unit N "Name": message`` (the unit's line) or ``FILE:LINE: (file): message``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExportRefused([f"{where(file, e.lineno)}: not JSON: {e.msg}"]) from None
    except (ValueError, RecursionError) as e:   # nesting too deep, a number of thousands of digits
        raise ExportRefused([f"{where(file, 1)}: cannot be read as JSON: {str(e)[:120]}"]) from None
    if not isinstance(data, dict):
        raise ExportRefused([f"{where(file, 1)}: not an Army Forge export: the JSON must be an object with "
                             "name, units..."])
    if looks_like_share_as_file(data):
        raise ExportRefused([f"{where(file, 1)}: {SHARE_AS_FILE}"])
    try:
        top = TopModel.model_validate(data)
    except ValidationError as err:
        raise ExportRefused([f"{where(file, 1)}: {m}" for m in _error_text(err)]) from None
    if len(top.units) > MAX_UNITS_PER_ARMY:
        raise ExportRefused([f"{where(file, 1)}: units: {len(top.units)} units; a list holds at most "
                             f"{MAX_UNITS_PER_ARMY}"])
    offsets = unit_offsets(text)
    problems: list[str] = []
    units: list[ExportUnit] = []
    for i, raw in enumerate(top.units, start=1):
        line = text.count("\n", 0, offsets[i - 1]) + 1 if i - 1 < len(offsets) else None
        name = raw.get("name") if isinstance(raw, dict) and isinstance(raw.get("name"), str) else None
        try:
            um = UnitModel.model_validate(raw)
        except ValidationError as err:
            problems += [f"{where(file, line, i, name)}: {m}" for m in _error_text(err)]
            continue
        unit, unit_problems = _unit(um, i, line)
        problems += [f"{unit.at(file)}: {m}" for m in unit_problems]
        units.append(unit)
    if not top.units:
        problems.append(f"{where(file, 1)}: units: the list has no units")
    if problems:
        raise ExportRefused(problems)
    return Export(file, "json", top.name, top.game_system, top.points_limit, top.list_points, units)


def _unit(um: UnitModel, index: int, line: int | None) -> tuple[ExportUnit, list[str]]:
    problems: list[str] = []
    unit = ExportUnit(index, um.custom_name or um.name, um.size, um.quality, um.defense,
                      um.cost + sum(_option_cost(su.option, um.id) for su in um.selected_upgrades if su.option), line,
                      keys=tuple(k for k in (um.selection_id, um.id) if k), combined=um.combined,
                      join_to=um.join_to_unit)
    if um.bases is not None and um.bases.square and um.bases.square.lower() != "none":
        m = _SQUARE.match(um.bases.square)
        if m is None or float(m.group(1)) <= 0 or float(m.group(2) or m.group(1)) <= 0:
            problems.append(f"bases.square: {um.bases.square!r} is not a base size in mm (20, 25x50)")
        else:
            unit.base_mm = (float(m.group(1)), float(m.group(2) or m.group(1)))
    unit.rules = [_rule(r) for r in um.rules or []]
    for w in um.loadout or []:
        if w.attacks is None:          # an item (a shield, a banner, a mount): its rules are the unit's
            if not (w.rules or w.content) or w.name.strip().lower() in COMMAND_GROUP_NAMES:
                unit.upgrades.append(w.name)
            unit.rules += [_rule(r) for r in w.rules]
            for c in w.content:
                if isinstance(c, dict) and (c.get("type") == "ArmyBookWeapon" or "attacks" in c):
                    _add_weapon(unit, c, w.count, f"loadout {w.name!r}: content", problems)
                    continue
                try:
                    unit.rules.append(_rule(RuleModel.model_validate(c)))
                except ValidationError as err:
                    problems += [f"loadout {w.name!r}: content: {m}" for m in _error_text(err)]
            continue
        if w.count < 1:
            problems.append(f"loadout {w.name!r}: count must be at least 1, got {w.count}")
            continue
        unit.weapons.append(ExportWeapon(w.name, w.count, w.range, w.attacks, tuple(_rule(r) for r in w.rules)))
    _upgrade_rules(unit, um, problems)
    if len(unit.rules) > MAX_LIST_ITEMS:
        problems.append(f"{len(unit.rules)} rules; at most {MAX_LIST_ITEMS}")
        unit.rules = []
    return unit, problems


def _option_cost(option: OptionModel, unit_id: str | None) -> int:
    """What a chosen upgrade option adds to the unit's ``cost`` (which is the unit's cost before upgrades): its
    ``costs`` entry for this unit's id when it has one, else its ``cost``."""
    for entry in option.costs:
        if isinstance(entry, dict) and entry.get("unitId") == unit_id and unit_id is not None:
            try:
                return max(0, int(_whole(entry.get("cost"))))
            except ValueError:
                break
    return option.cost


def _add_weapon(unit: ExportUnit, raw: Any, times: int, where_: str, problems: list[str]) -> None:
    """A weapon given inside an item's ``content`` (a mount's attacks), carried ``times`` times the count."""
    try:
        w = WeaponModel.model_validate(raw)
    except ValidationError as err:
        problems.extend(f"{where_}: {m}" for m in _error_text(err))
        return
    if w.attacks is None or w.count * max(times, 1) < 1:
        problems.append(f"{where_}: weapon {w.name!r} needs attacks and a count of at least 1")
        return
    unit.weapons.append(ExportWeapon(w.name, w.count * max(times, 1), w.range, w.attacks,
                                     tuple(_rule(r) for r in w.rules)))


def _upgrade_rules(unit: ExportUnit, um: UnitModel, problems: list[str]) -> None:
    """Rules a chosen upgrade gives that the loadout does not show: Army Forge lists an option whose ``gains`` are
    special rules (``type: ArmyBookRule``; a Sergeant, a Musician) only in ``selectedUpgrades``, while weapons and
    items are in the loadout too (the shape public TTS importers read; docs/formats.md "Army Forge import")."""
    have = {r.name.strip().lower() for r in unit.rules} | {u.strip().lower() for u in unit.upgrades}
    for i, su in enumerate(um.selected_upgrades, start=1):
        if su.option is None:
            continue
        for g in su.option.gains:
            if not isinstance(g, dict) or g.get("type") != "ArmyBookRule":
                continue
            try:
                rule = _rule(RuleModel.model_validate(g))
            except ValidationError as err:
                problems.extend(f"selectedUpgrades[{i}]: gains: {m}" for m in _error_text(err))
                continue
            if rule.name.strip().lower() in COMMAND_GROUP_NAMES:
                if rule.name.strip().lower() not in have:
                    unit.upgrades.append(rule.name)
            elif rule.name.strip().lower() not in have:
                unit.rules.append(rule)
            have.add(rule.name.strip().lower())


def _rule(rm: RuleModel) -> ExportRule:
    if isinstance(rm.rating, str):     # "+1", "X": keep the whole text as the name; the ruleset will not know it
        return ExportRule(f"{rm.name}({rm.rating})")
    return ExportRule(rm.name, rm.rating)
