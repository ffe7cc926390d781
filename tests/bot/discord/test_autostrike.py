"""``/titan me autostrike``: a player's forced battle actions (RULES §9.1, §9.4), or all
their strike-phase decisions (§9, §10), are made for them at once; the others' wait for
them as before."""

from __future__ import annotations

from bot.handlers.forced import AUTOSTRIKE, forced_turn, striking_person
from bot.storage import games as rows
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB, command, open_game

STEPS = 1500


async def test_autostrike_makes_a_players_forced_strikes_and_only_theirs(fake: FakeDiscord, titan):
    await open_game(fake)
    answer = await command(fake, ANN, "titan", "me", "autostrike", choice="forced")
    [said] = fake.ephemeral(answer)
    assert said.content.startswith("Autostrike forced")
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    started = await driver.service.game_in(p.CHANNEL_ID)
    assert started is not None
    ann = started.seat_of(ANN)
    waited: dict[int, int] = {ANN: 0, BOB: 0}
    made: list[rows.ActionRow] = []
    for _ in range(STEPS):
        game = await driver.service.game_in(p.CHANNEL_ID)
        if game is None:
            break
        forced = forced_turn(game)
        if forced is not None:
            waited[game.user_of(forced.seat)] += 1
        async with driver.service.db.reading() as db:
            made = [r for r in await rows.actions(db, game.id) if r.cause == AUTOSTRIKE]
        if made and waited[BOB]:
            break
        await driver.step()
    assert waited[ANN] == 0 and waited[BOB] > 0
    assert made and {r.seat for r in made} == {ann}
    told = [
        line
        for thread in fake.threads()
        for message in fake.in_channel(thread.id)
        for line in message.content.split("\n")
        if "(autostrike)" in line
    ]
    assert len(told) == len(made)
    assert all(" strikes " in line and line.endswith(" (autostrike).") for line in told), told


async def test_autostrike_all_makes_every_strike_decision_of_its_player(fake: FakeDiscord, titan):
    """Ann at ``all``, Bob off, by clicks: the game never waits for Ann's strike phase, which
    she is never offered to click, and waits for Bob's; each decision made for her is told in
    the battle's thread with its mark."""
    await open_game(fake)
    answer = await command(fake, ANN, "titan", "me", "autostrike", choice="all")
    [said] = fake.ephemeral(answer)
    assert said.content.startswith("Autostrike all")
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    started = await driver.service.game_in(p.CHANNEL_ID)
    assert started is not None
    ann = started.seat_of(ANN)
    waited: dict[int, int] = {ANN: 0, BOB: 0}
    made: list[rows.ActionRow] = []
    for _ in range(STEPS):
        game = await driver.service.game_in(p.CHANNEL_ID)
        if game is None:
            break
        seat = striking_person(game)
        if seat is not None:
            waited[game.user_of(seat)] += 1
        async with driver.service.db.reading() as db:
            made = [r for r in await rows.actions(db, game.id) if r.cause == AUTOSTRIKE]
        if len(made) >= 6 and waited[BOB]:
            break
        await driver.step()
    assert waited[ANN] == 0 and waited[BOB] > 0
    assert len(made) >= 6 and {r.seat for r in made} == {ann}
    await titan.bot.service.ai.idle()
    await titan.bot.service.deliverer.idle()
    places = [p.CHANNEL_ID, *(thread.id for thread in fake.threads())]  # (a battle's end)
    told = [
        line
        for place in places
        for message in fake.in_channel(place)
        for line in message.content.split("\n")
        if "(autostrike)" in line
    ]
    assert len(told) == len(made), told
    assert all(line.endswith(" (autostrike).") for line in told), told
