"""AoF: Skirmish elevation: "Special Movement" Jumping and Falling, "Melee" 4" vertical reach, line of sight from
elevated positions (../shared/rules/aof-skirmish-quick-rules.md lines 50, 99, 127, 153, 155; docs/rulings.md
"AoF Skirmish": elevation)."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, DeclareCharge
from game.engine.errors import IllegalAction
from game.engine.profiles import Profile, Weapon
from game.engine.skirmish import attacks, elevation
from game.engine.skirmish.loose import height_at, points_of, sight, warband_of
from geometry.terrain import COVER, ELEVATED, TerrainShape, rect_to_polygon
from tests.rules.skirmish.helpers import WARRIOR, line, move, skirmish_game, unit

STRIDER = Profile("Ranger", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Knife", 1),), ("Strider",))
FLYER = Profile("Harpy", 4, 4, 25.4, 25.4, 1, 30, (Weapon("Claw", 1),), ("Flying",))


def roof(x: float, y: float, w: float, d: float, h: float, name: str = "Roof", index: int = 0,
         traits: frozenset[str] = frozenset({ELEVATED})) -> TerrainShape:
    """An elevated piece: a flat top ``h`` inches above the table."""
    return TerrainShape(index, name, rect_to_polygon(x, y, w, d), traits, h)


def _game(start, terrain, dice=(), prof=WARRIOR, n=1):
    a, b = unit("a", 1, prof, n), unit("b", 2, WARRIOR, 1)
    g = skirmish_game([(a, start), (b, [(40.0, 44.0)])], dice=dice, terrain=terrain)
    g.apply(Activate(1, "a"))
    return g


def test_a_model_inside_an_elevated_piece_stands_on_its_top():
    """Ruling: an elevated piece's top is at its height; the highest covering piece counts."""
    g = _game([(5.0, 5.0)], [roof(15, 25, 10, 10, 3), roof(15, 25, 2, 2, 5, "Tower", 1)])
    assert height_at(g.state, (15.0, 22.0)) == 3.0
    assert height_at(g.state, (15.0, 25.0)) == 5.0
    assert height_at(g.state, (5.0, 5.0)) == 0.0


def test_climbing_up_counts_toward_the_move():
    """Ruling (the document is silent; AoF:R 2.16 "Elevation"): vertical movement counts: 4" across + 3" up is 7",
    more than an Advance."""
    g = _game([(15.0, 17.5)], [roof(15, 25, 10, 10, 3)])
    with pytest.raises(IllegalAction, match="Movement: .* 7.00\" \\(climbing 3.0\" counts\\); it may move 6\""):
        g.apply(move(1, "a", "advance", [(15.0, 21.5)]))
    g.apply(move(1, "a", "advance", [(15.0, 20.5)]))      # 3" + 3" up: 6"
    assert height_at(g.state, points_of(g.state, "a")[0]) == 3.0


def test_dropping_off_3_inches_is_regular_movement():
    """Line 153: "Models may ... drop off 3" of elevation as regular movement": no dice; the 3" counts."""
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 3)])
    with pytest.raises(IllegalAction, match="would move 7.00\""):
        g.apply(move(1, "a", "advance", [(15.0, 17.0)]))
    g.apply(move(1, "a", "advance", [(15.0, 18.0)]))     # 3" across + 3" down
    assert points_of(g.state, "a") == [(15.0, 18.0)]


def test_a_drop_of_over_3_inches_is_a_jump_of_x_plus_1_dice():
    """Line 153: "they must jump to ... drop off elevation of up to 6". Roll X+1 dice, trying to score 3+, where X is
    one die for every full 3" ... If all rolls are successes, then the model may cross the distance, without
    counting it towards its move": a 4.5" drop is 2 dice; the drop does not count (5" across is an Advance)."""
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 4.5)], dice=[3, 6])
    events = g.apply(move(1, "a", "advance", [(15.0, 16.0)]))
    rolls = [e for e in events if e.kind == "roll"]
    assert rolls[0].data["dice"] == [3, 6] and rolls[0].data["need"] == 3 and "drop of 4.5" in rolls[0].text
    assert points_of(g.state, "a") == [(15.0, 16.0)]
    assert not any(e.kind == "fall" for e in events)


