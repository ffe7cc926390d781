"""The games of a player or a server: how many are open, and which (several games read
at once; one game's rows are :mod:`bot.storage.games`')."""

from __future__ import annotations

from bot.storage.connection import Connection
from bot.storage.games import GAME_COLUMNS, GameRow, game_row


async def count_open_games_of(db: Connection, user: int) -> int:
    """The lobbies and active games ``user`` has a seat in."""
    async with db.execute(
        "SELECT count(*) FROM seats JOIN games ON games.id = seats.game"
        " WHERE seats.user = ? AND games.status IN ('lobby', 'active')",
        (user,),
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def games_of(db: Connection, user: int) -> list[GameRow]:
    """The lobbies and active games ``user`` has a seat in, in every channel and server,
    those whose record was found damaged left out; the latest to change first (the
    ``seats_by_user`` index finds the seats, the primary key each game)."""
    columns = ", ".join(f"games.{c}" for c in GAME_COLUMNS.split(", "))
    async with db.execute(
        f"SELECT {columns} FROM seats JOIN games ON games.id = seats.game"
        " WHERE seats.user = ? AND games.status IN ('lobby', 'active')"
        " AND games.damaged IS NULL ORDER BY games.updated_at DESC, games.id DESC",
        (user,),
    ) as cursor:
        return [game_row(row) async for row in cursor]


async def count_open_games_in(db: Connection, guild: int) -> int:
    """The lobbies and active games of the server ``guild``."""
    async with db.execute(
        "SELECT count(*) FROM games WHERE guild = ? AND status IN ('lobby', 'active')", (guild,)
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def open_games_in(db: Connection, guild: int | None) -> list[GameRow]:
    """The lobbies and active games of the server ``guild`` (None: the terminal's), those
    whose record was found damaged left out, the oldest first."""
    async with db.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE coalesce(guild, 0) = ?"
        " AND status IN ('lobby', 'active') AND damaged IS NULL ORDER BY id",
        (guild or 0,),
    ) as cursor:
        return [game_row(row) async for row in cursor]
