"""What the bot's features may ask of the game service, and of each other through it.

The service (:mod:`bot.service`) is the core: it locks a channel, loads its game, runs a
command, stores it with what it tells, and tells it. The features it runs — the clock
(:mod:`bot.schedule`), the computers' play (:mod:`bot.ai_runner`), a tournament's tables
(:mod:`bot.competition`) — are given the service and know it only as the
:class:`GameHost` defined here, so they never import the core back: imports point one way
(transports → service → features → storage, narration, offers → engine, render).

This module imports only what the interface names; nothing in it does anything.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.context import Caller, Context, Place
from bot.open_games import OpenGames
from bot.replies import Replies
from bot.storage.connection import Backend, Connection, Store, WorkUnit
from bot.storage.record import Game
from engine.game.actions import Action
from engine.game.state import GameState

if TYPE_CHECKING:
    from bot.outbox.deliverer import Deliverer
    from bot.schedule.clock import Clock

RACES = 3
"""Tries of a command whose game another writer changes first (a shared database)."""
#: An organiser's tool run by :meth:`GameHost.change`: the context, the channel's game.
Work = Callable[..., Awaitable[Replies]]
#: Chooses the action for a seat (a passed deadline's answer), in a worker thread.
Chooser = Callable[[GameState, int], Action]
#: Work done in the transaction of a stored change (a due item marked done).
Finish = Callable[[Connection], Awaitable[None]]


SLICE_SECONDS = 0.1
"""About how long one slice may hold the channel's lock (it ends after the action under
way when this is spent; a slow decision may make it longer)."""


@dataclass
class Slice:
    """What one slice of AI actions did: each stored action's replies, and why it ended."""

    chain: list[Replies] = field(default_factory=list)
    more: bool = False
    """The slice ran out (its actions or its time) while the game still waits for an AI."""
    failed: bool = False
    """An AI action (or loading the game) failed: logged, the game is tried again later."""
    elsewhere: bool = False
    """Another process plays this game's AI seats (a shared database)."""


class AiSeats(Protocol):
    """The computers' play on games left waiting for them (:class:`~bot.ai_runner.AiRunner`)."""

    async def sweep(self, waiting: Sequence[tuple[int, int | None]]) -> int: ...

    def retry_due(self, now: float) -> int: ...

    def next_retry(self) -> float | None: ...


class Openings(Protocol):
    """The opening of tournaments' tables (:class:`~bot.competition.tables.TableOpener`)."""

    def wake(self) -> None: ...


class GameHost(Protocol):
    """The game service as its features see it."""

    db: Backend
    holder: str
    """This process's name in the claims and leases of a shared database."""
    wall_clock: Clock
    ai_limit: int
    on_planned: Callable[[], None] | None
    deliverer: Deliverer | None
    games: OpenGames
    on_ai_action: Callable[[Game], None] | None

    @property
    def ai(self) -> AiSeats: ...

    @property
    def tables(self) -> Openings: ...

    def lock(self, channel: int) -> asyncio.Lock: ...

    async def game_in(self, channel: int) -> Game | None: ...

    def forget(self, channel: int | None = None) -> None: ...

    async def change(
        self, place: Place, caller: Caller, work: Work, *, reply_to: str | None = None
    ) -> Replies: ...

    async def tell(
        self, place: Place, game: Game, replies: Replies, done: Finish | None = None
    ) -> Replies: ...

    async def announce(self, place: Place, replies: Replies) -> Replies: ...

    async def ai_after(self, place: Place, first: Replies, limit: int | None = None) -> Replies: ...

    def context(self, place: Place, caller: Caller, db: Store | None = None) -> Context: ...

    async def told(
        self,
        unit: WorkUnit,
        place: Place,
        caller: Caller,
        replies: Replies,
        reply_to: str | None,
        before: Game | None,
    ) -> Replies: ...

    def deliver_soon(self, channel: int, replies: Replies) -> None: ...

    async def mark_damaged(self, game_id: int, channel: int, reason: str) -> bool: ...
