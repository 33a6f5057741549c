"""Spells aimed at a point of the table, with fixed dice (rulebook "Caster(X)": "resolve the effect on a target in
line of sight"; docs/rulings.md "Spells aimed at a point"; game.engine.magic ``point_problem``, ``units_in_area``).

The table of tests/rules/test_magic.py (player 1's wizard ``wiz-1`` at (36, 6) facing +y, its archers at (31.5,
12), player 2's ``orcs-1`` at (40, 22)), with player 2's ``orcs-2`` at (47, 22) and player 1's ``archers-2`` at
(42, 25.6): the point (43, 22) is 1.0" from orcs-1, 2.0" from orcs-2 and 2.8" from archers-2.
"""

from __future__ import annotations

import pytest

from game.engine import magic
from game.engine.actions import CastSpell, Dispel, TablePoint, TokenSpend, action_from_dict
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.magic import Spell, SpellArea, SpellHits, SpellModifier
from game.engine.state import GameState, make_unit
from geometry.pose import Pose
from tests.rules.builders import rolls
from tests.rules.test_magic import ARCHERS, FAR, NEAR, ORCS, start, table

STORM = Spell("Storm", 1, "point", 24.0, hits=SpellHits(2), area=SpellArea(3.0, "enemy"))
QUAKE = Spell("Quake", 1, "point", 24.0, hits=SpellHits(1), area=SpellArea(3.0, "all"))
GALE = Spell("Gale", 1, "point", 24.0, modifier=SpellModifier("move", -2, "round"), area=SpellArea(3.0, "enemy"))
SALVE = Spell("Salve", 1, "point", 24.0, rally=True, area=SpellArea(3.0, "friend"))
AIM = (43.0, 22.0)


def point_table(shaman: Pose = FAR, extra: tuple = ()) -> GameState:
    """The module docstring's table, with the point spells added to both armies."""
    state = table(shaman=shaman, extra=(make_unit("orcs-2", 2, ORCS, 10, Pose(47, 22, 180)),
                                        make_unit("archers-2", 1, ARCHERS, 10, Pose(42, 25.6, 0))) + extra)
    for p in (1, 2):
        state.magic.spells[p].update({s.name: s for s in (STORM, QUAKE, GALE, SALVE)})
    return state


def at(spell: str, point: tuple[float, float] = AIM, target: str | None = None,
       boost: tuple[TokenSpend, ...] = ()) -> CastSpell:
    return CastSpell(1, "wiz-1", spell, target, boost, TablePoint(*point))


def test_every_enemy_unit_in_the_area_takes_the_hits_separately_nearest_first() -> None:
    """"All enemy units within 3\" of the point take 2 hits": orcs-1 (1.0") then orcs-2 (2.0") each roll their own
    Defense; the friendly archers-2 (2.8") are not enemies and are left alone."""
    game = start(point_table(), 5, 1, 1, 6, 6)   # cast; orcs-1 Defense 1, 1 (2 wounds); orcs-2 6, 6 (saved)
    events = game.apply(at("Storm"))
    cast = [e for e in events if e.kind == "spell" and e.data.get("cast")][0]
    assert cast.data["point"] == [43.0, 22.0] and cast.data["radius"] == 3.0
    assert cast.data["affected"] == ["orcs-1", "orcs-2"]
    defense = [e for e in rolls(events) if "Defense" in e.data["purpose"]]
    assert [e.data["dice"] for e in defense] == [[1, 1], [6, 6]]
    assert "on Orcs (orcs-1)" in defense[0].data["purpose"] and "(orcs-2)" in defense[1].data["purpose"]
    s = game.state
    assert (s.units["orcs-1"].models, s.units["orcs-2"].models, s.units["archers-2"].models) == (8, 10, 10)
    assert s.units["wiz-1"].spell_tokens == 1


def test_an_area_that_affects_all_hits_friends_too() -> None:
    """affects: all: every unit within the radius, the caster's own units included (the spell's text says so)."""
    game = start(point_table(), 6, 1, 1, 1)   # cast; one hit each: orcs-1, orcs-2, archers-2 all fail
    events = game.apply(at("Quake"))
    assert [e for e in events if e.data.get("cast")][0].data["affected"] == ["orcs-1", "orcs-2", "archers-2"]
    s = game.state
    assert (s.units["orcs-1"].models, s.units["orcs-2"].models, s.units["archers-2"].models) == (9, 9, 9)


def test_modifier_and_rally_areas() -> None:
    """A modifier goes on each unit of the area (each separately, "Rules Priority & Stacking Effects" per unit); a
    friend area rallies each Shaken friend in it."""
    state = point_table()
    state.units["archers-1"].shaken = True
    state.units["archers-2"].shaken = True     # 14" from the point: outside the area
    game = start(state, 4, 4)
    game.state.units["wiz-1"].spell_tokens = 2
    game.apply(at("Gale"))
    assert [magic.effect_value(game.state.units[u], "move") for u in ("orcs-1", "orcs-2", "archers-2")] == [-2, -2, 0]
    game.apply(at("Salve", (31.5, 12.0)))   # on archers-1
    assert not game.state.units["archers-1"].shaken and game.state.units["archers-2"].shaken


