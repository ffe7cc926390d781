"""Dice odds for strikes (RULES §9.2): the distribution of hits of one or more strikes."""

from __future__ import annotations

from functools import cache

Distribution = tuple[float, ...]
"""``d[k]`` is the chance of exactly ``k`` hits."""


def hit_chance(strike_number: int) -> float:
    """Chance that one die hits: a roll ≥ the strike number (RULES §9.2)."""
    return (7 - max(1, min(6, strike_number))) / 6


@cache
def hits(dice: int, strike_number: int) -> Distribution:
    """The distribution of hits of ``dice`` dice at ``strike_number`` (binomial)."""
    p = hit_chance(strike_number)
    dist = [1.0]
    for _ in range(max(0, dice)):
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return tuple(dist)


def combine(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent hit counts."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                out[i + j] += p * q
    return tuple(out)
