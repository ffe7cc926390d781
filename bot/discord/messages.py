"""A :class:`~bot.replies.Message` in Discord's terms: content with its pings, files, mentions."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.dialect import Dialect, Slash, shorten
from bot.narration.heading import HEAD
from bot.replies import Message

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


PLAIN = Slash()
"""Commands named without a tree: hints stay as written."""


def content(
    message: Message, prefix: str = "", dialect: Dialect = PLAIN, *, whole: bool = False
) -> str:
    """The message's text, its pings first, its command hints as slash commands
    (:mod:`bot.dialect`), within Discord's 2,000 characters (``whole``: as long as it is,
    to measure it)."""
    pings = " ".join(f"<@{user}>" for user in message.mention)
    said = prefix + dialect.render(message.text)
    between = "\n" if said.startswith(HEAD) else " "  # a heading must begin its line
    text = between.join(part for part in (pings, said) if part)
    return text if whole else shorten(text, MAX_CONTENT)


def picture(message: Message, limit: int) -> discord.File | None:
    """The rendered picture as an attachment (None without one, or when over ``limit``)."""
    if message.image is None or message.picture is None:
        return None
    if len(message.image) > limit:
        log.warning("a %d-byte picture is over the upload limit", len(message.image))
        return None
    return discord.File(io.BytesIO(message.image), filename=message.picture.filename)


def attached(message: Message, limit: int) -> list[discord.File]:
    """The message's files (an export, a record) as attachments, those over ``limit`` left
    out."""
    found = []
    for attachment in message.attachments:
        if len(attachment.data) > limit:
            log.warning("a %d-byte file is over the upload limit", len(attachment.data))
            continue
        found.append(discord.File(io.BytesIO(attachment.data), filename=attachment.filename))
    return found


def files(message: Message, limit: int) -> list[discord.File]:
    """Everything ``message`` uploads: its picture and its files."""
    drawn = picture(message, limit)
    return [*([drawn] if drawn is not None else []), *attached(message, limit)]


def pings(message: Message) -> discord.AllowedMentions:
    """Allow exactly the mentioned users to be pinged."""
    users = [discord.Object(user) for user in message.mention]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def extras(view: discord.ui.View | None, uploads: list[discord.File]) -> dict[str, Any]:
    """The optional keyword arguments of a send: the view and the files, when there are."""
    found: dict[str, Any] = {}
    if view is not None:
        found["view"] = view
    if uploads:
        found["files"] = uploads
    return found
