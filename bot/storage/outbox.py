"""Rows of the outbox: what a stored change must tell, until it is delivered.

Plain queries on a connection inside :meth:`Database.transaction`, :meth:`Database.unit`
or :meth:`Database.reading`; bodies are JSON texts already encoded (:mod:`bot.outbox.rows`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.storage.connection import Connection
from bot.storage.games import now

KINDS = ("post", "dm", "answer")
LANES = ("game", "battle")
"""The channel's news, and the news of a battle (in its thread)."""


@dataclass(frozen=True)
class OutboxRow:
    """One thing to say: a channel post, a DM, or the answer to the command's caller.

    ``version`` is the game's action count when it was written (its picture is drawn from
    that state); ``reply_to`` is the transport's reference for an answer (JSON text).
    """

    id: int
    game: int | None
    channel: int
    kind: str
    lane: str
    """``game`` (the channel's news) or ``battle`` (the news of a battle, in its thread)."""
    recipient: int | None
    body: str
    reply_to: str | None
    version: int | None
    created_at: str
    attempts: int
    batch: int | None
    """The first row of the message this row was sent in, once chosen (kept across a
    restart, so that a message is sent again as it was: the same rows, the same nonce)."""


_COLUMNS = (
    "id, game, channel, kind, lane, recipient, body, reply_to, version, created_at, attempts, batch"
)


def _row(values: Iterable[Any]) -> OutboxRow:
    return OutboxRow(*values)


_INSERT = (
    "INSERT INTO outbox (game, channel, kind, lane, recipient, body, reply_to, version,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def add(
    db: Connection,
    *,
    game: int | None,
    channel: int,
    kind: str,
    body: str,
    recipient: int | None = None,
    reply_to: str | None = None,
    version: int | None = None,
    lane: str = "game",
) -> int:
    """Queue one row (inside the transaction of the change it tells); its id."""
    if kind not in KINDS:
        raise ValueError(f"an outbox row is one of {KINDS}, not {kind!r}")
    cursor = await db.execute(
        _INSERT,
        (game, channel, kind, lane, recipient, body, reply_to, version, now()),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


@dataclass(frozen=True)
class NewRow:
    """A row to queue (see :func:`add`)."""

    game: int | None
    channel: int
    kind: str
    body: str
    recipient: int | None = None
    reply_to: str | None = None
    version: int | None = None
    lane: str = "game"


async def add_all(db: Connection, new: Iterable[NewRow]) -> int:
    """Queue rows in their order (ids ascend with it) in one statement; how many."""
    queued = list(new)
    for row in queued:
        if row.kind not in KINDS:
            raise ValueError(f"an outbox row is one of {KINDS}, not {row.kind!r}")
    if queued:
        at = now()
        await db.executemany(
            _INSERT,
            [
                (r.game, r.channel, r.kind, r.lane, r.recipient, r.body, r.reply_to, r.version, at)
                for r in queued
            ],
        )
    return len(queued)


async def waiting(db: Connection, channel: int) -> list[OutboxRow]:
    """The channel's undelivered rows, oldest first."""
    async with db.execute(
        f"SELECT {_COLUMNS} FROM outbox WHERE channel = ? AND delivered_at IS NULL ORDER BY id",
        (channel,),
    ) as cursor:
        return [_row(r) async for r in cursor]


async def channels_waiting(db: Connection) -> list[int]:
    """Every channel with undelivered rows (what a restart must still say; a channel
    damaged into something else than a number is no channel: ``check-db`` names it)."""
    async with db.execute(
        "SELECT DISTINCT channel FROM outbox WHERE delivered_at IS NULL ORDER BY channel"
    ) as cursor:
        return [r[0] async for r in cursor if isinstance(r[0], int)]


async def channels_unheld(db: Connection, now: float) -> list[int]:
    """Every channel with undelivered rows whose lease nobody holds at ``now`` (see
    :mod:`bot.storage.leases`): news a process that died left unsaid."""
    async with db.execute(
        "SELECT DISTINCT channel FROM outbox WHERE delivered_at IS NULL AND NOT EXISTS ("
        "SELECT 1 FROM leases WHERE leases.name = 'outbox:' || outbox.channel"
        " AND leases.until >= ?) ORDER BY channel",
        (now,),
    ) as cursor:
        return [r[0] async for r in cursor if isinstance(r[0], int)]


async def delivered(db: Connection, ids: Iterable[int], outcome: str) -> None:
    """Mark rows delivered (``outcome`` says how: sent, sent as text, given up: why)."""
    stamp = now()
    await db.executemany(
        "UPDATE outbox SET delivered_at = ?, outcome = ? WHERE id = ? AND delivered_at IS NULL",
        [(stamp, outcome, row) for row in ids],
    )


async def batched(db: Connection, ids: Iterable[int], batch: int) -> None:
    """Fix which rows one message carries, before it is sent."""
    await db.executemany(
        "UPDATE outbox SET batch = ? WHERE id = ? AND batch IS NULL", [(batch, r) for r in ids]
    )


async def attempted(db: Connection, ids: Iterable[int]) -> None:
    """Count a failed attempt on rows that stay waiting."""
    await db.executemany(
        "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", [(row,) for row in ids]
    )


async def outcomes(db: Connection, channel: int) -> list[tuple[int, str, str | None]]:
    """(id, kind, outcome) of every row of a channel (tests and diagnostics)."""
    async with db.execute(
        "SELECT id, kind, outcome FROM outbox WHERE channel = ? ORDER BY id", (channel,)
    ) as cursor:
        return [(int(r[0]), str(r[1]), r[2]) async for r in cursor]


@dataclass(frozen=True)
class Place:
    """Where a channel's lane of news goes (the channel, or a battle's thread), and the
    message edited with its news until the next hand-off (``live``, what it says: ``text``,
    the files it carries: ``files``, a digest of them). A thread still to open (at the
    first news that goes there) has its name in ``unopened`` and the message it opens from
    as its ``target`` (a thread has its message's id)."""

    target: int
    live: int | None = None
    text: str | None = None
    unopened: str | None = None
    files: str | None = None


async def place(db: Connection, channel: int, lane: str) -> Place | None:
    async with db.execute(
        "SELECT target, live, text, unopened, files FROM places WHERE channel = ? AND lane = ?",
        (channel, lane),
    ) as cursor:
        row = await cursor.fetchone()
    if not row:
        return None
    files = row[4] if isinstance(row[4], str) else None  # a damaged one: upload again
    return Place(int(row[0]), row[1], row[2], row[3], files)


async def set_place(db: Connection, channel: int, lane: str, found: Place) -> None:
    await db.execute(
        "INSERT INTO places (channel, lane, target, live, text, unopened, files)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (channel, lane) DO UPDATE SET target = excluded.target,"
        " live = excluded.live, text = excluded.text, unopened = excluded.unopened,"
        " files = excluded.files",
        (channel, lane, found.target, found.live, found.text, found.unopened, found.files),
    )


async def drop_place(db: Connection, channel: int, lane: str) -> None:
    await db.execute("DELETE FROM places WHERE channel = ? AND lane = ?", (channel, lane))
