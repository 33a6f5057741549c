"""Importing an Army Forge list in the battle set-up (game/ui/scenes/setup_armies.py, armyforge_review.py): the
button, the file dialog (the path typed into its field, then OK), the review of what AoWFBR cannot play, base
sizes edited, then the list loaded for that player. Real input events throughout; the user data folder is a
temporary folder (``XDG_DATA_HOME``)."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from game.file_check import check_scenario_file

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "armyforge"
SHOTS = os.environ.get("ARMYFORGE_SHOTS")   # a folder: save screenshots there (looked at under Xvfb)


@pytest.fixture
def setup(driver_factory, tmp_path: Path, monkeypatch):  # type: ignore[no-untyped-def]
    from game.ui.scenes.setup_armies import ArmyScene
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    d.frames(2)
    d.click_button(d.scene.setup_button)
    assert isinstance(d.scene, ArmyScene) and d.scene.player == 1
    return d


def _shot(d, name: str) -> None:  # type: ignore[no-untyped-def]
    if SHOTS:
        d.frames(2)
        pygame.image.save(d.app.screen, str(Path(SHOTS) / name))


def _choose_file(d, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Click "Import from Army Forge", type the path into the dialog's field, press Enter, click OK."""
    d.click_button(d.scene.import_button)
    dialog = d.scene.file_dialog
    assert dialog is not None and dialog.alive()
    _shot(d, "01-file-dialog.png")
    field = dialog.file_path_text_line
    d.click(field.rect.center)
    field.set_text(str(path))
    d.key(pygame.K_RETURN, frames=3)
    assert dialog.ok_button.is_enabled
    d.click_button(dialog.ok_button)
    d.frames(3)


def test_import_text_export_drop_unknown_and_edit_bases(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    scene = d.scene
    _choose_file(d, FIXTURES / "ironhelm_warband.txt")
    review = scene.review
    assert review is not None and review.alive
    # the unknown rule is listed with its unit, and the button says it will be dropped
    assert [(u.unit, u.name, u.what) for u in review.plan.unknown] == [(2, "Ironhelm Spearmen", "rule Shield Wall")]
    assert review.import_button.text == "Drop these and import"
    # base sizes chosen by kind, editable: the Outriders are mounted (25 x 50); make the Stone Thrower 60 x 60
    wbox, dbox = review.base_entries["Outriders"]
    assert (wbox.get_text(), dbox.get_text()) == ("25", "50")
    _shot(d, "02-review.png")
    wbox, dbox = review.base_entries["Stone Thrower"]
    for box in (wbox, dbox):
        d.click(box.rect.center)
        box.set_text("")
        for ch in "60":
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        d.frames(2)
    assert (wbox.get_text(), dbox.get_text()) == ("60", "60")
    d.click_button(review.import_button)
    d.frames(2)
    assert scene.review is None
    scene = d.scene
    lst = scene.lst
    assert lst.display_name == "Ironhelm Warband"
    assert [e.profile for e in lst.entries] == ["Ironhelm Spearmen", "Crossbowmen", "Crossbowmen", "Outriders",
                                                "Stone Thrower"]
    assert lst.entries[0].hero == "Thane" and lst.general == lst.entries[0].hero_id
    prof = lst.army.profiles["Stone Thrower"]
    assert (prof.base_width_mm, prof.base_depth_mm) == (60, 60)
    assert "Shield Wall" not in lst.army.profiles["Ironhelm Spearmen"].rules
    assert "Imported" in scene.message and not scene.message_bad
    assert scene.state.problems(1) == []
    # the army menu shows the imported army; both files pass check
    assert scene.army_menu.selected_option[0] == "Ironhelm Warband"
    assert lst.army.source is not None
    assert check_scenario_file(lst.army.source) == []
    _shot(d, "03-imported.png")


def test_cancel_writes_nothing(setup, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    d = setup
    before = d.scene.lst
    _choose_file(d, FIXTURES / "ashen_host.json")
    review = d.scene.review
    assert review is not None
    assert {u.what for u in review.plan.unknown} == {"weapon rule Bane of Grave Blade"}
    d.click_button(review.cancel_button)
    assert d.scene.review is None and d.scene.lst is before
    assert "cancelled" in d.scene.message
    assert not list((tmp_path / "data").rglob("ashen-host*.yaml"))


def test_bad_base_size_is_refused_in_the_review(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    _choose_file(d, FIXTURES / "ironhelm_clean.txt")
    review = d.scene.review
    assert review.import_button.text == "Import"
    wbox, _ = review.base_entries["Thane"]
    wbox.set_text("0")
    d.click_button(review.import_button)
    assert review.alive and "Thane" in review.error.text
    wbox.set_text("25")
    d.click_button(review.import_button)
    assert d.scene.review is None and d.scene.lst.display_name == "Ironhelm Vanguard"


def test_share_as_file_is_refused_with_the_export_to_use(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    before = d.scene.lst
    _choose_file(d, FIXTURES / "share_as_file.json")
    assert d.scene.review is None and d.scene.lst is before
    assert d.scene.message_bad and "Cannot import share_as_file.json" in d.scene.message
    from pygame_gui.windows import UIMessageWindow
    windows = [w for w in d.app.manager.get_root_container().elements if isinstance(w, UIMessageWindow)]
    assert len(windows) == 1 and "Share as Text" in windows[0].text_block.html_text
    _shot(d, "04-refused.png")


def test_leaving_the_step_closes_the_review(setup) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.setup_armies import ArmyScene
    d = setup
    _choose_file(d, FIXTURES / "ironhelm_clean.txt")
    review = d.scene.review
    assert review is not None and review.alive
    d.click_button(d.scene.next_button)          # on to player 2's army: nothing imported, no window left over
    assert isinstance(d.scene, ArmyScene) and d.scene.player == 2
    assert not review.alive
    assert d.app.setup_state.army_list(1).display_name != "Ironhelm Vanguard"


def test_the_import_follows_the_battles_ruleset(setup) -> None:  # type: ignore[no-untyped-def]
    """A battle set up under AoF:R 2.16 (``SetupState.ruleset``) imports onto AoF:R 2.16: the review lists what
    that ruleset does not play (a Musician: AoF:R 2.16 has one "Musician / Battle Standard", written banner; AoWFBR's
    Counter and Lance)."""
    d = setup
    d.scene.state.ruleset = "aofr-2.16"
    d.scene.rebuild()
    _choose_file(d, FIXTURES / "ironhelm_clean.txt")
    review = d.scene.review
    assert review is not None and review.plan.ruleset == "aofr-2.16"
    assert {u.what for u in review.plan.unknown} == {"rule Musician",
                                                     "weapon rule Counter of Spear", "weapon rule Lance of Lance"}
    assert review.import_button.text == "Drop these and import"
    _shot(d, "05-review-aofr.png")
    d.click_button(review.import_button)
    d.frames(2)
    lst = d.scene.lst
    assert lst.display_name == "Ironhelm Vanguard" and "Hero" in lst.army.profiles["Thane"].rules
    assert "aofr-2.16 cannot play dropped" in d.scene.message
