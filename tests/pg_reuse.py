"""Migrated PostgreSQL databases used again from test to test, emptied in between.

Copying the migrated template for each test (``CREATE DATABASE … TEMPLATE``) takes a
quarter of a second; emptying a database a test is done with takes a tenth of that. A
database goes back to its worker's pool only when it is again exactly what a copy of the
template would be: no one else connected to it (the test's connections and processes are
cut off first, as ``DROP DATABASE … WITH (FORCE)`` would), its schema — tables, columns,
constraints, indexes, sequences, functions, triggers, privileges — and its schema version
the template's, every table emptied and every identity counter started again. A test
that changed anything of that (damaged a table, moved the version, revoked a right) has
its database dropped, and the next test gets a fresh copy.
"""

from __future__ import annotations

import asyncpg

SCHEMA = """
SELECT md5(string_agg(part, E'\\n' ORDER BY part)) FROM (
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' '
           || is_nullable || ' ' || coalesce(column_default, '') || ' '
           || coalesce(is_identity, '') AS part
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' '
           || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT 'relation ' || relname || ' ' || relkind::text || ' ' || coalesce(relacl::text, '')
           || ' ' || relowner::regrole::text
      FROM pg_class WHERE relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'function ' || proname || ' ' || md5(prosrc)
      FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname
      FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'schema ' || nspname || ' ' || coalesce(nspacl::text, '') || ' '
           || nspowner::regrole::text
      FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
    UNION ALL
    SELECT 'database ' || coalesce(datacl::text, '') || ' ' || datdba::regrole::text
      FROM pg_database WHERE datname = current_database()
    UNION ALL
    SELECT 'extension ' || extname || ' ' || extversion FROM pg_extension
    UNION ALL
    SELECT 'version ' || version FROM schema_version
) AS parts
"""
"""One digest of everything of a database but its rows."""

_TABLES = """
SELECT string_agg(quote_ident(tablename), ', ' ORDER BY tablename) FROM pg_tables
 WHERE schemaname = 'public' AND tablename <> 'schema_version'
"""
_OTHERS = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid()
"""


async def schema_digest(dsn: str) -> str:
    """The digest of ``dsn``'s schema (:data:`SCHEMA`)."""
    connection = await asyncpg.connect(dsn)
    try:
        return str(await connection.fetchval(SCHEMA))
    finally:
        await connection.close()


async def emptied(dsn: str, template_digest: str) -> bool:
    """Empty the database at ``dsn`` for the next test, if its schema is still the
    template's (``template_digest``): whether it may be used again (see the module)."""
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(_OTHERS)
        if await connection.fetchval(SCHEMA) != template_digest:
            return False
        tables = await connection.fetchval(_TABLES)
        await connection.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        return True
    except asyncpg.PostgresError:
        return False
    finally:
        await connection.close()
