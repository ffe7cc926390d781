"""Snapshots carry a checksum verified on load: an altered one is ignored with a warning
and the true state is replayed; those from before checksums are never trusted."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import Database, Status
from bot.storage import games as rows
from bot.storage.checksum import checksum_holds, snapshot_checksum
from bot.storage.migrations import MIGRATIONS
from bot.storage.record import decode_state, full_replay
from tests.bot.agent import open_game, step
from tests.bot.tampering import edit_snapshot, execute, give_score, query

CHANNEL = 5
AGENT = 3


async def played(service, count: int) -> None:
    await open_game(service, CHANNEL, 2)
    for _ in range(count):
        await step(service, CHANNEL, AGENT)


async def replayed(service):
    game = await service.game_in(CHANNEL)
    async with service.db.reading() as db:
        return game, await full_replay(db, game.row)


async def test_every_snapshot_is_stored_with_its_checksum(service, db_target):
    await played(service, 21)
    stored = query(db_target, "SELECT game, n, state, checksum FROM snapshots ORDER BY n")
    assert [n for _, n, _, _ in stored] == [0, 10, 20]
    assert all(checksum == snapshot_checksum(g, n, s) for g, n, s, checksum in stored)


async def test_an_altered_snapshot_is_ignored_with_a_warning_and_the_true_state_loads(
    service, db_target, caplog
):
    await played(service, 25)
    truth = (await service.game_in(CHANNEL)).state
    edit_snapshot(db_target, 1, 20, give_score(400))
    [(altered,)] = query(db_target, "SELECT state FROM snapshots WHERE n = 20")
    assert decode_state(altered).players[0].score == 400 != truth.players[0].score
    service.forget()
    with caplog.at_level(logging.WARNING, logger="bot.storage.record"):
        game, replay = await replayed(service)
    assert game.state == truth == replay and game.n == 25
    [warning] = caplog.records
    assert "game 1: the snapshot after action 20 fails its checksum" in warning.getMessage()
    assert query(db_target, "SELECT damaged FROM games") == [(None,)]  # the log is intact
    await step(service, CHANNEL, AGENT)  # and the game goes on


async def test_several_altered_snapshots_fall_back_to_the_seed(service, db_target, caplog):
    await played(service, 23)
    truth = (await service.game_in(CHANNEL)).state
    for n in (0, 10, 20):
        edit_snapshot(db_target, 1, n, give_score(400))
    service.forget()
    with caplog.at_level(logging.WARNING, logger="bot.storage.record"):
        game, replay = await replayed(service)
    assert game.state == truth == replay
    assert len(caplog.records) == 3


async def test_snapshots_from_before_checksums_are_never_trusted(service, db_target, caplog):
    await played(service, 25)
    truth = (await service.game_in(CHANNEL)).state
    edit_snapshot(db_target, 1, 20, give_score(400))
    execute(db_target, "UPDATE snapshots SET checksum = NULL")
    service.forget()
    with caplog.at_level(logging.WARNING, logger="bot.storage.record"):
        game, _ = await replayed(service)
    assert game.state == truth and caplog.records == []  # quietly replayed from the seed
    for _ in range(5):
        await step(service, CHANNEL, AGENT)
    [(n, state, checksum)] = query(
        db_target, "SELECT n, state, checksum FROM snapshots WHERE n > 25"
    )
    assert n == 30 and checksum_holds(1, n, state, checksum)


@given(
    game=st.integers(1, 10**6),
    n=st.integers(0, 10**5),
    state=st.text(max_size=60),
    other=st.text(max_size=60),
    shift=st.integers(1, 50),
)
def test_the_checksum_binds_game_count_and_state(game, n, state, other, shift):
    checksum = snapshot_checksum(game, n, state)
    assert checksum_holds(game, n, state, checksum)
    assert not checksum_holds(game, n, state, None)
    assert not checksum_holds(game + shift, n, state, checksum)
    assert not checksum_holds(game, n + shift, state, checksum)
    assert checksum_holds(game, n, other, checksum) == (other == state)


async def test_migration_2_frees_the_channel_of_a_damaged_game(db_path):
    old = await Database.open(db_path, migrations=MIGRATIONS[:1])
    async with old.transaction() as db:
        await db.execute(
            "INSERT INTO games (channel, status, settings, created_at, updated_at)"
            " VALUES (7, 'active', '{\"host\": 1}', 'then', 'then')"
        )
        await db.execute("INSERT INTO snapshots (game, n, state) VALUES (1, 0, '{}')")
    await old.close()
    database = await Database.open(db_path)
    try:
        assert await database.user_version() == len(MIGRATIONS)
        async with database.reading() as db:
            row = await rows.open_game(db, 7)
            [snapshot] = await rows.snapshots(db, 1)
        assert row is not None and row.damaged is None and snapshot.checksum is None
        async with database.transaction() as db:
            assert await rows.mark_damaged(db, 1, "action 1 cannot be read")
            assert not await rows.mark_damaged(db, 1, "another reason")  # the first stays
            await rows.create_game(db, 7, None, {"host": 2})  # the channel is free again
        async with database.reading() as db:
            fresh = await rows.open_game(db, 7)
            damaged = await rows.damaged_game(db, 7)
        assert fresh is not None and fresh.id == 2 and fresh.status is Status.LOBBY
        assert damaged is not None and damaged.id == 1
        assert damaged.damaged == "action 1 cannot be read"
        with pytest.raises(sqlite3.IntegrityError):  # still one open game per channel
            async with database.transaction() as db:
                await rows.create_game(db, 7, None, {"host": 3})
    finally:
        await database.close()


async def test_a_sound_snapshot_that_cannot_be_decoded_falls_back_to_an_earlier_one(
    service, db_target, caplog
):
    await played(service, 25)
    truth = (await service.game_in(CHANNEL)).state
    unreadable = '{"written": "by another version"}'
    execute(
        db_target,
        "UPDATE snapshots SET state = ?, checksum = ? WHERE n = 20",
        unreadable,
        snapshot_checksum(1, 20, unreadable),
    )
    service.forget()
    with caplog.at_level(logging.WARNING, logger="bot.storage.record"):
        game, _ = await replayed(service)
    assert game.state == truth and game.n == 25
    [warning] = caplog.records
    assert "game 1: snapshot 20 cannot be decoded: replaying from an earlier one" in (
        warning.getMessage()
    )
