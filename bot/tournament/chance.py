"""Seeded draws for the tournament: every choice comes from :class:`engine.dice.Dice` and
is returned with the generator after it, so a draw can be logged and replayed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.dice import Dice

T = TypeVar("T")


def shuffled(items: Sequence[T], dice: Dice) -> tuple[tuple[T, ...], tuple[int, ...], Dice]:
    """``items`` in a uniformly drawn order (Fisher–Yates), the indices drawn, and the
    dice after: one :meth:`Dice.choice_index` per item but the last."""
    pool = list(items)
    drawn: list[int] = []
    for last in range(len(pool) - 1, 0, -1):
        index, dice = dice.choice_index(last + 1)
        drawn.append(index)
        pool[last], pool[index] = pool[index], pool[last]
    return tuple(pool), tuple(drawn), dice
