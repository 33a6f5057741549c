"""The window and AoF:R 2.16 (issue 14): the battle screen cannot answer an activation game's decisions yet, so an
aofr-2.16 scenario is not offered in the menu and is refused with a clear message when asked for."""

from __future__ import annotations

from tests.ui.conftest import ROOT

AOFR = ROOT / "scenarios" / "aofr_border_clash.yaml"


def test_the_menu_does_not_offer_an_aofr_scenario(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.by_label
    assert AOFR.resolve() not in {p.resolve() for p in menu.by_label.values()}
    assert any(p.name == "default.yaml" for p in menu.by_label.values())


def test_starting_an_aofr_scenario_is_refused_with_a_message(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """``main.py play scenarios/aofr_border_clash.yaml``: back to the menu saying why, nothing half-playable."""
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(start_scenario=AOFR, seed=5)
    d.frames(2)
    assert isinstance(d.scene, MenuScene)
    message = d.scene.message or ""
    assert "Age of Fantasy: Regiments 2.16 (aofr-2.16) cannot be played in the window yet" in message
    assert "activate" in message and "main.py autoplay" in message
