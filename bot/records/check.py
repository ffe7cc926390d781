"""``titanbot check-db``: the whole database file checked, without changing it.

SQLite's own ``integrity_check`` and ``foreign_key_check``, then every game through
:func:`~bot.records.verify.verify` (its log replayed from the seed, every snapshot and
its checksum against the replay, seats and status), then every row of every other table
through :func:`~bot.records.check_rows.check_rows` (each value read as the bot reads it,
each reference to a game, seat, tournament or entrant found, the ratings rebuilt from the
results). The file is opened read-only under
the same lock the bot holds, so the check refuses while a bot runs on the file (a
running bot may be half-way through a command, and caches what it loaded) and no bot
starts during the check. A file older than this program is checked through a migrated
copy in a temporary folder; the file itself stays as it is.

A PostgreSQL database (a ``postgresql://`` target) is checked in one read-only
transaction: its schema version against this program's migrations, then its own
guarantees (every sequence numbering new rows ahead of the ids stored, every foreign key
finding its row, no constraint left unvalidated), then the same per-game checks as a file.

A game found damaged and then aborted by an organiser is known damage: its problems are
still listed (as "known") but do not fail the check.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol

import asyncpg

from bot.records.check_rows import UNREADABLE, check_rows
from bot.records.verify import fetch_record, verify
from bot.storage import Database, Status
from bot.storage import games as rows
from bot.storage import pg_catalog as catalog
from bot.storage.backends import Target, is_postgres, shown
from bot.storage.connection import Connection
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_connection import IDENTITY_TABLES, PgConnection
from bot.storage.pg_dialect import POSTGRES_MIGRATIONS
from bot.storage.postgres import schema_version
from engine.words import plural


@dataclass
class CheckReport:
    """What the check found: one plain line per problem, and counts for the summary."""

    path: Target
    problems: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    snapshots: int = 0
    without_checksum: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        games = sum(self.statuses.values())
        kinds = ", ".join(f"{count} {status}" for status, count in sorted(self.statuses.items()))
        head = (
            f"{shown(self.path)}: {games} game{'s' if games != 1 else ''}"
            + (f" ({kinds})" if kinds else "")
            + f", {plural(self.actions, 'action')}, {plural(self.snapshots, 'snapshot')}"
        )
        if self.without_checksum:
            head += f" ({self.without_checksum} from before checksums, checked by replay)"
        if self.known:
            known = len(self.known)
            head += f"; {known} known problem{'s' if known != 1 else ''} of aborted damaged games"
        if self.ok:
            return head + ": all is well."
        count = len(self.problems)
        return head + f": {count} problem{'s' if count != 1 else ''}."


async def check_database(target: Target) -> CheckReport:
    """Check the database at ``target``; raises ``FileNotFoundError`` without a file,
    :class:`~bot.storage.lock.DatabaseInUse` while another process has it, and
    :class:`~bot.storage.pg_catalog.Unreachable` when PostgreSQL cannot be reached."""
    if is_postgres(target):
        return await check_postgres(str(target))
    path = Path(target)
    report = CheckReport(path)
    database = await Database.open_read_only(path)
    try:
        await _check_sqlite(database, report)
        version = await database.user_version()
        if version > len(MIGRATIONS):
            report.problems.append(
                f"the database is at version {version}, newer than this program "
                f"({len(MIGRATIONS)}): upgrade titanbot to check it"
            )
            return report
        if version == len(MIGRATIONS):
            await _check_games(database, report)
            return report
        report.notes.append(
            f"the database is at version {version}; titanbot brings it to version "
            f"{len(MIGRATIONS)} when it next opens it (checked through a migrated copy)"
        )
        with tempfile.TemporaryDirectory(prefix="titanbot-check-") as folder:
            copy = Path(folder) / path.name
            await database.copy_to(copy)
            migrated = await Database.open(copy)
            try:
                await _check_games(migrated, report)
            finally:
                await migrated.close()
    finally:
        await database.close()
    return report


async def _check_sqlite(database: Database, report: CheckReport) -> None:
    integrity = await database.pragma("integrity_check")
    if integrity != [("ok",)]:
        report.problems += [f"SQLite: {row[0]}" for row in integrity]
    for table, rowid, parent, _ in await database.pragma("foreign_key_check"):
        which = f"row {rowid}" if rowid is not None else "a row"  # None: WITHOUT ROWID
        report.problems.append(f"SQLite: {which} of {table} refers to a missing {parent} row")


async def check_postgres(dsn: str) -> CheckReport:
    """Check the PostgreSQL database at ``dsn`` (see the module), changing nothing."""
    report = CheckReport(dsn)
    connection = await catalog.connect(dsn)
    try:
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            version, current = await schema_version(connection), len(POSTGRES_MIGRATIONS)
            if version != current:
                report.problems.append(_version_problem(version, current))
                return report
            await _check_postgres_schema(connection, report)
            await _check_games(_Savepoints(connection), report)
    finally:
        await connection.close()
    return report


def _version_problem(version: int, current: int) -> str:
    if version == 0:
        return (
            f"PostgreSQL: the database is not migrated (version 0 of {current}): titanbot "
            "migrates it when it first opens it, `titanbot migrate` when it copies a file in"
        )
    if version < current:
        return (
            f"PostgreSQL: the database is at version {version}, behind this program's "
            f"{current}: titanbot migrates it when it next opens it; its games are checked then"
        )
    return (
        f"PostgreSQL: the database is at version {version}, newer than this program "
        f"({current}): upgrade titanbot to check it"
    )


async def _check_postgres_schema(connection: asyncpg.Connection, report: CheckReport) -> None:
    """PostgreSQL's side of SQLite's integrity and foreign key checks."""
    for identity in await catalog.identity_columns(connection):
        if identity.table not in IDENTITY_TABLES:
            continue  # ids always given (a user's is Discord's): the sequence is never used
        top = await catalog.largest(connection, identity)
        following = await catalog.next_value(connection, identity)
        if top is not None and following <= top:
            report.problems.append(
                f"PostgreSQL: the sequence of {identity.table}.{identity.column} would give "
                f"{following} next, but the largest stored is {top}: a new row would collide"
            )
    for key in await catalog.foreign_keys(connection):
        count = await catalog.orphans(connection, key)
        if count:
            which = "a row" if count == 1 else f"{count} rows"
            report.problems.append(
                f"PostgreSQL: {which} of {key.table} refer{'s' if count == 1 else ''} "
                f"to a missing {key.parent} row ({key.name})"
            )
    for table, name in await catalog.unvalidated(connection):
        report.problems.append(
            f"PostgreSQL: the constraint {name} of {table} was never checked against its rows"
        )


class Reader(Protocol):
    """Where the games are read: a database, or the check's PostgreSQL transaction."""

    def reading(self) -> AbstractAsyncContextManager[Connection]: ...


