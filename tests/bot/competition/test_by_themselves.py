"""A heat whose tables have computers alone left finishes by itself: no command is given
at its tables after they open (one human withdraws, out of the game), every game plays
itself out, its result is stored as it ends, the heat's standings are told, and
``tournament advance`` seats the next stage."""

from __future__ import annotations

import asyncio

from bot.context import Caller, Place
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage import tournaments as store
from tests.bot.competition.test_heats import HERE, ORGANISER, PLAYING

HUMAN = Caller(300_000_000_000_000_200, "Hum")


async def run(service: GameService, text: str, who: Caller = ORGANISER) -> str:
    replies = await service.submit(HERE, who, text)
    assert not replies.error, (text, replies.ephemeral)
    message = replies.public or replies.ephemeral
    return message.text if message is not None else ""


async def test_a_heat_of_computers_and_a_withdrawn_human_finishes_by_itself(service):
    for text in (
        "tournament create Solo players 3-3 heats 1 advance 3",
        f"tournament add Solo <@{HUMAN.user}>",
        "tournament add Solo ai 5",
        "tournament close Solo",
        "tournament heat Solo",
    ):
        await run(service, text)
    await service.tables.idle()
    async with service.db.reading() as db:
        found = await store.named(db, None, "Solo")
        assert found is not None
        tables = await store.tables(db, found.id, 1)
    [theirs] = [t for t in tables if HUMAN.user in t.players]
    assert len(tables) == 2 and theirs.channel is not None
    refused = await service.submit(HERE, ORGANISER, "tournament advance Solo")
    assert refused.error and "not over yet" in refused.ephemeral.text  # type: ignore[union-attr]
    withdrawn = await service.submit(Place(theirs.channel), HUMAN, "withdraw confirm")
    assert not withdrawn.error, withdrawn.ephemeral
    await asyncio.wait_for(service.ai.idle(), PLAYING)  # nobody types anything more
    async with service.db.reading() as db:
        tables = await store.tables(db, found.id, 1)
        results = await store.results_of_tournament(db, found.id)
        told = [r.body for r in await outbox.waiting(db, HERE.channel) if r.kind == "post"]
        games = [await rows.game(db, t.game) for t in tables if t.game is not None]
    assert all(t.status == store.DONE for t in tables)
    assert all(g is not None and g.status is rows.Status.OVER for g in games)
    assert sorted(r.game for r in results) == sorted(t.game for t in tables)
    assert any("Heat 1 of 1 is over. Standings:" in body for body in told)
    advanced = await run(service, "tournament advance Solo")
    assert advanced.startswith("The final of **Solo** (heat 2): 1 table.")
