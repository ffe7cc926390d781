"""The SQLite connection: WAL, foreign keys, migrations, and one transaction at a time.

Every write is one ``BEGIN IMMEDIATE … COMMIT`` transaction: a process killed at any
instant leaves each command either fully stored or not at all. One connection serves the
whole process; an asyncio lock keeps transactions (and reads) from interleaving on it.
One process per file: an open ``Database`` holds the file's lock (:mod:`bot.storage.lock`)
until it is closed, and a second one is refused with :class:`DatabaseInUse`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import aiosqlite

from bot.storage.lock import FileLock
from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite_connection import SqliteConnection


class Unit:
    """One command's writes as a single transaction of the database (:meth:`Database.unit`).

    Inside it, what a handler opens as a transaction is a savepoint (undone alone when its
    block raises), and a read sees what the unit wrote so far: so a change and what must be
    told about it (the outbox) are stored together, or not at all.
    """

    _names = itertools.count(1)

    def __init__(self, connection: SqliteConnection) -> None:
        self.connection = connection

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        name = f"part{next(self._names)}"
        await self.connection.execute(f"SAVEPOINT {name}")
        try:
            yield self.connection
        except BaseException:
            self.connection.revisions.clear()
            with contextlib.suppress(sqlite3.Error):
                await self.connection.execute(f"ROLLBACK TO {name}")
                await self.connection.execute(f"RELEASE {name}")
            raise
        await self.connection.execute(f"RELEASE {name}")

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteConnection]:
        yield self.connection


class Database:
    """An open game database (holding its file's lock, when given one, until closed)."""

    def __init__(
        self, connection: aiosqlite.Connection, path: Path, file_lock: FileLock | None = None
    ) -> None:
        self._connection = connection
        self._statements = SqliteConnection(connection)
        self._lock = asyncio.Lock()
        self._file_lock = file_lock
        self._side_files: tuple[Path, ...] = ()
        self.path = path

    @property
    def shared(self) -> bool:
        """Never: the file's lock keeps every other process out while this one has it."""
        return False

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        synchronous: str = "FULL",
        migrations: Sequence[str] = MIGRATIONS,
    ) -> Database:
        """Open (creating if needed) and migrate the database at ``path``.

        ``synchronous`` FULL makes each commit durable against power loss too (WAL).
        Raises :class:`~bot.storage.lock.DatabaseInUse` when another process (or another
        open ``Database``) has the file.
        """
        path = Path(path)
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        file_lock = FileLock.acquire(path)
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
            try:
                await connection.execute("PRAGMA journal_mode = WAL")
                await connection.execute(f"PRAGMA synchronous = {_checked(synchronous)}")
                await connection.execute("PRAGMA foreign_keys = ON")
                await connection.execute("PRAGMA busy_timeout = 5000")
                await migrate(connection, migrations)
            except BaseException:
                await connection.close()
                raise
        except BaseException:
            file_lock.release()
            raise
        return cls(connection, path, file_lock)

    @classmethod
    async def open_read_only(cls, path: Path | str) -> Database:
        """Open an existing database to inspect it: locked, read-only, never migrated.

        Raises ``FileNotFoundError`` when there is no file and
        :class:`~bot.storage.lock.DatabaseInUse` while another process has it. SQLite may
        leave empty ``-wal`` and ``-shm`` side files; the database itself is not changed.
        """
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no database at {path}")
        file_lock = FileLock.acquire(path)
        side = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
        created = tuple(p for p in side if not p.exists())
        try:
            uri = path.resolve().as_uri() + "?mode=ro"
            connection = await aiosqlite.connect(uri, uri=True, isolation_level=None)
            try:
                await connection.execute("PRAGMA query_only = ON")
            except BaseException:
                await connection.close()
                raise
        except BaseException:
            file_lock.release()
            raise
        database = cls(connection, path, file_lock)
        database._side_files = created
        return database

    async def close(self) -> None:
        """Close the connection, then give the file's lock up."""
        try:
            async with self._lock:
                await self._connection.close()
            _remove_empty_side_files(self._side_files)
        finally:
            if self._file_lock is not None:
                self._file_lock.release()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` when the block raises)."""
        async with self._lock:
            self._statements.revisions.clear()
            await self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._statements
                await self._connection.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @contextlib.asynccontextmanager
    async def unit(self) -> AsyncIterator[Unit]:
        """A :class:`Unit`: ``BEGIN IMMEDIATE`` … ``COMMIT`` around a whole command (no other
        read or write of the process runs meanwhile; ``ROLLBACK`` when it raises)."""
        async with self.transaction() as connection:
            yield Unit(connection)

    async def _rollback(self) -> None:
        """Undo the open transaction, if one is still open (a failed COMMIT may have ended it)."""
        if self._connection.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self._connection.execute("ROLLBACK")

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteConnection]:
        """A consistent read: one deferred transaction, rolled back (it never writes)."""
        async with self._lock:
            self._statements.revisions.clear()
            await self._connection.execute("BEGIN")
            try:
                yield self._statements
            finally:
                await self._rollback()

    async def user_version(self) -> int:
        async with self._lock:
            return await user_version(self._connection)

    async def pragma(self, name: str) -> list[tuple[object, ...]]:
        """The rows of a read-only ``PRAGMA`` check (``integrity_check``,
        ``foreign_key_check``)."""
        if name not in _CHECKS:
            raise ValueError(f"not a check: {name!r}")
        async with self._lock, self._connection.execute(f"PRAGMA {name}") as cursor:
            return [tuple(row) async for row in cursor]

    async def copy_to(self, path: Path) -> None:
        """Write a copy of the whole database to a new file ``path`` (SQLite's backup)."""
        async with self._lock:
            target = await aiosqlite.connect(path)
            try:
                await self._connection.backup(target)
            finally:
                await target.close()


def _remove_empty_side_files(created: tuple[Path, ...]) -> None:
    """Remove the ``-wal``/``-shm`` files a read-only look created, when the WAL is empty
    (the file's lock is still held: nobody else uses them)."""
    wal = next((p for p in created if p.name.endswith("-wal")), None)
    if wal is None or (wal.exists() and wal.stat().st_size > 0):
        return
    for side in created:
        side.unlink(missing_ok=True)


_CHECKS = frozenset({"integrity_check", "quick_check", "foreign_key_check"})


def _checked(synchronous: str) -> str:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    return synchronous.upper()


async def user_version(connection: aiosqlite.Connection) -> int:
    """The number of migrations applied."""
    async with connection.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(connection: aiosqlite.Connection, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Apply the migrations not yet applied, each atomically; the resulting version.

    Raises ``RuntimeError`` when the database is newer than this program.
    """
    version = await user_version(connection)
    if version > len(migrations):
        raise RuntimeError(
            f"the database is at version {version}, newer than this program "
            f"({len(migrations)}): upgrade titanbot"
        )
    for number in range(version + 1, len(migrations) + 1):
        script = (
            f"BEGIN IMMEDIATE;\n{migrations[number - 1]}\n;PRAGMA user_version = {number};\nCOMMIT;"
        )
        try:
            await connection.executescript(script)
        except BaseException:
            if connection.in_transaction:
                await connection.execute("ROLLBACK")
            raise
    return len(migrations)
