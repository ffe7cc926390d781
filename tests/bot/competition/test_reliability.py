"""A player's reliability beside their rating: the decisions handed to them, the deadlines
they missed and how soon they answer, from the action log on the service's clock."""

from __future__ import annotations

from bot.competition.reliability import DAY, reliability, reliability_text, wait_text
from bot.context import Caller, Place
from bot.discord.seats import replace_player
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import due as items
from bot.storage.punctuality import Answer
from engine.game.legal import to_act
from tests.bot.agent import caller, choose, user_id

CHANNEL = 430_000_000_000_000
"""A channel whose players' ids (:func:`user_id`) are plausible Discord ids."""
HERE = Place(CHANNEL)
MINUTE, HOUR = 60.0, 3600.0
PROMPT, SLOW = 10 * MINUTE, 2 * HOUR
"""How long the prompt player (seat 0) and the slow one (seat 1) take to answer."""
SLEPT = (2, 5)
"""The hand-offs to the slow player that they leave to the 4-hour deadline."""


DAN = Caller(user_id(CHANNEL, 7), "Dan")
"""Who takes the slow player's seat over, and answers in :data:`SUBSTITUTE`."""
SUBSTITUTE = 30 * MINUTE
HAND_OVER = 6
"""The hand-off to the slow player's seat from which Dan holds it."""


async def _answer(service: GameService, text: str, seat: int) -> str:
    replies = await service.submit(HERE, caller(CHANNEL, seat), text)
    assert not replies.error
    assert replies.ephemeral is not None
    return replies.ephemeral.text


async def _play(service: GameService, who: dict[int, Caller]) -> None:
    """One agent command for the seat the game waits for, given by its player now."""
    game = await service.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat, command = choose(game.state, 5, game.n)
    if isinstance(command, str):
        replies = await service.submit(HERE, who[seat], command)
    else:
        replies = await service.act(HERE, who[seat], command)
    assert not replies.error, (command, replies.ephemeral)


async def test_reliability_counts_hand_offs_missed_deadlines_and_the_median_wait(service, clock):
    """Ann answers in 10 minutes; Bob in 2 hours, but leaves two decisions to the 4-hour
    deadline; an organiser then gives Bob's seat to Dan, who answers in 30 minutes: Bob
    keeps what he did, Dan has only his own."""
    for seat, text in ((0, "new players 2 deadline 4h timeout pass"), (1, "join"), (0, "start")):
        assert not (await service.submit(HERE, caller(CHANNEL, seat), text)).error
    scheduler = Scheduler(service)
    who = {0: caller(CHANNEL, 0), 1: caller(CHANNEL, 1)}
    handed = {"Ann": 0, "Bob": 0, "Dan": 0}
    last = None  # the seat of the last action and whether the seat's player gave it
    for _ in range(200):
        game = await service.game_in(CHANNEL)
        if game is None or game.state is None or (seat := to_act(game.state)) is None:
            break  # the game is over
        if last != (seat, True):  # a hand-off: the player takes their time
            if seat == 1 and handed["Bob"] == HAND_OVER and who[1] != DAN:
                organiser = Caller(user_id(CHANNEL, 9), "Org", organiser=True)
                await replace_player(service, HERE, organiser, who[1].user, DAN.user)
                who[1] = DAN
            name = "Ann" if seat == 0 else "Dan" if who[1] == DAN else "Bob"
            handed[name] += last is not None  # (the game's first action is not counted)
            if name == "Bob" and handed[name] in SLEPT:
                clock.advance(4 * HOUR)
                await scheduler.run_due()  # the deadline: the least is played, all turn
                while [i.at <= clock.now() for i in await _due(service)] == [True]:
                    await scheduler.run_due()
                last = (1, False)
                continue
            clock.advance({"Ann": PROMPT, "Bob": SLOW, "Dan": SUBSTITUTE}[name])
        await _play(service, who)
        last = (seat, True)
    assert handed["Dan"] > 2 and who[1] == DAN  # the game went on long enough
    told = await _answer(service, f"rating <@{user_id(CHANNEL, 1)}>", 0)
    assert told.startswith(f"<@{user_id(CHANNEL, 1)}>'s ")  # rating, or record
    assert told.splitlines()[-1] == (
        f"Reliability here: {handed['Bob']} decisions in 1 game, 2 deadlines missed; "
        "half answered within 2h."
    )
    dan = await _answer(service, f"rating <@{DAN.user}>", 0)
    assert dan.splitlines()[-1] == (
        f"Reliability here: {handed['Dan']} decisions in 1 game, no deadline missed; "
        "half answered within 30m."
    )
    mine = await _answer(service, "rating", 0)
    assert mine.splitlines()[-1] == (
        f"Reliability here: {handed['Ann']} decisions in 1 game, no deadline missed; "
        "half answered within 10m."
    )
    stranger = await _answer(service, f"rating <@{user_id(CHANNEL + 1, 0)}>", 0)
    assert stranger.splitlines()[-1] == "Reliability here: no decision handed to them yet."
    async with service.db.transaction() as db:  # as logged before the log kept the player
        await db.execute("UPDATE actions SET player = NULL WHERE seat = 0")
    assert await _answer(service, "rating", 0) == mine  # the seat's player counts them


async def _due(service: GameService) -> list[items.DueItem]:
    game = await service.game_in(CHANNEL)
    assert game is not None
    async with service.db.reading() as db:
        return [i for i in await items.pending(db, game.id) if i.kind == "deadline"]


def test_one_decision_is_answered_within_its_wait_and_waits_read_as_durations():
    one = reliability(1, [Answer(90.0, False)])
    assert reliability_text(one, "you") == (
        "Reliability here: 1 decision in 1 game, no deadline missed; answered within 2m."
    )
    assert [wait_text(s) for s in (5.0, 89.0, 7_850.0, 2 * DAY + 3_700.0)] == [
        "a minute",
        "1m",
        "2h11m",
        "2d1h",
    ]
