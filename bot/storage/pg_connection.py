"""The storage modules' SQL on PostgreSQL: an asyncpg connection behind aiosqlite's API.

:class:`PgConnection` offers exactly what :mod:`bot.storage.games`, :mod:`~bot.storage.outbox`,
:mod:`~bot.storage.tournaments` … call on an ``aiosqlite.Connection``: ``execute`` (awaited,
or used as ``async with``) giving a :class:`PgCursor` with ``fetchone``, ``fetchall``,
``async for``, ``rowcount`` and ``lastrowid``; and ``executemany``. Each statement is
translated at this boundary (:func:`translate`), outside string literals only:

- ``?`` placeholders become ``$1 … $n``;
- the column ``user`` is quoted (a reserved word in PostgreSQL);
- ``instr(a, b)`` becomes ``strpos(a, b)``;
- ``LIMIT ?`` keeps SQLite's meaning of a negative limit (none);
- ``INSERT OR REPLACE INTO t …`` becomes an upsert on ``t``'s primary key, for the tables
  of :data:`REPLACE_KEYS` (the listed columns are replaced, as SQLite's delete-and-insert
  would; the schema has no other column on those tables);
- an ``INSERT`` into a table of :data:`IDENTITY_TABLES` gets ``RETURNING id``, which
  ``lastrowid`` reads (None when nothing was inserted, as after ``ON CONFLICT DO NOTHING``).

``rowcount`` is read from PostgreSQL's command status (``UPDATE 3``, ``INSERT 0 1``).
Nothing else is translated: SQL outside this list (SQLite's other functions, a parameter
whose type PostgreSQL cannot infer, such as ``? IS NULL``) reaches PostgreSQL unchanged
and fails there. :class:`PgDatabase` is :class:`bot.storage.database.Database`'s
``transaction``, ``reading`` and ``unit`` on one such connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Generator, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

import asyncpg

from bot.storage.errors import LostRace

IDENTITY_TABLES = frozenset({"games", "outbox", "due", "tournaments", "tournament_log"})
"""Tables whose ``id`` the database numbers (SQLite's rowid alias), so an insert returns it."""

REPLACE_KEYS: Mapping[str, tuple[str, ...]] = {"snapshots": ("game", "n")}
"""The primary key of each table the storage modules write with ``INSERT OR REPLACE``."""

# A string literal ('…', '' inside it doubled) or a double-quoted identifier, kept as is.
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"")
_LIMIT = re.compile(r"\bLIMIT (\$\d+)")
_REPLACE = re.compile(
    r"^\s*INSERT OR REPLACE INTO (\w+) \(([^)]*)\)(.*)$", re.IGNORECASE | re.DOTALL
)
_INSERT = re.compile(r"^\s*INSERT INTO (\w+)\b", re.IGNORECASE)


def translate(sql: str) -> str:
    """``sql`` (one statement of the storage modules) in PostgreSQL's form; see the module."""
    parts: list[str] = []
    numbers = iter(range(1, sql.count("?") + 1))
    position = 0
    for quoted in _QUOTED.finditer(sql):
        parts.append(_translate_bare(sql[position : quoted.start()], numbers))
        parts.append(quoted.group())
        position = quoted.end()
    parts.append(_translate_bare(sql[position:], numbers))
    translated = _upsert("".join(parts))
    found = _INSERT.match(translated)
    if found and found.group(1) in IDENTITY_TABLES:
        translated += " RETURNING id"
    return translated


def _translate_bare(text: str, numbers: Iterable[int]) -> str:
    """A stretch of SQL outside quotes: placeholders, ``user``, ``instr``, ``LIMIT``."""
    counter = iter(numbers)
    text = re.sub(r"\?", lambda _: f"${next(counter)}", text)
    text = re.sub(r"\buser\b", '"user"', text)
    text = re.sub(r"\binstr\(", "strpos(", text)
    return _LIMIT.sub(r"LIMIT CASE WHEN \1 < 0 THEN NULL ELSE \1 END", text)


