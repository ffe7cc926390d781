"""The operator's limits through the service: open games per user and per server, history
lengths, and each user's command rate (on a clock the test moves)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.config import Limits
from bot.context import Caller, Place
from bot.replies import Replies
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import listing
from bot.storage.backends import Target
from engine.game.legal import to_act
from tests.bot.agent import caller, open_game, play
from tests.bot.conftest import SEED, StubRenderer

ANN, BOB, CAT = Caller(1, "Ann"), Caller(2, "Bob"), Caller(3, "Cat")
BOSS = Caller(9, "Boss", organiser=True)
GUILD = 77
RATE = "try again in"


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


Opener = Callable[..., Awaitable[GameService]]


@pytest.fixture
async def limited(db_target: Target) -> AsyncIterator[Opener]:
    """Opens the service over the test's database with the limits given (one at a time)."""
    opened: list[GameService] = []

    async def open_with(limits: Limits, clock: Clock | None = None) -> GameService:
        service = await GameService.open(
            db_target,
            renderer=StubRenderer(),
            seeds=lambda: SEED,
            limits=limits,
            clock=clock or Clock(),
        )
        opened.append(service)
        return service

    yield open_with
    for service in opened:
        await service.close()


def here(channel: int, guild: int | None = GUILD) -> Place:
    return Place(channel, guild)


async def say(service: GameService, who: Caller, text: str, channel: int = 1) -> Replies:
    return await service.submit(here(channel), who, text)


def refusal(replies: Replies) -> str:
    assert replies.error and replies.public is None and replies.ephemeral is not None
    return replies.ephemeral.text


# Open games per user


async def test_a_user_opens_and_joins_no_more_games_than_allowed(limited):
    service = await limited(Limits(open_games_per_user=2, commands_per_minute=None))
    assert not (await say(service, ANN, "new", 1)).error
    assert not (await say(service, BOB, "new", 2)).error
    assert not (await say(service, ANN, "join", 2)).error
    third = refusal(await say(service, ANN, "new", 3))
    assert third == (
        "you have a seat in 2 open games, the most this bot allows (2): "
        "finish or leave one before opening another"
    )
    assert not (await say(service, CAT, "new", 3)).error
    assert "before joining another" in refusal(await say(service, ANN, "join", 3))
    assert refusal(await say(service, ANN, "join", 2)) == (
        "you have a seat already (as Ann): wait for the host to `start` the game, or `leave` it"
    )
    async with service.db.reading() as db:
        assert await listing.count_open_games_of(db, ANN.user) == 2
    assert not (await say(service, ANN, "leave", 2)).error
    assert not (await say(service, ANN, "join", 3)).error  # a seat freed: room again
    assert not (await say(service, ANN, "cancel", 1)).error
    assert not (await say(service, ANN, "new", 4)).error


async def test_organisers_are_exempt_from_the_games_per_user(limited):
    service = await limited(Limits(open_games_per_user=1, commands_per_minute=None))
    for channel in (1, 2, 3):
        assert not (await say(service, BOSS, "new", channel)).error
    assert not (await say(service, ANN, "join", 1)).error
    assert refusal(await say(service, ANN, "join", 2)).startswith(
        "you have a seat in 1 open game, the most this bot allows (1): "
    )


async def test_a_finished_game_no_longer_counts(limited):
    service = await limited(Limits(open_games_per_user=1, commands_per_minute=None))
    await open_game(service, 5, 2)
    seated = caller(5, 0)
    assert refusal(await say(service, seated, "new", 6)).startswith(
        "you have a seat in 1 open game, the most this bot allows (1): "
    )
    await play(service, 5, seed=3)  # to the end of the game
    assert await service.game_in(5) is None
    assert not (await say(service, seated, "new", 6)).error


async def test_concurrent_opens_in_many_channels_cannot_pass_the_limit(limited):
    service = await limited(Limits(open_games_per_user=2, commands_per_minute=None))
    opened = await asyncio.gather(*(say(service, ANN, "new", c) for c in range(1, 9)))
    assert sum(not r.error for r in opened) == 2
    for channel in (11, 12, 13, 14):
        assert not (await say(service, Caller(channel, "Host"), "new", channel)).error
    joined = await asyncio.gather(*(say(service, BOB, "join", c) for c in (11, 12, 13, 14)))
    assert sum(not r.error for r in joined) == 2
    async with service.db.reading() as db:
        assert await listing.count_open_games_of(db, ANN.user) == 2
        assert await listing.count_open_games_of(db, BOB.user) == 2


# Open games per server


