"""``titanbot check-db``: the whole database file checked, without changing it.

SQLite's own ``integrity_check`` and ``foreign_key_check``, then every game through
:func:`~bot.records.verify.verify` (its log replayed from the seed, every snapshot and
its checksum against the replay, seats and status). The file is opened read-only under
the same lock the bot holds, so the check refuses while a bot runs on the file (a
running bot may be half-way through a command, and caches what it loaded) and no bot
starts during the check. A file older than this program is checked through a migrated
copy in a temporary folder; the file itself stays as it is.

A game found damaged and then aborted by an organiser is known damage: its problems are
still listed (as "known") but do not fail the check.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.records.verify import fetch_record, verify
from bot.storage import Database, Status
from bot.storage import games as rows
from bot.storage.migrations import MIGRATIONS


@dataclass
class CheckReport:
    """What the check found: one plain line per problem, and counts for the summary."""

    path: Path
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
            f"{self.path}: {games} game{'s' if games != 1 else ''}"
            + (f" ({kinds})" if kinds else "")
            + f", {self.actions} actions, {self.snapshots} snapshots"
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


async def check_database(path: Path) -> CheckReport:
    """Check the database at ``path``; raises ``FileNotFoundError`` without one and
    :class:`~bot.storage.lock.DatabaseInUse` while another process has it."""
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


async def _check_games(database: Database, report: CheckReport) -> None:
    async with database.reading() as db:
        ids = await rows.game_ids(db)
    for game_id in ids:
        try:
            async with database.reading() as db:
                row = await rows.game(db, game_id)
                assert row is not None
                record = await fetch_record(db, row)
        except sqlite3.DatabaseError as exc:
            report.problems.append(f"game #{game_id}: its rows cannot be read ({exc})")
            continue
        verification = await asyncio.to_thread(verify, record)
        report.statuses[row.status.value if row.damaged is None else "damaged"] += 1
        report.actions += len(record.actions)
        report.snapshots += len(record.snapshots)
        report.without_checksum += verification.without_checksum
        aborted = row.damaged is not None and row.status is Status.CANCELLED
        found = [str(problem) for problem in verification.problems]
        if aborted:
            report.known += found
        else:
            report.problems += found
