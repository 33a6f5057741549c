"""The window plays the AoF:R quick rules (issue 14, ``ruleset: aofr-quick``) with real input: the menu offers the
shipped scenario; a click activates, a click on an enemy charges; the charged spearmen's Counter weapons make them
decide to strike back before the charger strikes (its button); the loser is Shaken (its label and the unit card say
so); its next activation is idle (Space) and ends it."""

from __future__ import annotations

import pygame

from tests.ui.conftest import ROOT

QUICK = ROOT / "scenarios" / "aofr_quick_ford.yaml"
SKIRMISH = ROOT / "scenarios" / "tests" / "aofr_quick_skirmish.yaml"


def test_the_menu_offers_the_quick_rules_scenario(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.decisions import window_refusal
    from game.ui.scenes.menu import MenuScene
    d = driver_factory(seed=5)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene)
    assert QUICK.resolve() in {p.resolve() for p in menu.by_label.values()}
    assert window_refusal("aofr-quick") is None


def test_counter_strike_back_first_then_shaken_and_its_idle_activation(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.engine.actions import Activate, DeclareCharge, Done, StrikeBack
    from game.ui.describe import instruction, morale_word
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    from game.ui.unit_card import modifiers_words
    d = driver_factory(start_scenario=SKIRMISH, seed=15)
    d.frames(2)
    d.pass_handover()
    scene = d.scene
    assert isinstance(scene, BattleScene)
    game = scene.game
    warriors, spears = game.state.units["warriors-1"], game.state.units["spears-1"]
    assert warriors.pose is not None and spears.pose is not None
    d.click(d.table_px(warriors.pose.xy))
    assert game.history[-1] == Activate(1, "warriors-1")
    d.click(d.table_px(spears.pose.xy))
    assert game.history[-1] == DeclareCharge(1, "warriors-1", "spears-1")
    assert game.pending is not None and game.pending.decision == "strike_back"
    assert not any(e.kind == "hits" for e in game.log)            # the charger has not struck: Counter first
    assert isinstance(d.scene, HandoverScene) and d.scene.player == 2
    d.pass_handover()
    assert "Counter weapons strike first" in instruction(game.state, game.pending)
    d.click_button(d.scene.actions.buttons["strike_back"])
    assert game.history[-1] == StrikeBack(2, "spears-1")
    hits = [e.data["unit"] for e in game.log if e.kind == "hits"]
    assert hits[0] == "spears-1" and "warriors-1" in hits
    assert spears.shaken and morale_word(game.state) == "Shaken"
    assert any(w.startswith("Shaken: stays idle") for w in modifiers_words(game.state, spears))
    assert not any("Wavering" in e.text for e in game.log)
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert spears.pose is not None
    d.click(d.table_px(spears.pose.xy))                          # player 2 activates its Shaken spearmen
    assert game.history[-1] == Activate(2, "spears-1")
    assert game.pending is not None and game.pending.decision == "wavering"
    assert "is Shaken: it stays idle" in instruction(game.state, game.pending)
    d.key(pygame.K_SPACE)
    assert game.history[-1] == Done(2) and not spears.shaken
    assert game.log[-1].text.endswith("stays idle and is no longer Shaken") or \
        any(e.text.endswith("is no longer Shaken") for e in game.log)


def test_the_unit_card_says_a_unit_is_fatigued() -> None:
    """"Fatigue": the unit card's "In force" lines say a unit that charged or struck back this round hits only on
    6s (``Ruleset.unit_notes``)."""
    from game.engine.actions import Activate, DeclareCharge, StrikeBack
    from game.engine.dice import Dice
    from game.engine.game import Game
    from game.scenario import load_scenario, new_game_state
    from game.ui.unit_card import modifiers_words
    game = Game.start(new_game_state(load_scenario(SKIRMISH)), Dice(seed=3))
    warriors = game.state.units["warriors-1"]
    assert not any("Fatigued" in w for w in modifiers_words(game.state, warriors))
    game.apply(Activate(1, "warriors-1"))
    game.apply(DeclareCharge(1, "warriors-1", "spears-1"))
    game.apply(StrikeBack(2, "spears-1"))
    assert any(w.startswith("Fatigued: hits only on unmodified 6s") for w in modifiers_words(game.state, warriors))


def test_takedown_picks_a_hero_by_clicking_it_and_by_the_strike_back_button(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """"Takedown" in melee in the window: a click on the joined hero of the enemy charges and picks that hero
    (``declare_charge`` ``model``); the charged unit's "Strike back, Takedown at ..." button picks the charger's
    hero (``strike_back`` ``model``)."""
    import dataclasses

    from game.engine.actions import Activate, DeclareCharge, StrikeBack
    from game.engine.profiles import Weapon
    from game.ui.describe import instruction
    from game.ui.scenes.handover import HandoverScene
    from geometry.formation import hero_index
    from geometry.shapes import model_polygons
    from tests.rules.builders import join_hero, profile
    d = driver_factory(start_scenario=SKIRMISH, seed=15)
    d.frames(2)
    d.pass_handover()
    game = d.scene.game
    warriors, spears = game.state.units["warriors-1"], game.state.units["spears-1"]
    warriors.profile = dataclasses.replace(warriors.profile, weapons=(Weapon("Axe", attacks=1, rules=("Takedown",)),))
    spears.profile = dataclasses.replace(spears.profile, weapons=(
        Weapon("Spear", attacks=1, rules=("Counter", "Takedown")),))
    boss = profile("Boss", quality=3, defense=4, weapons=(Weapon("Blade", attacks=2),), rules=("Hero", "Tough(3)"),
                   size=1)
    join_hero(game.state, "spears-1", boss, "boss-s")
    join_hero(game.state, "warriors-1", boss, "boss-w")
    assert warriors.pose is not None and spears.pose is not None
    d.click(d.table_px(warriors.pose.xy))
    assert game.history[-1] == Activate(1, "warriors-1")
    assert "its hero: Takedown picks it" in instruction(game.state, game.pending)
    hero_base = model_polygons(spears.pose, spears.formation)[hero_index(spears.formation)].centroid
    d.click(d.table_px((hero_base.x, hero_base.y)))
    assert game.history[-1] == DeclareCharge(1, "warriors-1", "spears-1", model="boss-s")
    assert game.pending is not None and game.pending.decision == "strike_back"
    if isinstance(d.scene, HandoverScene):
        d.pass_handover()
    button = d.scene.actions.buttons["strike_back_pick"]
    d.click_button(button)
    assert game.history[-1] == StrikeBack(2, "spears-1", model="boss-w")
