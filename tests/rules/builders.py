"""Small game states for rule tests: profiles and units facing each other on an empty table.

Player 1's units face 0 (toward +y), player 2's face 180. Distances are between the two front edges.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.engine.dice import Dice
from game.engine.profiles import Profile, Weapon
from game.engine.state import GameState, MoveAction, Table, Unit, make_unit
from geometry.formation import Formation, default_per_row
from geometry.pose import Pose
from geometry.terrain import TerrainShape

LONGBOW = Weapon("Longbow", attacks=1, range=24.0)
HAND_WEAPON = Weapon("Hand Weapon", attacks=1)
BASE_MM = 20.0
FRONT_Y = 10.0
"""Front edge of player 1's first unit."""
CENTRE_X = 36.0


def profile(
    name: str = "Archers",
    quality: int = 4,
    defense: int = 5,
    weapons: Iterable[Weapon] = (LONGBOW, HAND_WEAPON),
    rules: Iterable[str] = (),
    size: int = 10,
    cost: int = 100,
    base: tuple[float, float] = (BASE_MM, BASE_MM),
) -> Profile:
    """A profile with the given stats (defaults: Quality 4+, Defense 5+, Longbow 24" A1, 20 mm bases)."""
    return Profile(name, quality, defense, base[0], base[1], size, cost, tuple(weapons), tuple(rules))


ARCHERS = profile()
ORCS = profile("Orc Boyz", quality=4, defense=5, weapons=(HAND_WEAPON,))


def depth_of(prof: Profile, models: int, per_row: int | None = None) -> float:
    """Footprint depth in inches of ``models`` of ``prof``."""
    return Formation(models, per_row or default_per_row(models), prof.base_width_mm, prof.base_depth_mm).depth


def pose_with_front(prof: Profile, models: int, front_y: float, facing: float, x: float = CENTRE_X,
                    per_row: int | None = None) -> Pose:
    """The pose of a unit whose front edge is on the line y = ``front_y``, facing 0 (+y) or 180 (-y)."""
    half = depth_of(prof, models, per_row) / 2
    return Pose(x, front_y - half if facing == 0 else front_y + half, facing)


def face_off(
    distance: float,
    shooter: Profile = ARCHERS,
    target: Profile = ORCS,
    shooter_models: int = 10,
    target_models: int = 10,
    move_action: MoveAction | None = MoveAction.HOLD,
    upgrades: frozenset[str] = frozenset(),
    target_upgrades: frozenset[str] = frozenset(),
    terrain: Iterable[TerrainShape] = (),
    extra: Iterable[Unit] = (),
    target_x: float = CENTRE_X,
) -> GameState:
    """``archers-1`` (player 1) and ``orcs-1`` (player 2) facing each other, front edges ``distance``" apart.

    The shooter took ``move_action`` this turn. ``extra`` units are added after the two.
    """
    a = make_unit("archers-1", 1, shooter, shooter_models, pose_with_front(shooter, shooter_models, FRONT_Y, 0.0),
                  upgrades=upgrades)
    a.move_action = move_action
    b = make_unit("orcs-1", 2, target, target_models,
                  pose_with_front(target, target_models, FRONT_Y + distance, 180.0, x=target_x),
                  upgrades=target_upgrades)
    units = {a.id: a, b.id: b}
    for u in extra:
        units[u.id] = u
    return GameState("test", Table(), terrain=list(terrain), units=units, generals={1: None, 2: None})


def wall_between(prof: Profile = ORCS, unit_id: str = "wall-1", player: int = 2, models: int = 10,
                 front_y: float = FRONT_Y + 6.0, per_row: int = 10) -> Unit:
    """A wide unit standing across the line between the face-off's two units (a sight blocker)."""
    return make_unit(unit_id, player, prof, models, pose_with_front(prof, models, front_y, 180.0, per_row=per_row),
                     per_row=per_row)


def forest(x: float, y: float, width: float, depth: float, index: int = 0,
           traits: Iterable[str] = ("cover", "difficult")) -> TerrainShape:
    """A cover terrain rectangle centred on (x, y)."""
    hw, hd = width / 2, depth / 2
    return TerrainShape(index, "Wood", ((x - hw, y - hd), (x + hw, y - hd), (x + hw, y + hd), (x - hw, y + hd)),
                        frozenset(traits))


def dice(*values: int) -> Dice:
    """A fixed dice sequence."""
    return Dice(sequence=list(values))


def rolls(events: list, kind: str = "roll") -> list:  # type: ignore[type-arg]
    """The events of one kind."""
    return [e for e in events if e.kind == kind]


def join_hero(state: GameState, unit_id: str, hero: Profile, hero_id: str = "cap", cost: int = 60) -> Unit:
    """Make ``hero`` join the unit ``unit_id`` as at deployment (rulebook "Hero": the unit's size grows by one);
    its front edge stays where it was."""
    from game.engine.state import JoinedHero

    unit = state.units[unit_id]
    old = unit.formation
    unit.hero = JoinedHero(hero_id, hero, cost)
    unit.models += 1
    unit.starting_models += 1
    if unit.pose is not None:
        from geometry.formation import pose_keeping_front

        state.place(unit, pose_keeping_front(unit.pose, old, unit.formation))
        unit.moved_since_activation = False  # set up, not moved
    return unit
