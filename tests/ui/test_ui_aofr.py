"""The window plays AoF:R 2.16 (issue 14): the battle screen asks the engine for the pending decision of an activation
and answers it with real input: a click on a unit activates it, a click on an enemy charges it, the charged player's
Strike back button, a drag moves, Space stays idle."""

from __future__ import annotations

import pygame

from tests.ui.conftest import ROOT

AOFR = ROOT / "scenarios" / "aofr_border_clash.yaml"
SKIRMISH = ROOT / "scenarios" / "tests" / "aofr_skirmish.yaml"


def test_the_menu_offers_the_aofr_scenario(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.decisions import window_refusal
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene)
    assert AOFR.resolve() in {p.resolve() for p in menu.by_label.values()}
    assert window_refusal("aofr-2.16") is None


def test_activate_charge_strike_back_and_stay_idle_with_real_input(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, DeclareCharge, Done, StrikeBack
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory(start_scenario=SKIRMISH, seed=3)
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    game = scene.game
    assert game.pending is not None and game.pending.decision == "activate"
    assert scene.actors == {"swords-1", "archers-1"}
    swords = game.state.units["swords-1"]
    assert swords.pose is not None
    d.click(d.table_px(swords.pose.xy))                      # activate the swordsmen
    assert game.history[-1] == Activate(1, "swords-1")
    assert game.pending is not None and (game.pending.decision, game.pending.unit) == ("action", "swords-1")
    assert "Stay idle" in [b.text for b in scene.actions.buttons.values()][-1] or "done" in scene.actions.buttons
    warriors = game.state.units["warriors-1"]
    assert warriors.pose is not None
    d.click(d.table_px(warriors.pose.xy))                    # charge them
    assert game.history[-1] == DeclareCharge(1, "swords-1", "warriors-1")
    assert game.pending is not None and game.pending.decision == "strike_back"
    assert isinstance(d.scene, HandoverScene) and d.scene.player == 2
    d.pass_handover()
    d.click_button(d.scene.actions.buttons["strike_back"])
    assert game.history[-1] == StrikeBack(2, "warriors-1")
    assert any(e.kind == "melee" and "scores" in e.data for e in game.log)
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "activate")
    archers = game.state.units["archers-2"]
    assert archers.pose is not None
    d.click(d.table_px(archers.pose.xy))                     # player 2 activates its archers and stays idle
    assert game.history[-1] == Activate(2, "archers-2")
    d.key(pygame.K_SPACE)
    assert game.history[-1] == Done(2)
    assert game.pending is not None and game.pending.player == 1
    own = game.state.units["archers-1"]
    assert own.pose is not None
    d.pass_handover() if isinstance(d.scene, HandoverScene) else None
    d.click(d.table_px(own.pose.xy))                         # player 1 activates its archers
    assert game.history[-1] == Activate(1, "archers-1")
    start = own.pose
    d.drag(d.table_px(start.xy), d.table_px((start.x, start.y + 3.0)))
    d.key(pygame.K_RETURN)                                   # confirm: an Advance
    move = game.history[-1]
    assert move.type == "move" and move.unit == "archers-1" and move.action == "advance"  # type: ignore[attr-defined]
    assert own.pose is not None and own.pose.y > start.y + 2.0


