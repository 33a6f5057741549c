"""The skirmish battle screen plays "Caster(X)" and "Pushing" (AoF: Skirmish, issue 18) with real input: Cast a
spell ▸, a spell, the caster's spare token, a click on the target; the opponent's token against it; a click on the
table where the Shaken model goes, then Push."""

from __future__ import annotations

import pygame

from tests.ui.conftest import ROOT

CASTERS = ROOT / "scenarios" / "tests" / "skirmish_casters.yaml"


def _start(driver_factory, dice):  # type: ignore[no-untyped-def]
    """The test scenario in the window; the dice fixed before the first roll (none is rolled before round 1)."""
    from game.engine.dice import Dice
    from game.ui.scenes.skirmish_battle import SkirmishBattleScene
    d = driver_factory(start_scenario=CASTERS, seed=3)
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene) and scene.game.dice.consumed == 0
    scene.game.dice = Dice(sequence=list(dice))
    return d, scene, scene.game


def test_cast_a_spell_with_a_spare_token_and_the_opponent_spends_one_against_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, CastSpell, Dispel, TokenSpend
    from game.engine.skirmish.loose import points_of
    d, scene, game = _start(driver_factory, [5, 1, 1])
    d.click(d.table_px(points_of(game.state, "loremaster")[0]))
    assert game.history[-1] == Activate(1, "loremaster")
    d.click_button(scene.actions.buttons["spell_menu"])
    assert {f"spell:{n}" for n in ("Bolt of Judgement", "Aegis of the Passes", "Hawk-Eye", "Rally the Banners")} \
        <= set(scene.actions.buttons)
    d.click_button(scene.actions.buttons["spell:Bolt of Judgement"])
    assert scene.spell == "Bolt of Judgement" and scene._targets() == {"warriors", "shaman"}
    d.click_button(scene.actions.buttons["boost:loremaster"])          # its second token: +1
    assert scene.boost == {"loremaster": 1}
    d.click(d.table_px(points_of(game.state, "warriors")[0]))
    assert game.history[-1] == CastSpell(1, "loremaster", "Bolt of Judgement", "warriors",
                                         (TokenSpend(1, "loremaster"),))
    assert game.pending.decision == "dispel" and game.pending.player == 2
    d.frames(2)
    assert {"dispel:shaman:1", "dispel:shaman:2", "done"} <= set(scene.actions.buttons)
    d.click_button(scene.actions.buttons["dispel:shaman:1"])
    assert game.history[-1] == Dispel(2, (TokenSpend(1, "shaman"),))
    assert game.state.units["warriors"].models == 2                   # 5 +1 -1: cast; two failed blocks
    assert game.pending.decision == "action" and game.pending.unit == "loremaster"
    assert scene.last_exception is None


def test_escape_leaves_the_spell_menu_and_the_unit_moves_as_before(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.skirmish.loose import points_of
    d, scene, game = _start(driver_factory, [3] * 30)
    d.click(d.table_px(points_of(game.state, "loremaster")[0]))
    d.click_button(scene.actions.buttons["spell_menu"])
    d.click_button(scene.actions.buttons["spell:Bolt of Judgement"])
    d.key(pygame.K_ESCAPE)
    assert scene.spell is None and not scene.spell_menu and "advance" in scene.actions.buttons
    d.click(d.table_px(points_of(game.state, "warriors")[0]))          # no spell: a click on an enemy charges
    assert [a.type for a in game.history[:2]] == ["activate", "declare_charge"] and scene.last_exception is None


def test_push_the_shaken_model_by_clicking_where_it_goes(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import PushModel, Shoot
    from game.engine.skirmish.loose import points_of
    # crossbows: 3 to hit (4, 4, 1), 2 Defense rolls against AP(1) (2, 3), the wound effect (1 + 2 markers: Shaken),
    # then the push roll (4)
    d, scene, game = _start(driver_factory, [4, 4, 1, 2, 3, 1, 4])
    d.click(d.table_px(points_of(game.state, "crossbows")[0]))
    d.click_button(scene.actions.buttons["done"])                      # Hold, then shoot
    d.click(d.table_px(points_of(game.state, "shaman")[0]))
    assert game.history[-1] == Shoot(1, "crossbows", "shaman")
    assert game.state.units["shaman"].shaken and game.pending.decision == "push" and game.pending.player == 1
    d.frames(2)
    assert not scene.actions.buttons["push"].is_enabled                # no spot chosen yet
    (x, y), = points_of(game.state, "shaman")
    d.click(d.table_px((x + 3.0, y)))                                  # too far: refused, shown red
    assert not scene.actions.buttons["push"].is_enabled and "2\"" in str(scene._push_problem())
    d.drag(d.table_px((x + 3.0, y)), d.table_px((x, y + 1.5)))         # drag the ghost 1.5" away
    assert scene._push_problem() is None and scene.actions.buttons["push"].is_enabled
    d.key(pygame.K_RETURN)
    last = game.history[-1]
    assert isinstance(last, PushModel) and last.unit == "shaman"
    (nx, ny), = points_of(game.state, "shaman")
    assert abs(nx - x) < 0.2 and abs(ny - (y + 1.5)) < 0.2 and scene.last_exception is None


def test_the_computer_spends_its_tokens_against_the_persons_cast(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Against the computer (player 2): the person's cast asks the computer's seat ``dispel``; it answers (the simple
    player's rule: up to 2 tokens against hits) with a log line, and the person's activation goes on."""
    import time

    from game.computer_seat import ComputerSeat
    from game.engine.actions import Dispel, TokenSpend
    from game.engine.skirmish.loose import points_of
    d = driver_factory(seed=3)
    d.frames(2)
    d.app.start_battle(str(CASTERS), ComputerSeat(2, "ai-easy"))
    d.frames(2)
    scene = d.scene
    game = scene.game
    d.click(d.table_px(points_of(game.state, "loremaster")[0]))
    d.click_button(scene.actions.buttons["spell_menu"])
    d.click_button(scene.actions.buttons["spell:Bolt of Judgement"])
    d.click(d.table_px(points_of(game.state, "warriors")[0]))
    assert game.pending is not None and game.history[-1].type == "cast_spell"
    for _ in range(6000):
        if isinstance(game.history[-1], Dispel):
            break
        d.frames(1)
        time.sleep(0.001)
    assert game.history[-1] == Dispel(2, (TokenSpend(2, "shaman"),))
    assert any(getattr(e, "kind", "") == "computer" and "tokens against" in e.text for e in scene.feed.lines)
    assert game.pending.player == 1 and game.pending.decision in ("action", "activate")
    scene.turns.wait()
    assert scene.last_exception is None
