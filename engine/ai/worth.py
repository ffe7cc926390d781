"""What characters and legions are worth: battle strength, win chances, muster prospects.

Strength is value (Power × Skill, RULES §0.2) nudged for abilities and for nativity to the
battleland's hazards (RULES §1.2, §8.6). Win chances come from the strength ratio, fitted
to battles between computer players. The muster *potential* of a group of characters is
the value of the best recruit it qualifies for (RULES §6.2–§6.4) when choosing among a few
lands of the masterboard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from engine.battleland import battleland
from engine.characters import TITAN, character, titan_power
from engine.masterboard import LANDS, TERRAINS, TOWER
from engine.muster import muster_options

#: Steepness of the win-chance curve (fitted to battles between computer players):
#: strength ratio 1.2 → 0.75, 1.5 → 0.92.
STEEPNESS = 6.0
#: A defender's edge: the time loss (RULES §11.1) did not show in computer battles.
DEFENDER_EDGE = 1.0
#: A legion with its Titan fights below its strength: the Titan must be kept safe, and
#: its death loses the battle (RULES §11.1).
TITAN_LIABILITY = 0.85
#: The Tower's walls favour its defender even more (RULES §8.2, §8.6).
TOWER_EDGE = 1.3

TERRAIN_SHARE: Mapping[str, float] = {
    name: n / len(LANDS) for name, n in Counter(land.terrain for land in LANDS.values()).items()
}


@cache
def hazards(terrain: str) -> frozenset[str]:
    """Every hex and hexside hazard of a terrain's battleland (RULES §8.2)."""
    land = battleland(terrain)
    found = {h.hazard for h in land.hexes.values()}
    for h in land.hexes.values():
        found |= {side for side in h.hexsides if side}
    return frozenset(found)


@cache
def strength(name: str, power: int = 0, terrain: str | None = None) -> float:
    """Battle strength of one character; ``power`` overrides a Titan's Power."""
    c = character(name)
    value = float((power if name == TITAN and power else c.power) * c.skill)
    if c.rangestrikes:
        value *= 1.15
    if c.flies:
        value *= 1.1
    if terrain is not None and c.native & hazards(terrain):
        value *= 1.2
    return value


def legion_strength(names: Iterable[str], score: int, terrain: str | None = None) -> float:
    """Summed strength of a legion whose owner has ``score`` (it sets the Titan's Power)."""
    power = titan_power(score)
    names = tuple(names)
    total = sum(strength(n, power, terrain) for n in names)
    return total * TITAN_LIABILITY if TITAN in names else total


def points(names: Iterable[str], score: int) -> int:
    """Points the characters are worth when slain (RULES §11.4)."""
    return sum(character(n).value_at(score) for n in names)


def win_chance(attacker: float, defender: float) -> float:
    """Chance that a legion of strength ``attacker`` beats one of ``defender``."""
    if attacker <= 0:
        return 0.0
    if defender <= 0:
        return 1.0
    a: float = attacker**STEEPNESS
    d: float = defender**STEEPNESS
    return a / (a + d)


def defender_edge(terrain: str) -> float:
    """How much a defender's strength counts for in ``terrain``."""
    return TOWER_EDGE if terrain == TOWER else DEFENDER_EDGE


@lru_cache(maxsize=1 << 14)
def recruit_value(terrain: str, names: tuple[str, ...], exhausted: tuple[str, ...] = ()) -> int:
    """Value of the best recruit ``names`` qualify for in ``terrain`` (RULES §6.2–§6.4),
    none of ``exhausted`` (stacks with no counter left, sorted)."""
    options = muster_options(terrain, names, lambda name: name not in exhausted)
    return max((character(o.recruit).value_at() for o in options), default=0)


def exhausted(caretaker: Mapping[str, int]) -> tuple[str, ...]:
    """The characters whose stacks are empty (RULES §1.5), sorted: a tuple of names, which
    the garbage collector stops tracking, so the memos keyed by it stay out of its walks."""
    global _last_exhausted
    last = _last_exhausted  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is caretaker:  # the same state's stacks, asked again
        return last[1]
    found = tuple(sorted(name for name, left in caretaker.items() if left <= 0))
    _last_exhausted = (caretaker, found)
    return found


_last_exhausted: tuple[Mapping[str, int], tuple[str, ...]] | None = None
"""The stacks last asked about and their answer: a state's stacks are never changed in
place (a change makes a new state), and a decision asks about one state many times."""


#: How many lands a legion typically may choose from in one move (RULES §2.3).
CHOICES = 3


@lru_cache(maxsize=1 << 14)
def potential(names: tuple[str, ...]) -> float:
    """The expected best recruit ``names`` qualify for (``names`` sorted), when choosing
    among ``CHOICES`` lands drawn from the masterboard (so strong musters in some terrains
    beat weak ones in all)."""
    shares: dict[int, float] = {}
    for terrain in TERRAINS:
        value = recruit_value(terrain, names)
        shares[value] = shares.get(value, 0.0) + TERRAIN_SHARE[terrain]
    total, below = 0.0, 0.0
    for value in sorted(shares):
        upto = below + shares[value]
        total += value * (upto**CHOICES - below**CHOICES)
        below = upto
    return total