def test_a_ruleset_asking_decisions_the_window_cannot_answer_is_refused(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Everything offered works: a ruleset whose decisions the battle screen has no way to answer is not offered
    (``decisions.window_refusal``: the menu's list, start, resume and replay)."""
    from game.engine import rulesets
    from game.engine.rulesets.aofr import AoFR216
    from game.ui.decisions import window_refusal

    class Future(AoFR216):
        id = "future-1"
        title = "A Future Game"
        decisions = AoFR216.decisions | {"bid_initiative"}   # type: ignore[operator]

    monkeypatch.setitem(rulesets.RULESETS, "future-1", Future)
    why = window_refusal("future-1")
    assert why is not None and "A Future Game (future-1) cannot be played in the window yet" in why
    assert "bid_initiative" in why


def test_only_the_deployment_choices_the_ruleset_allows_are_offered(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "Deploying Armies": the roll-off winner deploys first, so the buttons offer only that (asked of
    the engine: ``check_deploy``); the objective placement tells the AoF:R mission's winner, not victory points."""
    import random

    from game.autoplay import RandomPlayer
    from game.ui import describe
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory(start_scenario=AOFR, seed=4)
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    game = d.scene.game
    assert game.pending is not None
    player = RandomPlayer(random.Random(1))
    while game.pending.decision != "choose_deployment":
        if game.pending.decision == "place_objective":
            text = describe.instruction(game.state, game.pending)
            assert "controls most markers wins" in text and "VP" not in text
        game.apply(player.choose(game))
        d.frames(2)
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    p = game.pending.player
    keys = [k for k in d.scene.actions.buttons if k.startswith("deployment:")]
    assert keys and all(k.endswith(f":{p}") for k in keys)
    d.click_button(d.scene.actions.buttons[keys[0]])
    assert game.history[-1].type == "choose_deployment" and game.pending.decision == "deploy"


def test_the_results_of_an_aofr_game_count_objective_markers_not_victory_points(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "Mission": the player that controls most markers wins; the results screen says markers."""
    from pygame_gui.elements import UILabel, UITextBox

    from game.autoplay import play_out
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario, new_game_state
    from game.ui.scenes.results import ResultsScene
    from game.ui.window import Scene
    game = Game.start(new_game_state(load_scenario(SKIRMISH)), Dice(seed=4))
    play_out(game, 4)
    d = driver_factory()
    d.app.switch(ResultsScene(d.app, game, back=Scene(d.app)))
    d.frames(2)
    texts = [e.text for e in d.app.manager.get_sprite_group().sprites() if isinstance(e, UILabel)]
    texts += [e.html_text for e in d.app.manager.get_sprite_group().sprites() if isinstance(e, UITextBox)]
    assert any("objective markers held" in t for t in texts)
    assert not any("victory points" in t.lower() for t in texts)


CRAG = ROOT / "scenarios" / "tests" / "aofr_crag.yaml"


def _crag_battle(driver_factory):  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory(start_scenario=CRAG, seed=3)
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    assert isinstance(d.scene, BattleScene)
    return d


def test_breath_attack_toggle_then_a_charge_breathes(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "Breath Attack" in melee: the activated drake's action bar has a "Breath Attack" toggle; turned on,
    a click on the goblins declares the charge with ``breath`` and the melee begins with its 3 automatic hits."""
    from game.engine.actions import DeclareCharge
    d = _crag_battle(driver_factory)
    scene, game = d.scene, d.scene.game
    drake = game.state.units["drake-1"]
    d.click(d.table_px(drake.pose.xy))                      # activate the drake
    assert "breath" in scene.actions.buttons and not scene.breath
    d.click_button(scene.actions.buttons["breath"])
    assert scene.breath and "on" in scene.actions.buttons["breath"].text
    goblins = game.state.units["goblins-1"]
    d.click(d.table_px(goblins.pose.xy))
    assert game.history[-1] == DeclareCharge(1, "drake-1", "goblins-1", breath=True)
    assert any(e.data.get("weapon") == "Breath Attack" for e in game.log)


def test_breath_attack_when_shooting_from_the_action_bar(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "Breath Attack" when shooting: after a Hold the drake (no ranged weapon) may shoot: a "Breath
    Attack at Gutter Goblins" button sends ``shoot`` with ``breath``."""
    from game.engine.actions import Move, Shoot
    d = _crag_battle(driver_factory)
    scene, game = d.scene, d.scene.game
    drake = game.state.units["drake-1"]
    d.click(d.table_px(drake.pose.xy))                      # activate the drake
    d.click(d.table_px(drake.pose.xy))                      # its move ghost
    d.click_button(scene.actions.buttons["hold"])
    d.key(pygame.K_RETURN)                                   # confirm: a Hold
    assert game.history[-1] == Move(1, "drake-1", "hold", ())
    assert game.pending is not None and game.pending.decision == "shoot"
    button = scene.actions.buttons["breath:goblins-1"]
    assert button.text == "Breath Attack at Gutter Goblins"
    d.click_button(button)
    assert game.history[-1] == Shoot(1, "drake-1", "goblins-1", breath=True)


def test_the_move_readout_counts_the_climb_onto_elevation(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "Elevation": the swordsmen (front 0.7" below the 4" crag) dragged 1.5" up the crag: the ghost
    measures 1.5" + the 4" climb, a legal Advance (6"); dragged 3", 3" + 4" is refused naming "Elevation"."""
    from game.engine.actions import Move
    d = _crag_battle(driver_factory)
    scene, game = d.scene, d.scene.game
    swords = game.state.units["swords-1"]
    d.click(d.table_px(swords.pose.xy))                     # activate the swordsmen
    start = swords.pose
    d.drag(d.table_px(start.xy), d.table_px((start.x, start.y + 3.0)))
    ev = scene.tool.evaluate()
    assert ev.climb.inches == 4.0 and ev.climb.pieces == ("Watchtower Crag",)
    assert ev.error is not None and ev.error.rule == "Elevation" and "climbs 4\" onto Watchtower Crag" in \
        ev.error.message
    d.key(pygame.K_ESCAPE)
    d.drag(d.table_px(start.xy), d.table_px((start.x, start.y + 1.5)))
    ev = scene.tool.evaluate()
    assert ev.legal and ev.action == "advance" and ev.climb.inches == 4.0
    assert ev.distance + ev.climb.inches <= 6.0
    d.key(pygame.K_RETURN)                                   # confirm: the Advance onto the crag
    move = game.history[-1]
    assert isinstance(move, Move) and move.action == "advance"
    assert any(e.kind == "move" and e.data.get("climb") == 4.0 for e in game.log)
