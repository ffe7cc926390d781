"""The PostgreSQL backend (asyncpg): so far, its migrations.

The schema is SQLite's (:mod:`bot.storage.migrations`), in PostgreSQL's form
(:mod:`bot.storage.pg_dialect`). Where SQLite keeps ``PRAGMA user_version``, PostgreSQL
keeps a one-row ``schema_version`` table; each migration runs in its own transaction with
the version it brings, so a migration is stored whole or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.storage.pg_dialect import POSTGRES_MIGRATIONS

# The lock every migrating process takes (a transaction-scoped advisory lock), so two
# processes starting at once apply each migration once.
_MIGRATION_LOCK = 0x7174_616E  # "qtan"

_VERSION_TABLE = """
    CREATE TABLE IF NOT EXISTS schema_version (
        only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
        version  BIGINT  NOT NULL CHECK (version >= 0)
    );
    INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING;
"""


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer titanbot than this one."""


async def schema_version(connection: asyncpg.Connection) -> int:
    """The number of the last migration applied (0 for a database never migrated)."""
    exists = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT version FROM schema_version"))


async def migrate(dsn: str, migrations: Sequence[str] = POSTGRES_MIGRATIONS) -> int:
    """Apply the migrations the database at ``dsn`` has not had yet, in order; return its
    version. Raises :class:`SchemaTooNew` when it is past the last one known here."""
    connection = await asyncpg.connect(dsn)
    try:
        return await migrate_connection(connection, migrations)
    finally:
        await connection.close()


async def migrate_connection(
    connection: asyncpg.Connection, migrations: Sequence[str] = POSTGRES_MIGRATIONS
) -> int:
    """:func:`migrate` on an open connection."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await connection.execute(_VERSION_TABLE)
    version = await schema_version(connection)
    if version > len(migrations):
        raise SchemaTooNew(
            f"database schema version {version} is newer than this titanbot's ({len(migrations)})"
        )
    for number in range(version + 1, len(migrations) + 1):
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            # Another process may have applied it while this one waited for the lock.
            if await connection.fetchval("SELECT version FROM schema_version") >= number:
                continue
            await connection.execute(migrations[number - 1])
            await connection.execute("UPDATE schema_version SET version = $1", number)
    return await schema_version(connection)
