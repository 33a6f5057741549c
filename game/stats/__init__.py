"""The story of a battle: statistics of a recorded (finished or unfinished) game.

``record_stats(record)`` replays a game record once and ``game_stats(start, actions)`` a game from its starting
position; both give a ``BattleStats``:

* per unit: hits scored, models killed ("kills"), wounds dealt and taken, models lost, charges declared and
  made, Victory Points earned (credited from the enemy units it broke) and given (what it is worth to the enemy);
* per player: dice luck, the successes of the rolls to hit and of the Defense rolls against their expectation
  given each roll's score needed and modifiers (rulebook "Quality Tests", "Modifiers": a natural 6 always
  succeeds, a natural 1 always fails), with the spread (standard deviation) of that expectation;
* the Victory Points the rules would score if the game ended at the end of each player turn and each round
  (``game.engine.victory``), and the units each side still has;
* the turning points: the player turns with the largest swings in Victory Point difference (then in units), each
  with the action that swung it most, so the replay viewer can jump there.

Everything is derived from the game's events (``game.engine.events``) and from the state after each action;
the engine is not changed. How wounds and Victory Points are credited to units is in docs/formats.md
("Statistics") and docs/rulings.md.
"""

from game.stats.figures import (
    CSV_COLUMNS,
    MAX_TURNING_POINTS,
    PLAYERS,
    STATS_FORMAT,
    BattleStats,
    Luck,
    PlayerStats,
    Standing,
    TurningPoint,
    UnitStats,
    success_chance,
)
from game.stats.ledger import Ledger, apportion
from game.stats.story import game_stats, headline, record_stats, swing_text, unit_label

__all__ = ["CSV_COLUMNS", "MAX_TURNING_POINTS", "PLAYERS", "STATS_FORMAT", "BattleStats", "Ledger", "Luck",
           "PlayerStats", "Standing", "TurningPoint", "UnitStats", "apportion", "game_stats", "headline",
           "record_stats", "success_chance", "swing_text", "unit_label"]
