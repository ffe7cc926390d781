"""``titanbot migrate``: a SQLite database copied whole into an empty PostgreSQL one.

Every table of the SQLite file, with the columns it has there (whatever migrations it
holds: nothing here lists them), is copied in foreign-key order with PostgreSQL's ``COPY``,
in one transaction. Before that transaction commits, the copy is checked: each table holds
as many rows as the file's; every started game loads to the same state from both, and its
replay from the seed and the whole log equals that state. Then the sequences numbering new
rows are moved past the copied ids. Anything amiss rolls the whole copy back.

The file is opened read-only under the bot's lock (a running bot is refused) and must be
at this program's version; the PostgreSQL database is migrated to the same version and
must hold no row in any table copied.
"""

from __future__ import annotations

import graphlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite
import asyncpg

from bot.storage import games as rows
from bot.storage.backends import shown
from bot.storage.connection import Connection
from bot.storage.database import Database
from bot.storage.games import GameRow
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_catalog import (
    Unreachable,
    advance,
    connect,
    identity_columns,
    quoted,
    table_columns,
    table_exists,
)
from bot.storage.pg_connection import PgConnection
from bot.storage.postgres import SchemaTooNew, migrate_connection
from bot.storage.record import DamagedLog, full_replay, load_game
from engine.errors import TitanError
from engine.game.state import GameState
from engine.words import plural

BATCH = 10_000
"""Rows read from SQLite and sent to PostgreSQL at a time."""
LOCK_TIMEOUT = "10s"
"""How long to wait for another process's hold on the target's tables."""


class Refused(Exception):
    """The copy could not be made (no file, file in use, an older file, the target not
    empty or unreachable): nothing was written."""


class CopyDiffers(Exception):
    """The copy was made but differs from the file (named in the message): rolled back."""


@dataclass(frozen=True)
class Table:
    """A SQLite table: its columns in order, and the tables its foreign keys refer to."""

    name: str
    columns: tuple[str, ...]
    parents: frozenset[str] = frozenset()


@dataclass
class Copied:
    """What was copied: rows per table (in the order copied), games replayed, and the
    seconds taken in all and checking (the replays)."""

    target: str
    rows: dict[str, int] = field(default_factory=dict)
    games: int = 0
    seconds: float = 0.0
    checking: float = 0.0

    def lines(self) -> list[str]:
        total = sum(self.rows.values())
        tables = ", ".join(f"{name} {count}" for name, count in self.rows.items())
        return [
            f"copied {plural(total, 'row')} of {plural(len(self.rows), 'table')} to "
            f"{self.target}: {tables}",
            f"checked: every table's rows counted, {plural(self.games, 'game')} replayed alike",
            f"took {self.seconds:.1f} s ({self.checking:.1f} s of it checking)",
        ]


async def sqlite_tables(db: aiosqlite.Connection) -> list[Table]:
    """The file's tables (SQLite's own left out), each after the tables it refers to.

    Raises :class:`Refused` when the foreign keys go round in a cycle.
    """
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ) as cursor:
        names = [str(row[0]) async for row in cursor]
    found: dict[str, Table] = {}
    for name in names:
        async with db.execute(f"PRAGMA table_info({quoted(name)})") as cursor:
            columns = tuple([str(row[1]) async for row in cursor])
        async with db.execute(f"PRAGMA foreign_key_list({quoted(name)})") as cursor:
            parents = frozenset({str(row[2]) async for row in cursor} - {name})
        found[name] = Table(name, columns, parents)
    order = graphlib.TopologicalSorter({t.name: t.parents & found.keys() for t in found.values()})
    try:
        return [found[name] for name in order.static_order()]
    except graphlib.CycleError as exc:
        raise Refused(f"the file's foreign keys go round in a cycle ({exc.args[1]})") from exc


async def transfer(path: Path, dsn: str, *, batch: int = BATCH) -> Copied:
    """Copy the SQLite database at ``path`` into the empty PostgreSQL one at ``dsn``,
    check the copy and commit it; raises :class:`Refused` (nothing written or kept),
    :class:`CopyDiffers` (rolled back), or what :meth:`Database.open_read_only` raises
    (``FileNotFoundError``, :class:`~bot.storage.lock.DatabaseInUse`)."""
    started = time.perf_counter()
    database = await Database.open_read_only(path)
    try:
        await _require_current(database, path)
        async with database.reading() as reading:
            source = reading.raw  # aiosqlite's own cursors: a table streamed in batches
            tables = await sqlite_tables(source)
            try:
                target = await connect(dsn)
            except Unreachable as exc:
                raise Refused(str(exc)) from exc
            try:
                copied = await _copy_all(source, target, tables, dsn, batch)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                # Not the copy's rows (those are CopyDiffers): the server, or the rights.
                raise Refused(f"{shown(dsn)}: {exc}; nothing was kept") from exc
            finally:
                await target.close()
    finally:
        await database.close()
    copied.seconds = time.perf_counter() - started
    return copied


async def _require_current(database: Database, path: Path) -> None:
    version, current = await database.user_version(), len(MIGRATIONS)
    if version < current:
        raise Refused(
            f"{path} is at version {version}, older than this titanbot's {current}: start "
            "titanbot on it once (it brings the file up to date when it opens it), or do so "
            "on a copy of it, then migrate that"
        )
    if version > current:
        raise Refused(
            f"{path} is at version {version}, newer than this titanbot's {current}: "
            "upgrade titanbot first"
        )


