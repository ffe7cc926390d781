"""A maneuver phase as it began (RULES §8.5, errata 7.0): the searching player plans the
whole phase once, from its start, and plays the plan move by move."""

from __future__ import annotations

from engine.battle.position import Side
from engine.battle.state import Battle
from engine.frozen import evolve

Move = tuple[str, str]
"""(who, to): ``who`` a hex, or the name of a character entering from off the board."""


def phase_start(battle: Battle) -> Battle:
    """The battle as this maneuver phase began: its moves undone (errata 7.0), in
    :func:`normal_order`."""
    fighters = list(battle.position.fighters)
    waiting = {side: list(battle.waiting(side)) for side in Side}
    for record in reversed(battle.moves):
        i = next(i for i, f in enumerate(fighters) if f.hex == record.end)
        if record.start is None:
            waiting[fighters[i].side].append(fighters[i].name)
            del fighters[i]
        else:
            fighters[i] = evolve(fighters[i], hex=record.start)
    position = evolve(battle.position, fighters=tuple(fighters))
    off = {side: tuple(names) for side, names in waiting.items() if names}
    return normal_order(evolve(battle, position=position, off_board=off, moves=(), take_backs=0))


def normal_order(battle: Battle) -> Battle:
    """``battle`` with its fighters and waiting characters in a fixed order, so that
    equal positions reached in different ways plan alike."""
    fighters = tuple(sorted(battle.position.fighters, key=lambda f: (f.side.value, f.hex)))
    off = {side: tuple(sorted(battle.waiting(side))) for side in Side if battle.waiting(side)}
    return evolve(battle, position=evolve(battle.position, fighters=fighters), off_board=off)


def moves_made(battle: Battle) -> tuple[Move, ...]:
    """The moves made so far this phase, as a plan writes them."""
    return tuple((r.start if r.start is not None else r.name, r.end) for r in battle.moves)
