"""``/done``: end your phase or step, or pass a chance — the command a game needs most.

One command for every "I am done", as the command language has one ``done``: the split,
movement and muster phases, a battle's maneuvers and strikes, a chance to concede, summon
or reinforce (the service reads it from the game's state).
"""

from __future__ import annotations

from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.leaf import Leaf, command
from bot.discord.commands.options import CONFIRM
from bot.discord.host import TitanInteraction
from bot.discord.runner import run_command


def done_command() -> Leaf:
    """A fresh ``/done`` command, for one command tree."""

    @command("done", "End your phase or step (split, move, maneuver, strike, muster), or pass")
    @app_commands.guild_only()
    @app_commands.describe(
        keep="the markers to keep where split legions meet again", confirm=CONFIRM
    )
    async def done(
        interaction: TitanInteraction, keep: str | None = None, confirm: bool = False
    ) -> None:
        await run_command(interaction, s.DONE, keep=keep, confirm=confirm)

    return done
