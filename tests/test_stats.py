"""The statistics of a battle (issue 15 "The story of a battle"): figures worked out by hand on a fixed-dice record,
invariants over whole autoplayed games, and ``main.py stats`` (exit codes, JSON and CSV written, bad files refused).
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import main
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.victory import victory_points
from game.players import make_player
from game.record import load_record, replay
from game.replay import ReplayCursor
from game.saves import save_game
from game.scenario import load_scenario, new_game_state
from game.stats import BattleStats, apportion, game_stats, record_stats, success_chance

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "scenarios" / "tests" / "records"
SMALL = ROOT / "scenarios" / "tests" / "small_skirmish.yaml"
DEFAULT = ROOT / "scenarios" / "default.yaml"
UNDEAD = ROOT / "scenarios" / "undead_vs_humans_1500.yaml"   # casters, spells, Regeneration


def autoplayed(scenario: Path, seed: int, players: str = "simple") -> Game:
    """A whole game between two computer players."""
    from game.autoplay import play_out

    game = Game.start(new_game_state(load_scenario(scenario)), Dice(seed=seed))
    play_out(game, seed, players={1: make_player(players, seed), 2: make_player(players, seed + 1)})
    return game


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[Path]:
    """Records of a few whole games (both sides' rule-based players, and random ones)."""
    folder = tmp_path_factory.mktemp("stats")
    out = []
    for scenario, seed, players in ((SMALL, 3, "simple"), (DEFAULT, 3, "simple"), (DEFAULT, 8, "random"),
                                    (SMALL, 12, "random"), (UNDEAD, 21, "random")):
        game = autoplayed(scenario, seed, players)
        out.append(save_game(game, scenario, folder / f"{scenario.stem}-{seed}-{players}.yaml"))
    return out


# --- by hand ----------------------------------------------------------------------------------------------------


def test_counter_vs_impact_worked_out_by_hand() -> None:
    """scenarios/tests/records/counter_vs_impact.yaml (its comments give every die): rulebook "Order of Attacks",
    "Counter", "Impact(X)". The Chariots take 2 wounds and lose nobody; the Militia's 5 models all fall."""
    stats = record_stats(load_record(RECORDS / "counter_vs_impact.yaml"))
    chariots, militia = stats.unit("chariots-1"), stats.unit("militia-1")
    # Chariots: Impact 3 hits -> 2 wounds (2 dead), Scythes 1 hit -> 1 wound (1 dead); round 2: Scythes 2 hits
    # -> 2 wounds, Impact attacks 4 hits -> 4 wounds: 6 wounds on the last 2 Militia
    assert (chariots.hits, chariots.wounds_dealt, chariots.kills) == (3 + 1 + 2 + 4, 2 + 1 + 2 + 4, 2 + 1 + 2)
    assert (chariots.wounds_taken, chariots.models_lost) == (2, 0)
    assert (chariots.charges, chariots.charges_declared) == (1, 1)
    # Militia: Counter 2 hits -> 1 wound; round 2: 1 hit -> 1 wound (Tough(3): no Chariot falls)
    assert (militia.hits, militia.wounds_dealt, militia.kills) == (2 + 1, 1 + 1, 0)
    assert (militia.wounds_taken, militia.models_lost, militia.status) == (9, 5, "destroyed")
    assert militia.vp_given == militia.cost and chariots.vp_earned == militia.cost
    assert stats.players[1].vp == militia.cost and stats.players[2].vp == 0
    # luck to hit, player 1: Impact 4 dice at 2+, Scythes 3 + 3 dice at 4+, Impact attacks 7 dice at 4+
    p1, p2 = stats.players[1], stats.players[2]
    assert p1.hits.dice == 17 and p1.hits.actual == 10
    assert p1.hits.expected == pytest.approx(4 * 5 / 6 + 3 / 2 + 3 / 2 + 7 / 2)
    # player 2 to hit: 5 + 2 dice at 5+; Defense of the Chariots, 2 + 1 dice at 4+: one block (the 5)
    assert (p2.hits.dice, p2.hits.actual) == (7, 3) and p2.hits.expected == pytest.approx(7 / 3)
    assert (p1.defense.dice, p1.defense.actual) == (3, 1) and p1.defense.expected == pytest.approx(1.5)
    # the Militia's Defense, 10 dice at 5+: only the 6 of the first roll blocks
    assert (p2.defense.dice, p2.defense.actual) == (10, 1) and p2.defense.expected == pytest.approx(10 / 3)
    assert p2.defense.luck == pytest.approx(1 - 10 / 3)
    # turning points: player 2's turn of round 1 (the Militia destroyed in their close combat phase) swings most
    first = stats.turning_points[0]
    assert (first.round, first.player) == (1, 2)
    assert first.text.startswith("Tusk Chariots destroy Canton Spear Militia")
    assert first.vp_swing == stats.players[1].vp - stats.turning_points[1].vp_swing
    assert stats.turning_points[1].text.startswith("Tusk Chariots kill 3 models of Canton Spear Militia")


def test_stand_and_shoot_wounds_go_to_the_shooters() -> None:
    """charge_stand_and_shoot.yaml: the Crossbowmen's 3 hits at 5+ (Stand and Shoot, -1), 2 wounds."""
    stats = record_stats(load_record(RECORDS / "charge_stand_and_shoot.yaml"))
    xbows, warriors = stats.unit("crossbows-1"), stats.unit("warriors-1")
    assert (xbows.hits, xbows.wounds_dealt, warriors.wounds_taken) == (3, 2, 2)
    assert stats.players[2].hits.dice == 5 and stats.players[2].hits.actual == 3
    assert stats.players[2].hits.expected == pytest.approx(5 * success_chance(4, -1))


def test_success_chance_follows_natural_six_and_one() -> None:
    """Rulebook "Modifiers": a natural 6 always succeeds and a natural 1 always fails."""
    assert success_chance(4, 0) == pytest.approx(1 / 2)
    assert success_chance(7, 0) == pytest.approx(1 / 6)      # only the 6
    assert success_chance(2, 3) == pytest.approx(5 / 6)      # never the 1
    assert success_chance(5, -1) == pytest.approx(1 / 6)


@given(st.integers(0, 2000), st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 50), min_size=1))
def test_apportion_sums_exactly_and_follows_the_weights(total: int, weights: dict[str, int]) -> None:
    out = apportion(total, weights)
    if sum(weights.values()) == 0:
        assert out == {}
        return
    assert sum(out.values()) == total
    whole = sum(weights.values())
    for k, w in weights.items():
        assert abs(out[k] - Fraction(total * w, whole)) < 1


