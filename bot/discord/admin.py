"""The owner's text commands, said by mentioning the bot: ``@titanbot sync``.

A mention carries its text without the privileged Message Content intent.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from discord.ext import commands

if TYPE_CHECKING:
    from bot.discord.client import TitanBot

log = logging.getLogger(__name__)


class Admin(commands.Cog):
    """Commands for the bot's owner."""

    def __init__(self, bot: TitanBot) -> None:
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[TitanBot]) -> None:
        """Register the slash commands with Discord now, changed or not."""
        count = await self.bot.sync(force=True)
        await ctx.reply(f"Synced {count or 0} commands ({self.bot.sync_scope}).")

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        # Strangers mentioning the bot get no answer; the owner's failures are logged.
        log.info("owner command %r refused: %s", ctx.message.content, error)
