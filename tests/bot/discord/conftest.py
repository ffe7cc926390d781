"""Fixtures: nothing reaches Discord; a fake Discord; the real bot running against it; a
throwaway PostgreSQL database for the bot processes that share one (``pg_dsn``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import yarl

from bot.config import NO_LIMITS, Config
from bot.discord import TitanBot
from bot.pictures import Renderer
from bot.schedule.clock import Clock
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.standins import SEED, tiny_png

# The PostgreSQL tests' fixtures, for the bot processes that share one database:

START_TIMEOUT = 60.0


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch, offline: None) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord that discord.py talks to."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway)
    )
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A plain discord.py client (no bot, no games) connected to the fake and ready: what
    the fake's own tests drive it with."""
    plain = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = asyncio.create_task(plain.start(fake.token))
    await asyncio.wait_for(plain.wait_until_ready(), START_TIMEOUT)
    try:
        yield plain
    finally:
        await plain.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, START_TIMEOUT)


class Running:
    """The bot running against the fake, in a task of the test's event loop."""

    def __init__(self, bot: TitanBot, task: asyncio.Task[None]) -> None:
        self.bot = bot
        self.task = task

    async def stop(self) -> None:
        await self.bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, START_TIMEOUT)


async def start_bot(
    fake: FakeDiscord,
    database: Path,
    seed: int = SEED,
    renderer: Renderer = tiny_png,
    wall_clock: Clock | None = None,
    **config: object,
) -> Running:
    """Start a :class:`TitanBot` on ``database`` and wait until it is ready (every game it
    starts has the seed ``seed``, so each test plays the same games every time). The bot
    runs without limits unless ``limits`` is given: tests play faster than people."""
    config.setdefault("limits", NO_LIMITS)
    settings = Config(token=fake.token, database=database, **config)  # type: ignore[arg-type]
    bot = TitanBot(
        settings,
        renderer=renderer,
        wall_clock=wall_clock,
        seeds=lambda: seed,
        guild_ready_timeout=0.05,
    )
    task = asyncio.create_task(bot.start(fake.token))
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=START_TIMEOUT, return_when="FIRST_COMPLETED"
    )
    if ready not in done:
        ready.cancel()
        await bot.close()
        if task in done:
            task.result()
        raise AssertionError("the bot did not get ready")
    return Running(bot, task)


def mistakes(fake: FakeDiscord) -> list[str]:
    """The bot's requests the fake refused, except closed DMs (which the bot expects), the
    refusals a test asked for (rate limits, server errors, other DM refusals) and a rate
    limit bucket's 429s (Discord does not announce every limit); and every request that
    came before a 429's ``retry_after`` was over."""
    found = [
        f"{r.method} {r.path}: {r.status} {r.answer}"
        for r in fake.rejected
        if not r.injected
        and not r.paced
        and not (r.status == 403 and r.answer.get("code") == 50007)
    ]
    found += [f"{b.violations} requests within a 429's wait ({b.name})" for b in fake.buckets
              if b.violations]  # fmt: skip
    return found


@pytest.fixture
async def titan(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Running]:
    """The bot, started and ready, over a fresh database; stopped after the test, which
    fails if the bot made a request the fake refused (late or double acknowledgement,
    an unknown route, a file too large, a limit of Discord broken)."""
    running = await start_bot(fake, tmp_path / "games.sqlite3")
    try:
        yield running
    finally:
        await running.stop()
    assert mistakes(fake) == []
