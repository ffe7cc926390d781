"""Whole games through the service and SQLite, with a restart in the middle."""

from __future__ import annotations

import asyncio
import sqlite3

from bot.service import GameService
from bot.storage import Status
from bot.storage import games as rows
from bot.storage.record import full_replay, load_game
from tests.bot.agent import open_game, play, step

CHANNEL = 3
SEED = 7
AGENT = 11
LIMIT = 5_000


async def fresh(path, snapshot_every=10) -> GameService:
    return await GameService.open(path, seeds=lambda: SEED, snapshot_every=snapshot_every)


def log_of(path):
    connection = sqlite3.connect(path)
    try:
        query = "SELECT n, seat, action, events FROM actions ORDER BY n"
        return connection.execute(query).fetchall()
    finally:
        connection.close()


async def final_state(service: GameService, game_id: int):
    async with service.db.reading() as db:
        row = await rows.game(db, game_id)
        assert row is not None
        loaded = await load_game(db, row)
        replayed = await full_replay(db, row)
    assert loaded.state == replayed
    return row, loaded


async def test_a_whole_game_with_a_restart_matches_one_without(tmp_path):
    straight = await fresh(tmp_path / "straight.sqlite3")
    await open_game(straight, CHANNEL, 3)
    game_id = (await straight.game_in(CHANNEL)).id
    total = await play(straight, CHANNEL, AGENT, LIMIT)
    assert total < LIMIT, "the game should end"
    row, expected = await final_state(straight, game_id)
    assert row.status is Status.OVER and expected.state.result is not None
    await straight.close()

    path = tmp_path / "restarted.sqlite3"
    first = await fresh(path)
    await open_game(first, CHANNEL, 3)
    for _ in range(total // 2):
        await step(first, CHANNEL, AGENT)
    await first.close()
    second = await fresh(path)
    resumed = await second.game_in(CHANNEL)
    assert resumed is not None and resumed.n > 0
    assert await play(second, CHANNEL, AGENT, LIMIT) == total - total // 2
    _, outcome = await final_state(second, game_id)
    await second.close()
    assert outcome.state == expected.state
    assert log_of(path) == log_of(tmp_path / "straight.sqlite3")


async def test_every_snapshot_loads_the_same_state_as_a_full_replay(tmp_path):
    service = await fresh(tmp_path / "g.sqlite3", snapshot_every=3)
    await open_game(service, CHANNEL, 2)
    for count in range(1, 61):
        await step(service, CHANNEL, AGENT)
        if count % 7 == 0:
            cached = await service.game_in(CHANNEL)
            async with service.db.reading() as db:
                row = await rows.open_game(db, CHANNEL)
                loaded = await load_game(db, row)
                replayed = await full_replay(db, row)
            assert loaded.n == cached.n == count
            assert loaded.state == replayed == cached.state
    snapshots = sqlite3.connect(tmp_path / "g.sqlite3").execute("SELECT n FROM snapshots")
    assert [n for (n,) in snapshots] == list(range(0, 61, 3))
    await service.close()


async def test_games_in_many_channels_run_side_by_side(tmp_path):
    service = await fresh(tmp_path / "many.sqlite3")
    channels = list(range(20, 28))
    for channel in channels:
        await open_game(service, channel, 2 + channel % 5)

    async def run(channel):
        for _ in range(40):
            await step(service, channel, channel)

    await asyncio.gather(*(run(c) for c in channels))
    service.forget()
    for channel in channels:
        game = await service.game_in(channel)
        async with service.db.reading() as db:
            assert game.state == await full_replay(db, game.row)
        assert game.n == 40 or game.row.status is Status.OVER
    await service.close()
