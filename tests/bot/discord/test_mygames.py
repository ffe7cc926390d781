"""``/titan mygames`` on the fake Discord: a player's games from two channels, the one
waiting for them first, answered to them alone with channel links and timestamps."""

from __future__ import annotations

import re

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, CAROL, command, settle

TIMESTAMP = re.compile(r"<t:\d+:R>")


async def started(fake, channel: int, host: int, guest: int) -> int:
    """A two-player game in ``channel``; the user who chooses a colour first."""
    await command(fake, host, "titan", "new", players=2, channel=channel)
    await command(fake, guest, "titan", "join", channel=channel)
    start = await command(fake, host, "titan", "start", channel=channel)
    [news] = fake.public(start)
    return news.notified[0]


async def test_mygames_lists_both_channels_games_the_waiting_one_first(fake, titan):
    other = await fake.add_channel("second")
    await fake.wait_for(lambda: titan.bot.get_channel(other.id))
    first = await started(fake, p.CHANNEL_ID, ANN, BOB)  # game 1: made to wait for Bob
    if first == ANN:
        await command(fake, ANN, "turn", "colour", colour="Red")
    first = await started(fake, other.id, CAROL, ANN)  # game 2: made to wait for Ann
    if first == CAROL:
        await command(fake, CAROL, "turn", "colour", colour="Blue", channel=other.id)

    asked = await command(fake, ANN, "titan", "mygames")
    [answer] = fake.ephemeral(asked)
    assert fake.public(asked) == [] and fake.dms_to(ANN) == []
    lines = answer.content.splitlines()
    assert lines[:2] == ["Your open games: 2, 1 waiting for you.", "**Waiting for you**"]
    assert lines[2].startswith(f"- Game #2 in <#{other.id}>, before turn 1: waiting for you to ")
    assert lines[3] == "**Your other games**"
    assert lines[4].startswith(f"- Game #1 in <#{p.CHANNEL_ID}>, before turn 1: waiting for ")
    assert "waiting for you" not in lines[4]
    assert all(TIMESTAMP.search(line) for line in (lines[2], lines[4]))
    assert "`" not in answer.content and "</" not in answer.content  # no command to click

    elsewhere = await command(fake, BOB, "titan", "mygames", channel=other.id)
    [bobs] = fake.ephemeral(elsewhere)
    assert bobs.content.splitlines()[2].startswith(f"- Game #1 in <#{p.CHANNEL_ID}>")
    nobody = await command(fake, 700_000_000_000_000_099, "titan", "mygames")
    [none] = fake.ephemeral(nobody)
    assert none.content.startswith("You have no open game: </titan new:")
    assert "</titan join:" in none.content


async def test_away_with_a_standin_is_told_in_both_channels(fake, titan):
    other = await fake.add_channel("second")
    await fake.wait_for(lambda: titan.bot.get_channel(other.id))
    await started(fake, p.CHANNEL_ID, ANN, BOB)
    await started(fake, other.id, CAROL, ANN)
    gone = await command(
        fake, ANN, "titan", "me", "away", until="2026-12-20", standin_user=p.Mention(CAROL)
    )
    [answer] = fake.ephemeral(gone)
    assert f"<@{CAROL}> plays for you until then" in answer.content
    assert "cannot stand in there" in answer.content  # Carol plays game 2 herself
    await settle(fake)
    first = [m.content for m in fake.in_channel(p.CHANNEL_ID) if "is away until" in m.content]
    second = [m.content for m in fake.in_channel(other.id) if "is away until" in m.content]
    assert len(first) == 1 and f"<@{CAROL}> stands in for them" in first[0]
    assert len(second) == 1 and "their clocks stop" in second[0]
    assert any("named you their stand-in" in m.content for m in fake.dms_to(CAROL))
