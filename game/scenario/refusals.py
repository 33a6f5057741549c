"""What a scenario of each ruleset may contain, and the refusals of what it does not play (issue 14): special
rules, upgrades, terrain traits and Elevation, start phases (``_check_ruleset_rules``), missions, optional rules,
deployment styles and side-missions (``_check_ruleset_game``), and each army as the ruleset checks it
(``_check_ruleset_armies``). ``ruleset_content``, ``profile_rule_problem``, ``rule_refusal`` and
``upgrade_problems`` are also the words of the battle set-up and of Army Forge imports."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.profiles import KNOWN_RULES, UPGRADES, VALUE_OPTIONAL, Profile, parse_rule
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets import unplayable
from game.engine.rulesets.base import ListedUnit
from game.engine.state import Phase
from game.scenario.models import ScenarioTopModel, StartModel
from game.scenario.session import _UnitEntry
from game.scenario.specs import ArmySpec
from game.scenario.validation import _field
from game.scenario.yaml_doc import Loc, _Doc, _Problem
from geometry.terrain import TerrainShape


@dataclass(frozen=True)
class RulesetContent:
    """What the profiles of a scenario under one ruleset may use (``ruleset_content``)."""

    ruleset: str
    """The ruleset's id (``aowfbr-1.4``)."""
    title: str
    """``Age of Fantasy: Regiments 2.16 (aofr-2.16)``: the name messages give."""
    special_rules: frozenset[str]
    """Special rule names (unit and weapon rules) a profile may carry."""
    upgrades: frozenset[str]
    """Command group upgrades a unit may take."""
    valueless_rules: frozenset[str] = frozenset()
    """Rules of ``profiles.VALUE_OPTIONAL`` this ruleset writes without a value (AoF:R 2.16 ``Fear``)."""
    upgrade_hints: Mapping[str, str] = field(default_factory=dict)
    """Per refused upgrade, what to write instead (AoF:R 2.16: ``musician`` -> ``banner``)."""
    rule_hints: Mapping[str, str] = field(default_factory=dict)
    """Per refused special rule, why or what to write instead (AoF:R 2.16: ``Caster`` -> ``Wizard(X)``)."""


def ruleset_content(ruleset: str) -> RulesetContent:
    """The special rules and upgrades a scenario of the playable ruleset ``ruleset`` may use: the ruleset's own
    ``special_rules`` and ``upgrades`` (``game.engine.rulesets.base.Ruleset``; None there: every one the program
    knows, ``profiles.KNOWN_RULES`` / ``UPGRADES``). The one source of what the loader accepts per ruleset
    (``_check_ruleset_rules``) and of what an Army Forge import maps onto (``game.armyforge.rulesets``). Raises
    ``ValueError`` naming the problem for a ruleset not playable (``unplayable``)."""
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        raise ValueError(unplayable(ruleset))
    rules: frozenset[str] | None = getattr(factory, "special_rules", None)
    upgrades: frozenset[str] | None = getattr(factory, "upgrades", None)
    return RulesetContent(ruleset, f"{getattr(factory, 'title', ruleset)} ({ruleset})",
                          KNOWN_RULES if rules is None else frozenset(rules),
                          UPGRADES if upgrades is None else frozenset(upgrades),
                          frozenset(getattr(factory, "valueless_rules", frozenset())),
                          dict(getattr(factory, "upgrade_hints", {})), dict(getattr(factory, "rule_hints", {})))