# --- invariants over whole games ----------------------------------------------------------------------------------


def check_invariants(stats: BattleStats, game: Game, cursor: ReplayCursor) -> None:
    casualties = sum(int(e.data.get("killed", 0)) for e in game.log if e.kind == "wounds")
    wounds = sum(int(e.data.get("wounds", 0)) for e in game.log if e.kind == "wounds")
    assert sum(u.models_lost for u in stats.units) == casualties == stats.casualties
    assert sum(u.kills for u in stats.units) + stats.unattributed_kills == casualties
    assert sum(u.wounds_taken for u in stats.units) == wounds
    assert sum(u.wounds_dealt for u in stats.units) + stats.unattributed_wounds == wounds
    for u in stats.units:
        unit = game.state.units[u.id]
        assert u.models_start - u.models_lost <= max(unit.models, 0) + (unit.starting_models - u.models_start)
        if u.status == "destroyed":
            assert u.models_left == 0
    vp = victory_points(game.state)
    for p in (1, 2):
        ps = stats.players[p]
        assert ps.vp == vp[p]
        mine = sum(u.vp_earned for u in stats.units if u.player == p)
        given = sum(u.vp_given for u in stats.units if u.player != p)
        other = sum(v for _, v in ps.vp_other)
        assert mine + ps.vp_unassigned == given
        assert given + other == vp[p]
        for luck in (ps.hits, ps.defense):
            assert 0 <= luck.expected <= luck.dice and 0 <= luck.actual <= luck.dice
    assert stats.turns[-1].vp == vp and stats.rounds_end[-1].vp == vp
    assert [t.round for t in stats.rounds_end] == sorted({t.round for t in stats.turns})
    swings = [abs(t.vp_swing) for t in stats.turning_points]
    assert swings == sorted(swings, reverse=True)
    for tp in stats.turning_points:
        mark = cursor.marks[tp.action]   # the action was taken in the turning point's player turn
        assert (mark.round, mark.player) == (tp.round, tp.player)
    # the turns' swings add up to the whole game's
    start = stats.start
    assert start is not None
    total = stats.turns[-1].vp_difference - start.vp_difference
    per_turn = [b.vp_difference - a.vp_difference for a, b in zip([start, *stats.turns], stats.turns, strict=False)]
    assert sum(per_turn) == total