async def test_a_server_holds_no_more_open_games_than_allowed(limited):
    service = await limited(Limits(open_games_per_server=2, commands_per_minute=None))
    assert not (await say(service, ANN, "new", 1)).error
    assert not (await say(service, BOB, "new", 2)).error
    full = refusal(await service.submit(here(3), BOSS, "new"))  # organisers too
    assert full == (
        "this server has 2 open games, the most this bot allows (2): "
        "finish or cancel one before opening another"
    )
    assert not (await service.submit(here(3, guild=GUILD + 1), CAT, "new")).error
    assert not (await service.submit(here(4, guild=None), CAT, "new")).error
    assert not (await say(service, CAT, "join", 1)).error  # joining adds no game
    assert not (await say(service, BOB, "cancel", 2)).error
    assert not (await say(service, BOSS, "new", 5)).error


# History lengths


async def test_history_shows_the_operators_default_and_at_most_its_maximum(limited):
    service = await limited(Limits(history_default=3, history_max=5, commands_per_minute=None))
    await open_game(service, 5, 2)
    await play(service, 5, seed=1, limit=12)
    game = await service.game_in(5)
    assert game is not None and game.n >= 6

    async def shown(text: str) -> list[str]:
        replies = await service.submit(Place(5), ANN, text)
        assert replies.ephemeral is not None
        return replies.ephemeral.text.splitlines()

    assert [line.split()[0] for line in await shown("history")] == [
        f"#{n}" for n in range(game.n - 2, game.n + 1)
    ]
    assert len(await shown("history 40")) == 5
    assert len(await shown("history 4")) == 4


# Command rate


async def test_a_user_over_the_rate_is_told_when_to_try_again(limited):
    clock = Clock()
    service = await limited(Limits(commands_per_minute=6, command_burst=3), clock)
    assert not (await say(service, ANN, "new")).error
    assert not (await say(service, ANN, "status")).error  # information commands count
    assert "unknown" in refusal(await say(service, ANN, "frobnicate"))  # so does a typo
    over = refusal(await say(service, ANN, "status"))
    assert over == (
        "You are sending commands faster than this bot allows (3 at once, 6 a minute): "
        "please try again in 10 seconds."
    )
    assert not (await say(service, BOB, "join")).error  # others are not held back
    clock.now += 9.5
    assert "try again in 1 second." in refusal(await say(service, ANN, "status"))
    clock.now += 0.5
    assert not (await say(service, ANN, "status")).error


async def test_a_refused_command_changes_nothing(limited):
    clock = Clock()
    service = await limited(Limits(commands_per_minute=1, command_burst=2), clock)
    assert not (await say(service, ANN, "new")).error
    assert not (await say(service, ANN, "status")).error
    assert RATE in refusal(await say(service, ANN, "cancel"))
    game = await service.game_in(1)
    assert game is not None and game.row.status.is_open


async def test_withdraw_sent_two_hundred_times_reaches_the_game_a_burst_at_most(limited):
    clock = Clock()
    service = await limited(Limits(), clock)
    await open_game(service, 5, 2)
    clock.now += 60  # every bucket full again
    game = await service.game_in(5)
    assert game is not None and game.state is not None
    who = caller(5, to_act(game.state))
    sent = await asyncio.gather(*(service.submit(Place(5), who, "withdraw") for _ in range(200)))
    over = [r for r in sent if r.error and RATE in (r.ephemeral.text if r.ephemeral else "")]
    assert len(over) == 200 - Limits().command_burst
    assert sum(r.public is not None for r in sent) <= Limits().command_burst


async def test_computer_players_are_not_counted(limited):
    service = await limited(Limits(commands_per_minute=1, command_burst=1))
    host = Caller(rows.ai_user(1), "Bot 1", organiser=True)  # as the demo's AI host
    played = asyncio.Event()
    service.on_ai_action = lambda game: played.set() if game.n > 10 else None
    for text in ("new players 2", "addai", "status", "start"):
        assert not (await service.submit(Place(5), host, text)).error, text
    await asyncio.wait_for(played.wait(), 600)  # the AI seats play on after the start


async def test_an_organiser_removes_a_player_who_is_over_the_rate(limited):
    from bot.discord.seats import remove_player

    clock = Clock()
    service = await limited(Limits(commands_per_minute=1, command_burst=2), clock)
    await open_game(service, 5, 2)
    leaver = caller(5, 1)
    for _ in range(3):  # spend every command the player has, and one more
        answered = await say(service, leaver, "status", 5)
    assert RATE in refusal(answered)
    removed = await remove_player(service, Place(5), BOSS, leaver.user)
    assert not removed.error and removed.public is not None


async def test_an_invitation_is_accepted_within_the_games_per_user(limited):
    service = await limited(Limits(open_games_per_user=1, commands_per_minute=None))
    invitee = Caller(700_000_000_000_000_077, "Dee")
    assert not (await say(service, ANN, "new", 1)).error
    assert not (await say(service, ANN, f"add <@{invitee.user}>", 1)).error
    assert not (await say(service, invitee, "new", 2)).error  # a seat in one open game
    refused = refusal(await say(service, invitee, "invitation accept", 1))
    assert "before joining another" in refused
    assert not (await say(service, invitee, "leave", 2)).error
    assert not (await say(service, invitee, "invitation accept", 1)).error
