"""The split phase (RULES §3): split full legions so that both parts can muster again.

A split is judged by the muster potential of both parts (pairs and triples that muster up
stay together, RULES §6.2) and by the strength left in the parent, which keeps its lords.
"""

from __future__ import annotations

from collections import Counter

from engine.ai.tiebreak import tiebreaker
from engine.ai.worth import points, potential
from engine.characters import character
from engine.game import actions as a
from engine.game.state import GameState

#: A legion this tall can no longer muster (RULES §6.1): split it.
SPLIT_HEIGHT = 7
#: Weight of the parent's remaining value against muster potential.
KEEP_WEIGHT = 0.3


def choose_split(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """The next split-phase action for ``seat``: a split, or the movement roll."""
    first = state.turn.first_turn
    tie = tiebreaker(state, seat)
    best: a.Split | None = None
    best_score = 0.0
    for action in legal:
        if not isinstance(action, a.Split):
            continue
        parent = state.legion(action.legion)
        if not first and (
            parent.height < SPLIT_HEIGHT or any(character(c).is_lord for c in action.characters)
        ):
            continue
        rest = tuple((Counter(parent.characters) - Counter(action.characters)).elements())
        score = split_score(action.characters, tuple(sorted(rest)), first)
        score += tie(action)
        if best is None or score > best_score:
            best, best_score = action, score
    if best is not None:
        return best
    if a.Roll() in legal:
        return a.Roll()
    return next(x for x in legal if not isinstance(x, a.Withdraw))


def split_score(part: tuple[str, ...], rest: tuple[str, ...], first: bool) -> float:
    """How good a split into ``part`` and ``rest`` is (higher is better)."""
    score = potential(tuple(sorted(part))) + potential(rest)
    if not first:
        score += KEEP_WEIGHT * points(rest, 0)
    return score
