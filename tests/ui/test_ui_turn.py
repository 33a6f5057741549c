"""Play through turns with posted mouse and keyboard events, as a player would."""

from __future__ import annotations

import pygame

from game.engine.actions import DeclareCharge, Done, Move
from game.engine.state import Phase, Step
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.results import ResultsScene


def _to_movement(d) -> BattleScene:  # type: ignore[no-untyped-def]
    scene = d.scene
    assert isinstance(scene, BattleScene)
    assert scene.game.pending.decision == "strategy"
    d.key(pygame.K_SPACE)                       # 1. First Strategy Phase: Done
    assert scene.game.pending.decision == "declare_charge"
    d.key(pygame.K_SPACE)                       # 2.1 no charges: Done
    assert scene.game.pending.decision == "move"
    assert scene.game.state.step is Step.REMAINING_MOVES
    return scene


def test_drag_a_unit_forward_and_confirm(battle) -> None:  # type: ignore[no-untyped-def]
    scene = _to_movement(battle)
    game = scene.game
    uid = game.units_to_move(1)[0]
    unit = game.state.units[uid]
    before = unit.pose
    start = battle.table_px(before.xy)
    end = battle.table_px((before.x, before.y + 3.0))
    battle.drag(start, end)
    assert scene.tool is not None and scene.tool.unit.id == uid
    ev = scene.tool.evaluate()
    assert ev.legal, ev.error
    assert ev.action == "advance"
    assert 2.5 < ev.distance < 3.5
    n = len(game.history)
    battle.key(pygame.K_RETURN)
    assert len(game.history) == n + 1
    action = game.history[-1]
    assert isinstance(action, Move)
    assert action.unit == uid and action.player == 1 and action.action == "advance"
    after = game.state.units[uid].pose
    assert after != before
    assert abs(after.y - before.y - 3.0) < 0.5 and abs(after.x - before.x) < 0.2
    assert uid not in game.units_to_move(1)
    assert scene.tool is None
    assert scene.last_exception is None


def test_pivot_with_keys_then_confirm_is_a_hold(battle) -> None:  # type: ignore[no-untyped-def]
    scene = _to_movement(battle)
    game = scene.game
    uid = game.units_to_move(1)[0]
    before = game.state.units[uid].pose
    battle.click(battle.table_px(before.xy))
    assert scene.selected == uid
    battle.key(pygame.K_e)                                   # 5 degrees clockwise
    battle.key(pygame.K_e, mod=pygame.KMOD_SHIFT)           # 15 more
    battle.key(pygame.K_q)                                   # 5 back
    assert scene.tool is not None
    assert abs(scene.tool.ghost.facing - 15.0) < 1e-6
    battle.key(pygame.K_RETURN)
    action = game.history[-1]
    assert isinstance(action, Move) and action.action == "hold"
    assert abs(game.state.units[uid].pose.facing - 15.0) < 1e-6
    assert game.state.units[uid].pose.xy == before.xy


def test_illegal_move_names_the_rule_and_changes_nothing(battle) -> None:  # type: ignore[no-untyped-def]
    scene = _to_movement(battle)
    game = scene.game
    uid = game.units_to_move(1)[0]
    unit = game.state.units[uid]
    before = unit.pose
    start = battle.table_px(before.xy)
    end = battle.table_px((before.x, before.y - 30.0))   # off the table behind the unit
    battle.drag(start, end)
    ev = scene.tool.evaluate()
    assert not ev.legal
    assert ev.error.rule and ev.error.message
    n = len(game.history)
    battle.key(pygame.K_RETURN)
    assert len(game.history) == n
    assert game.state.units[uid].pose == before
    assert scene.error is not None                      # shown on the table and in the banner
    assert scene.banner is not None and scene.error.rule in scene.banner[0]
    battle.key(pygame.K_ESCAPE)
    assert scene.tool is None


