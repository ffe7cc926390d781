"""``/titan ai``: the host seats AI players, which then play their own decisions."""

from __future__ import annotations

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, command


async def test_the_host_seats_ai_players_and_only_the_human_is_pinged(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    refused = await command(fake, BOB, "titan", "ai")
    assert "only the host" in fake.ephemeral(refused)[0].content
    added = await command(fake, ANN, "titan", "ai", name="Deep Thought")
    [news] = fake.public(added)
    assert "**Deep Thought** (AI, normal) takes seat 2 of 3." in news.content
    await command(fake, ANN, "titan", "ai")
    started = await command(fake, ANN, "titan", "start")
    # The AIs play in the background: their news joins the start's message or follows it,
    # whichever the outbox reaches first; what is told and who is pinged is the same.
    begun = fake.public(started)
    assert "Game #1 begins: " in begun[0].content
    chosen = await command(fake, ANN, "turn", "colour", colour="Red")
    news = fake.public(chosen)
    told = "".join(m.content for m in [*begun, *news])
    assert "Deep Thought takes " in told and "Bot 1 takes " in told  # the AIs chose
    pinged = [m.notified for m in [*begun, *news]]
    assert all(who in ((), (ANN,)) for who in pinged) and (ANN,) in pinged  # only Ann


async def test_status_names_the_computer_seats_with_their_levels(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    await command(fake, ANN, "titan", "ai", name="Hal", level="hard")
    await command(fake, ANN, "titan", "ai")
    await command(fake, ANN, "titan", "start")
    asked = await command(fake, BOB, "titan", "status")  # a spectator asks
    [answer] = fake.sent_for(asked)
    assert answer.ephemeral
    assert "Played by the computer: **Hal** (hard), **Bot 1** (normal)." in answer.content


async def test_the_host_chooses_the_level_the_computer_stands_in_at(fake, titan):
    opened = await command(fake, ANN, "titan", "new", players=2, standin="easy")
    assert "the computer stands in at easy" in fake.public(opened)[0].content
    await command(fake, BOB, "titan", "join")
    await command(fake, ANN, "titan", "start")
    changed = await command(fake, ANN, "titan", "settings", standin="normal")
    [news] = fake.public(changed)
    assert "stands in at normal (was: " in news.content and "at easy)" in news.content
    game = await titan.bot.service.game_in(p.CHANNEL_ID)
    assert game.settings.timing.stand_in == "normal"
