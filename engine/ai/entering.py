"""The way onto the battleland in a side's first maneuver phase (RULES §8.4, §8.5.6).

A character still off the board when its side's first maneuver phase ends is slain, so a
mover must not take the hex that leaves a friend still waiting with no way in.
"""

from __future__ import annotations

from functools import lru_cache

from engine.battle.maneuver import entry_hexes
from engine.battle.position import Fighter, Position, Side
from engine.battleland import BIT, EDGES, LABELS, distance


@lru_cache(maxsize=1 << 14)
def all_enter(terrain: str, occupied: int, edge: int, names: tuple[str, ...]) -> bool:
    """Whether characters ``names`` can all still enter, in that order, across ``edge``
    of ``terrain`` with the hexes ``occupied`` (a mask of :data:`BIT`) taken, each going
    as deep as it may (RULES §8.5.6)."""
    if not names:
        return True
    side = EDGES[edge]
    fighters = tuple(Fighter("Ogre", Side.ATTACKER, h, 6) for h in LABELS if BIT[h] & occupied)
    position = Position(terrain, fighters)
    name, rest = names[0], names[1:]
    ends = entry_hexes(position, name, side)
    if not ends:
        return False
    deepest = max(ends, key=lambda h: (min(distance(h, e) for e in side.hexes), h))
    return all_enter(terrain, occupied | BIT[deepest], edge, rest)
