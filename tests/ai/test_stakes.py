"""What a unit's side stands to lose in the evaluation's points (``game.ai.stakes``): its standing and the Victory
Points it gives up (AoWFBR 1.4 "Victory Conditions": half strength or less 50% of its cost, destroyed 100% and +50
with a banner, the General +100; where only objective markers score, its standing alone), and the law of the wounds
of independent dice."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.ai.stakes import MATERIAL, SHAKEN, after_wounds, stake_table, standing, worth, wounds_law
from game.engine.state import GameState, Table, Unit
from tests.rules.aofr.helpers import unit
from tests.rules.builders import HAND_WEAPON, ORCS, profile

RIDERS = profile("Riders", quality=4, defense=4, weapons=(HAND_WEAPON,), rules=("Tough(3)",), size=5, cost=150)
LORD = profile("Lord", quality=3, defense=3, weapons=(HAND_WEAPON,), rules=("Hero", "Tough(3)"), size=1, cost=90)


def _state(*units: Unit, generals: dict[int, str | None] | None = None) -> GameState:
    return GameState("stakes", Table(), [], {u.id: u for u in units}, generals or {1: None, 2: None})


def test_half_strength_and_destruction_give_up_their_victory_points() -> None:
    """Ten orcs of 100 points with a banner: each model removed costs its standing (MATERIAL x 10); the fifth
    (half strength or less) also gives 50 points, the tenth (destroyed) the whole 100, +50 for the banner."""
    orcs = unit("o", 2, ORCS, models=10, upgrades=frozenset({"banner"}))
    table = stake_table(_state(orcs), orcs, True)
    assert len(table) == 11 and table[0] == 0.0
    assert table[4] == pytest.approx(4 * MATERIAL * 10)
    assert table[5] == pytest.approx(5 * MATERIAL * 10 + 50)
    assert table[10] == pytest.approx(MATERIAL * 100 + 100 + 50)


def test_the_general_gives_up_the_bonus_and_units_that_do_not_score_only_their_standing() -> None:
    """Rulebook "Victory Conditions": +100 for the enemy General, only when the enemy has a General of its own; where
    only objective markers score (``units_score`` False) a unit destroyed loses its standing and nothing else."""
    lord = unit("l", 2, LORD, models=1, per_row=1)
    mine = unit("g", 1, LORD, models=1, per_row=1)
    state = _state(lord, mine, generals={1: "g", 2: "l"})
    assert stake_table(state, lord, True)[-1] == pytest.approx(MATERIAL * 90 + 90 + 100)
    assert stake_table(_state(lord, generals={1: None, 2: "l"}), lord, True)[-1] == pytest.approx(MATERIAL * 90 + 90)
    assert stake_table(state, lord, False) == pytest.approx((0.0, 0.0, 0.0, MATERIAL * 90))


def test_tough_models_keep_their_wounds_until_they_fall() -> None:
    """Rulebook "Tough(X)": wounds go on the most wounded model until it is killed; 4 wounds on five Tough(3)
    riders kill one and leave one wounded; the third wound on a Tough(3) lord kills it."""
    riders = unit("r", 1, RIDERS, models=5, per_row=5)
    hit = after_wounds(riders, 4)
    assert (hit.models, hit.wounds, hit.removed) == (4, 1, None)
    lord = unit("l", 1, LORD, models=1, per_row=1)
    assert after_wounds(lord, 2).wounds == 2 and after_wounds(lord, 2).removed is None
    assert after_wounds(lord, 3).removed is not None and worth(after_wounds(lord, 3)) == 0.0
    assert after_wounds(lord, 3) is not lord and lord.models == 1        # the unit itself is unchanged


def test_a_shaken_unit_stands_for_less() -> None:
    orcs = unit("o", 2, ORCS, models=10)
    assert standing(orcs) == pytest.approx(MATERIAL * 100)
    orcs.shaken = True
    assert standing(orcs) == pytest.approx((MATERIAL - SHAKEN) * 100)


@given(st.lists(st.tuples(st.integers(0, 12), st.floats(0.0, 1.0)), max_size=4), st.integers(1, 40))
def test_the_law_of_wounds_is_a_law_and_its_mean_is_the_dice(batches: list[tuple[int, float]], cap: int) -> None:
    """The law sums to 1, never gives more than ``cap``, and without the cap its mean is the sum of dice x
    chance."""
    law = wounds_law(tuple(batches), cap)
    assert math.isclose(sum(law), 1.0, abs_tol=1e-9)
    assert len(law) <= cap + 1
    if sum(n for n, _ in batches) <= cap:
        assert math.isclose(sum(w * p for w, p in enumerate(law)), sum(n * p for n, p in batches), abs_tol=1e-9)
