"""Aiming a spell at a point through the window (game/ui/spell_aim.py): pick the caster and its area spell, move the
mouse over the table (the area follows it; the units it would affect are listed), a refused point says why and
casts nothing, a click on a legal point casts there and the result shows on the table, the dice panel and the log.

scenarios/tests/point_spells.yaml: the Loremaster at (24, 6) facing the Ashen Host; its Mountain Gale (range 18",
enemy units within 4" of the point) reaches the spearmen at (21, 20), the brutes at (28.5, 20) and the Ember
Warlock at (24, 23.5), who may spend tokens against it.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame
import pytest

from game.engine.actions import CastSpell, Done, TablePoint
from game.ui import spell_aim
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "tests" / "point_spells.yaml"


@pytest.fixture
def aim(driver_factory):  # type: ignore[no-untyped-def]
    """Player 1's first strategy step with the Loremaster selected and Mountain Gale picked."""
    warnings.simplefilter("ignore", UserWarning)
    d = driver_factory(start_scenario=SCENARIO, seed=11)
    d.frames(2)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene) and scene.game.pending.decision == "strategy"
    assert "loremaster" in scene.actors
    d.click(d.table_px(scene.game.state.units["loremaster"].pose.xy))
    assert scene.selected == "loremaster"
    d.click_button(d.button("spell:Mountain Gale"))
    assert scene.spell == "Mountain Gale" and spell_aim.aimed_spell(scene) is not None
    return d


def _casts(scene: BattleScene) -> list[CastSpell]:
    return [a for a in scene.game.history if isinstance(a, CastSpell)]


@pytest.mark.parametrize(("point", "why"), [((24.0, 2.0), "no line of sight to the point"),
                                            ((24.0, 30.0), "has a range of 18\"")])
def test_a_refused_point_says_why_and_casts_nothing(aim, point: tuple[float, float], why: str) -> None:  # type: ignore[no-untyped-def]
    scene = aim.scene
    aim.move(aim.table_px(point), frames=2)
    shown = spell_aim.preview(scene, scene.view.to_table(scene.mouse))
    assert shown is not None and shown.problem is not None and why in shown.problem
    aim.click(aim.table_px(point))
    assert scene.error is not None and scene.error.rule == "Caster(X)" and why in scene.error.message
    assert _casts(scene) == [] and scene.game.state.units["loremaster"].spell_tokens == 2
    assert scene.spell == "Mountain Gale"          # still aiming: the player may pick another point
    assert scene.last_exception is None


def test_the_area_follows_the_mouse_and_a_click_casts_there(aim) -> None:  # type: ignore[no-untyped-def]
    scene = aim.scene
    game = scene.game
    target = (24.5, 20.0)
    aim.move(aim.table_px(target), frames=2)
    shown = spell_aim.preview(scene, scene.view.to_table(scene.mouse))
    assert shown is not None and shown.problem is None
    assert set(shown.affected) == {"spearmen-1", "brutes-1", "ember-warlock"}
    aim.move(aim.table_px((24.5, 13.0)), frames=2)   # open ground in range: legal, nobody in the area
    empty = spell_aim.preview(scene, scene.view.to_table(scene.mouse))
    assert empty is not None and empty.problem is None and empty.affected == ()
    aim.click(aim.table_px(target))
    casts = _casts(scene)
    assert len(casts) == 1 and casts[0].spell == "Mountain Gale" and casts[0].target is None
    assert casts[0].point is not None and abs(casts[0].point.x - target[0]) < 0.2 and abs(casts[0].point.y - 20) < 0.2
    assert game.state.units["loremaster"].spell_tokens == 0
    # the Ember Warlock is within 18": player 2 takes the seat, sees where the spell is aimed, spends nothing
    assert game.pending.decision == "dispel" and game.pending.player == 2
    assert isinstance(aim.scene, HandoverScene)
    aim.pass_handover()
    assert aim.scene is scene and game.state.magic.cast.point == (casts[0].point.x, casts[0].point.y)
    aim.key(pygame.K_SPACE)
    assert isinstance(game.history[-1], Done)
    if isinstance(aim.scene, HandoverScene):
        aim.pass_handover()
    assert aim.scene is scene and game.pending.player == 1 and game.pending.decision == "strategy"
    assert any(e.kind == "roll" and "Casting Mountain Gale" in e.data["purpose"] for e in scene.feed.rolls)  # dice
    aim.frames(2)
    spell = [e for e in game.log if e.kind == "spell" and "cast" in e.data][-1]
    assert spell.data["point"] == [casts[0].point.x, casts[0].point.y]
    results = spell_aim._state(scene).shown                 # drawn on the table for a few seconds
    assert results and results[-1].point == (casts[0].point.x, casts[0].point.y)
    if spell.data["cast"]:
        assert set(spell.data["affected"]) == {"spearmen-1", "brutes-1", "ember-warlock"}
        assert all(any(e.spell == "Mountain Gale" for e in game.state.units[u].effects)
                   for u in ("spearmen-1", "brutes-1", "ember-warlock"))
    assert any("Mountain Gale" in str(line.text) for line in scene.feed.lines)   # the log
    assert scene.spell is None and scene.last_exception is None
    assert "spell:Mountain Gale" not in scene.actions.keys          # one try per spell per round (on any page)


