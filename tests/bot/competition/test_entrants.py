"""Entrants are keyed by user: users named alike (a zero-width space, a look-alike letter,
another case) all sign up and are told apart wherever they are shown; a tournament stored
before keeps its entrants; ten replacements racing to bring in one newcomer end with one
seat change and nine plain refusals, on SQLite and PostgreSQL (there across two services,
as two processes would)."""

from __future__ import annotations

import asyncio
import re

from bot.context import Caller
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.backends import open_database
from bot.storage.database import Database
from bot.storage.migrations import MIGRATIONS
from tests.bot.competition.test_desk import HERE, ORGANISER, PLAYERS, run, seated

ALIKE = [
    Caller(300_000_000_000_000_200, "Ann"),
    Caller(300_000_000_000_000_201, "Ann\u200b"),  # a zero-width space after it
    Caller(300_000_000_000_000_202, "\u0410nn"),  # a Cyrillic A
    Caller(300_000_000_000_000_203, "ANN"),
]
SHOWN = ["Ann", "Ann 2", "\u0410nn 3", "ANN 4"]
NEWCOMER = 300_000_000_000_000_900


async def _tournament(service: GameService) -> store.TournamentRow:
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
    assert found is not None
    return found


async def test_users_named_alike_all_sign_up_and_are_shown_apart(service):
    await run(service, "tournament create W players 3-4 deadline 24h")
    joined = [await run(service, "tournament join W", who) for who in ALIKE]
    assert joined == [f"**{name}** joined W ({n})." for n, name in enumerate(SHOWN, start=1)]
    again = await service.submit(HERE, ALIKE[1], "tournament join W")
    assert again.error and "you are signed up for W already" in again.ephemeral.text  # type: ignore[union-attr]
    found = await _tournament(service)
    async with service.db.reading() as db:
        entrants = await store.entrants(db, found.id)
    assert [(e.user, e.name) for e in entrants] == [
        (who.user, name) for who, name in zip(ALIKE, SHOWN, strict=True)
    ]
    await run(service, "tournament close W")
    seating = await run(service, "tournament heat W")
    table_line = seating.splitlines()[1]
    assert all(name in table_line.split(": ")[1].split(", ") for name in SHOWN)
    await service.tables.idle()
    async with service.db.reading() as db:
        (table,) = await store.tables(db, found.id)
        assert table.game is not None
        seats = {s.user: s.name for s in await rows.seats(db, table.game)}
    assert seats == {who.user: name for who, name in zip(ALIKE, SHOWN, strict=True)}
    await run(service, "tournament adjudicate W 1.1 score the time is up")
    standings = await run(service, "tournament standings W")
    rows_shown = standings.split("```")[1].strip().splitlines()[1:]
    players = [re.fullmatch(r"\d+[*~]?\s+(.+?)\s{2,}\d.*", line) for line in rows_shown]
    assert sorted(m.group(1) for m in players if m is not None) == sorted(SHOWN)


async def test_a_tournament_stored_before_keeps_its_entrants(tmp_path):
    path = tmp_path / "games.sqlite3"
    older = await Database.open(path, migrations=MIGRATIONS[:11])
    try:
        async with older.transaction() as db:
            tournament = await store.create(db, None, "Old", {}, 5, 7)
            await store.add_entrant(db, tournament, 11, "Ann")
            await store.add_entrant(db, tournament, 12, "Bob")
            await store.set_eliminator(db, tournament, 12, 2)
            assert not await store.add_entrant(db, tournament, 13, "Ann")  # keyed by name then
    finally:
        await older.close()
    db_now = await Database.open(path)
    try:
        async with db_now.transaction() as db:
            assert [(e.user, e.name, e.joined, e.eliminator_from) for e in
                    await store.entrants(db, tournament)] == [
                (11, "Ann", 1, None), (12, "Bob", 2, 2)
            ]  # fmt: skip
            assert await store.add_entrant(db, tournament, 13, "Ann")
            assert not await store.add_entrant(db, tournament, 13, "Carl")
            names = [e.name for e in await store.entrants(db, tournament)]
        assert names == ["Ann", "Bob", "Ann 2"]
    finally:
        await db_now.close()


async def test_ten_replacements_racing_for_one_newcomer_change_one_seat(service, db_target, clock):
    tables = await seated(service)
    services = [service]
    if isinstance(db_target, str):  # PostgreSQL: a second service, as a second process
        other = GameService(await open_database(db_target), seeds=lambda: 11, wall_clock=clock)
        services.append(other)
    olds = [*PLAYERS[:7], *PLAYERS[:3]]
    try:
        answers = await asyncio.gather(
            *(
                services[i % len(services)].submit(
                    HERE, ORGANISER, f"tournament replace W <@{old}> <@{NEWCOMER}>"
                )
                for i, old in enumerate(olds)
            )
        )
    finally:
        for each in services[1:]:
            await each.close()
    won = [a for a in answers if not a.error]
    lost = [a.ephemeral.text for a in answers if a.error and a.ephemeral is not None]
    assert len(won) == 1 and len(lost) == 9
    assert not any(a.fault for a in answers)
    assert all(
        f"<@{NEWCOMER}> is an entrant of W already" in text or "is not an entrant of W" in text
        for text in lost
    ), lost
    found = await _tournament(service)
    async with service.db.reading() as db:
        entrants = [e.user for e in await store.entrants(db, found.id)]
        now = await store.tables(db, found.id)
        seated_in = []
        for table in now:
            assert table.game is not None
            seated_in += [s for s in await rows.seats(db, table.game) if s.user == NEWCOMER]
    assert entrants.count(NEWCOMER) == 1 and len(entrants) == 7
    assert len(seated_in) == 1
    changed = [(a, b) for a, b in zip(tables, now, strict=True) if a.players != b.players]
    assert len(changed) == 1
    before, after = changed[0]
    (gone,) = set(before.players) - set(after.players)
    assert NEWCOMER in after.players and gone not in entrants
