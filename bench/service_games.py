"""The stored games of the service benchmark (bench/service.py), on any backend.

Games are played out by the engine in a pool of processes (the costly part: the same
playouts whichever database they go to), then written straight through the storage
functions (:mod:`bot.storage.games`) to each target in turn, a chunk of games per
transaction. On the way, :class:`Batched` holds back the inserts nobody reads in the
chunk (the log, the snapshots, the seats) and sends each kind in one ``executemany``: on
PostgreSQL a statement otherwise costs its own round trips.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from bot.storage import SeatRow, Status
from bot.storage import games as rows
from bot.storage.backends import Target, is_postgres, open_database
from bot.storage.connection import Backend, Connection, Cursor
from bot.storage.eventlog import events_to_json
from bot.storage.fetched import Execution
from bot.storage.record import encode_state
from bot.syntax import FORMATTERS, format_action, parse_command, to_action
from engine.game import actions as a
from engine.game.actions import action_to_json
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState

SKIP = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, a.Reveal)
"""Actions the benchmark's agent never picks (they undo, leave, or wait for a clock)."""
SNAPSHOT_EVERY = 50
CHUNK = 250
"""Games played out by one task of the pool, and stored in one transaction."""


def choose(state: GameState, rng: random.Random) -> tuple[int, str | a.Action]:
    """A random legal command for the seat the game waits for: its command line when the
    action has one, else the action (as a button would send it)."""
    seat = to_act(state)
    assert seat is not None
    action = rng.choice([x for x in legal_actions(state, seat) if not isinstance(x, SKIP)])
    return seat, format_action(action) if type(action) in FORMATTERS else action


def user(channel: int, seat: int) -> int:
    """The user playing ``seat`` in the game of ``channel``."""
    return channel * 10 + seat + 1


@dataclass(frozen=True)
class Playout:
    """A started game some agent actions in, as its rows will be stored."""

    names: tuple[str, ...]
    seed: int
    actions: tuple[tuple[int, int, str, str, int], ...]
    """Each logged action: n, seat, action JSON, events JSON, player turn."""
    snapshots: tuple[tuple[int, str], ...]
    """The states stored along the way (after 0, 50, 100 … actions)."""


def play_out(rng: random.Random) -> Playout:
    """A game of 2–6 players, 0–120 agent actions in (stopped before it would end)."""
    names = tuple(f"P{s}" for s in range(rng.randint(2, 6)))
    seed = rng.getrandbits(40)
    state, _ = new_game(list(names), seed)
    logged: list[tuple[int, int, str, str, int]] = []
    snapshots = [(0, encode_state(state))]
    for n in range(1, rng.randint(0, 120) + 1):
        seat, command = choose(state, rng)
        if isinstance(command, str):
            command = to_action(parse_command(command), state, seat)
        after, events = apply(state, seat, command)
        if after.result is not None:
            break
        action_text = json.dumps(action_to_json(command))
        logged.append((n, seat, action_text, events_to_json(events), state.turn.number))
        state = after
        if n % SNAPSHOT_EVERY == 0:
            snapshots.append((n, encode_state(state)))
    return Playout(names, seed, tuple(logged), tuple(snapshots))


def play_chunk(first: int, count: int) -> list[Playout]:
    """The playouts of channels ``first`` … ``first + count - 1`` (the same ones however
    the chunks are shared out: each chunk has its own generator)."""
    rng = random.Random(first)
    return [play_out(rng) for _ in range(count)]


class _Held:
    """The cursor of a held-back insert: nothing to read."""

    rowcount = -1
    lastrowid = None

    async def fetchone(self) -> Any:
        return None

    async def fetchall(self) -> list[Any]:
        return []

    def __aiter__(self) -> _Held:
        return self

    async def __anext__(self) -> Any:
        raise StopAsyncIteration


