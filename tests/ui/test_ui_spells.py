"""Casting a spell through the window: pick the caster, the spell, then click the target; the opponent answers."""

from __future__ import annotations

import pygame

from game.engine.actions import CastSpell, Dispel, Done
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene


def test_cast_a_spell_on_a_clicked_friend_and_the_opponent_spends_nothing(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    assert game.pending.decision == "strategy"
    if not scene.casts:
        return      # the scenario has no caster able to cast now: nothing to test
    unit_casts = [c for c in scene.casts if c.point is None]     # spells aimed at a point: test_ui_spell_aim.py
    cast = next((c for c in unit_casts if c.target != c.unit), unit_casts[0])
    battle.click(battle.table_px(game.state.units[cast.unit].pose.xy))
    assert scene.selected == cast.unit
    button = scene.actions.buttons[f"spell:{cast.spell}"]
    battle.click_button(button)
    if not game.history or not isinstance(game.history[-1], CastSpell):   # not a self spell: click the target
        assert scene.spell == cast.spell
        assert cast.target in scene.targets_of(cast.unit)
        battle.click(battle.table_px(game.state.units[cast.target].pose.xy))
    action = next(a for a in reversed(game.history) if isinstance(a, CastSpell))
    assert action.unit == cast.unit and action.spell == cast.spell
    if game.pending.decision == "dispel":                      # the opponent takes the seat and answers
        assert isinstance(battle.scene, HandoverScene) and battle.scene.player == 2
        battle.pass_handover()
        battle.key(pygame.K_SPACE)
        assert isinstance(game.history[-1], (Dispel, Done))
        if isinstance(battle.scene, HandoverScene):
            battle.pass_handover()
    assert isinstance(battle.scene, BattleScene)
    assert game.pending.player == 1 and game.pending.decision == "strategy"
    assert any(e.kind == "roll" for e in game.log[-6:])        # the casting roll is on the dice panel
    assert scene.last_exception is None
