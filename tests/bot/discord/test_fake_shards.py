"""The fake Discord's shards, with discord.py's own clients: each connection gets only its
shard's guilds and their events; an invalid shard is closed with 4010, a connection that
would carry too many guilds with 4011; ``GET /gateway/bot`` recommends a shard count; the
REST routes answer for a guild whatever shard carries it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import START_TIMEOUT
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.gateway import shard_of
from tests.bot.discord.helpers import ANN


@contextlib.asynccontextmanager
async def connected(client: discord.Client, token: str) -> AsyncIterator[discord.Client]:
    """``client`` started and ready; closed on leaving."""
    task = asyncio.create_task(client.start(token))
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=START_TIMEOUT, return_when="FIRST_COMPLETED"
    )
    try:
        if task in done:
            task.result()
        assert ready in done, "the client did not get ready"
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, START_TIMEOUT)


def sharded(*ids: int, count: int | None = 2) -> discord.AutoShardedClient:
    """A client of shards ``ids`` of ``count`` (None, none: as many as the gateway
    recommends), identifying each at once."""
    client = discord.AutoShardedClient(
        intents=discord.Intents.default(),
        shard_count=count,
        shard_ids=list(ids) if ids else None,
        guild_ready_timeout=0.05,
    )
    client.before_identify_hook = _at_once  # type: ignore[method-assign]
    return client


async def _at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """Identify without discord.py's five seconds between shards (the fake allows it)."""


async def test_a_guild_added_on_a_shard_is_on_it(fake):
    for shard in range(3):
        made = await fake.add_guild(f"server {shard}", shard=(shard, 3))
        assert shard_of(made.guild, 3) == shard
        assert made.guild in fake.guilds and fake.channels[made.id].guild == made.guild
    assert shard_of(p.GUILD_ID, 2) == 1  # the game's guild is on shard 1 of 2


async def test_a_connection_gets_its_shards_guilds_only(fake):
    first = await fake.add_guild("first", shard=(0, 2))
    async with connected(sharded(0), fake.token) as client:
        [identify] = fake.identified
        assert identify["shard"] == [0, 2]
        assert [g.id for g in client.guilds] == [first.guild]
        assert client.get_channel(first.id) is not None
        assert client.get_channel(p.CHANNEL_ID) is None  # shard 1's
        assert client.get_guild(p.GUILD_ID) is None


async def test_events_go_to_the_connection_of_their_guilds_shard(fake):
    first = await fake.add_guild("first", shard=(0, 2))
    got: dict[int, list[int]] = {0: [], 1: []}

    def listening(shard: int, client: discord.Client) -> discord.Client:
        async def on_message(message: discord.Message) -> None:
            got[shard].append(message.channel.id)

        client.event(on_message)
        return client

    async with (
        connected(listening(0, sharded(0)), fake.token) as zero,
        connected(listening(1, sharded(1)), fake.token) as one,
    ):
        await fake.mention(ANN, "hello", channel=first.id)
        await fake.mention(ANN, "hello", channel=p.CHANNEL_ID)
        await fake.wait_for(lambda: got[0] and got[1])
        assert got == {0: [first.id], 1: [p.CHANNEL_ID]}
        later = await fake.add_channel("later", guild=first.guild)
        await fake.wait_for(lambda: zero.get_channel(later.id))
        assert one.get_channel(later.id) is None
        pushed = await fake.slash(ANN, "titan", "status", channel=first.id)
        assert pushed.shards == (0,)
        pushed = await fake.slash(ANN, "titan", "status")
        assert pushed.shards == (1,)


async def test_a_guild_no_connection_carries_gets_no_event(fake):
    await fake.add_guild("first", shard=(0, 2))
    async with connected(sharded(0), fake.token):
        assert not fake.connected(p.GUILD_ID)
        with pytest.raises(AssertionError, match=f"carries guild {p.GUILD_ID}"):
            await fake.slash(ANN, "titan", "status")
        await fake.add_channel("quiet")  # told to nobody, and no harm


async def test_an_unsharded_connection_carries_every_guild(fake, client):
    first = await fake.add_guild("first", shard=(0, 2))
    await fake.wait_for(lambda: client.get_guild(first.guild))
    [identify] = fake.identified
    assert "shard" not in identify
    assert sorted(g.id for g in client.guilds) == sorted(fake.guilds)


@pytest.mark.parametrize("shard", [2, 5])
async def test_a_shard_not_below_the_count_is_closed_with_4010(fake, shard):
    client = discord.Client(intents=discord.Intents.default(), shard_id=shard, shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start(fake.token), START_TIMEOUT)
    await client.close()
    assert closed.value.code == 4010
    assert fake.gate.closed == [((shard, 2), 4010)]


async def test_too_many_guilds_for_one_connection_is_closed_with_4011(fake):
    fake.gate.most_guilds = 2
    await fake.add_guild("second", shard=(0, 2))
    await fake.add_guild("third", shard=(0, 2))
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start(fake.token), START_TIMEOUT)
    await client.close()
    assert closed.value.code == 4011
    async with connected(sharded(0, 1), fake.token) as client:  # two shards: two of three each
        assert sorted(g.id for g in client.guilds) == sorted(fake.guilds)
        assert sorted(i["shard"][0] for i in fake.identified[-2:]) == [0, 1]


async def test_the_bot_gateway_recommends_a_shard_per_thousand_guilds(fake):
    status, answer, _ = await fake.call("GET", "gateway/bot")
    assert status == 200 and answer["url"] == fake.gateway and answer["shards"] == 1
    assert answer["session_start_limit"]["max_concurrency"] == 1
    for _ in range(1000):
        fake.guilds[fake.next_id()] = "more"
    assert (await fake.call("GET", "gateway/bot"))[1]["shards"] == 2
    fake.gate.recommended = 4
    assert (await fake.call("GET", "gateway/bot"))[1]["shards"] == 4


async def test_an_autosharded_client_connects_to_the_recommended_shards(fake):
    fake.gate.recommended = 2
    await fake.add_guild("first", shard=(0, 2))
    async with connected(sharded(count=None), fake.token) as client:
        assert [r.path for r in fake.paths("GET", r"^gateway/bot$")] == ["gateway/bot"]
        assert sorted(i["shard"][0] for i in fake.identified) == [0, 1]
        assert client.shard_count == 2
        assert sorted(g.id for g in client.guilds) == sorted(fake.guilds)


async def test_rest_answers_for_a_guild_on_any_shard(fake: FakeDiscord):
    first = await fake.add_guild("first", shard=(0, 2))
    status, guild, _ = await fake.call("GET", f"guilds/{first.guild}")
    assert status == 200 and guild["name"] == "first"
    assert {r["id"] for r in guild["roles"]} == {str(first.guild), str(p.bot_role_id(first.guild))}
    status, me, _ = await fake.call("GET", f"guilds/{first.guild}/members/{p.BOT_ID}")
    assert status == 200 and me["roles"] == [str(p.bot_role_id(first.guild))]
    status, listed, _ = await fake.call("GET", f"guilds/{first.guild}/channels")
    assert [int(c["id"]) for c in listed] == [first.id]
    assert all(c["guild_id"] == str(first.guild) for c in listed)
    status, _, _ = await fake.call("GET", "guilds/123/channels")
    assert status == 404
