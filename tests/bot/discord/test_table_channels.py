"""A tournament table's channel (or private thread), opened through the Discord transport
and discord.py's real HTTP code against the fake: the right overwrites or members, once
however often asked, at Discord's pace, and refused readably when the bot may not."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.console import TABLES, Console, ConsoleTransport
from bot.discord.transport import DiscordTransport
from bot.outbox.transport import Refused, Retry
from tests.bot.discord import guild as g
from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB, CAROL
from tests.bot.discord.pacing import CHANNEL_CREATION_LIMIT, channel_creation
from tests.bot.discord.records import CATEGORY, PRIVATE_THREAD, TEXT, Channel

DAN, EVE = 700_000_000_000_000_014, 700_000_000_000_000_015
HEAT = "Heat 2"
EVERYONE_ALLOW = p.VIEW | p.READ_HISTORY
EVERYONE_DENY = (
    p.SEND | p.SEND_IN_THREADS | p.CREATE_PUBLIC_THREADS | p.CREATE_PRIVATE_THREADS
) | p.ADD_REACTIONS
PLAYER_ALLOW = p.SEND | p.SEND_IN_THREADS | p.COMMANDS
BOT_ALLOW = p.VIEW | p.SEND | p.ATTACH_FILES | p.EMBED_LINKS | p.READ_HISTORY
BOT_ALLOW |= p.CREATE_PUBLIC_THREADS | p.MANAGE_THREADS | p.SEND_IN_THREADS
ORGANISING = p.APP_PERMISSIONS | p.MANAGE_CHANNELS | p.MANAGE_THREADS
ORGANISING |= p.CREATE_PRIVATE_THREADS | p.ADD_REACTIONS
"""The bot's role on a server that lets it open tables."""


def seating(count: int) -> list[tuple[str, tuple[int, ...]]]:
    """``count`` tables of a heat, two players each (from a pool of five)."""
    people = (ANN, BOB, DAN, EVE, CAROL)
    return [
        (f"heat-2-table-{t + 1:02d}", (people[t % 5], people[(t + 1) % 5])) for t in range(count)
    ]


async def _allowed(fake: FakeDiscord, client: discord.Client, permissions: int) -> None:
    """The bot's role gives it ``permissions`` now, and discord.py knows it."""
    await fake.set_guild_permissions(permissions)
    guild = client.get_guild(p.GUILD_ID)
    assert guild is not None
    await fake.wait_for(lambda: guild.me.guild_permissions.value == permissions)


async def _open_all(
    transport: DiscordTransport, tables: list[tuple[str, tuple[int, ...]]], **how: Any
) -> list[int]:
    how = {"private_thread": False, "parent": None} | how
    return [await transport.open_table(p.GUILD_ID, HEAT, n, who, **how) for n, who in tables]


def _tables(fake: FakeDiscord) -> list[Channel]:
    return [x for x in fake.channels.values() if x.kind == TEXT and x.category is not None]


def _expected(players: tuple[int, ...]) -> set[tuple[int, int, int, int]]:
    found = {(p.GUILD_ID, 0, EVERYONE_ALLOW, EVERYONE_DENY), (p.BOT_ID, 1, BOT_ALLOW, 0)}
    return found | {(user, 1, PLAYER_ALLOW, 0) for user in players}


def _kept(channel: Channel) -> set[tuple[int, int, int, int]]:
    assert channel.overwrites is not None
    return {(int(o["id"]), o["type"], int(o["allow"]), int(o["deny"])) for o in channel.overwrites}


@pytest.fixture
async def organising(fake: FakeDiscord, client: discord.Client) -> DiscordTransport:
    """The Discord transport of a bot whose role lets it open tables."""
    await _allowed(fake, client, ORGANISING)
    return DiscordTransport(client)


# --- table channels -----------------------------------------------------------------------------
async def test_ten_tables_are_ten_channels_under_one_category_with_exact_overwrites(
    fake, client, organising
):
    seated = seating(10)
    ids = await _open_all(organising, seated)
    [category] = [x for x in fake.channels.values() if x.kind == CATEGORY]
    assert category.name == HEAT
    made = _tables(fake)
    assert [x.id for x in made] == ids and {x.category for x in made} == {category.id}
    for channel, (name, players) in zip(made, seated, strict=True):
        assert channel.name == name and _kept(channel) == _expected(players)
    await fake.wait_for(lambda: all(client.get_channel(i) for i in ids))
    seen = client.get_channel(ids[0])
    assert isinstance(seen, discord.TextChannel) and seen.category is not None
    assert seen.category.name == HEAT
    mine = seen.permissions_for(seen.guild.me)
    assert mine.send_messages and mine.attach_files and mine.manage_threads


