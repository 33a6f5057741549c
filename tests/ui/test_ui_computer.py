"""Playing against the computer in the window (issue 13 "In the window"), through posted events: the menu and the
set-up offer it, the computer plays its decisions without a hand-over screen and says why in the log, N skips to
the person's next decision, G changes the pace, the person's take-backs follow docs/rulings.md "Taking back against
the computer", and a saved game gives the seat back to the computer when resumed (and the replay names it)."""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from game.computer_seat import ComputerSeat
from game.engine.actions import DeclareCharge, Done
from game.files import records_dir
from game.record import load_record
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"


def _pick(d, menu, text: str) -> None:  # type: ignore[no-untyped-def]
    """Open a drop-down and click the option ``text``."""
    d.click(menu.rect.center, frames=6)
    options = menu.current_state.options_selection_list
    button = next(i["button_element"] for i in options.item_list if i["text"] == text)
    d.click(button.rect.center, frames=6)


def _until(d, test, frames: int = 6000) -> None:  # type: ignore[no-untyped-def]
    """Step frames (letting the computer's worker thread run) until ``test()`` holds."""
    for _ in range(frames):
        if test():
            return
        d.frames(1)
        time.sleep(0.001)
    raise AssertionError("the window never got there")


def _computer_lines(scene: BattleScene) -> list[str]:
    return [e.text for e in scene.feed.lines if getattr(e, "kind", "") == "computer"]


def _vs_computer(driver_factory, player: int = 2, level: str = "ai-easy"):  # type: ignore[no-untyped-def]
    """A battle of the small skirmish (units already placed) against the computer playing ``player``."""
    d = driver_factory(seed=3)
    d.frames(2)
    d.app.start_battle(str(SMALL), ComputerSeat(player, level))
    d.frames(2)
    assert isinstance(d.scene, BattleScene) and d.scene.computer == ComputerSeat(player, level)
    return d