def test_a_6_inch_drop_rolls_3_dice_and_over_6_is_refused():
    """X is one die per full 3": a 6" drop rolls 3 dice; "drop off elevation of up to 6"" only."""
    assert elevation.jump_dice(6.0) == 3 and elevation.jump_dice(5.9) == 2 and elevation.jump_dice(1.5) == 1
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 6.5)])
    with pytest.raises(IllegalAction, match="Jumping: a drop of 6.5\""):
        g.apply(move(1, "a", "advance", [(15.0, 17.0)]))


def test_a_failed_jump_falls_takes_a_hit_with_ap_and_ends_the_activation():
    """Line 153: "If any roll is failed, then the model falls instead"; line 155: "it takes 1 hit with AP(X), where
    X is AP(1) for every full 3" it fell. Then place the model within 2" of the bottom, and its activation ends
    immediately". Dice: jump 3, 2 (fails); Defense 4 with AP(1) fails; wound effect 2 + 1 marker: Shaken."""
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 4.5)], dice=[3, 2, 4, 2])
    events = g.apply(move(1, "a", "advance", [(15.0, 16.0)]))
    texts = [e.text for e in events]
    assert any("falls 4.5\"" in t for t in texts)
    block = next(e for e in events if e.kind == "roll" and "fall" in e.text)
    assert any("AP(1)" in d for d in block.data["details"])
    p = points_of(g.state, "a")[0]
    assert height_at(g.state, p) == 0.0 and abs(p[1] - 20.0) <= elevation.FALL_PLACE + 1e-6
    assert g.state.units["a"].shaken
    assert g.state.pending.decision == "activate" and g.state.pending.player == 2     # the activation ended


def test_falling_kills_the_model_of_a_group():
    """Line 155: "For units with multiple models, falling kills the model instead, until only one last model
    remains, which falls normally"."""
    g = _game(line(14.0, 21.0, 2), [roof(15, 25, 10, 10, 4.5)], dice=[1, 6, 6, 6], n=2)
    events = g.apply(move(1, "a", "advance", [(14.0, 16.0), (15.5, 16.0)]))
    assert g.state.units["a"].models == 1
    assert any("falling model is killed" in e.text for e in events)
    assert len(warband_of(g.state).models["a"]) == 1


def test_a_1_inch_gap_is_stepped_over_and_a_wider_one_jumped():
    """Line 153: "Models may cross 1" gaps ... as regular movement, but they must jump to cross gaps ... of up to
    6"": two 4" roofs 1" apart are one walk; 2" apart, a jump of 1 die (X = 0 full 3") not counted."""
    near = [roof(10, 25, 10, 10, 4, "West"), roof(21, 25, 10, 10, 4, "East", 1)]
    g = _game([(13.0, 25.0)], near)
    report_ok = g.apply(move(1, "a", "advance", [(18.5, 25.0)]))
    assert not any(e.kind == "roll" for e in report_ok)
    wide = [roof(10, 25, 10, 10, 4, "West"), roof(22, 25, 10, 10, 4, "East", 1)]
    g = _game([(13.0, 25.0)], wide, dice=[5])
    events = g.apply(move(1, "a", "advance", [(20.0, 25.0)]))     # 7" along the path, 2" of it jumped
    roll = next(e for e in events if e.kind == "roll")
    assert "gap of 2.0" in roll.text and roll.data["dice"] == [5]
    assert height_at(g.state, points_of(g.state, "a")[0]) == 4.0


