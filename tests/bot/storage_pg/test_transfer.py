"""``titanbot migrate``: a finished tournament copied from SQLite into PostgreSQL, every
row as it was, every game replaying alike, the bot carrying on with fresh ids; and the
copies it refuses to make or to keep."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.cli import main
from bot.competition.ranking import server_ratings, tournament_standings
from bot.service import GameService
from bot.storage import Database, transfer
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_catalog import quoted
from bot.storage.pg_connection import PgDatabase
from bot.storage.pg_dialect import POSTGRES_MIGRATIONS, translate
from bot.storage.postgres import migrate_connection
from bot.storage.record import encode_state, load_game
from bot.storage.transfer import sqlite_tables
from tests.bot.agent import open_game
from tests.bot.storage_pg.finished_tournament import NAME, built_in, copy_of
from tests.bot.tampering import execute, query, truncate_action

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The finished tournament, built once for the module's tests."""
    return built_in(tmp_path_factory.mktemp("tournament"))


@pytest.fixture
def sqlite_file(built: Path, tmp_path: Path) -> Path:
    """A test's own copy of the finished tournament."""
    return copy_of(built, tmp_path)


async def migrate(sqlite_file: Path, dsn: str, capsys: pytest.CaptureFixture[str]) -> tuple:
    status = await asyncio.to_thread(main, ["migrate", "--db", str(sqlite_file), "--to", dsn])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


async def table_rows(sqlite_file: Path, dsn: str) -> list[tuple[str, list, list]]:
    """Each table's rows on SQLite and on PostgreSQL, in the same order."""
    database = await Database.open_read_only(sqlite_file)
    connection = await asyncpg.connect(dsn)
    found = []
    try:
        async with database.reading() as db:
            for table in await sqlite_tables(db):
                names = ", ".join(quoted(c) for c in table.columns)
                order = ", ".join(str(k) for k in range(1, len(table.columns) + 1))
                sql = f"SELECT {names} FROM {quoted(table.name)} ORDER BY {order}"
                async with db.execute(sql) as cursor:
                    expected = [tuple(r) async for r in cursor]
                copied = [tuple(r) for r in await connection.fetch(sql)]
                found.append((table.name, expected, copied))
    finally:
        await connection.close()
        await database.close()
    return found


async def loaded_games(database: Any) -> dict[int, tuple[int, str | None]]:
    """Every game of ``database`` (either backend) loaded: its actions and its state."""
    games: dict[int, tuple[int, str | None]] = {}
    async with database.reading() as db:
        for game_id in await rows.game_ids(db):
            row = await rows.game(db, game_id)
            game = await load_game(db, row)
            games[game_id] = (game.n, None if game.state is None else encode_state(game.state))
    return games


async def standings_and_ratings(database: Any) -> tuple[Any, ...]:
    async with database.reading() as db:
        tournament = await store.named(db, None, NAME)
        assert tournament is not None
        return (
            await tournament_standings(db, tournament),
            await server_ratings(db, None),
            await store.results_of_tournament(db, tournament.id),
        )


async def target_is_empty(dsn: str) -> bool:
    """Whether no table of the target holds a row (its schema may be there)."""
    connection = await asyncpg.connect(dsn)
    try:
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename <> 'schema_version'"
        )
        for (table,) in tables:
            if await connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {quoted(table)})"):
                return False
        return True
    finally:
        await connection.close()


