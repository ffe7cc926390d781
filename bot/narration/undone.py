"""Running news without the moves taken back (RULES §4.7): a take-back's line and the line
of the move it undid both leave, so that a phase's news tell the moves that stand rather
than every try (``history`` keeps them all).

The lines are read in the words of :mod:`bot.narration.game_events` and
:mod:`bot.narration.battle_events`. A masterboard move that showed a lord (a tower
teleport, RULES §4.4) keeps both lines: what was shown stays shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

#: ``Bk01 (Ann)'s move is taken back: it is in 104 again.``
_LEGION_BACK = re.compile(r"(?P<who>.+)'s move is taken back: it is in (?P<land>\d+) again\.")
#: ``Bk01's Ogre goes back from D2 to E1.`` or ``… goes back from D2 off the board.``
_FIGHTER_BACK = re.compile(
    r"(?P<who>.+) goes back from (?P<end>\S+) (?:off the board|to (?P<start>\S+))\."
)


def without_taken_back(news: Sequence[str]) -> tuple[str, ...]:
    """``news`` less each take-back whose move is told in it, and that move."""
    kept: list[str] = []
    for line in news:
        undid = _undid(line)
        at = _latest(kept, undid) if undid is not None else None
        if at is None:
            kept.append(line)
        else:
            del kept[at]
    return tuple(kept)


def _undid(line: str) -> Callable[[str], bool | None] | None:
    """For a take-back's line, a test of earlier lines: True for the move it undid, False
    for a line that stops the search, None for any other line. Take-backs go last move
    first (RULES §4.7), so the move undone is the latest one told of its mover: of a
    legion, its latest move; of a character (two Ogres share a name), the latest line of
    the very same move."""
    if found := _LEGION_BACK.fullmatch(line):
        who, land = found["who"], found["land"]

        def legion_moved(earlier: str) -> bool | None:
            if not earlier.startswith(f"{who} moves "):
                return None
            rest = earlier.removeprefix(f"{who} moves ")
            started = rest.startswith((f"{land} → ", f"round a loop from {land} "))
            return started and ", revealing " not in rest

        return legion_moved
    if found := _FIGHTER_BACK.fullmatch(line):
        who, end, start = found["who"], found["end"], found["start"]
        told = f"{who} enters at {end}." if start is None else f"{who} moves {start} → {end}."

        return lambda earlier: True if earlier == told else None
    return None


def _latest(lines: list[str], undid: Callable[[str], bool | None]) -> int | None:
    """The index of the latest of ``lines`` that ``undid`` names (None: not among them)."""
    for index in range(len(lines) - 1, -1, -1):
        verdict = undid(lines[index])
        if verdict is not None:
            return index if verdict else None
    return None
