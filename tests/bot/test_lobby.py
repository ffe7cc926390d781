"""The lobby through the service: new, join, leave, add, start, cancel."""

from __future__ import annotations

from bot.context import Caller, Place
from bot.replies import PictureKind
from tests.bot.conftest import SEED
from tests.bot.tampering import query

HERE = Place(100, guild=9)
ANN, BOB, CAT, DAN = (Caller(i, name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1))


async def say(service, caller, text, place=HERE):
    return await service.submit(place, caller, text)


async def test_open_join_start(service, db_target):
    opened = await say(service, ANN, "new players 3 record_keeping")
    assert not opened.error
    assert "up to 3 players" in opened.public.text and "record keeping on" in opened.public.text
    assert not (await say(service, BOB, "join Bobby")).error
    status = await say(service, CAT, "status")
    assert "Ann" in status.ephemeral.text and "Bobby" in status.ephemeral.text
    started = await say(service, ANN, "start")
    assert not started.error
    assert "begins: Ann, Bobby" in started.public.text
    assert started.public.picture.kind is PictureKind.MASTERBOARD
    game = await service.game_in(HERE.channel)
    chooser = game.state.active
    others = tuple(game.user_of(s.seat) for s in game.seats if s.seat != chooser)
    assert started.public.mention == (game.user_of(chooser), *others)  # every player, once
    assert f"Waiting for **{game.name_of(chooser)}** to choose a colour" in started.public.text
    assert game.settings.record_keeping and game.state.options.record_keeping
    [row] = query(db_target, "SELECT status, seed_text, guild FROM games")
    assert row == ("active", str(SEED), 9)
    snapshots = query(db_target, "SELECT game, n FROM snapshots")
    assert snapshots == [(game.id, 0)]


async def test_lobby_refusals(service):
    assert (await say(service, BOB, "join")).ephemeral.text.startswith("there is no game")
    await say(service, ANN, "new players 2")
    refusals = [
        (ANN, "new", "open in this channel already"),
        (ANN, "join", "you have a seat already"),
        (BOB, "join ann", "is taken"),
        (BOB, "start", "only the host"),
        (ANN, "start", "at least 2 players"),
        (BOB, "add <@3> Cat", "only the host"),
        (ANN, "add Cat", "is not a user"),
        (BOB, "leave", "no seat"),
        (BOB, "move Bk01 104", "not started"),
        (BOB, "colour Red", "not started"),
        (BOB, "legions", "not started"),
    ]
    for caller, text, complaint in refusals:
        replies = await say(service, caller, text)
        assert replies.error, text
        assert complaint in replies.ephemeral.text, (text, replies.ephemeral.text)
    assert not (await say(service, BOB, "join")).error
    assert "full" in (await say(service, CAT, "join")).ephemeral.text


async def refusal(service, caller, text):
    replies = await say(service, caller, text)
    assert replies.error, text
    return replies.ephemeral.text


async def test_lobby_refusals_speak_to_the_caller_and_say_what_to_do_instead(service):
    await say(service, ANN, "new players 2")
    assert await refusal(service, ANN, "join") == (
        "you have a seat already (as Ann), and you host the game: `start` it once the players "
        "are seated, or `leave` it"
    )
    assert await refusal(service, CAT, "new") == (
        "game #1 is open in this channel already: `join` it, or open a new game in another channel"
    )
    assert await refusal(service, ANN, "new") == (
        "game #1 is open in this channel already, and you host it: `start` it once the "
        "players are seated, or `cancel` it"
    )
    assert await refusal(service, ANN, "start") == (
        "a game needs at least 2 players: others take a seat with `join`, or seat a computer "
        "player with `addai`"
    )
    assert not (await say(service, BOB, "join")).error
    assert await refusal(service, BOB, "join") == (
        "you have a seat already (as Bob): wait for the host to `start` the game, or `leave` it"
    )
    assert await refusal(service, BOB, "new") == (
        "game #1 is open in this channel already, and you have a seat in it: wait for the "
        "host to `start` it"
    )
    assert await refusal(service, CAT, "join") == (
        "the game is full (2 players): watch it with `status`, or open a new game in another "
        "channel"
    )
    assert await refusal(service, BOB, "withdraw") == (
        "the game has not started yet: the host starts it with `start` (until then a seat is "
        "given up with `leave`)"
    )
    assert not (await say(service, ANN, "start")).error
    assert await refusal(service, CAT, "new") == (
        "game #1 is being played in this channel: `status` shows where it stands; open a new "
        "game in another channel"
    )
    assert await refusal(service, BOB, "leave") == (
        "game #1 has started already: to leave it now, `withdraw` (you concede the whole "
        "game, RULES §12.4)"
    )
    assert await refusal(service, CAT, "leave") == (
        "you have no seat in this game: there is nothing to leave"
    )
    assert await refusal(service, CAT, "join") == (
        "game #1 has started already: its seats are taken; watch it with `status`, or open a "
        "new game in another channel"
    )
    assert await refusal(service, BOB, "join") == (
        "you play in game #1 already: `status` shows what it waits for"
    )
    assert await refusal(service, ANN, "start") == (
        "game #1 has started already: `status` shows where it stands"
    )
    assert (
        await refusal(service, ANN, "addai")
        == "game #1 has started already: no seat can be added now"
    )


