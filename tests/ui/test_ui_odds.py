"""The odds before a decision in the window (issue 15): real mouse motion over a valid shooting target and a valid
charge target shows the odds lines in the hover note (``game.ui.odds_panel``), and the game's dice are untouched."""

from __future__ import annotations

from pathlib import Path

import pygame
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _game_with_enemy_ahead(distance: float):  # type: ignore[no-untyped-def]
    """The default battle with an enemy unit ``distance``" in front of archers-1."""
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario_mapping, new_game_state

    path = ROOT / "scenarios" / "default.yaml"
    data = yaml.safe_load(path.read_text())
    cantons = next(a for a in data["armies"] if a["player"] == 1)
    archers = next(u for u in cantons["units"] if u["id"] == "archers-1")
    host = next(a for a in data["armies"] if a["player"] == 2)
    enemy = host["units"][0]
    enemy["pose"] = {"x": archers["pose"]["x"], "y": archers["pose"]["y"] + distance, "facing": 180}
    scenario = load_scenario_mapping(data, path)
    return Game.start(new_game_state(scenario), Dice(seed=2)), list(scenario.terrain_kinds), enemy["id"]


def _notes(monkeypatch) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """Record the lines of every note the battle screen draws."""
    from game.ui import battle_draw
    seen: list[list[str]] = []
    original = battle_draw.draw_note

    def spy(screen, anchor, lines, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append([t for t, _ in lines])
        return original(screen, anchor, lines, *args, **kwargs)

    monkeypatch.setattr(battle_draw, "draw_note", spy)
    return seen


def _hover(d, game, scene, shooter: str, enemy: str) -> None:  # type: ignore[no-untyped-def]
    d.click(d.table_px(game.state.units[shooter].pose.xy))
    assert scene.selected == shooter
    d.move(d.table_px(game.state.units[enemy].pose.xy), frames=3)
    assert scene.hover == enemy


def test_hovering_a_shooting_target_shows_the_odds(driver_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    d = driver_factory()
    game, kinds, enemy = _game_with_enemy_ahead(16)
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.pass_handover()
    for _ in range(4):                       # strategy, charges, moves, second strategy: Done
        d.key(pygame.K_SPACE)
    assert game.pending.decision == "shoot"
    consumed, rolls = game.dice.consumed, list(game.dice.rolls)
    notes = _notes(monkeypatch)
    _hover(d, game, scene, "archers-1", enemy)
    text = [" | ".join(n) for n in notes if n and n[0].startswith("✔ Shoot")]
    assert text, notes
    assert "Odds (exact): hits " in text[-1] and "wounds " in text[-1] and "destroys " in text[-1]
    assert "±" in text[-1]
    assert game.dice.consumed == consumed and game.dice.rolls == rolls      # the advisor rolls its own dice
    assert scene.last_exception is None


def test_hovering_a_charge_target_shows_the_odds_of_each_reaction(driver_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.battle import BattleScene
    d = driver_factory()
    game, kinds, enemy = _game_with_enemy_ahead(9)
    scene = BattleScene(d.app, game, None, kinds)
    d.app.switch(scene)
    d.pass_handover()
    d.key(pygame.K_SPACE)                    # strategy: Done
    assert game.pending.decision == "declare_charge"
    assert enemy in game.charge_targets("archers-1")
    consumed = game.dice.consumed
    notes = _notes(monkeypatch)
    _hover(d, game, scene, "archers-1", enemy)
    d.frames(12)                             # the samples grow frame after frame while the mouse stays
    text = [" | ".join(n) for n in notes if n and n[0].startswith("✔ Charge")]
    assert text, notes
    assert "Odds (simulated" in text[-1] and "If it holds: " in text[-1] and "wins the melee " in text[-1]
    assert game.dice.consumed == consumed
    assert not any(a.type == "declare_charge" for a in game.history)     # hovering declares nothing
    assert scene.last_exception is None


def test_hovering_a_spell_target_shows_the_odds_of_the_cast(battle, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A spell's target, once the caster and the spell are chosen: the chance to cast it (if not dispelled) and,
    for a spell that wounds, the wounds it may cause."""
    scene = battle.scene
    game = scene.game
    unit_casts = [c for c in scene.casts if c.point is None and c.target not in (None, c.unit)]
    assert unit_casts, "the default scenario has a caster with a spell on another unit"
    enemy_casts = [c for c in unit_casts if game.state.units[c.target].player != c.player]
    cast = (enemy_casts or unit_casts)[0]
    battle.click(battle.table_px(game.state.units[cast.unit].pose.xy))
    battle.click_button(scene.actions.buttons[f"spell:{cast.spell}"])
    assert scene.spell == cast.spell
    consumed = game.dice.consumed
    notes = _notes(monkeypatch)
    battle.move(battle.table_px(game.state.units[cast.target].pose.xy), frames=3)
    text = [" | ".join(n) for n in notes if n and n[0].startswith("✔ Cast")]
    assert text, notes
    assert "simulated casts, if not dispelled): cast " in text[-1]
    if enemy_casts:
        assert "wounds " in text[-1]
    assert game.dice.consumed == consumed and not any(a.type == "cast_spell" for a in game.history)
    assert scene.last_exception is None


def test_pursue_buttons_tell_their_odds(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The pursue decision: the Pursue / Do not pursue buttons' tooltips give the odds of each answer."""
    from game.ui.scenes.battle import BattleScene
    from tests.odds.test_simulate import _pursue_game
    d = driver_factory()
    game = _pursue_game()
    consumed = game.dice.consumed
    scene = BattleScene(d.app, game, None, [])
    d.app.switch(scene)
    d.pass_handover()
    d.frames(3)
    assert game.pending.decision == "pursue"
    specs = {sp.key: sp for sp in scene.actions._specs}
    assert specs["pursue"].tooltip.startswith("Catches the fleeing enemy ")
    assert "holds back " in specs["no_pursue"].tooltip and "simulated" in specs["no_pursue"].tooltip
    assert game.dice.consumed == consumed
    assert scene.last_exception is None


def test_aofr_charge_and_shot_odds_in_the_window(driver_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 (scenarios/tests/aofr_skirmish.yaml): the activated unit's charge target shows the odds of the
    charge (one line: no reaction to choose; Wavering and routed instead of fleeing), worked out by the engine
    of AoF:R; the game's dice are untouched and hovering declares nothing. Real clicks and mouse motion."""
    import os

    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory(start_scenario=ROOT / "scenarios" / "tests" / "aofr_skirmish.yaml", seed=3,
                       size=(1600, 1000))
    d.frames(2)
    assert isinstance(d.scene, HandoverScene)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    game = scene.game
    d.click(d.table_px(game.state.units["swords-1"].pose.xy))       # activate the swordsmen
    assert game.pending.decision == "action" and "warriors-1" in game.charge_targets("swords-1")
    consumed = game.dice.consumed
    notes = _notes(monkeypatch)
    d.move(d.table_px(game.state.units["warriors-1"].pose.xy), frames=12)
    assert scene.hover == "warriors-1"
    text = [" | ".join(n) for n in notes if n and n[0].startswith("✔ Charge")]
    assert text, notes
    last = text[-1]
    assert "Odds (simulated" in last and "If it charges: " in last and "wins the melee " in last
    assert "Wavering" in last and "routed or destroyed" in last and "flees" not in last
    if os.environ.get("FORGE_SHOTS"):
        pygame.image.save(d.app.screen, str(Path(os.environ["FORGE_SHOTS"]) / "aofr-charge-odds.png"))
    assert game.dice.consumed == consumed and not any(a.type == "declare_charge" for a in game.history)
    assert scene.last_exception is None
