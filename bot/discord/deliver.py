"""Answers that are not stored: a refusal, information, the readings of an ambiguous command.

What a stored change must tell goes through the outbox (:mod:`bot.discord.transport`);
what changes nothing is answered at once, to the caller alone: the deferred ("thinking")
response is edited into the answer, with its picture (drawn first) and its choices.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.components import choices_view
from bot.discord.host import TitanInteraction
from bot.discord.messages import content, files
from bot.replies import Message, Replies

log = logging.getLogger(__name__)


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


async def deliver_command(interaction: TitanInteraction, replies: Replies, receipt: str) -> None:
    """A deferred slash command's answer when nothing was stored (a stored change is
    answered by the outbox's deliverer)."""
    if replies.stored:
        return
    service = interaction.client.service
    await answer(interaction, await service.paint(replies.ephemeral) or Message(f"✓ `{receipt}`"))


def in_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click was made in a message only the clicker sees (a private step)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def deliver_choice(interaction: TitanInteraction, replies: Replies) -> None:
    """A clicked choice: a refusal, a step or a confirmation only to the clicker, in the
    click's own response (the private message clicked, or the private response a click on
    a public message was given); after a stored change the used choices leave a public
    message clicked (the deliverer says the rest, and answers in that response)."""
    if replies.stored:
        if not in_private(interaction) and interaction.message is not None:
            await unbutton(interaction.message)
        return
    service = interaction.client.service
    mine = await service.paint(replies.ephemeral) or Message("Nothing happened.")
    await answer(interaction, mine)


async def unbutton(message: discord.Message) -> None:
    """The used choices leave a public message (one deleted meanwhile: no matter)."""
    try:
        await message.edit(view=None)
    except discord.HTTPException as exc:
        log.info("the choices of message %s stay: %s", message.id, exc)
