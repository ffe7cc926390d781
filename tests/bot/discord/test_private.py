"""Private news: the acting player's in their answer, everyone else's by DM; closed DMs."""

from __future__ import annotations

import sqlite3

from tests.bot.discord.helpers import ANN, BOB, button, click, command, open_game


def dms_closed(database) -> set[int]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT id FROM users WHERE dms_closed = 1")}


async def test_the_acting_players_private_news_comes_in_their_answer(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    other = ANN if chooser == BOB else BOB
    chosen = await click(fake, chooser, news, button(news, "colour Green"))
    [mine] = fake.ephemeral(chosen)
    assert "Your legions" in mine.content and "Gr01" in mine.content and "Ogre" in mine.content
    assert fake.dms_to(chooser) == [] and fake.dms_to(other) == []
    assert all("Ogre" not in m.content for m in fake.public(chosen))


async def test_closed_dms_cost_the_acting_player_nothing_and_the_game_goes_on(fake, titan):
    news = await open_game(fake)
    first = news.notified[0]
    second = ANN if first == BOB else BOB
    fake.dms_closed.add(first)
    chosen = await click(fake, first, news, button(news, "colour Red"))
    assert [r for r in fake.rejected if r.status == 403] == []  # no DM was even tried
    assert any("Rd01" in m.content for m in fake.ephemeral(chosen))  # the clicker reads it
    [after] = fake.public(chosen)[:1]
    picked = await click(fake, second, after, button(after, "colour Blue"))
    assert "takes Blue" in fake.public(picked)[0].content  # the game goes on
    mine = await command(fake, first, "titan", "legions")
    assert "Rd01" in fake.ephemeral(mine)[0].content
