"""``/titan lobby``: open a game in this channel, take seats (AI seats too), start or cancel it."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord import specs as s
from bot.discord.host import TitanInteraction
from bot.discord.runner import run_command
from bot.names import clean

ADD_AI = s.Spec("addai", (s.Word("name", many=True),))
"""``/titan lobby ai``: the lobby's ``addai`` command."""


class LobbyCommands(app_commands.Group, name="lobby", description="Open, join and start a game"):
    """The lobby: a game is formed in the channel, then started by its host."""

    @app_commands.command(description="Open a game of TITAN in this channel (you are the host)")
    @app_commands.describe(
        players="the most players (2 to 6; default 6)",
        record_keeping="players may see what each legion was seen to hold",
        time_limit="play with the agreed time limit (errata 21.1)",
    )
    async def new(
        self,
        interaction: TitanInteraction,
        players: app_commands.Range[int, 2, 6] | None = None,
        record_keeping: bool = False,
        time_limit: bool = False,
    ) -> None:
        await run_command(
            interaction,
            s.NEW,
            players=players,
            record_keeping=record_keeping,
            time_limit=time_limit,
        )

    @app_commands.command(description="Take a seat in the game being formed here")
    @app_commands.describe(name="the name shown in the game (default: your display name)")
    async def join(self, interaction: TitanInteraction, name: str | None = None) -> None:
        await run_command(interaction, s.JOIN, name=name)

    @app_commands.command(description="Give up your seat before the start")
    async def leave(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEAVE)

    @app_commands.command(name="add", description="Invite another user to a seat (the host)")
    @app_commands.describe(user="the user to invite", name="their name in the game")
    async def add_seat(
        self, interaction: TitanInteraction, user: discord.User, name: str | None = None
    ) -> None:
        name = name or clean(user.display_name) or None  # None: the lobby's "Player N"
        await run_command(interaction, s.ADD, user=f"<@{user.id}>", name=name)

    @app_commands.command(name="ai", description="Seat an AI player (the host)")
    @app_commands.describe(name="its name in the game (default: Bot 1, Bot 2, …)")
    async def add_ai(self, interaction: TitanInteraction, name: str | None = None) -> None:
        await run_command(interaction, ADD_AI, name=name)

    @app_commands.command(description="Start the game (the host; two seats or more)")
    async def start(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.START)

    @app_commands.command(description="Cancel this channel's game, started or not (the host)")
    async def cancel(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.CANCEL)
