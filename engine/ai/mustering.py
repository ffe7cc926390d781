"""The muster phase (RULES §6): muster the most valuable recruit into each legion that may,
preferring recruits that build pairs and triples for later musters (RULES §6.2)."""

from __future__ import annotations

from engine.ai.tiebreak import tiebreaker
from engine.ai.worth import potential
from engine.characters import character
from engine.game import actions as a
from engine.game.state import GameState

#: Weight of the gain in muster potential against the recruit's own value.
GROWTH = 0.5


def choose_muster(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """The next muster-phase action for ``seat``: the best muster, or the end of the turn."""
    best: a.Muster | None = None
    tie = tiebreaker(state, seat)
    best_score = 0.0
    for action in legal:
        if not isinstance(action, a.Muster):
            continue
        score = muster_score(state.legion(action.legion).characters, action.recruit)
        score += tie(action)
        if best is None or score > best_score:
            best, best_score = action, score
    if best is not None:
        return best
    return a.EndTurn()


def muster_score(names: tuple[str, ...], recruit: str) -> float:
    """A recruit's value plus what it adds to the legion's muster potential."""
    after = tuple(sorted((*names, recruit)))
    return character(recruit).value_at() + GROWTH * (potential(after) - potential(names))
