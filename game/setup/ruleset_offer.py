"""What the battle set-up offers under each ruleset: the one place the set-up asks the engine (issue 14).

A battle is set up under one playable ruleset (``game.engine.rulesets.RULESETS``; the scenario's ``ruleset``). What
it may contain follows from that ruleset's class, the same attributes the scenario loader checks a file against
(``game.scenario``: ``missions``, ``optional_rules``, ``deployment_styles``, ``side_missions``, ``terrain_traits``,
``special_rules``/``upgrades`` through ``ruleset_content``), so a set-up never offers what the loader would refuse
and a ruleset added to ``RULESETS`` is offered with no change here:

- ``offer(ruleset_id)``: the missions, optional rules, deployment styles, side-missions, terrain kinds, army
  building limits and words (how the battle is won, who plays first, the game size its book recommends);
- ``list_problems(lst, ruleset_id)``: each list entry using a special rule or upgrade the ruleset does not play,
  with the loader's message (``game.scenario.profile_rule_problem``, ``upgrade_problems``);
- ``fit_terrain(pieces, ruleset_id)``: the table with every piece of a terrain kind the ruleset does not play
  turned into the look-alike kind it plays (``LOOKALIKE``; docs/rulings.md "Set-up and deployment").

No pygame here: the set-up scenes show it (``game.ui.scenes.setup_*``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from game.engine.deployment_styles import ALL_STYLES
from game.engine.objectives import MISSIONS
from game.engine.profiles import Profile
from game.engine.rulesets import DEFAULT, PLANNED, RULESETS, unplayable
from game.engine.rulesets.base import ListedUnit, Ruleset
from game.scenario import (
    OPTION_DEFAULTS,
    RulesetContent,
    profile_rule_problem,
    rule_refusal,
    ruleset_content,
    upgrade_problems,
)
from game.setup.army_list import ArmyList
from game.setup.terrain_gen import TerrainPieceSpec
from game.terrain_kinds import KIND_TRAITS, KNOWN_TRAITS

MISSION_KEYS: tuple[str, ...] = ("none", *MISSIONS, "random")
"""Every scenario ``mission`` value the set-up may offer, in the order shown (``none``: no mission)."""

LOOKALIKE: dict[str, tuple[str, ...]] = {
    "hill": ("field", "rubble"),
    "ruins": ("rubble", "barricade"),
    "river": ("lake", "swamp"),
    "mountain": ("building",),
    "building": ("mountain",),
    "lava": ("swamp",),
    "forest": ("field",),
    "field": ("rubble",),
    "swamp": ("lake",),
    "lake": ("swamp",),
}
"""Kinds a piece of a kind the ruleset does not play becomes, first played one wins (a hill: the "hills or fields"
of AoF:R 2.16 "Terrain Selection"; ruins: rubble; a river: a lake); any other kind falls back to ``open``."""


@dataclass(frozen=True)
class RulesetOffer:
    """What a battle under one ruleset may contain, as the set-up offers it."""

    id: str
    """The ruleset's id (``aowfbr-1.4``)."""
    title: str
    """Its book's name (``Age of Fantasy: Regiments 2.16``)."""
    short_title: str
    """The name players abbreviate it to (``AoF:R 2.16``; its ``title`` when it has none)."""
    missions: tuple[str, ...]
    """Scenario ``mission`` values offered (``MISSION_KEYS`` order; ``none``: no mission), the first the default."""
    options: tuple[str, ...]
    """Optional rules offered (``game.scenario.OPTION_DEFAULTS`` keys that are switches)."""
    deployments: tuple[str, ...]
    """Deployment styles offered (``deployment_styles.ALL_STYLES`` order), the first the default."""
    side_missions: bool
    """Whether side-missions are offered."""
    kinds: tuple[str, ...]
    """Terrain kinds whose default traits the ruleset plays (``game.terrain_kinds.KIND_TRAITS`` order)."""
    traits: frozenset[str]
    """Terrain traits the ruleset plays."""
    content: RulesetContent
    """Special rules and upgrades a list may use (``game.scenario.ruleset_content``)."""
    force_org: bool
    """Whether optional army-building limits are offered: AoWFBR's "Force Organisation (Optional)", or the
    ruleset's own (``own_force_org``)."""
    own_force_org: bool
    """The limits offered are the ruleset's own (``Ruleset.scenario_force_org``: the AoF:R quick rules' "Force
    Org."), checked by the ruleset (``force_org_problems``) and written into the scenario as ``force_org: true``;
    False: AoWFBR's (``game.setup.army_list.validate``)."""
    points_guideline: str
    """The game size its book recommends, in words."""
    score_words: tuple[str, str]
    """What decides the winner, in full and short (``victory points``, ``VP``)."""
    mission_text: str | None
    """How its mission is won, where it differs from the mission's own summary (AoWFBR's victory points)."""
    first_turn_text: str
    """Who plays first once the armies are deployed, in words."""
    morale_words: str
    """Its morale states by its book's names, e.g. ``Wavering, Rout``."""