def _check_ruleset_rules(doc: _Doc, ruleset: str, entries: list[_UnitEntry], terrain: list[TerrainShape],
                         start_m: StartModel | None, out: list[_Problem]) -> None:
    """A unit whose profile uses a special rule (its own or a weapon's) or an upgrade, or a terrain piece with a
    trait, that the scenario's ruleset does not play is refused, naming the ruleset (issue 14;
    ``ruleset_content``, ``Ruleset.terrain_traits``)."""
    factory = ENGINE_RULESETS.get(ruleset)
    content = ruleset_content(ruleset) if factory is not None else None
    traits: frozenset[str] | None = getattr(factory, "terrain_traits", None)
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    phases: frozenset[str] | None = getattr(factory, "start_phases", None)
    if phases is None:
        phases = frozenset(p.value for p in Phase if p is not Phase.ACTIVATION)
    if start_m is not None and start_m.phase not in phases:
        out.append(doc.problem(("start", "phase"), f"{title} has no {start_m.phase} phase; a game of it may start "
                               f"in: {', '.join(sorted(phases))}"))
    if traits is not None:
        for i, piece in enumerate(terrain):
            extra = sorted(piece.traits - traits)
            if extra:
                out.append(doc.problem(("terrain", i), f"{piece.name} is {', '.join(extra)} terrain, which {title} "
                                       f"does not play here; it plays: {', '.join(sorted(traits))}"))
    for e in entries:
        loc: Loc = ("armies", e.army, "units", e.index)
        if e.profile is not None and content is not None:
            problem = profile_rule_problem(e.profile, content)
            if problem is not None:
                out.append(doc.problem(loc + ("profile",), problem))
        if content is not None:
            for message in upgrade_problems(e.spec.upgrades, content):
                out.append(doc.problem(loc + ("upgrades",), message))


def profile_rule_problem(profile: Profile, content: RulesetContent) -> str | None:
    """Why a unit of ``profile`` cannot be played under ``content``'s ruleset: its first special rule (its own or a
    weapon's) the ruleset does not play, in the words the loader refuses it with; None when it plays them all
    (issue 14; the battle set-up flags list entries with it before "Start battle")."""
    used = [(r, None) for r in profile.rules] + [(r, w.name) for w in profile.weapons for r in w.rules]
    for text, weapon in used:
        why = rule_refusal(text, content)
        if why is not None:
            where = f" (weapon {weapon})" if weapon else ""
            return f"{profile.name} has {text}{where}{why}"
    return None


def rule_refusal(text: str, content: RulesetContent) -> str | None:
    """Why the special rule ``text`` (as written: ``Fear``, ``Tough(3)``) is not played under ``content``'s ruleset,
    as the end of the loader's sentence (", a special rule ... does not have here; ..." or ": ... writes Fear,
    without a value"); None when it is played as written."""
    name, value = parse_rule(text)
    if name not in content.special_rules:
        hint = content.rule_hints.get(name)
        return (f", a special rule {content.title} does not have here" + (f" ({hint})" if hint else "") +
                f"; it plays: {', '.join(sorted(content.special_rules))}")
    if name in VALUE_OPTIONAL and (value is None) != (name in content.valueless_rules):
        how = f"{name}, without a value" if name in content.valueless_rules else f"{name}(X), with a value"
        return f": {content.title} writes {how}"
    return None


def upgrade_problems(upgrades: Iterable[str], content: RulesetContent) -> list[str]:
    """The loader's message for each of ``upgrades`` (command group upgrades of a unit) ``content``'s ruleset does
    not play, in order."""
    out = []
    for up in sorted(upgrades):
        if up not in content.upgrades:
            hint = content.upgrade_hints.get(up, "")
            out.append(f"{content.title} has no {up} upgrade here; it plays: "
                       f"{', '.join(sorted(content.upgrades)) or 'none'}" + (f" ({hint})" if hint else ""))
    return out


