"""The state file written by ``main.py run --state-out`` (../shared/spec.md "State file")."""

from __future__ import annotations

from typing import Any

from game.engine import magic, objectives, side_missions
from game.engine.game import Game
from game.engine.state import GameState, Objective, Unit

STATE_FORMAT = "regiments-state/1"


def state_to_dict(game: Game, seat: int | None = None) -> dict[str, Any]:
    """The JSON-ready mapping of the game's state, exactly the keys of the spec plus a few optional ones, as
    ``seat`` may see it (1 or 2; None: only what both players see): a hidden side-mission shows only to its own
    player until the game is over (game.engine.side_missions.state_dict)."""
    s = game.state
    vp = game.victory_points()
    mode = magic.mode_of(s)
    units = []
    for u in s.units.values():
        units.append({
            "id": u.id,
            "player": u.player,
            "models": u.models,
            "wounds": max(u.wounds, u.hero.wounds if u.hero_alive and u.hero is not None else 0),
            "pose": None if u.pose is None else {"x": u.pose.x, "y": u.pose.y, "facing": u.pose.facing},
            "shaken": u.shaken,
            "fleeing": u.fleeing,
            "removed": None if u.removed is None else u.removed.value,
            "engaged_with": sorted(u.engaged_with),
            **magic.state_dict(u, mode),  # optional: spell_tokens, dispel_tokens, effects
            **_rules_dict(u),  # optional: hero, embarked_in, limited_used
        })
    extra: dict[str, Any] = {}
    if mode == "pooled":
        extra["magic_pool"] = {str(p): magic.tokens_of(s, p) for p in (1, 2)}
    if s.mission is not None:   # spec "State file": present when the scenario plays a mission
        extra["mission"] = s.mission
        extra["objectives"] = [_objective_dict(s, o) for o in s.objectives]
    if s.deployment_style is not None:   # AoF:R 2.16 "Deployment Styles" (random until rolled)
        extra["deployment"] = s.deployment_style
    extra.update(game.ruleset.state_keys())   # e.g. AoF:R 2.16's round of activations
    seen = side_missions.state_dict(s, seat)
    if seen is not None:
        extra["side_missions"] = seen
    return {
        "format": STATE_FORMAT,
        "ruleset": s.ruleset,
        "round": s.round,
        "player": s.active_player,
        "phase": s.phase.value,
        "step": s.step.value,
        "pending": None if s.pending is None else s.pending.to_dict(),
        "game_over": s.game_over,
        "victory_points": {"1": vp[1], "2": vp[2]},
        "units": units,
        **extra,
    }


def _objective_dict(s: GameState, o: Objective) -> dict[str, Any]:
    """A marker as the spec writes it, ``{x, y, controller}`` (where it is now: a carried one at its carrier), plus
    ``owner`` and ``destroyed`` (Sabotage) and ``carried_by`` (Relic Hunt) when they say something."""
    x, y = objectives.position(s, o)
    out: dict[str, Any] = {"x": round(x, 6), "y": round(y, 6), "controller": o.controller}
    if o.owner is not None:
        out["owner"] = o.owner
    if o.destroyed:
        out["destroyed"] = True
    if o.carried_by is not None:
        out["carried_by"] = o.carried_by
    return out


def _rules_dict(u: Unit) -> dict[str, Any]:
    """Optional unit keys of special rules, present only when they say something: ``hero`` (a joined hero:
    ``{id, wounds, killed}``; rulebook "Hero"), ``embarked_in`` (the Transport it is inside) and ``limited_used``
    (Limited weapons used up)."""
    out: dict[str, Any] = {}
    if u.hero is not None:
        out["hero"] = {"id": u.hero.id, "wounds": u.hero.wounds, "killed": u.hero.killed}
    if u.embarked_in is not None:
        out["embarked_in"] = u.embarked_in
    if u.limited_used:
        out["limited_used"] = sorted(u.limited_used)
    return out
