"""``/turn``: a player's turn on the masterboard — colour, split, roll, move, muster.

Ending a phase is ``/done`` (:mod:`bot.discord.commands.done`), as in a battle.
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.leaf import command
from bot.discord.commands.options import CONFIRM
from bot.discord.host import TitanInteraction
from bot.discord.runner import completer, run_command


@app_commands.guild_only()
class TurnCommands(
    app_commands.Group, name="turn", description="Your turn: colour, split, roll, move, muster"
):
    """A player's turn on the masterboard (RULES §3, §4, §6)."""

    @command("colour", "Take a colour (at the start of the game)")
    @app_commands.describe(colour="a colour nobody has taken")
    @app_commands.autocomplete(colour=completer(s.COLOUR, "colour"))
    async def colour(self, interaction: TitanInteraction, colour: str) -> None:
        await run_command(interaction, s.COLOUR, colour=colour)

    @command("split", "Split characters off a legion into a new one")
    @app_commands.describe(
        legion="the legion to split",
        characters="the characters that leave, e.g. Ogre Ogre Gargoyle",
        marker="the new legion's marker (default: your first free one)",
    )
    @app_commands.autocomplete(
        legion=completer(s.SPLIT, "legion"),
        characters=completer(s.SPLIT, "characters"),
        marker=completer(s.SPLIT, "marker"),
    )
    async def split(
        self, interaction: TitanInteraction, legion: str, characters: str, marker: str | None = None
    ) -> None:
        await run_command(interaction, s.SPLIT, legion=legion, characters=characters, marker=marker)

    @command("unsplit", "Put a legion split off this turn back")
    @app_commands.describe(legion="the legion split off")
    @app_commands.autocomplete(legion=completer(s.UNSPLIT, "legion"))
    async def unsplit(self, interaction: TitanInteraction, legion: str) -> None:
        await run_command(interaction, s.UNSPLIT, legion=legion)

    @command("roll", "End the split phase and roll the movement die")
    @app_commands.describe(confirm=CONFIRM)
    async def roll(self, interaction: TitanInteraction, confirm: bool = False) -> None:
        await run_command(interaction, s.ROLL, confirm=confirm)

    @command("mulligan", "Reroll the movement die (first turn only)")
    async def mulligan(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.MULLIGAN)

    @command("move", "Move a legion (choices: the moves your roll allows)")
    @app_commands.describe(
        legion="the legion to move",
        land="the land to move to",
        side="the side a battle is entered from, when there is a choice",
        teleport="teleport from a tower, or by your Titan",
        lord="the lord a teleport reveals",
    )
    @app_commands.autocomplete(
        legion=completer(s.MOVE, "legion"),
        land=completer(s.MOVE, "land"),
        side=completer(s.MOVE, "side"),
        lord=completer(s.MOVE, "lord"),
    )
    async def move(
        self,
        interaction: TitanInteraction,
        legion: str,
        land: str,
        side: str | None = None,
        teleport: Literal["tower", "titan"] | None = None,
        lord: str | None = None,
    ) -> None:
        await run_command(
            interaction, s.MOVE, legion=legion, land=land, side=side, teleport=teleport, lord=lord
        )

    @command("takeback", "Take back a legion's move (and every later one)")
    @app_commands.describe(legion="the legion whose move to take back")
    @app_commands.autocomplete(legion=completer(s.TAKEBACK, "legion"))
    async def takeback(self, interaction: TitanInteraction, legion: str) -> None:
        await run_command(interaction, s.TAKEBACK, legion=legion)

    @command("muster", "Muster a character into a legion that moved")
    @app_commands.describe(legion="the legion that musters", recruit="the character it musters")
    @app_commands.autocomplete(
        legion=completer(s.MUSTER, "legion"), recruit=completer(s.MUSTER, "recruit")
    )
    async def muster(self, interaction: TitanInteraction, legion: str, recruit: str) -> None:
        await run_command(interaction, s.MUSTER, legion=legion, recruit=recruit)