async def _copy_all(
    source: aiosqlite.Connection,
    target: asyncpg.Connection,
    tables: Sequence[Table],
    dsn: str,
    batch: int,
) -> Copied:
    await _require_empty(target, tables, dsn)  # before migrating: a full target is left as is
    try:
        version = await migrate_connection(target)
    except SchemaTooNew as exc:
        raise Refused(f"{shown(dsn)}: {exc}") from exc
    if version != len(MIGRATIONS):
        raise Refused(f"{shown(dsn)} is at version {version}, not {len(MIGRATIONS)}")
    copied = Copied(shown(dsn))
    async with target.transaction():
        await _lock(target, tables, dsn)
        await _require_empty(target, tables, dsn)
        await _require_columns(target, tables, dsn)
        for table in tables:
            copied.rows[table.name] = await _copy(source, target, table, batch)
        for identity in await identity_columns(target):
            await advance(target, identity)
        checking = time.perf_counter()
        await _compare_counts(source, target, tables)
        copied.games = await compare_games(source, PgConnection(target))
        copied.checking = time.perf_counter() - checking
    return copied


async def _require_empty(target: asyncpg.Connection, tables: Sequence[Table], dsn: str) -> None:
    full = [
        t.name
        for t in tables
        if await table_exists(target, t.name)
        and await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {quoted(t.name)})")
    ]
    if full:
        raise Refused(
            f"{shown(dsn)} is not empty (rows in {', '.join(full)}): "
            "migrate into a new, empty database"
        )


async def _lock(target: asyncpg.Connection, tables: Sequence[Table], dsn: str) -> None:
    """Keep every other process from writing to the tables until the copy is committed."""
    await target.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
    names = ", ".join(quoted(t.name) for t in tables)
    try:
        await target.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
    except asyncpg.LockNotAvailableError as exc:
        raise Refused(f"{shown(dsn)} is in use by another process") from exc


async def _require_columns(target: asyncpg.Connection, tables: Sequence[Table], dsn: str) -> None:
    for table in tables:
        present = set(await table_columns(target, table.name))
        if not present:
            raise Refused(f"{shown(dsn)} has no table {table.name}")
        missing = [c for c in table.columns if c not in present]
        if missing:
            raise Refused(f"{shown(dsn)}: {table.name} has no column {', '.join(missing)}")


async def _copy(
    source: aiosqlite.Connection, target: asyncpg.Connection, table: Table, batch: int
) -> int:
    """Copy ``table``'s rows, ``batch`` at a time; :class:`CopyDiffers` when PostgreSQL
    refuses a row (a value SQLite let through that the schema forbids)."""
    names = ", ".join(quoted(c) for c in table.columns)
    count = 0
    async with source.execute(f"SELECT {names} FROM {quoted(table.name)}") as cursor:
        while chunk := list(await cursor.fetchmany(batch)):
            try:
                await target.copy_records_to_table(
                    table.name, records=chunk, columns=list(table.columns)
                )
            except (asyncpg.PostgresError, asyncpg.DataError) as exc:
                raise CopyDiffers(f"table {table.name}: a row cannot be copied ({exc})") from exc
            count += len(chunk)
    return count


async def _compare_counts(
    source: aiosqlite.Connection, target: asyncpg.Connection, tables: Sequence[Table]
) -> None:
    for table in tables:
        async with source.execute(f"SELECT count(*) FROM {quoted(table.name)}") as cursor:
            row = await cursor.fetchone()
        expected = int(row[0]) if row else 0
        found = int(await target.fetchval(f"SELECT count(*) FROM {quoted(table.name)}"))
        if found != expected:
            raise CopyDiffers(f"table {table.name}: {plural(found, 'row')} copied of {expected}")


async def compare_games(source: Connection, copy: Connection) -> int:
    """Check every game of ``source`` against ``copy``; the number of started games
    replayed. Raises :class:`CopyDiffers` at the first game that differs."""
    replayed = 0
    for game_id in await rows.game_ids(source):
        original = await rows.game(source, game_id)
        assert original is not None
        difference = await _game_difference(source, copy, original)
        if difference is not None:
            raise CopyDiffers(f"game #{game_id}: {difference}")
        replayed += original.seed is not None
    return replayed


async def _game_difference(source: Connection, copy: Connection, original: GameRow) -> str | None:
    """How the copied game differs from the file's (None: it does not)."""
    copied = await rows.game(copy, original.id)
    if copied != original or copied is None:
        return "its row differs in the copy"
    if await rows.seats(copy, copied.id) != await rows.seats(source, copied.id):
        return "its seats differ in the copy"
    if copied.seed is None:
        return None
    loaded = await _loaded(copy, copied)
    if loaded != await _loaded(source, original):
        return "its state loaded from the copy differs from the file's"
    if copied.damaged is not None:
        return None  # found damaged before: copied as it is
    if isinstance(loaded, str):
        return f"it cannot be loaded from the file either ({loaded}): see titanbot check-db"
    if await _replayed(copy, copied) != loaded[1]:
        return "its replay from the seed and the whole log differs from its stored state"
    return None


async def _loaded(db: Connection, row: GameRow) -> tuple[int, GameState | None] | str:
    """The loaded game (its number of actions and its state), or why it cannot load."""
    try:
        game = await load_game(db, row)
    except DamagedLog as exc:
        return str(exc)
    return (game.n, game.state)


async def _replayed(db: Connection, row: GameRow) -> GameState | None:
    """The state replayed from the seed and every logged action (None when the log
    cannot be replayed)."""
    try:
        return await full_replay(db, row)
    except (DamagedLog, TitanError):
        return None
