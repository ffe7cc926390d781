"""Who has read a game's secrets while it was played: an organiser who exported it (the
export holds its seed and salt and every legion). Nobody noted here may take or be given
a seat in that game (:mod:`bot.handlers.secrets`)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.connection import Connection
from bot.storage.games import now


async def note(db: Connection, game: int, user: int) -> None:
    """``user`` has read ``game``'s secrets (noted once; the first time is kept)."""
    await db.execute(
        "INSERT INTO secret_readers (game, user, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (game, user, now()),
    )


async def has_read(db: Connection, game: int, user: int) -> bool:
    async with db.execute(
        "SELECT 1 FROM secret_readers WHERE game = ? AND user = ?", (game, user)
    ) as cursor:
        return await cursor.fetchone() is not None


async def readers(db: Connection, game: int) -> frozenset[int]:
    """Everyone who has read ``game``'s secrets."""
    async with db.execute("SELECT user FROM secret_readers WHERE game = ?", (game,)) as cursor:
        return frozenset([int(r[0]) async for r in cursor])


async def read_by(db: Connection, user: int, games: Iterable[int]) -> frozenset[int]:
    """Of ``games``, those whose secrets ``user`` has read."""
    wanted = sorted(set(games))
    if not wanted:
        return frozenset()
    marks = ", ".join("?" * len(wanted))
    async with db.execute(
        f"SELECT game FROM secret_readers WHERE user = ? AND game IN ({marks})", (user, *wanted)
    ) as cursor:
        return frozenset([int(r[0]) async for r in cursor])
