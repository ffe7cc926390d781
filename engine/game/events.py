"""What happened: events returned by ``apply``, with every die roll inside.

Each event has an ``audience``: None for everyone, otherwise the seats that may see it
(RULES §1.7). An event addressed to a seat never carries another player's unrevealed
legion contents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.battle.position import Side
from engine.codec import encode
from engine.events import Event as Event  # re-exported: the base of every event
from engine.game.state import Proposal
from engine.movement import MoveKind


@dataclass(frozen=True)
class TowersAssigned(Event):
    towers: tuple[int, ...]
    """Tower of each seat, in seat order."""
    rolls: tuple[tuple[int, ...], ...]
    """The tower rolls made, round by round (RULES §1.6); with ``opposite`` the two rolls
    of the 2-player event, ``((pair,), (who takes which,))``."""
    opposite: bool = False
    """The towers were assigned as opposite pairs (``Options.opposite_towers``)."""


@dataclass(frozen=True)
class ColourChosen(Event):
    seat: int
    colour: str
    marker: str
    land: int


@dataclass(frozen=True)
class TurnStarted(Event):
    seat: int
    number: int


@dataclass(frozen=True)
class LegionContents(Event):
    """The full contents of a legion, for its owner (or whoever may see them)."""

    marker: str
    characters: tuple[str, ...]


#: Why a legion was shown (:class:`Revealed`): to the two engaged players (RULES §5.2), to
#: everyone as a battle begins (§5.7), the winners' legions at the end (§12.5), or by its
#: owner's choice (errata 4.5).
ENGAGEMENT, BATTLE, GAME_OVER, SHOWN_BY_OWNER = (
    "engagement",
    "battle",
    "game over",
    "shown by its owner",
)


@dataclass(frozen=True)
class Revealed(Event):
    """Characters of a legion shown to the audience (RULES §1.7), for a ``reason`` of
    :data:`ENGAGEMENT`, :data:`BATTLE`, :data:`GAME_OVER` or :data:`SHOWN_BY_OWNER`."""

    marker: str
    characters: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class LegionSplit(Event):
    parent: str
    child: str
    land: int
    parent_height: int
    child_height: int


@dataclass(frozen=True)
class SplitUndone(Event):
    parent: str
    child: str
    height: int


@dataclass(frozen=True)
class MovementRolled(Event):
    seat: int
    roll: int
    mulligan: bool = False


@dataclass(frozen=True)
class LegionMoved(Event):
    marker: str
    start: int
    land: int
    kind: MoveKind
    entry_side: int | None
    lord: str | None = None


@dataclass(frozen=True)
class MoveTakenBack(Event):
    marker: str
    land: int


@dataclass(frozen=True)
class Recombined(Event):
    marker: str
    merged: tuple[str, ...]
    land: int
    height: int


@dataclass(frozen=True)
class MovementEnded(Event):
    engagements: tuple[int, ...]


@dataclass(frozen=True)
class EngagementBegun(Event):
    land: int
    attacker: str
    defender: str
    entry_side: int


@dataclass(frozen=True)
class Fled(Event):
    marker: str


@dataclass(frozen=True)
class ProposalsMade(Event):
    by: Side
    numbered: tuple[tuple[int, Proposal], ...]


@dataclass(frozen=True)
class ProposalAccepted(Event):
    by: Side
    number: int
    proposal: Proposal


@dataclass(frozen=True)
class NoMoreProposalsDeclared(Event):
    by: Side


@dataclass(frozen=True)
class EngagementConceded(Event):
    by: Side
    marker: str


@dataclass(frozen=True)
class BattleBegun(Event):
    land: int
    terrain: str
    attacker: str
    defender: str
    entry_side: int


@dataclass(frozen=True)
class CharactersSlain(Event):
    marker: str
    characters: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class LegionEliminated(Event):
    marker: str
    owner: int


@dataclass(frozen=True)
class EngagementResolved(Event):
    land: int
    winner: Side | None
    how: str


@dataclass(frozen=True)
class PointsScored(Event):
    seat: int
    points: int
    score: int
    reason: str


@dataclass(frozen=True)
class LordSummoned(Event):
    donor: str
    marker: str
    lord: str


@dataclass(frozen=True)
class LordAcquired(Event):
    marker: str
    lord: str


@dataclass(frozen=True)
class Mustered(Event):
    marker: str
    recruit: str
    revealed: tuple[str, ...]
    reinforcement: bool = False


@dataclass(frozen=True)
class Declined(Event):
    what: str


@dataclass(frozen=True)
class CharactersReturned(Event):
    """Slain lords and demi-lords back to the stacks, creatures to the dead pile (§11.3)."""

    regenerated: tuple[str, ...]
    dead: tuple[str, ...]


#: Why a player left the game (:class:`PlayerEliminated`): his Titan was slain or its
#: legion eliminated (RULES §12.1), or he conceded the game (§12.4), the Titan's legion
#: included when it was in the engagement he conceded.
TITAN_LOST, WITHDREW = "Titan lost", "withdrew"


@dataclass(frozen=True)
class PlayerEliminated(Event):
    """``seat`` is out of the game; ``by`` is his eliminator (RULES §12.2), if any;
    ``reason`` is :data:`TITAN_LOST` or :data:`WITHDREW`."""

    seat: int
    by: int | None
    reason: str


@dataclass(frozen=True)
class MarkersInherited(Event):
    seat: int
    markers: tuple[str, ...]


@dataclass(frozen=True)
class WithdrawalQueued(Event):
    seat: int


@dataclass(frozen=True)
class TimeLimitExpired(Event):
    final_turns: int


@dataclass(frozen=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[int, ...]
    reason: str


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": name, ...fields}``."""
    return {"type": type(event).__name__, **encode(event)}
