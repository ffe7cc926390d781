"""A whole tournament in the service: 13 computer entrants, three heats of 3–4-player
tables, every game played to its end; places, standings, separation and ratings."""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import zipfile

from bot.competition.codec import result_from_json
from bot.competition.ranking import (
    ranked_entrants,
    rebuilt_ratings,
    server_ratings,
    tournament_standings,
)
from bot.context import Caller, Place
from bot.records.check_record import check_record
from bot.records.public import read_record
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.backends import open_database
from bot.storage.record import load_game
from bot.tournament.scoring import Scheme
from bot.tournament.standings import HeatGame, StandingOptions, standings

HERE = Place(5)
ORGANISER = Caller(300_000_000_000_000_001, "Org", organiser=True)
PLAYING = 600.0
"""Seconds a game of computers may take to play itself out (a busy machine)."""


async def play_out(service: GameService, channel: int) -> None:
    """The table's game of computers plays on by itself, with no command, to its end."""
    await asyncio.wait_for(service.ai.idle([channel]), PLAYING)
    assert await service.game_in(channel) is None, f"the game in {channel} did not end"


async def check_archive(service: GameService, table) -> None:
    """The organiser's archive: every game's record verifies, the standings are in it."""
    refused = await service.submit(HERE, Caller(77, "Someone"), "tournament archive Winter")
    assert refused.error and "only an organiser" in refused.ephemeral.text
    replies = await service.submit(HERE, ORGANISER, "tournament archive Winter")
    assert not replies.error, replies.ephemeral
    [file] = replies.ephemeral.attachments
    assert file.filename == "tournament-winter.zip"
    with zipfile.ZipFile(io.BytesIO(file.data)) as archive:
        games = sorted(n for n in archive.namelist() if n.endswith(".json") and "games/" in n)
        assert len(games) == 12
        for name in games:
            verdict = check_record(read_record(archive.read(name)))
            assert verdict.ok, (name, verdict.text)
        rows = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode())))
    assert [int(r["rank"]) for r in rows] == list(range(1, 14))
    assert [r["player"] for r in rows] == [r.player for r in table.rows]
    assert sum(r["advancing"] == "yes" for r in rows) == 4


async def test_a_three_heat_tournament_of_computers_runs_to_its_standings(db_target):
    seeds = itertools.count(100)
    database = await open_database(db_target, synchronous="OFF")  # no fsync: many AI actions
    service = GameService(database, seeds=lambda: next(seeds))
    try:
        for text in (
            "tournament create Winter players 3-4 heats 3 advance 4",
            "tournament add Winter ai 13",
            "tournament close Winter",
        ):
            replies = await service.submit(HERE, ORGANISER, text)
            assert not replies.error, (text, replies.ephemeral)
        for heat in (1, 2, 3):
            async with service.db.reading() as db:
                found = await store.named(db, None, "Winter")
                assert found is not None
                ranked = [e.user for e in await ranked_entrants(db, found)]
            seated = await service.submit(HERE, ORGANISER, "tournament heat Winter")
            assert not seated.error, seated.ephemeral
            await service.tables.idle()
            async with service.db.reading() as db:
                tables = await store.tables(db, found.id, heat)
            assert sorted(len(t.players) for t in tables) == [3, 3, 3, 4]
            at = {user: t.number for t in tables for user in t.players}
            assert len({at[user] for user in ranked[:4]}) == 4  # the best four kept apart
            assert all(t.status in (store.PLAYING, store.DONE) and t.channel for t in tables)
            for table in tables:
                assert table.channel is not None
                await play_out(service, table.channel)
        async with service.db.reading() as db:
            results = await store.results_of_tournament(db, found.id)
            table = await tournament_standings(db, found)
            incremental = await server_ratings(db, None)
            rebuilt = await rebuilt_ratings(db, None)
        assert len(results) == 12
        for stored in results:  # the places agree with how each game ended
            result = result_from_json(stored.result)
            async with service.db.reading() as db:
                row = await rows.game(db, stored.game)
                assert row is not None
                game = await load_game(db, row)
            assert game.state is not None and game.state.result is not None
            winners = {str(game.user_of(s)) for s in game.state.result.winners}
            assert {p.player for p in result.places if p.place == 1} <= winners
            kills = sum(p.titan_kills for p in result.places)
            assert kills <= len(result.places)
        classic = standings(
            [HeatGame(r.heat or 1, result_from_json(r.result)) for r in results],
            Scheme.WBC_CLASSIC,
            StandingOptions(advance=4),
            seed=found.seed,
        )
        assert sorted(classic.order) == sorted(table.order)
        for row in classic.rows:  # under the classic chain: no last place counts as 3rd/4th
            counted = row.own.firsts + row.own.seconds + row.own.thirds + row.own.fourths
            assert counted <= row.own.games
        assert len(table.rows) == 13 and sum(r.advancing for r in table.rows) == 4
        assert all(r.own.games == 3 for r in table.rows)
        assert incremental == rebuilt
        await check_archive(service, table)
    finally:
        await service.close()