class _Savepoints:
    """Reads inside the check's read-only transaction, each game's in a savepoint of its
    own: a game whose rows cannot be read leaves the others checkable."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = PgConnection(connection)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        async with self._connection.raw.transaction():
            yield self._connection


async def _check_games(database: Reader, report: CheckReport) -> None:
    """Every game against its replay, then every other table's rows (read first: what
    they hold tells which games an organiser adjudicated)."""
    async with database.reading() as db:
        ids = await rows.game_ids(db)
        others, known = await check_rows(db)
    statuses = {status.value for status in Status}
    aborted: set[int] = set()
    for game_id in ids:
        if known.statuses.get(game_id) not in statuses:
            report.statuses["unreadable"] += 1  # its status is named among the rows
            continue
        try:
            async with database.reading() as db:
                row = await rows.game(db, game_id)
                assert row is not None
                record = await fetch_record(db, row)
        except (sqlite3.DatabaseError, asyncpg.PostgresError, *UNREADABLE) as exc:
            report.problems.append(f"game #{game_id}: its rows cannot be read ({exc})")
            continue
        check = partial(verify, record, adjudicated=known.adjudicated(game_id))
        verification = await asyncio.to_thread(check)
        report.statuses[row.status.value if row.damaged is None else "damaged"] += 1
        report.actions += len(record.actions)
        report.snapshots += len(record.snapshots)
        report.without_checksum += verification.without_checksum
        found = [str(problem) for problem in verification.problems]
        if row.damaged is not None and row.status is Status.CANCELLED:
            aborted.add(game_id)
            report.known += found
        else:
            report.problems += found
    for problem in others:  # an aborted damaged game's rows are known damage too
        (report.known if problem.game in aborted else report.problems).append(str(problem))
