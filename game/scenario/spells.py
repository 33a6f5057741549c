"""Reading a ``spells`` list of a scenario or army file (rulebook "Caster(X)"; docs/formats.md "Spells")."""

from __future__ import annotations

from typing import Any

from game.engine.magic import Spell, SpellArea, SpellHits, SpellModifier
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets import unplayable
from game.scenario.models import SpellModel
from game.scenario.validation import _validate
from game.scenario.yaml_doc import Loc, _Doc, _path, _Problem


def _read_spells(raw: list[Any], doc: _Doc, prefix: Loc, out: list[_Problem]) -> dict[str, Spell]:
    """Validate a ``spells`` list (at ``prefix``): the good spells by name. Problems go to ``out``."""
    good: dict[str, Spell] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(raw):
        loc = prefix + (i,)
        sm = _validate(SpellModel, item, doc, loc, out)
        if sm is None:
            continue
        problems: list[_Problem] = []
        if sm.name in first:
            problems.append(doc.problem(loc + ("name",), f"duplicate spell name {sm.name!r} "
                                                         f"(also {_path(prefix + (first[sm.name],))})"))
        first.setdefault(sm.name, i)
        problems += _spell_problems(sm, doc, loc)
        if problems:
            out += problems
            continue
        good[sm.name] = _spell(sm)
    return good


def _spell_problems(sm: SpellModel, doc: _Doc, loc: Loc) -> list[_Problem]:
    """What a validated spell at ``loc`` lacks or has that its target does not allow (effects, range, area)."""
    out: list[_Problem] = []
    if sm.hits is None and sm.modifier is None and sm.heal is None and not sm.rally:
        out.append(doc.problem(loc, "a spell needs at least one effect: hits, modifier, heal or rally"))
    if sm.target != "self" and sm.range is None:
        what = "a point" if sm.target == "point" else f"a unit ({sm.target})"
        out.append(doc.problem(loc, f"missing range: a spell that targets {what} needs a range in inches"))
    if sm.target == "point" and sm.area is None:
        out.append(doc.problem(loc, "missing area: a spell that targets a point needs area: {radius, affects}"))
    if sm.target != "point" and sm.area is not None:
        out.append(doc.problem(loc + ("area",), "an area needs target point"))
    affects = sm.area.affects if sm.area is not None and sm.target == "point" else None
    if sm.target == "self" and sm.range is not None:
        out.append(doc.problem(loc + ("range",), "a spell with target self has no range"))
    unknown = sm.target == "point" and affects is None    # reported as a missing area above
    if sm.hits is not None and sm.target != "enemy" and affects not in ("enemy", "all") and not unknown:
        out.append(doc.problem(loc + ("hits",), "hits need target enemy, or target point with area.affects "
                                                "enemy or all"))
    for key, present in (("heal", sm.heal is not None), ("rally", sm.rally)):
        if present and (sm.target == "enemy" or (sm.target == "point" and affects != "friend" and not unknown)):
            out.append(doc.problem(loc + (key,), f"{key} needs target friend or self, or target point with "
                                                 "area.affects friend"))
    for rid, v in sm.values.items():
        if rid not in ENGINE_RULESETS:
            out.append(doc.problem(loc + ("values", rid), f"a spell's value is given for a ruleset: {unplayable(rid)}"))
            continue
        lo, hi = getattr(ENGINE_RULESETS[rid], "spell_values", (1, 6))
        if not lo <= v <= hi:
            out.append(doc.problem(loc + ("values", rid), f"a spell's value under {rid} must be {lo} to {hi}, got {v}"))
    return out


def _spell(sm: SpellModel) -> Spell:
    """The engine's ``Spell`` of a validated spell (ranges and radii in inches)."""
    return Spell(
        name=sm.name, value=sm.value, target=sm.target,
        range=None if sm.range is None else float(sm.range),
        hits=None if sm.hits is None else SpellHits(sm.hits.count, sm.hits.ap, sm.hits.cover),
        modifier=None if sm.modifier is None else SpellModifier(sm.modifier.stat, sm.modifier.value,
                                                                sm.modifier.duration),
        heal=0 if sm.heal is None else sm.heal.wounds, rally=sm.rally, description=sm.description,
        area=None if sm.area is None else SpellArea(float(sm.area.radius), sm.area.affects),
        values=tuple(sorted(sm.values.items())))
