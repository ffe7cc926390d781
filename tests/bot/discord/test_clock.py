"""Deadlines on Discord: a reminder arrives by DM (or pings in the channel when DMs are
closed), status shows the clock as Discord timestamps, and a passed deadline is told."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime

import pytest

from bot.schedule.clock import ManualClock
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import mistakes, start_bot
from tests.bot.discord.helpers import ANN, BOB, CAROL, command, settle

HOUR = 3600.0
STAMP = re.compile(r"<t:(\d+):R>")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())


@pytest.fixture
async def timed(fake, tmp_path, clock):
    running = await start_bot(fake, tmp_path / "games.sqlite3", wall_clock=clock)
    try:
        yield running
    finally:
        await running.stop()
    assert mistakes(fake) == []


async def open_timed_game(fake) -> int:
    """A two-player game with a 4-hour clock; the user the game first waits for."""
    await command(fake, ANN, "titan", "new", players=2, deadline="4h", timeout="pass")
    await command(fake, BOB, "titan", "join")
    started = await command(fake, ANN, "titan", "start")
    [news] = fake.public(started)
    return news.notified[0]


async def until(fake, probe, clock_note: str, seconds: float = 30.0) -> None:
    """Wait for ``probe`` to hold (a busy machine may take a while to deliver)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.01)  # a quiet fake settles at once: let the bot's tasks run
        await settle(fake)
        if probe():
            return
    raise AssertionError(f"nothing came: {clock_note}")


async def test_a_reminder_arrives_by_dm_and_status_shows_the_clock(fake, timed, clock):
    awaited = await open_timed_game(fake)
    asked = await command(fake, BOB, "titan", "status")
    [answer] = fake.sent_for(asked)
    stamps = [int(s) for s in STAMP.findall(answer.content)]
    assert answer.ephemeral and "On the clock" in answer.content
    assert "(then the least is played)" in answer.content  # the game's timeout, in words
    assert stamps == [int(clock.now()), int(clock.now() + 4 * HOUR)]  # since, deadline
    clock.advance(2 * HOUR)  # halfway
    await until(fake, lambda: fake.dms_to(awaited), "the halfway reminder")
    [dm] = fake.dms_to(awaited)
    assert "waits for you" in dm.content and f"<#{p.CHANNEL_ID}>" in dm.content
    assert [int(s) for s in STAMP.findall(dm.content)] == stamps[1:]  # the deadline


async def test_without_dms_a_reminder_pings_in_the_channel(fake, timed, clock):
    awaited = await open_timed_game(fake)
    await command(fake, awaited, "titan", "dms", choice="off")
    clock.advance(2 * HOUR)
    await until(
        fake,
        lambda: any("waits for you" in m.content for m in fake.in_channel(p.CHANNEL_ID)),
        "the reminder in the channel",
    )
    [ping] = [m for m in fake.in_channel(p.CHANNEL_ID) if "waits for you" in m.content]
    assert ping.notified == (awaited,)


async def test_a_passed_deadline_is_told_in_the_channel(fake, timed, clock):
    awaited = await open_timed_game(fake)
    clock.advance(5 * HOUR)
    told = lambda: [m for m in fake.in_channel(p.CHANNEL_ID) if "deadline passed" in m.content]  # noqa: E731
    await until(fake, told, "the timeout")
    [news] = told()
    assert "the least the rules allow is played" in news.content
    assert news.notified and awaited not in news.notified  # the next player is pinged


async def test_an_organiser_ends_the_wait_and_the_deadline_passes_at_once(fake, timed, clock):
    awaited = await open_timed_game(fake)
    asked = await command(fake, BOB, "titan", "status")  # a player's view: on the clock
    assert "On the clock" in fake.sent_for(asked)[0].content
    forced = await command(fake, CAROL, "titan-admin", "force", permissions=p.ORGANISER)
    [news] = fake.public(forced)
    assert "⏩ Organiser **" in news.content and "their deadline passes now" in news.content
    told = lambda: [m for m in fake.in_channel(p.CHANNEL_ID) if "deadline passed" in m.content]  # noqa: E731
    await until(fake, told, "the forced timeout")  # no time passes on the test's clock
    [passed] = told()
    assert "the least the rules allow is played" in passed.content
    assert passed.notified and awaited not in passed.notified  # the next player is pinged


async def test_an_organiser_lists_the_servers_games_the_stalled_first(fake, timed, clock):
    await command(fake, ANN, "titan", "new", players=2, deadline="4h", timeout="pause")
    await command(fake, BOB, "titan", "join")
    [news] = fake.public(await command(fake, ANN, "titan", "start"))
    awaited = news.notified[0]
    clock.advance(5 * HOUR)  # past the deadline, which pauses the game: it is stalled
    listed = await command(fake, CAROL, "titan-admin", "games", permissions=p.ORGANISER)
    [answer] = fake.ephemeral(listed)
    head, line = answer.content.splitlines()
    assert head == "1 open game on this server; ⚠️ 1 stalled:"
    assert line.startswith(f"- <#{p.CHANNEL_ID}> game #1 (") and "waits for **" in line
    assert fake.public(listed) == [] and awaited not in answer.notified
