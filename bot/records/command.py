"""The organisers' record commands of the command language: ``export [GAME]``.

The export shows every legion's contents, so only an organiser gets it, as an answer
nobody else sees; while a game is still being played (in the lobby or active, damaged
or not) it goes only to an organiser who holds no seat in it. It works on a damaged game
too: that is what it is for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.context import Context
from bot.records.export import export_attachment
from bot.records.verify import Record, Verification, fetch_record, verify
from bot.replies import Message, Replies
from bot.storage import games as rows
from bot.syntax import Args
from bot.syntax.words import number
from engine.errors import IllegalAction

RecordHandler = Callable[[Context, Args], Awaitable[Replies]]


async def export(ctx: Context, args: Args) -> Replies:
    """The channel's game (or game ``GAME`` of this channel) as a JSON file."""
    word = args.peek()
    wanted = number(args.take("game").lstrip("#"), "game number") if word is not None else None
    args.finish()
    if not ctx.caller.organiser:
        raise IllegalAction(
            "only an organiser may export a game: its record shows every legion's contents"
        )
    channel = ctx.place.channel
    async with ctx.db.reading() as db:
        if wanted is None:
            row = await rows.latest_game(db, channel)
        else:
            row = await rows.game(db, wanted)
        if row is None or row.channel != channel:
            which = f"game #{wanted}" if wanted is not None else "any game"
            raise IllegalAction(f"this channel has no {which} to export")
        record = await fetch_record(db, row)
    if row.status.is_open and any(s.user == ctx.caller.user for s in record.seats):
        raise IllegalAction(
            f"you hold a seat in game #{row.id}, which is still being played: its record "
            "shows every legion's contents, so an organiser without a seat must export it"
        )
    verification = await asyncio.to_thread(verify, record)
    attachment = await asyncio.to_thread(export_attachment, record, verification)
    return Replies(ephemeral=Message(summary(record, verification), attachment=attachment))


def summary(record: Record, verification: Verification) -> str:
    """What the export holds, in a few words."""
    row = record.row
    state = row.status.value + (f", damaged: {row.damaged}" if row.damaged else "")
    problems = len(verification.problems)
    found = f"{problems} problem{'s' if problems != 1 else ''} found" if problems else "no problem"
    return (
        f"Game #{row.id} ({state}): {len(record.actions)} logged actions, "
        f"{verification.replayed} replayed from the seed; {found}. "
        "The file shows every legion's contents: keep it private."
    )


RECORDS: dict[str, RecordHandler] = {"export": export}
