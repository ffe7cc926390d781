"""Whether an outbox row can be told at all: its kind, its lane, its body, its reference.

A bad write or a hand edit may leave a row nobody can send. The deliverer skips such a row
(marking it given up, with the reason) and tells the channel that a message was lost,
instead of trying it again for ever while the channel's later news waits behind it;
``check-db`` names the same rows. A reason never quotes the body: it may be a player's
private news.
"""

from __future__ import annotations

import json

from bot.outbox.codec import message_from_json
from bot.storage.outbox import KINDS, LANES, OutboxRow
from engine.errors import TitanError

UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError, TitanError)
"""What reading a damaged value may raise."""


def body_problem(body: object) -> str | None:
    """Why the stored message ``body`` cannot be read back, or None."""
    if not isinstance(body, str):
        return "its body is not text"
    try:
        message_from_json(body)
    except (*UNREADABLE, RecursionError):
        return "its body cannot be read as a message"
    return None


def reference_problem(reply_to: object) -> str | None:
    """Why the transport's reference ``reply_to`` cannot be read back, or None."""
    if reply_to is None:
        return None
    try:
        json.loads(reply_to)  # type: ignore[arg-type]
    except (*UNREADABLE, RecursionError):
        return "its reply_to cannot be read"
    return None


def row_problem(row: OutboxRow) -> str | None:
    """Why ``row`` cannot be delivered, or None when it can."""
    if row.kind not in KINDS:
        return f"its kind is not one of {', '.join(KINDS)}"
    if row.lane not in LANES:
        return f"its lane is not one of {', '.join(LANES)}"
    if row.kind == "dm" and not isinstance(row.recipient, int):
        return "it is a DM without a recipient"
    return body_problem(row.body) or reference_problem(row.reply_to)


def lost_notice(game: int | None, rows: int) -> str:
    """What the channel is told when ``rows`` of its messages were skipped as damaged."""
    whose = f"game #{game}'s" if game is not None else "this channel's"
    what = "a message" if rows == 1 else f"{rows} messages"
    return (
        f"⚠ {what.capitalize()} of {whose} news could not be read back (damaged in the "
        "database) and was skipped; the rest goes on. `status` shows where the game stands; "
        "the bot's operator can list the damaged rows with `titanbot check-db`."
    )
