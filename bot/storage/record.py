"""A game as the service holds it: its row, seats and engine state, loaded and stored.

Loading is the latest snapshot plus a replay of the later actions; storing one action is
one transaction (log row, snapshot every ``snapshot_every`` actions, status).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite

from bot.storage import ActionRow, GameRow, SeatRow, Status
from bot.storage import games as rows
from bot.storage.eventlog import events_to_json
from engine.codec import decode, encode
from engine.errors import IllegalAction
from engine.game.actions import Action, action_from_json, action_to_json
from engine.game.apply import apply
from engine.game.events import Event
from engine.game.setup import new_game
from engine.game.state import GameState, Options

MAX_PLAYERS = 6
MIN_PLAYERS = 2


@dataclass(frozen=True)
class Settings:
    """Chosen when the game is opened (``players``: the most seats)."""

    host: int
    players: int = MAX_PLAYERS
    record_keeping: bool = False
    time_limit: bool = False

    @property
    def options(self) -> Options:
        return Options(record_keeping=self.record_keeping, time_limit=self.time_limit)

    def to_json(self) -> dict[str, Any]:
        return dict(encode(self))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        settings: Settings = decode(cls, data)
        return settings


@dataclass(frozen=True)
class Game:
    """A loaded game: ``state`` is None in the lobby; ``n`` actions have been applied."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    state: GameState | None = None
    n: int = 0

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def settings(self) -> Settings:
        return Settings.from_json(self.row.settings)

    def seat_of(self, user: int) -> int | None:
        return next((s.seat for s in self.seats if s.user == user), None)

    def user_of(self, seat: int) -> int:
        return next(s.user for s in self.seats if s.seat == seat)

    def name_of(self, seat: int) -> str:
        return next(s.name for s in self.seats if s.seat == seat)

    def is_ai(self, seat: int) -> bool:
        """Whether the computer plays ``seat`` (an AI seat)."""
        return any(s.is_ai for s in self.seats if s.seat == seat)

    def playing(self) -> GameState:
        """The engine state; :class:`IllegalAction` while in the lobby."""
        if self.state is None:
            raise IllegalAction("the game has not started yet: the host starts it with `start`")
        return self.state


def encode_state(state: GameState) -> str:
    return json.dumps(encode(state), separators=(",", ":"))


def decode_state(text: str) -> GameState:
    state: GameState = decode(GameState, json.loads(text))
    return state


def replay_rows(state: GameState, log: Sequence[ActionRow]) -> GameState:
    """``state`` after the logged actions (their stored dice make the same rolls)."""
    for entry in log:
        state, _ = apply(state, entry.seat, action_from_json(json.loads(entry.action)))
    return state


@dataclass(frozen=True)
class Stored:
    """What the database holds for a game: enough to rebuild it without the database."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    snapshot: tuple[int, str] | None
    log: tuple[ActionRow, ...]


async def fetch_game(db: aiosqlite.Connection, row: GameRow) -> Stored:
    """The rows needed to load ``row``'s game: its latest snapshot and the later actions."""
    seats = tuple(await rows.seats(db, row.id))
    if row.status is Status.LOBBY:
        return Stored(row, seats, None, ())
    snapshot = await rows.latest_snapshot(db, row.id)
    log = await rows.actions(db, row.id, snapshot[0] if snapshot else 0)
    return Stored(row, seats, snapshot, tuple(log))


def build_game(stored: Stored) -> Game:
    """The loaded game: the snapshot (or the seed) plus a replay of the actions after it."""
    if stored.row.status is Status.LOBBY:
        return Game(stored.row, stored.seats)
    if stored.snapshot is None:
        start, state = 0, initial_state(stored.row, stored.seats)[0]
    else:
        start, state = stored.snapshot[0], decode_state(stored.snapshot[1])
    state = replay_rows(state, stored.log)
    return Game(stored.row, stored.seats, state, start + len(stored.log))


async def load_game(db: aiosqlite.Connection, row: GameRow) -> Game:
    """Fetch and build in one go (the replay runs in a worker thread)."""
    stored = await fetch_game(db, row)
    return await asyncio.to_thread(build_game, stored)


def initial_state(row: GameRow, seats: Sequence[SeatRow]) -> tuple[GameState, list[Event]]:
    """The state a started game begins in (its stored seed and settings)."""
    if row.seed is None:
        raise IllegalAction("the game has no seed: it was never started")
    settings = Settings.from_json(row.settings)
    return new_game([s.name for s in seats], row.seed, settings.options)


async def full_replay(db: aiosqlite.Connection, row: GameRow) -> GameState:
    """The state rebuilt from the seed and every logged action (no snapshot)."""
    seats = await rows.seats(db, row.id)
    log = await rows.actions(db, row.id)
    return await asyncio.to_thread(lambda: replay_rows(initial_state(row, seats)[0], log))


async def store_action(
    db: aiosqlite.Connection,
    game: Game,
    seat: int,
    action: Action,
    events: Sequence[Event],
    after: GameState,
    snapshot_every: int,
) -> Game:
    """Log ``action`` (inside the caller's transaction) and return the game after it.

    The log row carries the player turn the action was played in (``state.turn.number``
    before it), which lets ``history`` read only the window it shows.
    """
    n = game.n + 1
    turn = game.state.turn.number if game.state is not None else None
    action_text = json.dumps(action_to_json(action))
    await rows.append_action(db, game.id, n, seat, action_text, events_to_json(events), turn=turn)
    if snapshot_every > 0 and n % snapshot_every == 0:
        await rows.save_snapshot(db, game.id, n, encode_state(after))
    status = Status.OVER if after.result is not None else Status.ACTIVE
    await rows.update_game(db, game.id, status)
    return replace(game, row=replace(game.row, status=status), state=after, n=n)
