"""Units inside a Transport in the window (rulebook "Transport(X)"): selected with Tab or from the Transport's unit
card, they charge out by clicking the target; a unit inside cannot shoot and the window says why
(scenarios/tests/transport_charge.yaml)."""

from __future__ import annotations

import pygame
import pygame_gui

from game.engine.actions import DeclareCharge
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene
from tests.ui.conftest import ROOT

SCENARIO = ROOT / "scenarios" / "tests" / "transport_charge.yaml"


def _start(driver_factory):  # type: ignore[no-untyped-def]
    d = driver_factory(start_scenario=SCENARIO, seed=3)
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    assert isinstance(d.scene, BattleScene)
    return d


def _card_link(d, uid: str) -> None:  # type: ignore[no-untyped-def]
    """The event pygame_gui posts when the player clicks the link to ``uid`` on the unit card."""
    box = d.scene.card.box
    pygame.event.post(pygame.event.Event(pygame_gui.UI_TEXT_BOX_LINK_CLICKED, link_target=f"unit:{uid}",
                                         ui_element=box, ui_object_id="#unit_card"))
    d.frames(2)


def test_select_a_passenger_and_charge_out_by_clicking_the_target(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = _start(driver_factory)
    scene, game = d.scene, d.scene.game
    assert game.pending.decision == "declare_charge"
    d.click(d.table_px(game.state.units["wagon-1"].pose.xy))       # the wagon: its card lists who rides in it
    assert scene.selected == "wagon-1"
    d.frames(2)
    assert "unit:swordsmen-1" in scene.card.html and "Carrying" in scene.card.html
    for _ in range(6):                                                 # Tab reaches the passenger (it can charge)
        if scene.selected == "swordsmen-1":
            break
        d.key(pygame.K_TAB)
    assert scene.selected == "swordsmen-1"
    assert scene.targets_of("swordsmen-1") == ["warriors-1"]
    assert "Inside" in scene.card.html and "unit:wagon-1" in scene.card.html
    d.click(d.table_px(game.state.units["warriors-1"].pose.xy))
    action = game.history[-1]
    assert isinstance(action, DeclareCharge) and action.unit == "swordsmen-1" and action.target == "warriors-1"
    assert scene.last_exception is None


def test_a_passenger_cannot_shoot_and_the_window_says_why(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = _start(driver_factory)
    game = d.scene.game
    for _ in range(40):                                                # Done until player 1 shoots
        scene = d.scene
        if isinstance(scene, HandoverScene):
            d.pass_handover()
            continue
        if game.pending.decision == "shoot" and game.pending.player == 1:
            break
        d.key(pygame.K_SPACE)
    else:
        raise AssertionError("no shooting step")
    scene = d.scene
    d.click(d.table_px(game.state.units["wagon-2"].pose.xy))
    _card_link(d, "crossbows-1")
    assert scene.selected == "crossbows-1"
    assert scene.banner is not None and "no line of sight to the outside" in scene.banner[0]
    before = len(game.history)
    d.click(d.table_px(game.state.units["warriors-2"].pose.xy))
    assert len(game.history) == before                                 # refused, nothing changed
    assert scene.error is not None and scene.error.rule == "Transport"
    assert scene.last_exception is None