def test_buttons_work_like_keys(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    battle.click_button(scene.actions.buttons["done"])
    assert isinstance(game.history[-1], Done)
    assert game.pending.decision == "declare_charge"


def test_declare_a_charge_by_clicking_the_target(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    # walk the turns with Done until some unit of the deciding player has a charge target
    for _ in range(80):
        scene = battle.scene
        if isinstance(scene, HandoverScene):
            battle.pass_handover()
            continue
        assert isinstance(scene, BattleScene)
        pending = game.pending
        if pending.decision == "declare_charge" and game.chargers(pending.player):
            break
        if pending.decision == "move":
            # close the distance: rush every unit straight ahead
            for uid in game.units_to_move(pending.player):
                u = game.state.units[uid]
                from game.engine.actions import Move as M
                from geometry.pose import Pose
                for dist in (12.0, 9.0, 6.0, 3.0):
                    p = u.pose.advanced(dist)
                    for kind in ("rush", "advance"):
                        if game.check_move(M(player=pending.player, unit=uid, action=kind,
                                             path=(Pose(p.x, p.y, u.pose.facing),))) is None:
                            start = battle.table_px(u.pose.xy)
                            battle.drag(start, battle.table_px(p.xy), steps=12)
                            battle.key(pygame.K_RETURN)
                            break
                    else:
                        continue
                    break
        battle.key(pygame.K_SPACE)
    else:
        raise AssertionError("no charge became possible")
    pending = game.pending
    charger = game.chargers(pending.player)[0]
    target = game.charge_targets(charger)[0]
    battle.click(battle.table_px(game.state.units[charger].pose.xy))
    assert scene.selected == charger
    assert target in scene.targets_of(charger)
    battle.click(battle.table_px(game.state.units[target].pose.xy))
    action = game.history[-1]
    assert isinstance(action, DeclareCharge) and action.unit == charger and action.target == target
    assert scene.last_exception is None


def test_hand_over_between_players_and_results_at_the_end(battle) -> None:  # type: ignore[no-untyped-def]
    """Done through every step of the game: hand-over screens name the next player; results come last."""
    seen_handover_players = []
    for _ in range(600):
        scene = battle.scene
        if isinstance(scene, ResultsScene):
            break
        if isinstance(scene, HandoverScene):
            seen_handover_players.append(scene.player)
            battle.pass_handover()
            assert battle.scene.view.flipped == (scene.player == 2)   # the deciding player's edge at the bottom
            continue
        pending = scene.game.pending
        if pending.decision in ("charge_reaction", "redirect", "pursue", "follow_up", "consolidate"):
            raise AssertionError(f"unexpected decision {pending}")
        battle.key(pygame.K_SPACE)
    else:
        raise AssertionError("the game did not end")
    assert seen_handover_players[:3] == [2, 1, 2]
    game = battle.scene.game
    assert game.state.game_over
    assert game.state.phase is Phase.RALLY
    results = battle.scene
    assert results.vp == game.victory_points()
    battle.click_button(results.table)                 # look at the final table, then back to the results
    assert isinstance(battle.scene, BattleScene)
    battle.click_button(battle.scene.actions.buttons["results"])
    assert isinstance(battle.scene, ResultsScene)


def test_held_space_ends_only_one_step_and_handover_needs_a_fresh_press(battle) -> None:  # type: ignore[no-untyped-def]
    scene = battle.scene
    game = scene.game
    for _ in range(3):   # key repeat: KEYDOWN without KEYUP
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        battle.frames(1)
    assert len(game.history) == 1 and game.pending.decision == "declare_charge"
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    battle.frames(1)
    # through to the end of player 1's turn, then the hand-over to player 2 ignores an immediate Space
    for _ in range(40):
        if isinstance(battle.scene, HandoverScene):
            break
        battle.key(pygame.K_SPACE)
    handover = battle.scene
    assert isinstance(handover, HandoverScene) and handover.player == 2
    battle.key(pygame.K_SPACE, frames=1)
    assert battle.scene is handover
    battle.pass_handover()
    assert isinstance(battle.scene, BattleScene) and game.pending.player == 2


def test_every_action_in_the_window_is_recorded_in_the_user_data_folder(battle) -> None:  # type: ignore[no-untyped-def]
    """Issue: every game played in the window is saved as a game record in the user's data folder."""
    from game.files import records_dir
    from game.record import load_record, replay

    scene = _to_movement(battle)
    files = sorted(records_dir().glob("*.yaml"))
    assert len(files) == 1
    record = load_record(files[0])
    assert [a.to_dict() for a in record.actions] == [a.to_dict() for a in scene.game.history]
    result = replay(record)
    assert result.ok and result.game.digests == scene.game.digests


def test_a_drop_just_past_the_rush_is_pulled_back_to_it(battle) -> None:  # type: ignore[no-untyped-def]
    """A drag that ends a little past what the rules allow is pulled back along the drag to the farthest legal
    pose, and the note says so; a drag far past stays red with its reason."""
    from game.engine.movement import move_allowance
    from game.engine.state import MoveAction

    scene = _to_movement(battle)
    game = scene.game
    uid = next(u for u in game.units_to_move(1)
               if game.check_move(Move(1, u, "rush", (game.state.units[u].pose.advanced(
                   move_allowance(game.state.units[u], MoveAction.RUSH) - 0.05),))) is None)
    unit = game.state.units[uid]
    rush = move_allowance(unit, MoveAction.RUSH)
    start = battle.table_px(unit.pose.xy)
    battle.drag(start, battle.table_px(unit.pose.advanced(rush + 1.0).xy))
    tool = scene.tool
    ev = tool.evaluate()
    assert ev.legal and ev.action == "rush", ev.error
    assert tool.pulled is not None and 0.8 < tool.pulled[0] < 1.3
    assert rush - 0.1 < ev.distance <= rush + 1e-6
    battle.key(pygame.K_RETURN)
    assert isinstance(game.history[-1], Move) and game.history[-1].unit == uid
