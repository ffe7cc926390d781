"""The SQLite connection: WAL, foreign keys, migrations, and one transaction at a time.

Every write is one ``BEGIN IMMEDIATE … COMMIT`` transaction: a process killed at any
instant leaves each command either fully stored or not at all. One connection serves the
whole process; an asyncio lock keeps transactions (and reads) from interleaving on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import aiosqlite

from bot.storage.migrations import MIGRATIONS


class Database:
    """An open game database."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path

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
        """
        path = Path(path)
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
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
        return cls(connection, path)

    async def close(self) -> None:
        async with self._lock:
            await self._connection.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` when the block raises)."""
        async with self._lock:
            await self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
                await self._connection.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Undo the open transaction, if one is still open (a failed COMMIT may have ended it)."""
        if self._connection.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self._connection.execute("ROLLBACK")

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent read: one deferred transaction, rolled back (it never writes)."""
        async with self._lock:
            await self._connection.execute("BEGIN")
            try:
                yield self._connection
            finally:
                await self._rollback()

    async def user_version(self) -> int:
        async with self._lock:
            return await user_version(self._connection)


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
