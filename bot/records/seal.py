"""The end announcement's record digest: the digest of the record as it is at the end.

When a game with a ``titanbot-game/2`` commitment ends (over, adjudicated or cancelled),
the end announcement carries, after the seed and salt, the SHA-256 of its complete public
record in the canonical encoding (:mod:`bot.records.proof`). The record is built in the
transaction that ends the game, so the digest is the one of the record ``record`` gives.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.records.canonical import digest
from bot.records.proof import digest_line
from bot.records.public import record_document
from bot.records.verify import Record, fetch_record
from bot.replies import Replies
from bot.storage import games as rows
from bot.storage.connection import Connection
from engine.errors import TitanError

REVEALED = "Dice revealed:"


async def record_digest(db: Connection, game_id: int) -> str | None:
    """The digest of the ended game's record (None: it has no pledge or no readable
    record, and so no digest to announce)."""
    row = await rows.game(db, game_id)
    if row is None or row.pledge is None or row.seed is None or row.status.is_open:
        return None
    record = await fetch_record(db, row)
    return await asyncio.to_thread(_digest_of, record)


def _digest_of(record: Record) -> str | None:
    try:
        return digest(record_document(record))
    except (TitanError, ValueError, TypeError, KeyError):
        return None


def sealed(replies: Replies, record: str | None) -> Replies:
    """``replies`` with the record digest's line right after the reveal of the dice (at
    the end of the public message when it has none)."""
    if record is None or replies.public is None:
        return replies
    line = digest_line(record)
    lines = replies.public.text.split("\n")
    at = next((i + 1 for i, text in enumerate(lines) if text.startswith(REVEALED)), len(lines))
    text = "\n".join([*lines[:at], line, *lines[at:]])
    return replace(replies, public=replace(replies.public, text=text))
