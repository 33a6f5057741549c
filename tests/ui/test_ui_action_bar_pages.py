"""The action bar when a decision has more buttons than fit (a wizard with many spells): the buttons are shown a page
at a time, each label whole, "Back" on every page, and "More ▸" turns the page; a spell on a later page is cast
with real clicks."""

from __future__ import annotations

import pygame
import pygame_gui

from game.ui.action_bar import PAGE_KEY, ActionBar, ButtonSpec
from game.ui.assets import font
from tests.ui.conftest import ROOT

WIZARDS = ROOT / "scenarios" / "tests" / "aofr_wizards.yaml"


def _whole(bar: ActionBar) -> None:
    """No label is cut: every button is as wide as its text and inside the bar."""
    f = font(15, True)
    for b in bar.buttons.values():
        assert b.rect.w >= f.size(b.text)[0] + 8, b.text
        assert b.relative_rect.right <= bar.rect.w


def test_a_long_bar_is_paged_whole_with_the_pinned_button_on_every_page() -> None:
    pygame.init()
    pygame.display.set_mode((900, 200))
    manager = pygame_gui.UIManager((900, 200))
    bar = ActionBar(manager, pygame.Rect(0, 100, 600, 50))
    specs = [ButtonSpec(f"spell:{i}", f"A rather long spell name {i} (5)") for i in range(7)]
    specs.append(ButtonSpec("back", "◂ Back", pinned=True))
    specs.append(ButtonSpec("undo", "↶ Undo (Ctrl+Z)", right=True))
    bar.set_buttons(specs)
    assert bar.pages > 1 and PAGE_KEY in bar.buttons
    seen: set[str] = set()
    for page in range(bar.pages):
        assert bar.page == page
        _whole(bar)
        assert "back" in bar.buttons and "undo" not in bar.buttons     # Ctrl+Z still undoes
        seen |= {k for k in bar.buttons if k.startswith("spell:")}
        event = pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=bar.buttons[PAGE_KEY])
        assert bar.pressed(event) is None                               # the bar turns its own page
    assert bar.page == 0 and seen == {f"spell:{i}" for i in range(7)}
    bar.set_buttons([ButtonSpec(sp.key, "✦ " + sp.label, sp.tooltip, sp.object_id, right=sp.right,
                                pinned=sp.pinned) if sp.key == "spell:0" else sp for sp in specs])
    assert bar.page == 0                                                # relabelled: the same page is kept
    bar.set_buttons(specs[:2])
    assert bar.pages == 1 and PAGE_KEY not in bar.buttons               # they fit: no pages


def test_a_spell_on_a_later_page_is_cast_with_real_clicks(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import CastSpell
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory(start_scenario=WIZARDS, seed=3, size=(1100, 800))
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    mages = scene.game.state.units["mages-1"]
    assert mages.pose is not None
    d.click(d.table_px(mages.pose.xy))
    d.click_button(scene.actions.buttons["spell_menu"])
    bar = scene.actions
    assert bar.pages > 1
    _whole(bar)
    for _ in range(bar.pages):
        if "spell:Hawk-Eye" in bar.buttons:
            break
        d.click_button(bar.buttons[PAGE_KEY])
        _whole(bar)
        assert "spell_menu" in bar.buttons                              # "◂ Back" on every page
    d.click_button(bar.buttons["spell:Hawk-Eye"])
    d.click(d.table_px(mages.pose.xy))                                  # Hawk-Eye on the mages themselves
    assert scene.game.history[-1] == CastSpell(1, "mages-1", "Hawk-Eye", "mages-1")


def test_a_full_bar_keeps_menu_and_drops_the_buttons_that_have_keys() -> None:
    """Two long decision buttons in a narrow bar (AoF:R "who places the first objective marker" at 1280x800): Undo
    goes first (Ctrl+Z), then Save (Ctrl+S) if need be; Menu, which has no key, stays at the right end."""
    pygame.init()
    pygame.display.set_mode((900, 200))
    manager = pygame_gui.UIManager((900, 200))
    bar = ActionBar(manager, pygame.Rect(0, 100, 760, 50))
    specs = [ButtonSpec("a", "Player 1 places the first marker"), ButtonSpec("b", "Player 2 places the first marker"),
             ButtonSpec("menu", "Menu", right=True), ButtonSpec("save", "Save (Ctrl+S)", right=True, short="Save"),
             ButtonSpec("undo", "↶ Undo: nothing yet", right=True, enabled=False)]
    bar.set_buttons(specs)
    assert {"a", "b", "menu"} <= set(bar.buttons) and "undo" not in bar.buttons and bar.pages == 1
    _whole(bar)
    assert bar.buttons["menu"].relative_rect.right == bar.rect.w - 8
    assert max(b.relative_rect.right for k, b in bar.buttons.items() if k in ("a", "b")) < \
        min(b.relative_rect.left for k, b in bar.buttons.items() if k in ("menu", "save"))