async def test_a_finished_tournament_moves_to_postgresql_as_it_was(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert (status, err) == (0, "")
    tables = await table_rows(sqlite_file, pg_dsn)
    total = sum(len(expected) for _, expected, _ in tables)
    assert lines[0].startswith(f"copied {total} rows of {len(tables)} tables to {pg_dsn}: ")
    assert lines[1] == "checked: every table's rows counted, 3 games replayed alike"
    assert re.fullmatch(r"took \d+\.\d s \(\d+\.\d s of it checking\)", lines[2]), lines[2]
    assert {"games", "actions", "snapshots", "outbox", "results", "ratings"} <= {
        table for table, expected, _ in tables if expected
    }
    for table, expected, copied in tables:
        assert copied == expected, table
    sqlite = await Database.open_read_only(sqlite_file)
    postgres = await PgDatabase.open(pg_dsn)
    try:
        games = await loaded_games(sqlite)
        assert len(games) == 4 and sum(state is not None for _, state in games.values()) == 3
        assert await loaded_games(postgres) == games
        assert await standings_and_ratings(postgres) == await standings_and_ratings(sqlite)
    finally:
        await postgres.close()
        await sqlite.close()
    status = await asyncio.to_thread(main, ["check-db", "--db", pg_dsn])
    out, _ = capsys.readouterr()
    assert status == 0 and out.endswith("all is well.\n"), out
    service = await GameService.open(pg_dsn)
    try:
        await open_game(service, 90, 2)  # a game and its news: fresh ids in games and outbox
        game = await service.game_in(90)
        assert game is not None and game.id == max(games) + 1
    finally:
        await service.close()


NEXT_MIGRATION = """
    ALTER TABLE games ADD COLUMN later INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE claims (
        game  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        owner TEXT    NOT NULL,
        until REAL    NOT NULL
    );
"""
"""A migration this program does not have yet: a column and a table it never heard of."""


async def test_what_a_later_migration_adds_is_copied_too(
    sqlite_file: Path, pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = (*MIGRATIONS, NEXT_MIGRATION)
    database = await Database.open(sqlite_file, migrations=later)
    try:
        async with database.transaction() as db:
            await db.execute("UPDATE games SET later = id * 10")
            await db.execute("INSERT INTO claims VALUES (3, 'shard 1', 12.5)")
    finally:
        await database.close()

    async def migrate_later(connection: asyncpg.Connection) -> int:
        pg_later = (*POSTGRES_MIGRATIONS, translate(NEXT_MIGRATION))
        return await migrate_connection(connection, pg_later)

    monkeypatch.setattr(transfer, "MIGRATIONS", later)
    monkeypatch.setattr(transfer, "migrate_connection", migrate_later)
    copied = await transfer.transfer(sqlite_file, pg_dsn)
    order = list(copied.rows)
    assert copied.rows["claims"] == 1 and order.index("claims") > order.index("games")
    found = {name: (expected, got) for name, expected, got in await table_rows(sqlite_file, pg_dsn)}
    assert found["claims"][1] == [(3, "shard 1", 12.5)]
    assert {row[-1] for row in found["games"][1]} == {10, 20, 30, 40}  # later, last column
    for name, (expected, got) in found.items():
        assert got == expected, name


def titanbot(*args: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TITANBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environ | {"PYTHONPATH": str(REPO)},
        timeout=120,
    )


async def test_the_titanbot_command_migrates_and_refuses_a_second_time(
    sqlite_file: Path, pg_dsn: str
) -> None:
    first = await asyncio.to_thread(titanbot, "migrate", "--db", str(sqlite_file), "--to", pg_dsn)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert "3 games replayed alike" in first.stdout
    second = await asyncio.to_thread(titanbot, "migrate", "--db", str(sqlite_file), "--to", pg_dsn)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr.startswith("titanbot migrate: postgresql://")
    assert "is not empty (rows in games, " in second.stderr
    assert "Traceback" not in second.stderr


async def test_the_configured_file_is_migrated_and_a_configured_url_is_refused(
    sqlite_file: Path, pg_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[storage]\ndatabase = {json.dumps(pg_dsn)}\n")
    status = await asyncio.to_thread(main, ["--config", str(config), "migrate", "--to", pg_dsn])
    assert status == 2 and "is not a SQLite file (--db)" in capsys.readouterr().err
    config.write_text(f"[storage]\ndatabase = {json.dumps(str(sqlite_file))}\n")
    status = await asyncio.to_thread(main, ["--config", str(config), "migrate", "--to", pg_dsn])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "") and out.startswith("copied ")


async def test_a_target_holding_rows_is_refused_and_left_as_it_was(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    service = await GameService.open(pg_dsn)
    try:
        await open_game(service, 3, 2)
    finally:
        await service.close()
    before = [(t, c) for t, _, c in await table_rows(sqlite_file, pg_dsn)]
    status, lines, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert (status, lines) == (2, [])
    assert "is not empty (rows in games, users, " in err and "new, empty database" in err
    assert [(t, c) for t, _, c in await table_rows(sqlite_file, pg_dsn)] == before


async def test_a_file_in_use_is_refused(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = await Database.open(sqlite_file)
    try:
        status, lines, err = await migrate(sqlite_file, pg_dsn, capsys)
    finally:
        await holder.close()
    assert (status, lines) == (2, [])
    assert err.startswith("titanbot migrate: the database ") and "is in use" in err
    assert await target_is_empty(pg_dsn)


async def test_an_older_file_is_refused_until_the_bot_has_brought_it_up_to_date(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(sqlite_file, "PRAGMA user_version = 8")
    status, lines, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert (status, lines) == (2, [])
    assert err.startswith(f"titanbot migrate: {sqlite_file} is at version 8, older than this ")
    assert "start titanbot on it once" in err
    connection = await asyncpg.connect(pg_dsn)
    try:  # not even migrated
        assert await connection.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await connection.close()


async def test_what_cannot_be_migrated_is_refused(
    sqlite_file: Path, tmp_path: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.sqlite3"
    status, _, err = await migrate(missing, pg_dsn, capsys)
    assert (status, err) == (2, f"titanbot migrate: no database at {missing}\n")
    assert not missing.exists()
    status, _, err = await migrate(sqlite_file, str(tmp_path / "other.sqlite3"), capsys)
    assert status == 2 and "is not a postgresql:// URL (--to)" in err
    status = await asyncio.to_thread(
        main, ["migrate", "--db", "postgresql://ann:s3cret@/db?host=/none", "--to", pg_dsn]
    )
    err = capsys.readouterr().err
    assert status == 2 and "ann:***@" in err and "is not a SQLite file" in err
    status, _, err = await migrate(sqlite_file, "postgresql://ann:s3cret@/db?host=/none", capsys)
    assert status == 2 and "s3cret" not in err
    assert err.startswith("titanbot migrate: cannot reach the database postgresql://ann:***@/db")


async def test_a_target_the_user_may_not_write_is_refused(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A login without the right to create tables (PostgreSQL 15 gives none in ``public``)."""
    connection = await asyncpg.connect(pg_dsn)
    try:
        await connection.execute("DROP ROLE IF EXISTS visitor; CREATE ROLE visitor LOGIN")
    finally:
        await connection.close()
    visitor = pg_dsn.replace("//titan@", "//visitor@")
    status, lines, err = await migrate(sqlite_file, visitor, capsys)
    assert (status, lines) == (2, [])
    assert err.startswith(f"titanbot migrate: {visitor}: permission denied for schema public")
    assert err.endswith("; nothing was kept\n")


async def test_a_log_whose_replay_diverges_is_not_kept(
    sqlite_file: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Action 5 of game 1 cut in half: the newest snapshot still loads the game, but its
    replay from the seed stops there."""
    truncate_action(sqlite_file, 1, 5)
    status, lines, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert (status, lines) == (1, [])
    assert err == (
        "titanbot migrate: game #1: its replay from the seed and the whole log differs from "
        "its stored state; nothing was kept\n"
    )
    assert await target_is_empty(pg_dsn)


@pytest.fixture
def altered_copy(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """The copy to PostgreSQL with one change: ``alter[table](records)`` returns what is
    sent instead of a batch of ``table``'s rows."""
    alter: dict[str, Any] = {}
    original = asyncpg.Connection.copy_records_to_table

    async def copy(self: asyncpg.Connection, table: str, **options: Any) -> str:
        records = list(options.pop("records"))
        if table in alter:
            records = alter[table](records)
        return await original(self, table, records=records, **options)

    monkeypatch.setattr(asyncpg.Connection, "copy_records_to_table", copy)
    yield alter


async def test_a_copy_losing_a_row_is_not_kept(
    sqlite_file: Path, pg_dsn: str, altered_copy: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    altered_copy["snapshots"] = lambda records: records[:-1]
    [(count,)] = query(sqlite_file, "SELECT count(*) FROM snapshots")
    status, _, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert status == 1
    assert err == (
        f"titanbot migrate: table snapshots: {count - 1} rows copied of {count}; nothing was kept\n"
    )
    assert await target_is_empty(pg_dsn)


async def test_a_copy_whose_game_loads_otherwise_is_not_kept(
    sqlite_file: Path, pg_dsn: str, altered_copy: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    [(game, last)] = query(sqlite_file, "SELECT game, max(n) FROM actions WHERE game = 3")

    def seat_changed(records: list[sqlite3.Row]) -> list[tuple[Any, ...]]:
        changed = [tuple(r) for r in records]
        for k, r in enumerate(changed):
            if r[:2] == (game, last):  # game, n: the last action (after every snapshot)
                changed[k] = (*r[:2], r[2] + 1, *r[3:])
        return changed

    altered_copy["actions"] = seat_changed
    status, _, err = await migrate(sqlite_file, pg_dsn, capsys)
    assert status == 1
    assert err == (
        "titanbot migrate: game #3: its state loaded from the copy differs from the file's; "
        "nothing was kept\n"
    )
    assert await target_is_empty(pg_dsn)