def playable() -> list[str]:
    """Every playable ruleset's id, the default (AoWFBR 1.4) first, then by id (``offer`` tells the rest)."""
    return sorted(RULESETS, key=lambda r: (r != DEFAULT, r))


def setup_refusal(ruleset_id: str) -> str | None:
    """Why the battle set-up cannot build a battle of the playable ruleset ``ruleset_id`` (``Ruleset.setup_refusal``:
    AoF: Skirmish's loose models), or None."""
    return getattr(RULESETS[ruleset_id], "setup_refusal", None)


def planned() -> list[tuple[str, str, str]]:
    """Rulesets known by name but not playable yet, as (id, title, why), by id."""
    return [(r, title, unplayable(r)) for r, title in sorted(PLANNED.items()) if r not in RULESETS]


def offer(ruleset_id: str) -> RulesetOffer:
    """What a battle under ``ruleset_id`` may contain. Raises ``ValueError`` naming the problem for a ruleset that
    is not playable (``game.engine.rulesets.unplayable``)."""
    factory = RULESETS.get(ruleset_id)
    if factory is None:
        raise ValueError(unplayable(ruleset_id))
    missions: frozenset[str] | None = getattr(factory, "missions", None)
    styles: frozenset[str] | None = getattr(factory, "deployment_styles", None)
    traits: frozenset[str] | None = getattr(factory, "terrain_traits", None)
    played = KNOWN_TRAITS if traits is None else frozenset(traits)
    options = tuple(k for k, v in OPTION_DEFAULTS.items() if isinstance(v, bool)) \
        if getattr(factory, "optional_rules", True) else ()
    states = getattr(factory, "morale_states", {}) or {}
    own_force_org = bool(getattr(factory, "scenario_force_org", False))
    return RulesetOffer(
        id=ruleset_id,
        title=str(getattr(factory, "title", ruleset_id)),
        # the class's own: a ruleset subclassing another (its title changed) must not show the other's short title
        short_title=str(vars(factory).get("short_title", "") or getattr(factory, "title", ruleset_id)),
        missions=tuple(m for m in MISSION_KEYS if missions is None or m in missions),
        options=options,
        deployments=tuple(d for d in ALL_STYLES if styles is None or d in styles),
        side_missions=bool(getattr(factory, "side_missions", True)),
        kinds=tuple(k for k, t in KIND_TRAITS.items() if k != "open" and t <= played),
        traits=played,
        content=ruleset_content(ruleset_id),
        force_org=bool(getattr(factory, "force_org", True)) or own_force_org,
        own_force_org=own_force_org,
        points_guideline=str(getattr(factory, "points_guideline", "")),
        score_words=tuple(getattr(factory, "score_words", ("victory points", "VP"))),
        mission_text=getattr(factory, "mission_text", None),
        first_turn_text=str(getattr(factory, "first_turn_text", "")),
        morale_words=", ".join(str(v) for v in states.values()),
    )


def list_problems(lst: ArmyList, ruleset_id: str) -> list[str]:
    """What in ``lst`` the ruleset ``ruleset_id`` does not play, each in the scenario loader's words: a unit (or
    the hero joined to it) with a special rule the ruleset does not have, an upgrade it does not play. One line per
    profile and per upgrade, in list order; [] when the ruleset plays everything in it. Raises ``ValueError`` for a
    ruleset that is not playable."""
    content = ruleset_content(ruleset_id)
    out: list[str] = []
    for e in lst.entries:
        for name in (e.profile, e.hero):
            prof = lst.army.profiles.get(name) if name is not None else None
            problem = profile_rule_problem(prof, content) if prof is not None else None
            if problem is not None and problem not in out:
                out.append(problem)
        for problem in upgrade_problems(e.upgrades, content):
            if problem not in out:
                out.append(problem)
    return out