def test_a_point_with_nobody_in_the_area_is_legal_and_does_nothing() -> None:
    game = start(point_table(), 6)
    events = game.apply(at("Storm", (36.0, 16.0)))
    assert "no enemy unit within 3\"" in [e.text for e in events if e.kind == "spell"][-1]
    assert [u.models for u in game.state.units.values()] == [1, 10, 10, 1, 10, 10]


@pytest.mark.parametrize(("point", "why"), [
    ((36.0, 3.0), "has no line of sight to the point"),            # behind the wizard: in no base's front arc
    ((42.0, 22.0), "has no line of sight to the point"),           # just behind orcs-1's edge: the orcs block
    ((10.0, 10.0), "the point is 25.7\" from Wizard (wiz-1); Storm has a range of 24\""),
    ((80.0, 10.0), "the point (80.0, 10.0) is not on the table"),
])
def test_the_point_must_be_on_the_table_in_range_and_in_line_of_sight(point: tuple[float, float], why: str) -> None:
    """Rulebook "Caster(X)": a target in line of sight; range measured from the caster's unit (closest point)."""
    game = start(point_table())
    with pytest.raises(IllegalAction, match=why.replace("(", r"\(").replace(")", r"\)")) as e:
        game.apply(at("Storm", point))
    assert e.value.rule == "Caster(X)"
    assert game.state.units["wiz-1"].spell_tokens == 2 and not game.state.magic.tried   # nothing changed


def test_a_point_inside_a_unit_is_seen_through_that_unit_and_on_the_casters_own_unit() -> None:
    """The unit standing on the point does not hide it (the point is on it); the caster's own unit always sees a
    point on itself (docs/rulings.md)."""
    state = point_table()
    w = state.units["wiz-1"]
    assert magic.point_problem(state, w, STORM, (40.0, 22.0)) is None        # in orcs-1
    assert magic.point_problem(state, w, SALVE, (36.0, 6.0)) is None         # the wizard's own base


def test_a_unit_and_a_point_are_exclusive() -> None:
    """cast_spell: a point spell takes ``point``, a unit spell takes ``target``; anything else is refused."""
    game = start(point_table())
    for bad, why in [(at("Storm", target="orcs-1"), "aimed at a point of the table, not at a unit"),
                     (CastSpell(1, "wiz-1", "Storm"), "needs a point of the table"),
                     (CastSpell(1, "wiz-1", "Bolt", "orcs-1", (), TablePoint(*AIM)), "targets a unit \\(enemy\\), "
                                                                                     "not a point")]:
        with pytest.raises(IllegalAction, match=why) as e:
            game.apply(bad)
        assert e.value.rule == "Caster(X)"
    assert game.state.units["wiz-1"].spell_tokens == 2


def test_the_opponent_dispels_a_point_spell_as_any_other() -> None:
    """The shaman within 18" spends a token against the cast (-1): 4 - 1 fails; the area is untouched."""
    game = start(point_table(shaman=NEAR), 4)
    game.apply(at("Storm"))
    assert game.pending.decision == "dispel" and game.pending.player == 2
    events = game.apply(Dispel(2, (TokenSpend(1, "shaman-1"),)))
    assert "Storm fails" in [e.text for e in events]
    assert game.state.units["orcs-1"].models == 10
    game2 = start(point_table(shaman=NEAR), 6, 1, 1, 1, 1)
    game2.apply(at("Storm"))
    game2.apply(Dispel(2))
    assert game2.state.units["orcs-1"].models == 8 and game2.state.units["orcs-2"].models == 8


def test_cast_options_offer_points_on_the_aimed_units_and_they_are_legal() -> None:
    game = start(point_table())
    options = [c for c in magic.cast_options(game.state, 1) if c.spell == "Storm"]
    assert options and all(c.target is None and c.point is not None for c in options)
    for c in options:
        assert game.check_magic(c) is None
    assert ("wiz-1", "Storm") in magic.castable(game.state, 1)


def test_point_casts_round_trip_through_the_record_form() -> None:
    action = at("Storm", boost=(TokenSpend(1, "wiz-1"),))
    d = action.to_dict()
    assert d["point"] == {"x": 43.0, "y": 22.0} and "target" not in d
    assert action_from_dict(d) == action


@pytest.mark.parametrize(("point", "why"), [
    ([1, 2], "action.point: must be a mapping"),
    ({"x": 1}, "action.point.y: missing"),
    ({"x": 1, "y": "far"}, "action.point.y: must be a number of inches"),
    ({"x": 1, "y": float("nan")}, "action.point.y: must be a number of inches"),
    ({"x": 1, "y": 2, "z": 3}, "action.point.z: not a key here"),
])
def test_a_malformed_point_is_refused_naming_the_field(point: object, why: str) -> None:
    from game.engine.actions import ActionFormatError
    with pytest.raises(ActionFormatError, match=why):
        action_from_dict({"type": "cast_spell", "player": 1, "unit": "wiz-1", "spell": "Storm", "point": point})


def test_a_game_replays_a_point_cast(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same dice and actions give the same game (the record's promise)."""
    dice = [5, 1, 1, 6, 6]
    one = start(point_table(), *dice)
    one.apply(at("Storm"))
    two = Game.start(point_table(), one.dice.__class__(sequence=dice))
    two.apply(action_from_dict(at("Storm").to_dict()))
    assert [u.models for u in one.state.units.values()] == [u.models for u in two.state.units.values()]
