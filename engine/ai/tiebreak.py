"""Deterministic tie-breaking (STYLE: no global random, no clock).

Each number is a SHA-256 hash of the game's dice seed and counter, the seat and a key,
salted so that it is unrelated to any die the game will roll (engine.dice hashes
``seed:n``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from engine.game.actions import Action, with_default_reveal
from engine.game.state import GameState

#: Weight of a tie-break against the scores it separates: far below any real difference.
EPSILON = 1e-6


def jitter(state: GameState, seat: int, key: str) -> float:
    """A number in [0, 1) fixed by the game position, the seat and ``key``."""
    text = f"ai-tiebreak|{state.dice.seed}|{state.dice.rolled}|{seat}|{key}"
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def tiebreaker(state: GameState, seat: int) -> Callable[[object], float]:
    """A function giving each choice a tiny fixed offset (``EPSILON`` × a hash).

    An action's offset ignores what it reveals (its reveal field at the default): the
    variants of one choice that differ only in that are the same choice.
    """
    return lambda choice: EPSILON * jitter(state, seat, repr(_choice_key(choice)))


def _choice_key(choice: object) -> object:
    return with_default_reveal(choice) if isinstance(choice, Action) else choice