def _check_ruleset_game(doc: _Doc, data: Mapping[str, Any], mission: str | None, out: list[_Problem]) -> None:
    """The mission, optional rules and side-missions must be ones the scenario's ruleset plays (``Ruleset.missions``,
    ``optional_rules``, ``side_missions``): AoF:R 2.16 plays every mission but ``none`` (its mission decides the
    winner)."""
    ruleset = _field(ScenarioTopModel, data, "ruleset", "")
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        return
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    missions: frozenset[str] | None = getattr(factory, "missions", None)
    if missions is not None and (mission or "none") not in missions:     # "none": a ruleset may play no mission
        where: Loc = ("mission",) if "mission" in data else ("ruleset",)
        out.append(doc.problem(where, f"{title} is played with a mission (it decides the winner): give mission: "
                               f"{', '.join(sorted(missions))}" + (f", not {mission}" if mission else "")))
    options = data.get("options")
    if not getattr(factory, "optional_rules", True) and isinstance(options, dict):
        for key in options:
            out.append(doc.problem(("options", key), f"{title} has no such optional rule here (AoWFBR 1.4's "
                                   "optional rules are not part of it)"))
    styles: frozenset[str] | None = getattr(factory, "deployment_styles", None)
    deployment = data.get("deployment")
    if styles is not None and isinstance(deployment, str) and deployment not in styles:
        out.append(doc.problem(("deployment",), f"{title} has no {deployment} deployment here; it plays: "
                               f"{', '.join(sorted(styles))}"))
    if not getattr(factory, "side_missions", True) and data.get("side_missions") is not None:
        out.append(doc.problem(("side_missions",), f"{title} is played without side-missions here: the mission "
                               "alone decides the winner"))


def _check_ruleset_armies(doc: _Doc, data: Mapping[str, Any], armies: list[tuple[int, ArmySpec]],
                          entries: list[_UnitEntry], out: list[_Problem]) -> None:
    """Each army as the scenario's ruleset checks it (``Ruleset.army_problems``: the AoF:R quick rules' regiments,
    combined units and, with ``force_org: true``, its force organisation); ``force_org`` is refused under a
    ruleset that does not check it (``Ruleset.scenario_force_org``)."""
    ruleset = _field(ScenarioTopModel, data, "ruleset", "")
    factory = ENGINE_RULESETS.get(ruleset)
    if factory is None:
        return
    force_org = bool(_field(ScenarioTopModel, data, "force_org", False))
    title = f"{getattr(factory, 'title', ruleset)} ({ruleset})"
    if force_org and not getattr(factory, "scenario_force_org", False):
        out.append(doc.problem(("force_org",), f"{title} does not check a force organisation here: leave it out"))
        return
    spell_check: Callable[[Any], str | None] | None = getattr(factory, "spell_problem", None)
    for ai, army in armies if spell_check is not None else ():    # a spell the ruleset does not play (Skirmish)
        raw = data["armies"][ai] if isinstance(data.get("armies"), list) else {}
        listed = raw.get("spells") if isinstance(raw, dict) else None
        own = {sp.get("name") for sp in listed if isinstance(sp, dict) and isinstance(sp.get("name"), str)} \
            if isinstance(listed, list) else set()
        for name, spell in army.spells.items():
            why = spell_check(spell) if spell_check is not None else None
            if why is not None:
                out.append(doc.problem(("armies", ai, "spells" if name in own else "include"), f"{title}: {why}"))
    check = getattr(factory, "army_problems", None)
    if check is None:
        return
    for ai, army in armies:
        listed = [ListedUnit(("armies", e.army, "units", e.index), e.profile, e.spec.models,
                             e.spec.formation_per_row, e.spec.joined_by, army.cost_of(e.spec),
                             _hero_profile(army, e.spec.joined_by), e.spec.upgrades)
                  for e in entries if e.army == ai and e.profile is not None]
        points = sum(army.cost_of(u) for u in army.units if u.profile in army.profiles)   # a broken unit: refused
        for where, message in check(listed, points, force_org):
            out.append(doc.problem(where, message))


def _hero_profile(army: ArmySpec, hero_id: str | None) -> Profile | None:
    """The profile of the hero ``hero_id`` of ``army`` (None when there is none or it is broken)."""
    hero = next((u for u in army.units if u.id == hero_id), None) if hero_id is not None else None
    return army.profiles.get(hero.profile) if hero is not None else None
