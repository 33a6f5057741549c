"""Exact odds of spells aimed at a point (issue 15; game.odds.spells): rulebook "Caster(X)" (4+, +1 per boost
token), "Roll to Block" (AP), "Regeneration" (5+), "Tough(X)", "General Morale Tests"; the area of
docs/rulings.md "Spells aimed at a point". Checked by hand and against the engine casting the spell on 4000 other
dice. The table is tests/rules/test_magic_point.py's: the point (43, 22) is 1.0" from orcs-1, 2.0" from orcs-2 and
2.8" from the friendly archers-2."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine import magic
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.magic import Spell, SpellArea, SpellHits
from game.engine.morale import morale_test
from game.engine.shooting import needs_shooting_morale_test
from game.engine.special_rules import wound_capacities
from game.engine.state import GameState, make_unit
from game.odds.spells import spell_odds
from geometry.pose import Pose
from tests.rules.builders import profile
from tests.rules.test_magic_point import at, point_table


def started(state: GameState) -> Game:
    """The game at player 1's strategy step, on no dice at all (the odds may not roll the game's dice)."""
    return Game.start(state, Dice(sequence=[]))


TROLLS = profile("Trolls", quality=5, defense=4, rules=("Tough(3)", "Regeneration"), size=3, base=(40.0, 40.0))
BLAST = Spell("Blast", 1, "point", 24.0, hits=SpellHits(6, ap=1), area=SpellArea(3.0, "all"))


def test_storm_by_hand() -> None:
    """Storm: cast on 4+ (1/2); each of its 2 hits wounds Orcs (Defense 5+) on a failed block, 4/6: wounds
    1/2 x 2 x 2/3 = 2/3 on each enemy unit of the area, none on the friendly archers."""
    odds = spell_odds(started(point_table()).state, at("Storm"))
    assert odds.cast == pytest.approx(0.5)
    assert odds.affected == ("orcs-1", "orcs-2")
    assert [u.unit for u in odds.units] == ["orcs-1", "orcs-2"]
    for u in odds.units:
        assert u.wounds.mean == pytest.approx(2 / 3)
        assert u.destroyed == 0.0 and u.morale_test == 0.0


def test_boost_tokens_raise_the_casting_chance() -> None:
    from game.engine.actions import TokenSpend
    state = point_table()
    state.units["wiz-1"].spell_tokens = 2
    odds = spell_odds(started(state).state, at("Storm", boost=(TokenSpend(1, "wiz-1"),)))
    assert odds.cast == pytest.approx(4 / 6)


def test_an_illegal_point_is_refused_as_the_engine_refuses_it() -> None:
    with pytest.raises(IllegalAction, match="not on the table"):
        spell_odds(started(point_table()).state, at("Storm", (-5.0, 22.0)))


def _engine(start: Game, action, n: int) -> dict[str, tuple[np.ndarray, float, float, float]]:  # type: ignore[no-untyped-def]
    """Per affected unit: the wounds law, destroyed, morale test and failed test frequencies of the engine's own
    cast on ``n`` seeds (no dispel: the opponent has no caster in reach)."""
    out: dict[str, list] = {}
    targets = magic.cast_terms(start.state, action).targets
    for seed in range(n):
        game = start.clone()
        game.dice = Dice(seed=seed)
        events = game.apply(action)
        d = Dice(seed=10_000 + seed)
        for uid in targets:
            u = uid.id
            rec = out.setdefault(u, [np.zeros(40), 0, 0, 0])
            w = sum(e.data["wounds"] for e in events if e.kind == "wounds" and e.data["unit"] == u)
            rec[0][min(w, sum(wound_capacities(uid)))] += 1     # wounds past the last model are lost
            unit = game.state.units[u]
            rec[1] += unit.removed is not None
            if needs_shooting_morale_test(unit):
                rec[2] += 1
                rec[3] += not morale_test(d, unit, [], "test").passed
    return {u: (r[0] / n, r[1] / n, r[2] / n, r[3] / n) for u, r in out.items()}


def test_exact_area_odds_match_the_engines_own_casts() -> None:
    """Blast (6 hits AP(1), every unit within 3"): orcs-2 at 5 of 10 models (it may test morale), trolls with
    Tough(3) and Regeneration, friendly archers: each unit's wounds law, destroyed, morale test and failure within
    0.035 of the engine's frequencies over 4000 casts."""
    state = point_table(extra=(make_unit("trolls-1", 2, TROLLS, 2, Pose(44, 19.5, 180)),))
    state.magic.spells[1]["Blast"] = BLAST
    state.units["orcs-2"].models = 5
    state.units["orcs-2"].starting_models = 10
    game = started(state)
    odds = spell_odds(game.state, at("Blast"))
    assert {u.unit for u in odds.units} >= {"orcs-1", "orcs-2", "archers-2", "trolls-1"}
    freq = _engine(game, at("Blast"), 4000)
    for u in odds.units:
        law, destroyed, tests, fails = freq[u.unit]
        mean = float((np.arange(len(law)) * law).sum())
        assert u.wounds.mean == pytest.approx(mean, abs=0.08), u.unit
        assert u.destroyed == pytest.approx(destroyed, abs=0.035), u.unit
        assert u.morale_test == pytest.approx(tests, abs=0.035), u.unit
        assert u.morale_fail == pytest.approx(fails, abs=0.035), u.unit
    assert next(u for u in odds.units if u.unit == "orcs-2").morale_test > 0.1     # 5 of 10 left: it may test


def test_a_spell_without_hits_has_only_the_casting_chance() -> None:
    odds = spell_odds(started(point_table()).state, at("Gale"))
    assert odds.cast == pytest.approx(0.5) and odds.units == () and odds.affected == ("orcs-1", "orcs-2")
