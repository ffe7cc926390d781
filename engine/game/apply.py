"""The engine's entry point: ``apply(state, seat, action) -> (state, events)``.

Dispatch is a table keyed on the action's type. ``apply`` never mutates its input, so a
rejected action (a :class:`~engine.errors.TitanError`) changes nothing.

This is the top of ``engine.game``: it alone imports the phase modules' handlers, and
after each handler it runs what follows by itself between turns (:func:`follow_up`), so
that the modules below never call back up (their imports point one way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from engine.errors import InvalidNotation
from engine.game import actions as a
from engine.game.aftermath import acquire, decline, reinforce, summon
from engine.game.battling import BATTLE_HANDLERS
from engine.game.common import Step
from engine.game.engaging import accept, concede, engage, fight, flee, no_more_proposals, propose
from engine.game.events import Event
from engine.game.leaving import withdraw, withdraw_now
from engine.game.moving import end_movement, move, mulligan, take_back
from engine.game.mustering import muster
from engine.game.revealing import reveal
from engine.game.setup import choose_colour, new_game
from engine.game.splitting import roll, split, undo_split
from engine.game.state import GameState, Options, Phase
from engine.game.turns import end_turn, expire_time_limit, finish_turn

A = TypeVar("A", bound=a.Action)
Handler = Callable[[GameState, int, Any], Step]

HANDLERS: dict[type[a.Action], Handler] = {
    a.ChooseColour: choose_colour,
    a.Split: split,
    a.UndoSplit: undo_split,
    a.Roll: roll,
    a.Mulligan: mulligan,
    a.Move: move,
    a.TakeBack: take_back,
    a.EndMovement: end_movement,
    a.Engage: engage,
    a.Flee: flee,
    a.Propose: propose,
    a.Accept: accept,
    a.Concede: concede,
    a.NoMoreProposals: no_more_proposals,
    a.Fight: fight,
    a.Summon: summon,
    a.Reinforce: reinforce,
    a.Acquire: acquire,
    a.Decline: decline,
    a.Muster: muster,
    a.EndTurn: end_turn,
    a.Withdraw: withdraw,
    a.Reveal: reveal,
    a.ExpireTimeLimit: expire_time_limit,
}


def register_handler(action_type: type[A], handler: Callable[[GameState, int, A], Step]) -> None:
    """Add a handler for an action type defined elsewhere (the battle's)."""
    HANDLERS[action_type] = handler
    a.register(action_type)


# Battle actions, and the engagement actions that mean something else during a battle.
for _type, _handler in BATTLE_HANDLERS.items():
    register_handler(_type, _handler)


def apply(state: GameState, seat: int, action: a.Action) -> tuple[GameState, list[Event]]:
    """The state after ``seat`` performs ``action``, and what happened.

    Raises :class:`~engine.errors.IllegalAction` (with a reason a player can read) when
    the rules forbid it, :class:`~engine.errors.InvalidNotation` for malformed input.
    """
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise InvalidNotation(f"unknown action {type(action).__name__}")
    state.player(seat)
    return follow_up(*handler(state, seat, action))


def follow_up(state: GameState, events: list[Event]) -> Step:
    """What follows an action by itself until someone must decide: a mover out of the
    game ends his turn at once (RULES §12.2), and a turn that begins with the mover's
    withdrawal queued begins with that withdrawal (§12.4), which may end it in turn."""
    while state.result is None and state.phase is not Phase.COLOURS:
        mover = state.player(state.active)
        if mover.withdrawing and not mover.eliminated:
            state, more = withdraw_now(state, mover.seat)
        elif mover.eliminated and state.engagement is None:
            state, more = finish_turn(state)
        else:
            break
        events = [*events, *more]
    return state, events


def replay(
    names: Sequence[str],
    seed: int,
    log: Iterable[tuple[int, a.Action]],
    options: Options | None = None,
) -> GameState:
    """Rebuild a game from its seed and its ordered (seat, action) log."""
    state, _ = new_game(names, seed, options)
    for seat, action in log:
        state, _ = apply(state, seat, action)
    return state
