"""AoF: Skirmish "Command Groups" on the battle screen: a unit picked by a Banner shows the rule on its unit card
(docs/formats.md "AoF: Skirmish": ``command_picks``)."""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from tests.ui.conftest import ROOT

PLACED = ROOT / "scenarios" / "tests" / "skirmish_placed.yaml"


def _banner_scenario(tmp_path: Path) -> Path:
    text = PLACED.read_text().replace("../armies/", f"{ROOT}/scenarios/armies/")
    old = "      - id: swords\n        profile: Canton Swordsmen\n        models: 4\n"
    assert old in text
    text = text.replace(old, old + "        upgrades: [banner]\n        command_picks: [crossbows]\n", 1)
    path = tmp_path / "banner.yaml"
    path.write_text(text)
    return path


def test_the_unit_card_shows_the_banner_on_a_picked_unit(driver_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from game.engine.skirmish.loose import points_of
    from game.ui.scenes.skirmish_battle import SkirmishBattleScene
    d = driver_factory(start_scenario=_banner_scenario(tmp_path), seed=3)
    d.frames(2)
    scene = d.scene
    assert isinstance(scene, SkirmishBattleScene)
    d.click(d.table_px(points_of(scene.game.state, "crossbows")[0]))
    d.frames(2)
    assert scene.card is not None and "Banner (picked): +1 to morale test rolls" in scene.card.html
    shot = os.environ.get("SKIRMISH_CARD_SHOT")       # a screenshot to look at: SKIRMISH_CARD_SHOT=/tmp/x.png
    if shot:
        pygame.image.save(pygame.display.get_surface(), shot)
    d.click(d.table_px(points_of(scene.game.state, "warriors")[0]))
    d.frames(2)
    assert "Banner" not in scene.card.html
