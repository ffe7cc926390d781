"""``/titan info``: the board, the battle, the status, history and look-ups (only you see
the answers)."""

from __future__ import annotations

from discord import app_commands

from bot.discord import specs as s
from bot.discord.host import TitanInteraction
from bot.discord.runner import run_command
from engine.characters import CHARACTERS


async def _creatures(interaction: TitanInteraction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().casefold()
    names = [name for name in sorted(CHARACTERS) if name.casefold().startswith(typed)]
    return [app_commands.Choice(name=name, value=name) for name in names[:25]]


class InfoCommands(app_commands.Group, name="info", description="Boards, status and look-ups"):
    """Information: it changes nothing and only the caller sees it."""

    @app_commands.command(description="The masterboard and the legions you may see")
    async def board(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BOARD)

    @app_commands.command(description="The battle being fought in this channel")
    async def battle(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BATTLE)

    @app_commands.command(description="Turn, phase, scores and who must act")
    async def status(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.STATUS)

    @app_commands.command(description="The last things that happened")
    @app_commands.describe(count="how many actions (default 10, at most 50)")
    async def history(
        self, interaction: TitanInteraction, count: app_commands.Range[int, 1, 50] | None = None
    ) -> None:
        await run_command(interaction, s.HISTORY, count=count)

    @app_commands.command(description="Every command you may give now")
    async def legal(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEGAL)

    @app_commands.command(description="A character's factors and where it is mustered")
    @app_commands.autocomplete(name=_creatures)
    async def creature(self, interaction: TitanInteraction, name: str) -> None:
        await run_command(interaction, s.CREATURE, name=name)

    @app_commands.command(description="A land: its terrain, exits, recruits and legions")
    async def land(
        self, interaction: TitanInteraction, number: app_commands.Range[int, 1, 999]
    ) -> None:
        await run_command(interaction, s.LAND, number=number)

    @app_commands.command(description="The command language, as the console reads it")
    async def help(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.HELP)


class GameCommands(app_commands.Group, name="game", description="The whole game"):
    """Leaving the game, and the agreed time limit."""

    @app_commands.command(description="Concede the whole game (RULES §12.4)")
    async def withdraw(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.WITHDRAW)

    @app_commands.command(description="Declare the agreed time limit expired (errata 21.1)")
    async def expire(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.EXPIRE)
