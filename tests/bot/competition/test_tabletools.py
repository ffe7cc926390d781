"""The organiser's tools that change a table's game: adjudication by score and by ruling
(the result counts: stored, rated, logged, told) and a substitute taking a seat."""

from __future__ import annotations

from bot.competition.codec import result_from_json
from bot.records.seal import record_digest
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.tournament.places import Ending
from tests.bot.competition.test_desk import HERE, ORGANISER, posts, run, seated


async def tournament(service: GameService) -> store.TournamentRow:
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
    assert found is not None
    return found


async def test_adjudication_by_score_and_by_ruling_ends_the_heat(service):
    one, two = await seated(service)
    assert one.channel is not None and two.channel is not None and two.game is not None
    answer = await run(service, "tournament adjudicate W 1.1 score the time is up")
    assert answer == "Table 1.1 of W is adjudicated."
    a, b, c = two.players
    refused = await service.submit(
        HERE, ORGANISER, f"tournament adjudicate W 1.2 ruling <@{a}>=1 <@{b}>=2 no one"
    )
    assert refused.error and "missing: <@" in refused.ephemeral.text  # type: ignore[union-attr]
    text = f"tournament adjudicate W 1.2 ruling <@{a}>=1 <@{b}>=2 <@{c}>=2 {c} left for good"
    await run(service, text)
    found = await tournament(service)
    async with service.db.reading() as db:
        results = {r.game: r for r in await store.results_of_tournament(db, found.id)}
        tables = await store.tables(db, found.id, 1)
        row = await rows.game(db, two.game)
        log = [t for _, t in await store.logged(db, found.id)]
        rated = await store.ratings(db, None)
    assert all(t.status == store.DONE for t in tables)
    assert row is not None and row.status is rows.Status.OVER
    scored = result_from_json(results[one.game].result)  # type: ignore[index]
    assert scored.ending is Ending.TIME_LIMIT and len(scored.places) == 4
    ruled = result_from_json(results[two.game].result)
    assert ruled.ending is Ending.RULING
    assert [p.place for p in ruled.places] == [1, 2, 2]
    assert any("reason: the time is up" in t for t in log)
    assert len(rated) == 7
    [ruled_post] = [p for p in await posts(service, one.channel) if "adjudicated this game" in p]
    assert "(by score)" in ruled_post
    async with service.db.reading() as db:  # the dice and the record may now be checked
        ended = await rows.game(db, one.game)
        sealed_with = await record_digest(db, one.game)  # type: ignore[arg-type]
    assert ended is not None and sealed_with is not None
    assert f"Dice revealed: seed {ended.seed}, salt `{ended.salt}`" in ruled_post
    assert f"Record digest: `{sealed_with}`" in ruled_post
    told = await posts(service, HERE.channel)
    assert any("Adjudicated: " in p and "left for good" in p for p in told)
    assert any("Heat 1 of 3 is over. Standings:" in p for p in told)
    again = await service.submit(HERE, ORGANISER, "tournament adjudicate W 1.1 score again")
    assert again.error and "is over" in again.ephemeral.text  # type: ignore[union-attr]
    assert await service.game_in(one.channel) is None


async def test_a_substitute_takes_the_seat_and_the_entry(service):
    one, _ = await seated(service)
    assert one.channel is not None and one.game is not None
    old, new = one.players[1], 300_000_000_000_000_900
    answer = await run(service, f"tournament replace W <@{old}> <@{new}>")
    assert "now plays" in answer
    game = await service.game_in(one.channel)
    assert game is not None and game.seat_of(new) == 1 and game.seat_of(old) is None
    found = await tournament(service)
    async with service.db.reading() as db:
        entrants = {e.user for e in await store.entrants(db, found.id)}
        table = await store.table(db, found.id, 1, 1)
    assert new in entrants and old not in entrants
    assert table is not None and new in table.players
    assert any("handed" in p for p in await posts(service, one.channel))
    assert any(f"replaced <@{old}> with <@{new}>" in p for p in await posts(service, HERE.channel))
    refused = await service.submit(HERE, ORGANISER, f"tournament replace W <@{old}> <@{new}>")
    assert refused.error and "not an entrant" in refused.ephemeral.text  # type: ignore[union-attr]
