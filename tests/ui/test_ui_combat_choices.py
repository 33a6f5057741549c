"""The window offers the close combat choices the rules give a player (rulebook "Consolidation Moves", "Consolidation
Moves and Multiple Units", "Charge Reactions"): one button per unit to pursue, follow up or pivot to face, and the
consolidation move after a run down. Games are resumed from the case records of scenarios/tests/ cut short."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "scenarios" / "tests"


def resume(driver_factory, tmp_path: Path, name: str, actions: int):  # type: ignore[no-untyped-def]
    """A battle resumed from the first ``actions`` actions of the case record ``name``, past the hand-over."""
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene

    data = yaml.safe_load((CASES / "records" / f"{name}.yaml").read_text())
    data["scenario"] = str(CASES / f"{name}.yaml")
    data["actions"] = data["actions"][:actions]
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    d = driver_factory()
    assert d.app.resume_game(path)
    d.frames(2)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert isinstance(d.scene, BattleScene)
    return d


def test_pursuit_target_buttons(driver_factory, tmp_path):
    d = resume(driver_factory, tmp_path, "pursuit_catches_second_fleeing", 9)
    game = d.scene.game
    assert game.pending.decision == "pursue_target"
    buttons = d.scene.actions.buttons
    assert "pursue_target:swordsmen-1" in buttons and "pursue_target:swordsmen-2" in buttons
    assert "(swordsmen-1)" in buttons["pursue_target:swordsmen-1"].text      # same names: the ids tell them apart
    d.click_button(buttons["pursue_target:swordsmen-1"])
    assert game.state.units["swordsmen-2"].removed is not None
    assert game.pending.decision == "consolidate"


def test_follow_up_buttons_for_each_retreating_unit(driver_factory, tmp_path):
    d = resume(driver_factory, tmp_path, "two_retreating_choose", 8)
    game = d.scene.game
    assert game.pending.decision == "follow_up"
    buttons = d.scene.actions.buttons
    assert {"follow_up:swordsmen-1", "follow_up:swordsmen-2", "stay"} <= set(buttons)
    d.click_button(buttons["follow_up:swordsmen-2"])
    assert game.history[-1].to_dict()["target"] == "swordsmen-2"


def test_pivot_to_face_button_and_declining(driver_factory, tmp_path):
    d = resume(driver_factory, tmp_path, "tie_pivot_to_face", 6)
    game = d.scene.game
    assert game.pending.decision == "pivot_to_face"
    buttons = d.scene.actions.buttons
    assert "pivot_to_face:swordsmen-1" in buttons and "done" in buttons
    d.click_button(buttons["done"])
    assert game.history[-1].type == "done" and game.state.units["warriors-1"].pose.facing == 90.0


def test_consolidation_tool_after_a_run_down(driver_factory, tmp_path):
    d = resume(driver_factory, tmp_path, "charge_flee_run_down", 4)
    scene = d.scene
    assert scene.game.pending.decision == "consolidate"
    assert scene.tool is not None and scene.tool.kind == "consolidate" and scene.tool.unit.id == "knights-1"
    assert "done" in scene.actions.buttons
