"""The one error handler: a refusal the player can read, or an apology with an error id.

A :class:`~engine.errors.TitanError` (and a failed check, such as a missing permission)
becomes an ephemeral explanation; anything else is logged with an error id, the channel's
game id and the traceback, and the user gets a short apology naming the error id.
:class:`TitanTree` routes every application command error here; the buttons' callbacks
call :func:`report` themselves.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from engine.errors import TitanError

log = logging.getLogger(__name__)

APOLOGY = (
    "Sorry, something went wrong on our side (error {error_id}). "
    "`status` shows where the game stands."
)
NO_DMS = "TITAN is played in server channels: use this command in a channel of a server."


def explanation(error: BaseException) -> str | None:
    """What to tell the user about an expected error (None for an unexpected one)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, TitanError):
        return str(original)
    if isinstance(original, app_commands.NoPrivateMessage):
        return NO_DMS
    if isinstance(original, app_commands.CheckFailure):
        return str(original) or "You may not use this command here."
    if isinstance(original, app_commands.TransformerError):
        return f"I cannot read {original.value!r}: {original}"
    return None


async def _game_id(interaction: discord.Interaction[Any]) -> str:
    """The id of the channel's game, for the log ("?" when it cannot be told)."""
    try:
        service = interaction.client.service
        game = await service.game_in(interaction.channel_id)
    except Exception:
        return "?"
    return str(game.id) if game is not None else "none"


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``error`` ephemerally; log an unexpected one with an error id and the game."""
    text = explanation(error)
    if text is None:
        error_id = secrets.token_hex(4)
        original = getattr(error, "original", error)
        log.error(
            "error %s: game %s (channel %s), user %s",
            error_id,
            await _game_id(interaction),
            interaction.channel_id,
            interaction.user.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = APOLOGY.format(error_id=error_id)
    dialect = getattr(interaction.client, "dialect", None)
    text = dialect.render(text) if dialect is not None else text
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not tell user %s about an error: %s", interaction.user.id, exc)


class TitanTree(app_commands.CommandTree[Any]):
    """The command tree: its errors go to :func:`report`."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
