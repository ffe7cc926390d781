"""The migrated databases the PostgreSQL tests use again (tests/pg_reuse.py): given back
empty and as the template is, or not at all."""

from __future__ import annotations

import asyncpg

from bot.storage.backends import open_database
from bot.storage.games import create_game
from tests.conftest import TEMPLATE, _drop_database, _new_database
from tests.pg import Server
from tests.pg_reuse import emptied, schema_digest


async def test_a_used_database_is_emptied_to_what_a_fresh_copy_is(pg_server: Server) -> None:
    template = await schema_digest(pg_server.dsn(TEMPLATE))
    name = await _new_database(pg_server, TEMPLATE)
    fresh = await _new_database(pg_server, TEMPLATE)
    try:
        dsn = pg_server.dsn(name)
        db = await open_database(dsn)
        async with db.transaction() as connection:
            first = await create_game(connection, 1, None, {})
            await create_game(connection, 2, None, {})
        lingering = await asyncpg.connect(dsn)  # a test's connection left open
        await lingering.execute("BEGIN; LOCK TABLE games")
        assert await emptied(dsn, template)
        assert lingering.is_closed() or not await _alive(lingering)
        await db.close()
        db = await open_database(dsn)
        async with db.transaction() as connection:
            assert await create_game(connection, 3, None, {}) == first  # counted anew
        await db.close()
        assert await schema_digest(dsn) == await schema_digest(pg_server.dsn(fresh)) == template
    finally:
        await _drop_database(pg_server, name)
        await _drop_database(pg_server, fresh)


async def _alive(connection: asyncpg.Connection) -> bool:
    try:
        await connection.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        return False
    return True


async def test_a_database_whose_schema_changed_is_not_used_again(pg_server: Server) -> None:
    template = await schema_digest(pg_server.dsn(TEMPLATE))
    changes = (
        "ALTER TABLE games DROP COLUMN damaged",
        "UPDATE schema_version SET version = version - 1",
        "REVOKE INSERT ON actions FROM PUBLIC; GRANT SELECT ON actions TO PUBLIC",
        "CREATE INDEX games_extra ON games (channel, status)",
        "CREATE TABLE extra (x INTEGER)",
    )
    for change in changes:
        name = await _new_database(pg_server, TEMPLATE)
        try:
            connection = await asyncpg.connect(pg_server.dsn(name))
            await connection.execute(change)
            await connection.close()
            assert not await emptied(pg_server.dsn(name), template), change
        finally:
            await _drop_database(pg_server, name)
