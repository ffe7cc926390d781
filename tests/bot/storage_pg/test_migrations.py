"""The PostgreSQL migrations on a real server: from empty to the latest, idempotent, the
same tables and columns as SQLite's, and 64-bit Discord ids kept whole."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from bot.storage.database import Database
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_dialect import POSTGRES_MIGRATIONS
from bot.storage.postgres import SchemaTooNew, migrate, schema_version

Columns = dict[str, dict[str, str]]

# What each SQLite declared type became.
TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}

BIG = 2**63 - 1  # the largest 64-bit id
SNOWFLAKE = 2**62 + 123_456_789  # a Discord id past 2**62
AI = -3  # the computer's seats have negative user ids


async def sqlite_columns(path: Path) -> Columns:
    database = await Database.open(path)
    try:
        async with database.reading() as connection:
            tables = await (
                await connection.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'"
                )
            ).fetchall()
            found: Columns = {}
            for (table,) in tables:
                rows = await (await connection.execute(f"PRAGMA table_info({table})")).fetchall()
                found[table] = {row[1]: row[2] for row in rows}
            return found
    finally:
        await database.close()


async def postgres_columns(connection: asyncpg.Connection) -> Columns:
    rows = await connection.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
    )
    found: Columns = {}
    for row in rows:
        found.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
    return found


async def test_the_migrations_apply_from_empty_to_the_latest(pg_dsn: str) -> None:
    assert await migrate(pg_dsn) == len(MIGRATIONS)
    connection = await asyncpg.connect(pg_dsn)
    try:
        assert await schema_version(connection) == len(MIGRATIONS)
    finally:
        await connection.close()


async def test_migrating_again_changes_nothing(pg_dsn: str) -> None:
    await migrate(pg_dsn)
    connection = await asyncpg.connect(pg_dsn)
    try:
        await connection.execute("INSERT INTO users (id) VALUES ($1)", SNOWFLAKE)
        before = await postgres_columns(connection)
        assert await migrate(pg_dsn) == len(MIGRATIONS)
        assert await postgres_columns(connection) == before
        assert await connection.fetchval("SELECT count(*) FROM users") == 1
    finally:
        await connection.close()


async def test_a_database_newer_than_the_code_is_refused(pg_dsn: str) -> None:
    await migrate(pg_dsn)
    with pytest.raises(SchemaTooNew, match=f"newer than this titanbot's \\({len(MIGRATIONS) - 1}"):
        await migrate(pg_dsn, POSTGRES_MIGRATIONS[:-1])


async def test_the_tables_and_columns_are_sqlites(pg_dsn: str, tmp_path: Path) -> None:
    sqlite = await sqlite_columns(tmp_path / "games.sqlite3")
    await migrate(pg_dsn)
    connection = await asyncpg.connect(pg_dsn)
    try:
        postgres = await postgres_columns(connection)
    finally:
        await connection.close()
    assert set(postgres) == set(sqlite)
    for table, columns in sqlite.items():
        assert set(postgres[table]) == set(columns), table
        assert postgres[table] == {name: TYPES[kind] for name, kind in columns.items()}, table


async def test_games_seats_and_actions_keep_64_bit_and_negative_ids(pg_dsn: str) -> None:
    await migrate(pg_dsn)
    connection = await asyncpg.connect(pg_dsn)
    try:
        game = await connection.fetchval(
            "INSERT INTO games (channel, guild, status, settings, created_at, updated_at)"
            " VALUES ($1, $2, 'lobby', '{}', 'now', 'now') RETURNING id",
            BIG,
            SNOWFLAKE,
        )
        await connection.executemany("INSERT INTO users (id) VALUES ($1)", [(SNOWFLAKE,), (AI,)])
        await connection.executemany(
            'INSERT INTO seats (game, seat, "user", name) VALUES ($1, $2, $3, $4)',
            [(game, 0, SNOWFLAKE, "Ann"), (game, 1, AI, "Computer")],
        )
        await connection.execute(
            "INSERT INTO actions (game, n, seat, action, events, created_at, turn, cause)"
            " VALUES ($1, 1, 1, '{\"type\": \"Split\"}', '[]', 'now', 0, 'ai')",
            game,
        )
        where = await connection.fetchrow("SELECT channel, guild FROM games WHERE id = $1", game)
        assert where is not None and tuple(where) == (BIG, SNOWFLAKE)
        seats = await connection.fetch(
            'SELECT seat, "user", name FROM seats WHERE game = $1 ORDER BY seat', game
        )
        assert [tuple(row) for row in seats] == [(0, SNOWFLAKE, "Ann"), (1, AI, "Computer")]
        action = await connection.fetchrow("SELECT seat, action, cause FROM actions")
        assert action is not None and tuple(action) == (1, '{"type": "Split"}', "ai")
    finally:
        await connection.close()


async def test_a_channel_holds_one_open_game(pg_dsn: str) -> None:
    await migrate(pg_dsn)
    connection = await asyncpg.connect(pg_dsn)
    insert = (
        "INSERT INTO games (channel, status, settings, created_at, updated_at)"
        " VALUES ($1, $2, '{}', 'now', 'now')"
    )
    try:
        await connection.execute(insert, SNOWFLAKE, "over")
        await connection.execute(insert, SNOWFLAKE, "active")
        with pytest.raises(asyncpg.UniqueViolationError):
            await connection.execute(insert, SNOWFLAKE, "lobby")
    finally:
        await connection.close()


async def test_migration_3_numbers_the_turn_of_actions_logged_before_it(pg_dsn: str) -> None:
    await migrate(pg_dsn, POSTGRES_MIGRATIONS[:2])
    connection = await asyncpg.connect(pg_dsn)
    try:
        game = await connection.fetchval(
            "INSERT INTO games (channel, status, settings, created_at, updated_at)"
            " VALUES (1, 'active', '{}', 'now', 'now') RETURNING id"
        )
        events = [
            '[{"type": "ColourChosen"}]',
            '[{"type": "Moved"}, {"type": "TurnStarted", "number": 1}]',
            "[]",
            '[{"type": "TurnStarted", "number": 2}]',
            "[]",
        ]
        await connection.executemany(
            "INSERT INTO actions (game, n, seat, action, events, created_at)"
            " VALUES ($1, $2, 0, '{}', $3, 'now')",
            [(game, n, text) for n, text in enumerate(events, start=1)],
        )
        assert await migrate(pg_dsn) == len(MIGRATIONS)
        turns = await connection.fetch("SELECT n, turn FROM actions ORDER BY n")
        assert [tuple(row) for row in turns] == [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2)]
    finally:
        await connection.close()


async def test_two_processes_migrating_at_once_apply_each_migration_once(pg_dsn: str) -> None:
    versions = await asyncio.gather(migrate(pg_dsn), migrate(pg_dsn), migrate(pg_dsn))
    assert versions == [len(MIGRATIONS)] * 3


async def test_migration_12_keeps_the_entrants_and_keys_them_by_user_alone(pg_dsn: str) -> None:
    await migrate(pg_dsn, POSTGRES_MIGRATIONS[:11])
    connection = await asyncpg.connect(pg_dsn)
    try:
        tournament = await connection.fetchval(
            "INSERT INTO tournaments (name, status, settings, seed, channel, created_at)"
            " VALUES ('Old', 'signup', '{}', 5, 7, 'now') RETURNING id"
        )
        add = 'INSERT INTO entrants (tournament, "user", name, joined) VALUES ($1, $2, $3, $4)'
        await connection.execute(add, tournament, SNOWFLAKE, "Ann", 1)
        with pytest.raises(asyncpg.UniqueViolationError):
            await connection.execute(add, tournament, BIG, "Ann", 2)
        assert await migrate(pg_dsn) == len(MIGRATIONS)
        await connection.execute(add, tournament, BIG, "Ann", 2)
        with pytest.raises(asyncpg.UniqueViolationError):
            await connection.execute(add, tournament, BIG, "Bob", 3)
        rows = await connection.fetch(
            'SELECT "user", name, joined FROM entrants WHERE tournament = $1 ORDER BY joined',
            tournament,
        )
        assert [tuple(r) for r in rows] == [(SNOWFLAKE, "Ann", 1), (BIG, "Ann", 2)]
    finally:
        await connection.close()


async def test_migration_18_names_the_autostrike_of_those_who_turned_it_on(pg_dsn: str) -> None:
    await migrate(pg_dsn, POSTGRES_MIGRATIONS[:17])
    connection = await asyncpg.connect(pg_dsn)
    try:
        add = "INSERT INTO users (id, autostrike) VALUES ($1, $2)"
        await connection.execute(add, SNOWFLAKE, 1)
        await connection.execute(add, BIG, 0)
        assert await migrate(pg_dsn) == len(MIGRATIONS)
        rows = await connection.fetch("SELECT id, autostrike FROM users ORDER BY id")
        assert [tuple(r) for r in rows] == [(SNOWFLAKE, "forced"), (BIG, "off")]
        await connection.execute("UPDATE users SET autostrike = 'all' WHERE id = $1", BIG)
        with pytest.raises(asyncpg.CheckViolationError):
            await connection.execute("UPDATE users SET autostrike = 'on' WHERE id = $1", BIG)
    finally:
        await connection.close()


async def test_migration_19_gives_everyone_fighton_off_and_takes_only_0_or_1(pg_dsn: str) -> None:
    await migrate(pg_dsn, POSTGRES_MIGRATIONS[:18])
    connection = await asyncpg.connect(pg_dsn)
    try:
        await connection.execute(
            "INSERT INTO users (id, autostrike) VALUES ($1, 'all'), ($2, 'off')", SNOWFLAKE, BIG
        )
        assert await migrate(pg_dsn) == len(MIGRATIONS)
        rows = await connection.fetch("SELECT id, autostrike, fighton FROM users ORDER BY id")
        assert [tuple(r) for r in rows] == [(SNOWFLAKE, "all", 0), (BIG, "off", 0)]
        await connection.execute("UPDATE users SET fighton = 1 WHERE id = $1", BIG)
        with pytest.raises(asyncpg.CheckViolationError):
            await connection.execute("UPDATE users SET fighton = 2 WHERE id = $1", BIG)
    finally:
        await connection.close()
