"""The battle set-up through the window (game/ui/scenes/setup_*.py): army lists built by clicking, the table
generated from a seed and edited, and the battle started (deployment) or saved as a scenario.

Every test keeps the user data folder in a temporary folder (``XDG_DATA_HOME``)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.file_check import check_scenario_file
from game.setup.terrain_gen import generate_table


@pytest.fixture
def setup(driver_factory, tmp_path: Path, monkeypatch):  # type: ignore[no-untyped-def]
    """The window opened on the menu, then "New battle (set-up)" clicked: player 1's army step."""
    from game.ui.scenes.setup_armies import ArmyScene
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    d.frames(2)
    d.click_button(d.scene.setup_button)
    assert isinstance(d.scene, ArmyScene) and d.scene.player == 1
    return d


def _add(d, profile: str) -> None:  # type: ignore[no-untyped-def]
    """Press the Add button of ``profile``'s card."""
    btn = next(b for b, name in d.scene.add_buttons.items() if name == profile)
    d.click_button(btn)


def _pick(d, menu, text: str) -> None:  # type: ignore[no-untyped-def]
    """Open a drop-down and click the option ``text``."""
    d.click(menu.rect.center, frames=6)
    options = menu.current_state.options_selection_list
    button = next(i["button_element"] for i in options.item_list if i["text"] == text)
    d.click(button.rect.center, frames=6)


def _ready_state():  # type: ignore[no-untyped-def]
    """A set-up with two valid 750-point lists (a hero joined to a unit and General in each)."""
    from game.ui.scenes.setup_state import SetupState
    st = SetupState(seed=5)
    for player in (1, 2):
        lst = st.army_list(player)
        heroes = [n for n, p in lst.army.profiles.items() if p.is_hero and p.tough <= 6]
        multi = [n for n, p in lst.army.profiles.items() if p.size > 1 and not p.is_hero]
        unit = lst.add(multi[0])
        lst.add(multi[1])
        lst.join_hero(unit.id, heroes[0])
        lst.general = unit.hero_id
        assert st.problems(player) == []
    return st


