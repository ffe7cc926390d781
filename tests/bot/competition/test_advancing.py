"""``tournament advance``: a bracket of computers played round by round to its winner
with the 2-player start rules, and heats followed by their final stage."""

from __future__ import annotations

import itertools

from bot.service import GameService
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.backends import open_database
from bot.storage.record import load_game
from tests.bot.competition.test_heats import HERE, ORGANISER, play_out


async def run(service: GameService, text: str) -> str:
    replies = await service.submit(HERE, ORGANISER, text)
    assert not replies.error, (text, replies.ephemeral)
    assert replies.public is not None
    return replies.public.text


async def play_stage(service: GameService, name: str, heat: int) -> list[store.TableRow]:
    """Open the stage's tables and play every game out."""
    await service.tables.idle()
    async with service.db.reading() as db:
        found = await store.named(db, None, name)
        assert found is not None
        tables = await store.tables(db, found.id, heat)
    for table in tables:
        if table.channel is not None:
            await play_out(service, table.channel)
    return tables


async def test_an_eight_computer_bracket_runs_round_by_round_to_its_winner(db_target):
    seeds = itertools.count(200)
    database = await open_database(db_target, synchronous="OFF")
    service = GameService(database, seeds=lambda: next(seeds))
    try:
        for text in ("tournament create Cup format bracket", "tournament add Cup ai 8"):
            await run(service, text)
        await run(service, "tournament close Cup")
        refused = await service.submit(HERE, ORGANISER, "tournament heat Cup")
        assert refused.error and "round by round" in refused.ephemeral.text  # type: ignore[union-attr]
        sizes = []
        for heat in (1, 2, 3):
            text = await run(service, "tournament advance Cup")
            assert text.startswith(f"Round {heat} of **Cup**")
            early = await service.submit(HERE, ORGANISER, "tournament advance Cup")
            assert early.error and "not over yet" in early.ephemeral.text  # type: ignore[union-attr]
            tables = await play_stage(service, "Cup", heat)
            sizes.append(len(tables))
            async with service.db.reading() as db:
                for table in tables:
                    assert table.game is not None and len(table.players) == 2
                    row = await rows.game(db, table.game)
                    assert row is not None and row.status is rows.Status.OVER
                    game = await load_game(db, row)
                    assert game.settings.two_player_rules
        assert sizes == [4, 2, 1]
        won = await run(service, "tournament advance Cup")
        assert won.startswith("🏆 ") and "wins **Cup**" in won
        async with service.db.reading() as db:
            found = await store.named(db, None, "Cup")
            assert found is not None and found.status == store.OVER
            log = [text for _, text in await store.logged(db, found.id)]
            final = await store.tables(db, found.id, 3)
            results = await store.results_of_tournament(db, found.id)
        assert any(t.startswith("bracket drawn: seeds") and "order" in t for t in log)
        assert len(results) == 7 and len(final) == 1
    finally:
        await service.close()


async def test_a_bracket_of_five_gives_the_top_seeds_byes(db_target):
    database = await open_database(db_target, synchronous="OFF")
    service = GameService(database, seeds=lambda: 5)
    try:
        for text in ("tournament create Cup format bracket", "tournament add Cup ai 5"):
            await run(service, text)
        await run(service, "tournament close Cup")
        text = await run(service, "tournament advance Cup")
        assert text.count("a bye") == 3
        async with service.db.reading() as db:
            found = await store.named(db, None, "Cup")
            assert found is not None
            tables = await store.tables(db, found.id, 1)
        assert sorted(len(t.players) for t in tables) == [1, 1, 1, 2]
        assert all(t.status == store.DONE for t in tables if len(t.players) == 1)
    finally:
        await service.close()


async def test_after_three_heats_advance_seats_a_final_then_declares_its_winner(db_target):
    seeds = itertools.count(300)
    database = await open_database(db_target, synchronous="OFF")
    service = GameService(database, seeds=lambda: next(seeds))
    try:
        for text in (
            "tournament create Spring players 3-3 heats 3 advance 3",
            "tournament add Spring ai 6",
        ):
            await run(service, text)
        await run(service, "tournament close Spring")
        early = await service.submit(HERE, ORGANISER, "tournament advance Spring")
        assert early.error and "0 of its 3 heats" in early.ephemeral.text  # type: ignore[union-attr]
        for heat in (1, 2, 3):
            await run(service, "tournament heat Spring")
            await play_stage(service, "Spring", heat)
        text = await run(service, "tournament advance Spring")
        assert text.startswith("The final of **Spring** (heat 4): 1 table.")
        final = await play_stage(service, "Spring", 4)
        assert len(final) == 1 and len(final[0].players) == 3
        won = await run(service, "tournament advance Spring")
        assert "**Spring**! The tournament is over." in won
        async with service.db.reading() as db:
            found = await store.named(db, None, "Spring")
            assert found is not None and found.status == store.OVER
    finally:
        await service.close()
