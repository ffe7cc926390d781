"""The public information a masterboard picture shows, and nothing else.

:func:`board_info` reads a :class:`~engine.game.state.GameState` (or anything with the
same public fields) or an :class:`~engine.game.view.View` and keeps only what every
player may see:
players, and for each legion its marker, owner, land and height (RULES §3.3). Hidden
legion contents never reach the drawing code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.characters import titan_power
from engine.game.game_turns import game_turn
from engine.game.state import GameState
from engine.game.view import View
from engine.movement import MoveKind


class PlayerLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def colour(self) -> str | None: ...
    @property
    def score(self) -> int: ...
    @property
    def eliminated(self) -> bool: ...


class LegionLike(Protocol):
    @property
    def marker(self) -> str: ...
    @property
    def owner(self) -> int: ...
    @property
    def land(self) -> int: ...
    @property
    def height(self) -> int: ...


class MoveLike(Protocol):
    @property
    def marker(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def land(self) -> int: ...
    @property
    def kind(self) -> MoveKind: ...


class TurnLike(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def roll(self) -> int | None: ...
    @property
    def moves(self) -> Sequence[MoveLike]: ...


class EngagementLike(Protocol):
    @property
    def land(self) -> int: ...


class BoardLike(Protocol):
    """What a masterboard picture reads: a game state or a public view of it."""

    @property
    def players(self) -> Sequence[PlayerLike]: ...
    @property
    def legions(self) -> Mapping[str, LegionLike]: ...
    @property
    def phase(self) -> Enum: ...
    @property
    def active(self) -> int: ...
    @property
    def turn(self) -> TurnLike: ...
    @property
    def engagement(self) -> EngagementLike | None: ...


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    colour: str | None
    score: int
    eliminated: bool

    @property
    def titan_power(self) -> int:
        """6 + score // 100 (rule 19.1, RULES §1.3)."""
        return titan_power(self.score)


@dataclass(frozen=True)
class MarkerInfo:
    """A legion as everyone sees it (RULES §3.3): marker, owner, land and height."""

    marker: str
    owner: int
    land: int
    height: int


@dataclass(frozen=True)
class MoveInfo:
    marker: str
    start: int
    land: int
    teleport: bool


@dataclass(frozen=True)
class BoardInfo:
    """Everything a public masterboard picture may show."""

    players: tuple[PlayerInfo, ...]
    legions: tuple[MarkerInfo, ...]
    phase: str
    active: int
    turn: int
    """The game turn, as players count them (0 while the colours are chosen)."""
    roll: int | None
    moves: tuple[MoveInfo, ...]
    engagement: int | None

    def legions_in(self, land: int) -> list[MarkerInfo]:
        return [leg for leg in self.legions if leg.land == land]

    def contested(self) -> tuple[int, ...]:
        """Lands holding legions of two players: pending engagements (RULES §5.1)."""
        owners: dict[int, set[int]] = {}
        for leg in self.legions:
            owners.setdefault(leg.land, set()).add(leg.owner)
        return tuple(sorted(land for land, seats in owners.items() if len(seats) > 1))


def board_info(board: BoardLike | View | BoardInfo) -> BoardInfo:
    """The public part of ``board`` (markers sorted, so equal boards draw equal pictures),
    its turn the game turn as players count them (a game state's is worked out from its
    player turns, :func:`~engine.game.game_turns.game_turn`; another board's ``turn.number``
    is taken to be one)."""
    if isinstance(board, BoardInfo):
        return board
    if isinstance(board, View):
        return _from_view(board)
    players = tuple(PlayerInfo(p.name, p.colour, p.score, p.eliminated) for p in board.players)
    legions = _markers(board.legions.values())
    moves = tuple(
        MoveInfo(m.marker, m.start, m.land, m.kind is not MoveKind.NORMAL) for m in board.turn.moves
    )
    engagement = board.engagement.land if board.engagement is not None else None
    return BoardInfo(
        players=players,
        legions=legions,
        phase=str(board.phase.value),
        active=board.active,
        turn=game_turn(board) if isinstance(board, GameState) else board.turn.number,
        roll=board.turn.roll,
        moves=moves,
        engagement=engagement,
    )


def _markers(legions: Iterable[LegionLike]) -> tuple[MarkerInfo, ...]:
    found = (MarkerInfo(leg.marker, leg.owner, leg.land, leg.height) for leg in legions)
    return tuple(sorted(found, key=lambda m: m.marker))


def _from_view(view: View) -> BoardInfo:
    """The public part of a seat's view (a public view already is public)."""
    return BoardInfo(
        players=tuple(PlayerInfo(p.name, p.colour, p.score, p.eliminated) for p in view.players),
        legions=_markers(view.legions),
        phase=str(view.phase.value),
        active=view.active,
        turn=view.game_turn,
        roll=view.roll,
        moves=tuple(
            MoveInfo(m.marker, m.start, m.land, m.kind is not MoveKind.NORMAL) for m in view.moves
        ),
        engagement=view.engagement.land if view.engagement is not None else None,
    )
