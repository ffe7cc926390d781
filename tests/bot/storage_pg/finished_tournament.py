"""A small finished tournament on SQLite, built through the service: six computer
entrants, one heat of two 3-player tables played to the end, plus a casual game left
active half-way and a lobby (every kind of row the migration copies)."""

from __future__ import annotations

import asyncio
import itertools
import shutil
from pathlib import Path

from bot.context import Caller, Place
from bot.service import GameService
from bot.storage import Database
from bot.storage import tournaments as store
from tests.bot.agent import caller, open_game, step

DESK = Place(5)
ORGANISER = Caller(300_000_000_000_000_001, "Org", organiser=True)
NAME = "Spring"
PLAYING = 600.0
"""Seconds a game of computers may take to play itself out (a busy machine)."""
CASUAL, LOBBY, AGENT = 7, 8, 4


async def play_out(service: GameService, channel: int) -> None:
    """The table's game of computers plays on by itself, with no command, to its end."""
    await asyncio.wait_for(service.ai.idle([channel]), PLAYING)
    assert await service.game_in(channel) is None, f"the game in {channel} did not end"


async def build(path: Path) -> None:
    """The tournament, the casual games and their news, stored at ``path``."""
    seeds = itertools.count(100)
    database = await Database.open(path, synchronous="OFF")  # no fsync: many AI actions
    service = GameService(database, seeds=lambda: next(seeds), snapshot_every=10)
    try:
        for text in (
            f"tournament create {NAME} players 3-3 heats 1",
            f"tournament add {NAME} ai 6",
            f"tournament close {NAME}",
            f"tournament heat {NAME}",
        ):
            replies = await service.submit(DESK, ORGANISER, text)
            assert not replies.error, (text, replies.ephemeral)
        await service.tables.idle()
        async with service.db.reading() as db:
            found = await store.named(db, None, NAME)
            assert found is not None
            tables = await store.tables(db, found.id)
        for table in tables:
            assert table.channel is not None
            await play_out(service, table.channel)
        await open_game(service, CASUAL, 3)
        for _ in range(25):
            await step(service, CASUAL, AGENT)
        assert not (await service.submit(Place(LOBBY), caller(LOBBY, 0), "new")).error
    finally:
        await service.close()


def copy_of(built: Path, folder: Path) -> Path:
    """A copy of the built file in ``folder`` (a test may change it or hold its lock)."""
    path = folder / built.name
    shutil.copyfile(built, path)
    return path


def built_in(folder: Path) -> Path:
    path = folder / "tournament.sqlite3"
    asyncio.run(build(path))
    return path
