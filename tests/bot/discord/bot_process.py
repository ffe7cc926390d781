"""A bot in a process of its own, against a fake Discord run by the test that started it.

    python -m tests.bot.discord.bot_process REST_BASE GATEWAY TOKEN DATABASE [COUNT IDS]

DATABASE is a SQLite file or a ``postgresql://`` URL; COUNT and IDS (``0,1``), when given,
are the shards in all and those this process runs. The bot logs on stderr, at the level
``BOT_PROCESS_LOG`` names (WARNING unless set: a test that reads no stderr does not fill
the pipe; one that reads the "ready" line sets INFO).

Used to kill the bot for real (SIGKILL) at a moment a test chooses, and start it again,
and to run a sharded bot as several processes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import discord
import yarl

from bot.config import NO_LIMITS, Config
from bot.discord import TitanBot
from bot.storage.backends import as_target
from tests.bot.discord.standins import SEED, tiny_png


async def run(
    base: str, gateway: str, token: str, database: str, count: str = "", ids: str = ""
) -> None:
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    shard_ids = tuple(int(i) for i in ids.split(",")) if ids else None
    config = Config(
        token=token,
        database=as_target(database),
        limits=NO_LIMITS,
        shard_count=int(count) if count else None,
        shard_ids=shard_ids,
    )
    bot = TitanBot(config, renderer=tiny_png, seeds=lambda: SEED, guild_ready_timeout=0.05)
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    # Ctrl-C stops it cleanly, as in a shell: started by a pytest-xdist worker, the process
    # inherits SIGINT ignored, and Python would then never raise KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    level = os.environ.get("BOT_PROCESS_LOG", "WARNING")
    logging.basicConfig(level=level, stream=sys.stderr, format="%(name)s: %(message)s")
    asyncio.run(run(*sys.argv[1:7]))
