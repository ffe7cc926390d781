"""The application commands: ``/titan …`` for everyone, ``/titan-admin …`` for organisers."""

from __future__ import annotations

from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.battle import BattleCommands
from bot.discord.commands.engagement import EngagementCommands
from bot.discord.commands.info import GameCommands, InfoCommands
from bot.discord.commands.lobby import LobbyCommands
from bot.discord.commands.organiser import OrganiserCommands
from bot.discord.commands.turn import TurnCommands
from bot.discord.host import TitanInteraction
from bot.discord.runner import run_command


@app_commands.guild_only()
class TitanCommands(app_commands.Group, name="titan", description="Play TITAN in this channel"):
    """Every player command, grouped by when it is used."""

    def __init__(self) -> None:
        super().__init__()
        for group in (
            LobbyCommands(),
            TurnCommands(),
            EngagementCommands(),
            BattleCommands(),
            GameCommands(),
            InfoCommands(),
        ):
            self.add_command(group)

    @app_commands.command(description="Your legions (only you see them)")
    async def legions(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEGIONS)


def command_groups() -> list[app_commands.Group]:
    """Fresh instances of the top-level groups, for one command tree."""
    return [TitanCommands(), OrganiserCommands()]


__all__ = ["OrganiserCommands", "TitanCommands", "command_groups"]
