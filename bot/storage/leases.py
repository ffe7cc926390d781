"""Leases: work that one process at a time may do on a shared database.

A lease is a named row held by one process (its *holder*) until a moment (seconds since
the epoch). Taking a lease that another process holds fails until that moment passes, so
the work of a process that died is taken over once its lease runs out; its holder
renews it by taking it again. Names say what they guard: ``outbox:<channel>`` (delivering
a channel's news, in order), ``ai:<channel>`` (playing the AI seats of a channel's game),
``tables`` (opening a heat's tables).
"""

from __future__ import annotations

import os
import secrets
import socket

from bot.storage.connection import Connection


def outbox_lease(channel: int) -> str:
    return f"outbox:{channel}"


AI_PREFIX = "ai:"


def ai_lease(channel: int) -> str:
    return f"{AI_PREFIX}{channel}"


TABLES = "tables"


async def take(db: Connection, name: str, holder: str, now: float, seconds: float) -> bool:
    """Take (or renew) the lease ``name`` for ``seconds``: whether ``holder`` has it now."""
    async with db.execute(
        "INSERT INTO leases (name, holder, until) VALUES (?, ?, ?)"
        " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
        " WHERE leases.holder = excluded.holder OR leases.until < ?",
        (name, holder, now + seconds, now),
    ) as cursor:
        return cursor.rowcount == 1


async def give_up(db: Connection, name: str, holder: str) -> None:
    """Let the lease go (if ``holder`` still has it)."""
    await db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))


async def give_up_prefixed(db: Connection, prefix: str, holder: str) -> None:
    """Let every lease of ``holder`` whose name begins with ``prefix`` go."""
    await db.execute(
        "DELETE FROM leases WHERE holder = ? AND substr(name, 1, ?) = ?",
        (holder, len(prefix), prefix),
    )


async def give_up_all(db: Connection, holder: str) -> None:
    """Let every lease of ``holder`` go (it stops)."""
    await db.execute("DELETE FROM leases WHERE holder = ?", (holder,))


async def holder_of(db: Connection, name: str, now: float) -> str | None:
    """Who holds ``name`` at ``now`` (None: nobody, or a lease run out)."""
    async with db.execute(
        "SELECT holder FROM leases WHERE name = ? AND until >= ?", (name, now)
    ) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


def new_holder() -> str:
    """A name for this process among those sharing the database (host, pid, and a random
    part, so that a restarted process with the same pid is another holder)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
