"""Steps the Discord tests share: run a command and wait for the bot, open a game."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.outbox.deliverer import WORKER_NAME
from tests.bot.discord.fake import FakeDiscord, Pushed, Sent

ANN = 700_000_000_000_000_011
BOB = 700_000_000_000_000_012
CAROL = 700_000_000_000_000_013


async def settle(fake: FakeDiscord, quiet: float = 0.05, timeout: float = 5.0) -> None:
    """Wait until the bot has sent nothing for ``quiet`` seconds (bounded)."""
    deadline = time.monotonic() + timeout

    def calm() -> bool:
        last = fake.requests[-1].at if fake.requests else 0.0
        return time.monotonic() - last >= quiet or time.monotonic() > deadline

    await fake.wait_for(calm, timeout + 1)


#: discord.py's names for the tasks running interactions and events, and the outbox's.
HANDLERS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord.py: on_", WORKER_NAME)


def bot_busy() -> bool:
    """Whether the bot is still handling an interaction or an event."""
    return any(t.get_name().startswith(HANDLERS) for t in asyncio.all_tasks() if not t.done())


async def handled(fake: FakeDiscord, pushed: Pushed) -> Pushed:
    """Wait until ``pushed`` is acknowledged and the bot has finished handling it."""
    await fake.wait_for(lambda: pushed.ack is not None and not bot_busy())
    return pushed


async def command(fake: FakeDiscord, user: int, *path: str, **options: Any) -> Pushed:
    """Run a slash command and wait until the bot is done with it."""
    return await handled(fake, await fake.slash(user, *path, **options))


async def click(fake: FakeDiscord, user: int, message: Sent, custom_id: str) -> Pushed:
    """Click a button and wait until the bot is done with it."""
    return await handled(fake, await fake.click(user, message, custom_id))


async def open_game(fake: FakeDiscord) -> Sent:
    """Ann opens a two-player game, Bob joins, Ann starts: the start's public message."""
    await command(fake, ANN, "titan", "lobby", "new", players=2)
    await command(fake, BOB, "titan", "lobby", "join")
    started = await command(fake, ANN, "titan", "lobby", "start")
    [news] = fake.public(started)
    return news


def button(message: Sent, verb: str) -> str:
    """The custom id of ``message``'s button for ``verb``."""
    return next(c for c in message.custom_ids() if c.split(":")[2] == verb)
