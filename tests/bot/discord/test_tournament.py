"""A tournament run from the slash commands on the fake Discord: an organiser creates it,
signs up 37 players and seats a heat; ten tables open — channels under one category (or
private threads) with exactly the right permissions, at Discord's pace — each with its
game started and its players pinged once; a progress message counts the tables up. A
member without Manage Server cannot use any organiser command."""

from __future__ import annotations

from collections import Counter

import discord
import pytest

from bot.competition import tables as tables_module
from bot.storage import tournaments as store
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import Running
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import ANN, BOB, command, settle
from tests.bot.discord.pacing import channel_creation
from tests.bot.discord.records import CATEGORY, PRIVATE_THREAD, TEXT, Channel
from tests.bot.discord.test_table_channels import (
    BOT_ALLOW,
    EVERYONE_ALLOW,
    EVERYONE_DENY,
    ORGANISING,
    PLAYER_ALLOW,
)

ORGANISER = p.TOURNAMENT_ORGANISER
ENTRANTS = tuple(710_000_000_000_000_000 + i for i in range(1, 38))
"""37 entrants: the fewest tables of 3 to 4 that seat them are ten (36 would sit at nine
tables of four)."""
NAME = "Spring Open"
SIZES = [4, 4, 4, 4, 4, 4, 4, 3, 3, 3]
DESK = {
    "create": {},
    "add": {"ai": 2},
    "close": {},
    "heat": {},
    "status": {},
    "archive": {},
    "remind": {},
    "extend": {"table": "1.1", "by": "24h"},
    "pause": {},
    "resume": {},
    "adjudicate": {"table": "1.1", "reason": "abandoned"},
    "replace": {"old": p.Mention(ANN), "new": p.Mention(BOB)},
    "eliminator": {"entrant": p.Mention(ANN)},
    "advance": {},
}
"""Every organiser command, with its required options."""

PACE_WINDOW = 5.0
"""Seconds of the channel-creation limit's window in the pace test."""


async def _desk(fake: FakeDiscord, sub: str, **options: object) -> str:
    """An organiser's ``/tournament SUB``: what only they were told."""
    done = await command(fake, ANN, "tournament", sub, permissions=ORGANISER, **options)
    return "\n".join(m.content for m in fake.ephemeral(done))


async def _organising(fake: FakeDiscord, titan: Running, threads: bool) -> None:
    """The bot's role may open tables (and, for threads, private threads here)."""
    await fake.set_guild_permissions(ORGANISING)
    if threads:
        await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PRIVATE_THREADS)
    channel = titan.bot.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    await fake.wait_for(lambda: channel.guild.me.guild_permissions.value == ORGANISING)
    if threads:
        await fake.wait_for(
            lambda: channel.permissions_for(channel.guild.me).create_private_threads
        )


async def _run_heat(fake: FakeDiscord, titan: Running, threads: bool) -> None:
    """Create, sign up the 37, close and seat heat 1; wait until every table is open."""
    await _organising(fake, titan, threads)
    told = await _desk(fake, "create", name=NAME, players="3-4", threads=threads)
    assert told == ""  # the channel's news says it: no echo
    assert any(
        f"Tournament **{NAME}** is open" in m.content for m in fake.in_channel(p.CHANNEL_ID)
    ), "the tournament was not announced"
    mentions = " ".join(f"<@{u}>" for u in ENTRANTS)
    await _desk(fake, "add", name=NAME, players=mentions)
    await _desk(fake, "close", name=NAME)
    await _desk(fake, "heat", name=NAME)
    await titan.bot.service.tables.idle()
    assert titan.bot.service.deliverer is not None
    await titan.bot.service.deliverer.idle()
    await settle(fake, quiet=0.2)


async def _seated(titan: Running) -> list[store.TableRow]:
    async with titan.bot.service.db.reading() as db:
        [tournament] = await store.of_guild(db, p.GUILD_ID)
        return await store.tables(db, tournament.id, 1)


def _overwrites(channel: Channel) -> set[tuple[int, int, int, int]]:
    assert channel.overwrites is not None
    return {(int(o["id"]), o["type"], int(o["allow"]), int(o["deny"])) for o in channel.overwrites}


def _pings(fake: FakeDiscord) -> Counter[int]:
    return Counter(u for m in fake.messages.values() for u in m.notified)


def _starts(fake: FakeDiscord, place: int) -> list[Sent]:
    return [m for m in fake.messages.values() if m.channel == place and m.notified]


async def _games_started(fake: FakeDiscord, titan: Running, places: list[int]) -> None:
    """One game per table, started, seating exactly its players, who were pinged once
    each, in their table's start message."""
    tables = await _seated(titan)
    assert [t.channel for t in tables] == places
    assert sorted((len(t.players) for t in tables), reverse=True) == SIZES
    assert sorted(u for t in tables for u in t.players) == sorted(ENTRANTS)
    for table in tables:
        game = await titan.bot.service.game_in(table.channel)
        assert game is not None and game.state is not None and game.id == table.game
        assert sorted(s.user for s in game.seats) == sorted(table.players)
        [start] = _starts(fake, table.channel)
        assert sorted(start.notified) == sorted(table.players)
    assert _pings(fake) == Counter(ENTRANTS)


