"""What a PostgreSQL database says of its own schema: tables, columns, identity sequences
and foreign keys, read from its catalog (never from a list kept here), for the copy from
SQLite (:mod:`bot.storage.transfer`) and ``check-db`` (:mod:`bot.records.check`).

Everything is looked up in the connection's current schema.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from bot.storage.backends import shown

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server before it counts as unreachable."""


class Unreachable(Exception):
    """The PostgreSQL server cannot be reached, or refuses the connection."""


def quoted(name: str) -> str:
    """``name`` as an SQL identifier (``user`` is a reserved word in PostgreSQL)."""
    return '"' + name.replace('"', '""') + '"'


async def connect(dsn: str) -> asyncpg.Connection:
    """A connection to ``dsn``; :class:`Unreachable` (naming it without its password)
    when the server is down, the database missing or the login refused."""
    try:
        return await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        reason = str(exc).replace(dsn, shown(dsn)) or type(exc).__name__
        raise Unreachable(f"cannot reach the database {shown(dsn)}: {reason}") from exc


async def table_columns(connection: asyncpg.Connection, table: str) -> list[str]:
    """The columns of ``table`` in their order (none when there is no such table)."""
    rows = await connection.fetch(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [str(row[0]) for row in rows]


async def table_exists(connection: asyncpg.Connection, table: str) -> bool:
    return bool(await connection.fetchval("SELECT to_regclass($1) IS NOT NULL", quoted(table)))


@dataclass(frozen=True)
class Identity:
    """A column the database numbers (``GENERATED … AS IDENTITY``) and its sequence."""

    table: str
    column: str
    sequence: str
    """The sequence's name as the catalog gives it, fit for ``::regclass``."""


async def identity_columns(connection: asyncpg.Connection) -> list[Identity]:
    """Every identity column of the schema, by table."""
    rows = await connection.fetch(
        "SELECT table_name, column_name,"
        " pg_get_serial_sequence(quote_ident(table_name), column_name)"
        " FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        " ORDER BY table_name, column_name"
    )
    return [Identity(str(r[0]), str(r[1]), str(r[2])) for r in rows if r[2] is not None]


async def next_value(connection: asyncpg.Connection, identity: Identity) -> int:
    """The value the identity's sequence gives next (read without taking it)."""
    row = await connection.fetchrow(
        f"SELECT last_value, is_called FROM {identity.sequence}"  # a name from the catalog
    )
    assert row is not None
    step = await connection.fetchval(
        "SELECT seqincrement FROM pg_sequence WHERE seqrelid = $1::regclass", identity.sequence
    )
    return int(row[0]) + (int(step or 1) if row[1] else 0)


async def largest(connection: asyncpg.Connection, identity: Identity) -> int | None:
    """The largest value of the identity column (None in an empty table)."""
    value = await connection.fetchval(
        f"SELECT max({quoted(identity.column)}) FROM {quoted(identity.table)}"
    )
    return None if value is None else int(value)


async def advance(connection: asyncpg.Connection, identity: Identity) -> int:
    """Set the identity's sequence so that it next gives a value above every stored one
    (1 in an empty table, or one holding only values below 1); return that value."""
    top = await largest(connection, identity)
    if top is None or top < 1:
        await connection.execute("SELECT setval($1::regclass, 1, false)", identity.sequence)
        return 1
    await connection.execute("SELECT setval($1::regclass, $2, true)", identity.sequence, top)
    return top + 1


@dataclass(frozen=True)
class ForeignKey:
    """A foreign key constraint: ``table (columns)`` refers to ``parent (keys)``."""

    name: str
    table: str
    columns: tuple[str, ...]
    parent: str
    keys: tuple[str, ...]


async def foreign_keys(connection: asyncpg.Connection) -> list[ForeignKey]:
    """Every foreign key of the schema's tables, by table and name."""
    rows = await connection.fetch(
        """
        SELECT c.conname, t.relname, p.relname,
               array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                     ORDER BY k.i),
               array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n
                     ORDER BY k.i)
        FROM pg_constraint c
        JOIN pg_class t ON t.oid = c.conrelid
        JOIN pg_class p ON p.oid = c.confrelid
        WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
        ORDER BY t.relname, c.conname
        """
    )
    return [ForeignKey(str(r[0]), str(r[1]), tuple(r[3]), str(r[2]), tuple(r[4])) for r in rows]


async def orphans(connection: asyncpg.Connection, key: ForeignKey) -> int:
    """The rows of ``key``'s table whose reference finds no parent row (as SQLite's
    ``foreign_key_check``: a row with a NULL in the reference refers to nothing)."""
    present = " AND ".join(f"c.{quoted(column)} IS NOT NULL" for column in key.columns)
    joined = " AND ".join(
        f"p.{quoted(parent)} = c.{quoted(column)}"
        for column, parent in zip(key.columns, key.keys, strict=True)
    )
    count = await connection.fetchval(
        f"SELECT count(*) FROM {quoted(key.table)} AS c WHERE {present}"
        f" AND NOT EXISTS (SELECT 1 FROM {quoted(key.parent)} AS p WHERE {joined})"
    )
    return int(count)


async def unvalidated(connection: asyncpg.Connection) -> list[tuple[str, str]]:
    """The constraints (table, name) added without checking the rows already there
    (``NOT VALID``), which the database therefore does not vouch for."""
    rows = await connection.fetch(
        "SELECT t.relname, c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid"
        " WHERE NOT c.convalidated AND c.connamespace = current_schema()::regnamespace"
        " ORDER BY t.relname, c.conname"
    )
    return [(str(r[0]), str(r[1])) for r in rows]
