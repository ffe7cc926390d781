"""What hits are worth to the searching player (RULES §8.4, §9.2, §11.1).

A character's damage is known as a distribution: ``dist[k]`` is the chance that it has
taken ``k`` hits, and the last entry (``k`` = its Power) the chance that it is slain.
Damage lasts the whole battle (§8.4), so a wound counts for part of the character's worth
(:data:`WOUND`); slaying it counts for all of it, and far more for a Titan, whose death
ends the battle and its player's game (§11.1, §12.1).

What a character is worth to a battle is its fighting value, not its score (Power ×
Skill, §0.2): Power is both the dice it strikes with and the hits it takes (§9.2), and
Skill sets the strike numbers on both sides of every blow (§9.3). Fitted to the results of
self-play battles (``bench/ai_worth.py``), Power to the 1.25 and Skill to the 1.5 tell who
wins better than their product does.
"""

from __future__ import annotations

from functools import lru_cache

from engine.ai.battlefield import ENEMY_TITAN, OWN_TITAN
from engine.ai.odds import hits
from engine.characters import TITAN

Dist = list[float]

#: Share of a character's worth one hit is worth, per point of Power, while it lives: a
#: wounded character still strikes in full, but is easier to slay later.
WOUND = 0.5


#: The exponents of a character's fighting value, and the scale that keeps a Power 5,
#: Skill 3 character at its score of 15.
POWER_WEIGHT = 1.25
SKILL_WEIGHT = 1.5
_SCALE = 5 ** (POWER_WEIGHT - 1) * 3 ** (SKILL_WEIGHT - 1)


def worth(name: str, power: int, skill: int, ours: bool) -> float:
    """What losing (``ours``) or slaying a character means: its fighting value,
    ``Power ** 1.25 × Skill ** 1.5`` on the scale of Power × Skill (RULES §0.2), many
    times more for a Titan."""
    value = fighting_value(power, skill)
    if name == TITAN:
        value *= OWN_TITAN if ours else ENEMY_TITAN
    return value


@lru_cache(maxsize=1 << 8)
def fighting_value(power: int, skill: int) -> float:
    """A character's worth to its side's chance of winning (a Titan's before its
    multiplier)."""
    return float(power**POWER_WEIGHT * skill**SKILL_WEIGHT / _SCALE)


@lru_cache(maxsize=1 << 12)
def tails(dice: int, strike_number: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The chance of exactly ``k`` hits and of at least ``k`` hits, for each ``k``."""
    exact = hits(dice, strike_number)
    at_least = [0.0] * (len(exact) + 1)
    for k in range(len(exact) - 1, -1, -1):
        at_least[k] = at_least[k + 1] + exact[k]
    return exact, tuple(at_least)


def spread(dist: Dist, dice: int, strike_number: int, weight: float) -> Dist:
    """``dist`` after a strike of ``dice`` at ``strike_number`` made with chance ``weight``
    (the chance that its striker still strikes)."""
    top = len(dist) - 1
    exact, at_least = tails(dice, strike_number)
    out = [0.0] * (top + 1)
    out[top] = dist[top]
    keep = 1.0 - weight
    for h in range(top):
        p = dist[h]
        if p < 1e-9:
            continue
        if keep:
            out[h] += p * keep
        pw = p * weight
        need = top - h
        for k in range(min(need, len(exact))):
            out[h + k] += pw * exact[k]
        if need < len(at_least):
            out[top] += pw * at_least[need]
    return out


def loss(dist: Dist) -> float:
    """The share of a character's worth its damage ``dist`` takes away."""
    top = len(dist) - 1
    wounded = 0.0
    for h in range(1, top):
        wounded += dist[h] * h
    return dist[top] + WOUND * wounded / top


def alive(dist: Dist) -> float:
    """The chance the character still lives."""
    return 1.0 - dist[-1]


@lru_cache(maxsize=1 << 15)
def blow_share(dice: int, strike_number: int, taken: int, power: int) -> float:
    """The share of its worth a target with ``taken`` hits of ``power`` loses, on average,
    to one strike of ``dice`` at ``strike_number``."""
    need = power - taken
    if need <= 0:
        return 0.0
    exact, at_least = tails(dice, strike_number)
    wounds = sum(k * exact[k] for k in range(min(need, len(exact))))
    slain = at_least[need] if need < len(at_least) else 0.0
    return slain * (1.0 - WOUND * taken / power) + WOUND * wounds / power
