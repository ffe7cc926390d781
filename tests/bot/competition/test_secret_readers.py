"""An organiser who exported a table's game while it was played (the file holds its seed
and salt) may not be seated in it by `tournament replace` or `titan-admin replace`, nor
stand in there for an away player; the refusal says why. Another game, or another
organiser, is not refused."""

from __future__ import annotations

from bot.context import Caller, Place
from bot.discord.seats import replace_player
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import readers
from bot.storage import tournaments as store
from tests.bot.competition.test_desk import HERE, ORGANISER, awaited, run, seated

OTHER_ORGANISER = Caller(300_000_000_000_000_002, "Org Two", organiser=True)


async def _export(service: GameService, table: store.TableRow) -> None:
    assert table.channel is not None
    replies = await service.submit(Place(table.channel), ORGANISER, "export")
    assert not replies.error and replies.ephemeral is not None
    assert replies.ephemeral.attachments


def _refused(table: store.TableRow) -> str:
    return (
        f"<@{ORGANISER.user}> exported game #{table.game} while it was being played: the "
        "export holds its dice's seed and every legion, so they cannot take a seat in it"
    )


async def _seats(service: GameService, table: store.TableRow) -> list[int]:
    assert table.game is not None
    async with service.db.reading() as db:
        return [s.user for s in await rows.seats(db, table.game)]


async def test_who_exported_a_game_is_seated_in_it_by_no_replacement(service):
    one, two = await seated(service)
    assert one.channel is not None and one.game is not None and two.game is not None
    await _export(service, one)
    async with service.db.reading() as db:
        assert await readers.readers(db, one.game) == {ORGANISER.user}
        assert await readers.readers(db, two.game) == frozenset()
    before = await _seats(service, one)
    old = one.players[1]
    tournament = await service.submit(
        HERE, ORGANISER, f"tournament replace W <@{old}> <@{ORGANISER.user}>"
    )
    assert tournament.error and tournament.ephemeral is not None
    assert _refused(one) in tournament.ephemeral.text
    admin = await replace_player(service, Place(one.channel), ORGANISER, old, ORGANISER.user)
    assert admin.error and admin.ephemeral is not None
    assert _refused(one) in admin.ephemeral.text
    assert await _seats(service, one) == before
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
        assert found is not None
        entrants = {e.user for e in await store.entrants(db, found.id)}
    assert old in entrants and ORGANISER.user not in entrants
    # another organiser may take that seat; the exporter may take one at another table
    await run(service, f"tournament replace W <@{old}> <@{OTHER_ORGANISER.user}>")
    assert OTHER_ORGANISER.user in await _seats(service, one)
    await run(service, f"tournament replace W <@{two.players[0]}> <@{ORGANISER.user}>")
    assert ORGANISER.user in await _seats(service, two)


async def test_who_exported_a_game_stands_in_there_for_nobody(service):
    one, two = await seated(service)
    assert one.channel is not None and two.channel is not None
    await _export(service, one)
    away_here = await awaited(service, one)
    answer = await run(
        service, f"away until 2026-12-05 standin <@{ORGANISER.user}>", Caller(away_here, "A")
    )
    assert f"<@{ORGANISER.user}> exported game #{one.game}" in answer
    assert "so cannot stand in there" in answer
    game = await service.game_in(one.channel)
    assert game is not None
    assert await service.seat_for(game, ORGANISER.user) is None
    away_there = await awaited(service, two)
    answer = await run(
        service, f"away until 2026-12-05 standin <@{ORGANISER.user}>", Caller(away_there, "B")
    )
    assert "exported" not in answer
    other = await service.game_in(two.channel)
    assert other is not None
    assert await service.seat_for(other, ORGANISER.user) == other.seat_of(away_there)