def test_invariants_hold_over_whole_games(games: list[Path]) -> None:
    for path in games:
        record = load_record(path)
        result = replay(record)
        assert result.ok and result.game.state.game_over
        stats = record_stats(record)
        assert stats.problem is None and stats.game_over and stats.actions == len(record.actions)
        check_invariants(stats, result.game, ReplayCursor(record))


def test_melee_wounds_credited_match_the_melee_resolution(games: list[Path]) -> None:
    """Rulebook "Melee Resolution" counts the wounds each side caused: the wounds credited to a player's units in
    the actions with a melee add up to that player's resolution wounds (before Fear)."""
    for path in games:
        record = load_record(path)
        game = replay(record).game
        caused = {1: 0, 2: 0}
        for e in game.log:
            if e.kind == "resolution":
                for uid, n in e.data["caused"].items():
                    caused[game.state.units[uid].player] += n
        shooting = {1: 0, 2: 0}   # wounds from shooting and spells, told apart by their source in the text
        for e in game.log:
            if e.kind == "wounds" and " from melee" not in e.text and " from dangerous terrain" not in e.text:
                victim = game.state.units[e.data["unit"]].player
                shooting[3 - victim] += e.data["wounds"]
        stats = record_stats(record)
        for p in (1, 2):
            dealt = sum(u.wounds_dealt for u in stats.units if u.player == p)
            assert dealt == caused[p] + shooting[p], path.name


def test_an_unfinished_game_and_one_that_breaks_off(games: list[Path]) -> None:
    record = load_record(games[0])
    half = len(record.actions) // 2
    start = replay(record, 0).game
    stats = game_stats(start, record.actions[:half], record.digests)
    assert not stats.game_over and stats.actions == half and stats.problem is None
    assert stats.turns[-1].position == half
    assert start.history == []     # the starting game is left as it was
    digests = list(record.digests)
    digests[half] = "0000000000"
    broken = game_stats(start, record.actions, digests)
    assert broken.actions == half and broken.problem is not None and "action " + str(half) in broken.problem


# --- the command line ---------------------------------------------------------------------------------------------


