"""The bot as its commands see it: the configuration and the game service.

:class:`TitanHost` is the bot base that command groups, buttons and the error handler
reach through ``interaction.client``; :mod:`bot.discord.client` adds the start-up. Keeping
it apart lets those modules import it without an import cycle.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.config import Config
from bot.context import Caller, Place
from bot.dialect import Slash
from bot.discord.transport import DiscordTransport
from bot.pictures import Renderer
from bot.service import GameService


class TitanHost(commands.AutoShardedBot):
    """A Discord bot hosting TITAN games through one :class:`GameService`.

    Always an :class:`~discord.ext.commands.AutoShardedBot`, on the shards the
    configuration names: ``shard_count`` in all, this process running ``shard_ids`` of
    them (the other processes the rest). With neither set, the bot asks Discord how many
    shards it should have (``GET /gateway/bot``: one for a bot in fewer than about 1,000
    servers) and runs them all in this one process, so a single process is a bot of one
    connection, as a plain ``commands.Bot`` would be, and it keeps connecting once it has
    grown past 2,500 servers, where Discord closes an unsharded connection (4011,
    sharding required) and a ``commands.Bot`` could not start. One class either way:
    commands, buttons and the error handler see the same client.
    """

    def __init__(self, config: Config, *, renderer: Renderer | None = None, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("shard_count", config.shard_count)
        options.setdefault("shard_ids", list(config.shard_ids) if config.shard_ids else None)
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.config = config
        self.renderer = renderer
        self._service: GameService | None = None
        self.dialect = Slash()
        """How texts name the commands: the slash commands of the tree, with their ids once
        synced (:mod:`bot.discord.commands.mentions`); none before the start-up."""
        self.transport = DiscordTransport(self)
        """How the outbox's news reach Discord (:mod:`bot.discord.transport`)."""

    def reference(self, interaction: discord.Interaction[Any], kind: str, receipt: str = "") -> str:
        """The stored reference to ``interaction`` (a slash ``command`` or a ``click``), by
        which the outbox answers it; the live interaction is kept for that while it lasts."""
        return self.transport.reference(interaction, kind, receipt)

    @property
    def service(self) -> GameService:
        """The game service (open from :meth:`setup_hook` until :meth:`close`)."""
        if self._service is None:
            raise RuntimeError("the game service is not open yet")
        return self._service


TitanInteraction = discord.Interaction[TitanHost]


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The channel (one game per channel) and guild an interaction comes from; a thread of
    a game's channel (a battle's, or one players opened) is its parent's place."""
    channel = interaction.channel_id
    if channel is None:
        raise RuntimeError("an interaction without a channel")
    where = interaction.channel
    if isinstance(where, discord.Thread) and where.parent_id is not None:
        channel = where.parent_id
    return Place(channel, interaction.guild_id)


def is_organiser(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user counts as an organiser in a player's command (``/titan cancel``,
    ``start``, ``invite`` over a game they do not host; no limit on open games): Manage
    Channels, or an administrator. A server may allow more members to use ``/titan-admin``
    (Server Settings → Integrations), which the interaction does not show; those organise
    through ``/titan-admin`` (:func:`organiser_of`)."""
    permissions = interaction.permissions
    return permissions.manage_channels or permissions.administrator


def caller_of(interaction: discord.Interaction[Any]) -> Caller:
    """Who acts: the user, their display name, and whether they are an organiser."""
    user = interaction.user
    return Caller(user.id, user.display_name, organiser=is_organiser(interaction))


def organiser_of(interaction: discord.Interaction[Any]) -> Caller:
    """The caller of an organiser command (``/titan-admin``): an organiser, whatever their
    permissions. Discord is the one gate: it lets the interaction through only for members
    the server allows (by default Manage Channels, ``default_permissions``), so the bot
    does not refuse what Discord let through."""
    user = interaction.user
    return Caller(user.id, user.display_name, organiser=True)
