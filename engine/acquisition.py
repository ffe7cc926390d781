"""Acquiring Angels and Archangels by scoring (RULES §7.1; errata 17.3).

Each multiple m of 100 with old score < m ≤ new score gives the legion that earned the
points one Angel, or, when m is a multiple of 500, an Archangel or still an Angel.
Every acquisition is optional and needs a counter in the caretaker's stacks and room in
the legion (height ≤ 6 before each addition). Only *engagement points* count: the caller
must not pass the half points of a player's elimination (RULES §12.2), which raise the
score but never give acquisitions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.characters import ANGEL, ARCHANGEL, CHARACTERS
from engine.errors import DataError, IllegalSummon
from engine.muster import FULL_HEIGHT


def _every(name: str) -> int:
    every = CHARACTERS[name].acquirable_every
    if not every:
        raise DataError(f"{name}: acquirable_every is missing")
    return every


ANGEL_EVERY = _every(ANGEL)
ARCHANGEL_EVERY = _every(ARCHANGEL)
if ARCHANGEL_EVERY % ANGEL_EVERY:
    raise DataError("Archangel marks must be Angel marks (RULES §7.1)")


@dataclass(frozen=True)
class Acquisition:
    """One acquisition earned by crossing ``mark``; ``choices`` best first."""

    mark: int
    choices: tuple[str, ...]


def _check_scores(old_score: int, new_score: int) -> None:
    if old_score < 0 or new_score < old_score:
        raise ValueError(f"scores must not fall: {old_score} → {new_score}")


def acquisitions(old_score: int, new_score: int) -> tuple[Acquisition, ...]:
    """What a rise from ``old_score`` to ``new_score`` entitles to (RULES §7.1).

    Ignores room and stacks: 375 → 525 gives an Angel (400) and an Archangel or Angel
    (500, errata 17.3).
    """
    _check_scores(old_score, new_score)
    first = old_score // ANGEL_EVERY + 1
    marks = range(first * ANGEL_EVERY, new_score + 1, ANGEL_EVERY)
    return tuple(
        Acquisition(m, (ARCHANGEL, ANGEL) if m % ARCHANGEL_EVERY == 0 else (ANGEL,)) for m in marks
    )


def _left(caretaker: Mapping[str, int] | None, name: str) -> int:
    return FULL_HEIGHT if caretaker is None else max(0, caretaker.get(name, 0))


def acquisition_choices(
    old_score: int,
    new_score: int,
    legion_height: int,
    caretaker: Mapping[str, int] | None = None,
) -> list[tuple[str, ...]]:
    """Every legal set of lords to take, as name tuples, Archangels first (RULES §7.1).

    Each set has at most one lord per mark crossed, Archangels only for multiples of 500,
    no more than the legion's room (7 − height) or the stacks' counters (``caretaker``:
    name → counters left; default: plenty). ``()`` (taking nothing) is always listed.
    """
    earned = acquisitions(old_score, new_score)
    room = max(0, FULL_HEIGHT - legion_height)
    big_marks = sum(ARCHANGEL in a.choices for a in earned)
    angels_left, archangels_left = _left(caretaker, ANGEL), _left(caretaker, ARCHANGEL)
    most = min(len(earned), room)
    found = []
    for archangels in range(min(big_marks, archangels_left, most), -1, -1):
        for angels in range(min(most - archangels, angels_left), -1, -1):
            found.append((ARCHANGEL,) * archangels + (ANGEL,) * angels)
    return found


def best_acquisition(
    old_score: int,
    new_score: int,
    legion_height: int,
    caretaker: Mapping[str, int] | None = None,
) -> tuple[str, ...]:
    """The strongest legal set: as many Archangels, then Angels, as fit (RULES §7.1)."""
    return acquisition_choices(old_score, new_score, legion_height, caretaker)[0]


def check_acquisition(
    old_score: int,
    new_score: int,
    legion_height: int,
    taken: Sequence[str],
    caretaker: Mapping[str, int] | None = None,
) -> None:
    """Raise :class:`IllegalSummon` unless ``taken`` is a legal set (RULES §7.1)."""
    wanted = (ARCHANGEL,) * taken.count(ARCHANGEL) + (ANGEL,) * taken.count(ANGEL)
    if len(wanted) != len(taken):
        raise IllegalSummon(f"only Angels and Archangels are acquired, not {taken} (RULES §7.1)")
    if wanted not in acquisition_choices(old_score, new_score, legion_height, caretaker):
        raise IllegalSummon(
            f"{old_score} → {new_score} points with a legion of {legion_height} does not allow "
            f"taking {', '.join(taken)}: one lord per 100 points crossed, an Archangel only "
            "at a multiple of 500, with room and counters left (RULES §7.1)"
        )
