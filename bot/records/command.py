"""The record commands of the command language: ``export [GAME]`` and ``record [GAME]``.

The export shows every legion's contents, so only an organiser gets it, as an answer
nobody else sees; while a game is still being played (in the lobby or active, damaged
or not) it goes only to an organiser who holds no seat in it. It works on a damaged game
too: that is what it is for.

The public record (:mod:`bot.records.public`, :mod:`bot.records.story`) shows every
legion too, but only of a game that has ended (over, or cancelled after its start), when
nothing is hidden any more: anyone in the channel may have it then, and check it with
``titanbot verify``. Before the end it is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.context import Context
from bot.records.export import export_attachment
from bot.records.public import attachment, record_bytes, record_document
from bot.records.story import record_text
from bot.records.verify import Record, Verification, fetch_record, verify
from bot.replies import Attachment, Message, Replies
from bot.storage import games as rows
from bot.syntax import Args
from bot.syntax.words import number
from engine.errors import IllegalAction
from engine.words import plural

RecordHandler = Callable[[Context, Args], Awaitable[Replies]]


def _wanted(args: Args) -> int | None:
    """``[GAME]``: a game number (``12`` or ``#12``), or None for the channel's latest."""
    word = args.peek()
    wanted = number(args.take("game").lstrip("#"), "game number") if word is not None else None
    args.finish()
    return wanted


async def _record_of(ctx: Context, wanted: int | None, doing: str) -> Record:
    """The rows of the channel's latest game, or of its game number ``wanted``."""
    channel = ctx.place.channel
    async with ctx.db.reading() as db:
        if wanted is None:
            row = await rows.latest_game(db, channel)
        else:
            row = await rows.game(db, wanted)
        if row is None or row.channel != channel:
            which = f"game #{wanted}" if wanted is not None else "game"
            raise IllegalAction(f"this channel has no {which} to {doing}")
        return await fetch_record(db, row)


async def export(ctx: Context, args: Args) -> Replies:
    """The channel's game (or game ``GAME`` of this channel) as a JSON file."""
    wanted = _wanted(args)
    if not ctx.caller.organiser:
        raise IllegalAction(
            "only an organiser may export a game: its record shows every legion's contents"
        )
    record = await _record_of(ctx, wanted, "export")
    row = record.row
    if row.status.is_open and any(s.user == ctx.caller.user for s in record.seats):
        raise IllegalAction(
            f"you hold a seat in game #{row.id}, which is still being played: its record "
            "shows every legion's contents, so an organiser without a seat must export it"
        )
    verification = await asyncio.to_thread(verify, record)
    attachment = await asyncio.to_thread(export_attachment, record, verification)
    return Replies(ephemeral=Message(summary(record, verification), attachments=(attachment,)))


def summary(record: Record, verification: Verification) -> str:
    """What the export holds, in a few words."""
    row = record.row
    state = row.status.value + (f", damaged: {row.damaged}" if row.damaged else "")
    problems = len(verification.problems)
    found = f"{problems} problem{'s' if problems != 1 else ''} found" if problems else "no problem"
    return (
        f"Game #{row.id} ({state}): {plural(len(record.actions), 'logged action')}, "
        f"{verification.replayed} replayed from the seed; {found}. "
        "The file shows every legion's contents: keep it private."
    )


async def public_record(ctx: Context, args: Args) -> Replies:
    """The channel's latest game (or its game ``GAME``), once ended, as its public record:
    the ``titanbot-record/2`` JSON and the game told in words, two files for the caller.
    Refused while the game is played (it shows every legion), for a game that never
    started, and for a damaged one (an organiser's export reads what it can)."""
    record = await _record_of(ctx, _wanted(args), "give the record of")
    row = record.row
    if row.status.is_open and row.damaged is None:
        raise IllegalAction(
            f"game #{row.id} is still being played: its record shows every legion and the "
            "dice's seed, so it is given once the game is over"
        )
    if row.seed is None:
        raise IllegalAction(f"game #{row.id} never started: it has no record")
    if row.damaged is not None:
        raise IllegalAction(
            f"game #{row.id} is damaged ({row.damaged}): its record cannot be read back "
            "(an organiser can export what is readable)"
        )
    files = await asyncio.to_thread(record_files, record)
    text = (
        f"The record of game #{row.id}: {plural(len(record.actions), 'action')}, every die and the "
        "seed and salt behind them. Anyone can check it: `titanbot verify "
        f"{files[0].filename} --commitment … --record-digest …` with the values the game's "
        "start and end announced."
    )
    return Replies(ephemeral=Message(text, attachments=files))


def record_files(record: Record) -> tuple[Attachment, Attachment]:
    """The JSON record and the readable one: ``titan-record-N.json`` and ``.txt`` (each
    gzipped when large)."""
    document = record_document(record)
    name = f"titan-record-{record.row.id}"
    return (
        attachment(f"{name}.json", record_bytes(document)),
        attachment(f"{name}.txt", record_text(document).encode("utf-8")),
    )


RECORDS: dict[str, RecordHandler] = {"export": export, "record": public_record}
