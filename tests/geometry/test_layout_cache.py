"""A scene and its copies share the cached answers of each unit layout they reach (issue 13: the look-ahead plays
the same action on many clones), and every shared answer is the one a scene built from nothing gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import scene_data
from geometry.pose import Pose
from geometry.scene import Scene
from tests.geometry.helpers import INF10, INF20, put, scene
from tests.geometry.test_motion import crowded


def _two_units() -> Scene:
    s = scene()
    put(s, "a", 20, 10, 0)
    put(s, "b", 40, 30, 180, INF20, player=2)
    return s


def test_copies_reaching_one_layout_share_its_answers() -> None:
    """The same move in a scene and in its copy leads both to one layout's answers; another move parts them, and
    moving back finds the answers found before."""
    s = _two_units()
    twin = s.copy()
    assert twin.cache is s.cache
    put(s, "a", 20, 14, 0)
    put(twin, "a", 20, 14, 0)
    assert twin.cache is s.cache
    answer = s.check_path("a", s.pose("a"), [Pose(20, 20, 0)])
    assert twin.check_path("a", twin.pose("a"), [Pose(20, 20, 0)]) is answer     # found, not worked out again
    put(twin, "a", 25, 14, 0)
    assert twin.cache is not s.cache
    assert twin.check_path("a", twin.pose("a"), [Pose(20, 20, 0)]) is not answer
    put(twin, "a", 20, 14, 0)
    assert twin.cache is s.cache


def test_a_layout_differs_by_player_and_formation_too() -> None:
    """The layout is every unit's id, player, pose and formation: a unit of the other player, or of another
    formation, where one stood is another layout."""
    s = _two_units()
    other_player = s.copy()
    put(other_player, "a", 20, 10, 0, player=2)
    other_formation = s.copy()
    put(other_formation, "a", 20, 10, 0, INF20)
    assert len({id(s.cache), id(other_player.cache), id(other_formation.cache)}) == 3


def test_the_layouts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most twice ``LAYOUTS_KEPT`` layouts are kept; the least recently used go first."""
    monkeypatch.setattr(scene_data, "LAYOUTS_KEPT", 4)
    s = _two_units()
    first = s.cache
    first[("mark",)] = 1
    for i in range(1, 12):
        put(s, "a", 20, 10 + i * 0.5, 0)
        s.cache[("mark",)] = i
        assert len(s._layouts.new) + len(s._layouts.old) <= 8
    put(s, "a", 20, 10, 0)
    assert ("mark",) not in s.cache         # forgotten long ago
    put(s, "a", 20, 10 + 11 * 0.5, 0)
    assert s.cache[("mark",)] == 11         # the last one is still kept


def _fresh(s: Scene) -> Scene:
    """A scene built from nothing with ``s``'s table, terrain and units (no copy: nothing shared)."""
    out = Scene(s.width, s.depth, list(s.terrain))
    for uid in s.unit_ids():
        out.set_unit(uid, s.player(uid), s.pose(uid), s.formation(uid))
    return out


def _answers(s: Scene, path: list[Pose]) -> tuple[object, ...]:
    ids = s.unit_ids()
    return (s.check_path("m", s.pose("m"), path)._answers(),
            [s.distance(a, b) for a in ids for b in ids if a != b],
            {a: s.visible_units(a, [b for b in ids if b != a]) for a in ids},
            {a: s.models_with_sight(a, "m", 2, 24.0) for a in ids if a != "m"})


@settings(max_examples=60, deadline=None)
@given(crowded(), st.lists(st.tuples(st.booleans(), st.booleans(), st.floats(-3, 3), st.floats(-3, 3)),
                           min_size=1, max_size=6), st.data())
def test_shared_answers_are_the_answers_of_a_scene_built_from_nothing(
        case: tuple[Scene, Pose, list[Pose], float, bool, list[str]],
        moves: list[tuple[bool, bool, float, float]], data: st.DataObject) -> None:
    """Moves made in a scene and in its copy, some the same in both (they meet in one layout), some back where a
    unit stood: after each, both answer moves, distances and sight exactly as a scene built from nothing with the
    same units."""
    s, _, path, _, _, _ = case
    twin = s.copy()
    ids = s.unit_ids()
    for in_twin, same, dx, dy in moves:
        uid = data.draw(st.sampled_from(ids))
        p = s.pose(uid)
        pose = Pose(p.x + dx, p.y + dy, p.facing)
        for scene_ in ((s, twin) if same else (twin,) if in_twin else (s,)):
            scene_.set_unit(uid, scene_.player(uid), pose, scene_.formation(uid))
        for scene_ in (s, twin):
            assert _answers(scene_, path) == _answers(_fresh(scene_), path)


def test_scenes_built_apart_never_share_answers() -> None:
    """Two scenes built apart never share answers, even with the same units where they stand."""
    a, b = _two_units(), _two_units()
    assert a.cache is not b.cache
    put(a, "a", 1, 1, 0, INF10)
    put(b, "a", 1, 1, 0, INF10)
    assert a.cache is not b.cache
