"""Answers that are not stored: a refusal, information, the readings of an ambiguous command.

What a stored change must tell goes through the outbox (:mod:`bot.discord.transport`);
what changes nothing is answered at once, to the caller alone: the deferred ("thinking")
response is edited into the answer, with its picture (drawn first) and its choices.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.components import choices_view
from bot.discord.host import TitanInteraction
from bot.discord.messages import content, extras, files
from bot.replies import Message, Replies


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
        **extras(choices_view(message.offers), files(message, interaction.filesize_limit)),
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
    """A clicked choice: a refusal, a step or a confirmation only to the clicker (in the
    private message clicked, else in a new one); after a stored change the used choices
    leave a public message clicked (the deliverer says the rest, and answers a private
    message with the next step, or drops it)."""
    private = in_private(interaction)
    if replies.stored:
        if not private:
            await interaction.edit_original_response(view=None)
        return
    service = interaction.client.service
    mine = await service.paint(replies.ephemeral) or Message("Nothing happened.")
    if private:
        await answer(interaction, mine)
    else:
        await tell(interaction, mine)
