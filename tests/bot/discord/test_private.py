"""Private news by DM, and the fallback when a player's DMs are closed."""

from __future__ import annotations

import sqlite3

from tests.bot.discord.helpers import ANN, BOB, button, click, command, open_game, slash


def dms_closed(database) -> set[int]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT id FROM users WHERE dms_closed = 1")}


async def test_a_private_change_is_sent_by_dm_only_to_its_owner(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    other = ANN if chooser == BOB else BOB
    chosen = await click(fake, chooser, news, button(news, "colour Green"))
    [dm] = fake.dms_to(chooser)
    assert "Your legions" in dm.content and "Gr01" in dm.content and "Ogre" in dm.content
    assert fake.dms_to(other) == []
    assert all("Ogre" not in m.content for m in fake.sent_for(chosen))


async def test_closed_dms_are_remembered_announced_once_and_the_game_goes_on(fake, titan):
    news = await open_game(fake)
    first = news.notified[0]
    second = ANN if first == BOB else BOB
    fake.dms_closed.add(first)
    chosen = await click(fake, first, news, button(news, "colour Red"))
    refused = [r for r in fake.rejected if r.status == 403]
    assert len(refused) == 1 and refused[0].answer["code"] == 50007
    assert dms_closed(titan.bot.config.database) == {first}
    notices = [m for m in fake.public(chosen) if "cannot send you direct messages" in m.content]
    assert len(notices) == 1 and notices[0].notified == (first,)
    assert "Rd01" not in notices[0].content  # nothing private in the channel
    assert f"Use {slash(fake, 'titan legions')} here" in notices[0].content
    assert any("Rd01" in m.content for m in fake.ephemeral(chosen))  # the clicker reads it
    [after] = fake.public(chosen)[:1]
    picked = await click(fake, second, after, button(after, "colour Blue"))
    assert "takes Blue" in fake.public(picked)[0].content  # the game goes on
    mine = await command(fake, first, "titan", "legions")
    assert "Rd01" in fake.ephemeral(mine)[0].content
    assert len([r for r in fake.rejected if r.status == 403]) == 1  # never retried
