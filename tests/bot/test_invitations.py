"""Nobody is seated, pinged or sent anything by a game they did not join: the host's `add`
is an invitation only the invited user can accept."""

from __future__ import annotations

from bot.context import Caller, Place, Version

SNOWFLAKE = 700_000_000_000_000_000
ANN, BOB, CAT, DAN = (
    Caller(SNOWFLAKE + i, name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1)
)

HERE = Place(300, guild=9)


async def say(service, caller, text, **options):
    return await service.submit(HERE, caller, text, **options)


async def test_an_invitation_seats_nobody_and_pings_nobody(service):
    await say(service, ANN, "new players 3")
    invited = await say(service, ANN, f"add <@{BOB.user}> Bobby")
    assert not invited.error
    message = invited.public
    assert message.mention == () and not invited.private  # named, not pinged, not DMed
    assert f"<@{BOB.user}>" in message.text and "**Bobby**" in message.text
    commands = [o.command for o in message.offers.items]
    assert commands == ["invitation accept", "invitation refuse"]
    game = await service.game_in(HERE.channel)
    assert [s.user for s in game.seats] == [ANN.user]
    assert [(i.user, i.name) for i in game.settings.invited] == [(BOB.user, "Bobby")]


async def test_only_the_invited_user_can_accept(service):
    await say(service, ANN, "new players 3")
    offered = (await say(service, ANN, f"add <@{BOB.user}> Bobby")).public.offers
    version = Version(offered.game, offered.version)
    for stranger in (ANN, CAT, Caller(SNOWFLAKE + 99, "Eve")):
        refused = await say(service, stranger, "invitation accept", expect=version)
        assert refused.error and "no invitation for you" in refused.ephemeral.text
    accepted = await say(service, BOB, "invitation accept", expect=version)
    assert not accepted.error and "**Bobby** takes seat 2 of 3" in accepted.public.text
    game = await service.game_in(HERE.channel)
    assert [s.name for s in game.seats] == ["Ann", "Bobby"] and game.settings.invited == ()
    again = await say(service, BOB, "invitation accept")
    assert again.error


async def test_a_refused_invitation_frees_its_name(service):
    await say(service, ANN, "new")
    await say(service, ANN, f"add <@{BOB.user}> Bobby")
    taken = await say(service, CAT, "join Bobby")
    assert taken.error and "taken" in taken.ephemeral.text  # held for the invited user
    refused = await say(service, BOB, "invitation refuse")
    assert not refused.error and "declines" in refused.public.text
    assert not (await say(service, CAT, "join Bobby")).error
    game = await service.game_in(HERE.channel)
    assert BOB.user not in [s.user for s in game.seats] and game.settings.invited == ()


async def test_only_the_host_invites_and_invitations_lapse_at_the_start(service):
    await say(service, ANN, "new")
    refused = await say(service, BOB, f"add <@{DAN.user}> Dan")
    assert refused.error and "only the host" in refused.ephemeral.text
    await say(service, ANN, f"add <@{DAN.user}> Dan")
    await say(service, BOB, "join")
    assert not (await say(service, ANN, "start")).error
    game = await service.game_in(HERE.channel)
    assert [s.user for s in game.seats] == [ANN.user, BOB.user]
    assert game.settings.invited == ()
    late = await say(service, DAN, "invitation accept")
    assert late.error and "started already" in late.ephemeral.text


async def test_ai_seats_need_no_invitation(service):
    await say(service, ANN, "new")
    seated = await say(service, ANN, "addai Hal")
    assert not seated.error and "**Hal** (AI, normal) takes seat 2" in seated.public.text
