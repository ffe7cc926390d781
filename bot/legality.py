"""What a seat may do, remembered for the latest states asked about.

A game state never changes once made, and the bot asks the same state the same question
several times (the turn check, the choices of the board, autocomplete as a player types):
:func:`legal` answers :func:`engine.game.legal.legal_actions` once per state and seat.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

from engine.game.actions import Action
from engine.game.legal import legal_actions
from engine.game.state import GameState

KEEP = 256
"""States remembered (a few per busy game)."""
_known: OrderedDict[tuple[int, int], tuple[weakref.ref[GameState], tuple[Action, ...]]] = (
    OrderedDict()
)


def legal(state: GameState, seat: int) -> list[Action]:
    """``legal_actions(state, seat)``, computed once for each state still in use."""
    key = (id(state), seat)
    found = _known.get(key)
    if found is not None and found[0]() is state:
        _known.move_to_end(key)
        return list(found[1])
    actions = tuple(legal_actions(state, seat))
    _known[key] = (weakref.ref(state), actions)
    while len(_known) > KEEP:
        _known.popitem(last=False)
    return list(actions)
