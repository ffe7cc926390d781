"""The muster phase (RULES §6.1–§6.4; rule 18)."""

from __future__ import annotations

from engine.errors import IllegalMuster
from engine.frozen import evolve
from engine.game.actions import Muster
from engine.game.common import (
    Step,
    add_revealed,
    contents,
    own_legion,
    require_active,
    require_phase,
    sort_names,
    take_from_caretaker,
)
from engine.game.events import Mustered
from engine.game.state import GameState, Legion, Phase
from engine.masterboard import land as land_of
from engine.muster import FULL_HEIGHT, MusterOption, check_muster, in_reveal_order, muster_options


def may_muster(state: GameState, legion: Legion) -> bool:
    """Moved this turn, survived, not full, not yet mustered (RULES §6.1, rule 18.1)."""
    return (
        state.phase is Phase.MUSTER
        and legion.owner == state.active
        and legion.marker in state.turn.moved
        and legion.marker not in state.turn.mustered
        and legion.height < FULL_HEIGHT
    )


def muster_choices(state: GameState, legion: Legion) -> list[MusterOption]:
    """What ``legion`` may muster now, with every way to reveal it (rule 18.4), least
    revealing first (:mod:`engine.reveals`)."""
    if not may_muster(state, legion):
        return []
    terrain = land_of(legion.land).terrain
    return in_reveal_order(muster_options(terrain, legion.characters, dict(state.caretaker)))


def muster(state: GameState, seat: int, action: Muster) -> Step:
    """Muster one character into a legion that moved (RULES §6)."""
    require_phase(state, Phase.MUSTER, doing="muster", seat=seat)
    require_active(state, seat)
    legion = own_legion(state, seat, action.legion)
    if legion.marker not in state.turn.moved:
        raise IllegalMuster(f"{legion.marker} did not move this turn (RULES §6.1, rule 18.1)")
    if legion.marker in state.turn.mustered:
        raise IllegalMuster(f"{legion.marker} has mustered already this turn (rule 18.0)")
    terrain = land_of(legion.land).terrain
    revealed = (
        tuple(action.revealed)
        if action.revealed is not None
        else default_reveal(state, legion, action.recruit)
    )
    check_muster(terrain, legion.characters, action.recruit, revealed, dict(state.caretaker))
    legion = evolve(legion, characters=sort_names([*legion.characters, action.recruit]))
    legion = add_revealed(legion, [*revealed, action.recruit])
    state = take_from_caretaker(state.with_legion(legion), [action.recruit])
    turn = evolve(state.turn, mustered=state.turn.mustered | {legion.marker})
    return evolve(state, turn=turn), [
        Mustered(legion.marker, action.recruit, revealed),
        contents(legion),
    ]


def default_reveal(state: GameState, legion: Legion, recruit: str) -> tuple[str, ...]:
    """What a muster shows when the player does not say: the least revealing sufficient
    set of recruiters (:mod:`engine.reveals`), the first way ``legal_actions`` lists;
    ``()`` when there is none (the check then says why)."""
    choices = muster_choices(state, legion)
    return next((o.recruiters[0] for o in choices if o.recruit == recruit), ())
