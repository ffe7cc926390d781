"""Playing whole games between agents: the computer player, a random player, or any
function ``(state, seat) -> action`` (used by the tests and ``bench/ai.py``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.game import actions as a
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState, Options

Agent = Callable[[GameState, int], a.Action]
#: Called after each action with the state before, the seat, the action and the state after.
Observer = Callable[[GameState, int, a.Action, GameState], None]


class RandomPlayer:
    """Picks uniformly among the legal actions except ``Withdraw`` and ``Reveal`` (and the
    kinds in ``avoid``, unless nothing else is left); its choices come from SHA-256 of its
    seed and a call counter (no global generator)."""

    def __init__(self, seed: int, avoid: tuple[type[a.Action], ...] = ()) -> None:
        self.seed = seed
        self.avoid = avoid
        self.calls = 0

    def __call__(self, state: GameState, seat: int) -> a.Action:
        legal = [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw | a.Reveal)]
        preferred = [x for x in legal if not isinstance(x, self.avoid)] or legal
        self.calls += 1
        digest = hashlib.sha256(f"random-player|{self.seed}|{self.calls}".encode()).digest()
        return preferred[int.from_bytes(digest[:8], "big") % len(preferred)]


@dataclass(frozen=True)
class Match:
    """How a game between agents went: ``winners`` is empty when it hit the turn cap."""

    state: GameState
    winners: tuple[int, ...]
    turns: int
    actions: int


def play(
    agents: Sequence[Agent],
    seed: int,
    *,
    max_turns: int,
    options: Options | None = None,
    observe: Observer | None = None,
    max_actions: int = 100_000,
) -> Match:
    """Play a game seat by seat until it ends, ``max_turns`` player turns have begun or
    ``max_actions`` actions were taken."""
    names = [f"P{i}" for i in range(len(agents))]
    state, _ = new_game(names, seed, options)
    actions = 0
    while state.result is None and state.turn.number <= max_turns and actions < max_actions:
        seat = to_act(state)
        assert seat is not None
        action = agents[seat](state, seat)
        after, _ = apply(state, seat, action)
        if observe is not None:
            observe(state, seat, action, after)
        state = after
        actions += 1
    winners = state.result.winners if state.result is not None else ()
    return Match(state, winners, state.turn.number, actions)
