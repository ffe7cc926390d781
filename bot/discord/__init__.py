"""The Discord side of titanbot: slash commands, buttons and DMs over the game service.

:class:`~bot.discord.client.TitanBot` is the bot; :func:`run_bot` runs it from the
configuration. Everything here is thin: commands become lines of the shared command
language for :class:`~bot.service.GameService`, whose replies are sent back.

May import: anything of the bot (it is a transport, the top layer) and discord.py; nothing
imports it but the ``titanbot`` command.
"""

from bot.discord.client import TitanBot, run_bot

__all__ = ["TitanBot", "run_bot"]
