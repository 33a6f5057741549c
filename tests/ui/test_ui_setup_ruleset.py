"""The battle set-up's ruleset chooser (issue 14; game/ui/scenes/setup_ruleset.py): choosing AoF:R 2.16 with real
clicks makes the missions, optional rules, side-missions and terrain kinds offered follow it, a list with a rule the
ruleset does not play is flagged with the scenario loader's message, and Start battle plays the battle under it, up
to its first activation (AoF:R 2.16 "Game Structure").

Every test keeps the user data folder in a temporary folder (``XDG_DATA_HOME``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.setup.ruleset_offer import offer, rules_not_played


@pytest.fixture
def data(tmp_path: Path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def _pick(d, menu, text: str) -> None:  # type: ignore[no-untyped-def]
    """Open a drop-down and click the option ``text``."""
    d.click(menu.rect.center, frames=6)
    options = menu.current_state.options_selection_list
    button = next(i["button_element"] for i in options.item_list if i["text"] == text)
    d.click(button.rect.center, frames=6)


def _options(menu) -> list[str]:  # type: ignore[no-untyped-def]
    return [o[0] if isinstance(o, tuple) else o for o in menu.options_list]


def _aofr_lists():  # type: ignore[no-untyped-def]
    """A set-up (still AoWFBR 1.4) with two lists of units whose rules AoF:R 2.16 plays: no hero, no Musician."""
    from game.ui.scenes.setup_state import SetupState
    st = SetupState(seed=5)
    for player in (1, 2):
        lst = st.army_list(player)
        fit = [n for n, p in lst.army.profiles.items() if p.size > 1 and not rules_not_played(p, "aofr-2.16")]
        lst.add(fit[0])
        lst.add(fit[1])
        assert st.problems(player) == []
    return st


def test_choosing_aofr_changes_what_is_offered_and_the_battle_plays_it(driver_factory, data) -> None:  # type: ignore[no-untyped-def]
    """Step 4: AoWFBR 1.4 offers no mission, its two optional rules and side-missions; after choosing AoF:R 2.16
    every mission of its "Extra Missions" and the random roll are offered but no "No mission" (its mission decides
    the winner), no optional rules, side-missions. King of the Hill and Hidden side-missions picked by clicks:
    Start battle writes them with ``ruleset: aofr-2.16``, the players select their side-missions, place the one
    marker and deploy, then the first activation is asked, which a click on a unit answers."""
    from game.engine.actions import Activate
    from game.players import make_player
    from game.scenario import load_scenario
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    d = driver_factory()
    st = _aofr_lists()
    d.app.open_setup(st, 4)
    d.frames(2)
    scene = d.scene
    assert "No mission" in _options(scene.mission_menu) and "Random mission" in _options(scene.mission_menu)
    assert sorted(scene.option_boxes.values()) == ["artillery_scatter", "random_charge_distance"]
    assert scene.side_menu.is_enabled
    box = next(b for b, key in scene.option_boxes.items() if key == "random_charge_distance")
    d.click(box.rect.center, frames=4)                       # an AoWFBR option ticked before the change
    assert st.options == {"random_charge_distance": True}
    _pick(d, scene.ruleset_chooser.menu, "Age of Fantasy: Regiments 2.16")
    assert st.ruleset == "aofr-2.16"
    scene = d.scene                                          # rebuilt: every menu follows the ruleset
    assert _options(scene.mission_menu) == ["Duel", "Seize Ground", "Relic Hunt", "Sabotage", "Breakthrough",
                                            "King of the Hill", "Random mission"] and st.mission == "standard"
    assert scene.option_boxes == {} and st.options == {}
    assert scene.side_menu.is_enabled and st.side_missions is None
    assert "Age of Fantasy: Regiments 2.16" in scene.message and "random charge distance" in scene.message
    assert st.terrain and all(p.traits <= offer("aofr-2.16").traits for p in st.terrain)
    _pick(d, scene.mission_menu, "King of the Hill")
    _pick(d, d.scene.side_menu, "Hidden")
    scene = d.scene
    assert st.mission == "king_of_the_hill" and st.side_missions is not None and st.side_missions[0] == "hidden"
    d.click_button(scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    battle = d.scene.back
    assert isinstance(battle, BattleScene)
    game = battle.game
    assert game.state.ruleset == "aofr-2.16" and game.ruleset.id == "aofr-2.16"
    written = load_scenario(battle.scenario_path)
    assert (written.ruleset, written.mission, written.side_missions) == ("aofr-2.16", "king_of_the_hill",
                                                                         st.side_missions)
    # markers and deployment: answered by the simple player through the battle scene, as the window would
    player = make_player("simple", 1)
    for _ in range(200):
        if game.pending is None or game.pending.decision == "activate":
            break
        assert battle.act(player.choose(game))
    assert game.pending is not None and game.pending.decision == "activate"
    assert len(game.state.objectives) == 1                    # "King of the Hill": only 1 objective marker
    assert [(p.player, p.hidden) for p in game.state.side_missions.picks] == [(1, True), (2, True)]
    first = game.pending.player
    d.frames(2)
    while isinstance(d.scene, HandoverScene):
        d.pass_handover()
    assert d.scene is battle
    unit = next(u for u in game.state.units_of(first) if u.pose is not None and u.id in battle.actors)
    d.click(d.table_px(unit.pose.xy))                        # activate it: a real click on the table
    assert game.history[-1] == Activate(first, unit.id)
    assert game.pending is not None and game.pending.decision == "action" and game.pending.unit == unit.id


def test_a_list_with_a_rule_the_ruleset_does_not_play_is_flagged(driver_factory, data) -> None:  # type: ignore[no-untyped-def]
    """Step 1: chosen AoF:R 2.16 by a click, a unit with Counter (AoWFBR's) is flagged on its card and in the list's
    problems with the scenario loader's message; Start battle refuses to begin."""
    from game.scenario import profile_rule_problem, ruleset_content
    from game.ui.scenes.setup_armies import ArmyScene
    from game.ui.scenes.setup_battle import StartScene
    d = driver_factory()
    st = _aofr_lists()
    lst = st.army_list(1)
    name, prof = next((n, p) for n, p in lst.army.profiles.items() if "Counter" in rules_not_played(p, "aofr-2.16"))
    lst.add(name)
    assert st.problems(1) == []                               # AoWFBR 1.4 plays Counter
    d.app.open_setup(st, 1)
    d.frames(2)
    assert isinstance(d.scene, ArmyScene)
    _pick(d, d.scene.ruleset_chooser.menu, "AoF:R 2.16")     # the narrow column shows short titles
    assert st.ruleset == "aofr-2.16"
    message = profile_rule_problem(prof, ruleset_content("aofr-2.16"))
    assert message is not None and "Counter" in message and "Age of Fantasy: Regiments 2.16" in message
    assert message in st.problems(1)
    assert "Counter" in d.scene.problems_box.html_text
    assert "does not play" in d.scene.cards[name].html_text
    d.click_button(d.scene.step_buttons[3])
    assert isinstance(d.scene, StartScene)
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, StartScene) and d.scene.message_bad and "Counter" in d.scene.message
    # back to AoWFBR 1.4 (the wide chooser shows full titles): the list is ready again
    _pick(d, d.scene.ruleset_chooser.menu, "Age of Warhammer Fantasy: Battle Regiments 1.4")
    assert st.ruleset == "aowfbr-1.4" and st.problems(1) == []


def test_the_table_step_offers_only_the_kinds_the_ruleset_plays(driver_factory, data) -> None:  # type: ignore[no-untyped-def]
    """The palette offers the kinds the ruleset's terrain traits allow (AoF:R 2.16 "Terrain Guidelines": hills,
    rivers and ruins too) and a generated table has only pieces whose traits it plays."""
    from game.setup.ruleset_offer import offer
    from game.ui.scenes.setup_state import SetupState
    st = SetupState(seed=7)
    st.set_ruleset("aofr-2.16")
    d = driver_factory()
    d.app.open_setup(st, 3)
    d.frames(2)
    kinds = set(d.scene.kind_buttons.values())
    assert kinds == set(offer("aofr-2.16").kinds)
    assert {"hill", "river", "ruins", "forest", "field", "building"} <= kinds   # AoF:R 2.16 "Terrain Guidelines"
    d.click_button(d.scene.reroll_button)
    assert st.terrain and all(p.traits <= offer("aofr-2.16").traits for p in st.terrain)