async def test_an_invitation_to_someone_seated_names_them_or_speaks_to_the_host(service):
    ann = Caller(700_000_000_000_000_001, "Ann")
    bob = Caller(700_000_000_000_000_002, "Bob")
    await say(service, ann, "new players 3")
    await say(service, bob, "join")
    assert await refusal(service, ann, f"add <@{bob.user}>") == (
        "**Bob** has a seat in this game already"
    )
    assert await refusal(service, ann, f"add <@{ann.user}>") == (
        "you have a seat already (as Ann), and you host the game: `start` it once the players "
        "are seated, or `leave` it"
    )
    assert await refusal(service, ann, f"add <@{CAT.user + 10**18}> Bob") == (
        "the name 'Bob' is taken: invite them under another, `add USER NAME`"
    )


async def test_bad_player_counts(service):
    for text in ("new players 1", "new players 7", "new players x", "new colours"):
        assert (await say(service, ANN, text)).error, text
    assert await service.game_in(HERE.channel) is None


async def test_invited_users_take_their_seats_and_leaving_passes_the_host(service):
    cat, dan = 700_000_000_000_000_003, 700_000_000_000_000_004  # Discord ids
    await say(service, ANN, "new")
    assert not (await say(service, ANN, f"add <@{cat}> Cat")).error
    assert not (await say(service, ANN, f"add {dan}")).error
    assert not (await say(service, Caller(cat, "Cat"), "invitation accept")).error
    assert not (await say(service, Caller(dan, "Dora"), "join")).error  # joining accepts too
    game = await service.game_in(HERE.channel)
    assert [(s.seat, s.user, s.name) for s in game.seats] == [
        (0, 1, "Ann"),
        (1, cat, "Cat"),
        (2, dan, "Player 2"),
    ]
    assert game.settings.invited == ()
    left = await say(service, ANN, "leave")
    assert "The host is Cat" in left.public.text
    game = await service.game_in(HERE.channel)
    assert [s.seat for s in game.seats] == [0, 1]
    assert game.settings.host == cat
    assert not (await say(service, Caller(cat, "Cat"), "start")).error


async def test_the_last_to_leave_closes_the_lobby(service):
    await say(service, ANN, "new")
    assert "closed" in (await say(service, ANN, "leave")).public.text
    assert await service.game_in(HERE.channel) is None
    assert not (await say(service, BOB, "new")).error


async def test_cancel_by_host_or_organiser(service):
    await say(service, ANN, "new")
    await say(service, BOB, "join")
    await say(service, ANN, "start")
    assert (await say(service, BOB, "cancel")).error
    organiser = Caller(50, "Mod", organiser=True)
    assert "cancelled by Mod" in (await say(service, organiser, "cancel")).public.text
    assert await service.game_in(HERE.channel) is None
    assert (await say(service, ANN, "cancel")).error


async def test_channels_are_independent(service):
    other = Place(200)
    await say(service, ANN, "new")
    await say(service, ANN, "new", other)
    await say(service, BOB, "join", other)
    assert not (await say(service, ANN, "start", other)).error
    first = await service.game_in(HERE.channel)
    second = await service.game_in(other.channel)
    assert first.state is None and second.state is not None
    assert first.id != second.id
