"""Small helpers shared by the phase modules: guards, caretaker moves, audiences."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from engine.errors import NotYourTurn, WrongPhase
from engine.frozen import evolve
from engine.game.events import GAME_OVER, Event, LegionContents, Revealed
from engine.game.state import GameState, Legion, Phase
from engine.game.waiting import waiting_words

Step = tuple[GameState, list[Event]]


def require_phase(state: GameState, *phases: Phase, doing: str, seat: int | None = None) -> None:
    """Raise :class:`WrongPhase` unless the game is in one of ``phases``; the refusal says
    what the game waits for instead (to ``seat``, the player refused)."""
    if state.result is not None:
        raise WrongPhase("the game is over")
    if state.phase not in phases:
        names = " or ".join(p.value for p in phases)
        waiting = waiting_words(state, seat)
        raise WrongPhase(f"you can {doing} only in the {names} phase; {waiting}")


def require_active(state: GameState, seat: int) -> None:
    """Raise :class:`NotYourTurn` unless ``seat`` is the player whose turn it is."""
    if seat != state.active:
        name = state.player(state.active).name
        raise NotYourTurn(f"it is {name}'s turn, not yours; {waiting_words(state, seat)}")


def take_backs_left(state: GameState, made: int) -> bool:
    """Whether another take-back is allowed in a phase that has seen ``made`` of them
    (the house limit ``Options.take_backs_per_phase``)."""
    return made < state.options.take_backs_per_phase


def take_back_limit(state: GameState) -> str:
    """Why a take-back is refused once the phase has used up the house limit."""
    limit = state.options.take_backs_per_phase
    return (
        f"no more take-backs this phase: this game allows {limit} a phase (a house limit; "
        "errata 7.0 sets none), so go on from here"
    )


def own_legion(state: GameState, seat: int, marker: str) -> Legion:
    """``marker``'s legion if ``seat`` owns it, else :class:`NotYourTurn`."""
    legion = state.legion(marker)
    if legion.owner != seat:
        raise NotYourTurn(f"{marker} is not your legion")
    return legion


def sort_names(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names))


def shift_counts(counts: Mapping[str, int], names: Iterable[str], sign: int) -> dict[str, int]:
    """``counts`` with each of ``names`` added (sign 1) or taken (sign −1)."""
    result = dict(counts)
    for name, n in Counter(names).items():
        result[name] = result.get(name, 0) + sign * n
    return result


def take_from_caretaker(state: GameState, names: Iterable[str]) -> GameState:
    return evolve(state, caretaker=shift_counts(state.caretaker, names, -1))


def return_to_caretaker(state: GameState, names: Iterable[str]) -> GameState:
    return evolve(state, caretaker=shift_counts(state.caretaker, names, 1))


def to_dead_pile(state: GameState, names: Iterable[str]) -> GameState:
    return evolve(state, dead=shift_counts(state.dead, names, 1))


def contents(legion: Legion) -> LegionContents:
    """The private event telling a legion's owner what it now holds."""
    return LegionContents(legion.marker, legion.characters, audience=frozenset({legion.owner}))


def add_revealed(legion: Legion, shown: Iterable[str]) -> Legion:
    """``legion`` with ``shown`` known to everyone (kept as a sub-multiset of its contents)."""
    known = Counter(legion.revealed)
    for name, n in Counter(shown).items():
        known[name] = max(known[name], n)
    have = Counter(legion.characters)
    return evolve(legion, revealed=sort_names((known & have).elements()))


def reveal_winners(state: GameState) -> list[Event]:
    """The winners' legions shown to everyone at the end of the game (RULES §1.7, SoP)."""
    winners = state.result.winners if state.result is not None else ()
    return [
        Revealed(leg.marker, leg.characters, GAME_OVER)
        for leg in sorted(state.legions.values(), key=lambda leg: leg.marker)
        if leg.owner in winners
    ]
