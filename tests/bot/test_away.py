"""Time away across games: every game of the player is told, and a named stand-in plays.

A player away names someone to play for them: that user's commands in the game's channel
play the away seat (logged as a stand-in's), they get the seat's private news, and its
reminders; nobody else gets any of it, and it ends when the player is back. Someone who
plays in the game themselves cannot stand in there: the clocks stop instead.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.context import Caller, Place
from bot.schedule.clock import ManualClock
from bot.schedule.options import describe, with_away_days
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage.record import NO_CLOCK, Game, full_replay
from engine.errors import InvalidNotation
from engine.game.legal import legal_actions, to_act

FIRST, SECOND, LOBBY = 51, 52, 53
HOUR = 3600.0
SNOWFLAKE = 300_000_000_000_000_000
ME = Caller(SNOWFLAKE + 1, "P0")
STANDIN = Caller(SNOWFLAKE + 9, "Sub")


def player(channel: int) -> Caller:
    """The second player of the game in ``channel`` (the first is ME in every game)."""
    return Caller(SNOWFLAKE + channel, f"P{channel}")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())


@pytest.fixture
async def service(db_target, clock):
    service = await GameService.open(db_target, seeds=lambda: 11, wall_clock=clock)
    yield service
    await service.close()


async def open_game(service: GameService, channel: int, options: str = "", start: bool = True):
    """A 2-player game in ``channel`` between ME and ``player(channel)``."""
    texts = [(ME, f"new players 2 {options}"), (player(channel), "join")]
    if start:
        texts.append((ME, "start"))
    for who, text in texts:
        replies = await service.submit(Place(channel), who, text)
        assert not replies.error, (text, replies.ephemeral)


async def posts(service: GameService, channel: int) -> list[str]:
    async with service.db.reading() as db:
        return [r.body for r in await outbox.waiting(db, channel) if r.kind == "post"]


async def dms_to(service: GameService, channel: int, user: int) -> list[str]:
    async with service.db.reading() as db:
        return [
            r.body
            for r in await outbox.waiting(db, channel)
            if r.recipient == user and r.kind == "dm"
        ]


def game_user(game, seat: int) -> int:
    assert game is not None
    return int(game.user_of(seat))


async def test_being_away_is_told_in_every_game_being_played_and_so_is_the_return(service):
    await open_game(service, FIRST)
    await open_game(service, SECOND)
    await open_game(service, LOBBY, start=False)
    me = ME
    before = {c: len(await posts(service, c)) for c in (FIRST, SECOND, LOBBY)}
    replies = await service.submit(Place(SECOND), me, "away until 2026-12-20")
    assert not replies.error
    for channel in (FIRST, SECOND):
        news = (await posts(service, channel))[before[channel] :]
        assert len(news) == 1 and "**P0** is away until <t:1797724800:f>" in news[0]
    assert len(await posts(service, LOBBY)) == before[LOBBY]  # a lobby is not being played
    await service.submit(Place(FIRST), me, "away off")
    for channel in (FIRST, SECOND):
        assert "**P0** is back" in (await posts(service, channel))[-1]


async def stand_in_game(service: GameService, clock: ManualClock) -> tuple[int, int]:
    """A game with a deadline where the awaited player is away and names STANDIN."""
    await open_game(service, FIRST, "deadline 4h")
    game = await service.game_in(FIRST)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    away = Caller(game.user_of(seat), game.name_of(seat))
    replies = await service.submit(
        Place(FIRST), away, f"away until 2026-12-05 standin <@{STANDIN.user}>"
    )
    assert not replies.error, replies.ephemeral
    assert f"<@{STANDIN.user}> stands in for them" in replies.elsewhere[0].message.text
    assert f"<@{STANDIN.user}> plays for you" in replies.ephemeral.text
    assert "named you their stand-in" in replies.private[STANDIN.user].text
    return seat, game.user_of(seat)


async def test_a_named_standin_plays_the_away_seat_with_its_private_news(service, clock):
    seat, away = await stand_in_game(service, clock)
    other = game_user(await service.game_in(FIRST), 1 - seat)
    played = 0
    for _ in range(20):  # the stand-in plays the away seat, its rival plays theirs
        game = await service.game_in(FIRST)
        assert game is not None and game.state is not None
        if any(True for _ in game.state.legions_of(seat)) and played:
            break
        waiting = to_act(game.state)
        assert waiting is not None
        who = STANDIN if waiting == seat else Caller(other, "R")
        done = await service.act(Place(FIRST), who, legal_actions(game.state, waiting)[0])
        assert not done.error, done.ephemeral
        played += waiting == seat
    own = await service.submit(Place(FIRST), STANDIN, "legions")
    assert not own.error and "Titan" in own.ephemeral.text  # the seat's secret contents
    async with (
        service.db.reading() as db,
        db.execute(
            "SELECT DISTINCT seat, cause FROM actions WHERE game = ? AND cause IS NOT NULL",
            (game.id,),
        ) as cursor,
    ):
        assert [tuple(r) async for r in cursor] == [(seat, "stand-in: Sub")]
    # the seat's private news reaches the stand-in too, headed by whom it is for
    copies = [b for b in await dms_to(service, FIRST, STANDIN.user) if "whom you stand in" in b]
    originals = await dms_to(service, FIRST, away)
    assert len(copies) == len(originals) >= 1
    assert not [b for b in await dms_to(service, FIRST, other) if "stand in" in b]
    # a stranger is still refused, and so is the stand-in once the player is back
    stranger = await service.submit(Place(FIRST), Caller(SNOWFLAKE + 77, "X"), "legions")
    assert "Titan" not in stranger.ephemeral.text
    await service.submit(Place(FIRST), Caller(away, "P"), "away off")
    late = await service.submit(Place(FIRST), STANDIN, "legions")
    assert "Titan" not in late.ephemeral.text
    now = await service.game_in(FIRST)
    assert now is not None and now.state is not None
    waiting = to_act(now.state)
    assert waiting is not None
    refused = await service.act(Place(FIRST), STANDIN, legal_actions(now.state, waiting)[0])
    assert refused.error and "not playing" in refused.ephemeral.text
    record = await service.game_in(FIRST)
    assert record is not None
    async with service.db.reading() as db:
        assert await full_replay(db, record.row) == record.state


async def test_the_standin_gets_the_reminders_and_the_clock_runs(service, clock):
    _, away = await stand_in_game(service, clock)
    scheduler = Scheduler(service)
    clock.advance(2.1 * HOUR)  # the halfway reminder
    await scheduler.run_due()
    reminders = [b for b in await dms_to(service, FIRST, STANDIN.user) if "waits for you" in b]
    assert len(reminders) == 1 and "you stand in for" in reminders[0]
    assert not [b for b in await dms_to(service, FIRST, away) if "waits for you" in b]
    clock.advance(2 * HOUR)  # the deadline: not stopped, since someone plays the seat
    await scheduler.run_due()
    game = await service.game_in(FIRST)
    assert game is not None
    async with (
        service.db.reading() as db,
        db.execute(
            "SELECT cause FROM actions WHERE game = ? AND cause IS NOT NULL", (game.id,)
        ) as cursor,
    ):
        assert [r[0] async for r in cursor][:1] == ["deadline passed (ai)"]


async def test_a_player_of_the_game_cannot_stand_in_there(service, clock):
    await open_game(service, FIRST, "deadline 4h")
    game = await service.game_in(FIRST)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    rival = game.user_of(1 - seat)
    away = Caller(game.user_of(seat), "P")
    replies = await service.submit(Place(FIRST), away, f"away until 2026-12-05 standin <@{rival}>")
    assert "cannot stand in there" in replies.ephemeral.text
    assert "their clocks stop" in replies.elsewhere[0].message.text
    assert rival not in replies.private
    scheduler = Scheduler(service)
    clock.advance(10 * HOUR)
    await scheduler.run_due()  # their clocks stopped: nothing timed out
    after = await service.game_in(FIRST)
    assert after is not None and after.n == game.n
    refused = await service.act(
        Place(FIRST), Caller(rival, "R"), legal_actions(game.state, seat)[0]
    )
    assert refused.error  # the rival cannot play the away seat


async def test_naming_oneself_or_a_non_user_is_refused_in_words(service):
    await open_game(service, FIRST)
    me = ME
    own = await service.submit(Place(FIRST), me, f"away until 2026-12-05 standin <@{me.user}>")
    assert own.error and "someone else" in own.ephemeral.text
    odd = await service.submit(Place(FIRST), me, "away until 2026-12-05 standin robot")
    assert odd.error and "not a user" in odd.ephemeral.text


async def allowing(service: GameService, channel: int, days: int) -> Game:
    """The game in ``channel``, its time away allowed ``days`` (a tournament's choice)."""
    game = await service.game_in(channel)
    assert game is not None
    timing = replace(game.settings.timing, away_days=days)
    settings = replace(game.settings, timing=timing).to_json()
    async with service.db.transaction() as db:
        await rows.update_game(db, game.id, game.row.status, settings=settings)
    service.forget()
    found = await service.game_in(channel)
    assert found is not None and found.settings.timing.away_days == days
    return found


async def test_a_game_that_allows_no_time_away_says_so_and_its_deadline_passes(service, clock):
    for channel, days in ((FIRST, 0), (SECOND, 2)):
        await open_game(service, channel, "deadline 4h")
        game = await allowing(service, channel, days)
        seat = to_act(game.playing())
        assert seat is not None
        if game.user_of(seat) != ME.user:  # the other player chooses first: then ME
            first = legal_actions(game.playing(), seat)[0]
            assert not (await service.act(Place(channel), player(channel), first)).error
    game = await service.game_in(FIRST)
    kept_at = await service.game_in(SECOND)
    assert game is not None and kept_at is not None
    for waiting in (game, kept_at):
        assert waiting.user_of(to_act(waiting.playing())) == ME.user  # type: ignore[arg-type]
    replies = await service.submit(Place(FIRST), ME, "away until 2026-12-06")
    told = {n.channel: n.message.text for n in replies.elsewhere}
    assert told[FIRST].endswith(": their clocks run on (this game allows no time away).")
    assert told[SECOND].endswith(": their clocks stop for 2 days at most (as this game allows).")
    clock.advance(4 * HOUR + 1)
    await Scheduler(service).run_due()
    moved = await service.game_in(FIRST)
    kept = await service.game_in(SECOND)
    assert moved is not None and moved.n > game.n  # the deadline passed: the computer played
    assert kept is not None and kept.n == kept_at.n  # its clocks stopped


def test_an_organiser_may_allow_fewer_days_away_or_none_and_no_more_than_90() -> None:
    timing = with_away_days(NO_CLOCK, "0")
    assert timing.away_days == 0 and "time away stops no clock" in describe(timing)
    assert "at most 7 days" in describe(with_away_days(NO_CLOCK, "7"))
    assert "away" not in describe(NO_CLOCK)  # the usual 14 days go without saying
    with pytest.raises(InvalidNotation):
        with_away_days(NO_CLOCK, "91")