def test_escape_or_another_spell_stops_aiming(aim) -> None:  # type: ignore[no-untyped-def]
    scene = aim.scene
    aim.click_button(aim.button("spell:Mountain Gale"))      # the same button again: dropped
    assert scene.spell is None and spell_aim.aimed_spell(scene) is None
    aim.click(aim.table_px((24.5, 20.0)))            # a click on the enemy now only selects it
    assert _casts(scene) == []


def test_the_aiming_note_gives_the_exact_odds_of_the_point(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Issue 15: hovering a legal point shows the odds of casting there (game.odds.spells, exact): the casting
    chance, and for a spell with hits each unit of the area's wounds, destruction and morale. A spell with 3 hits
    AP(1) added to the Loremaster's army for the test; real clicks and mouse moves."""
    import os

    from game.engine.magic import Spell, SpellArea, SpellHits
    from game.odds.spells import spell_odds
    from game.ui import odds_panel

    warnings.simplefilter("ignore", UserWarning)
    d = driver_factory(start_scenario=SCENARIO, seed=11, size=(1600, 1000))
    d.frames(2)
    d.pass_handover()
    scene = d.scene
    scene.game.state.magic.spells[1]["Firestorm"] = Spell("Firestorm", 1, "point", 18.0, hits=SpellHits(3, ap=1),
                                                          area=SpellArea(4.0, "enemy"))
    d.click(d.table_px(scene.game.state.units["loremaster"].pose.xy))
    d.click_button(d.button("spell:Firestorm"))
    assert spell_aim.aimed_spell(scene) is not None
    d.move(d.table_px((24.5, 20.0)), frames=3)
    shown = spell_aim.preview(scene, scene.view.to_table(scene.mouse))
    assert shown is not None and shown.problem is None and shown.odds is not None
    point = CastSpell(1, "loremaster", "Firestorm", point=TablePoint(*shown.point))
    assert shown.odds == spell_odds(scene.game.state, point)
    assert shown.odds.cast == pytest.approx(0.5) and {u.unit for u in shown.odds.units} == set(shown.affected)
    lines = [t for t, _ in odds_panel.point_spell_lines(scene.game.state, shown.odds)]
    assert lines[0] == "Odds (exact, if not dispelled): cast 50%"
    assert all("wounds" in t and "destroys" in t for t in lines[1:])
    if os.environ.get("FORGE_SHOTS"):
        d.frames(2)
        pygame.image.save(d.app.screen, str(Path(os.environ["FORGE_SHOTS"]) / "point-spell-odds.png"))
    # a no-hits spell: only the casting chance
    d.click_button(d.button("spell:Mountain Gale"))
    d.move(d.table_px((24.0, 20.5)), frames=2)
    gale = spell_aim.preview(scene, scene.view.to_table(scene.mouse))
    assert gale is not None and gale.odds is not None and gale.odds.units == () and gale.odds.cast == 0.5
    assert scene.last_exception is None and scene.game.history == []
