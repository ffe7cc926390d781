"""The storage modules' SQL on SQLite: an aiosqlite connection, one trip to its thread a
statement.

aiosqlite runs every call on its own thread: a statement, each fetch and closing the
cursor are a trip each, and the trips, not SQLite, are most of a command's time in the
database. :class:`SqliteConnection` answers ``execute`` with a
:class:`~bot.storage.fetched.Fetched` cursor in one trip: a statement that returns rows
(a query, ``PRAGMA``, ``EXPLAIN``, ``… RETURNING``) is fetched whole; any other is run
and its counts read (``rowcount``, ``lastrowid``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import aiosqlite

from bot.storage.fetched import Execution, Fetched

_ROWS = re.compile(r"^\s*(SELECT|PRAGMA|WITH|VALUES|EXPLAIN)\b|\bRETURNING\b", re.IGNORECASE)
_QUERY = re.compile(r"^\s*(SELECT|PRAGMA|WITH|VALUES|EXPLAIN)\b", re.IGNORECASE)


class SqliteConnection:
    """An aiosqlite connection answering the storage modules' calls (see the module)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.raw = connection
        self.revisions: dict[int, int] = {}
        """The revisions the open transaction gave games (:func:`bot.storage.games.claim`,
        :func:`~bot.storage.games.update_game`): asked for a game's revision, the storage
        answers from here (the transaction holds the game's row). Emptied when a transaction
        begins and when a savepoint is rolled back."""

    def execute(self, sql: str, parameters: Iterable[Any] = ()) -> Execution[Fetched]:
        return Execution(self._execute(sql, tuple(parameters)))

    async def _execute(self, sql: str, parameters: tuple[Any, ...]) -> Fetched:
        if _ROWS.search(sql):
            rows = list(await self.raw.execute_fetchall(sql, parameters))
            # a change returning rows returns one a row changed (SQLite's RETURNING)
            return Fetched(rows, -1 if _QUERY.match(sql) else len(rows))
        cursor = await self.raw.execute(sql, parameters)
        return Fetched((), cursor.rowcount, cursor.lastrowid)

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> None:
        rows = [tuple(p) for p in parameters]
        if rows:
            await self.raw.executemany(sql, rows)

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction
