"""``/titan-admin``: organiser tools — replace or remove a player, abort or export a game,
change its clock.

Discord alone decides who may use them. By default only members with Manage Channels (and
administrators) see and use ``/titan-admin`` (``default_permissions``); a server may allow
other roles, members or channels in Server Settings → Integrations, and Discord then lets
their interactions through. The bot does not check again: whoever's interaction arrives is
an organiser for these tools (:func:`bot.discord.host.organiser_of`).
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.leaf import command
from bot.discord.commands.options import CLOCK_OPTIONS
from bot.discord.deliver import deliver_command
from bot.discord.host import TitanInteraction, organiser_of, place_of
from bot.discord.runner import run_command
from bot.discord.seats import abort_game, export_game, remove_player, replace_player
from bot.names import clean


@app_commands.guild_only()
@app_commands.default_permissions(manage_channels=True)
class OrganiserCommands(
    app_commands.Group, name="titan-admin", description="Organise this channel's TITAN game"
):
    """Organisers replace or remove players, abort games and export their records."""

    @command(None, "Give a player's seat to a substitute")
    @app_commands.describe(player="who leaves the seat", substitute="who takes it over")
    async def replace(
        self, interaction: TitanInteraction, player: discord.User, substitute: discord.User
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        receipt = f"replace {clean(player.display_name) or player.id}"
        replies = await replace_player(
            interaction.client.service,
            place_of(interaction),
            organiser_of(interaction),
            player.id,
            substitute.id,
            interaction.client.reference(interaction, "command", receipt),
        )
        await deliver_command(interaction, replies, receipt)

    @command(None, "Remove a player (they withdraw from the game)")
    @app_commands.describe(player="who leaves the game")
    async def remove(self, interaction: TitanInteraction, player: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        receipt = f"remove {clean(player.display_name) or player.id}"
        reply_to = interaction.client.reference(interaction, "command", receipt)
        replies = await remove_player(
            service, place_of(interaction), organiser_of(interaction), player.id, reply_to
        )
        await deliver_command(interaction, replies, receipt)

    @command("cancel", "Abort this channel's game, started or not")
    @app_commands.describe(game="a damaged game's number (default: the channel's game)")
    async def abort(
        self, interaction: TitanInteraction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        reply_to = interaction.client.reference(interaction, "command", "abort")
        replies = await abort_game(
            service, place_of(interaction), organiser_of(interaction), game, reply_to
        )
        await deliver_command(interaction, replies, "abort")

    @command("settings", "Change this channel's game's clock (announced in the channel)")
    @app_commands.describe(**CLOCK_OPTIONS)
    async def settings(
        self,
        interaction: TitanInteraction,
        deadline: app_commands.Range[str, 2, 16] | None = None,
        timeout: Literal["ai", "pass", "pause"] | None = None,
        standin: Literal["easy", "normal", "hard"] | None = None,
        remind: app_commands.Range[str, 1, 40] | None = None,
        before: app_commands.Range[str, 2, 16] | None = None,
    ) -> None:
        await run_command(
            interaction, s.SETTINGS, organiser=True,
            deadline=deadline, timeout=timeout, standin=standin, remind=remind, before=before,
        )  # fmt: skip

    @command("force", "End the wait for the awaited player now, as the deadline would")
    async def force(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.FORCE, organiser=True)

    @command("games", "Every open game of this server, the stalled first (only you)")
    async def games(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.GAMES, organiser=True)

    @command("export", "Export this channel's game record as a file (only you)")
    @app_commands.describe(game="the game's number (default: the channel's latest game)")
    async def export(
        self, interaction: TitanInteraction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        replies = await export_game(service, place_of(interaction), organiser_of(interaction), game)
        await deliver_command(interaction, replies, "export")
