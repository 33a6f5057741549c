"""The computer opponent in an AoF:R 2.16 game (issue 13: real candidates through the ruleset seam,
``Ruleset.decision_options``) and the evaluation's charge estimate. Never timed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.ai import SearchPlayer
from game.ai.candidates import move_candidates
from game.ai.evaluate import charge_value, evaluate
from game.ai.view import seat_view
from game.autoplay import Player, RandomPlayer
from game.engine.actions import Action, Activate, ChooseDeployment, DeclareCharge, Done, Move, Shoot
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import Objective
from game.scenario import load_scenario, new_game_state
from game.terrain_kinds import default_traits
from game.tutorial.opponent import SimplePlayer
from geometry.pose import Pose
from geometry.terrain import TerrainShape, rect_to_polygon
from tests.rules.aofr.helpers import aofr_game, unit
from tests.rules.builders import ARCHERS, CENTRE_X, FRONT_Y, ORCS, forest

ROOT = Path(__file__).resolve().parents[2]
BORDER = ROOT / "scenarios" / "aofr_border_clash.yaml"


def test_aofr_lists_the_discrete_answers_of_an_activation() -> None:
    """AoF:R 2.16 "Activating Units": ``activate`` offers each unit not activated yet; ``action`` staying idle and
    each valid charge (moves are poses, not listed); ``shoot`` each valid target or done."""
    game = aofr_game([unit("a1", 1, x=28), unit("a2", 1, ARCHERS, x=46), unit("b1", 2, front_y=FRONT_Y + 8)])
    assert game.ruleset.decision_options() == [Activate(1, "a1"), Activate(1, "a2")]
    game.apply(Activate(1, "a1"))
    assert game.ruleset.decision_options() == [Done(1), DeclareCharge(1, "a1", "b1")]
    game.apply(Done(1))
    game.apply(Activate(2, "b1"))
    game.apply(Done(2))
    game.apply(Activate(1, "a2"))
    game.apply(Move(1, "a2", "hold", ()))
    assert game.ruleset.decision_options() == [Shoot(1, "a2", "b1"), Done(1)]


def test_aowfbr_lists_nothing_and_is_answered_by_name() -> None:
    """AoWFBR 1.4's decisions are answered by their names (docs/formats.md): the default lists nothing."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "tests" / "small_skirmish.yaml")),
                      Dice(seed=1))
    assert game.ruleset.decision_options() is None


def test_the_ai_activates_with_real_candidates_and_charges_what_it_beats() -> None:
    """An activation is judged by the best answer of the unit it activates: with a unit in reach of a weak enemy
    and one far from anything, the AI activates the first and charges (rather than standing idle)."""
    weak = unit("weak", 2, ARCHERS, models=3, front_y=FRONT_Y + 7, x=20)
    game = aofr_game([unit("orcs", 1, x=20), unit("far", 1, x=62), weak])
    player = SearchPlayer(3)
    view = seat_view(game, 1, random.Random(0))
    candidates, _ = player._candidates(view, 1)
    assert set(candidates) == {Activate(1, "orcs"), Activate(1, "far")}
    action = player.choose(game)
    assert action == Activate(1, "orcs")
    game.apply(action)
    assert player.choose(game) == DeclareCharge(1, "orcs", "weak")