async def test_in_a_table_channel_players_speak_and_everyone_else_watches(fake, client, organising):
    [table] = await _open_all(organising, [("heat-2-table-01", (ANN, BOB))])
    channel = fake.channels[table]
    player, watcher = (g.member_permissions(fake, channel, u) for u in (ANN, CAROL))
    assert player & (p.VIEW | p.SEND | p.COMMANDS) == p.VIEW | p.SEND | p.COMMANDS
    assert watcher & (p.VIEW | p.READ_HISTORY) == p.VIEW | p.READ_HISTORY
    assert not watcher & (p.SEND | p.ADD_REACTIONS | p.CREATE_PUBLIC_THREADS)
    await fake.mention(ANN, "hello", channel=table)
    with pytest.raises(ValueError, match="may not post"):
        await fake.mention(CAROL, "hello", channel=table)


async def test_opening_again_returns_the_same_channels_and_makes_none(fake, client, organising):
    seated = seating(10)
    first = await _open_all(organising, seated)
    made = len(fake.paths("POST", r"^guilds/\d+/channels$"))
    again = await _open_all(organising, seated)
    assert again == first and len(fake.paths("POST", r"^guilds/\d+/channels$")) == made
    assert len(_tables(fake)) == 10 and fake.paths("PATCH", r"^channels/") == []


async def test_a_channel_made_before_a_crash_is_found_and_its_overwrites_set_right(
    fake, client, organising
):
    await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    [category] = [x for x in fake.channels.values() if x.kind == CATEGORY]
    body = {"name": "heat-2-table-02", "type": 0, "parent_id": str(category.id)}
    status, left, _ = await fake.call("POST", f"guilds/{p.GUILD_ID}/channels", body)
    assert status == 201  # made, but its maker stopped before it set the overwrites
    await _allowed(fake, client, ORGANISING | p.MANAGE_ROLES)
    found = await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-02", (BOB,), False, None)
    assert found == int(left["id"]) and len(_tables(fake)) == 2
    assert _kept(fake.channels[found]) == _expected((BOB,))


async def test_overwrites_to_set_right_without_manage_roles_are_refused_readably(
    fake, client, organising
):
    table = await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    with pytest.raises(Refused, match="lacks Manage Roles"):
        await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (BOB,), False, None)
    assert _kept(fake.channels[table]) == _expected((ANN,))


async def test_a_table_name_is_made_a_channel_name(fake, client, organising):
    table = await organising.open_table(p.GUILD_ID, HEAT, "Heat 2 — Table 7!", (ANN,), False, None)
    assert fake.channels[table].name == "heat-2-table-7"
    again = await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-7", (ANN,), False, None)
    assert again == table


# --- pacing -------------------------------------------------------------------------------------
@pytest.mark.parametrize("hidden", [True, False], ids=["unannounced", "announced"])
async def test_forty_tables_are_made_at_discords_pace(fake, client, organising, hidden):
    bucket = fake.pace(channel_creation(hidden=hidden, window=0.4))
    ids = await _open_all(organising, seating(40))
    made = _tables(fake)
    assert len(made) == 40 == len(set(ids)) == len({x.name for x in made})
    assert bucket.served == 41 and bucket.violations == 0
    served = [r.at for r in fake.paths("POST", r"^guilds/\d+/channels$") if not r.paced]
    windows = -(-len(served) // CHANNEL_CREATION_LIMIT)  # 41 creations: 9 windows at least
    assert served[-1] - served[0] > (windows - 1) * 0.4 - 0.01
    if hidden:  # discord.py learns the limit from the 429s, and waits each out
        assert bucket.limited >= 1
    else:  # discord.py waits before the bucket is empty: no 429 at all
        assert bucket.limited == 0
    assert fake.rejected == [r for r in fake.rejected if r.paced]


async def test_tables_opened_all_at_once_share_one_category(fake, client, organising):
    fake.pace(channel_creation(hidden=True))
    seated = seating(12)
    opening = [organising.open_table(p.GUILD_ID, HEAT, n, who, False, None) for n, who in seated]
    ids = await asyncio.gather(*opening)
    assert len([x for x in fake.channels.values() if x.kind == CATEGORY]) == 1
    assert sorted(x.id for x in _tables(fake)) == sorted(ids) and len(set(ids)) == 12


async def test_a_server_error_is_retried_later_and_makes_one_channel(fake, client, organising):
    fake.fail("POST", r"^guilds/\d+/channels$", status=503)
    with pytest.raises(Retry):
        await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    first = await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    again = await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    assert first == again and len(_tables(fake)) == 1


# --- refusals -----------------------------------------------------------------------------------
async def test_without_manage_channels_nothing_is_asked_and_the_reason_is_named(fake, client):
    transport = DiscordTransport(client)
    with pytest.raises(Refused, match="lacks Manage Channels") as refused:
        await transport.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    assert "in this server" in str(refused.value)
    assert fake.paths("POST", r"^guilds/") == fake.paths("GET", r"^guilds/") == []


async def test_without_what_the_overwrites_set_nothing_is_asked(fake, client):
    await _allowed(fake, client, p.APP_PERMISSIONS | p.MANAGE_CHANNELS)
    with pytest.raises(Refused, match="Manage Threads") as refused:
        await DiscordTransport(client).open_table(p.GUILD_ID, HEAT, "t-1", (ANN,), False, None)
    assert "Add Reactions" in str(refused.value) and "Manage Channels" not in str(refused.value)
    assert fake.paths("POST", r"^guilds/") == []


async def test_discords_refusal_becomes_refused(fake, client, organising):
    fake.role_permissions = p.APP_PERMISSIONS  # taken away; discord.py has not heard yet
    with pytest.raises(Refused, match="50013"):
        await organising.open_table(p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), False, None)
    assert _tables(fake) == []


