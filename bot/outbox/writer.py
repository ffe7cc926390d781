"""What a stored change must tell, written into the outbox in the change's own transaction.

One :class:`~bot.replies.Replies` becomes rows: the channel's news (``post``), a DM for
every other player with private news (``dm``), news for other games' channels (``post``
rows of those channels), and the caller's answer (``answer``), which
carries the caller's own private news (their DMs are for what others did). The answer and
the news keep the transport's reference to the command (``reply_to``: an interaction on
Discord, by which the news may still go out, or the caller be told it could not; None in
the terminal, whose deliverer prints everything).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.context import Caller, Place
from bot.outbox.codec import message_to_json
from bot.replies import BattleStage, Message, Notice, Replies
from bot.storage import outbox as rows
from bot.storage.connection import Connection


@dataclass(frozen=True)
class Told:
    """Where a change is told: its channel, its game at that version, who asked, and how
    to answer them."""

    place: Place
    caller: Caller
    game: int | None = None
    version: int | None = None
    reply_to: str | None = None


async def write(db: Connection, told: Told, replies: Replies) -> int:
    """Queue the rows ``replies`` call for (inside the caller's transaction, in one
    statement); how many."""
    channel = told.place.channel
    queued: list[rows.NewRow] = []

    def add(
        kind: str,
        message: Message,
        recipient: int | None = None,
        elsewhere: Notice | None = None,
    ) -> None:
        during = message.battle is not None and message.battle.stage is BattleStage.DURING
        queued.append(
            rows.NewRow(
                game=elsewhere.game if elsewhere else told.game,
                channel=elsewhere.channel if elsewhere else channel,
                kind=kind,
                body=message_to_json(message),
                recipient=recipient,
                reply_to=told.reply_to if kind != "dm" and elsewhere is None else None,
                version=None if elsewhere else told.version,
                lane="battle" if kind == "post" and during else "game",
            )
        )

    answer = _answer(told, replies)
    if answer is not None:
        add("answer", answer, told.caller.user)
    if replies.public is not None:
        add("post", replies.public)
    answered = told.reply_to is not None
    for user, message in replies.private.items():
        if not (answered and user == told.caller.user):
            add("dm", message, user)
    for notice in replies.elsewhere:
        add("post", notice.message, elsewhere=notice)
    return await rows.add_all(db, queued)


RECEIPT = "✓"
"""The answer of a command whose change nothing else shows: the transport writes the
command after it (``✓ `unsplit Bk03```)."""


def _answer(told: Told, replies: Replies) -> Message | None:
    """The caller's answer: the reply meant for them and their own private news; with
    neither, where there is somewhere to answer, an empty one (the channel's news shows
    what the command did: the command is acknowledged without a word) or, when the change
    shows nowhere else, a receipt (:data:`RECEIPT`)."""
    mine = replies.ephemeral
    parts = [m.text for m in (mine, replies.private.get(told.caller.user)) if m and m.text]
    if told.reply_to is None:
        return mine
    picture = mine.picture if mine is not None else None
    offers = mine.offers if mine is not None else None
    if not parts and offers is None:
        return Message("" if replies.public is not None else RECEIPT)
    return Message("\n".join(parts), picture, offers=offers)