async def test_a_heat_of_37_opens_ten_table_channels_at_discords_pace(fake, titan):
    # a window long enough that the first six creations fall in one on any machine: the
    # limit is met (a 429), learnt and waited out
    bucket = fake.pace(channel_creation(hidden=True, window=PACE_WINDOW))
    await _run_heat(fake, titan, threads=False)
    [category] = [x for x in fake.channels.values() if x.kind == CATEGORY]
    made = [x for x in fake.channels.values() if x.kind == TEXT and x.category is not None]
    assert len(made) == 10 and {x.category for x in made} == {category.id}
    assert category.name == f"{NAME} tables"
    tables = await _seated(titan)
    for channel, table in zip(made, tables, strict=True):
        assert channel.name == f"heat-1-table-{table.number:02d}"
        everyone = {(p.GUILD_ID, 0, EVERYONE_ALLOW, EVERYONE_DENY), (p.BOT_ID, 1, BOT_ALLOW, 0)}
        players = {(u, 1, PLAYER_ALLOW, 0) for u in table.players}
        assert _overwrites(channel) == everyone | players
    await _games_started(fake, titan, [x.id for x in made])
    assert bucket.served == 11 and bucket.limited >= 1 and bucket.violations == 0


async def test_a_heat_of_37_in_private_threads_with_the_players_as_members(fake, titan):
    await _run_heat(fake, titan, threads=True)
    threads = fake.threads(p.CHANNEL_ID)
    assert len(threads) == 10 and all(t.kind == PRIVATE_THREAD for t in threads)
    assert [x for x in fake.channels.values() if x.kind == CATEGORY] == []
    tables = await _seated(titan)
    for thread, table in zip(threads, tables, strict=True):
        assert thread.members == {p.BOT_ID, *table.players} and not thread.invitable
    await _games_started(fake, titan, [t.id for t in threads])


async def test_a_member_without_manage_server_can_use_no_organiser_command(fake, titan):
    await _desk(fake, "create", name=NAME)
    before = (len(fake.requests), len(fake.messages))
    for sub, options in DESK.items():
        with pytest.raises(ValueError, match="may not use /tournament"):
            await fake.slash(BOB, "tournament", sub, permissions=p.PLAYER, name=NAME, **options)
    await settle(fake)
    assert (len(fake.requests), len(fake.messages)) == before
    async with titan.bot.service.db.reading() as db:
        [tournament] = await store.of_guild(db, p.GUILD_ID)
        assert tournament.status == store.SIGNUP
        assert await store.entrants(db, tournament.id) == []
    # a server may let its organiser role use them (Server Settings → Integrations)
    fake.allow_command("tournament", BOB)
    told = await command(fake, BOB, "tournament", "status", permissions=p.PLAYER, name=NAME)
    assert f"**{NAME}** (signup): 0 entrants." in fake.ephemeral(told)[0].content


async def test_players_sign_up_with_the_name_completed_and_see_the_standings(fake, titan):
    await _desk(fake, "create", name=NAME)
    asked = await fake.autocomplete(BOB, "titan", "tournament", "join", focus="name", name="spr")
    await fake.wait_for(lambda: asked.choices is not None)
    assert asked.choices == [{"name": NAME, "value": NAME}]
    joined = await command(fake, BOB, "titan", "tournament", "join", name=NAME)
    assert f"joined {NAME} (1)" in fake.public(joined)[0].content
    shown = await command(fake, BOB, "titan", "tournament", "standings", name=NAME)
    assert f"No game of {NAME} has finished yet." in fake.ephemeral(shown)[0].content
    left = await command(fake, BOB, "titan", "tournament", "leave", name=NAME)
    assert f"left {NAME}" in fake.public(left)[0].content
    rated = await command(fake, BOB, "titan", "ratings")
    assert fake.ephemeral(rated)[0].content.startswith("Ratings")
    mine = await command(fake, BOB, "titan", "me", "rating")
    [answer] = fake.ephemeral(mine)
    assert answer.content == (
        "Your record: no rated game finished here yet.\n"
        "Reliability here: no decision handed to you yet."
    )
    assert fake.public(mine) == []


async def test_the_tournament_channel_counts_the_tables_up_in_one_edited_message(
    fake, titan, monkeypatch
):
    monkeypatch.setattr(tables_module, "REPORT_EVERY", 0.0)  # tables open faster than people's
    fake.pace(channel_creation(hidden=True))
    await _run_heat(fake, titan, threads=False)
    tables = await _seated(titan)
    head = f"🪑 Heat 1 of **{NAME}**:"
    [report] = [m for m in fake.messages.values() if head in m.content]
    assert report.channel == p.CHANNEL_ID and not report.notified
    places = " ".join(f"<#{t.channel}>" for t in tables)
    assert report.content.splitlines()[-1] == f"{head} all 10 tables are open: {places}"
    assert report.content.count(head) == 1  # each report took the last one's place
    edits = [
        r.body["content"].splitlines()[-1]
        for r in fake.paths("PATCH", rf"channels/{p.CHANNEL_ID}/messages/{report.id}$")
        if head in r.body.get("content", "")
    ]
    counts = [line for line in edits if line.endswith("tables open…")]
    assert counts and counts[0] == f"{head} 0 of 10 tables open…"
    assert len(edits) <= 1 + 10  # at most one a table, and the start
    shown = [int(line.removeprefix(head).split()[0]) for line in counts]
    assert shown == sorted(set(shown)) and len(shown) > 2  # it counted up
    assert edits[-1].endswith(places)
