"""``titanbot run``: the configured token, default intents, and a clean exit on refusal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import discord

from bot.cli import main

PATIENCE = 120.0
"""Seconds a step may take before the test fails (a bound against a hang, not a speed
target: a busy machine may take long to import, migrate and connect)."""


@contextlib.asynccontextmanager
async def titanbot_run(
    fake, monkeypatch, tmp_path, token: str
) -> AsyncIterator[asyncio.Future[int]]:
    """``titanbot run`` in a worker thread (its own event loop), root logging restored; a
    run the test left going (it failed) is stopped as Discord would, so its thread ends."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TITANBOT_TOKEN", token)
    monkeypatch.setenv("TITANBOT_DATABASE", str(tmp_path / "games.sqlite3"))
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    running = asyncio.ensure_future(asyncio.to_thread(main, ["run"]))
    try:
        yield running
    finally:
        if not running.done():
            with contextlib.suppress(Exception):
                await fake.drop(4004)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(running, PATIENCE)
        root.handlers[:] = handlers
        root.setLevel(level)


async def test_run_logs_in_with_the_configured_token_and_default_intents(
    fake, monkeypatch, tmp_path
):
    async with titanbot_run(fake, monkeypatch, tmp_path, fake.token) as running:
        await fake.wait_for(lambda: fake.identified, timeout=PATIENCE)
        [identify] = fake.identified
        assert identify["intents"] == discord.Intents.default().value
        await fake.drop(4004)  # Discord ends the session: the bot stops
        assert await asyncio.wait_for(running, PATIENCE) == 1


async def test_run_exits_when_discord_refuses_the_token(fake, monkeypatch, tmp_path):
    async with titanbot_run(fake, monkeypatch, tmp_path, "not-the-token") as running:
        assert await asyncio.wait_for(running, PATIENCE) == 1
    [login] = fake.paths("GET", r"users/@me$")
    assert login.status == 401


async def test_run_says_when_discord_requires_more_shards(fake, monkeypatch, tmp_path, caplog):
    fake.gate.most_guilds = 0  # as for a bot in more servers than one shard may carry
    monkeypatch.setenv("TITANBOT_SHARD_COUNT", "1")
    async with titanbot_run(fake, monkeypatch, tmp_path, fake.token) as running:
        assert await asyncio.wait_for(running, PATIENCE) == 1
    assert fake.gate.closed == [((0, 1), 4011)]
    assert any("Discord requires more shards" in r.getMessage() for r in caplog.records)
