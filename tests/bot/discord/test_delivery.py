"""What Discord may refuse does not stop the news: a channel where the bot may not attach
files gets it as text, and an answer too late for its interaction goes by DM while the
news still reaches the channel."""

from __future__ import annotations

import asyncio

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, button, click, command, open_game, settle

ATTACH_FILES = 1 << 15


async def test_without_attach_files_the_news_comes_as_text_and_the_game_goes_on(fake, titan):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~ATTACH_FILES)
    news = await open_game(fake)
    assert "begins" in news.content and news.files == []  # the board could not go
    chooser = news.notified[0]
    chosen = await click(fake, chooser, news, button(news, "colour Red"))
    [after] = fake.public(chosen)
    assert "takes Red" in after.content and after.files == []
    refused = [r for r in fake.rejected if r.status == 403 and not r.injected]
    assert refused == []  # known up front: nothing was even tried with a file


async def test_an_answer_too_late_goes_by_dm_and_the_news_still_reaches_the_channel(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    gate = fake.hold("PATCH", r"^webhooks/\d+/[^/]+/messages/@original$", answered=False)
    pushed = await fake.slash(chooser, "turn", "colour", colour="Red")
    await asyncio.wait_for(gate.arrived.wait(), timeout=60)
    fake.advance(16 * 60)  # the interaction's 15 minutes are over
    gate.release()
    await fake.wait_for(lambda: fake.dms_to(chooser))
    await settle(fake)
    [dm] = fake.dms_to(chooser)
    assert "Your legions" in dm.content and "Rd01" in dm.content  # the answer's news, by DM
    [after] = fake.public(pushed)
    assert "takes Red" in after.content  # a channel message: no interaction needed
    other = ANN if chooser == BOB else BOB
    answered = await command(fake, other, "turn", "colour", colour="Blue")
    assert "takes Blue" in fake.public(answered)[0].content  # the game goes on
    late = [r for r in fake.rejected if r.answer.get("code") == 50027]
    assert len(late) == 1  # tried once, refused as too late: as this test made it
    fake.rejected.remove(late[0])
