"""The player turn of each logged action: written with the action, backfilled by migration 3,
and the window of the log that ``history`` reads."""

from __future__ import annotations

import json

from bot.context import Caller, Place
from bot.storage import Database, SeatRow, listing
from bot.storage import games as rows
from bot.storage.eventlog import events_to_json
from bot.storage.migrations import MIGRATIONS
from bot.storage.record import initial_state
from engine.game.actions import action_from_json, action_to_json
from engine.game.apply import apply
from tests.bot.agent import open_game, play
from tests.bot.long_game import Logged, LongGame, long_game, store_long_game
from tests.bot.tampering import query

CHANNEL = 3


def caller_of(user: int) -> Caller:
    return Caller(user, f"U{user}")


def turns_in(path, game: int = 1) -> dict[int, int | None]:
    return dict(query(path, "SELECT n, turn FROM actions WHERE game = ? ORDER BY n", game))


async def test_each_stored_action_carries_the_turn_it_was_played_in(service, db_target):
    await open_game(service, CHANNEL, 2)
    await play(service, CHANNEL, seed=7, limit=400, fighting=True)
    async with service.db.reading() as conn:
        row = await rows.game(conn, 1)
        assert row is not None
        seats = await rows.seats(conn, row.id)
        log = await rows.actions(conn, row.id)
    state = initial_state(row, seats)[0]
    expected = {}
    for entry in log:
        expected[entry.n] = state.turn.number
        state, _ = apply(state, entry.seat, action_from_json(json.loads(entry.action)))
    stored = turns_in(db_target)
    assert stored == expected
    assert len(set(stored.values())) > 5  # the game went through several player turns


async def store_unnumbered(conn, channel: int, game: LongGame) -> int:
    """``game`` as the first two migrations store it: its actions without a turn."""
    game_id = await rows.create_game(conn, channel, None, {"host": 1})
    seats = [SeatRow(0, 1, "Ann"), SeatRow(1, 2, "Bob")]
    await conn.executemany(  # the seats' columns of version 2 (set_seats writes later ones)
        "INSERT INTO users (id) VALUES (?) ON CONFLICT DO NOTHING", [(s.user,) for s in seats]
    )
    await conn.executemany(
        "INSERT INTO seats (game, seat, user, name) VALUES (?, ?, ?, ?)",
        [(game_id, s.seat, s.user, s.name) for s in seats],
    )
    await conn.execute(  # the columns of version 2 (update_game writes later ones)
        "UPDATE games SET status = 'active', seed = ? WHERE id = ?", (game.seed, game_id)
    )
    await conn.executemany(
        "INSERT INTO actions (game, n, seat, action, events, created_at)"
        " VALUES (?, ?, ?, ?, ?, '')",
        [
            (game_id, e.n, e.seat, json.dumps(action_to_json(e.action)), events_to_json(e.events))
            for e in game.log
        ],
    )
    return game_id


async def test_migration_3_numbers_the_actions_logged_before_it(db_path):
    games = [long_game(800, seed=3), long_game(300, seed=5)]
    old = await Database.open(db_path, migrations=MIGRATIONS[:2])
    async with old.transaction() as conn:
        ids = [await store_unnumbered(conn, channel, g) for channel, g in enumerate(games, 1)]
        async with conn.execute("PRAGMA table_info(actions)") as cursor:
            assert "turn" not in [row[1] async for row in cursor]
    await old.close()

    migrated = await Database.open(db_path)
    await migrated.close()
    for game_id, game in zip(ids, games, strict=True):
        assert turns_in(db_path, game_id) == {e.n: e.turn for e in game.log}
    turns = [{e.turn for e in game.log} for game in games]
    assert 0 in turns[0] and len(turns[0]) > 10 and max(turns[1]) < max(turns[0])


async def test_a_turns_actions_are_read_as_a_bounded_range(db_path):
    db = await Database.open(db_path)
    try:
        async with db.reading() as conn:
            plan = await query_plan(conn, rows.turn_actions, 1, 2, 9)
    finally:
        await db.close()
    assert "COVERING INDEX actions_by_turn (game=? AND turn=?)" in plan
    assert "PRIMARY KEY (game=? AND n>? AND n<?)" in plan


async def query_plan(conn, function, *args) -> str:
    """SQLite's plan for the query ``function`` runs (caught on its way to the database)."""
    seen: list[tuple[str, tuple[object, ...]]] = []

    class Spy:
        def execute(self, sql, params=()):
            seen.append((sql, params))
            return conn.execute(sql, params)

    await function(Spy(), *args)
    [(sql, params)] = seen
    async with conn.execute("EXPLAIN QUERY PLAN " + sql, params) as cursor:
        return " | ".join([str(row[-1]) async for row in cursor])


async def test_the_window_comes_with_the_earlier_actions_of_its_first_turn(db_path):
    """All of them, or those whose events mention a word."""
    game = long_game(600, seed=2)
    db = await Database.open(db_path)
    try:
        async with db.transaction() as conn:
            numbered = await store_long_game(conn, 1, game)
            unnumbered = await store_long_game(conn, 2, game, turns=False)
        mentions = 0
        async with db.reading() as conn:
            for count in (1, 7, 50, 599, 600, 900):
                earlier, window = await rows.window_and_turn_start(conn, numbered, count)
                assert [r.n for r in window] == [e.n for e in game.log[-count:]]
                first = game.log[-min(count, 600)]
                same_turn = [e.n for e in game.log if e.turn == first.turn and e.n < first.n]
                assert [r.n for r in earlier] == same_turn
                words = ("MoveTakenBack", "LegionSplit")
                earlier, _ = await rows.window_and_turn_start(
                    conn, numbered, count, mentioning=words
                )
                mentioned = [n for n in same_turn if kinds(game.log[n - 1]) & set(words)]
                assert [r.n for r in earlier] == mentioned
                mentions += len(mentioned)
                earlier, window = await rows.window_and_turn_start(conn, unnumbered, count)
                assert [r.n for r in window] == [e.n for e in game.log[-count:]]
                assert [r.n for r in earlier] == list(range(1, first.n))
            assert mentions > 0
            assert await rows.window_and_turn_start(conn, 999, 5) == ([], [])
            assert await rows.turn_of(conn, numbered, 600) == game.log[-1].turn
            assert await rows.turn_of(conn, unnumbered, 600) is None
            assert await rows.turn_of(conn, numbered, 601) is None
    finally:
        await db.close()


def kinds(entry: Logged) -> set[str]:
    return {type(e).__name__ for e in entry.events}


async def test_open_games_are_counted_by_user_and_by_server(service):
    await service.submit(Place(1, guild=8), caller_of(1), "new")
    await service.submit(Place(2, guild=8), caller_of(2), "new")
    await service.submit(Place(2, guild=8), caller_of(1), "join")
    await service.submit(Place(3, guild=9), caller_of(1), "new")
    await service.submit(Place(4), caller_of(1), "new")
    await service.submit(Place(4), caller_of(1), "cancel")
    async with service.db.reading() as conn:
        assert await listing.count_open_games_of(conn, 1) == 3
        assert await listing.count_open_games_of(conn, 2) == 1
        assert await listing.count_open_games_of(conn, 3) == 0
        assert await listing.count_open_games_in(conn, 8) == 2
        assert await listing.count_open_games_in(conn, 9) == 1
        assert await listing.count_open_games_in(conn, 10) == 0
