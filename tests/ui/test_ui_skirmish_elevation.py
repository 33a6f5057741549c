"""The skirmish window plays elevation (AoF: Skirmish "Jumping", "Falling"; docs/rulings.md "AoF Skirmish":
elevation) with real input: the move tool counts a climb toward the move, marks a jump with its dice and odds, and
the move rolls the jump (its dice in the log)."""

from __future__ import annotations

from tests.ui.conftest import ROOT

ELEVATION = ROOT / "scenarios" / "tests" / "skirmish_elevation.yaml"


def test_dragging_off_a_roof_shows_the_jump_and_advance_rolls_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, MoveModels
    from game.engine.skirmish.loose import points_of
    d = driver_factory(start_scenario=ELEVATION, seed=3)
    d.frames(2)
    scene = d.scene
    game = scene.game
    lv = points_of(game.state, "landvogt")[0]          # on the 4.5" Granary Roof
    d.click(d.table_px(lv))
    assert game.history[-1] == Activate(1, "landvogt")
    d.drag(d.table_px(lv), d.table_px((lv[0], lv[1] - 4.0)))
    jumps = scene.tool.jumps()
    assert len(jumps) == 1 and jumps[0][1].kind == "drop" and jumps[0][1].dice == 2
    assert any("2 dice 3+ (44% to land" in line for line in scene.tool.elevation_lines())
    assert scene.tool.problem() is None and scene.actions.buttons["advance"].is_enabled
    d.frames(2)                                           # the ghost with its jump is drawn
    d.click_button(scene.actions.buttons["advance"])
    assert isinstance(game.history[-1], MoveModels)
    assert any("model 1 jumps (drop of 4.5\")" in e.text for e in game.log)
    assert any("jumps (drop of 4.5" in str(getattr(item, "text", item)) for _, item in scene.log.entries)
    assert scene.last_exception is None


def test_a_climb_counts_toward_the_advance(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.skirmish.loose import height_at, points_of
    d = driver_factory(start_scenario=ELEVATION, seed=3)
    d.frames(2)
    scene = d.scene
    game = scene.game
    sw = points_of(game.state, "swords")                  # at the foot of the 3" Rampart
    d.click(d.table_px(sw[0]))
    d.drag(d.table_px(sw[1]), d.table_px((sw[1][0], sw[1][1] + 3.5)))
    assert any("climbs 3.0\"" in line for line in scene.tool.elevation_lines())
    assert scene.tool.longest() > 6.0
    assert not scene.actions.buttons["advance"].is_enabled and scene.actions.buttons["rush"].is_enabled
    d.click_button(scene.actions.buttons["reset"])
    d.drag(d.table_px(sw[1]), d.table_px((sw[1][0], sw[1][1] + 3.0)))
    assert abs(scene.tool.longest() - 6.0) < 0.1
    d.click_button(scene.actions.buttons["rush"])
    assert all(height_at(game.state, p) == 3.0 for p in points_of(game.state, "swords"))