def force_org_problems(lst: ArmyList, ruleset_id: str) -> list[str]:
    """The ruleset's own force organisation (``RulesetOffer.own_force_org``) for ``lst``, in the scenario loader's
    words, at the list's total (``points_used``: the loader counts the army's points): each entry as a unit, its
    joined hero as another (as the written scenario has them). [] for a ruleset without one of its own. Raises
    ``ValueError`` for a ruleset that is not playable."""
    factory = RULESETS.get(ruleset_id)
    if factory is None:
        raise ValueError(unplayable(ruleset_id))
    if not getattr(factory, "scenario_force_org", False):
        return []
    listed: list[ListedUnit] = []
    for i, e in enumerate(lst.entries):
        prof = lst.army.profiles.get(e.profile)
        hero = lst.army.profiles.get(e.hero) if e.hero is not None else None
        if prof is not None:
            listed.append(ListedUnit(("entries", i), prof, lst.models(e), prof.size, e.hero_id, lst.unit_cost(e),
                                     hero))
        if hero is not None:
            listed.append(ListedUnit(("entries", i, "hero"), hero, 1, 1, None, lst.hero_cost(e)))
    rules = cast("type[Ruleset]", factory)      # RULESETS holds Ruleset classes, typed as factories
    return [message for _, message in rules.force_org_problems(listed, lst.points_used)]


def force_org_words(points: int, ruleset_id: str) -> str | None:
    """The ruleset's own force organisation at ``points`` in words, or None when it has none of its own (the
    set-up shows AoWFBR's). Raises ``ValueError`` for a ruleset that is not playable."""
    factory = RULESETS.get(ruleset_id)
    if factory is None:
        raise ValueError(unplayable(ruleset_id))
    rules = cast("type[Ruleset]", factory)
    return rules.force_org_words(points) if rules.scenario_force_org else None


def rules_not_played(profile: Profile, ruleset_id: str) -> list[str]:
    """The special rules of ``profile`` (its own, then its weapons', as written) that ``ruleset_id`` does not play,
    or does not play as written (a value where the ruleset writes none, AoF:R 2.16 ``Fear``; or the other way
    round: ``RulesetContent.valueless_rules``), without repeats; [] when it plays them all (the set-up's unit
    cards). Raises ``ValueError`` for a ruleset that is not playable."""
    content = ruleset_content(ruleset_id)
    used = [*profile.rules, *(r for w in profile.weapons for r in w.rules)]
    return list(dict.fromkeys(r for r in used if rule_refusal(r, content) is not None))


def fit_kind(kind: str, kinds: Sequence[str]) -> str:
    """``kind`` if it is one of ``kinds``, else its first look-alike that is (``LOOKALIKE``), else ``open``."""
    if kind in kinds:
        return kind
    return next((k for k in LOOKALIKE.get(kind, ()) if k in kinds), "open")


def fit_terrain(pieces: Sequence[TerrainPieceSpec], ruleset_id: str
                ) -> tuple[list[TerrainPieceSpec], list[str]]:
    """The table with every piece the ruleset cannot play (a trait it does not play) made playable: a piece of a
    kind it does not play becomes its look-alike (``fit_kind``, keeping its outline and, unless it was named after
    its kind, its name); a piece with its own traits keeps those the ruleset plays. Returns the pieces and what was
    changed, in words (one line per kind). Raises ``ValueError`` for a ruleset that is not playable."""
    o = offer(ruleset_id)
    out: list[TerrainPieceSpec] = []
    changed: dict[tuple[str, str], int] = {}
    for p in pieces:
        if p.traits <= o.traits:
            out.append(p)
            continue
        if p.traits != KIND_TRAITS.get(p.kind):
            out.append(dataclasses.replace(p, traits=frozenset(p.traits & o.traits)))
            changed[(p.name, "its " + ", ".join(sorted(p.traits - o.traits)) + " trait removed")] = 1
            continue
        new = fit_kind(p.kind, o.kinds)
        name = p.name
        if name.split(" ")[0].lower() == p.kind:
            name = new.capitalize() + name[len(p.kind):]
        out.append(dataclasses.replace(p, kind=new, traits=KIND_TRAITS[new], name=name, height=None))
        changed[(p.kind, new)] = changed.get((p.kind, new), 0) + 1
    notes = []
    for (old, new), n in changed.items():
        if new.startswith("its "):
            notes.append(f"{old}: {new}")
        else:
            notes.append(f"{n} {old}{'s' if n > 1 else ''} became {new}{'s' if n > 1 else ''}")
    if notes:
        notes[0] = f"{o.title} does not play {_missing(pieces, o.traits)} terrain: " + notes[0]
    return out, notes


def _missing(pieces: Sequence[TerrainPieceSpec], traits: frozenset[str]) -> str:
    missing = sorted({t for p in pieces for t in p.traits} - traits)
    return ", ".join(t.replace("_", " ") for t in missing)


__all__ = ["LOOKALIKE", "MISSION_KEYS", "RulesetOffer", "fit_kind", "fit_terrain", "force_org_problems",
           "force_org_words", "list_problems", "offer", "planned", "playable", "rules_not_played", "setup_refusal"]