# --- private threads ----------------------------------------------------------------------------
async def _threading(fake: FakeDiscord, client: discord.Client) -> DiscordTransport:
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PRIVATE_THREADS)
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    await fake.wait_for(lambda: channel.permissions_for(channel.guild.me).create_private_threads)
    return DiscordTransport(client)


async def test_ten_private_threads_with_their_players_as_members(fake, client):
    transport = await _threading(fake, client)
    seated = seating(10)
    ids = await _open_all(transport, seated, private_thread=True, parent=p.CHANNEL_ID)
    threads = fake.threads(p.CHANNEL_ID)
    assert [t.id for t in threads] == ids
    for thread, (name, players) in zip(threads, seated, strict=True):
        assert thread.kind == PRIVATE_THREAD and thread.name == name
        assert thread.members == {p.BOT_ID, *players} and not thread.invitable
    await fake.wait_for(lambda: all(client.get_channel(i) for i in ids))
    seen = client.get_channel(ids[0])
    assert isinstance(seen, discord.Thread) and seen.is_private() and not seen.invitable
    assert [x for x in fake.channels.values() if x.kind == CATEGORY] == []


async def test_a_private_thread_is_hidden_from_those_not_in_it(fake, client):
    transport = await _threading(fake, client)
    thread = await transport.open_table(
        p.GUILD_ID, HEAT, "heat-2-table-01", (ANN, BOB), True, p.CHANNEL_ID
    )
    await fake.wait_for(lambda: client.get_channel(thread))
    await fake.slash(ANN, "titan", "help", channel=thread)
    assert not g.sees(fake, fake.channels[thread], CAROL)
    with pytest.raises(ValueError, match="cannot see"):
        await fake.slash(CAROL, "titan", "help", channel=thread)


async def test_opening_a_private_thread_again_returns_it(fake, client):
    transport = await _threading(fake, client)
    seated = seating(3)
    how = {"private_thread": True, "parent": p.CHANNEL_ID}
    first = await _open_all(transport, seated, **how)
    again = await _open_all(transport, seated, **how)
    assert again == first and len(fake.threads(p.CHANNEL_ID)) == 3
    assert len(fake.paths("POST", r"^channels/\d+/threads$")) == 3


async def test_without_create_private_threads_a_thread_is_refused_unasked(fake, client):
    with pytest.raises(Refused, match="lacks Create Private Threads"):
        await DiscordTransport(client).open_table(
            p.GUILD_ID, HEAT, "heat-2-table-01", (ANN,), True, p.CHANNEL_ID
        )
    assert fake.paths("POST", r"threads") == [] and fake.paths("GET", r"^guilds/") == []


# --- the terminal -------------------------------------------------------------------------------
async def test_the_terminal_opens_a_table_as_a_new_channel_and_says_so():
    lines: list[str] = []
    console = Console(service=None, write=lines.append)  # type: ignore[arg-type]
    transport = ConsoleTransport(console)
    first = await transport.open_table(1, HEAT, "heat-2-table-01", (ANN, BOB), False, None)
    second = await transport.open_table(1, HEAT, "heat-2-table-02", (CAROL,), True, 1)
    assert (first, second) == (TABLES, TABLES + 1)
    assert await transport.open_table(1, HEAT, "heat-2-table-01", (ANN, BOB), False, None) == first
    assert lines == [
        f"— table channel #heat-2-table-01 opened in {HEAT} for {ANN}, {BOB} —",
        f"— table thread heat-2-table-02 opened in this terminal for {CAROL} —",
    ]
