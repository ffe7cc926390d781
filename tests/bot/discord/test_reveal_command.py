"""``/titan reveal``: a player shows his own legion, or part of it, to the channel at any
time (errata 4.5); autocomplete offers his legions and their characters, to him alone."""

from __future__ import annotations

from tests.bot.discord.helpers import ANN, BOB, command, open_game

STARTING = "Angel Centaur Centaur Gargoyle Gargoyle Ogre Ogre Titan"


async def choices(fake, user, focus, **options):
    asked = await fake.autocomplete(user, "titan", "reveal", focus=focus, **options)
    await fake.wait_for(lambda: asked.choices is not None)
    return [c["value"] for c in asked.choices]


async def test_a_legion_is_shown_by_slash_command(fake, titan):
    news = await open_game(fake)
    red = news.notified[0]
    black = BOB if red == ANN else ANN
    await command(fake, red, "turn", "colour", colour="Red")
    await command(fake, black, "turn", "colour", colour="Black")
    assert await choices(fake, red, "legion", legion="") == ["Rd01"]
    offered = await choices(fake, red, "characters", legion="Rd01", characters="")
    assert offered == [STARTING, "Angel", "Centaur", "Gargoyle", "Ogre", "Titan"]
    assert await choices(fake, red, "characters", legion="rd01", characters="gar") == [
        STARTING,
        "Gargoyle",
    ]
    assert await choices(fake, black, "characters", legion="Rd01", characters="") == []
    shown = await command(fake, red, "titan", "reveal", legion="Rd01", characters="Titan")
    [public] = fake.public(shown)
    assert "Rd01" in public.content and "shows: Titan." in public.content
    again = await command(fake, red, "titan", "reveal", legion="Rd01", characters="Titan")
    assert "already" in fake.ephemeral(again)[0].content and fake.public(again) == []