def test_cli_prints_and_writes_json_and_csv(games: list[Path], tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out_json, out_csv = tmp_path / "s.json", tmp_path / "s.csv"
    assert main.main(["stats", str(games[1]), "--json", str(out_json), "--csv", str(out_csv)]) == 0
    text = capsys.readouterr().out
    assert "victory points" in text and "Turning points" in text and "luck to hit" in text
    data = json.loads(out_json.read_text(encoding="utf-8"))
    stats = record_stats(load_record(games[1]))
    assert data["format"] == "regiments-stats/1" and data["record"].endswith(games[1].name)
    assert data["victory_points"] == {"1": stats.players[1].vp, "2": stats.players[2].vp}
    assert len(data["units"]) == len(stats.units) and data["units"][0]["id"] == stats.units[0].id
    assert set(data["players"]["1"]["luck"]) == {"hits", "defense"}
    assert [t["position"] for t in data["turns"]] == [t.position for t in stats.turns]
    for tp in data["turning_points"]:
        assert tp["position"] == tp["action"] + 1 and tp["text"]
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert [r["id"] for r in rows] == [u.id for u in stats.units]
    assert sum(int(r["models_lost"]) for r in rows) == stats.casualties


def test_cli_refuses_a_bad_record(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: regiments-record/1\nscenario: ../nowhere.yaml\ndice: {seed: 1}\nactions:\n"
                   "  - {type: fly, player: 1}\n", encoding="utf-8")
    assert main.main(["stats", str(bad), "--json", str(tmp_path / "o.json")]) == 2
    out = capsys.readouterr().out
    assert f"{bad}:5: actions[0]" in out
    assert not (tmp_path / "o.json").exists()
    assert main.main(["stats", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml:1:" in capsys.readouterr().out
    # a scenario that cannot be found
    bad.write_text(yaml.safe_dump({"format": "regiments-record/1", "scenario": "nowhere.yaml", "dice": {"seed": 1},
                                   "actions": []}), encoding="utf-8")
    assert main.main(["stats", str(bad)]) == 2
    assert "nowhere.yaml" in capsys.readouterr().out


def test_cli_output_that_cannot_be_written_exits_2(games: list[Path], tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    assert main.main(["stats", str(games[0]), "--csv", str(tmp_path / "a-file" / "x.csv")]) == 2
    assert "cannot write" in capsys.readouterr().out


# --- AoF:R 2.16: the mission's objective markers, not Victory Points ----------------------------------------------

AOFR = ROOT / "scenarios" / "aofr_border_clash.yaml"


@pytest.fixture(scope="module")
def aofr_games(tmp_path_factory) -> list[Path]:
    """Records of whole AoF:R 2.16 games of the shipped scenario."""
    folder = tmp_path_factory.mktemp("stats-aofr")
    return [save_game(autoplayed(AOFR, seed, players), AOFR, folder / f"aofr-{seed}-{players}.yaml")
            for seed, players in ((4, "simple"), (7, "random"))]


def test_aofr_statistics_count_objective_markers(aofr_games: list[Path]) -> None:
    """AoF:R 2.16 "The Mission": the score is the objective markers held, per round; units removed score nothing
    (VP earned and given are 0 and not shown); turning points are activations; melee attacks count in the dice luck
    (every hit die of a player's units: shooting and melee); wounds credited in melee are those the book's melee
    result counts."""
    for path in aofr_games:
        record = load_record(path)
        game = replay(record).game
        stats = record_stats(record)
        assert stats.problem is None and stats.game_over
        assert stats.score_words == ("objective markers held", "markers") and not stats.units_score
        assert stats.turn_word == "activation"
        held = game.victory_points()
        controlled = {p: sum(1 for o in game.state.objectives if o.controller == p) for p in (1, 2)}
        assert held == controlled
        for p in (1, 2):
            assert stats.players[p].vp == held[p]
            assert sorted(stats.players[p].vp_other) == sorted(      # a line per marker (AoF:R "Duel")
                (f"objective marker {i + 1} held", 1) for i, o in enumerate(game.state.objectives)
                if o.controller == p)
        assert all(u.vp_earned == 0 and u.vp_given == 0 for u in stats.units)
        assert stats.rounds_end[-1].vp == held and [t.round for t in stats.rounds_end] == [1, 2, 3, 4]
        # the hit dice of each player: every "shoot" and melee "info" event's attacks (Impact hits are automatic)
        attacks = {1: 0, 2: 0}
        for e in game.log:
            if e.kind in ("shoot", "info") and "attacks" in e.data and e.data.get("unit") in game.state.units:
                attacks[game.state.units[e.data["unit"]].player] += e.data["attacks"]
        assert {p: stats.players[p].hits.dice for p in (1, 2)} == attacks
        # melee wounds credited = the wounds each side caused in the melee results
        caused = {1: 0, 2: 0}
        for e in game.log:
            if e.kind == "melee" and "caused" in e.data:
                for uid, n in e.data["caused"].items():
                    caused[game.state.units[uid].player] += n
        shooting = {1: 0, 2: 0}
        for e in game.log:
            if e.kind == "wounds" and "from melee" not in e.text and "from dangerous terrain" not in e.text:
                shooting[3 - game.state.units[e.data["unit"]].player] += e.data["wounds"]
        melee = {p: sum(u.wounds_dealt for u in stats.units if u.player == p) - shooting[p] for p in (1, 2)}
        assert melee == caused
        text = main_stats_text(path)
        assert "objective markers held" in text and "VP" not in text and "'s activation" in text


def main_stats_text(path: Path) -> str:
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main.main(["stats", str(path)]) == 0
    return buf.getvalue()