def test_a_whole_aofr_game_never_falls_back_to_the_random_player(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every decision of an AoF:R game after deployment is the search's own and legal (the random fallback is
    only for a set-up rule the heuristics do not know)."""
    game = Game.start(new_game_state(load_scenario(BORDER)), Dice(seed=2))
    fallbacks: list[str] = []
    real = RandomPlayer.choose

    def spy(self: RandomPlayer, g: Game):  # type: ignore[no-untyped-def]
        if g.pending is not None and g.pending.player == 1 and g.pending.decision not in (
                "choose_objective_order", "place_objective", "deploy"):
            fallbacks.append(g.pending.decision)
        return real(self, g)

    monkeypatch.setattr(RandomPlayer, "choose", spy)
    seats: dict[int, Player] = {1: SearchPlayer(2), 2: SimplePlayer(3)}
    while game.pending is not None:
        action = seats[game.pending.player].choose(game)
        game.apply(action)
    assert game.state.game_over and fallbacks == []


def test_the_deployment_roll_off_winner_deploys_first_under_aofr() -> None:
    """AoF:R 2.16 "Deploying Armies": the roll-off winner deploys first. The AI would rather deploy second (to see
    the other side's units) where the rules let it choose; here it takes the answer the rules allow, not the random
    player's."""
    for seed in range(1, 30):
        game = Game.start(new_game_state(load_scenario(BORDER)), Dice(seed=seed))
        while game.pending is not None and game.pending.decision != "choose_deployment":
            game.apply(RandomPlayer(random.Random(seed)).choose(game))
        if game.pending is not None:
            break
    p = game.pending
    assert p is not None and p.decision == "choose_deployment"
    action = SearchPlayer(seed)._decide(game, p.player)
    assert isinstance(action, ChooseDeployment) and action.first == p.player
    game.apply(action)


def test_a_flank_charge_is_worth_more_than_a_frontal_one() -> None:
    """AoF:R 2.16 "Who Can Strike": a unit charged in its flank or rear does not strike back, so the evaluation
    expects more of a charge from the side or behind (the ruleset's terms: tests/ai/test_charge_estimate.py)."""
    target = unit("t", 2, ORCS, front_y=30.0, x=36.0)
    game = aofr_game([target])
    values = {}
    for name, (x, y) in {"front": (36.0, 20.0), "flank": (20.0, 33.0), "rear": (36.0, 45.0)}.items():
        charger = unit("c", 1, ORCS, front_y=y, x=x)
        values[name] = charge_value(game, charger, target)
    assert values["front"] < values["flank"]
    assert values["front"] < values["rear"]


def test_a_move_blocked_by_impassable_terrain_goes_around() -> None:
    """A wall of impassable terrain straight between a unit and the enemy: the move toward the enemy is turned
    aside (``DETOURS``) rather than given up."""
    wall = forest(36.0, FRONT_Y + 2.5, 14.0, 2.0, traits=("impassable",))
    game = aofr_game([unit("orcs", 1, x=36), unit("b1", 2, front_y=FRONT_Y + 30, x=36)], terrain=[wall])
    game.apply(Activate(1, "orcs"))
    start = game.state.units["orcs"].pose
    assert start is not None
    straight = Move(1, "orcs", "advance", (Pose(36.0, start.y + 4.0, 0.0),))
    assert game.check_move(straight) is not None          # the straight advance is refused
    moves = move_candidates(game, game.state.units["orcs"], 7)
    assert any(m.action in ("advance", "rush") for m in moves)


def test_a_candidate_that_ends_its_activation_is_judged_where_it_ends() -> None:
    """AoF:R 2.16 "Activating Units": staying idle ends the unit's activation and the other player activates next.
    The search judges every candidate of the decision at the end of the same activation, with the other side to
    act next: the idle candidate is not played on through the enemy's activation (where the passive rollout
    policy would let the enemy stand idle), nor scored as if its own side acted next. Both flattered it against a
    move and made the computer stand idle within the enemy's charge reach, the threat unseen."""
    seen: list[tuple[Action, int, int, bool]] = []

    class Spy(SearchPlayer):
        def _observe(self, action: Action, view: Game, twin: Game, value: float) -> None:
            activations = sum(e.kind == "activate" for e in twin.log[len(view.log):])
            enemy_first, own_first = evaluate(twin, 1, 2), evaluate(twin, 1, 1)
            enemy_next = value == pytest.approx(enemy_first) and enemy_first != pytest.approx(own_first)
            seen.append((action, twin.state.active_player, activations, enemy_next))

    # a weak enemy within charge reach: who acts next changes the score
    game = aofr_game([unit("orcs", 1, x=20), unit("near", 2, ARCHERS, models=3, front_y=FRONT_Y + 9, x=20)])
    game.apply(Activate(1, "orcs"))
    assert game.pending is not None and game.pending.decision == "action"
    view = seat_view(game, 1, random.Random(0))
    pose = view.state.units["orcs"].pose
    assert pose is not None
    move = Move(1, "orcs", "advance", (Pose(pose.x, pose.y + 2.0, 0.0),))
    assert view.check_move(move) is None
    player = Spy(4)
    for depth in (0, 1):
        for action in (Done(1), move):
            assert player._judge(view, action, 1, [1], depth) is not None
    # (the move ends the activation too: the unit has nothing to shoot)
    assert seen == [(Done(1), 2, 0, True), (move, 2, 0, True)] * 2


@pytest.mark.parametrize("controller", [None, 2, 1])
def test_a_marker_far_from_every_enemy_still_pulls_the_unit_nearest_to_it(controller: int | None,
                                                                          monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "The Mission": a unit within 3" of a marker at the end of a round, no enemy within 3", seizes it.
    A marker on the far left, the only enemy on the far right: player 1 is already more than 12" nearer, where the
    race to the markers (``OBJECTIVE_PULL``) gives nothing more. Its unit 6" nearer the marker still scores
    better by the way still to go (``MARKER_APPROACH``); without that term a unit left such a marker alone and a
    neutral or enemy marker nobody contested was lost (a draw against a random player). A marker it holds already
    stays held without anybody near: no pull."""
    import game.ai.evaluate as ev

    def score(y: float) -> float:
        game = aofr_game([unit("a", 1, front_y=y, x=8.0), unit("b", 2, front_y=40.0, x=66.0)])
        game.state.mission = "standard"
        game.state.objectives = [Objective(8.0, 38.0, controller=controller)]
        return evaluate(game, 1, 2)

    per_inch = ev.MARKER_APPROACH * ev.MARKER / 100.0
    assert per_inch > 0.0
    gain = score(FRONT_Y + 6.0) - score(FRONT_Y)
    monkeypatch.setattr(ev, "MARKER_APPROACH", 0.0)
    without = score(FRONT_Y + 6.0) - score(FRONT_Y)
    assert gain - without == pytest.approx(0.0 if controller == 1 else per_inch * 6.0)


def test_a_move_toward_a_marker_on_elevation_goes_as_far_as_the_climb_allows() -> None:
    """AoF:R 2.16 "Elevation": the 4" climb onto a tall hill counts as movement, so an Advance of 6" toward a marker
    on top is refused. The candidate toward the marker goes 6" less the climb (2", less a hundredth), not a quarter
    of the Advance (1.5", the fractions alone: a unit crept 1.5" a round below the Watchtower Crag of
    aofr_crag_and_drake.yaml)."""
    hill = TerrainShape(0, "Tall Hill", rect_to_polygon(CENTRE_X, FRONT_Y + 20.0, 30, 38), default_traits("hill"),
                        4.0)
    game = aofr_game([unit("a", 1), unit("b", 2, front_y=46.0, x=66.0)], terrain=[hill])
    game.state.mission = "standard"
    game.state.objectives = [Objective(CENTRE_X, FRONT_Y + 20.0)]
    game.apply(Activate(1, "a"))
    a = game.state.units["a"]
    assert a.pose is not None
    start = a.pose.y
    advances = [m for m in move_candidates(game, a, 7) if m.action == "advance" and m.path[-1].x == a.pose.x]
    assert advances, "no straight advance toward the marker"
    assert max(m.path[-1].y - start for m in advances) == pytest.approx(2.0, abs=0.02)


def test_a_short_climb_does_not_win_over_a_longer_way_round_the_hill() -> None:
    """AoF:R 2.16 "Elevation": the try short of the climb takes its place among the other tries by the progress it
    makes toward the goal, not at once. A tall hill begins right of the unit's centre, ahead: the straight Advance
    climbs (2" short of the climb), the Advance turned 60 degrees to the left clears the hill and makes 3" of
    progress, so it is the move toward the goal (before, the first straight try refused for its climb returned the
    2" step: on aofr_crag_and_drake.yaml a pike square crept 2" a round beside a friend)."""
    from game.ai.candidates import _first_legal, allowances

    hill = TerrainShape(0, "Tall Hill", rect_to_polygon(CENTRE_X + 10.0, FRONT_Y + 7.0, 20, 11),
                        default_traits("hill"), 4.0)
    game = aofr_game([unit("a", 1), unit("b", 2, front_y=46.0, x=66.0)], terrain=[hill])
    game.apply(Activate(1, "a"))
    a = game.state.units["a"]
    assert a.pose is not None
    move = _first_legal(game, a, "advance", 0.0, [allowances(a)[0]])
    assert move is not None
    end = move.path[-1]
    assert end.facing == pytest.approx(300.0)
    assert end.y - a.pose.y == pytest.approx(3.0, abs=0.02)


@pytest.mark.parametrize("last", [True, False])
def test_in_the_last_round_the_result_the_markers_give_counts_beyond_one_marker(last: bool,
                                                                                 monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "The Mission": after the last round the player who controls most markers wins. Player 1 holds
    one marker, player 2 the other; player 1's unit standing alone within 3" of player 2's marker would seize it at
    the round's end: a win (2-0), not a draw (1-1). In the last round that result counts ``RESULT_LAST`` on top of
    the marker (a draw turned into a win is worth more than one marker); before it, nothing is decided yet."""
    import game.ai.evaluate as ev

    def score(x: float) -> float:
        game = aofr_game([unit("a", 1, front_y=36.0, x=x), unit("b", 2, front_y=44.0, x=66.0)])
        game.state.mission = "standard"
        game.state.objectives = [Objective(8.0, 8.0, controller=1), Objective(8.0, 38.0, controller=2)]
        if last:
            game.state.round = game.state.rounds
        return evaluate(game, 1, 2)

    on_marker = score(8.0) - score(40.0)
    monkeypatch.setattr(ev, "RESULT_LAST", 0.0)
    without = score(8.0) - score(40.0)
    assert on_marker - without == pytest.approx(500.0 if last else 0.0)


def test_each_unit_walks_to_one_marker_and_the_way_to_the_other_is_a_second_units(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """AoF:R 2.16 "The Mission": two markers on the far left, one unit beside them and one far to the right. The way
    still to go (``MARKER_APPROACH``) counts each marker's inches from the unit sent to it, each unit to one marker
    (``_marker_walkers``): the unit beside both counts for the nearer, so the far unit walking 6" toward the other
    marker scores the inches it gains (with only the nearest unit counted, the near unit stood for both and the far
    one was pulled by nothing: on aofr_border_clash.yaml a marker on the computer's own side was never taken)."""
    import game.ai.evaluate as ev

    def game_with(far_x: float) -> Game:
        game = aofr_game([unit("near", 1, front_y=30.0, x=8.0), unit("far", 1, front_y=30.0, x=far_x),
                          unit("b", 2, front_y=44.0, x=66.0)])
        game.state.mission = "standard"
        game.state.objectives = [Objective(8.0, 36.0), Objective(20.0, 36.0)]
        return game

    game = game_with(50.0)
    on = [u for u in game.state.units.values() if u.pose is not None]
    scene = game.state.scene
    to_marker = {u.id: scene.distances_to_points(u.id, [(8.0, 36.0), (20.0, 36.0)]) for u in on}
    walkers = ev._marker_walkers(game, 1, on, to_marker)
    assert walkers == {0: scene.distance_to_point("near", (8.0, 36.0)), 1: scene.distance_to_point("far", (20.0, 36.0))}
    walked = scene.distance_to_point("far", (20.0, 36.0)) - game_with(44.0).state.scene.distance_to_point(
        "far", (20.0, 36.0))
    assert walked > 5.0
    per_inch = ev.MARKER_APPROACH * ev.MARKER / 100.0
    gain = evaluate(game_with(44.0), 1, 2) - evaluate(game_with(50.0), 1, 2)
    monkeypatch.setattr(ev, "MARKER_APPROACH", 0.0)
    without = evaluate(game_with(44.0), 1, 2) - evaluate(game_with(50.0), 1, 2)
    assert gain - without == pytest.approx(per_inch * walked)


def test_a_wavering_unit_yet_to_activate_will_contest_the_marker_at_the_rounds_end() -> None:
    """AoF:R 2.16 "The Mission": "Wavering units can't seize or stop others from seizing them"; "Wavering": its
    activation is idle, "which stops it from being Wavering at the end of its activation". Player 1's unit stands
    within 3" of its own marker, a Wavering enemy beside it. While that enemy's activation is still to come this
    round, it will be steady at the round's end and make the marker neutral: the evaluation counts the marker lost
    (``SEIZING`` of it); once it has activated this round it stays Wavering and the marker stays player 1's (on
    aofr_wizards_ford.yaml the computer walked away from a marker a Wavering hero stood on, and lost it)."""
    import game.ai.evaluate as ev

    def objectives_term(activated: bool) -> float:
        game = aofr_game([unit("a", 1, front_y=32.0, x=20.0), unit("b", 2, front_y=36.5, x=20.0)])
        game.state.mission = "standard"
        game.state.objectives = [Objective(20.0, 34.25, controller=1)]
        game.state.units["b"].shaken = True
        scene = game.state.scene
        assert scene.distance_to_point("a", (20.0, 34.25)) <= 3.0
        assert scene.distance_to_point("b", (20.0, 34.25)) <= 3.0
        if activated:
            game.state.activation.activated.append("b")
        assert [u.id for u in ev._recovering(game)] == ([] if activated else ["b"])
        return ev.evaluate_terms(game, 1, 2)["objectives"]

    assert objectives_term(True) - objectives_term(False) == pytest.approx(ev.SEIZING * ev.MARKER)
