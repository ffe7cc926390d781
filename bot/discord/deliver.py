"""The service's replies sent to Discord: the caller's answer, the channel, and DMs.

After a deferred slash command the (ephemeral) "thinking" response is edited into the
caller's answer first, so the public news that follows is a *new* message: only a new
message notifies the players it mentions. It carries the picture, pings only the players
who must act, and is sent silently (``SUPPRESS_NOTIFICATIONS``) when nobody must act.
Private news goes by DM; a user who refuses DMs (403, code 50007) is remembered, told once
in the channel where to read their secrets instead, and the game goes on.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from typing import Any

import aiohttp
import discord

from bot.dialect import Dialect, Slash, shorten
from bot.discord.components import choices_view
from bot.discord.host import TitanHost, TitanInteraction, place_of
from bot.replies import Message, Replies

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
DM_TIMEOUT = 10.0
"""Seconds one DM may take before it is given up (a DM never holds a game up)."""
DMS_CLOSED = (
    "I cannot send you direct messages, so I will not send you private news. "
    "Use `legions` here at any time to see your legions (only you see the answer)."
)
PLAIN = Slash()
"""Commands named without a tree: hints stay as written."""


def content(message: Message, prefix: str = "", dialect: Dialect = PLAIN) -> str:
    """The message's text, its pings first, its command hints as slash commands
    (:mod:`bot.dialect`), within Discord's 2,000 characters."""
    pings = " ".join(f"<@{user}>" for user in message.mention)
    text = " ".join(part for part in (pings, prefix + dialect.render(message.text)) if part)
    return shorten(text, MAX_CONTENT)


def picture(message: Message, limit: int) -> discord.File | None:
    """The rendered picture as an attachment (None without one, or when over ``limit``)."""
    if message.image is None or message.picture is None:
        return None
    if len(message.image) > limit:
        log.warning("a %d-byte picture is over the upload limit", len(message.image))
        return None
    return discord.File(io.BytesIO(message.image), filename=message.picture.filename)


def attached(message: Message, limit: int) -> discord.File | None:
    """The message's file (an export) as an attachment (None without one, or over
    ``limit``)."""
    if message.attachment is None:
        return None
    if len(message.attachment.data) > limit:
        log.warning("a %d-byte file is over the upload limit", len(message.attachment.data))
        return None
    data = io.BytesIO(message.attachment.data)
    return discord.File(data, filename=message.attachment.filename)


def files(message: Message, limit: int) -> list[discord.File]:
    """Everything ``message`` uploads: its picture and its file."""
    return [f for f in (picture(message, limit), attached(message, limit)) if f is not None]


def pings(message: Message) -> discord.AllowedMentions:
    """Allow exactly the mentioned users to be pinged."""
    users = [discord.Object(user) for user in message.mention]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def _extras(view: discord.ui.View | None, uploads: list[discord.File]) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    if view is not None:
        extras["view"] = view
    if uploads:
        extras["files"] = uploads
    return extras


async def answer(
    interaction: TitanInteraction, message: Message, view: discord.ui.View | None = None
) -> None:
    """Turn the deferred response into the caller's (ephemeral) answer."""
    await interaction.edit_original_response(
        content=content(message, dialect=interaction.client.dialect),
        attachments=files(message, interaction.filesize_limit),
        view=view or choices_view(message.offers),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def tell(interaction: TitanInteraction, message: Message) -> None:
    """A further message only the caller sees."""
    await interaction.followup.send(
        content(message, dialect=interaction.client.dialect),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
        **_extras(choices_view(message.offers), files(message, interaction.filesize_limit)),
    )


async def publish(interaction: TitanInteraction, message: Message) -> None:
    """The channel's news: a new message with the picture and the choices, pinging who
    must act."""
    await interaction.followup.send(
        content(message, dialect=interaction.client.dialect),
        allowed_mentions=pings(message),
        silent=message.silent,
        **_extras(choices_view(message.offers), files(message, interaction.filesize_limit)),
    )


async def send_private(interaction: TitanInteraction, private: Mapping[int, Message]) -> None:
    """DM each user their private news; remember and announce closed DMs (once)."""
    channel = place_of(interaction).channel
    for user, message in private.items():
        if await _direct(interaction.client, user, message, channel):
            continue
        await interaction.client.service.set_dms_closed(user)
        notice = Message(DMS_CLOSED, mention=(user,))
        await publish(interaction, notice)
        if user == interaction.user.id:
            await tell(interaction, message)


async def _direct(client: TitanHost, user: int, message: Message, channel: int) -> bool:
    """Send one DM; False only when the user refuses DMs (HTTP 403)."""
    try:
        async with asyncio.timeout(DM_TIMEOUT):
            dm = await client.create_dm(discord.Object(user))
            uploads = files(message, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)
            text = content(message, f"<#{channel}>: ", client.dialect)
            await dm.send(text, **_extras(None, uploads))
    except discord.Forbidden:
        return False
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        log.warning("a DM to user %s failed: %s", user, exc)
    return True


async def deliver_command(interaction: TitanInteraction, replies: Replies, receipt: str) -> None:
    """A deferred slash command's replies: the answer, then the news (once its picture is
    drawn), then DMs."""
    service = interaction.client.service
    mine = await service.paint(replies.ephemeral) or Message(f"✓ `{receipt}`")
    await answer(interaction, mine)
    if replies.public is not None:
        news = await service.paint(replies.public, place_of(interaction).channel)
        await publish(interaction, news or replies.public)
    await send_private(interaction, replies.private)


async def deliver_choice(interaction: TitanInteraction, replies: Replies) -> None:
    """A clicked choice's replies: a refusal only to the clicker; after a success the
    used choices leave the clicked message, then the news and DMs follow."""
    service = interaction.client.service
    if replies.public is None:
        mine = await service.paint(replies.ephemeral)
        await tell(interaction, mine or Message("Nothing happened."))
        return
    await interaction.edit_original_response(view=None)
    news = await service.paint(replies.public, place_of(interaction).channel)
    await publish(interaction, news or replies.public)
    if replies.ephemeral is not None:
        await tell(interaction, await service.paint(replies.ephemeral) or replies.ephemeral)
    await send_private(interaction, replies.private)
