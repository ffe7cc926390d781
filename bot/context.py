"""Who sends a command, where, and what the service lends its handlers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.config import NO_LIMITS, Limits
from bot.records.proof import random_salt
from bot.storage import Store
from bot.storage.record import NO_CLOCK, Game, Timing


@dataclass(frozen=True)
class Place:
    """Where a command comes from: one game per channel."""

    channel: int
    guild: int | None = None


@dataclass(frozen=True)
class Caller:
    """The user sending a command. ``organiser`` grants the host's powers (cancel, add,
    start); ``on_behalf`` marks a command an organiser's tool gives for this user (it does
    not count against the user's command rate); ``cause`` says why an action was given
    for a seat that did not give it (a passed deadline), and is logged with it."""

    user: int
    name: str
    organiser: bool = False
    on_behalf: bool = False
    cause: str | None = None
    stands_in: frozenset[int] = frozenset()
    """The away players who named this user their stand-in (``away … standin @user``)."""
    step: bool = False
    """The command was chosen in a private step of a decision: its answer shows the next
    step (:mod:`bot.offers.steps`)."""

    def seat_in(self, game: Game) -> int | None:
        """The caller's seat in ``game``: their own, or else the seat of a player they stand
        in for (the lowest, should two of its players have named them)."""
        own = game.seat_of(self.user)
        if own is not None or not self.stands_in:
            return own
        return next((s.seat for s in game.seats if s.user in self.stands_in), None)

    def standing_in(self, game: Game) -> bool:
        """Whether the caller plays ``game`` for an away player, not in their own seat."""
        return game.seat_of(self.user) is None and self.seat_in(game) is not None


@dataclass(frozen=True)
class Version:
    """One game at one moment: its id and how many actions it had. Choices offered for a
    version run only while the game is still at it (a second click on a button, or a click
    on an old board, changes nothing)."""

    game: int
    n: int


@dataclass(frozen=True)
class Context:
    """One command's surroundings, passed to the lobby, info and play handlers."""

    db: Store
    """Where handlers read and write: the database, or the command's unit of it."""
    place: Place
    caller: Caller
    seeds: Callable[[], int]
    snapshot_every: int
    limits: Limits = NO_LIMITS
    """What the operator allows (open games, history lengths)."""
    timing: Timing = NO_CLOCK
    """The clock a new game gets unless its host chooses another (``[clock]``)."""
    now: Callable[[], float] = time.time
    """The scheduler's time (seconds since the epoch)."""
    salts: Callable[[], str] = random_salt
    """Draws the secret salt of a starting game's dice commitment (:mod:`bot.records.proof`)."""
    seating: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held (across channels: the service shares one) while a user's open games are counted
    and they take a seat, so that commands in two channels cannot both pass the limit."""
