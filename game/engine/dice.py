"""The one source of randomness of a game: seeded, or a fixed sequence of D6 results.

Every roll is recorded with its purpose so the log, the window and the tests can show why it happened.
Rulebook "Dice": a D3 is a D6 halved rounding up; 2D6 is two D6 summed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field


class DiceExhausted(RuntimeError):
    """A fixed dice sequence ran out; the message names the roll that needed a die."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll of one or more D6 made for one purpose."""

    purpose: str
    """Why the dice were rolled, in words ("Spearmen hit rolls vs Orcs (4+)")."""
    dice: tuple[int, ...]
    """The D6 results, 1..6 each, in the order rolled."""


@dataclass
class Dice:
    """D6 source: ``Dice(seed=7)`` or ``Dice(sequence=[6, 6, 1])``.

    ``rolls`` keeps every roll made, in order. ``consumed`` counts the D6 used so far, which is what a replay
    needs to check it drifted from a record.
    """

    seed: int | None = None
    """Seed of the pseudo-random generator, or None with a fixed sequence."""
    sequence: Sequence[int] | None = None
    """Fixed D6 results consumed in order; None for a seeded source."""
    rolls: list[Roll] = field(default_factory=list)
    """Every roll made, in order."""
    consumed: int = 0
    """How many D6 have been rolled."""

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.sequence is None):
            raise ValueError("Dice needs exactly one of seed or sequence")
        if self.sequence is not None:
            bad = [d for d in self.sequence if not (isinstance(d, int) and 1 <= d <= 6)]
            if bad:
                raise ValueError(f"dice sequence may only hold 1..6, got {bad[:5]}")
        self._rng = random.Random(self.seed) if self.seed is not None else None

    def d6(self, count: int, purpose: str) -> list[int]:
        """Roll ``count`` D6 for ``purpose``; returns the results. Raises ``DiceExhausted`` on a short sequence."""
        if count < 0:
            raise ValueError("cannot roll a negative number of dice")
        if count == 0:
            return []
        if self._rng is not None:
            results = [self._rng.randint(1, 6) for _ in range(count)]
        else:
            assert self.sequence is not None
            end = self.consumed + count
            if end > len(self.sequence):
                raise DiceExhausted(
                    f"fixed dice ran out: {purpose} needed {count} D6 but only "
                    f"{len(self.sequence) - self.consumed} were left (used {self.consumed})"
                )
            results = list(self.sequence[self.consumed : end])
        self.consumed += count
        self.rolls.append(Roll(purpose, tuple(results)))
        return results

    def one(self, purpose: str) -> int:
        """Roll a single D6."""
        return self.d6(1, purpose)[0]

    def d3(self, purpose: str) -> int:
        """Roll a D3: one D6 halved, rounding up."""
        return (self.one(purpose) + 1) // 2

    def two_d6(self, purpose: str) -> int:
        """Roll 2D6 and return the sum."""
        return sum(self.d6(2, purpose))

    def clone(self) -> Dice:
        """An independent copy that will roll exactly what this one would roll next."""
        # not through __init__: it would seed a generator (and check a sequence) only to overwrite it; a look-ahead
        # clones the dice with every position it tries
        twin = object.__new__(Dice)
        twin.seed, twin.sequence, twin.consumed, twin.rolls = self.seed, self.sequence, self.consumed, list(self.rolls)
        twin._rng = None
        if self._rng is not None:
            twin._rng = random.Random.__new__(random.Random)
            twin._rng.setstate(self._rng.getstate())
        return twin

    def to_record(self) -> dict[str, object]:
        """The ``dice`` mapping of a game record: ``{seed: N}`` or ``{sequence: [...]}``."""
        if self.seed is not None:
            return {"seed": self.seed}
        assert self.sequence is not None
        return {"sequence": list(self.sequence)}

    @classmethod
    def from_record(cls, data: dict[str, object]) -> Dice:
        """Build from a record's ``dice`` mapping. Raises ``ValueError`` if it is neither form."""
        if "seed" in data and "sequence" not in data and isinstance(data["seed"], int):
            return cls(seed=data["seed"])
        seq = data.get("sequence")
        if isinstance(seq, list) and "seed" not in data:
            bad = next((i for i, x in enumerate(seq) if isinstance(x, bool) or not isinstance(x, int)
                        or not 1 <= x <= 6), None)
            if bad is not None:
                raise ValueError(f"sequence[{bad}]: every result must be a whole number from 1 to 6")
            return cls(sequence=list(seq))
        raise ValueError("dice must be {seed: N} or {sequence: [d6, ...]}")
