"""A statement's answer fetched whole: the cursor both connections give the storage modules.

Reading every row at once costs one trip to the database per statement (a trip to
aiosqlite's thread, a round trip to PostgreSQL) instead of one per fetch and one more to
close the cursor; the storage modules' statements answer a handful of rows at most.
"""

from __future__ import annotations

from collections.abc import Awaitable, Generator, Sequence
from types import TracebackType
from typing import Any, Generic, TypeVar

_Answer = TypeVar("_Answer")


class Fetched:
    """The rows and counts of one executed statement, all fetched at once."""

    def __init__(
        self, rows: Sequence[Any], rowcount: int = -1, lastrowid: int | None = None
    ) -> None:
        self._rows = list(rows)
        self._next = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __aiter__(self) -> Fetched:
        return self

    async def __anext__(self) -> Any:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def close(self) -> None:
        self._rows = []


class Execution(Generic[_Answer]):
    """What ``execute`` returns: awaited, the statement's answer (a :class:`Fetched`);
    used as ``async with``, the same answer."""

    def __init__(self, run: Awaitable[_Answer]) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, _Answer]:
        return self._run.__await__()

    async def __aenter__(self) -> _Answer:
        return await self._run

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None
