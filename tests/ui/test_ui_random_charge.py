"""Random Charge Distances in the window (AoWFBR 1.4 "Optional Rules", p.18): the charge range and each target's
measured distance and chance before declaring, the reaction at once, a button per declared charge to roll next,
and the roll in the dice panel. Driven by posted events as a player would."""

from __future__ import annotations

import pygame

from game.engine.actions import ChargeReaction, DeclareCharge, RollCharge
from game.engine.random_charge import chance, charge_range
from game.ui import battle_draw
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene
from tests.ui.test_ui_insight import _face_off


def _battle(driver_factory, seed: int = 3):  # type: ignore[no-untyped-def]
    """The default armies face to face across the ford (``test_ui_insight``), Random Charge Distances on."""
    game, kinds = _face_off(seed, {"random_charge_distance": True})
    d = driver_factory()
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.pass_handover()
    assert d.scene is scene
    return d, scene, game


def _past_handover(d) -> None:  # type: ignore[no-untyped-def]
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()


def test_charge_range_chances_reaction_at_once_and_the_roll_order(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d, scene, game = _battle(driver_factory)
    d.key(pygame.K_SPACE)                                    # strategy: Done
    assert game.pending.decision == "declare_charge"
    chargers = [u for u in ("riders-1", "swordsmen-1", "pikemen-1") if game.charge_targets(u)]
    assert len(chargers) >= 2
    first = chargers[0]
    d.click(d.table_px(game.state.units[first].pose.xy))
    a = battle_draw.aids(scene)
    unit = game.state.units[first]
    assert a.charge is not None and a.charge.random and a.charge.allowance == charge_range(unit)
    target = game.charge_targets(first)[0]
    odds = a.charge.chance(target)
    assert odds is not None and 0 < odds <= 1
    assert odds == chance(a.charge.advance, a.charge.measured[target])
    d.click(d.table_px(game.state.units[target].pose.xy))
    assert isinstance(game.history[-1], DeclareCharge)
    # step 3: the reaction is declared and carried out before the next declaration
    _past_handover(d)
    assert game.pending.decision == "charge_reaction" and game.pending.player == 2
    d.click_button(d.scene.actions.buttons["react:hold"])
    assert isinstance(game.history[-1], ChargeReaction)
    _past_handover(d)
    assert game.pending.decision == "declare_charge"
    second = next(u for u in chargers[1:] if game.charge_targets(u))
    d.click(d.table_px(game.state.units[second].pose.xy))
    other = next(t for t in game.charge_targets(second))
    d.click(d.table_px(game.state.units[other].pose.xy))
    _past_handover(d)
    if game.pending.decision == "charge_reaction":
        d.click_button(d.scene.actions.buttons["react:hold"])
        _past_handover(d)
    d.key(pygame.K_SPACE)                                    # all declared: Done
    _past_handover(d)
    assert game.pending.decision == "roll_charge"
    buttons = d.scene.actions.buttons
    assert {f"roll_charge:{first}", f"roll_charge:{second}"} <= set(buttons)
    d.click_button(buttons[f"roll_charge:{second}"])
    assert RollCharge(1, second) in game.history
    shown = [r["purpose"] for r in scene.dice.rolls]
    assert shown and all(p.startswith("Charge distance") for p in shown[-1:])   # the first roll: the picked one
    assert f"Charge distance of {game.state.units[second].profile.name}" in shown[-1]
    assert game.pending.decision in ("move", "consolidate", "redirect")
    assert scene.last_exception is None
