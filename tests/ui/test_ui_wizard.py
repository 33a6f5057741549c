"""The window presents AoF:R 2.16 "Wizard(X)" (issue 14): while a wizard is activated, the action bar offers its
spells (before it attacks); a click on a highlighted target casts; the other player is handed the block decision
with a button per wizard that may block, and Space lets the spell be."""

from __future__ import annotations

import os

import pygame

from tests.ui.conftest import ROOT

WIZARDS = ROOT / "scenarios" / "tests" / "aofr_wizards.yaml"


def _shot(d, name: str) -> None:  # type: ignore[no-untyped-def]
    out = os.environ.get("CASTERS_SHOTS")
    if out:
        pygame.image.save(pygame.display.get_surface(), os.path.join(out, name))


def test_cast_a_spell_and_block_it_with_real_input(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, CastSpell, Dispel, TokenSpend
    from game.ui.decisions import window_refusal
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    assert window_refusal("aofr-2.16") is None
    d = driver_factory(start_scenario=WIZARDS, seed=3)
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    game = scene.game
    mages = game.state.units["mages-1"]
    assert mages.pose is not None
    d.click(d.table_px(mages.pose.xy))                       # activate the mages
    assert game.history[-1] == Activate(1, "mages-1")
    assert "spell_menu" in scene.actions.buttons and "hold" in scene.actions.buttons
    _shot(d, "00_wizard_activated.png")
    d.click_button(scene.actions.buttons["spell_menu"])     # "Cast a spell": the spells replace the moves
    buttons = scene.actions.buttons
    assert "hold" not in buttons
    assert "spell:Bolt of Judgement" in buttons and "spell:Aegis of the Passes" in buttons
    d.click_button(buttons["spell:Bolt of Judgement"])       # pick the spell, then click its target
    _shot(d, "01_spell_picked.png")
    shamans = game.state.units["shamans-1"]
    assert shamans.pose is not None
    d.click(d.table_px(shamans.pose.xy))
    assert game.history[-1] == CastSpell(1, "mages-1", "Bolt of Judgement", "shamans-1")
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "block_spell")
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    d.frames(2)
    _shot(d, "02_block_decision.png")
    assert "block:shamans-1" in d.scene.actions.buttons
    d.click_button(d.scene.actions.buttons["block:shamans-1"])
    assert game.history[-1] == Dispel(2, (TokenSpend(1, "shamans-1"),))
    assert any(e.kind == "spell" and e.data.get("spell") == "Bolt of Judgement" for e in game.log)
    assert game.pending is not None and game.pending.decision == "action" and game.pending.unit == "mages-1"
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    d.frames(2)
    _shot(d, "03_after_cast.png")
    assert "spell_menu" not in d.scene.actions.buttons    # one spell a round
    assert "hold" in d.scene.actions.buttons
    d.key(pygame.K_SPACE)                                     # stay idle
    assert game.pending is not None and game.pending.decision == "activate" and game.pending.player == 2


def test_quick_rules_caster_casts_in_its_activation_and_the_enemy_spends_tokens(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The quick rules' "Caster(X)": "Cast a spell" on the activated caster's action bar, a click on the target,
    then the other player's token buttons (-1 each) as AoWFBR's dispel decision."""
    from game.engine.actions import CastSpell, Dispel, TokenSpend
    from game.ui.decisions import window_refusal
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    assert window_refusal("aofr-quick") is None
    d = driver_factory(start_scenario=ROOT / "scenarios" / "tests" / "aofr_quick_casters.yaml", seed=3)
    d.frames(2)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    game = scene.game
    swords = game.state.units["swords-1"]
    assert swords.pose is not None
    d.click(d.table_px(swords.pose.xy))
    d.click_button(scene.actions.buttons["spell_menu"])
    d.click_button(scene.actions.buttons["spell:Bolt of Judgement"])
    warriors = game.state.units["warriors-1"]
    assert warriors.pose is not None
    d.click(d.table_px(warriors.pose.xy))
    assert game.history[-1] == CastSpell(1, "swords-1", "Bolt of Judgement", "warriors-1")
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (2, "dispel")
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    d.frames(2)
    _shot(d, "04_quick_dispel.png")
    d.click_button(d.scene.actions.buttons["dispel:warriors-1:1"])
    assert game.history[-1] == Dispel(2, (TokenSpend(1, "warriors-1"),))
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (1, "action")
