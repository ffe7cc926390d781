"""The storage modules' SQL on PostgreSQL: an asyncpg connection behind aiosqlite's API.

:class:`PgConnection` offers exactly what :mod:`bot.storage.games`, :mod:`~bot.storage.outbox`,
:mod:`~bot.storage.tournaments` … call on an ``aiosqlite.Connection``: ``execute`` (awaited,
or used as ``async with``) giving a :class:`~bot.storage.fetched.Fetched` cursor with
``fetchone``, ``fetchall``, ``async for``, ``rowcount`` and ``lastrowid``; and
``executemany``. Each statement is
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
import functools
import itertools
import re
from collections.abc import AsyncIterator, Generator, Iterable, Mapping
from typing import Any

import asyncpg

from bot.storage.errors import LostRace
from bot.storage.fetched import Execution, Fetched

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
_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
_QUERY = re.compile(r"^\s*(SELECT|WITH|VALUES)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
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


class PgConnection:
    """An asyncpg connection answering the storage modules' aiosqlite calls."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.raw = connection
        self.revisions: dict[int, int] = {}
        """The revisions the open transaction gave games (:func:`bot.storage.games.claim`,
        :func:`~bot.storage.games.update_game`): asked for a game's revision, the storage
        answers from here (the transaction holds the game's row). Emptied when a transaction
        begins and when a savepoint is rolled back."""

    def execute(self, sql: str, parameters: Iterable[Any] = ()) -> Execution[Fetched]:
        return Execution(self._execute(sql, tuple(parameters)))

    async def _execute(self, sql: str, parameters: tuple[Any, ...]) -> Fetched:
        """One round trip, the statement prepared once per connection (asyncpg's cache):
        rows fetched whole, or the command's status read for its count."""
        translated = translate(sql)
        with _races():
            if not _ROWS.search(translated):
                return Fetched((), _rowcount(await self.raw.execute(translated, *parameters)))
            rows = await self.raw.fetch(translated, *parameters)
        if _QUERY.match(translated):
            return Fetched(rows)
        identity = translated.endswith(" RETURNING id") and rows
        return Fetched(rows, len(rows), int(rows[0][0]) if identity else None)

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

    _names = itertools.count(1)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        name = f"part{next(self._names)}"
        raw = self.connection.raw
        await raw.execute(f"SAVEPOINT {name}")
        try:
            yield self.connection
        except BaseException:
            self.connection.revisions.clear()
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError):
                await raw.execute(f"ROLLBACK TO SAVEPOINT {name}")
                await raw.execute(f"RELEASE SAVEPOINT {name}")
            raise
        await raw.execute(f"RELEASE SAVEPOINT {name}")

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
        async with self._lock:
            await self._left_open()
            raw = self._connection.raw
            self._connection.revisions.clear()
            await raw.execute("BEGIN")
            try:
                yield self._connection
                await raw.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @contextlib.asynccontextmanager
    async def unit(self) -> AsyncIterator[PgUnit]:
        """A :class:`PgUnit`: one transaction around a whole command."""
        async with self.transaction() as connection:
            yield PgUnit(connection)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        """A consistent read: one read-only repeatable-read transaction."""
        async with self._lock:
            await self._left_open()
            self._connection.revisions.clear()
            await self._connection.raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                yield self._connection
            finally:
                await self._rollback()

    async def _rollback(self) -> None:
        """Undo the open transaction, if it is still open (a failed COMMIT ends it)."""
        if self._connection.raw.is_in_transaction():
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError):
                await self._connection.raw.execute("ROLLBACK")

    async def _left_open(self) -> None:
        """End a transaction a cancelled task left open (its rollback was cancelled too):
        under the lock nobody else uses the connection, so any open one is left over."""
        if self._connection.raw.is_in_transaction():
            await self._connection.raw.execute("ROLLBACK")
