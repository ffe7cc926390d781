"""A click on a choice: run its command if the game is still at the version it was made for.

The service compares the version under the game's lock, so a click on a choice the game has
moved past — or a second click on the same button — changes nothing and is answered to the
clicker alone. A click in a private message (a step of a decision, a confirmation) is
answered in that message: the next step replaces it, and once the decision is made it
shows the next one or goes (:mod:`bot.discord.deliver`). *Go back* drops it. A click on a
public message is answered in a private response of its own, made when the click is
acknowledged (before anything is stored): the answer edits it, or it goes when there is
nothing to say, so an answer delivered again after a restart is not shown twice.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.context import Version
from bot.discord.deliver import deliver_choice, in_private
from bot.discord.errors import report
from bot.discord.host import caller_of, place_of
from bot.offers.model import BACK


async def choose(
    interaction: discord.Interaction[Any], game_id: int, verb: str, version: int
) -> None:
    """Run a clicked command, if the game is still at the version it was offered for."""
    try:
        private = in_private(interaction)
        if private:  # the step's message is the response: the answer replaces it
            await interaction.response.defer()
        else:  # a response of its own, only the clicker sees, for the answer to become
            await interaction.response.defer(ephemeral=True, thinking=True)
        if verb == BACK:
            await interaction.delete_original_response()
            return
        service = interaction.client.service
        expect = Version(game_id, version)
        reply_to = interaction.client.reference(interaction, "step" if private else "choice")
        place, caller = place_of(interaction), caller_of(interaction)
        replies = await service.submit(
            place, caller, verb, expect=expect, reply_to=reply_to, step=private
        )
        await deliver_choice(interaction, replies)
    except Exception as exc:
        await report(interaction, exc)
