"""Writing a set-up as a scenario (game/setup/scenario_writer.py): round trip through the scenario loader, the
``check`` command's checker and a game started from it (deployment when units have no poses)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.autoplay import play_out
from game.engine.dice import Dice
from game.engine.game import Game
from game.engine.state import Phase, Step, Table
from game.file_check import check_scenario_file
from game.scenario import ScenarioError, load_army, load_scenario, new_game_state
from game.setup.army_list import ArmyList, load_list, save_list
from game.setup.scenario_writer import pieces_from_scenario, scenario_unit_ids, write_scenario
from game.setup.terrain_gen import generate_table
from geometry.pose import Pose

ROOT = Path(__file__).resolve().parents[2]
ARMIES = ROOT / "scenarios" / "armies"


def cantons() -> ArmyList:
    lst = ArmyList(load_army(ARMIES / "free_cantons_of_aldmark.yaml"), 750, name="Ford Guard")
    pikes = lst.add("Canton Pikemen", copies=2, upgrades=["banner", "sergeant"])
    lst.join_hero(pikes.id, "Landvogt")
    lst.add("Canton Crossbowmen", upgrades=["sergeant"])
    lst.add("Mountain Riders")
    lst.general = pikes.hero_id
    return lst


def host() -> ArmyList:
    lst = ArmyList(load_army(ARMIES / "ashen_host.yaml"), 750)
    lst.add("Ashbound Spearmen", copies=2, upgrades=["musician"])
    lord = lst.add("Cinder Lord")
    lst.add("Soot Archers")
    lst.add("Dread Riders")
    lst.general = lord.id
    return lst


def test_round_trip_through_the_loader_and_check(tmp_path: Path):
    """spec "Scenario file": the written file is a valid scenario that `main.py check` accepts; profiles come from
    the army files by a relative include; models = copies x size; the General and the joined hero are kept."""
    terrain = generate_table(3)
    path = tmp_path / "battles" / "ford.yaml"
    scenario = write_scenario(path, "Ford Fight", Table(72, 48), terrain, [cantons(), host()], seed=9,
                              description="A set-up test.")
    assert check_scenario_file(path) == []
    loaded = load_scenario(path)
    assert loaded.name == "Ford Fight" and loaded.seed == 9 and loaded.description == "A set-up test."
    assert scenario.armies[1].units == loaded.armies[1].units
    assert len(loaded.terrain) == len(terrain)
    assert [t.name for t in loaded.terrain] == [p.name for p in terrain]
    assert loaded.terrain_kinds == tuple(p.kind for p in terrain)
    for shape, piece in zip(loaded.terrain, terrain, strict=True):
        assert shape.shape.equals_exact(piece.shape(), 1e-9) and shape.traits == piece.traits
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert not Path(data["armies"][0]["include"]).is_absolute()
    assert (path.parent / data["armies"][0]["include"]).resolve() == (ARMIES / "free_cantons_of_aldmark.yaml")
    p1 = loaded.armies[1]
    assert p1.name == "Ford Guard" and p1.general == "landvogt-1"
    assert [(u.id, u.profile, u.models, sorted(u.upgrades), u.joined_by, u.pose) for u in p1.units] == [
        ("canton-pikemen-1", "Canton Pikemen", 20, ["banner", "sergeant"], "landvogt-1", None),
        ("landvogt-1", "Landvogt", 1, [], None, None),
        ("canton-crossbowmen-1", "Canton Crossbowmen", 10, ["sergeant"], None, None),
        ("mountain-riders-1", "Mountain Riders", 5, [], None, None),
    ]
    assert p1.points == 180 + 85 + 110 + 160 == cantons().points_used


def test_a_scenario_without_poses_starts_with_deployment_and_plays_out(tmp_path: Path):
    """Units without poses: `main.py play` starts with deployment (game.engine.deployment)."""
    path = tmp_path / "open.yaml"
    write_scenario(path, "Open", (72, 48), generate_table(5), [cantons(), host()])
    state = new_game_state(load_scenario(path))
    assert state.phase is Phase.DEPLOYMENT
    game = Game.start(state, Dice(seed=3))
    assert game.state.step is Step.CHOOSE_DEPLOYMENT
    play_out(game, 3)
    assert game.state.game_over


def test_poses_are_written_and_mixed_starts_deploy_the_rest(tmp_path: Path):
    path = tmp_path / "posed.yaml"
    poses = {"canton-pikemen-1": Pose(20, 6, 0)}
    scenario = write_scenario(path, "Posed", (72, 48), [], [cantons(), host()], poses=poses)
    with pytest.raises(ValueError, match="not in the lists: spearmen"):
        write_scenario(path, "Posed", (72, 48), [], [cantons(), host()], poses={"spearmen": Pose(9, 9, 0)})
    assert scenario.armies[1].unit("canton-pikemen-1").pose == Pose(20, 6, 0)
    assert scenario.armies[1].unit("landvogt-1").pose is None


def test_mirror_match_ids_are_made_unique(tmp_path: Path):
    """Unit ids are unique within a scenario: player 2's clashing ids get the prefix p2-."""
    a, b = cantons(), cantons()
    ids = scenario_unit_ids([a, b])
    assert ids[(1, "canton-pikemen-1")] == "canton-pikemen-1"
    assert ids[(2, "canton-pikemen-1")] == "p2-canton-pikemen-1"
    scenario = write_scenario(tmp_path / "mirror.yaml", "Mirror", (72, 48), [], [a, b])
    p2 = scenario.armies[2]
    assert p2.general == "p2-landvogt-1"
    assert p2.unit("p2-canton-pikemen-1").joined_by == "p2-landvogt-1"


def test_a_list_the_loader_refuses_is_not_written(tmp_path: Path):
    """Rulebook: Combined Units: the scenario loader's checks apply; nothing is written on a problem."""
    bad = cantons()
    bad.entries[1].copies = 3  # 30 crossbowmen
    path = tmp_path / "bad.yaml"
    with pytest.raises(ScenarioError) as e:
        write_scenario(path, "Bad", (72, 48), [], [bad, host()])
    assert any("armies[0].units[2].models" in p and "at most 20" in p for p in e.value.problems)
    assert not path.exists()


def test_saved_lists_and_an_existing_table_make_a_scenario(tmp_path: Path):
    """A set-up reuses saved army lists and the terrain of an existing scenario."""
    save_list(tmp_path / "lists" / "p1.yaml", cantons())
    save_list(tmp_path / "lists" / "p2.yaml", host())
    default = load_scenario(ROOT / "scenarios" / "default.yaml")
    terrain = pieces_from_scenario(default)
    path = tmp_path / "again.yaml"
    scenario = write_scenario(path, "Again", default.table, terrain,
                              [load_list(tmp_path / "lists" / "p1.yaml"), load_list(tmp_path / "lists" / "p2.yaml")])
    assert [t.polygon for t in scenario.terrain] == [t.polygon for t in default.terrain]
    assert scenario.terrain_kinds == default.terrain_kinds
    assert check_scenario_file(path) == []
