"""What the bot answers when mentioned: the owner's ``@titanbot sync``, and a pointer to the
slash commands for anyone else's words.

A mention carries its text without the privileged Message Content intent. ``sync`` is the
owner's alone (anyone else's is ignored, and logged); any other word, or none, is answered
once with :data:`POINTER`, the slash commands being how TITAN is played.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.dialect import Dialect, shorten
from bot.discord.sync import Synced
from engine.words import plural

log = logging.getLogger(__name__)

POINTER = (
    "I answer slash commands, not messages: type `/` and pick one of mine, "
    "or see `help` for the list."
)
MAX_CONTENT = 2000


class Owned(Protocol):
    """What the cog asks of the bot it serves (:class:`~bot.discord.client.TitanBot`, which
    adds the cog: the cog does not import it back)."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def syncs_commands(self) -> bool: ...

    @property
    def sync_scope(self) -> str: ...

    def shards_text(self) -> str: ...

    async def sync(self, *, force: bool = False) -> Synced: ...


class Admin(commands.Cog):
    """Commands for the bot's owner, and the answer to every other mention."""

    def __init__(self, bot: Owned) -> None:
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[Any]) -> None:
        """Register the slash commands with Discord now, changed or not (from the process
        that runs shard 0 only: it alone syncs)."""
        if not self.bot.syncs_commands:
            here = self.bot.shards_text()
            await ctx.reply(
                f"Commands are synced by the process that runs shard 0; this one runs {here}."
            )
            return
        synced = await self.bot.sync(force=True)
        await ctx.reply(f"Synced {plural(synced.count or 0, 'command')} ({self.bot.sync_scope}).")

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        # Strangers saying "sync" get no answer; the owner's failures are logged.
        log.info("owner command %r refused: %s", ctx.message.content, error)

    @commands.Cog.listener()
    async def on_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        """A mention with a word that is no command: point at the slash commands. (Being a
        listener, this also keeps discord.py from logging a traceback for it.)"""
        if isinstance(error, commands.CommandNotFound):
            await self.point(ctx.message)
        # Anything else is the cog's own commands': answered by cog_command_error.

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A mention of the bot with nothing after it: the same pointer."""
        me = self.bot.user
        if me is None or message.author.bot or message.guild is None:
            return
        if message.content.strip() in (f"<@{me.id}>", f"<@!{me.id}>"):
            await self.point(message)

    async def point(self, message: discord.Message) -> None:
        """Answer ``message`` (once) with :data:`POINTER`, its commands as mentions."""
        text = shorten(self.bot.dialect.render(POINTER), MAX_CONTENT)
        try:
            await message.reply(text, mention_author=False)
        except discord.HTTPException as exc:
            log.warning("could not point %s at the slash commands: %s", message.author.id, exc)
