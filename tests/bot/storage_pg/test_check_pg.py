"""``titanbot check-db`` on PostgreSQL: reachable, migrated, and consistent, with the same
per-game checks as a SQLite file plus PostgreSQL's own (sequences, foreign keys); the
database left as it was."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import asyncpg
import pytest

from bot.cli import main
from bot.storage.pg_catalog import quoted
from bot.storage.pg_dialect import POSTGRES_MIGRATIONS
from bot.storage.postgres import migrate
from bot.storage.transfer import transfer
from tests.bot.tampering import truncate_action
from tests.bot.test_check_db import stored_games


async def check(target: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple:
    status = await asyncio.to_thread(main, ["check-db", "--db", str(target)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The check-db tests' games (tests/bot/test_check_db.py), played once for the module."""
    path = tmp_path_factory.mktemp("played") / "games.sqlite3"
    asyncio.run(stored_games(path))
    return path


@pytest.fixture
async def migrated(played: Path, tmp_path: Path, pg_dsn: str) -> Path:
    """A copy of the played file, migrated into ``pg_dsn``: the copy's path."""
    path = tmp_path / played.name
    shutil.copyfile(played, path)
    await transfer(path, pg_dsn)
    return path


async def execute(dsn: str, *statements: str) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


async def fingerprint(dsn: str) -> dict[str, object]:
    """Every table's rows and every sequence's position."""
    connection = await asyncpg.connect(dsn)
    try:
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        seen: dict[str, object] = {}
        for (table,) in tables:
            seen[table] = await connection.fetchval(
                f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))"
                f" FROM {quoted(table)} AS t"
            )
        for (sequence,) in await connection.fetch("SELECT sequencename FROM pg_sequences"):
            seen[sequence] = tuple(
                await connection.fetchrow(f"SELECT last_value, is_called FROM {quoted(sequence)}")
            )
        return seen
    finally:
        await connection.close()


async def test_a_migrated_database_is_well_and_left_as_it_was(
    migrated: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = migrated
    before = await fingerprint(pg_dsn)
    status, lines, err = await check(pg_dsn, capsys)
    assert (status, err) == (0, "")
    on_sqlite = await check(path, capsys)
    assert on_sqlite[1][0].startswith(f"{path}: ")
    assert lines == [on_sqlite[1][0].replace(f"{path}: ", f"{pg_dsn}: ")]
    assert lines[0].endswith(
        "6 games (3 active, 1 cancelled, 1 lobby, 1 over), 60 actions, 9 snapshots: all is well."
    )
    assert await fingerprint(pg_dsn) == before


async def test_an_unmigrated_database_is_reported(
    pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, err = await check(pg_dsn, capsys)
    assert (status, err) == (1, "")
    assert lines[0] == (
        f"PostgreSQL: the database is not migrated (version 0 of {len(POSTGRES_MIGRATIONS)}): "
        "titanbot migrates it when it first opens it, `titanbot migrate` when it copies a "
        "file in"
    )
    assert lines[1].endswith(": 1 problem.")
    connection = await asyncpg.connect(pg_dsn)
    try:  # the check created nothing
        assert await connection.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await connection.close()


async def test_a_database_behind_or_ahead_of_the_program_is_reported(
    pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await migrate(pg_dsn, POSTGRES_MIGRATIONS[:7])
    status, lines, _ = await check(pg_dsn, capsys)
    assert status == 1 and lines[0].startswith(
        "PostgreSQL: the database is at version 7, behind this program's "
        f"{len(POSTGRES_MIGRATIONS)}: titanbot migrates it when it next opens it"
    )
    await execute(pg_dsn, f"UPDATE schema_version SET version = {len(POSTGRES_MIGRATIONS) + 1}")
    status, lines, _ = await check(pg_dsn, capsys)
    assert status == 1 and "newer than this program" in lines[0]


async def test_an_unreachable_database_cannot_be_checked(
    pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = pg_dsn.replace("/test_", "/missing_")
    status, lines, err = await check(missing, capsys)
    assert (status, lines) == (2, [])
    assert err.startswith(f"titanbot check-db: cannot reach the database {missing}: ")
    status, lines, err = await check("postgresql://ann:s3cret@/games?host=/nowhere", capsys)
    assert (status, lines) == (2, [])
    assert "postgresql://ann:***@/games" in err and "s3cret" not in err


async def test_a_sequence_behind_its_ids_is_reported(
    migrated: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await execute(pg_dsn, "SELECT setval(pg_get_serial_sequence('games', 'id'), 4)")
    status, lines, _ = await check(pg_dsn, capsys)
    assert status == 1
    assert lines[:-1] == [
        "PostgreSQL: the sequence of games.id would give 5 next, but the largest stored is 6: "
        "a new row would collide"
    ]


async def test_a_damaged_action_is_reported_as_on_sqlite(
    migrated: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = migrated
    truncate_action(path, 3, 15)
    await execute(
        pg_dsn,
        "UPDATE actions SET action = substr(action, 1, length(action) / 2)"
        " WHERE game = 3 AND n = 15",
    )
    status, lines, _ = await check(pg_dsn, capsys)
    on_sqlite = await check(path, capsys)
    assert status == on_sqlite[0] == 1
    assert lines[0].startswith("game #3: action 15 cannot be read (")
    assert lines[:-1] == on_sqlite[1][:-1]


async def test_rows_missing_their_parents_and_unchecked_constraints_are_reported(
    migrated: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await execute(
        pg_dsn,
        "ALTER TABLE seats DROP CONSTRAINT seats_game_fkey",
        "INSERT INTO seats (game, seat, \"user\", name) VALUES (99, 0, 101, 'Ghost')",
        "ALTER TABLE seats ADD CONSTRAINT seats_game_fkey FOREIGN KEY (game)"
        " REFERENCES games (id) ON DELETE CASCADE NOT VALID",
    )
    status, lines, _ = await check(pg_dsn, capsys)
    assert status == 1
    assert lines[:-1] == [
        "PostgreSQL: a row of seats refers to a missing games row (seats_game_fkey)",
        "PostgreSQL: the constraint seats_game_fkey of seats was never checked against its rows",
    ]


async def test_a_configured_url_is_the_database_checked(
    migrated: Path, pg_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[storage]\ndatabase = {json.dumps(pg_dsn)}\n")
    status = await asyncio.to_thread(main, ["--config", str(config), "check-db"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "") and out.startswith(f"{pg_dsn}: 6 games ")
