"""Nobody plays a game whose secrets they have read: an organiser who exported a game
while it was played knows its seed and salt (every die to come) and every legion, so
they may neither take nor be given a seat in it, nor stand in for one of its players.

The export notes its reader (:func:`note_export`) before the file is handed over; every
path that seats someone asks :func:`refuse_reader` first.
"""

from __future__ import annotations

from bot.context import Context
from bot.storage import games as rows
from bot.storage import readers
from bot.storage.connection import Connection
from bot.syntax.words import number
from engine.errors import IllegalAction


def reader_refusal(user: int, game: int) -> str:
    """Why ``user`` may not sit in ``game``."""
    return (
        f"<@{user}> exported game #{game} while it was being played: the export holds its "
        "dice's seed and every legion, so they cannot take a seat in it"
    )


async def refuse_reader(db: Connection, game: int, user: int) -> None:
    """Refuse (:class:`IllegalAction`) to seat ``user`` in ``game`` if they read its secrets."""
    if await readers.has_read(db, game, user):
        raise IllegalAction(reader_refusal(user, game))


async def note_export(ctx: Context, words: tuple[str, ...]) -> None:
    """Note the caller as a reader of the game ``export [GAME]`` gave them, when it is
    still being played and its dice are drawn (a lobby has no seed yet)."""
    wanted = number(words[0].lstrip("#"), "game number") if words else None
    async with ctx.db.transaction() as db:
        if wanted is None:
            row = await rows.latest_game(db, ctx.place.channel)
        else:
            row = await rows.game(db, wanted)
        if row is None or row.channel != ctx.place.channel:
            return
        if row.status.is_open and row.seed is not None:
            await readers.note(db, row.id, ctx.caller.user)
