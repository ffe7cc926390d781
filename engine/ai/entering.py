"""The way onto the battleland (RULES §6.6, §7.2a, §8.4, §8.5.6).

A character still off the board when its side's first maneuver phase ends is slain, and a
reinforcement or a summoned lord that does not enter goes back unused; so a mover must not
take the hex that leaves a friend still waiting with no way in.
"""

from __future__ import annotations

from functools import lru_cache

from engine.battle.maneuver import entry_hexes
from engine.battle.position import Fighter, Position, Side
from engine.battle.state import Battle
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


def entering(battle: Battle, side: Side) -> bool:
    """Whether ``side`` has characters still to enter across its edge this maneuver
    phase: in its first (the Tower's defender is placed instead, RULES §8.3), or a
    reinforcement or a summoned lord, which returns unused when it finds no way in
    (§6.6, §7.2a)."""
    if not battle.waiting(side):
        return False
    placing = side not in battle.entered and battle.land.is_tower and side is Side.DEFENDER
    return not placing


def leaves_way_in(
    battle: Battle, side: Side, who: str, to: str, later: tuple[str, ...] | None = None
) -> bool:
    """Whether ``who`` (a hex, or the name of a character entering) moving to ``to``
    leaves the friends still waiting a way in: ``later``, in the order they will move
    (default: by name), each going as deep as it may."""
    position = battle.position
    occupied = position.occupied_mask
    names = list(battle.waiting(side))
    if who in LABELS:
        occupied &= ~BIT[who]
    elif who in names:
        names.remove(who)
    if later is None:
        later = tuple(sorted(names))
    return all_enter(position.terrain, occupied | BIT[to], battle.edge(side).index, later)
