"""Users' ``autostrike`` (:mod:`bot.handlers.preferences`): whether the battle decisions
that leave them no choice (:func:`engine.game.forced.forced_action`) are made for them.
Plain queries inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.connection import Connection


async def set_autostrike(db: Connection, user: int, on: bool) -> None:
    await db.execute(
        "INSERT INTO users (id, autostrike) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET autostrike = excluded.autostrike",
        (user, int(on)),
    )


async def autostrikers(db: Connection, users: Iterable[int]) -> frozenset[int]:
    """Those of ``users`` who turned ``autostrike`` on."""
    ids = [user for user in users if user >= 0]
    if not ids:
        return frozenset()
    marks = ", ".join("?" * len(ids))
    async with db.execute(
        f"SELECT id FROM users WHERE autostrike = 1 AND id IN ({marks})", ids
    ) as cursor:
        return frozenset([int(row[0]) async for row in cursor])