def test_strider_jumps_on_2_plus_and_flying_passes_automatically():
    """Line 127: Strider "only needs 2+ to pass jumping rolls"; line 99: Flying "automatically passes jumping
    rolls" (ruling: it flies up and down: no dice, no height counted)."""
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 4.5)], dice=[2, 2], prof=STRIDER)
    events = g.apply(move(1, "a", "advance", [(15.0, 16.0)]))
    assert not any(e.kind == "fall" for e in events)
    g = _game([(15.0, 16.0)], [roof(15, 25, 10, 10, 6.5)], prof=FLYER)
    events = g.apply(move(1, "a", "advance", [(15.0, 21.0)]))
    assert not any(e.kind == "roll" for e in events)
    assert height_at(g.state, points_of(g.state, "a")[0]) == 6.5


def test_melee_reach_is_2_inches_horizontally_and_4_vertically():
    """Line 50: "Models must strike enemies within 2" horizontally and 4" vertically"."""
    for h, strikes in ((4.0, True), (4.5, False)):
        a, b = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1)
        g = skirmish_game([(a, [(15.0, 19.2)]), (b, [(15.0, 20.5)])], terrain=[roof(15, 25, 10, 10, h)])
        assert bool(attacks.strikers(g.state, a, b)) is strikes


def test_a_charge_does_not_jump():
    """Ruling: the rules move the chargers; they climb and drop (counted) but never jump: a charger on a 5" roof
    stops at its edge, 5" above its target, and no one strikes (line 50: 4" vertically)."""
    a, b = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(15.0, 28.0)]), (b, [(15.0, 17.0)])], terrain=[roof(15, 25, 10, 10, 5)])
    g.apply(Activate(1, "a"))
    events = g.apply(DeclareCharge(1, "a", "b"))
    assert height_at(g.state, points_of(g.state, "a")[0]) == 5.0
    assert not any(e.kind == "roll" for e in events)
    assert any("4\" vertically" in e.text for e in events)


def test_elevated_ground_blocks_sight_below_its_top_and_not_from_above():
    """Ruling (the document is silent): elevated ground blocks sight between models standing lower than its top; a
    model on top sees out over the edge; a piece lower than where a model stands does not block its sight."""
    g = _game([(5.0, 5.0)], [roof(15, 25, 6, 6, 3), roof(30, 25, 4, 4, 2, "Low Wall", 1,
                                                       frozenset({ELEVATED, COVER}))])
    s = g.state
    assert not sight(s, (15.0, 20.0), (15.0, 30.0))          # both on the ground, the hill between
    assert sight(s, (15.0, 25.0), (15.0, 35.0))              # one on top
    assert sight(s, (15.0, 25.0), (40.0, 25.0))              # from 3" over a 2" piece


def test_fall_from_under_2_inches_takes_no_hit():
    """Line 155: "If a model falls or is pushed off an elevated position at least 2" tall, it takes 1 hit": a
    1.5" fall only places the model (``elevation.fall``, as Pushing will call it)."""
    g = _game([(15.0, 21.0)], [roof(15, 25, 10, 10, 1.5)])
    events = elevation.fall(g.state, g.dice, g.state.units["a"], 0, 1.5, (15.0, 19.0))
    assert [e.kind for e in events] == ["fall"]
    assert height_at(g.state, points_of(g.state, "a")[0]) == 0.0


def test_a_charge_up_onto_a_roof_counts_the_climb():
    """Ruling: the charge's climb counts toward its 12": a target 2" inside a 3" roof, 9" away on the plane, is
    reached (9" + 3" up); 1" further away it is not (10" + 3")."""
    for start, reached in ((13.0, True), (12.0, False)):
        a, b = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1)
        g = skirmish_game([(a, [(15.0, start)]), (b, [(15.0, 23.0)])], dice=[6, 1, 2],
                          terrain=[roof(15, 25, 10, 10, 3)])
        g.apply(Activate(1, "a"))
        g.apply(DeclareCharge(1, "a", "b"))
        p = points_of(g.state, "a")[0]
        assert (height_at(g.state, p) == 3.0 and abs(p[1] - 22.0) < 0.05) is reached
