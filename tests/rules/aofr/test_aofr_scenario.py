"""AoF:R 2.16 as a scenario's ruleset: the special rules, upgrades, terrain and start phases it plays are checked at
load (FILE:LINE: PATH: message naming the ruleset, exit 2), deployment ends without a first-turn roll-off ("the
player that won the deployment roll-off takes the first turn"), and records replay exactly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import main
from game.autoplay import RandomPlayer, play_out
from game.engine import deployment
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import Phase
from game.record import load_record, replay
from game.saves import save_game
from game.scenario import load_scenario, new_game_state

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "scenarios" / "aofr_border_clash.yaml"


def _variant(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    text = SHIPPED.read_text().replace("armies/", str(ROOT / "scenarios" / "armies") + "/")
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "s.yaml"
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if new.splitlines()[-1].strip() in t)
    return path, line


@pytest.mark.parametrize("old,new,where,words", [
    ("profile: Canton Swordsmen, models: 5}", "profile: Canton Pikemen, models: 10}", "armies[0].units[1].profile",
     "Canton Pikemen has Counter (weapon Pike), a special rule Age of Fantasy: Regiments 2.16 (aofr-2.16) does not "
     "have here"),
    # "Fear": AoF:R 2.16 writes it without a value (+D3 wounds); AoWFBR's Fear(X) is refused
    ("profile: Ironhide Brutes, models: 5}", "profile: Stone Trolls, models: 3}", "armies[1].units[2].profile",
     "Stone Trolls has Fear(1): Age of Fantasy: Regiments 2.16 (aofr-2.16) writes Fear, without a value"),
    # "Command Groups": the Musician / Battle Standard is one upgrade, written banner
    ("{id: swords-2, profile: Canton Swordsmen, models: 5}",
     "{id: swords-2, profile: Canton Swordsmen, models: 5, upgrades: [musician]}", "armies[0].units[1].upgrades",
     "has no musician upgrade here; it plays: banner, sergeant (AoF:R 2.16's \"Musician / Battle Standard\" is one "
     "upgrade: write banner)"),
    # "Special Rules": AoWFBR's Caster is not AoF:R's Wizard(X)
    ("profile: Canton Swordsmen, models: 5}", "profile: Canton Loremaster, models: 1}", "armies[0].units[1].profile",
     "Canton Loremaster has Caster(2), a special rule Age of Fantasy: Regiments 2.16 (aofr-2.16) does not have"),
    ("rounds: 4\n", "rounds: 4\nstart: {round: 1, player: 1, phase: movement}\n", "start.phase",
     "Age of Fantasy: Regiments 2.16 (aofr-2.16) has no movement phase"),
    # "Mission Objectives": the mission decides the winner, so a battle without one is refused
    ("mission: standard\n", "mission: none\n", "mission",
     "is played with a mission (it decides the winner): give mission: breakthrough, king_of_the_hill, random, "
     "relic_hunt, sabotage, seize_ground, standard"),
    ("rounds: 4\n", "rounds: 4\noptions: {random_charge_distance: true}\n", "options.random_charge_distance",
     "has no such optional rule here"),
])
def test_what_the_ruleset_does_not_play_is_refused_at_load(tmp_path, capsys, old, new, where, words):
    path, line = _variant(tmp_path, old, new)
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{path}:{line}: {where}: " in out and words in out, out


def test_a_hill_3_inches_tall_loads_as_elevation(tmp_path):
    """"Elevation" (line 400: "Any terrain piece that is at least 3\" taller than the surface of the table counts as
    elevation") is played: a hill 4" tall loads."""
    path, _ = _variant(tmp_path, "{name: Hay Meadow, kind: field,", "{name: Hay Meadow, kind: hill, height: 4,")
    assert main.main(["check", str(path)]) == 0


def test_deployment_ends_with_the_roll_off_winner_activating_first():
    """"Game Structure": "the game starts with the first round and the player that won the deployment roll-off
    takes the first turn": no first-turn roll-off and no choose_first_turn decision."""
    game = Game.start(new_game_state(load_scenario(SHIPPED)), Dice(seed=7))
    player = RandomPlayer(random.Random(7))
    seen = set()
    while game.state.phase is Phase.DEPLOYMENT:
        assert game.pending is not None
        seen.add(game.pending.decision)
        game.apply(player.choose(game))
    assert "choose_first_turn" not in seen and {"place_objective", "deploy"} <= seen
    d = deployment.progress(game.state)
    assert d is not None and d.roll_off_winner is not None
    assert game.pending is not None and game.pending.decision == "activate"
    assert game.pending.player == d.roll_off_winner == game.state.first_player
    assert 3 <= len(game.state.objectives) <= 5          # D3+2 markers


@pytest.mark.parametrize("seed", [2, 5])
def test_a_whole_game_records_and_replays_bit_identically(tmp_path, seed):
    game = Game.start(new_game_state(load_scenario(SHIPPED)), Dice(seed=seed))
    play_out(game, seed)
    assert game.state.game_over and game.state.round == 4
    path = tmp_path / "game.yaml"
    save_game(game, str(SHIPPED), path)
    record = load_record(path)
    assert record.ruleset == "aofr-2.16"
    result = replay(record)
    assert result.ok
    assert result.game.digests == game.digests and result.game.state.units.keys() == game.state.units.keys()
    assert main.main(["check", str(path)]) == 0


def test_the_deployment_roll_off_winner_deploys_first():
    """"Deploying Armies": "the players roll-off and the winner must start deploying their army first"."""
    from game.engine.actions import ChooseDeployment
    game = Game.start(new_game_state(load_scenario(SHIPPED)), Dice(seed=7))
    player = RandomPlayer(random.Random(7))
    while game.pending is not None and game.pending.decision != "choose_deployment":
        game.apply(player.choose(game))
    p = game.pending
    assert p is not None
    other = ChooseDeployment(p.player, 3 - p.player, p.options[0] if p.options else None)
    err = game.check_deploy(other)
    assert err is not None and err.rule == "Deploying Armies" and "deploys first" in err.message
    game.apply(ChooseDeployment(p.player, p.player, p.options[0] if p.options else None))
    assert game.pending is not None and game.pending.decision == "deploy" and game.pending.player == p.player


def test_a_scenario_may_start_at_the_activations_with_its_markers_given():
    """``start: {round: 1, player: 1, phase: activation}`` with ``objectives`` given: no deployment, player 1
    activates first, the markers are the file's (docs/formats.md "start")."""
    game = Game.start(new_game_state(load_scenario(ROOT / "scenarios" / "tests" / "aofr_skirmish.yaml")),
                      Dice(seed=3))
    assert game.state.phase is Phase.ACTIVATION and game.dice.consumed == 0
    assert game.pending is not None and (game.pending.player, game.pending.decision) == (1, "activate")
    assert [(o.x, o.y) for o in game.state.objectives] == [(36.0, 24.0), (20.0, 30.0), (52.0, 18.0)]
    play_out(game, 3)
    assert game.state.game_over


@pytest.mark.parametrize("rules,words", [
    ("[Fear]", "Ogres has Fear: Age of Warhammer Fantasy: Battle Regiments 1.4 (aowfbr-1.4) writes Fear(X), with a "
               "value"),
    ("[Artillery]", "Ogres has Artillery, a special rule Age of Warhammer Fantasy: Battle Regiments 1.4 (aowfbr-1.4) "
                    "does not have here"),
])
def test_aowfbr_refuses_the_aofr_spellings(tmp_path, capsys, rules, words):
    """AoWFBR 1.4 "Fear(X)" takes a value (AoF:R 2.16's "Fear" does not: +D3) and AoWFBR has no "Artillery" rule
    (AoF:R 2.16's Defense 2+ against shooting): a scenario of the other book's spelling is refused at load."""
    path = tmp_path / "s.yaml"
    path.write_text(f"""format: regiments-scenario/1
name: t
ruleset: aowfbr-1.4
armies:
  - player: 1
    profiles:
      Ogres: {{quality: 4, defense: 4, base: [40, 40], size: 3, cost: 100, weapons: [{{name: Club, attacks: 3}}],
              rules: {rules}}}
    units:
      - {{id: o, profile: Ogres, models: 3, pose: {{x: 20, y: 5, facing: 0}}}}
  - player: 2
    profiles:
      Orcs: {{quality: 4, defense: 5, base: [20, 20], size: 10, cost: 80, weapons: [{{name: Cleaver, attacks: 1}}]}}
    units:
      - {{id: x, profile: Orcs, models: 10, pose: {{x: 20, y: 40, facing: 180}}}}
""")
    assert main.main(["check", str(path)]) == main.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{path}:10: armies[0].units[0].profile: " in out and words in out, out