def test_two_750_point_lists_by_clicking(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    scene = d.scene
    lst = scene.lst
    assert lst.points == 750
    units = [n for n, p in lst.army.profiles.items() if p.size > 1 and not p.is_hero]
    hero = next(n for n, p in lst.army.profiles.items() if p.is_hero and p.tough <= 6)
    _add(d, units[0])
    assert [e.profile for e in lst.entries] == [units[0]]
    assert f"{lst.points_used} / 750 points" in scene.points_box.html_text
    first = lst.entries[0]
    assert scene.selected == first.id            # the unit just added is being edited
    # command group: tick the Sergeant
    box = next(b for b, u in d.scene.upgrade_boxes.items() if u == "sergeant")
    d.click(box.rect.center, frames=3)
    assert first.upgrades == ["sergeant"]
    # combine two copies
    two = next(b for b, c in d.scene.copy_buttons.items() if c == 2)
    d.click_button(two)
    assert first.copies == 2
    assert f"{lst.points_used} / 750 points" in d.scene.points_box.html_text
    # the hero joins the unit and becomes General
    _add(d, hero)
    hero_entry = lst.entries[-1]
    assert lst.general == hero_entry.id           # the first hero is made General
    label = next(t for t, uid in d.scene.join_options.items() if uid == first.id)
    _pick(d, d.scene.join_menu, label)
    assert first.hero == hero and first.hero_id == hero_entry.id and lst.general == hero_entry.id
    assert len(lst.entries) == 1
    assert "ready to play" in d.scene.problems_box.html_text
    # over the limit: a problem appears, and goes when the unit is removed
    expensive = max(units, key=lambda n: lst.army.profiles[n].cost)
    while lst.points_used <= 750:
        _add(d, expensive)
    assert "over the limit" in d.scene.problems_box.html_text
    assert "over the limit" in d.scene.points_box.html_text
    assert d.scene.selected == lst.entries[-1].id     # the unit just added
    d.click_button(d.scene.remove_button)
    assert lst.points_used <= 750
    assert "ready to play" in d.scene.problems_box.html_text
    # a unit of the list is selected by clicking its row
    row = next(t for t, uid in d.scene.entry_rows.items() if uid == first.id)
    item = next(i["button_element"] for i in d.scene.entries.item_list if i["text"] == row)
    d.click(item.rect.center, frames=3)
    assert d.scene.selected == first.id
    d.click(d.scene.entries.item_list[0]["button_element"].rect.center, frames=3)
    assert d.scene.selected == first.id               # a second click keeps it selected
    # a rule name on a card is a link: clicking it shows what the rule does
    card = d.scene.cards[units[0]]
    link = card.link_hover_chunks[0]
    bx, by = card._calculate_hyperlinks_offsets()
    d.click((bx + link.x + link.width // 2, by + link.y + link.height // 2), frames=4)
    assert link.href in d.scene.rule_box.html_text
    # player 2: another army, three units
    d.click_button(d.scene.next_button)
    assert d.scene.player == 2
    lst2 = d.scene.lst
    assert lst2.army.name != lst.army.name
    units2 = [n for n, p in lst2.army.profiles.items() if p.size > 1 and not p.is_hero]
    for name in units2[:3]:
        _add(d, name)
    assert [e.profile for e in lst2.entries] == units2[:3]
    assert 0 < lst2.points_used <= 750
    assert d.scene.state.problems(2) == []
    # Force Organisation: the limits apply to both lists
    d.click(d.scene.force_box.rect.center, frames=3)
    assert d.scene.state.force_org
    assert "At 750 pts" in d.scene.force_text.html_text


def test_game_size_and_saved_lists(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    lst = d.scene.lst
    unit = next(n for n, p in lst.army.profiles.items() if p.size > 1 and not p.is_hero)
    _add(d, unit)
    _pick(d, d.scene.points_menu, "1500 points")
    assert d.scene.state.points == 1500 and d.scene.lst.points == 1500
    assert d.scene.state.army_list(2).points == 1500
    # save as "Shield Wall" in My lists
    d.click(d.scene.list_name.rect.center)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Shield Wall"))
    d.frames(2)
    d.click_button(d.scene.save_list_button)
    from game.files import user_data_dir
    path = user_data_dir() / "lists" / "shield-wall.yaml"
    assert path.is_file()
    # player 2 loads it
    d.click_button(d.scene.next_button)
    assert d.scene.player == 2
    row = next(t for t, p in d.scene.saved_labels.items() if p == path)
    item = next(i["button_element"] for i in d.scene.saved_list.item_list if i["text"] == row)
    d.click(item.rect.center, frames=3)
    d.click_button(d.scene.load_button)
    lst2 = d.scene.lst
    assert lst2.name == "Shield Wall" and [e.profile for e in lst2.entries] == [unit]
    assert lst2.army.name == lst.army.name


def test_generate_same_table_from_a_seed_and_edit_pieces(setup) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.setup_state import centre
    from game.ui.scenes.setup_table import TableScene
    d = setup
    d.scene.state.seed = 99                           # the first table (a fixed seed keeps the test quick)
    d.click_button(d.scene.step_buttons[2])
    scene = d.scene
    assert isinstance(scene, TableScene)
    assert scene.state.terrain == generate_table(99)
    assert len(scene.state.terrain) >= 10            # a table is ready the first time
    # type a seed and generate, twice
    d.click(scene.seed_entry.rect.center)
    for _ in range(8):
        d.key(pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="4321"))
    d.frames(2)
    d.click_button(scene.generate_button)
    first = list(scene.state.terrain)
    assert first == generate_table(4321)
    d.click_button(scene.reroll_button)
    assert scene.state.terrain != first
    d.click(scene.seed_entry.rect.center)
    for _ in range(8):
        d.key(pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="4321"))
    d.frames(2)
    d.click_button(scene.generate_button)
    assert scene.state.terrain == first
    assert "Pieces</b>: " in scene.report_box.html_text
    # clear, then place a forest where the player clicks
    d.click_button(scene.clear_button)
    assert scene.state.terrain == []
    forest = next(b for b, k in scene.kind_buttons.items() if k == "forest")
    d.click_button(forest)
    assert scene.armed == "forest"
    d.click(scene.view.to_screen_int((30.0, 20.0)))
    assert [p.kind for p in scene.state.terrain] == ["forest"]
    piece = scene.state.terrain[0]
    assert centre(piece) == pytest.approx((30.0, 20.0), abs=0.3)
    assert scene.selected == 0 and scene.armed is None
    # turn it with E and with the wheel
    d.key(pygame.K_e)
    turned = scene.state.terrain[0]
    assert turned.polygon != piece.polygon
    assert centre(turned) == pytest.approx(centre(piece), abs=0.05)
    d.move(scene.view.to_screen_int((30.0, 20.0)))
    d.wheel(1)
    assert scene.state.terrain[0].polygon != turned.polygon
    # drag it 10" to the right
    d.drag(scene.view.to_screen_int((30.0, 20.0)), scene.view.to_screen_int((40.0, 20.0)))
    assert centre(scene.state.terrain[0]) == pytest.approx((40.0, 20.0), abs=0.5)
    # place a building, then delete it
    building = next(b for b, k in scene.kind_buttons.items() if k == "building")
    d.click_button(building)
    d.click(scene.view.to_screen_int((12.0, 30.0)))
    assert [p.kind for p in scene.state.terrain] == ["forest", "building"]
    d.key(pygame.K_DELETE)
    assert [p.kind for p in scene.state.terrain] == ["forest"]
    assert "<b>Pieces</b>: 1" in scene.report_box.html_text


def test_start_battle_begins_with_deployment(driver_factory, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.files import user_data_dir
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.handover import HandoverScene
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    d.app.open_setup(_ready_state(), 4)
    d.frames(2)
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    battle = d.scene.back
    assert isinstance(battle, BattleScene)
    assert battle.game.pending.decision == "choose_deployment"
    written = list((user_data_dir() / "scenarios").glob("*.yaml"))
    assert len(written) == 1 and check_scenario_file(written[0]) == []
    # the roll-off winner chooses; then a unit is placed outside the zone: refused, with the rule shown
    d.pass_handover()
    bar = battle.actions.buttons
    key = next(k for k in bar if k.startswith("deployment:"))
    d.click_button(bar[key])
    for _ in range(4):
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
    pending = battle.game.pending
    if pending.decision == "set_aside":
        d.click_button(battle.actions.buttons["done"])
        if isinstance(d.scene, HandoverScene):
            d.pass_handover()
        pending = battle.game.pending
    assert pending.decision == "deploy"
    assert battle.tool is not None and battle.tool.kind == "deploy"
    d.click(d.table_px((36.0, 24.0)))               # the middle of the table: no one's zone
    n = len(battle.game.history)
    d.key(pygame.K_RETURN)
    assert len(battle.game.history) == n
    assert battle.error is not None or not battle.tool.evaluate().legal
    assert battle.last_exception is None


def test_save_scenario_for_check_and_play(driver_factory, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    st = _ready_state()
    d.app.open_setup(st, 4)
    d.frames(2)
    d.click(d.scene.name_entry.rect.center)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Hill Fight"))
    d.frames(2)
    d.click_button(d.scene.save_button)
    path = d.scene.saved_path
    assert path is not None and path.name == "hill-fight.yaml" and path.is_file()
    assert check_scenario_file(path) == []
    from game.scenario import load_scenario
    scenario = load_scenario(path)
    assert scenario.name == "Hill Fight" and scenario.needs_deployment()
    assert len(scenario.terrain) == len(st.terrain)
    assert "python main.py play" in d.scene.saved_box.html_text
    assert "main menu lists it" in d.scene.saved_box.html_text     # not only from a terminal (issue 17)


def test_start_refused_while_a_list_has_problems(setup) -> None:  # type: ignore[no-untyped-def]
    d = setup
    d.click_button(d.scene.step_buttons[3])
    d.click_button(d.scene.start_button)
    from game.ui.scenes.setup_battle import StartScene
    assert isinstance(d.scene, StartScene)
    assert d.scene.message_bad and "not ready" in d.scene.message


def test_a_mission_chosen_in_the_set_up_is_played(driver_factory, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The Mission drop-down (AoF:R 2.16 "Extra Missions"): Seize Ground places its four markers by its rule, and
    the battle written by Start battle plays it."""
    from game.scenario import load_scenario
    from game.ui.scenes.handover import HandoverScene
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    st = _ready_state()
    d.app.open_setup(st, 4)
    d.frames(2)
    _pick(d, d.scene.mission_menu, "Seize Ground")
    assert st.mission == "seize_ground"
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    battle = d.scene.back
    assert battle.game.state.mission == "seize_ground" and len(battle.game.state.objectives) == 4
    assert load_scenario(d.scene.back.scenario_path).mission == "seize_ground"


def test_random_charge_distances_box_is_played(driver_factory, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The Random charge distances box (AoWFBR "Optional Rules") writes the option, and the battle plays it: the
    charge range is Advance + 6"."""
    from game.engine.random_charge import active
    from game.scenario import load_scenario
    from game.ui.scenes.handover import HandoverScene
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    d = driver_factory()
    st = _ready_state()
    d.app.open_setup(st, 4)
    d.frames(2)
    box = next(b for b, key in d.scene.option_boxes.items() if key == "random_charge_distance")
    d.click(box.rect.center, frames=4)
    assert st.options.get("random_charge_distance") is True
    d.click_button(d.scene.start_button)
    assert isinstance(d.scene, HandoverScene)
    assert active(d.scene.back.game.state)
    assert load_scenario(d.scene.back.scenario_path).options["random_charge_distance"] is True


def test_a_battle_saved_in_the_set_up_is_listed_in_the_menu(driver_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A scenario the set-up wrote to the user's folder is in the menu's list (starred, newest first) and plays."""
    import os

    from game.files import scenarios_dir
    from game.ui.scenes.handover import HandoverScene
    from game.ui.scenes.menu import MenuScene

    root = Path(__file__).resolve().parents[2]
    text = (root / "scenarios" / "tests" / "small_skirmish.yaml").read_text()
    armies = (root / "scenarios" / "armies").as_posix()
    saved = scenarios_dir() / "border-battle-20261125-140001.yaml"
    saved.write_text(text.replace("../armies", armies))
    assert os.environ["XDG_DATA_HOME"] in str(saved)
    d = driver_factory()
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene)
    label = next(k for k in menu.by_label if k.startswith("★"))
    assert menu.by_label[label] == saved and "saved in the set-up" in label
    first = menu.list.item_list_container.elements[0]
    d.click(first.rect.center, frames=4)
    d.click_button(menu.play_selected)
    assert isinstance(d.scene, HandoverScene)
