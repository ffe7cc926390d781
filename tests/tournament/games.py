"""Real finished games for the tournament tests: computer players to the end, and a
mutual from a position (RULES §14 C10), each with its log of events per action."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.ai import choose_action
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.events import Event
from engine.game.legal import to_act
from engine.game.notation import parse_position
from engine.game.setup import new_game
from engine.game.state import GameState, Options, Proposal

MAX_TURNS = 400


@dataclass(frozen=True)
class Played:
    state: GameState
    log: list[list[Event]]


@cache
def ai_game(players: int, seed: int, *, expire_after: int | None = None) -> Played:
    """A game between computer players to its end; with ``expire_after``, the time limit
    is declared expired after that many actions (RULES §12.6). Cached: do not change it."""
    options = Options(time_limit=expire_after is not None)
    state, events = new_game([f"P{i}" for i in range(players)], seed, options)
    log = [list(events)]
    while state.result is None:
        assert state.turn.number <= MAX_TURNS, f"seed {seed}: no result"
        seat = to_act(state)
        assert seat is not None
        action = choose_action(state, seat)
        if expire_after is not None and len(log) > expire_after and state.final_turns is None:
            action = a.ExpireTimeLimit()
        state, events = apply(state, seat, action)
        log.append(list(events))
    return Played(state, log)


def mutual_game() -> Played:
    """Black attacks Red; both Titans fall together by agreement: a draw (§14 C10)."""
    state = parse_position("Bk01@41:Titan,Troll Rd01@41:Titan,Ogre | turn=Bk phase=engage")
    log: list[list[Event]] = []
    for seat, action in (
        (0, a.Engage(41)),
        (1, a.Propose((Proposal(None),))),
        (0, a.Accept(1)),
    ):
        state, events = apply(state, seat, action)
        log.append(list(events))
    return Played(state, log)
