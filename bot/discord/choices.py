"""A click on a choice: run its command if the game is still at the version it was made for.

The service compares the version under the game's lock, so a click on a choice the game has
moved past — or a second click on the same button — changes nothing and is answered to the
clicker alone.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.context import Version
from bot.discord.deliver import deliver_choice
from bot.discord.errors import report
from bot.discord.host import caller_of, place_of


async def choose(
    interaction: discord.Interaction[Any], game_id: int, verb: str, version: int
) -> None:
    """Run a clicked command, if the game is still at the version it was offered for."""
    try:
        await interaction.response.defer()
        service = interaction.client.service
        expect = Version(game_id, version)
        reply_to = interaction.client.reference(interaction, "click")
        place, caller = place_of(interaction), caller_of(interaction)
        replies = await service.submit(place, caller, verb, expect=expect, reply_to=reply_to)
        await deliver_choice(interaction, replies)
    except Exception as exc:
        await report(interaction, exc)
