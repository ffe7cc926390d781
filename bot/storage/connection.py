"""What the storage functions ask of a connection, whichever database it reaches.

The functions of :mod:`bot.storage` (games, outbox, due items, tournaments …) take a
:class:`Connection`: an ``aiosqlite.Connection`` on SQLite, or a
:class:`~bot.storage.pg_connection.PgConnection` on PostgreSQL. Both run the same SQL, so
the code above storage never knows which one it has. A :class:`Store` is where a handler
opens its transactions and reads: a database, or one command's unit of it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Generator, Iterable
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Protocol, TypeVar

_T_co = TypeVar("_T_co", covariant=True)


class Cursor(Protocol):
    """The rows and counts of one executed statement."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Iterable[Any]: ...

    def __aiter__(self) -> AsyncIterator[Any]: ...


class Execution(Protocol[_T_co]):
    """A statement under way: awaited, or used as ``async with``, it gives its cursor."""

    def __await__(self) -> Generator[Any, None, _T_co]: ...

    async def __aenter__(self) -> _T_co: ...

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class Connection(Protocol):
    """One connection, inside a transaction opened by its database."""

    def execute(self, sql: str, parameters: Iterable[Any] = ..., /) -> Execution[Cursor]: ...

    def executemany(
        self, sql: str, parameters: Iterable[Iterable[Any]], /
    ) -> Awaitable[object]: ...


class Store(Protocol):
    """What handlers write and read through: a database, or a unit of it."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]: ...

    def reading(self) -> AbstractAsyncContextManager[Connection]: ...


class WorkUnit(Store, Protocol):
    """One command's writes as a single transaction of the database: a handler's
    transaction inside it is a savepoint, and a read sees what the unit wrote so far."""

    @property
    def connection(self) -> Connection: ...


class Backend(Store, Protocol):
    """An open database, SQLite's or PostgreSQL's, as the service uses it."""

    @property
    def shared(self) -> bool:
        """Whether other processes may use the database at the same time (PostgreSQL):
        then what this process caches or claims must be checked against theirs."""
        ...

    def unit(self) -> AbstractAsyncContextManager[WorkUnit]: ...

    async def close(self) -> None: ...
