"""The computer player's levels of play (issue 24).

``easy`` makes a newcomer's mistakes, ``normal`` plays the one-move-at-a-time heuristics,
``hard`` searches (:mod:`engine.ai.tactics`). Every level is deterministic given the
game state and its seed.
"""

from __future__ import annotations

from typing import Literal, get_args

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)
#: The level of a seat that does not say (today's AI).
DEFAULT: Level = "normal"
#: The level that plays for an absent player (stand-ins, timeouts) unless the game says.
STAND_IN: Level = "hard"


def level_of(text: str | None) -> Level | None:
    """The level named ``text`` (any case), or None."""
    name = (text or "").strip().lower()
    return next((level for level in LEVELS if level == name), None)
