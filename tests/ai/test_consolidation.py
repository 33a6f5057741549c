"""The computer opponent's consolidation moves (AoF:R 2.16 and AoWFBR 1.4 "Consolidation Moves": after the enemy
was destroyed or routed the survivor may pivot up to 180° or move up to 3"), with fixed dice.

``a`` (player 1, 10 Orcs, front edge at y 12 after its charge) charges ``b`` and routs it in the last round; an
objective marker lies ahead of it ("Seizing Objectives": a side alone within 3" at the end of the round seizes it).
"""

from __future__ import annotations

import pytest
from shapely import Point

from game.ai import SearchPlayer
from game.ai.consolidation import consolidation_candidates, marker_step
from game.ai.rollout import policy
from game.ai.search import LEVELS
from game.engine import objectives
from game.engine.actions import Activate, Consolidate, DeclareCharge, Done
from game.engine.game import Game
from game.engine.state import Objective
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import CENTRE_X, FRONT_Y


def routed(marker_y: float, controller: int | None) -> Game:
    """``a`` has routed ``b`` in round 4 of 4 and consolidates; one marker at (CENTRE_X, ``marker_y``) held by
    ``controller``; player 2's ``far`` stands far off on the right."""
    a, b = unit("a", 1), unit("b", 2, front_y=FRONT_Y + 2)
    far = unit("far", 2, front_y=44, x=66)
    game = aofr_game([a, b, far], dice=[6] * 5 + [1] * 5 + [1] * 5 + [1], round_=4)
    game.state.mission = "standard"
    game.apply(Activate(1, "a"))
    game.apply(DeclareCharge(1, "a", "b"))
    game.apply(Done(2))                                 # b declines to strike back, loses and routs
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("consolidate", "a")
    game.state.objectives = [Objective(CENTRE_X, marker_y, controller=controller)]
    return game


def seizes(game: Game, action: Consolidate | Done) -> bool:
    after = game.clone()
    after.apply(action)
    return "a" in objectives.contesting(after.state, after.state.objectives[0])[1]


@pytest.mark.parametrize("level", ["ai-easy", "ai", "ai-hard"])
def test_the_survivor_steps_within_3_inches_of_the_marker_the_enemy_holds(level: str) -> None:
    """The marker 5" ahead of ``a`` (more than the 3" seizing distance), held by player 2: a step of about 2.25"
    straight ahead, keeping the facing, brings ``a`` within 3" and it seizes the marker at the end of the round:
    the game won instead of lost. Skipping the consolidation or pivoting leaves it out of reach; every level takes
    a step that seizes."""
    game = routed(FRONT_Y + 7.0, controller=2)
    a = game.state.units["a"]
    assert game.state.scene.distance_to_point("a", Point(CENTRE_X, FRONT_Y + 7.0)) == pytest.approx(5.0)
    step = marker_step(game, a)
    assert step is not None and seizes(game, step)
    assert a.pose is not None and step.path[-1].facing == a.pose.facing
    assert 2.0 < step.path[-1].y - a.pose.y <= 3.0
    assert not seizes(game, Done(1))
    assert step in consolidation_candidates(game, a)
    chosen = SearchPlayer(3, LEVELS[level]).choose(game)
    assert isinstance(chosen, Consolidate) and seizes(game, chosen)


@pytest.mark.parametrize("marker_y, controller", [(FRONT_Y + 7.0, 1), (FRONT_Y + 10.0, 2), (FRONT_Y + 4.0, 2)])
def test_no_marker_step_where_it_is_held_alone_out_of_reach_or_already_seized(marker_y: float,
                                                                             controller: int) -> None:
    """No step toward a marker player 1 holds alone, one 8" off (3" cannot bring it within 3"), or one already
    within 3" of ``a``."""
    game = routed(marker_y, controller)
    assert marker_step(game, game.state.units["a"]) is None


def test_the_look_ahead_policy_makes_the_marker_step() -> None:
    """The search's fixed policy (``game.ai.rollout``) consolidates onto the marker too, so a charge whose
    consolidation would seize it is judged with that; without a marker within reach it skips the consolidation."""
    game = routed(FRONT_Y + 7.0, controller=2)
    assert policy(game) == marker_step(game, game.state.units["a"])
    assert policy(routed(FRONT_Y + 10.0, controller=2)) == Done(1)


def test_the_log_says_why_it_steps_to_the_marker() -> None:
    """The reason shown in the window's log names the marker step (``game.ai.explain``)."""
    from game.ai.explain import ExplainedPlayer

    game = routed(FRONT_Y + 7.0, controller=2)
    action, why = ExplainedPlayer(3, LEVELS["ai"]).choose_explained(game)
    assert action == marker_step(game, game.state.units["a"])
    assert why.startswith("steps within 3\" of an objective marker to seize or contest it (best of 3")
