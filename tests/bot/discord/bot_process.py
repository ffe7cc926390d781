"""A bot in a process of its own, against a fake Discord run by the test that started it.

    python -m tests.bot.discord.bot_process REST_BASE GATEWAY TOKEN DATABASE

Used to kill the bot for real (SIGKILL) at a moment a test chooses, and start it again.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import discord
import yarl

from bot.config import NO_LIMITS, Config
from bot.discord import TitanBot
from tests.bot.discord.conftest import SEED, tiny_png


async def run(base: str, gateway: str, token: str, database: str) -> None:
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    config = Config(token=token, database=Path(database), limits=NO_LIMITS)
    bot = TitanBot(config, renderer=tiny_png, seeds=lambda: SEED, guild_ready_timeout=0.05)
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    asyncio.run(run(*sys.argv[1:5]))
