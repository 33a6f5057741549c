"""The window plays AoF: Skirmish (issue 18) with real input: its own battle screen draws loose models; a click
activates, a drag moves the unit as a group, Shift-drag nudges one model, the Advance button moves, a click on an
enemy charges or shoots; the deployment: edge buttons, clicks for markers and units."""

from __future__ import annotations

import pygame

from tests.ui.conftest import ROOT

PLACED = ROOT / "scenarios" / "tests" / "skirmish_placed.yaml"
CROSSROADS = ROOT / "scenarios" / "skirmish_crossroads.yaml"


def test_the_menu_offers_the_skirmish_scenarios(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    assert isinstance(d.scene, MenuScene)
    assert CROSSROADS.resolve() in {p.resolve() for p in d.scene.by_label.values()}


def test_activate_drag_the_group_nudge_a_model_and_advance(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, MoveModels
    from game.engine.skirmish.loose import points_of
    from game.ui.scenes.skirmish_battle import SkirmishBattleScene
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene)
    game = scene.game
    start = points_of(game.state, "swords")
    d.click(d.table_px(start[0]))
    assert game.history[-1] == Activate(1, "swords")
    assert scene.tool is not None and not scene.actions.buttons["advance"].is_enabled
    d.drag(d.table_px(start[1]), d.table_px((start[1][0], start[1][1] - 3)))     # the group, 3" back
    moved = scene.tool.points
    assert all(abs((b[1] - a[1]) + 3) < 0.2 and abs(b[0] - a[0]) < 0.2 for a, b in zip(start, moved, strict=True))
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    d.drag(d.table_px(moved[3]), d.table_px((moved[3][0], moved[3][1] - 0.6)))   # one model only
    pygame.key.set_mods(0)
    nudged = scene.tool.points
    assert nudged[:3] == moved[:3] and nudged[3] != moved[3]
    assert scene.tool.problem() is None and scene.actions.buttons["advance"].is_enabled
    d.click_button(scene.actions.buttons["advance"])
    last = game.history[-1]
    assert isinstance(last, MoveModels) and last.action == "advance"
    assert points_of(game.state, "swords") == [(p.x, p.y) for p in last.positions]
    assert game.pending.player == 2 and scene.last_exception is None


def test_a_move_out_of_coherency_is_shown_and_refused(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.skirmish.loose import points_of
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    start = points_of(scene.game.state, "swords")
    d.click(d.table_px(start[0]))
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    d.drag(d.table_px(start[3]), d.table_px((start[3][0] + 4, start[3][1])))
    pygame.key.set_mods(0)
    assert "coherency" in str(scene.tool.problem())
    assert any(not near for _, _, near in scene.tool.links())
    assert not scene.actions.buttons["advance"].is_enabled and not scene.actions.buttons["rush"].is_enabled
    d.key(pygame.K_RETURN)
    assert len(scene.game.history) == 1          # only the activation


def test_click_an_enemy_to_charge_and_the_defender_strikes_back(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import DeclareCharge, StrikeBack
    from game.engine.skirmish.loose import points_of
    d = driver_factory(start_scenario=PLACED, seed=3)
    d.frames(2)
    scene = d.scene
    game = scene.game
    d.click(d.table_px(points_of(game.state, "swords")[0]))
    assert "warriors" in scene._targets()
    d.click(d.table_px(points_of(game.state, "warriors")[0]))
    assert game.history[-1] == DeclareCharge(1, "swords", "warriors")
    if game.pending.decision == "strike_back":
        d.click_button(scene.actions.buttons["strike_back"])
        assert game.history[-1] == StrikeBack(2, "warriors")
    assert scene.last_exception is None and game.pending is not None


def test_deployment_with_real_input(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import ChooseDeployment, PlaceModels, PlaceObjective
    d = driver_factory(start_scenario=CROSSROADS, seed=7)
    d.frames(2)
    scene = d.scene
    game = scene.game
    assert game.pending.decision == "choose_deployment"
    d.click_button(scene.actions.buttons["edge:south"])
    assert game.history[-1] == ChooseDeployment(1, 1, "south")
    for pt in [(24, 30), (12, 20), (36, 20), (24, 18), (8, 28)]:
        if game.pending.decision != "place_objective":
            break
        d.click(d.table_px(pt))
        assert isinstance(game.history[-1], PlaceObjective)
    assert game.pending.decision == "deploy"
    d.click(d.table_px((20, 4)))
    assert isinstance(game.history[-1], PlaceModels) and game.history[-1].unit == "landvogt"


def _watch_a_played_record(driver_factory, tmp_path):  # type: ignore[no-untyped-def]
    """A game of the placed test scenario played out by random players, saved and opened in the replay viewer:
    (driver, scene, the game played)."""
    from game.autoplay import play_out
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.saves import save_game
    from game.scenario import load_scenario, new_game_state
    game = Game.start(new_game_state(load_scenario(PLACED)), Dice(seed=2))
    play_out(game, 2)
    path = tmp_path / "g.yaml"
    save_game(game, PLACED, path)
    d = driver_factory(seed=1)
    d.frames(2)
    assert d.app.watch_replay(path) is True
    return d, d.scene, game


def test_the_replay_viewer_steps_through_a_skirmish_record(driver_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A skirmish record is watched in the skirmish battle screen: Right steps on, End goes to the last position,
    the models stand where the record put them; nothing can be played there."""
    from game.engine.skirmish.loose import points_of
    from game.ui.scenes.skirmish_replay import SkirmishReplayScene
    d, scene, game = _watch_a_played_record(driver_factory, tmp_path)
    assert isinstance(scene, SkirmishReplayScene) and scene.index == 0
    d.key(pygame.K_RIGHT)
    assert scene.index == 1
    d.click_button(scene.buttons["end"])
    assert scene.index == scene.cursor.length == len(game.history)
    assert points_of(scene.game.state, "swords") == points_of(game.state, "swords")
    assert scene.game.state.game_over and len(scene.cursor.record.actions) == len(game.history)


def test_the_skirmish_lesson_with_real_input(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Lesson 14 teaches what differs: a wrong unit is taken back with the hint, the group drag into the goal is
    accepted and the lesson moves on."""
    from game.engine.skirmish.loose import points_of
    from game.ui.scenes.lesson import start_lesson
    from game.ui.scenes.skirmish_lesson import SkirmishLessonScene
    d = driver_factory(seed=1)
    d.frames(2)
    assert start_lesson(d.app, str(ROOT / "scenarios" / "lessons" / "16_skirmish.yaml"))
    scene = d.scene
    assert isinstance(scene, SkirmishLessonScene)
    run = scene.run
    d.click(d.table_px(points_of(scene.game.state, "crossbows")[0]))     # not the unit the step asks for
    assert run.step.id == "activate" and not scene.game.history
    d.click(d.table_px(points_of(scene.game.state, "swords")[0]))
    assert run.step.id == "group-move"
    start = points_of(scene.game.state, "swords")
    d.drag(d.table_px(start[1]), d.table_px((start[1][0], start[1][1] + 5.8)))   # within 6" after pixel rounding
    d.click_button(scene.actions.buttons["advance"])
    assert run.step.id == "activate-crossbows" and scene.last_exception is None
    assert abs(scene.game.state.units["swords"].pose.y - 16) < 1


def test_set_aside_for_ambush_and_place_it_in_round_2(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Ambush in the window: the Set aside button during deployment, then from round 2 a click over 9" from the
    enemy places the unit (or Keep waiting)."""
    import random

    from game import skirmish_play
    from game.engine.actions import PlaceModels, SetAside
    d = driver_factory(start_scenario=ROOT / "scenarios" / "skirmish_burnt_village.yaml", seed=41)
    d.frames(2)
    scene = d.scene
    game = scene.game
    rng = random.Random(4)
    while not (game.pending.decision == "deploy" and "goblins" in game.pending.options):
        scene.act(skirmish_play.choose(game, rng, simple=True))
    d.frames(1)
    scene.deploy_unit = "goblins"
    scene._refresh()
    d.click_button(scene.actions.buttons["set_aside:Ambush"])
    assert game.history[-1] == SetAside(2, "goblins", "Ambush")
    while game.pending.decision != "ambush":
        scene.act(skirmish_play.choose(game, rng, simple=True))
    d.frames(2)
    assert "done" in scene.actions.buttons and scene.deploy_unit == "goblins"
    from game.engine.skirmish.loose import centre, unit_gap
    spots = [a for a in (skirmish_play._ambush(game, 2, ["goblins"], rng, None) for _ in range(8))
             if isinstance(a, PlaceModels)]
    assert spots
    at = centre([(p.x, p.y) for p in spots[0].positions])      # the ghost is centred on the mouse
    d.click(d.table_px(at))
    last = game.history[-1]
    assert isinstance(last, PlaceModels) and last.unit == "goblins" and scene.last_exception is None
    goblins = game.state.units["goblins"]
    assert goblins.on_table and all(unit_gap(game.state, goblins, e) > 9 for e in game.state.enemies_of(2))


def test_the_skirmish_replay_log_follows_back_and_jumps(driver_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Back and Start show the log up to the position shown (not the later steps again) and the dice of the last
    roll at or before it, as the regiments replay does (game.ui.event_feed)."""
    from game.ui.event_feed import rolls_before
    d, scene, _ = _watch_a_played_record(driver_factory, tmp_path)
    for _ in range(8):
        d.key(pygame.K_RIGHT, frames=1)
    d.key(pygame.K_LEFT)
    assert scene.index == 7
    assert list(scene.feed.lines) == list(scene.cursor.game_at(7).log)
    assert scene.feed.rolls == rolls_before(scene.cursor, 7, scene.game.log)
    d.key(pygame.K_HOME)
    assert scene.index == 0 and list(scene.feed.lines) == list(scene.cursor.game_at(0).log)


def test_the_skirmish_replay_has_the_regiments_timeline(driver_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The skirmish viewer shows the same controls and timeline as the regiments' (game.ui.replay_controls): a
    click on the timeline goes to the position under it, a drag scrubs, a marker click goes to its event, Play
    plays on and pauses, Step and Back step, the Round buttons jump; the log and dice follow the position."""
    from game.ui.event_feed import rolls_before
    from game.ui.replay_controls import Timeline
    d, scene, game = _watch_a_played_record(driver_factory, tmp_path)
    cursor = scene.cursor
    tl = scene.timeline
    assert isinstance(tl, Timeline) and scene.actions is None
    assert {"start", "back", "play", "forward", "end", "slower", "faster", "prev_event", "next_event",
            "menu", "round:1", "player:1"} <= set(scene.buttons)
    assert not tl.rect.colliderect(scene.view.rect) and tl.rect.right <= scene.card.panel.rect.left
    # a click halfway along the bar: that position, its game, its log and dice
    d.click((tl.x_of(cursor.length // 2), tl.bar.centery))
    half = scene.index
    assert abs(half - cursor.length // 2) <= 1
    assert scene.game.digests == cursor.game_at(half).digests
    d.frames(12)        # the log is rebuilt a moment after a jump
    assert list(scene.feed.lines) == list(cursor.game_at(half).log)
    assert scene.feed.rolls == rolls_before(cursor, half, scene.game.log)
    # a drag along the bar scrubs through the positions
    d.drag((tl.x_of(2), tl.bar.centery), (tl.x_of(cursor.length - 3), tl.bar.centery))
    assert abs(scene.index - (cursor.length - 3)) <= 1
    # a marker: its event's position
    assert cursor.timeline, "the played record has charges or models knocked out"
    rect, entry = tl.hits[0]
    d.click(rect.center)
    assert scene.index == entry.index
    # Step and Back, then the Round 2 jump
    here = scene.index
    d.click_button(scene.buttons["forward"] if here < cursor.length else scene.buttons["back"])
    assert abs(scene.index - here) == 1
    d.click_button(scene.buttons["back"])
    assert scene.index == here - (0 if here < cursor.length else 2)
    d.click_button(scene.buttons["round:2"])
    assert scene.index == cursor.find(2) and scene.game.state.round == 2
    assert "round 2" in scene.hud.title.text
    # play on (at the fastest speed) to the end, where playing stops and Results opens the results
    for _ in range(7):
        d.key(pygame.K_PLUS, frames=1)
    assert "32" in scene.speed_label.text
    d.click_button(scene.buttons["play"])
    assert scene.playing
    d.frames(int(60 * (cursor.length / 32)) + 30)
    assert scene.index == cursor.length and not scene.playing and scene.game.state.game_over
    assert scene.game.digests == game.digests
    from game.ui.scenes.results import ResultsScene
    d.click_button(scene.buttons["results"])
    assert isinstance(d.scene, ResultsScene)


def test_a_skirmish_turning_point_opens_the_skirmish_replay(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """A skirmish played to its end in the window: a turning point on its results opens the record in the skirmish
    viewer (loose models, the shared timeline) at that position, not in the regiments' viewer."""
    import random

    from game import skirmish_play
    from game.ui.scenes.results import ResultsScene
    from game.ui.scenes.skirmish_replay import SkirmishReplayScene
    d = driver_factory(start_scenario=CROSSROADS, seed=5)
    d.frames(2)
    game = d.scene.game
    rng = random.Random(7)
    for _ in range(3000):
        if game.pending is None:
            break
        assert d.scene.act(skirmish_play.choose(game, rng, simple=True))
    d.frames(3)
    results = d.scene
    assert isinstance(results, ResultsScene) and results.stats is not None
    assert results.stats.turning_points, "the seeded game has turning points"
    button, point = next(iter(results.turning_buttons.items()))
    d.click_button(button)
    viewer = d.scene
    assert isinstance(viewer, SkirmishReplayScene) and viewer.timeline is not None
    assert viewer.index == point.position and viewer.game.history == game.history[:point.position]


def test_the_table_edges_take_the_colours_of_the_edges_chosen(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Before the edge is chosen neither edge is coloured; once the winner of the roll-off picks the north edge
    (a real click on its button), the north edge is drawn in their colour and the south in the other's."""
    from game.engine.skirmish.loose import warband_of
    from game.ui import palette
    d = driver_factory(start_scenario=CROSSROADS, seed=5)
    d.frames(2)
    scene = d.scene
    p = scene.game.pending
    assert p.decision == "choose_deployment" and scene.static.home is None
    d.click_button(scene.actions.buttons["edge:north"])
    edges = warband_of(scene.game.state).edges
    assert edges[p.player] == "north"
    assert scene.static.home == edges[1]
    d.frames(2)
    table = scene.view.table_rect
    layer = pygame.Surface(d.app.size)          # the table layer alone (the zones are tinted over it)
    scene.static.draw(layer, scene.view)
    top = layer.get_at((table.centerx, table.top + 1))[:3]
    bottom = layer.get_at((table.centerx, table.bottom - 2))[:3]
    other = 3 - p.player
    assert tuple(top) == palette.PLAYER[p.player] and tuple(bottom) == palette.PLAYER[other]
