"""``titanbot check-db`` beyond the game log: a healthy database with an adjudicated,
finished tournament and a cancelled game passes; one damaged row in any table is named
(exit 1); a value the bot could not read is a named problem, never a traceback."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.context import Place
from bot.schedule.clock import ManualClock
from bot.service import GameService
from bot.storage import tournaments as store
from bot.storage.backends import Target, is_postgres, open_database
from tests.bot.agent import caller, open_game, step
from tests.bot.competition.test_desk import HERE, ORGANISER, PLAYERS
from tests.bot.tampering import execute, query

CANCELLED, LOBBY, AGENT = 21, 22, 4
START = 1_796_126_400.0  # 2026-12-01 12:00 UTC


async def run(service: GameService, text: str) -> None:
    replies = await service.submit(HERE, ORGANISER, text)
    assert not replies.error, (text, replies.ephemeral)


async def tables_of(service: GameService, heat: int) -> list[store.TableRow]:
    await service.tables.idle()
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
        assert found is not None
        return await store.tables(db, found.id, heat)


def ruling(table: store.TableRow) -> str:
    """Every player of ``table`` placed in seat order."""
    places = " ".join(f"<@{u}>={place}" for place, u in enumerate(table.players, start=1))
    return f"tournament adjudicate W {table.label} ruling {places} agreed"


async def build(target: Target) -> None:
    """Tournament W, over: a heat of two tables (one adjudicated by score, the other by a
    ruling) and its final (by a ruling); a casual game cancelled after 5 actions; a lobby."""
    database = await open_database(target, synchronous="OFF")
    service = GameService(database, seeds=lambda: 11, wall_clock=ManualClock(START))
    try:
        mentions = " ".join(f"<@{u}>" for u in PLAYERS)
        for text in (
            "tournament create W players 3-4 heats 1 deadline 24h",
            f"tournament add W {mentions}",
            "tournament close W",
            "tournament heat W",
        ):
            await run(service, text)
        heat = await tables_of(service, 1)
        await run(service, "tournament adjudicate W 1.1 score the time is up")
        await run(service, ruling(heat[1]))
        await run(service, "tournament advance W")
        await run(service, ruling((await tables_of(service, 2))[0]))
        await run(service, "tournament advance W")
        await open_game(service, CANCELLED, 2)
        for _ in range(5):
            await step(service, CANCELLED, AGENT)
        assert not (await service.submit(Place(CANCELLED), caller(CANCELLED, 0), "cancel")).error
        assert not (await service.submit(Place(LOBBY), caller(LOBBY, 0), "new")).error
    finally:
        await service.close()


async def check(target: Target, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = await asyncio.to_thread(main, ["check-db", "--db", str(target)])
    out, err = capsys.readouterr()
    assert err == ""
    return status, out.splitlines()


async def test_a_healthy_database_after_adjudication_and_cancellation_passes(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    await build(db_target)
    assert query(db_target, "SELECT status FROM tournaments") == [("over",)]
    assert sorted(query(db_target, "SELECT status FROM games")) == [
        ("cancelled",),
        ("lobby",),
        ("over",),
        ("over",),
        ("over",),
    ]
    assert len(query(db_target, "SELECT game FROM results")) == 3
    status, lines = await check(db_target, capsys)
    assert status == 0, lines
    assert lines[-1].endswith(
        "5 games (1 cancelled, 1 lobby, 3 over), 5 actions, 4 snapshots: all is well."
    )


def ids(target: Target) -> dict[str, int]:
    """The rows the damage goes to: the heat's table adjudicated by score, the first
    outbox row, the tournament, the last entrant."""
    (scored,) = query(target, "SELECT game FROM tables WHERE heat = 1 AND number = 1")
    (first,) = query(target, "SELECT min(id) FROM outbox")
    (tournament,) = query(target, "SELECT id FROM tournaments")
    return {"game": scored[0], "outbox": first[0], "tournament": tournament[0]}


async def test_one_damaged_row_in_each_table_is_named(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    await build(db_target)
    found = ids(db_target)
    game, tournament, last = found["game"], found["tournament"], PLAYERS[-1]
    for sql in (
        f"UPDATE outbox SET batch = 999999 WHERE id = {found['outbox']}",
        f"INSERT INTO clocks (game, seat, decision, since) VALUES ({game}, 9, 'x', 0)",
        f"INSERT INTO due (game, kind, seat, at) VALUES ({game}, 'deadline', 9, 0)",
        f"INSERT INTO lapses (game, seat, count) VALUES ({game}, 7, 1)",
        """UPDATE tournaments SET settings = '{"heats": "many"}'""",
        f"UPDATE entrants SET joined = 0 WHERE user = {last}",
        "UPDATE tables SET players = 'garbage' WHERE heat = 1 AND number = 2",
        f"UPDATE results SET result = '[]' WHERE game = {game}",
        "INSERT INTO leases (name, holder, until) VALUES ('bogus', 'someone', 0)",
    ):
        assert execute(db_target, sql) == 1, sql
    ((item,),) = query(db_target, "SELECT max(id) FROM due")
    status, lines = await check(db_target, capsys)
    assert status == 1
    named = [
        f"outbox row {found['outbox']}: it was sent with row 999999, which does not exist",
        f"the clock of game #{game}: it refers to seat 9, which game #{game} does not have",
        f"the clock of game #{game}: game #{game} is over, but its clock still runs",
        f"due item {item}: it refers to seat 9, which game #{game} does not have",
        f"the lapses of seat 7 of game #{game}: it refers to seat 7, which game #{game} "
        "does not have",
        f"entrant {last} of tournament #{tournament}: its joined 0 is not a sign-up number",
        f"table 1.2 of tournament #{tournament}: its players 'garbage' cannot be read",
        "the ratings of the terminal: a rated result cannot be read",
        "the lease 'bogus': its name 'bogus' is not a lease",
    ]
    for line in named:
        assert line in lines, (line, lines)
    settings = f"tournament #{tournament}: its settings cannot be read ("
    assert sum(line.startswith(settings) for line in lines) == 1, lines
    result = f"the result of game #{game}: it cannot be read ("
    assert sum(line.startswith(result) for line in lines) == 1, lines
    assert lines[-1].endswith(f": {len(lines) - 1} problems.")


async def test_a_rating_that_the_results_do_not_give_is_named(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    await build(db_target)
    winner = PLAYERS[0]
    ((mu, sigma, games),) = query(
        db_target, "SELECT mu, sigma, games FROM ratings WHERE user = ?", winner
    )
    execute(db_target, "UPDATE ratings SET mu = mu + 1 WHERE user = ?", winner)
    execute(db_target, "DELETE FROM ratings WHERE user = ?", PLAYERS[1])
    execute(db_target, "INSERT INTO ratings VALUES (0, 42, 25.0, 8.0, 1)")
    status, lines = await check(db_target, capsys)
    assert status == 1
    assert lines[0] == (
        f"the rating of {winner} on the terminal: it is {(mu + 1, sigma, games)}, but the "
        f"results give {(mu, sigma, games)} (`titanbot ratings --rebuild`)"
    )
    assert lines[1].startswith(f"the rating of {PLAYERS[1]} on the terminal: it is missing (")
    assert lines[2] == "the rating of 42 on the terminal: no rated result gives it"
    assert lines[-1].endswith(": 3 problems.")


async def test_a_game_status_the_bot_cannot_read_is_a_named_problem(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    await build(db_target)
    ((lobby,),) = query(db_target, "SELECT id FROM games WHERE status = 'lobby'")
    if is_postgres(db_target):
        query(db_target, "ALTER TABLE games DROP CONSTRAINT games_status_check")
        execute(db_target, "UPDATE games SET status = 'zombie' WHERE id = ?", lobby)
    else:
        unchecked(db_target, f"UPDATE games SET status = 'zombie' WHERE id = {lobby}")
    status, lines = await check(db_target, capsys)
    assert status == 1
    assert lines[0] == (
        f"game #{lobby}: its status 'zombie' is not one of lobby, active, over, cancelled"
    )
    assert lines[1].endswith(
        "5 games (1 cancelled, 3 over, 1 unreadable), 5 actions, 4 snapshots: 1 problem."
    )


def unchecked(path: Target, *statements: str) -> None:
    """Statements run on the SQLite file with its CHECK constraints and foreign keys
    off (a stray tool's write)."""
    connection = sqlite3.connect(Path(path))
    try:
        connection.execute("PRAGMA ignore_check_constraints = ON")
        with connection:
            for statement in statements:
                connection.execute(statement)
    finally:
        connection.close()


async def test_a_value_of_the_wrong_kind_in_a_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite keeps what a bad write puts in a column, whatever its declared type."""
    path = tmp_path / "games.sqlite3"
    await build(path)
    game = ids(path)["game"]
    unchecked(
        path,
        f"INSERT INTO clocks (game, seat, decision, since) VALUES ({game}, 0, 'x', 'soon')",
        "INSERT INTO places (channel, lane, target) VALUES (5, 'game', 'there')",
        f"UPDATE users SET away_from = 'later' WHERE id = {PLAYERS[2]}",
        f"INSERT INTO due (game, kind, at) VALUES ({game}, 'deadline', 'never')",
        "INSERT INTO tournament_log (tournament, at, text) VALUES (99, 'now', 'ghost')",
        "INSERT INTO leases (name, holder, until) VALUES ('tables', 'someone', 'ever')",
        "INSERT INTO secret_readers (game, user, at) VALUES (999, 7, 'now')",
        f"UPDATE games SET seed_text = 'lucky' WHERE id = {game}",
    )
    ((item,),) = query(path, "SELECT max(id) FROM due")
    status, lines = await check(path, capsys)
    assert status == 1
    for line in (
        f"the clock of game #{game}: its since 'soon' is not a time",
        "the game place of channel 5: its target 'there' is not a channel or message id",
        f"user {PLAYERS[2]}: its away_from 'later' is not a time",
        f"due item {item}: its at 'never' is not a time",
        "the lease 'tables': its until 'ever' is not a time",
        "the secrets' reader 7 of game #999: it refers to game #999, which does not exist",
        f"game #{game}: its seed 'lucky' is not a number in decimal",
    ):
        assert line in lines, (line, lines)
    assert any(
        line.startswith("tournament log entry ")
        and line.endswith(": it refers to tournament #99, which does not exist")
        for line in lines
    ), lines


async def test_a_game_row_that_differs_from_its_pledge_is_named(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    """The start's commitment bound the game's number, place, seed and salt: a row changed
    since (here the salt, the channel) no longer agrees with it."""
    await build(db_target)
    game = ids(db_target)["game"]
    ((salt, channel),) = query(db_target, "SELECT salt, channel FROM games WHERE id = ?", game)
    changed = "0" * len(salt)
    sql = "UPDATE games SET salt = ?, channel = ? WHERE id = ?"
    assert execute(db_target, sql, changed, channel + 1, game) == 1
    status, lines = await check(db_target, capsys)
    assert status == 1
    for line in (
        f"game #{game}: its salt {changed!r} is not the {salt!r} its pledge committed to",
        f"game #{game}: its channel {str(channel + 1)!r} is not the {str(channel)!r} its "
        "pledge committed to",
    ):
        assert line in lines, (line, lines)


async def test_a_healthy_database_agrees_with_every_pledge(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    await build(db_target)
    assert query(db_target, "SELECT count(*) FROM games WHERE pledge IS NOT NULL")[0][0] >= 4
    status, lines = await check(db_target, capsys)
    assert status == 0, lines
