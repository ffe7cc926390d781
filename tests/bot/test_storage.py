"""Storage: migrations tracked by user_version, WAL, foreign keys, atomic transactions."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Database, SeatRow, Status, dms
from bot.storage import games as rows
from bot.storage.migrations import MIGRATIONS


async def test_a_new_database_is_migrated_in_wal_with_foreign_keys(db_path):
    db = await Database.open(db_path)
    try:
        assert await db.user_version() == len(MIGRATIONS)
        async with db.reading() as conn:
            async with conn.execute("PRAGMA journal_mode") as cursor:
                assert (await cursor.fetchone())[0] == "wal"
            async with conn.execute("PRAGMA foreign_keys") as cursor:
                assert (await cursor.fetchone())[0] == 1
            async with conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            ) as cursor:
                tables = [row[0] async for row in cursor]
        assert tables == [
            "actions", "clocks", "due", "entrants", "games", "lapses", "leases", "outbox",
            "places", "ratings", "results", "seats", "secret_readers", "snapshots", "tables",
            "tournament_log",
            "tournaments", "users",
        ]  # fmt: skip
    finally:
        await db.close()


async def test_reopening_runs_no_migration_twice(db_path):
    for _ in range(2):
        db = await Database.open(db_path)
        assert await db.user_version() == len(MIGRATIONS)
        await db.close()


async def test_migrations_apply_in_order_from_the_stored_version(db_path):
    first = await Database.open(db_path, migrations=MIGRATIONS[:1])
    await first.close()
    extra = "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
    db = await Database.open(db_path, migrations=(*MIGRATIONS[:1], extra))
    try:
        assert await db.user_version() == 2
    finally:
        await db.close()
    names = sqlite3.connect(db_path).execute("SELECT name FROM sqlite_master").fetchall()
    assert ("notes",) in names


async def test_a_failing_migration_changes_nothing(db_path):
    db = await Database.open(db_path)
    await db.close()
    broken = "CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);"
    with pytest.raises(Exception, match="no_such_table"):
        await Database.open(db_path, migrations=(*MIGRATIONS, broken))
    connection = sqlite3.connect(db_path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert connection.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchall() == []


async def test_a_database_newer_than_the_program_is_refused(db_path):
    connection = sqlite3.connect(db_path)
    connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    connection.close()
    with pytest.raises(RuntimeError, match="newer than this program"):
        await Database.open(db_path)


async def test_a_failed_transaction_is_rolled_back(db_path):
    db = await Database.open(db_path)
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await rows.create_game(conn, 10, None, {"host": 1})
                raise RuntimeError("crash inside the transaction")
        async with db.reading() as conn:
            assert await rows.open_game(conn, 10) is None
            assert await rows.count_games(conn) == 0
    finally:
        await db.close()


async def test_constraints_hold(db_path):
    db = await Database.open(db_path)
    try:
        async with db.transaction() as conn:
            game = await rows.create_game(conn, 10, 5, {"host": 1})
            await rows.set_seats(conn, game, [SeatRow(0, 1, "Ann"), SeatRow(1, 2, "Bob")])
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await rows.create_game(conn, 10, 5, {"host": 3})  # one open game per channel
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await rows.set_seats(conn, 999, [SeatRow(0, 1, "Ann")])  # no such game
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await rows.append_action(conn, game, 1, 0, "{}", "[]")
                await rows.append_action(conn, game, 1, 0, "{}", "[]")  # the log is append-only
        async with db.transaction() as conn:
            await rows.update_game(conn, game, Status.OVER)
            assert await rows.action_count(conn, game) == 0
            other = await rows.create_game(conn, 10, 5, {"host": 3})  # the channel is free
        async with db.reading() as conn:
            found = await rows.open_game(conn, 10)
            assert found is not None and found.id == other and found.status is Status.LOBBY
            assert [s.name for s in await rows.seats(conn, game)] == ["Ann", "Bob"]
    finally:
        await db.close()


async def test_action_log_and_snapshots(db_path):
    db = await Database.open(db_path)
    try:
        async with db.transaction() as conn:
            game = await rows.create_game(conn, 1, None, {"host": 1})
            for n in range(1, 6):
                await rows.append_action(conn, game, n, n % 2, f'{{"n": {n}}}', "[]")
            await rows.save_snapshot(conn, game, 0, "zero")
            await rows.save_snapshot(conn, game, 4, "four")
        async with db.reading() as conn:
            assert [r.n for r in await rows.actions(conn, game, after=2)] == [3, 4, 5]
            assert [r.n for r in await rows.last_actions(conn, game, 2)] == [4, 5]
            assert await rows.latest_snapshot(conn, game) == (4, "four")
            assert await rows.action_count(conn, game) == 5
    finally:
        await db.close()


async def test_dms_closed_flags(db_path):
    db = await Database.open(db_path)
    try:
        async with db.transaction() as conn:
            await dms.set_dms_closed(conn, 7, True)
            await dms.set_dms_closed(conn, 8, True)
            await dms.set_dms_closed(conn, 8, False)
        async with db.reading() as conn:
            assert await dms.users_with_dms_closed(conn, [7, 8, 9]) == {7}
            assert await dms.users_with_dms_closed(conn, []) == set()
    finally:
        await db.close()
