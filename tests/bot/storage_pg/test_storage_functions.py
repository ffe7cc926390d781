"""The storage modules' own functions on PostgreSQL (through bot/storage/pg_connection.py),
against the same scenario on SQLite: both must give the same answers."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, cast

import asyncpg
import pytest

from bot.storage import autostrike, dms, due, games, listing, outbox, tournaments
from bot.storage.connection import Connection
from bot.storage.database import Database
from bot.storage.games import SeatRow, Status
from bot.storage.pg_connection import IDENTITY_TABLES, PgDatabase, translate
from bot.storage.postgres import migrate
from bot.storage.tournaments import ResultRow

CHANNEL, GUILD = 1_234_567_890_123_456_789, 987_654_321_098_765_432
ALICE, BOB, CAROL = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333


def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stamps that count from the same start (on both databases: each run calls this)."""
    ticks = itertools.count(1)

    def stamp(at: float | None = None) -> str:
        return f"2024-01-01T00:00:{next(ticks):06d}"

    for module in (games, outbox, tournaments):
        monkeypatch.setattr(module, "now", stamp)


async def scenario(store: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Games, seats, the log, snapshots, the outbox and a tournament; everything read back.

    ``store`` is a ``Database`` or a ``PgDatabase``: the storage functions are typed for
    aiosqlite, hence the casts."""
    fixed_clock(monkeypatch)
    seen: dict[str, Any] = {}
    async with store.transaction() as raw:
        db = cast(Connection, raw)
        first = await games.create_game(db, CHANNEL, GUILD, {"variant": "default"})
        second = await games.create_game(db, CHANNEL + 1, None, {})
        seen["ids"] = (first, second)
        await games.set_seats(db, first, [SeatRow(1, ALICE, "Alice"), SeatRow(2, BOB, "Bob")])
        await games.set_seats(db, second, [SeatRow(1, BOB, "Bob"), SeatRow(2, -1, "AI 1")])
        await games.update_game(db, first, Status.ACTIVE, seed=2**128 - 1, salt="salty")
        await games.update_game(db, second, Status.ACTIVE, seed=7)
        for n in range(1, 6):
            events = '[{"type": "TurnStarted", "number": 1}]' if n == 1 else "[]"
            await games.append_action(db, first, n, 1 + n % 2, f'{{"n": {n}}}', events, turn=1)
        await games.save_snapshot(db, first, 0, '{"state": 0}')
        await games.save_snapshot(db, first, 3, '{"state": 3}')
        await games.save_snapshot(db, first, 3, '{"state": "3 again"}')
        seen["damaged"] = await games.mark_damaged(db, second, "a test")
        seen["damaged_again"] = await games.mark_damaged(db, second, "again")
        await dms.set_dms_closed(db, ALICE, True)
        await autostrike.set_autostrike(db, ALICE, "forced")
        await autostrike.set_autostrike(db, BOB, "all")
        await autostrike.set_autostrike(db, BOB, "off")
        await autostrike.set_autostrike(db, CAROL, "all")
        struck = "1:5:ENGAGE:0:6:BATTLE:ATTACKER:0:2:DEFENDER:COUNTERSTRIKE:"
        await due.set_clock(db, first, due.Clock(1, struck, 100.0, None))
        seen["closed"] = await dms.close_dms(db, BOB, "2024-02-02")
        row = await outbox.add(db, game=first, channel=CHANNEL, kind="post", body='{"t": 1}')
        await outbox.add(db, game=first, channel=CHANNEL, kind="dm", body="{}", recipient=BOB)
        await outbox.add(db, game=None, channel=CHANNEL, kind="answer", body="{}", version=5)
        await outbox.delivered(db, [row], "sent")
        await outbox.attempted(db, [row + 1, row + 1])
        await outbox.batched(db, [row + 2], row + 2)
        await outbox.set_place(
            db, CHANNEL, "game", outbox.Place(CHANNEL, 42, "live text", files="d1g3st")
        )
        queued = [
            outbox.NewRow(first, CHANNEL + 1, "post", '{"t": 2}', version=6),
            outbox.NewRow(first, CHANNEL + 1, "dm", '{"t": 3}', recipient=ALICE, lane="battle"),
            outbox.NewRow(None, CHANNEL + 1, "answer", '{"t": 4}', reply_to='"r"'),
        ]
        seen["queued"] = await outbox.add_all(db, queued), await outbox.add_all(db, [])
        with pytest.raises(ValueError):
            await outbox.add_all(db, [outbox.NewRow(None, CHANNEL, "shout", "{}")])
    async with store.reading() as raw:
        db = cast(Connection, raw)
        seen["game"] = await games.game(db, first)
        seen["open"] = await games.open_game(db, CHANNEL)
        seen["damaged_game"] = await games.damaged_game(db, CHANNEL + 1)
        seen["latest"] = await games.latest_game(db, CHANNEL)
        seen["game_ids"] = await games.game_ids(db)
        seen["seats"] = await games.seats(db, second)
        seen["waiting_for_ai"] = await games.active_games_waiting_for_ai(db)
        seen["waiting_for_strikes"] = [
            await games.active_games_waiting_for_ai(db, user) for user in (ALICE, BOB, -1)
        ]
        seen["autostrikers"] = await autostrike.autostrike_modes(db, [ALICE, BOB, CAROL, -1])
        seen["actions"] = await games.actions(db, first)
        seen["actions_window"] = await games.actions(db, first, 1, 2)
        seen["last_actions"] = await games.last_actions(db, first, 2)
        seen["turn_of"] = await games.turn_of(db, first, 4)
        seen["turn_actions"] = await games.turn_actions(db, first, 1, 5, mentioning=["Turn"])
        seen["window"] = await games.window_and_turn_start(db, first, 2)
        seen["action_count"] = await games.action_count(db, first)
        seen["missing"] = await games.missing_actions(db, first, 7)
        seen["snapshot_before"] = await games.snapshot_before(db, first, 3)
        seen["snapshots"] = await games.snapshots(db, first)
        seen["last_snapshot_n"] = await games.last_snapshot_n(db, first)
        seen["latest_snapshot"] = await games.latest_snapshot(db, first)
        seen["dms_closed"] = await dms.users_with_dms_closed(db, [ALICE, BOB, CAROL])
        seen["dm_status"] = await dms.dm_status(db, BOB)
        seen["count"] = await games.count_games(db), await games.count_games(db, Status.ACTIVE)
        seen["open_of"] = await listing.count_open_games_of(db, BOB)
        seen["games_of"] = await listing.games_of(db, BOB)
        seen["open_in"] = await listing.count_open_games_in(db, GUILD)
        seen["outbox"] = await outbox.waiting(db, CHANNEL)
        queued_back = await outbox.waiting(db, CHANNEL + 1)
        seen["queued_back"] = [(r.kind, r.lane, r.recipient, r.body, r.reply_to, r.version)
                               for r in queued_back]  # fmt: skip
        assert [r.body for r in queued_back] == ['{"t": 2}', '{"t": 3}', '{"t": 4}']
        assert sorted(r.id for r in queued_back) == [r.id for r in queued_back]
        seen["channels_waiting"] = await outbox.channels_waiting(db)
        seen["outcomes"] = await outbox.outcomes(db, CHANNEL)
        seen["place"] = await outbox.place(db, CHANNEL, "game")
    async with store.unit() as unit:
        async with unit.transaction() as raw:
            db = cast(Connection, raw)
            await dms.reopen_dms(db, ALICE)
            await dms.set_dms_off(db, ALICE, True)
            await outbox.drop_place(db, CHANNEL, "game")
        with pytest.raises(RuntimeError):
            async with unit.transaction() as raw:
                await dms.set_dms_off(cast(Connection, raw), BOB, True)
                raise RuntimeError("undone alone")
        async with unit.reading() as raw:
            db = cast(Connection, raw)
            seen["unit_reads"] = (
                await dms.dm_status(db, ALICE),
                await dms.dm_status(db, BOB),
                await outbox.place(db, CHANNEL, "game"),
            )
    with pytest.raises(RuntimeError):
        async with store.transaction() as raw:
            await games.update_game(cast(Connection, raw), first, Status.OVER)
            raise RuntimeError("rolled back")
    async with store.transaction() as raw:
        db = cast(Connection, raw)
        seen["rolled_back"] = (await games.game(db, first)) == seen["game"]
        seen["tournaments"] = await tournament_part(db, first)
    return seen


async def tournament_part(db: Connection, game: int) -> dict[str, Any]:
    """Tournaments, entrants, tables, results and ratings but ``tables``, ``named``
    and ``rated_guilds``: their ``? IS NULL``, ``COLLATE NOCASE`` and ``SELECT DISTINCT …
    ORDER BY`` an expression not selected are not PostgreSQL's, and not translated)"""
    seen: dict[str, Any] = {}
    cup = await tournaments.create(db, GUILD, "Cup", {"heats": 2}, 99, CHANNEL)
    seen["added"] = [
        await tournaments.add_entrant(db, cup, ALICE, "Alice"),
        await tournaments.add_entrant(db, cup, BOB, "Bob"),
        await tournaments.add_entrant(db, cup, ALICE, "Alice"),
    ]
    seen["removed"] = await tournaments.remove_entrant(db, cup, BOB)
    await tournaments.add_entrant(db, cup, CAROL, "Carol")
    await tournaments.replace_entrant(db, cup, CAROL, BOB, "Bob")
    await tournaments.set_eliminator(db, cup, ALICE, 2)
    await tournaments.set_status(db, cup, tournaments.CLOSED)
    seen["entrants"] = await tournaments.entrants(db, cup)
    seen["by_id"] = await tournaments.by_id(db, cup)
    seen["of_guild"] = await tournaments.of_guild(db, GUILD)
    seen["named"] = await tournaments.named(db, GUILD, "CUP")  # any case
    seen["not_named"] = await tournaments.named(db, GUILD, "no such cup")
    assert seen["named"] is not None and seen["not_named"] is None
    await tournaments.add_tables(db, cup, 1, [(ALICE, BOB)])
    await tournaments.add_table(db, cup, 1, 2, (BOB, ALICE))
    await tournaments.table_opened(db, cup, 1, 1, CHANNEL, game)
    await tournaments.set_paused(db, cup, 1, 1, 12.5)
    await tournaments.set_players(db, cup, 1, 2, (ALICE,))
    seen["table"] = await tournaments.table(db, cup, 1, 1)
    seen["paused"] = await tournaments.paused_since(db, game)
    seen["table_of_game"] = await tournaments.table_of_game(db, game)
    seen["opening"] = await tournaments.opening_tables(db)
    seen["tables"] = await tournaments.tables(db, cup)
    seen["tables_of_heat"] = await tournaments.tables(db, cup, 1)
    seen["tables_of_no_heat"] = await tournaments.tables(db, cup, 2)
    await tournaments.table_over(db, game)
    seen["table_2"] = await tournaments.table(db, cup, 1, 2)
    result = ResultRow(game, GUILD, cup, 1, "2024-03-03", True, {"winner": ALICE})
    seen["results_added"] = [
        await tournaments.add_result(db, result),
        await tournaments.add_result(db, result),
    ]
    seen["results"] = await tournaments.results_of_tournament(db, cup)
    seen["rated"] = await tournaments.rated_results(db, GUILD)
    seen["rated_guilds"] = await tournaments.rated_guilds(db)
    assert seen["rated_guilds"] == [GUILD]
    await tournaments.set_ratings(db, GUILD, {ALICE: (25.0, 8.3, 1), BOB: (20.5, 8.1, 1)})
    await tournaments.set_ratings(db, GUILD, {ALICE: (27.0, 7.9, 2)})
    seen["ratings"] = await tournaments.ratings(db, GUILD)
    seen["ratings_of"] = await tournaments.ratings(db, GUILD, [BOB, CAROL])
    seen["names"] = await tournaments.names_of(db, [ALICE, BOB])
    await tournaments.log(db, cup, "a roll")
    seen["logged"] = await tournaments.logged(db, cup)
    return seen


async def test_the_storage_functions_answer_on_postgresql_as_on_sqlite(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sqlite = await Database.open(tmp_path / "games.sqlite3")
    try:
        expected = await scenario(sqlite, monkeypatch)
    finally:
        await sqlite.close()
    await migrate(pg_dsn)
    postgres = await PgDatabase.open(pg_dsn)
    try:
        found = await scenario(postgres, monkeypatch)
    finally:
        await postgres.close()
    assert expected["rolled_back"] and expected["damaged"] and not expected["damaged_again"]
    assert expected["place"] == outbox.Place(CHANNEL, 42, "live text", files="d1g3st")
    assert expected["autostrikers"] == {ALICE: "forced", CAROL: "all"}
    assert expected["waiting_for_strikes"] == [[(CHANNEL, GUILD)], [], []]
    assert (CHANNEL, GUILD) in expected["waiting_for_ai"]
    assert set(found) == set(expected)
    for key, value in expected.items():
        assert found[key] == value, key


async def test_the_identity_tables_are_the_schemas(pg_dsn: str) -> None:
    """The tables an insert returns the id of are those whose ``id`` PostgreSQL numbers."""
    await migrate(pg_dsn)
    connection = await asyncpg.connect(pg_dsn)
    try:
        rows = await connection.fetch(
            "SELECT table_name FROM information_schema.columns"
            " WHERE column_name = 'id' AND is_identity = 'YES'"
        )
    finally:
        await connection.close()
    # ``users`` is numbered too in the schema, but its ids are always Discord's, given.
    assert {r[0] for r in rows} - {"users"} == IDENTITY_TABLES


@pytest.mark.parametrize(
    ("sqlite", "postgres"),
    [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"),
        ("SELECT '?', user FROM seats WHERE x = ?", "SELECT '?', \"user\" FROM seats WHERE x = $1"),
        ("SELECT 'user''s ?' WHERE seats.user = ?", "SELECT 'user''s ?' WHERE seats.\"user\" = $1"),
        ("SELECT 1 WHERE instr(events, ?) > 0", "SELECT 1 WHERE strpos(events, $1) > 0"),
        ("SELECT n FROM a LIMIT ?", "SELECT n FROM a LIMIT CASE WHEN $1 < 0 THEN NULL ELSE $1 END"),
        (
            "INSERT INTO games (channel) VALUES (?)",
            "INSERT INTO games (channel) VALUES ($1) RETURNING id",
        ),
        ("INSERT INTO users (id) VALUES (?)", "INSERT INTO users (id) VALUES ($1)"),
        (
            "INSERT OR REPLACE INTO snapshots (game, n, state) VALUES (?, ?, ?)",
            "INSERT INTO snapshots (game, n, state) VALUES ($1, $2, $3)"
            " ON CONFLICT (game, n) DO UPDATE SET state = excluded.state",
        ),
    ],
)
def test_translate(sqlite: str, postgres: str) -> None:
    assert translate(sqlite) == postgres


def test_insert_or_replace_into_an_unknown_table_is_refused() -> None:
    with pytest.raises(ValueError, match="seats"):
        translate("INSERT OR REPLACE INTO seats (game) VALUES (?)")


async def clock_scenario(store: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The scheduler's storage (bot/storage/due.py): clocks, due items, lapses, the users'
    reminder wishes and time away; everything read back."""
    fixed_clock(monkeypatch)
    seen: dict[str, Any] = {}
    async with store.transaction() as raw:
        db = cast(Connection, raw)
        game = await games.create_game(db, CHANNEL, GUILD, {})
        await games.set_seats(db, game, [SeatRow(0, ALICE, "Alice"), SeatRow(1, BOB, "Bob")])
        await due.set_clock(db, game, due.Clock(0, "split:1", 100.0, 200.0))
        seen["clock"] = await due.clock(db, game)
        first = await due.add(db, game, due.DEADLINE, 200.0, 0, "split:1")
        second = await due.add(db, game, due.REMINDER, 150.0, 0, "split:1")
        await due.add(db, game, due.TIME_LIMIT, 900.0)
        await due.add_all(
            db, game, [(due.REMINDER, 180.0, 0, "split:1"), (due.REMINDER, 190.0, 1, None)]
        )
        await due.add_all(db, game, [])
        added = [(i.kind, i.at, i.seat, i.decision) for i in await due.pending(db, game)][1:3]
        assert added == [(due.REMINDER, 180.0, 0, "split:1"), (due.REMINDER, 190.0, 1, None)]
        seen["next"] = await due.next_at(db)
        seen["due_by"] = await due.due_by(db, 160.0)
        await due.begin(db, first)
        await due.postpone(db, second, 170.0)
        await due.shift(db, game, "split:1", 10.0)
        seen["pending"] = await due.pending(db, game)
        seen["still"] = await due.still_pending(db, first, 300.0)
        await due.finish(db, first, 211.0, "timed out")
        seen["still_after"] = await due.still_pending(db, first, 300.0)
        seen["outcomes"] = await due.outcomes(db, game)
        seen["lapsed"] = [await due.lapsed(db, game, 0), await due.lapsed(db, game, 0)]
        seen["lapses"] = await due.lapses(db, game, 0)
        now = await due.clock(db, game)
        seen["clock_and_lapses"] = [
            await due.clock_and_lapses(db, game, seat) for seat in (0, 1, None)
        ]
        clock, *_ = seen["clock_and_lapses"]
        assert now is not None and clock == due.ClockAndLapses(now, True, True)  # seat 0's
        assert seen["clock_and_lapses"][1:] == [due.ClockAndLapses(now, False, True)] * 2
        await due.reset_lapses(db, game, 0)
        seen["lapses_reset"] = await due.lapses(db, game, 0)
        seen["clock_and_lapses_reset"] = await due.clock_and_lapses(db, game, 0)
        assert seen["clock_and_lapses_reset"] == due.ClockAndLapses(now, False, False)
        await due.set_reminder_prefs(db, ALICE, due.ReminderPrefs(True, "22:00-08:00 UTC"))
        seen["prefs"] = await due.reminder_prefs(db, ALICE)
        await due.set_away(db, BOB, due.Away(100.0, 5000.0, None, CAROL))
        seen["away"] = await due.away(db, BOB, 150.0)
        seen["not_away"] = await due.away(db, BOB, 6000.0)
        await due.lapsed(db, game, 1, 140.0, covers=3)
        seen["away_and_absence"] = [
            await due.away_and_absence(db, user, at, game, seat)
            for user, at, seat in ((BOB, 150.0, 1), (BOB, 6000.0, 1), (ALICE, 150.0, 0))
        ]
        absent = await due.absence(db, game, 1)
        assert absent == due.Absence(1, 140.0, 3)
        assert seen["away_and_absence"] == [
            (seen["away"], absent),
            (None, absent),
            (await due.away(db, ALICE, 150.0), None),
        ]
        await due.reset_lapses(db, game, 1)
        seen["stood_in_by"] = await due.stood_in_by(db, CAROL, 150.0)
        seen["standins"] = await due.standins_of(db, [ALICE, BOB], 150.0)
        await due.set_clock(db, game, due.Clock(1, "move:1", 220.0, None))
        seen["awaiting"] = await due.awaiting(db, BOB)
        await due.pause(db, game)
        seen["paused"] = await due.pending(db, game)
        await due.resume(db, game, 30.0)
        seen["resumed"] = await due.pending(db, game)
        await due.cancel(db, game, (due.REMINDER,))
        seen["cancelled"] = await due.pending(db, game)
        await due.forget(db, game)
        seen["forgotten"] = (await due.pending(db, game), await due.clock(db, game))
        await due.lapsed(db, game, 1)
        seen["no_clock_but_lapses"] = await due.clock_and_lapses(db, game, 1)
        assert seen["forgotten"][1] is None
        assert seen["no_clock_but_lapses"] == due.ClockAndLapses(None, True, False)
    assert seen["away"] is not None and seen["standins"] == {BOB: CAROL}
    return seen


async def test_the_clock_storage_answers_on_postgresql_as_on_sqlite(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sqlite = await Database.open(tmp_path / "games.sqlite3")
    try:
        expected = await clock_scenario(sqlite, monkeypatch)
    finally:
        await sqlite.close()
    await migrate(pg_dsn)
    postgres = await PgDatabase.open(pg_dsn)
    try:
        found = await clock_scenario(postgres, monkeypatch)
    finally:
        await postgres.close()
    assert set(found) == set(expected)
    for key, value in expected.items():
        assert found[key] == value, key


async def revision_scenario(store: Any) -> list[tuple[str, int | None, int]]:
    """A game's revision asked for inside transactions that claim it, in a savepoint rolled
    back, and afresh: (step, the revision answered, the statements it took)."""
    seen: list[tuple[str, int | None, int]] = []

    async def asked(step: str, db: Connection, game: int) -> int | None:
        calls: list[str] = []
        execute = db.execute

        def counted(sql: str, parameters: Any = ()) -> Any:
            calls.append(sql)
            return execute(sql, parameters)

        setattr(db, "execute", counted)  # noqa: B010 (the instance's, for this question)
        try:
            found = await games.revision(db, game)
        finally:
            delattr(db, "execute")
        seen.append((step, found, len(calls)))
        return found

    async with store.transaction() as raw:
        db = cast(Connection, raw)
        game = await games.create_game(db, CHANNEL, GUILD, {})
        first = await asked("created", db, game)
        assert first is not None
        await games.claim(db, game, first)
        await asked("claimed", db, game)
    async with store.unit() as unit:
        db = cast(Connection, unit.connection)
        await asked("a new transaction", db, game)
        claimed = await games.update_game(db, game, Status.ACTIVE, expect=first + 1)
        await asked("updated", db, game)
        with pytest.raises(RuntimeError):
            async with unit.transaction():
                await games.claim(db, game, claimed)
                raise RuntimeError("the savepoint is rolled back")
        await asked("after the rollback", db, game)
        await asked("once more", db, game)
    return seen


async def test_a_revision_the_transaction_gave_is_known_without_asking(
    pg_dsn: str, tmp_path: Path
) -> None:
    """What the open transaction claimed or updated is answered from the connection (its
    row is the transaction's); a new transaction, or a savepoint rolled back, asks again."""
    sqlite = await Database.open(tmp_path / "games.sqlite3")
    try:
        expected = await revision_scenario(sqlite)
    finally:
        await sqlite.close()
    await migrate(pg_dsn)
    postgres = await PgDatabase.open(pg_dsn)
    try:
        found = await revision_scenario(postgres)
    finally:
        await postgres.close()
    assert found == expected
    assert [(step, trips) for step, _, trips in expected] == [
        ("created", 1),
        ("claimed", 0),
        ("a new transaction", 1),
        ("updated", 0),
        ("after the rollback", 1),
        ("once more", 1),  # read, not given: another writer may change it meanwhile
    ]
    revisions = [revision for _, revision, _ in expected]
    start = revisions[0]
    assert start is not None
    assert revisions == [start, start + 1, start + 1, start + 2, start + 2, start + 2]
