"""The results screen's statistics (issue 15 "The story of a battle"): the chart, the unit table, the luck and the
turning points; clicking a turning point opens the replay viewer at that action. Posted events."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from game.players import make_player
from game.record import load_record
from game.stats import record_stats
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.replay import ReplayScene
from game.ui.scenes.results import ResultsScene

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("stats-ui") / "game.yaml"
    assert main.main(["autoplay", str(SMALL), "--seed", "3", "--players", "simple", "--record", str(path)]) == 0
    return path


def open_results_from_replay(d, record_file: Path) -> ResultsScene:  # type: ignore[no-untyped-def]
    assert d.app.watch_replay(record_file)
    d.frames(2)
    viewer = d.scene
    viewer.goto(viewer.cursor.length)
    d.frames(3)
    if "results" in viewer.buttons:
        d.click_button(viewer.buttons["results"])
    else:   # the narrowest window drops the right-hand buttons of the viewer's bar
        viewer.command("results")
        d.frames(2)
    assert isinstance(d.scene, ResultsScene)
    return d.scene


@pytest.mark.parametrize("size", [(1600, 1000), (800, 560)])
def test_turning_point_click_opens_the_replay_there(driver_factory, record_file, size) -> None:  # type: ignore[no-untyped-def]
    d = driver_factory(size=size)
    results = open_results_from_replay(d, record_file)
    stats = results.stats
    assert stats is not None
    expected = record_stats(load_record(record_file))
    assert [u.to_dict() for u in stats.units] == [u.to_dict() for u in expected.units]
    assert stats.turning_points and len(results.turning_buttons) == len(stats.turning_points)
    # every widget of the screen is inside the window
    w, h = d.app.size
    for b in results.turning_buttons:
        assert b.rect.right <= w and b.rect.bottom <= h
    button, point = next((b, p) for b, p in results.turning_buttons.items() if p is stats.turning_points[-1])
    viewer = results.back
    d.click_button(button)
    assert d.scene is viewer and isinstance(viewer, ReplayScene)
    assert viewer.index == point.position
    assert viewer.game.digests == viewer.cursor.game_at(point.position).digests
    assert viewer.cursor.marks[point.action].round == point.round


def test_results_of_a_battle_played_in_the_window(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """A battle played to its end through the window: the results show its statistics, and a turning point
    opens its record (written as it was played) in the replay viewer."""
    d = driver_factory(start_scenario=SMALL, seed=3)
    d.frames(2)
    d.pass_handover()
    battle = d.scene
    assert isinstance(battle, BattleScene)
    game = battle.game
    seats = {1: make_player("simple", 3), 2: make_player("simple", 4)}
    for _ in range(2000):
        if game.pending is None:
            break
        assert battle.act(seats[game.pending.player].choose(game))
    d.frames(2)
    results = d.scene
    assert isinstance(results, ResultsScene) and results.stats is not None
    path = d.app.record_path(game)
    assert path is not None
    expected = record_stats(load_record(path))
    assert results.stats.players[1].vp == expected.players[1].vp == game.victory_points()[1]
    assert [u.kills for u in results.stats.units] == [u.kills for u in expected.units]
    if not results.stats.turning_points:
        pytest.skip("this battle has no turning point")
    button, point = next(iter(results.turning_buttons.items()))
    assert button.is_enabled
    d.click_button(button)
    viewer = d.scene
    assert isinstance(viewer, ReplayScene) and viewer.path == path
    assert viewer.index == point.position
    assert viewer.game.history == game.history[:point.position]


def test_a_game_without_a_record_lists_its_turning_points_without_offering_them(driver_factory, record_file) -> None:  # type: ignore[no-untyped-def]
    """A game that was not recorded cannot be replayed: its turning points are listed, none is a button."""
    from game.record import new_game
    from game.replay import Rewinder
    from game.ui.window import Scene

    record = load_record(record_file)
    start = new_game(record)
    game = start.clone()
    for action in record.actions:
        game.apply(action)
    d = driver_factory()
    back = Scene(d.app)
    back.rewinder = Rewinder(start)  # type: ignore[attr-defined]
    results = ResultsScene(d.app, game, back=back)
    d.app.switch(results)
    d.frames(2)
    assert results.stats is not None and results.stats.turning_points
    assert results.jump_problem is not None and "not recorded" in results.jump_problem
    assert results.turning_buttons == {}


def test_results_of_an_aofr_game_count_objective_markers(driver_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 (scenarios/aofr_border_clash.yaml): the results screen's chart counts objective markers on a
    scale of markers (not of hundreds of VP), turn by activation; the unit table has no VP columns; a turning point
    still opens the replay there. Real clicks."""
    import os

    import pygame

    from game.ui.stats_draw import table_columns

    path = tmp_path / "aofr.yaml"
    assert main.main(["autoplay", str(ROOT / "scenarios" / "aofr_border_clash.yaml"), "--seed", "4", "--players",
                      "simple", "--record", str(path)]) == 0
    d = driver_factory(size=(1600, 1000))
    results = open_results_from_replay(d, path)
    stats = results.stats
    assert stats is not None and not stats.units_score and stats.turn_word == "activation"
    keys = [k for _, k, _ in table_columns(stats, 2000)]
    assert "vp_earned" not in keys and "vp_given" not in keys and "kills" in keys
    shots = os.environ.get("FORGE_SHOTS")
    if shots:
        d.frames(2)
        pygame.image.save(d.app.screen, str(Path(shots) / "results-aofr.png"))
    assert stats.turning_points
    button, point = next(iter(results.turning_buttons.items()))
    assert "activation" in button.tool_tip_text
    d.click_button(button)
    assert isinstance(d.scene, ReplayScene) and d.scene.index == point.position