class Batched:
    """A connection that holds back the inserts of :data:`HELD` until :meth:`flush`, then
    sends each statement's rows in one ``executemany``; every other statement runs at
    once. For the populating only: nothing in a chunk reads or deletes those rows before
    the flush, and their order among themselves does not matter (each references a game
    inserted at once)."""

    HELD = (
        "INSERT INTO actions ",
        "INSERT OR REPLACE INTO snapshots ",
        "INSERT INTO seats ",
        "INSERT INTO users ",
    )

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.pending: dict[str, list[tuple[Any, ...]]] = {}

    def execute(self, sql: str, parameters: Iterable[Any] = (), /) -> Execution[Cursor]:
        if sql.startswith(self.HELD):
            self.pending.setdefault(sql, []).append(tuple(parameters))
            return Execution(self._held())
        return Execution(self._now(sql, tuple(parameters)))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None:
        if sql.startswith(self.HELD):
            self.pending.setdefault(sql, []).extend(tuple(p) for p in parameters)
        else:
            await self.connection.executemany(sql, parameters)

    async def flush(self) -> None:
        pending, self.pending = self.pending, {}
        for sql, batch in pending.items():
            await self.connection.executemany(sql, batch)

    async def _held(self) -> Cursor:
        return _Held()

    async def _now(self, sql: str, parameters: tuple[Any, ...]) -> Cursor:
        return await self.connection.execute(sql, parameters)


async def store(conn: Connection, channel: int, playout: Playout) -> None:
    """``playout`` as the game of ``channel``, written straight to the tables."""
    game = await rows.create_game(conn, channel, None, {"host": user(channel, 0)})
    seats = [SeatRow(s, user(channel, s), name) for s, name in enumerate(playout.names)]
    await rows.set_seats(conn, game, seats)
    await rows.update_game(conn, game, Status.ACTIVE, seed=playout.seed)
    for n, state in playout.snapshots:
        await rows.save_snapshot(conn, game, n, state)
    for n, seat, action, events, turn in playout.actions:
        await rows.append_action(conn, game, n, seat, action, events, turn=turn)


Chunk = tuple[int, list[Playout]]
"""The playouts of channels ``first``, ``first + 1`` …, and ``first``."""


@dataclass
class Populated:
    """What the populating did, and how long each part took."""

    games: int = 0
    actions: int = 0
    playing: float = 0.0
    """Playing the games out (the engine, in a pool of processes)."""
    storing: dict[str, float] = field(default_factory=dict)
    """Storing them in each target (nothing else running meanwhile)."""


class NotEmpty(RuntimeError):
    """A target already holds games: the benchmark's would share their channels."""


async def play_all(games: int, processes: int) -> list[Chunk]:
    """The playouts of channels 1 … ``games``, in chunks, played in ``processes``."""
    with ProcessPoolExecutor(processes, mp_context=get_context("spawn")) as pool:
        futures = [
            (first, pool.submit(play_chunk, first, min(CHUNK, games - first + 1)))
            for first in range(1, games + 1, CHUNK)
        ]
        return [(first, await asyncio.wrap_future(future)) for first, future in futures]


async def _open_empty(target: Target) -> Backend:
    db = await open_database(target, synchronous="OFF")  # SQLite's bulk load: no fsync
    async with db.reading() as conn:
        found = await rows.count_games(conn)
    if found:
        await db.close()
        raise NotEmpty(f"{target} already holds {found} games: give the benchmark an empty one")
    return db


async def store_all(target: Target, chunks: Sequence[Chunk], writers: int = 1) -> None:
    """Store every chunk in ``target``, one transaction a chunk, through ``writers``
    connections at once (PostgreSQL's server then inserts on several cores)."""
    dbs = [await _open_empty(target)]
    try:
        dbs += [await open_database(target) for _ in range(writers - 1)]

        async def write(db: Backend, mine: Sequence[Chunk]) -> None:
            for first, playouts in mine:
                async with db.transaction() as conn:
                    batched = Batched(conn)
                    for channel, playout in enumerate(playouts, first):
                        await store(batched, channel, playout)
                    await batched.flush()

        await asyncio.gather(*(write(db, chunks[k :: len(dbs)]) for k, db in enumerate(dbs)))
    finally:
        for db in dbs:
            await db.close()


async def populate(
    targets: Sequence[tuple[str, Target]], games: int, processes: int | None = None
) -> Populated:
    """Store ``games`` started games (channels 1 … ``games``) in every target (each named
    by a label): played out once in ``processes`` (default: one per core), then stored in
    each target in turn (PostgreSQL through as many connections)."""
    cores = processes or os.cpu_count() or 1
    done = Populated(games)
    began = time.perf_counter()
    chunks = await play_all(games, cores)
    done.playing = time.perf_counter() - began
    done.actions = sum(len(p.actions) for _, playouts in chunks for p in playouts)
    for label, target in targets:
        began = time.perf_counter()
        await store_all(target, chunks, cores if is_postgres(target) else 1)
        done.storing[label] = time.perf_counter() - began
    return done


def backend_name(target: Target) -> str:
    return "postgresql" if is_postgres(target) else "sqlite"
