"""What the bot sends reaches a channel whose server is on another process's shard: any
process's outbox may deliver for any channel, and its scheduler act on any game. Here the
bot runs shard 0 of 2 and the game's server is on shard 1, so neither the server nor the
channel is in its cache; everything goes by id, through discord.py's real HTTP code."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.offers import Offer, Offers
from bot.outbox.transport import Refused
from bot.replies import Attachment, Message
from bot.schedule.clock import ManualClock
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import Running, mistakes, start_bot
from tests.bot.discord.helpers import ANN, BOB
from tests.bot.discord.records import PRIVATE_THREAD
from tests.bot.discord.test_clock import HOUR, open_timed_game, until
from tests.bot.discord.test_table_channels import ORGANISING

PNG = b"\x89PNG-board"


@pytest.fixture
async def zero(fake, tmp_path):
    """The bot on shard 0 of 2, in a server of its own; the game's server is not its."""
    await fake.add_guild("first", shard=(0, 2))
    running = await start_bot(fake, tmp_path / "games.sqlite3", shard_count=2, shard_ids=(0,))
    assert running.bot.get_guild(p.GUILD_ID) is None
    assert running.bot.get_channel(p.CHANNEL_ID) is None
    try:
        yield running
    finally:
        await running.stop()
    assert mistakes(fake) == []


async def test_news_is_posted_edited_and_threaded_in_another_shards_channel(fake, zero: Running):
    transport = zero.bot.transport
    offers = Offers(1, 3, (Offer("Roll", "roll"),))
    news = Message("Ann moves.", mention=(BOB,), offers=offers,
                   attachments=(Attachment("board.png", PNG),))  # fmt: skip
    outcome, number = await transport.post(p.CHANNEL_ID, news, "nonce-1", None)
    assert outcome == "sent" and number is not None
    sent = fake.messages[number]
    assert sent.channel == p.CHANNEL_ID and sent.notified == (BOB,)
    assert sent.files == [("board.png", PNG)] and sent.custom_ids() == ["titan:1:roll:3"]
    assert await transport.post(p.CHANNEL_ID, news, "nonce-1", None) == ("sent", number)
    assert await transport.edit(p.CHANNEL_ID, number, Message("Ann moved."), "") == "edited"
    assert fake.messages[number].content == "Ann moved."
    await transport.unbutton(p.CHANNEL_ID, number)
    assert fake.messages[number].components == []

    thread = await transport.open_thread(p.CHANNEL_ID, number, "Battle at 104")
    assert fake.channels[thread].parent == p.CHANNEL_ID
    outcome, told = await transport.post(thread, Message("The battle begins."), "nonce-2", None)
    assert outcome == "sent" and told is not None and fake.messages[told].channel == thread
    await transport.close_thread(thread)
    assert fake.channels[thread].archived

    assert await transport.dm(ANN, p.CHANNEL_ID, Message("Your legions"), "nonce-3") == "sent"
    [dm] = fake.dms_to(ANN)
    assert dm.content == f"<#{p.CHANNEL_ID}>: Your legions"
    assert fake.paths("GET", rf"^channels/{p.CHANNEL_ID}$") == []  # not looked up: by id


async def test_a_table_opens_in_a_server_of_another_shard(fake, zero: Running):
    transport = zero.bot.transport
    with pytest.raises(Refused, match="lacks Manage Channels"):  # the invite's permissions
        await transport.open_table(p.GUILD_ID, "Heat 1", "heat-1-table-1", (ANN,), False, None)
    fake.role_permissions = ORGANISING
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PRIVATE_THREADS)
    table = await transport.open_table(
        p.GUILD_ID, "Heat 1", "heat-1-table-1", (ANN, BOB), False, None
    )
    made = fake.channels[table]
    assert made.guild == p.GUILD_ID and made.name == "heat-1-table-1"
    assert {int(o["id"]) for o in made.overwrites or []} == {p.GUILD_ID, p.BOT_ID, ANN, BOB}
    again = await transport.open_table(
        p.GUILD_ID, "Heat 1", "heat-1-table-1", (ANN, BOB), False, None
    )
    assert again == table
    thread = await transport.open_table(
        p.GUILD_ID, "Heat 1", "heat-1-table-2", (ANN, BOB), True, p.CHANNEL_ID
    )
    assert fake.channels[thread].kind == PRIVATE_THREAD
    assert fake.channels[thread].members == {p.BOT_ID, ANN, BOB}
    with pytest.raises(Refused, match="not in server 123"):
        await transport.open_table(123, "Heat 1", "heat-1-table-3", (ANN,), False, None)
    fake.rejected = [r for r in fake.rejected if r.path != "guilds/123"]  # asked for


async def test_a_deadline_in_another_shards_server_is_told_by_the_process_keeping_time(
    fake, tmp_path
):
    clock = ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())
    database = tmp_path / "games.sqlite3"
    every = await start_bot(fake, database, wall_clock=clock)  # one process, every shard
    try:
        awaited = await open_timed_game(fake)
    finally:
        await every.stop()
    await fake.add_guild("first", shard=(0, 2))
    zero = await start_bot(fake, database, wall_clock=clock, shard_count=2, shard_ids=(0,))
    try:
        assert zero.bot.get_channel(p.CHANNEL_ID) is None
        clock.advance(5 * HOUR)

        def told() -> list[object]:
            return [m for m in fake.in_channel(p.CHANNEL_ID) if "deadline passed" in m.content]

        await until(fake, told, "the timeout, told from shard 0's process")
        [news] = told()
        assert news.notified and awaited not in news.notified  # type: ignore[attr-defined]
    finally:
        await zero.stop()
    assert mistakes(fake) == []
