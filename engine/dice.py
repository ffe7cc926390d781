"""The game's own dice: a seeded, counter-based generator with a JSON-friendly state.

Every die of a game comes from here: die ``n`` of a game is derived from ``(seed, n)`` by
SHA-256, so the generator's whole state is two integers, replays reproduce every roll,
and no global random state is touched.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Dice:
    """The generator after ``rolled`` dice of the game seeded with ``seed``."""

    seed: int
    rolled: int = 0

    def _value(self, n: int, sides: int) -> int:
        digest = hashlib.sha256(f"{self.seed}:{n}".encode()).digest()
        # 64 bits modulo a die's sides: bias below 1e-18, irrelevant for play.
        return int.from_bytes(digest[:8], "big") % sides + 1

    def roll(self, count: int = 1, sides: int = 6) -> tuple[tuple[int, ...], Dice]:
        """``count`` dice and the generator after them."""
        values = tuple(self._value(self.rolled + i, sides) for i in range(count))
        return values, Dice(self.seed, self.rolled + count)

    def roll_one(self, sides: int = 6) -> tuple[int, Dice]:
        """One die and the generator after it."""
        values, after = self.roll(1, sides)
        return values[0], after

    def choice_index(self, count: int) -> tuple[int, Dice]:
        """A uniform index in ``range(count)`` and the generator after it."""
        value, after = self.roll_one(count)
        return value - 1, after
