"""Small melee situations for the close combat tests: units placed flush against each other and engaged.

Bases are 20 mm square (0.787"), units 5 wide by default. Player 1's attacker is placed flush against a side of
player 2's target, facing it, and both are engaged as after a charge.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.engine.close_combat import (
    advance_close_combat,
    apply_close_combat_action,
    close_combat_pending,
    start_close_combat,
)
from game.engine.dice import Dice
from game.engine.events import Event
from game.engine.profiles import Profile, Weapon
from game.engine.state import GameState, MoveAction, Table, Unit, make_unit
from geometry.arcs import Arc
from geometry.contact import flush_pose
from geometry.pose import Pose
from geometry.terrain import TerrainShape

HAND_WEAPON = Weapon("Hand Weapon", attacks=1)
SPEAR = Weapon("Spear", attacks=1, rules=("Counter",))
TARGET_POSE = Pose(36.0, 24.0, 180.0)
"""Where ``charge_setup`` puts the target by default."""
BASE_MM = 20.0
INCH_PER_BASE = BASE_MM / 25.4


def profile(name: str = "Warriors", quality: int = 4, defense: int = 5,
            weapons: Iterable[Weapon] = (HAND_WEAPON,), rules: Iterable[str] = (), size: int = 10,
            cost: int = 100, base: tuple[float, float] = (BASE_MM, BASE_MM)) -> Profile:
    """A melee profile (defaults: Quality 4+, Defense 5+, one Hand Weapon A1, 20 mm bases)."""
    return Profile(name, quality, defense, base[0], base[1], size, cost, tuple(weapons), tuple(rules))


WARRIORS = profile()


def unit(uid: str, player: int, prof: Profile = WARRIORS, models: int = 10, pose: Pose | None = None,
         per_row: int | None = None, upgrades: Iterable[str] = ()) -> Unit:
    """A unit (not yet on the table if ``pose`` is None)."""
    return make_unit(uid, player, prof, models, pose, per_row=per_row, upgrades=frozenset(upgrades))


def state_of(*units: Unit, terrain: Iterable[TerrainShape] = (), active: int = 1) -> GameState:
    """A game state in the close combat phase holding ``units`` (all must have poses)."""
    s = GameState("melee test", Table(), terrain=list(terrain), units={u.id: u for u in units},
                  generals={1: None, 2: None})
    s.active_player = active
    return s


def put_flush(state: GameState, attacker: Unit, target: Unit, side: Arc, lateral: float = 0.0,
              charged: bool = True) -> None:
    """Place ``attacker`` with its front flush against ``side`` of ``target`` (centred, shifted ``lateral``"
    to the attacker's right) and engage them. ``charged``: the attacker charged this turn (fights as charger,
    first round for both)."""
    assert target.pose is not None
    tf, af = target.formation, attacker.formation
    pose = flush_pose(target.pose, tf.width, tf.depth, side, af.width, af.depth, lateral)
    state.place(attacker, pose)
    state.engage(attacker, target, Arc.FRONT, side)
    if charged:
        attacker.fights_as_charger = True
        attacker.move_action = MoveAction.CHARGE
        attacker.first_round_with.add(target.id)
        target.first_round_with.add(attacker.id)


def charge_setup(attacker_prof: Profile = WARRIORS, target_prof: Profile = WARRIORS, attacker_models: int = 10,
                 target_models: int = 10, side: Arc = Arc.FRONT, charged: bool = True,
                 target_pose: Pose = TARGET_POSE, attacker_upgrades: Iterable[str] = (),
                 target_upgrades: Iterable[str] = (), extra: Iterable[Unit] = (),
                 terrain: Iterable[TerrainShape] = (), attacker_per_row: int | None = None,
                 target_per_row: int | None = None) -> GameState:
    """``a`` (player 1) in contact with ``side`` of ``t`` (player 2, at ``target_pose``), engaged."""
    t = unit("t", 2, target_prof, target_models, target_pose, per_row=target_per_row, upgrades=target_upgrades)
    a = unit("a", 1, attacker_prof, attacker_models, Pose(0.0, 0.0, 0.0), per_row=attacker_per_row,
             upgrades=attacker_upgrades)
    s = state_of(t, a, *extra, terrain=terrain)
    put_flush(s, a, t, side, charged=charged)
    return s


def wall(x: float, y: float, width: float, depth: float, index: int = 0, name: str = "Cliff",
         traits: Iterable[str] = ("impassable",)) -> TerrainShape:
    """An axis-aligned terrain rectangle centred on (x, y)."""
    hw, hd = width / 2, depth / 2
    return TerrainShape(index, name, ((x - hw, y - hd), (x + hw, y - hd), (x + hw, y + hd), (x - hw, y + hd)),
                        frozenset(traits))


def dice(*values: int) -> Dice:
    """A fixed dice sequence."""
    return Dice(sequence=list(values))


def run_phase(state: GameState, d: Dice) -> list[Event]:
    """Start the close combat phase and advance it to the first decision (or its end)."""
    return start_close_combat(state, d) + advance_close_combat(state, d)


def answer(state: GameState, d: Dice, action) -> list[Event]:  # type: ignore[no-untyped-def]
    """Apply one decision."""
    return apply_close_combat_action(state, d, action)


def pending(state: GameState):  # type: ignore[no-untyped-def]
    """The decision waited for."""
    return close_combat_pending(state)


def kinds(events: list[Event], kind: str) -> list[Event]:
    """Events of one kind."""
    return [e for e in events if e.kind == kind]


def roll_purposes(d: Dice) -> list[str]:
    """Purposes of every roll made so far."""
    return [r.purpose for r in d.rolls]
