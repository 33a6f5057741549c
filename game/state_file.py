"""The state file written by ``main.py run --state-out`` (../shared/spec.md "State file")."""

from __future__ import annotations

from typing import Any

from game.engine.game import Game

STATE_FORMAT = "regiments-state/1"


def state_to_dict(game: Game) -> dict[str, Any]:
    """The JSON-ready mapping of the game's state, exactly the keys of the spec plus a few optional ones."""
    s = game.state
    vp = game.victory_points()
    units = []
    for u in s.units.values():
        units.append({
            "id": u.id,
            "player": u.player,
            "models": u.models,
            "wounds": u.wounds,
            "pose": None if u.pose is None else {"x": u.pose.x, "y": u.pose.y, "facing": u.pose.facing},
            "shaken": u.shaken,
            "fleeing": u.fleeing,
            "removed": None if u.removed is None else u.removed.value,
            "engaged_with": sorted(u.engaged_with),
        })
    return {
        "format": STATE_FORMAT,
        "round": s.round,
        "player": s.active_player,
        "phase": s.phase.value,
        "step": s.step.value,
        "pending": None if s.pending is None else s.pending.to_dict(),
        "game_over": s.game_over,
        "victory_points": {"1": vp[1], "2": vp[2]},
        "units": units,
    }
