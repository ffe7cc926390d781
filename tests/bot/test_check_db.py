"""``titanbot check-db``: the whole file checked without changing it; one plain line per
problem and a non-zero exit when anything is wrong, a short summary when all is well."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from bot.cli import main
from bot.context import Place
from bot.service import GameService
from bot.storage.migrations import MIGRATIONS
from engine.game import actions as a
from tests.bot.agent import caller, open_game, step
from tests.bot.conftest import dump
from tests.bot.tampering import (
    delete_action,
    edit_snapshot,
    execute,
    give_score,
    query,
    truncate_action,
)

AGENT = 4


async def stored_games(path: Path) -> None:
    """Channel 1: active, 25 actions in; 2: a lobby; 3: cancelled after 3 actions;
    4: over (a player withdrew after 4 actions); 5 and 6: active, 15 and 12 actions in."""
    service = await GameService.open(path, seeds=lambda: 17, snapshot_every=10)
    try:
        for channel, count in ((1, 25), (3, 3), (5, 15), (6, 12)):
            await open_game(service, channel, 2)
            for _ in range(count):
                await step(service, channel, AGENT)
        await service.submit(Place(2), caller(2, 0), "new")
        await service.submit(Place(3), caller(3, 0), "cancel")
        await open_game(service, 4, 2)
        for _ in range(4):
            await step(service, 4, AGENT)
        assert not (await service.act(Place(4), caller(4, 1), a.Withdraw())).error
    finally:
        await service.close()


def check(path: Path, capsys) -> tuple[int, list[str], str]:
    status = main(["check-db", "--db", str(path)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def fingerprint(path: Path) -> tuple[str, list[str]]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), dump(path)


def test_a_healthy_file_passes_and_is_left_as_it_was(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    asyncio.run(stored_games(path))
    assert query(path, "SELECT status FROM games ORDER BY id") == [
        ("active",),
        ("cancelled",),
        ("active",),
        ("active",),
        ("lobby",),
        ("over",),
    ]
    before = fingerprint(path)
    side = sorted(p.name for p in tmp_path.iterdir())
    status, lines, err = check(path, capsys)
    assert (status, err) == (0, "")
    assert lines == [
        f"{path}: 6 games (3 active, 1 cancelled, 1 lobby, 1 over), 60 actions, "
        "9 snapshots: all is well."
    ]
    assert fingerprint(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == side


def test_every_problem_is_one_plain_line_and_the_exit_is_non_zero(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    asyncio.run(stored_games(path))
    edit_snapshot(path, 1, 20, give_score(400))  # game 1
    truncate_action(path, 3, 15)  # game 3 (channel 5)
    delete_action(path, 4, 5)  # game 4 (channel 6)
    execute(path, "UPDATE games SET status = 'over' WHERE id = 2")  # cancelled, not over
    execute(path, "UPDATE games SET status = 'active' WHERE id = 6")  # over, not active
    execute(
        path,
        "UPDATE actions SET events = ? WHERE game = 1 AND n = 7",
        json.dumps([{"type": "TurnBegun", "player": 0, "turn": 99}]),
    )
    before = fingerprint(path)
    status, lines, err = check(path, capsys)
    assert (status, err) == (1, "")
    problems, summary = lines[:-1], lines[-1]
    assert problems[:3] == [
        "game #1: the stored events of action 7 differ from the replay",
        "game #1: the snapshot after action 20 fails its checksum",
        "game #1: the snapshot after action 20 differs from the replay",
    ]
    assert problems[3] == (
        "game #2: it is stored as over, but its log does not end it (and no ruling did)"
    )
    assert problems[4].startswith("game #3: action 15 cannot be read (")
    assert problems[5:] == [
        "game #4: action 5 is missing; the 7 later actions could not be checked",
        "game #6: its log ends it, but it is stored as active",
        "the result of game #6: game #6 has a result but is stored as active",
    ]
    assert summary.endswith(": 8 problems.")
    assert fingerprint(path) == before


async def test_a_damaged_game_found_and_aborted_is_known_and_no_longer_fails(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    await stored_games(path)
    truncate_action(path, 3, 15)
    service = await GameService.open(path)
    try:
        await service.game_in(5)  # found damaged
    finally:
        await service.close()
    status, lines, _ = await asyncio.to_thread(check, path, capsys)
    assert status == 1 and lines[0] == (
        "game #3: it is damaged (action 15 cannot be read) and not aborted yet: "
        "an organiser can export it, then abort it (`cancel 3`)"
    )
    service = await GameService.open(path)
    try:
        assert not (await service.submit(Place(5), caller(5, 0), "cancel 3")).error
    finally:
        await service.close()
    status, lines, _ = await asyncio.to_thread(check, path, capsys)
    assert status == 0 and lines[0].startswith("known: game #3: action 15 cannot be read")
    assert lines[-1].endswith("1 known problem of aborted damaged games: all is well.")


def test_an_older_file_is_checked_through_a_migrated_copy(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    asyncio.run(stored_games(path))
    downgrade = [
        "DROP INDEX actions_by_player",
        "ALTER TABLE actions DROP COLUMN player",
        "ALTER TABLE users DROP COLUMN fighton",
        "ALTER TABLE users DROP COLUMN autostrike",
        "ALTER TABLE seats DROP COLUMN level",
        "UPDATE games SET seed = CAST(seed_text AS INTEGER)",
        "ALTER TABLE games DROP COLUMN pledge",
        "ALTER TABLE games DROP COLUMN seed_text",
        "DROP TABLE secret_readers",
        "DROP TABLE leases",
        "ALTER TABLE games DROP COLUMN revision",
        "ALTER TABLE games DROP COLUMN salt",
        "DROP TABLE tournament_log",
        "DROP TABLE ratings",
        "DROP TABLE results",
        "DROP TABLE tables",
        "DROP TABLE entrants",
        "DROP TABLE tournaments",
        "DROP INDEX users_by_standin",
        "ALTER TABLE users DROP COLUMN standin_user",
        "DROP TABLE clocks",
        "DROP TABLE due",
        "DROP TABLE lapses",
        "ALTER TABLE users DROP COLUMN reminders_off",
        "ALTER TABLE users DROP COLUMN quiet",
        "ALTER TABLE users DROP COLUMN away_from",
        "ALTER TABLE users DROP COLUMN away_until",
        "ALTER TABLE users DROP COLUMN standin",
        "ALTER TABLE actions DROP COLUMN cause",
        "DROP TABLE outbox",
        "DROP TABLE places",
        "ALTER TABLE users DROP COLUMN dms_closed_at",
        "ALTER TABLE users DROP COLUMN dms_off",
        "DROP INDEX actions_by_turn",
        "DROP INDEX games_open_by_guild",
        "ALTER TABLE actions DROP COLUMN turn",
        "DROP INDEX games_one_open_per_channel",
        "ALTER TABLE snapshots DROP COLUMN checksum",
        "ALTER TABLE games DROP COLUMN damaged",
        "CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel)"
        " WHERE status IN ('lobby', 'active')",
        "PRAGMA user_version = 1",
    ]
    for statement in downgrade:
        execute(path, statement)
    before = fingerprint(path)
    status, lines, err = check(path, capsys)
    assert (status, err) == (0, "")
    assert lines[0] == (
        f"(the database is at version 1; titanbot brings it to version {len(MIGRATIONS)} when "
        "it next "
        "opens it (checked through a migrated copy))"
    )
    assert lines[1].endswith("(9 from before checksums, checked by replay): all is well.")
    assert fingerprint(path) == before
    assert query(path, "PRAGMA user_version") == [(1,)]


def test_sqlite_level_damage_is_reported(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    asyncio.run(stored_games(path))
    ghost = "INSERT INTO seats (game, seat, user, name) VALUES (99, 0, 101, 'Ghost')"
    execute(path, ghost)  # user 101 exists (P0 of channel 1), game 99 does not
    status, lines, _ = check(path, capsys)
    assert status == 1 and lines[0] == "SQLite: a row of seats refers to a missing games row"


def test_no_file_is_not_created(tmp_path, capsys):
    path = tmp_path / "none.sqlite3"
    status, lines, err = check(path, capsys)
    assert status == 2 and lines == [] and err == f"titanbot check-db: no database at {path}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_no_database_cannot_be_checked(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"not a database, only text " * 100)
    status, lines, err = check(path, capsys)
    assert (status, lines) == (2, [])
    assert err == "titanbot check-db: the database cannot be read (file is not a database)\n"
