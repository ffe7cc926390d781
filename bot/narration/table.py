"""The table of narrators (event type → words) and the names they use.

:data:`NARRATORS` is keyed on the event's type; :mod:`bot.narration.game_events` and
:mod:`bot.narration.battle_events` fill it, :mod:`bot.narration.narrate` reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, TypeVar

from engine.events import Event
from engine.game.game_turns import game_turn, player_turns
from engine.game.state import GameState, Proposal
from engine.words import plural

__all__ = [
    "NARRATORS",
    "Names",
    "Narrator",
    "article",
    "listing",
    "narrator",
    "plural",
    "proposal_text",
]

E = TypeVar("E", bound=Event)


class Names:
    """What a narrator knows: player names for seats and markers, from game states (the
    first state wins), the markers fighting the engagement, the game turns of the player
    turns (from the latest state), and the next event."""

    def __init__(self, *states: GameState | None) -> None:
        self.upcoming: Event | None = None
        """The event told after the one being told (a strike's excess hits may carry)."""
        self._seats: dict[int, str] = {}
        self._markers: dict[str, str] = {}
        self._sides: dict[str, str] = {}
        given = [s for s in states if s is not None]
        self._latest = max(given, key=lambda s: s.turn.number, default=None)
        self._turns: tuple[tuple[int, int], ...] | None = None
        for state in reversed(given):
            self._seats |= {p.seat: p.name for p in state.players}
            self._markers |= {m: p.name for p in state.players for m in p.markers}
            if state.engagement is not None:
                self.engaged(state.engagement.attacker, state.engagement.defender)

    def forget_engagement(self) -> None:
        """Tell sides as "the attacker" / "the defender" until an engagement is named."""
        self._sides = {}

    def engaged(self, attacker: str, defender: str) -> None:
        """Remember the markers of a new engagement."""
        self._sides = {"attacker": attacker, "defender": defender}

    def owned(self, markers: Iterable[str], seat: int) -> None:
        """Name ``markers`` after ``seat``'s player from now on (markers handed on: an
        eliminated player's to his eliminator, RULES §12.2)."""
        name = self.seat(seat)
        self._markers |= {marker: name for marker in markers}

    def game_turn(self, seat: int, number: int) -> int | None:
        """The game turn of player turn ``number``, played by ``seat`` (None when the states
        do not tell: :func:`engine.game.game_turns.player_turns`)."""
        latest = self._latest
        if latest is None or not 0 < number <= latest.turn.number:
            return None
        if number == latest.turn.number and seat == latest.active:
            return game_turn(latest)
        if self._turns is None:
            self._turns = player_turns(latest) or ()
        if number <= len(self._turns) and self._turns[number - 1][0] == seat:
            return self._turns[number - 1][1]
        return None

    def seat(self, seat: int | None) -> str:
        return self._seats.get(seat, "nobody") if seat is not None else "nobody"

    def owner(self, marker: str) -> str | None:
        """The name of the player ``marker`` belongs to, when it is known."""
        return self._markers.get(marker)

    def legion(self, marker: str) -> str:
        """``Bk01 (Ann)``."""
        owner = self._markers.get(marker)
        return f"{marker} ({owner})" if owner else marker

    def side(self, side: Enum) -> str:
        """The marker fighting as ``side`` (a battle side or a role): ``Bk01``, or
        ``the attacker`` when it is not known."""
        return self._sides.get(str(side.value), f"the {side.value}")

    def marker(self, side: Enum) -> str | None:
        """The marker fighting as ``side`` (a battle side or a role), when it is known."""
        return self._sides.get(str(side.value))

    def fighter(self, side: Enum, name: str, hex_label: str | None = None) -> str:
        """``Bk01's Troll (C3)``."""
        where = f" ({hex_label})" if hex_label else ""
        return f"{self.side(side)}'s {name}{where}"


Narrator = Callable[[Any, Names], str | None]
NARRATORS: dict[type[Event], Narrator] = {}


def narrator(event_type: type[E]) -> Callable[[Callable[[E, Names], str | None]], Narrator]:
    """Register the function describing ``event_type``."""

    def wrap(function: Callable[[E, Names], str | None]) -> Narrator:
        NARRATORS[event_type] = function
        return function

    return wrap


def listing(names: Iterable[str]) -> str:
    """``Ogre ×2, Titan`` — a multiset of characters."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in counts.items()) or "nothing"


def article(name: str) -> str:
    """``an Angel``, ``a Troll``."""
    return f"an {name}" if name[:1].upper() in "AEIOU" else f"a {name}"


def proposal_text(proposal: Proposal) -> str:
    if proposal.eliminate is None:
        return "both legions are eliminated"
    text = f"the {proposal.eliminate.value} is eliminated"
    if proposal.survivor_losses:
        losses = listing(proposal.survivor_losses)
        text += f" and the {proposal.eliminate.other.value} loses {losses}"
    return text
