"""Users' direct messages: whether a user's DMs are closed (Discord refused one) or turned
off (the user's choice), so that private news goes to the channel's ephemeral answers
instead. Plain queries inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.connection import Connection


async def set_dms_closed(db: Connection, user: int, closed: bool) -> None:
    await db.execute(
        "INSERT INTO users (id, dms_closed) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET dms_closed = excluded.dms_closed",
        (user, int(closed)),
    )


async def users_with_dms_closed(db: Connection, users: Iterable[int]) -> set[int]:
    ids = list(users)
    if not ids:
        return set()
    marks = ", ".join("?" * len(ids))
    async with db.execute(
        f"SELECT id FROM users WHERE dms_closed = 1 AND id IN ({marks})", ids
    ) as cursor:
        return {int(row[0]) async for row in cursor}


async def dm_status(db: Connection, user: int) -> tuple[str | None, bool]:
    """(when the user's DMs were found closed, if they are; whether the user turned DMs off)."""
    async with db.execute(
        "SELECT CASE WHEN dms_closed = 1 THEN coalesce(dms_closed_at, '') END, dms_off"
        " FROM users WHERE id = ?",
        (user,),
    ) as cursor:
        row = await cursor.fetchone()
    return (None, False) if row is None else (row[0], bool(row[1]))


async def close_dms(db: Connection, user: int, at: str) -> bool:
    """Remember that ``user`` refused a DM at ``at``; whether they were open until now."""
    before, _ = await dm_status(db, user)
    await db.execute(
        "INSERT INTO users (id, dms_closed, dms_closed_at) VALUES (?, 1, ?)"
        " ON CONFLICT (id) DO UPDATE SET dms_closed = 1, dms_closed_at = excluded.dms_closed_at",
        (user, at),
    )
    return before is None


async def reopen_dms(db: Connection, user: int) -> None:
    """Try ``user``'s DMs again (they gave a command: they may have opened them)."""
    await db.execute(
        "UPDATE users SET dms_closed = 0, dms_closed_at = NULL WHERE id = ? AND dms_closed = 1",
        (user,),
    )


async def set_dms_off(db: Connection, user: int, off: bool) -> None:
    """The user's own choice: no DMs from the bot (``off``), or DMs again."""
    await db.execute(
        "INSERT INTO users (id, dms_off) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET dms_off = excluded.dms_off",
        (user, int(off)),
    )
