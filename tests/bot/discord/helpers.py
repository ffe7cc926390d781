"""Steps the Discord tests share: run a command and wait for the bot, open a game."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
from discord import app_commands

from bot.discord.commands import top_level_commands
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


def busy_tasks() -> list[asyncio.Task[Any]]:
    """The bot's tasks still handling an interaction or an event, or delivering."""
    return [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(HANDLERS)]


async def handled(fake: FakeDiscord, pushed: Pushed, timeout: float = 60.0) -> Pushed:
    """Wait until ``pushed`` is acknowledged and the bot has finished handling it: until
    none of its handling tasks is left (each awaited as it ends, those it starts too)."""
    deadline = time.monotonic() + timeout
    await fake.wait_for(lambda: pushed.ack is not None, timeout)
    while busy := busy_tasks():
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the bot was still busy after {timeout} s: {busy}")
        await asyncio.wait(busy, timeout=left)
    return pushed


async def command(fake: FakeDiscord, user: int, *path: str, **options: Any) -> Pushed:
    """Run a slash command and wait until the bot is done with it."""
    return await handled(fake, await fake.slash(user, *path, **options))


async def click(fake: FakeDiscord, user: int, message: Sent, custom_id: str) -> Pushed:
    """Click a button and wait until the bot is done with it."""
    return await handled(fake, await fake.click(user, message, custom_id))


async def open_game(fake: FakeDiscord) -> Sent:
    """Ann opens a two-player game, Bob joins, Ann starts: the start's public message."""
    await command(fake, ANN, "titan", "new", players=2)
    await command(fake, BOB, "titan", "join")
    started = await command(fake, ANN, "titan", "start")
    [news] = fake.public(started)
    return news


def button(message: Sent, verb: str) -> str:
    """The custom id of ``message``'s button for ``verb``."""
    return next(c for c in message.custom_ids() if c.split(":")[2] == verb)


def registered(fake: FakeDiscord) -> dict[str, int]:
    """The ids the fake gave the top-level commands at the last sync, by name."""
    puts = fake.paths("PUT", r"applications/\d+/(guilds/\d+/)?commands$")
    assert puts, "the bot synced no commands"
    return {c["name"]: int(c["id"]) for c in puts[-1].answer}


def slash(fake: FakeDiscord, name: str) -> str:
    """How a message names the slash command ``name`` (``"turn move"``): its mention."""
    return f"</{name}:{registered(fake)[name.split()[0]]}>"


def bot_tree() -> app_commands.CommandTree[Any]:
    """A tree holding the bot's commands, as :meth:`TitanBot.setup_hook` builds it
    (offline: no client logs in)."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    for command in top_level_commands():
        tree.add_command(command)
    return tree