def test_the_menu_offers_the_computer_and_it_plays_its_turn_without_a_handover(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.menu import MenuScene

    d = driver_factory(seed=4)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.picker is not None
    assert not menu.picker.level.is_enabled                     # hotseat: no level to choose
    _pick(d, menu.picker.opponent, "The computer, as player 2")
    assert menu.picker.level.is_enabled
    _pick(d, menu.picker.level, "Hard")
    assert d.app.opponent == ComputerSeat(2, "ai-hard")
    assert "vs the computer (hard)" in menu.play_default.text
    _pick(d, menu.picker.level, "Easy")
    d.click_button(menu.play_default)                           # the default battle: deployment first
    scene = d.scene
    assert isinstance(scene, BattleScene) and scene.computer == ComputerSeat(2, "ai-easy")
    seen: set[type] = set()

    def person_plays_round_one_while_the_computer_answers() -> bool:
        seen.add(type(d.scene))
        p = scene.game.pending
        if p is not None and p.player == 1 and p.decision not in ("deploy",) and scene.game.state.round >= 2:
            return True
        if p is not None and p.player == 1:               # the person: Enter deploys, Space ends a step
            d.key(pygame.K_RETURN if p.decision in ("deploy", "scout_move") else pygame.K_SPACE)
            if p.decision in ("choose_deployment", "choose_first_turn") and scene.actions is not None:
                d.click_button(next(iter(b for k, b in scene.actions.buttons.items()
                                         if k.startswith(("deployment:", "first:")))))
            if p.decision == "charge_reaction" and scene.actions is not None:
                d.click_button(scene.actions.buttons["react:hold"])
        else:
            d.key(pygame.K_n)                              # skip to my next decision
        return False

    _until(d, person_plays_round_one_while_the_computer_answers, frames=20000)
    assert HandoverScene not in seen                            # never a hand-over screen
    lines = _computer_lines(scene)
    assert any(" — " in line and "the computer (easy)" in line.lower() for line in lines)
    assert any(2 == a.player for a in scene.game.history[5:])  # the computer played its own turn
    assert scene.last_exception is None


def test_the_computer_paces_its_decisions_and_g_and_n_change_the_pace(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = _vs_computer(driver_factory)
    scene = d.scene
    while scene.game.pending.player == 1:
        d.key(pygame.K_SPACE)                    # the person ends every step of their first turn
        if scene.game.pending.decision == "charge_reaction":
            break
    assert scene.computer_deciding
    # the person cannot answer for the computer: its buttons are the pace and Skip, Space does nothing
    keys = set(scene.actions.buttons)
    assert {"computer_faster", "computer_skip", "undo"} <= keys and "done" not in keys
    n = len(scene.game.history)
    d.key(pygame.K_SPACE)
    assert len(scene.game.history) == n or scene.game.history[-1].player == 2
    _until(d, lambda: len(scene.game.history) > n)               # its first decision, after its think and pause
    first_at = scene.time
    assert scene.game.history[-1].player == 2 and _computer_lines(scene)
    assert scene.turns is not None and scene.turns.pace == "normal"
    d.key(pygame.K_g)
    assert scene.turns.pace == "fast"
    d.click_button(scene.actions.buttons["computer_faster"])     # the button toggles it back
    assert scene.turns.pace == "normal"
    m = len(scene.game.history)
    _until(d, lambda: len(scene.game.history) > m)
    assert scene.time - first_at >= 0.4                          # not at once: a pause between decisions
    d.key(pygame.K_n)                                            # skip: no pauses until the person decides
    assert scene.turns.skipping
    _until(d, lambda: scene.game.pending is None or scene.game.pending.player == 1)
    d.frames(1)
    assert not scene.turns.skipping
    assert isinstance(d.scene, BattleScene)


def test_the_person_takes_back_a_charge_and_the_computers_answer_with_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """docs/rulings.md "Taking back against the computer": a declared charge that the computer answered without a
    die (Hold) is taken back together with the answer; once the computer's own turn has begun, it stands."""
    d = _vs_computer(driver_factory)
    scene = d.scene
    game = scene.game
    d.key(pygame.K_SPACE)                        # 1. Strategy: done
    assert game.pending.decision == "declare_charge"
    target = next(u for u in game.charge_targets("riders-1"))
    d.click(d.table_px(game.state.units["riders-1"].pose.xy))
    d.click(d.table_px(game.state.units[target].pose.xy))
    assert game.history[-1] == DeclareCharge(1, "riders-1", target)
    d.key(pygame.K_SPACE)                        # no more charges: the charged unit reacts
    _until(d, lambda: scene.game.pending.player == 1)       # the computer's reaction, with no hand-over
    game = scene.game
    reaction = game.history[-1]
    assert reaction.player == 2 and reaction.type == "charge_reaction"
    assert game.history[-2] == Done(1)
    if game.dice_used[-1]:                        # stood and shot, or fled: dice were rolled, the charge stands
        assert scene.undo_refusal() is not None and "Dice were rolled" in scene.undo_refusal()
        return
    assert scene.undo_refusal() is None
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert scene.game.history == game.history[:-2]               # the Done and the computer's answer
    assert scene.game.pending.decision == "declare_charge" and scene.game.pending.player == 1
    assert "the computer's 1 answer" in scene.banner[0]
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)                      # and the charge itself (the hotseat rule)
    assert scene.game.history == game.history[:-3]
    loaded = load_record(sorted(records_dir().glob("*.yaml"))[0])
    assert len(loaded.actions) == len(scene.game.history)        # the record was rewritten


def test_no_take_back_once_the_computers_turn_has_begun(driver_factory) -> None:  # type: ignore[no-untyped-def]
    d = _vs_computer(driver_factory)
    scene = d.scene
    for _ in range(6):                            # the person's whole first turn without a die
        if scene.game.pending.player != 1:
            break
        d.key(pygame.K_SPACE)
    assert scene.game.pending.player == 2 and scene.game.state.active_player == 2
    assert scene.undo_refusal() is None            # nothing of the computer's yet: the person's Done may go back
    _until(d, lambda: len(scene.game.history) > 0 and scene.game.history[-1].player == 2)
    why = scene.undo_refusal()
    assert why is not None and ("turn came after" in why or "Dice were rolled" in why)
    n = len(scene.game.history)
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert len(scene.game.history) >= n           # nothing taken back; the computer never takes back
    assert "Undo" in scene.actions.buttons["undo"].text


def test_save_and_resume_give_the_seat_back_to_the_computer_and_the_replay_names_it(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.replay import ReplayScene

    d = _vs_computer(driver_factory, player=1, level="ai-hard")
    scene = d.scene
    assert scene.view.flipped                     # the person plays player 2: their edge at the bottom
    _until(d, lambda: scene.game.pending.player == 2 and len(scene.game.history) >= 1)
    d.key(pygame.K_s, mod=pygame.KMOD_CTRL)
    path = sorted(records_dir().glob("*.yaml"))[0]
    record = load_record(path)
    assert record.computer == ComputerSeat(1, "ai-hard")
    assert "computer: {player: 1, level: ai-hard}" in path.read_text()
    played = len(record.actions)
    d.click_button(scene.actions.buttons["menu"])
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.saves is not None
    assert "vs computer (hard, player 1)" in menu.saves.items[0].summary()
    d.click_button(menu.saves.resume)
    resumed = d.scene
    assert isinstance(resumed, BattleScene) and resumed is not scene
    assert resumed.computer == ComputerSeat(1, "ai-hard")
    assert len(resumed.game.history) == played and resumed.game.pending.player == 2
    for _ in range(8):                            # the person ends their steps; the computer takes its seat
        if resumed.game.pending.player == 1:
            break
        d.key(pygame.K_SPACE)
    _until(d, lambda: resumed.game.history[-1].player == 1)
    assert not isinstance(d.scene, HandoverScene)
    assert d.app.watch_replay(path)
    viewer = d.scene
    assert isinstance(viewer, ReplayScene)
    d.frames(2)
    assert "(player 1: the computer (hard))" in viewer.hud.title.text
    d.key(pygame.K_END, frames=4)                  # the last action was the computer's
    assert viewer.hud.hint.text.startswith("Last: Player 1 (the computer (hard)):")


def test_a_damaged_computer_key_is_refused_with_its_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from game.files import FileProblems
    from game.record import load_record as load

    bad = tmp_path / "bad.yaml"
    bad.write_text(f"format: regiments-record/1\nscenario: {SMALL}\ndice: {{seed: 1}}\n"
                   "computer: {player: 3, level: ai}\nactions: []\n")
    try:
        load(bad)
    except FileProblems as e:
        assert any(p.startswith(f"{bad}:4: computer: player must be 1 or 2") or ":4: computer:" in p
                   for p in e.problems), e.problems
    else:
        raise AssertionError("refused")


def test_the_set_up_offers_the_computer(driver_factory) -> None:  # type: ignore[no-untyped-def]
    from game.ui.scenes.setup_battle import StartScene
    from game.ui.scenes.setup_state import SetupState

    st = SetupState(seed=5)                      # two valid lists: two units and a General each
    for player in (1, 2):
        lst = st.army_list(player)
        heroes = [n for n, p in lst.army.profiles.items() if p.is_hero and p.tough <= 6]
        multi = [n for n, p in lst.army.profiles.items() if p.size > 1 and not p.is_hero]
        unit = lst.add(multi[0])
        lst.add(multi[1])
        lst.join_hero(unit.id, heroes[0])
        lst.general = unit.hero_id
        assert st.problems(player) == []
    d = driver_factory(seed=5)
    d.frames(2)
    d.app.open_setup(st, 4)
    d.frames(2)
    start = d.scene
    assert isinstance(start, StartScene) and start.picker is not None
    _pick(d, start.picker.opponent, "The computer, as player 1")
    assert d.app.opponent == ComputerSeat(1, "ai")
    assert "vs the computer (normal)" in start.start_button.text
    d.click_button(start.start_button)
    scene = d.scene
    assert isinstance(scene, BattleScene) and scene.computer == ComputerSeat(1, "ai")
    assert scene.app.computer_seats[scene.game] == ComputerSeat(1, "ai")


def test_the_free_play_lesson_seats_the_thinking_computer_at_a_pace(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """Lesson 13's ``opponent: {policy: ai-easy}``: the computer opponent answers one decision at a time, through the
    lesson, with its reason in the lesson panel; the learner's keys act only on the learner's decisions."""
    from game.ui.scenes.lesson import LessonScene, start_lesson

    d = driver_factory(seed=2)
    d.frames(2)
    assert start_lesson(d.app, "13")
    scene = d.scene
    assert isinstance(scene, LessonScene) and scene.computer == ComputerSeat(2, "ai-easy")
    assert scene.run.paced_opponent
    start_round = scene.run.game.state.round

    def through_the_computers_turn() -> bool:
        p = scene.game.pending
        if scene.run.step_index >= 1 or p is None:
            return True
        if p.player == 1 and not scene.computer_deciding:
            d.key(pygame.K_SPACE)
            if p.decision == "charge_reaction" and scene.actions is not None:
                d.click_button(scene.actions.buttons["react:hold"])
        return False

    _until(d, through_the_computers_turn, frames=20000)
    assert scene.run.step_index >= 1 and scene.run.game.state.round > start_round   # round 1 played out
    said = [text for kind, text in scene.desk.notes if kind == "computer"] + \
        [text for kind, text in scene.desk.notes if kind == "explain"]
    assert said and scene.last_exception is None
    assert any(a.player == 2 for a in scene.game.history)


def test_an_answer_the_engine_refuses_gives_a_legal_one_and_says_so(driver_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Legal on its seat view but refused by the game (a hidden choice it could not see): the random player's legal
    answer for its seat is played instead, and the log says so."""
    from game.ai.explain import ExplainedPlayer

    monkeypatch.setattr(ExplainedPlayer, "choose_explained", lambda self, game: (Done(1), "a reason"))
    d = _vs_computer(driver_factory)
    scene = d.scene
    while scene.game.pending.player == 1:
        d.key(pygame.K_SPACE)
    n = len(scene.game.history)
    d.key(pygame.K_n)
    _until(d, lambda: len(scene.game.history) > n)
    assert scene.game.history[n].player == 2
    assert "the rules refused its own choice here" in _computer_lines(scene)[0]
    assert scene.last_exception is None


def test_resting_the_mouse_on_the_level_shows_what_the_level_does(driver_factory) -> None:  # type: ignore[no-untyped-def]
    """The drop-downs' tooltips show (pygame_gui hovers the closed menu's buttons, not the drop-down: TipDropDown
    passes the text on), and follow the level chosen."""
    from game.ui.opponent_picker import LEVEL_TIPS
    from game.ui.scenes.menu import MenuScene

    d = driver_factory(seed=4)
    d.frames(2)
    menu = d.scene
    assert isinstance(menu, MenuScene) and menu.picker is not None
    _pick(d, menu.picker.opponent, "The computer, as player 2")
    _pick(d, menu.picker.level, "Easy")
    d.move((5, 5), frames=3)
    d.move(menu.picker.level.rect.center, frames=90)
    shown = [b.tool_tip for b in menu.picker.level.current_state.active_buttons if b.tool_tip is not None]
    assert len(shown) == 1 and shown[0].text_block.html_text == LEVEL_TIPS["ai-easy"]
    d.move((5, 5), frames=3)
    d.move(menu.picker.opponent.rect.center, frames=90)
    assert any(b.tool_tip is not None for b in menu.picker.opponent.current_state.active_buttons)
