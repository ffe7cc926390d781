"""Over-7 removal: which characters leave a legion found with more than seven (RULES §6.7).

Every addition needs height ≤ 6, so this should never be needed; when it is, the legion
is revealed and trimmed (intro; errata 4.1). The removed characters return to the
caretaker's stacks; that is the caller's to do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.characters import ANGEL, ARCHANGEL, GUARDIAN, TITAN, WARLOCK, character
from engine.muster import FULL_HEIGHT

#: Non-creatures in removal order (errata 4.1). The Titan is not listed there; it goes
#: last, so it is never removed while another character remains.
_LATER = (GUARDIAN, WARLOCK, ARCHANGEL, ANGEL, TITAN)


def _removal_key(name: str) -> tuple[int, int, int, int, str]:
    """Creatures by value, then flyers, then Power, highest first (errata 4.1)."""
    c = character(name)
    if c.is_creature:
        return (0, -c.value_at(), -int(c.flies), -c.power, name)
    return (1 + _LATER.index(c.name), 0, 0, 0, name)


def removal_order(legion: Iterable[str]) -> list[str]:
    """The legion's characters, first to be removed first (RULES §6.7, §13 E19).

    Raises :class:`InvalidNotation` for an unknown name.
    """
    return sorted(legion, key=_removal_key)


def trim_to_seven(legion: Iterable[str]) -> tuple[list[str], list[str]]:
    """(kept, removed): the legion cut down to seven characters (RULES §6.7).

    ``kept`` keeps the legion's order; ``removed`` is in removal order.
    """
    names = list(legion)
    removed = removal_order(names)[: max(0, len(names) - FULL_HEIGHT)]
    left = Counter(removed)
    kept = []
    for name in names:
        if left[name]:
            left[name] -= 1
        else:
            kept.append(name)
    return kept, removed
