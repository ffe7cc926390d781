"""The fake Discord's channels are as strict as Discord's: the bot's permissions in each
channel (set by a test, seen by discord.py), DM refusals, threads started, written in,
archived and locked, channels read back."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import BOB, CAROL

THREADING = p.APP_PERMISSIONS | p.CREATE_PUBLIC_THREADS | p.SEND_IN_THREADS


def _channel(client: discord.Client, cid: int = p.CHANNEL_ID) -> discord.TextChannel:
    channel = client.get_channel(cid)
    assert isinstance(channel, discord.TextChannel)
    return channel


def _png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG tiny"), filename="board.png")


async def _refused(attempt: Any, kind: type[discord.HTTPException] = discord.HTTPException) -> Any:
    with pytest.raises(kind) as refused:
        await attempt
    return refused.value


def _mine(client: discord.Client, cid: int = p.CHANNEL_ID) -> discord.Permissions:
    channel = _channel(client, cid)
    return channel.permissions_for(channel.guild.me)


# --- permissions ------------------------------------------------------------------------------
def test_the_bots_default_permissions_are_the_readmes_invite():
    assert p.INVITE == 309237763072 and p.APP_PERMISSIONS == p.INVITE | p.COMMANDS


async def test_discordpy_sees_the_bots_permissions_in_the_channel(fake, client):
    assert _mine(client).value == p.APP_PERMISSIONS
    assert _mine(client).create_public_threads and not _mine(client).manage_threads


async def test_without_attach_files_an_upload_is_refused_and_text_goes(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.ATTACH_FILES)
    await fake.wait_for(lambda: not _mine(client).attach_files)
    refused = await _refused(_channel(client).send("board", file=_png()), discord.Forbidden)
    assert (refused.status, refused.code) == (403, 50013)
    await _channel(client).send("the board, as text")
    assert [m.content for m in fake.in_channel(p.CHANNEL_ID)] == ["the board, as text"]


@pytest.mark.parametrize(
    ("denied", "code"),
    [(p.VIEW, 50001), (p.SEND, 50013)],
    ids=["no-view", "no-send"],
)
async def test_without_view_or_send_a_post_is_refused(fake, client, denied, code):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~denied)
    refused = await _refused(_channel(client).send("news"), discord.Forbidden)
    assert refused.code == code and fake.in_channel(p.CHANNEL_ID) == []


async def test_permissions_set_before_the_bot_connects_come_in_guild_create(fake):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.ATTACH_FILES)
    late = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = asyncio.create_task(late.start(fake.token))
    try:
        await asyncio.wait_for(late.wait_until_ready(), 5)
        assert _mine(late).value == p.APP_PERMISSIONS & ~p.ATTACH_FILES
    finally:
        await late.close()
        await asyncio.wait_for(task, 5)


async def test_permissions_are_set_on_text_channels_only(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    thread = await (await _channel(client).send("battle")).create_thread(name="Battle")
    with pytest.raises(ValueError):
        await fake.set_permissions(thread.id, p.APP_PERMISSIONS)


# --- DMs --------------------------------------------------------------------------------------
async def test_closed_dms_refuse_messages_and_every_request_is_recorded(fake, client):
    fake.dms_closed.add(BOB)
    dm = await client.create_dm(discord.Object(BOB))
    refused = await _refused(dm.send("your legions"), discord.Forbidden)
    assert (refused.status, refused.code) == (403, 50007)
    status, _, _ = await fake.call("POST", "guilds/1/bans", {})
    assert status == 404
    logging_in = ("users/@me", "oauth2/applications/@me")
    recorded = [r for r in fake.requests if r.path not in logging_in]
    assert [r.status for r in recorded] == [200, 403, 404]
    assert not any(r.injected for r in fake.rejected)


async def test_dm_refusals_other_than_closed_dms_on_demand(fake, client):
    fake.refuse_dms(BOB, 50278)
    fake.refuse_dms(CAROL, 50001, times=1)
    to_bob = await client.create_dm(discord.Object(BOB))
    to_carol = await client.create_dm(discord.Object(CAROL))
    for _ in range(2):
        refused = await _refused(to_bob.send("news"), discord.Forbidden)
        assert refused.code == 50278 and "no mutual guilds" in refused.text
    refused = await _refused(to_carol.send("news"), discord.Forbidden)
    assert refused.code == 50001
    await to_carol.send("news, again")
    assert fake.dms_to(BOB) == [] and [m.content for m in fake.dms_to(CAROL)] == ["news, again"]
    assert len(fake.rejected) == 3 and all(r.injected for r in fake.rejected)


# --- threads ----------------------------------------------------------------------------------
async def test_a_thread_needs_create_public_threads(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.CREATE_PUBLIC_THREADS)
    start = await _channel(client).send("Battle in the Plains")
    refused = await _refused(start.create_thread(name="Battle"), discord.Forbidden)
    assert refused.code == 50013 and fake.threads() == []


async def test_a_thread_from_a_message_is_known_to_discordpy_and_takes_messages(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    start = await _channel(client).send("Battle in the Plains")
    thread = await start.create_thread(name="Battle", auto_archive_duration=60)
    assert thread.id == start.id and thread.parent_id == p.CHANNEL_ID
    [held] = fake.threads()
    assert (held.id, held.name, held.auto_archive) == (start.id, "Battle", 60)
    cached = await fake.wait_for(lambda: client.get_channel(thread.id))
    assert isinstance(cached, discord.Thread)
    await thread.send("Bob strikes")
    assert [m.content for m in fake.in_channel(thread.id)] == ["Bob strikes"]
    fetched = await _channel(client).fetch_message(start.id)
    assert fetched.thread is not None and fetched.thread.id == thread.id


async def test_a_thread_from_a_message_is_refused_twice_long_named_or_elsewhere(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    start = await _channel(client).send("Battle")
    await start.create_thread(name="Battle")
    refused = await _refused(start.create_thread(name="Again"))
    assert refused.code == 160004
    other = await _channel(client).send("Another battle")
    refused = await _refused(other.create_thread(name="n" * 101))
    assert refused.code == 50035 and "In name" in refused.text
    path = f"channels/{p.CHANNEL_ID}/messages/12345/threads"
    status, body, _ = await fake.call("POST", path, {"name": "Lost"})
    assert (status, body["code"]) == (404, 10008)
    assert len(fake.threads()) == 1


async def test_a_thread_without_a_message_is_private_unless_asked_public(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    refused = await _refused(_channel(client).create_thread(name="Secret"), discord.Forbidden)
    assert refused.code == 50013
    public = await _channel(client).create_thread(
        name="Open", type=discord.ChannelType.public_thread
    )
    assert public.type is discord.ChannelType.public_thread
    assert [t.id for t in fake.threads()] == [public.id]


async def test_writing_in_a_thread_needs_send_messages_in_threads(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.SEND_IN_THREADS)
    thread = await (await _channel(client).send("Battle")).create_thread(name="Battle")
    refused = await _refused(thread.send("strike"), discord.Forbidden)
    assert refused.code == 50013 and fake.in_channel(thread.id) == []


async def test_an_archived_thread_reopens_when_written_in_unless_locked(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    thread = await (await _channel(client).send("Battle")).create_thread(name="Battle")
    archived = await thread.edit(archived=True)
    assert archived.archived and fake.channels[thread.id].archived
    await fake.wait_for(lambda: client.get_channel(thread.id) is None)  # discord.py drops it
    await thread.send("one more word")
    assert not fake.channels[thread.id].archived
    refused = await _refused(thread.edit(locked=True), discord.Forbidden)
    assert refused.code == 50013 and not fake.channels[thread.id].locked
    await fake.set_permissions(p.CHANNEL_ID, THREADING | p.MANAGE_THREADS)
    await thread.edit(archived=True, locked=True)
    refused = await _refused(thread.send("too late"))
    assert (refused.status, refused.code) == (400, 50083)


async def test_active_threads_come_in_guild_create(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, THREADING)
    open_ = await (await _channel(client).send("Battle 1")).create_thread(name="Open")
    done = await (await _channel(client).send("Battle 2")).create_thread(name="Done")
    await done.edit(archived=True)
    await client.close()
    again = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = asyncio.create_task(again.start(fake.token))
    try:
        await asyncio.wait_for(again.wait_until_ready(), 5)
        assert isinstance(again.get_channel(open_.id), discord.Thread)
        assert again.get_channel(done.id) is None
    finally:
        await again.close()
        await asyncio.wait_for(task, 5)


# --- channels read back -----------------------------------------------------------------------
async def test_channels_are_read_back_and_unknown_ones_refused(fake, client):
    text = await client.fetch_channel(p.CHANNEL_ID)
    assert isinstance(text, discord.TextChannel) and text.name == "titan"
    dm = await client.create_dm(discord.Object(BOB))
    assert isinstance(await client.fetch_channel(dm.id), discord.DMChannel)
    refused = await _refused(client.fetch_channel(12345), discord.NotFound)
    assert refused.code == 10003
    status, body, _ = await fake.call("POST", "channels/12345/messages", {"content": "x"})
    assert (status, body["code"]) == (404, 10003)


async def test_renaming_a_channel_needs_manage_channels(fake, client):
    refused = await _refused(_channel(client).edit(name="renamed"), discord.Forbidden)
    assert refused.code == 50013 and fake.channels[p.CHANNEL_ID].name == "titan"
