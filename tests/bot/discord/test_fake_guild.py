"""The fake Discord's guild channels are as strict as Discord's: who may make them, their
names and overwrites, the pace of their making, private threads' members."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from tests.bot.discord import guild as g
from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB
from tests.bot.discord.pacing import Bucket, channel_creation
from tests.bot.discord.records import PRIVATE_THREAD

MAKER = p.APP_PERMISSIONS | p.MANAGE_CHANNELS
CHANNELS = f"guilds/{p.GUILD_ID}/channels"
OVERWRITES = "permission_overwrites"


async def _make(fake: FakeDiscord, **body: Any) -> tuple[int, Any]:
    status, answer, _ = await fake.call("POST", CHANNELS, {"type": 0} | body)
    return status, answer


def _overwrite(target: int, kind: int = 1, allow: int = p.SEND, deny: int = 0) -> dict[str, Any]:
    return {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}


async def test_making_a_channel_needs_manage_channels(fake):
    assert await _make(fake, name="table-1") == (
        403,
        {"code": 50013, "message": "Missing Permissions"},
    )
    fake.role_permissions = MAKER
    status, made = await _make(fake, name="table-1")
    assert status == 201 and fake.channels[int(made["id"])].name == "table-1"


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"name": "Heat 2"}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": ""}, "name"),
        ({"name": "t", "type": 2}, "type"),
        ({"name": "t", "parent_id": str(p.CHANNEL_ID)}, "parent_id"),
        ({"name": "t", OVERWRITES: [_overwrite(ANN, kind=2)]}, OVERWRITES),
        ({"name": "t", OVERWRITES: [{"id": str(ANN), "type": 1, "allow": 2048}]}, OVERWRITES),
        ({"name": "t", OVERWRITES: [_overwrite(123, kind=0)]}, OVERWRITES),
        ({"name": "t", OVERWRITES: {"id": "1"}}, OVERWRITES),
    ],
    ids=["spaces", "long", "empty", "voice", "parent-not-category", "overwrite-type",
         "bits-not-string", "unknown-role", "not-a-list"],
)  # fmt: skip
async def test_a_bad_channel_is_refused_naming_the_field(fake, body, where):
    fake.role_permissions = MAKER
    status, answer = await _make(fake, **body)
    assert (status, answer["code"]) == (400, 50035) and where in answer["errors"]
    assert [x for x in fake.channels.values() if x.overwrites is not None] == []


async def test_a_category_keeps_its_capitals_and_spaces_and_holds_fifty_channels(fake):
    fake.role_permissions = MAKER
    fake.pace(Bucket("POST", r"guilds/(\d+)/channels", 1000, 1.0, "roomy"))
    status, category = await _make(fake, name="Heat 2", type=4)
    assert status == 201 and category["name"] == "Heat 2"
    for n in range(50):
        assert (await _make(fake, name=f"t-{n}", parent_id=category["id"]))[0] == 201
    status, answer = await _make(fake, name="t-50", parent_id=category["id"])
    assert status == 400 and "parent_id" in answer["errors"]


async def test_overwrites_may_set_only_what_the_bot_has(fake):
    fake.role_permissions = MAKER
    status, answer = await _make(
        fake, name="t", permission_overwrites=[_overwrite(ANN, allow=p.MANAGE_THREADS)]
    )
    assert (status, answer["code"]) == (403, 50013)
    fake.role_permissions = MAKER | p.ADMINISTRATOR
    assert (
        await _make(fake, name="t", permission_overwrites=[_overwrite(ANN, allow=p.MANAGE_THREADS)])
    )[0] == 201


async def test_a_new_channel_reaches_discordpy_with_its_category_and_overwrites(fake, client):
    await fake.set_guild_permissions(MAKER)
    _, category = await _make(fake, name="Heat 1", type=4)
    everyone = _overwrite(p.GUILD_ID, kind=0, allow=p.VIEW, deny=p.SEND)
    _, made = await _make(
        fake,
        name="t-1",
        parent_id=category["id"],
        permission_overwrites=[everyone, _overwrite(ANN)],
    )
    channel = await fake.wait_for(lambda: client.get_channel(int(made["id"])))
    assert isinstance(channel, discord.TextChannel) and channel.category is not None
    assert channel.category.name == "Heat 1"
    assert channel.permissions_for(channel.guild.me).value == fake.channels[channel.id].permissions
    assert not channel.permissions_for(channel.guild.me).send_messages  # @everyone's deny
    status, listed, _ = await fake.call("GET", CHANNELS)
    assert status == 200 and {c["name"] for c in listed} == {"titan", "Heat 1", "t-1"}


async def test_the_bots_own_role_changes_reach_discordpy_and_keep_channel_permissions(fake, client):
    await fake.set_guild_permissions(MAKER)
    guild = client.get_guild(p.GUILD_ID)
    assert guild is not None
    await fake.wait_for(lambda: guild.me.guild_permissions.manage_channels)
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    assert channel.permissions_for(guild.me).value == p.APP_PERMISSIONS


async def test_changing_overwrites_needs_manage_roles(fake):
    fake.role_permissions = MAKER
    _, made = await _make(fake, name="t-1")
    body = {"permission_overwrites": [_overwrite(ANN)]}
    status, answer, _ = await fake.call("PATCH", f"channels/{made['id']}", body)
    assert (status, answer["code"]) == (403, 50013)
    fake.role_permissions = MAKER | p.MANAGE_ROLES
    status, answer, _ = await fake.call("PATCH", f"channels/{made['id']}", body)
    assert status == 200 and answer["permission_overwrites"] == [_overwrite(ANN)]


# --- the pace -----------------------------------------------------------------------------------
async def test_making_channels_past_the_bucket_answers_429_as_discord_does(fake):
    fake.role_permissions = MAKER
    fake.pace(channel_creation(window=1.0))  # five calls fit in it, even on a busy machine
    for n in range(5):
        status, _, headers = await fake.call("POST", CHANNELS, {"type": 0, "name": f"t-{n}"})
        assert status == 201 and headers["X-RateLimit-Remaining"] == str(4 - n)
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
    status, answer, headers = await fake.call("POST", CHANNELS, {"type": 0, "name": "t-5"})
    assert status == 429 and 0 < answer["retry_after"] <= 1.0 and answer["global"] is False
    assert headers["Via"] and headers["Retry-After"] == "1"
    assert headers["X-RateLimit-Remaining"] == "0" and float(headers["X-RateLimit-Reset-After"]) > 0
    assert "t-5" not in {x.name for x in fake.channels.values()}
    [bucket] = fake.buckets
    assert (bucket.limited, bucket.violations) == (1, 0)
    await fake.call("POST", CHANNELS, {"type": 0, "name": "t-5"})  # not waiting: a violation
    assert bucket.violations == 1
    await asyncio.sleep(answer["retry_after"] + 0.05)
    assert (await fake.call("POST", CHANNELS, {"type": 0, "name": "t-5"}))[0] == 201
    assert bucket.violations == 1


async def test_an_unannounced_limit_sends_no_headers_until_it_answers_429(fake):
    fake.role_permissions = MAKER
    bucket = fake.pace(channel_creation(hidden=True))
    _, _, headers = await fake.call("POST", CHANNELS, {"type": 0, "name": "t"})
    assert not any(h.startswith("X-RateLimit") for h in headers)
    assert bucket.served == 1 and len(fake.buckets) == 1


# --- private threads ----------------------------------------------------------------------------
async def _private(fake: FakeDiscord, client: discord.Client) -> discord.Thread:
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PRIVATE_THREADS)
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    await fake.wait_for(lambda: channel.permissions_for(channel.guild.me).create_private_threads)
    return await channel.create_thread(name="table-1", invitable=False)


async def test_a_private_threads_members_are_added_and_only_they_see_it(fake, client):
    thread = await _private(fake, client)
    await thread.add_user(discord.Object(ANN))
    await thread.add_user(discord.Object(ANN))  # again: nothing changes
    kept = fake.channels[thread.id]
    assert kept.kind == PRIVATE_THREAD and kept.members == {p.BOT_ID, ANN} and not kept.invitable
    assert g.sees(fake, kept, ANN) and not g.sees(fake, kept, BOB)
    with pytest.raises(ValueError, match="cannot see"):
        await fake.slash(BOB, "titan", "help", channel=thread.id)
    status, active, _ = await fake.call("GET", f"guilds/{p.GUILD_ID}/threads/active")
    assert status == 200 and [t["id"] for t in active["threads"]] == [str(thread.id)]
    assert active["threads"][0]["thread_metadata"]["invitable"] is False


async def test_adding_a_member_needs_send_in_threads_and_an_open_thread(fake, client):
    thread = await _private(fake, client)
    await thread.edit(archived=True)
    refused = await fake.call("PUT", f"channels/{thread.id}/thread-members/{ANN}")
    assert (refused[0], refused[1]["code"]) == (400, 50083)
    await fake.set_permissions(
        p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.SEND_IN_THREADS | p.CREATE_PRIVATE_THREADS
    )
    refused = await fake.call("PUT", f"channels/{thread.id}/thread-members/{ANN}")
    assert (refused[0], refused[1]["code"]) == (403, 50013)
    refused = await fake.call("PUT", f"channels/{p.CHANNEL_ID}/thread-members/{ANN}")
    assert (refused[0], refused[1]["code"]) == (400, 50024)


async def test_a_private_thread_needs_create_private_threads(fake, client):
    body = {"name": "table-1", "type": 12, "invitable": False}
    status, answer, _ = await fake.call("POST", f"channels/{p.CHANNEL_ID}/threads", body)
    assert (status, answer["code"]) == (403, 50013)
    body["invitable"] = "no"
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PRIVATE_THREADS)
    status, answer, _ = await fake.call("POST", f"channels/{p.CHANNEL_ID}/threads", body)
    assert (status, answer["code"]) == (400, 50035) and "invitable" in answer["errors"]