def _upsert(sql: str) -> str:
    """``INSERT OR REPLACE`` as ``INSERT … ON CONFLICT (key) DO UPDATE`` (see the module)."""
    found = _REPLACE.match(sql)
    if found is None:
        return sql
    table, columns, rest = found.groups()
    if table not in REPLACE_KEYS:
        raise ValueError(f"INSERT OR REPLACE into {table}: its primary key is not known here")
    key = REPLACE_KEYS[table]
    names = [c.strip() for c in columns.split(",")]
    updates = ", ".join(f"{c} = excluded.{c}" for c in names if c not in key)
    return (
        f"INSERT INTO {table} ({columns}){rest}"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}"
    )


def _rowcount(status: str | None) -> int:
    """The rows a command touched, from its status (``UPDATE 3``, ``INSERT 0 1``); -1 when
    the status does not say, as sqlite3 does."""
    last = (status or "").rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    """The rows and counts of one executed statement (all fetched at once)."""

    def __init__(self, rows: Sequence[asyncpg.Record], status: str | None, returning: bool) -> None:
        self._rows = list(rows)
        self._next = 0
        self.rowcount = _rowcount(status)
        self.lastrowid: int | None = None
        if returning and self._rows:
            self.lastrowid = int(self._rows[0][0])

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __aiter__(self) -> PgCursor:
        return self

    async def __anext__(self) -> asyncpg.Record:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def close(self) -> None:
        self._rows = []


class _Execution:
    """What ``execute`` returns: awaited, the cursor; as ``async with``, the same cursor."""

    def __init__(self, run: Generator[Any, None, PgCursor]) -> None:
        self._run = run
        self._cursor: PgCursor | None = None

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._run

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self
        return self._cursor

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class PgConnection:
    """An asyncpg connection answering the storage modules' aiosqlite calls."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.raw = connection

    def execute(self, sql: str, parameters: Iterable[Any] = ()) -> _Execution:
        return _Execution(self._execute(sql, tuple(parameters)).__await__())

    async def _execute(self, sql: str, parameters: tuple[Any, ...]) -> PgCursor:
        translated = translate(sql)
        with _races():
            statement = await self.raw.prepare(translated)
            rows = await statement.fetch(*parameters)
        return PgCursor(rows, statement.get_statusmsg(), translated.endswith(" RETURNING id"))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> None:
        rows = [tuple(p) for p in parameters]
        if rows:
            with _races():
                await self.raw.executemany(translate(sql).removesuffix(" RETURNING id"), rows)


# What PostgreSQL says when two transactions of different processes collide: a row
# inserted twice (the same action number, a second open game in one channel), a cycle
# of waits broken, a serialization given up. The transaction is lost whole.
_COLLISIONS = (
    asyncpg.UniqueViolationError,
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
)


@contextlib.contextmanager
def _races() -> Generator[None, None, None]:
    """Raise a collision with another transaction as :class:`LostRace`."""
    try:
        yield
    except _COLLISIONS as collision:
        raise LostRace(str(collision)) from collision


class PgUnit:
    """:class:`bot.storage.database.Unit` on PostgreSQL: a handler's transaction is a
    savepoint of the unit's, and a read sees what the unit wrote so far."""

    def __init__(self, connection: PgConnection) -> None:
        self.connection = connection

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        # Nested in the unit's transaction, asyncpg's transaction is a savepoint.
        async with self.connection.raw.transaction():
            yield self.connection

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        yield self.connection


class PgDatabase:
    """One PostgreSQL connection, one transaction (or read) at a time, as
    :class:`bot.storage.database.Database` keeps its SQLite one."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = PgConnection(connection)
        self._lock = asyncio.Lock()

    @property
    def shared(self) -> bool:
        """Always: any number of processes may work on one PostgreSQL database."""
        return True

    @classmethod
    async def open(cls, dsn: str) -> PgDatabase:
        """Connect to ``dsn`` (already migrated: :func:`bot.storage.postgres.migrate`)."""
        return cls(await asyncpg.connect(dsn))

    async def close(self) -> None:
        async with self._lock:
            await self._connection.raw.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` when the block raises)."""
        async with self._lock, self._connection.raw.transaction():
            yield self._connection

    @contextlib.asynccontextmanager
    async def unit(self) -> AsyncIterator[PgUnit]:
        """A :class:`PgUnit`: one transaction around a whole command."""
        async with self.transaction() as connection:
            yield PgUnit(connection)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        """A consistent read: one read-only repeatable-read transaction."""
        async with (
            self._lock,
            self._connection.raw.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield self._connection
