"""The army rules of the Age of Fantasy: Regiments quick rules ("Preparation": "Regiments", "Combined Units",
"Force Org. (optional)") and the one hero join the ``aofr-quick`` ruleset does not play, checked when a scenario
loads (``Ruleset.army_problems``; ../shared/rules/aofr-quick-rules.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from game.engine.rulesets.base import ListedUnit, Problem

ROWS = {5: 5, 10: 5, 3: 3, 6: 3}
""""Regiments": models per row by unit size: "5 models per row with 5/10 models, and 3 models per row with 3/6"."""
MAX_COPIES = 2
""""Combined Units": "two copies of the same multi-model unit"."""
POINTS_PER_HERO = 375
""""Force Org.": "up to 1 hero per 375pts"."""
POINTS_PER_EXTRA_COPY = 750
""""Force Org.": "1+X copies of the same unit, where X is 1 per 750pts"."""
MAX_UNIT_SHARE = 35
""""Force Org.": "No single unit may be worth over 35% of total points" (percent)."""
POINTS_PER_UNIT = 150
""""Force Org.": "max. 1 unit per 150pts"."""


def army_problems(units: Sequence[ListedUnit], points: int, force_org: bool) -> list[Problem]:
    """The problems of one army under the quick rules, in file order: (where, message).

    "Regiments": a profile of several models is of 3, 5, 6 or 10 models, in rows of 3 (3/6) or 5 (5/10);
    "Combined Units": at most two copies; "Regeneration": a hero without it joining a unit with it is not played
    yet (docs/rulings.md). With
    ``force_org`` also "Force Org.": heroes, copies of the same profile, units, and no unit over 35% of
    ``points`` (the army's total)."""
    out: list[Problem] = []
    for u in units:
        out += _regiment_problems(u)
    if force_org:
        out += force_org_problems(units, points)
    return out


def force_org_words(points: int) -> str:
    """"Force Org." at ``points`` (the army's total) in words: 1 hero per 375 pts, 1 + 1 copy per 750 pts, 1 unit
    per 150 pts, no unit over 35%."""
    heroes = points // POINTS_PER_HERO
    return (f"Army's {points} pts: at most {heroes} hero{'es' if heroes != 1 else ''}, "
            f"{points // POINTS_PER_UNIT} units, "
            f"{1 + points // POINTS_PER_EXTRA_COPY} of a unit, none over {points * MAX_UNIT_SHARE // 100} pts.")


def _regiment_problems(u: ListedUnit) -> list[Problem]:
    size, name = u.profile.size, u.profile.name
    out: list[Problem] = []
    if u.joined_by is not None and u.hero is not None and u.profile.has("Regeneration") \
            and not u.hero.has("Regeneration"):
        out.append((u.where + ("joined_by",), f"the quick rules' Regeneration works for \"a unit where all models "
                    f"have this rule\": {u.hero.name} without it joining {u.profile.name} is not played yet "
                    "(aofr-quick)"))
    if size == 1:
        return out
    if size not in ROWS:
        out.append((u.where + ("profile",), f"{name} has {size} models; the quick rules' \"Regiments\" are of 3, 5, "
                    "6 or 10 models (aofr-quick)"))
        return out
    copies = u.models // size
    if copies > MAX_COPIES:
        out.append((u.where + ("models",), f"combines {copies} copies of {name}; the quick rules' \"Combined "
                    f"Units\" combine two (aofr-quick): at most {MAX_COPIES * size} models"))
    if u.per_row != ROWS[size]:
        out.append((u.where + ("per_row",), f"{name} stands {ROWS[size]} models per row (the quick rules' "
                    f"\"Regiments\", aofr-quick), not {u.per_row}"))
    return out


def force_org_problems(units: Sequence[ListedUnit], points: int) -> list[Problem]:
    """"Force Org. (optional)": "up to 1 hero per 375pts in their army, and only 1+X copies of the same unit, where X
    is 1 per 750pts in their army (combined units count as one). No single unit may be worth over 35% of total
    points, and armies may only have max. 1 unit per 150pts" for one army of ``points`` (its total), in file
    order: (where, message); a joined hero counts as a hero and as a unit (docs/rulings.md)."""
    out: list[Problem] = []
    heroes = units_seen = 0
    copies: Counter[str] = Counter()
    hero_cap, copy_cap = points // POINTS_PER_HERO, 1 + points // POINTS_PER_EXTRA_COPY
    unit_cap, cost_cap = points // POINTS_PER_UNIT, points * MAX_UNIT_SHARE / 100
    why = f"(the quick rules' \"Force Org.\" at {points} pts, aofr-quick)"
    for u in units:
        units_seen += 1
        if units_seen == unit_cap + 1:
            out.append((u.where, f"one unit too many: at most {unit_cap} units {why}"))
        if u.profile.has("Hero"):
            heroes += 1
            if heroes == hero_cap + 1:
                out.append((u.where, f"one hero too many: at most {hero_cap} {why}"))
        copies[u.profile.name] += 1
        if copies[u.profile.name] == copy_cap + 1:
            out.append((u.where + ("profile",), f"one {u.profile.name} too many: at most {copy_cap} copies of the "
                        f"same unit {why}"))
        if u.cost > cost_cap:
            out.append((u.where, f"{u.profile.name} is worth {u.cost} pts, over 35% of the army "
                        f"({cost_cap:g} pts) {why}"))
    return out


__all__ = ["army_problems", "force_org_problems", "force_org_words"]
