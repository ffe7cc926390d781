"""Splitting a legion (RULES §3.2, §3.3, §3.5; intro; 1992 preamble).

A split takes one or two groups of characters out of a legion, each under a new marker;
the rest stay under the original marker. A legion of height ≥ 4 may split into two
legions of ≥ 2 each, one of height ≥ 6 into three. On a player's own first turn his
starting legion must split 4–4, each half holding one lord (Titan in one, Angel in the
other) and three creatures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.characters import ANGEL, TITAN, character
from engine.errors import IllegalSplit

#: Smallest legion a split may leave or create (intro).
MIN_PART = 2
#: Smallest legion that may split into two, and into three (RULES §3.2).
MIN_TWO_WAY = 4
MIN_THREE_WAY = 6
#: The first-turn split (RULES §3.3).
FIRST_TURN_HEIGHT = 8
FIRST_TURN_PART = 4


def split_sizes(height: int, first_turn: bool = False) -> list[tuple[int, ...]]:
    """Legal heights after splitting a legion of ``height``, largest part first (RULES §3).

    ``(5, 2)`` means one legion of 5 and one of 2, whichever keeps the marker. The first
    turn allows only ``(4, 4)`` of the starting legion.
    """
    if first_turn:
        return [(FIRST_TURN_PART, FIRST_TURN_PART)] if height == FIRST_TURN_HEIGHT else []
    sizes: list[tuple[int, ...]] = []
    if height >= MIN_TWO_WAY:
        sizes += [(height - b, b) for b in range(MIN_PART, height // 2 + 1)]
    if height >= MIN_THREE_WAY:
        sizes += [
            (height - b - c, b, c)
            for b in range(MIN_PART, height // 2 + 1)
            for c in range(MIN_PART, b + 1)
            if height - b - c >= b
        ]
    return sizes


def _kept(legion: Sequence[str], parts: Sequence[Sequence[str]]) -> list[str]:
    """What stays in the legion after taking ``parts`` out (a multiset difference)."""
    left = Counter(character(name).name for name in legion)
    taken = Counter(character(name).name for part in parts for name in part)
    missing = taken - left
    if missing:
        extra = ", ".join(f"{n} × {name}" for name, n in sorted(missing.items()))
        raise IllegalSplit(f"the legion lacks {extra} to split off (intro, RULES §3.2)")
    kept = []
    for name in legion:
        if taken[name]:
            taken[name] -= 1
        else:
            kept.append(name)
    return kept


def _check_first_turn(legion: Sequence[str], groups: Sequence[Sequence[str]]) -> None:
    if len(legion) != FIRST_TURN_HEIGHT or any(len(g) != FIRST_TURN_PART for g in groups):
        raise IllegalSplit("on your first turn the starting legion splits 4–4 (RULES §3.3)")
    lords = [[n for n in group if not character(n).is_creature] for group in groups]
    if sorted(tuple(g) for g in lords) != [(ANGEL,), (TITAN,)]:
        raise IllegalSplit(
            f"{' | '.join(', '.join(g) for g in groups)}: on the first turn each half holds "
            "one lord (the Titan in one, the Angel in the other) and three creatures "
            "(RULES §3.3)"
        )


def check_split(
    legion: Sequence[str],
    parts: Sequence[Sequence[str]],
    free_markers: int,
    first_turn: bool = False,
) -> list[str]:
    """Validate splitting ``parts`` off ``legion``; return what the legion keeps (RULES §3).

    ``parts`` are the one or two new legions, each needing one of the player's
    ``free_markers`` (RULES §3.5). Raises :class:`IllegalSplit` naming the rule, or
    :class:`InvalidNotation` for an unknown character.
    """
    if not 1 <= len(parts) <= 2:
        raise IllegalSplit("a split makes one or two new legions (intro, RULES §3.2)")
    if first_turn and len(parts) != 1:
        raise IllegalSplit("on your first turn the starting legion splits in two (RULES §3.3)")
    if free_markers < len(parts):
        raise IllegalSplit(
            f"each new legion needs a free marker: {len(parts)} needed, {free_markers} left "
            "(RULES §3.5)"
        )
    kept = _kept(legion, parts)
    groups = [kept, *parts]
    if first_turn:
        _check_first_turn(legion, groups)
    sizes = tuple(sorted((len(g) for g in groups), reverse=True))
    if sizes not in split_sizes(len(legion)):
        raise IllegalSplit(
            f"a legion of {len(legion)} cannot split {'–'.join(map(str, sizes))}: a legion of "
            "4 or more splits into legions of at least 2, one of 6 or more may split in three "
            "(intro, RULES §3.2)"
        )
    return kept
