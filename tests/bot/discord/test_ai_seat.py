"""``/titan ai``: the host seats AI players, which then play their own decisions."""

from __future__ import annotations

from tests.bot.discord.helpers import ANN, BOB, command


async def test_the_host_seats_ai_players_and_only_the_human_is_pinged(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    refused = await command(fake, BOB, "titan", "ai")
    assert "only the host" in fake.ephemeral(refused)[0].content
    added = await command(fake, ANN, "titan", "ai", name="Deep Thought")
    [news] = fake.public(added)
    assert "**Deep Thought** (AI) takes seat 2 of 3." in news.content
    await command(fake, ANN, "titan", "ai")
    started = await command(fake, ANN, "titan", "start")
    [begun] = fake.public(started)
    assert "Game #1 begins: " in begun.content and begun.notified == (ANN,)
    chosen = await command(fake, ANN, "turn", "colour", colour="Red")
    [news] = fake.public(chosen)
    told = begun.content + news.content
    assert "Deep Thought takes " in told and "Bot 1 takes " in told  # the AIs chose
    assert news.notified in ((), (ANN,))
