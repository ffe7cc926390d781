"""Deadlines, reminders and time limits on a test's clock: days pass in milliseconds.

A four-player game where one seat never answers: each of its decisions is reminded at the
chosen moments and then times out (the computer plays it, the least is played, or the
game waits); the log says which actions the clock gave, and a replay rebuilds the game.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.context import Place
from bot.handlers import ai_seats
from bot.schedule.clock import ManualClock
from bot.schedule.decisions import decision_of
from bot.schedule.quiet import QuietHours
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import due as items
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage.record import full_replay
from engine.game.legal import to_act
from tests.bot.agent import caller, step, user_id

CHANNEL = 41
HERE = Place(CHANNEL)
LAZY = 2
HOUR = 3600.0
MOST_ACTIONS = 6000


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())


@pytest.fixture
async def clocked(db_target, clock):
    service = await GameService.open(
        db_target, seeds=lambda: 7, snapshot_every=25, wall_clock=clock
    )
    yield service
    await service.close()


async def open_clocked_game(service: GameService, options: str, players: int = 4) -> None:
    steps = [(0, f"new players {players} {options}")] + [(s, "join") for s in range(1, players)]
    for seat, text in [*steps, (0, "start")]:
        replies = await service.submit(HERE, caller(CHANNEL, seat), text)
        assert not replies.error, (text, replies.ephemeral)


async def pending(service: GameService) -> list[items.DueItem]:
    game = await service.game_in(CHANNEL)
    assert game is not None
    async with service.db.reading() as db:
        return await items.pending(db, game.id)


async def reminders_to(service: GameService, user: int) -> list[str]:
    """The reminders queued for ``user``: by DM, or pinging them in the channel."""
    async with service.db.reading() as db:
        waiting = await outbox.waiting(db, CHANNEL)  # no deliverer: everything waits
    found = []
    for row in waiting:
        if "waits for you" in row.body and (row.recipient == user or f"{user}" in row.body):
            found.append(row.body)
    return found


async def caused(service: GameService) -> list[tuple[int, str]]:
    game = await service.game_in(CHANNEL)
    game_id = game.id if game is not None else 1
    async with (
        service.db.reading() as db,
        db.execute(
            "SELECT seat, cause FROM actions WHERE game = ? AND cause IS NOT NULL ORDER BY n",
            (game_id,),
        ) as cursor,
    ):
        return [(int(r[0]), str(r[1])) async for r in cursor]


@dataclass
class Sleeper:
    """What one absent seat cost over a whole game: the deadlines that passed, by the
    player turn they passed in; the reminders of each decision; its decisions played on
    at once after a deadline passed; the organisers told."""

    deadlines: Counter[int] = field(default_factory=Counter)
    reminders: list[int] = field(default_factory=list)
    played_on: int = 0
    escalations: list[str] = field(default_factory=list)


async def play_with_a_sleeper(
    service: GameService, clock: ManualClock, scheduler: Scheduler, deadline: float
) -> Sleeper:
    """Play the game: the other seats answer at once, ``LAZY`` never does, and the clock
    runs past each of its deadlines (a decision played on at once after one needs no
    time). What the absent seat cost."""
    cost = Sleeper()
    for _ in range(MOST_ACTIONS):
        game = await service.game_in(CHANNEL)
        if game is None or game.state is None or game.state.result is not None:
            return cost
        seat = to_act(game.state)
        if seat != LAZY:
            await step(service, CHANNEL, seed=3, fighting=True)
            continue
        decision = decision_of(game.state)
        due = [i for i in await pending(service) if i.kind != "time_limit"]
        if [i.kind for i in due] == ["deadline"] and due[0].at <= clock.now():
            await scheduler.run_due()  # a deadline passed earlier this turn: it plays on
            cost.played_on += 1
        else:
            assert [i.kind for i in due] == ["reminder", "reminder", "deadline"], due
            before = len(await reminders_to(service, user_id(CHANNEL, LAZY)))
            for item in due[:2]:  # the reminders, each at its moment
                clock.advance(item.at - clock.now())
                await scheduler.run_due()
            after = len(await reminders_to(service, user_id(CHANNEL, LAZY)))
            cost.reminders.append(after - before)
            clock.advance(deadline)  # far past the deadline
            await scheduler.run_due()
            cost.deadlines[game.state.turn.number] += 1
        after_game = await service.game_in(CHANNEL)
        if after_game is not None and after_game.state is not None:
            assert decision_of(after_game.state) != decision  # the decision was made for it
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("policy", ["ai", "pass"])
async def test_an_absent_player_costs_one_deadline_a_turn_and_the_organiser_is_told_once(
    clocked, clock, policy
):
    """Issue 21: a timeout covers the rest of the absent player's turn (on another's turn,
    their defence until that turn ends): one deadline a player turn at most; each of those
    decisions reminded at its two points; the host told once; the log says which actions
    the clock gave, and a replay rebuilds the game."""
    await open_clocked_game(clocked, f"deadline 4h timeout {policy}")
    scheduler = Scheduler(clocked)
    cost = await play_with_a_sleeper(clocked, clock, scheduler, 4 * HOUR)
    assert sum(cost.deadlines.values()) >= 3 and cost.played_on > 0
    assert max(cost.deadlines.values()) == 1, cost.deadlines  # one deadline a turn at most
    assert set(cost.reminders) == {2}  # halfway, and an hour before: nothing more
    log = await caused(clocked)
    assert {seat for seat, _ in log} == {LAZY}
    causes = {f"deadline passed ({policy})", f"deadline passed earlier this turn ({policy})"}
    assert {cause for _, cause in log} == causes
    async with clocked.db.reading() as db:
        posts = [r.body for r in await outbox.waiting(db, CHANNEL) if "missed" in r.body]
        row = await rows.game(db, 1)
        assert row is not None
        replayed = await full_replay(db, row)
        assert replayed.result is not None  # the game went on to its end
        assert await items.clock(db, 1) is None and await items.pending(db, 1) == []
    escalated = [body for body in posts if "deadlines in a row" in body]
    assert len(escalated) == 1 and "/titan-admin replace" in escalated[0]
    assert str(user_id(CHANNEL, 0)) in escalated[0]  # the host is pinged
    print(
        f"\n{policy}: {sum(cost.deadlines.values())} deadlines over "
        f"{len(cost.deadlines)} turns, {cost.played_on} decisions played on at once"
    )


async def test_a_paused_game_waits_and_says_so_once(clocked, clock):
    await open_clocked_game(clocked, "deadline 2h timeout pause", players=2)
    scheduler = Scheduler(clocked)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    waiting = to_act(game.state)
    clock.advance(3 * HOUR)
    await scheduler.run_due()
    clock.advance(30 * HOUR)
    await scheduler.run_due()
    after = await clocked.game_in(CHANNEL)
    assert after is not None and after.n == game.n  # nothing was played for them
    async with clocked.db.reading() as db:
        told = [r.body for r in await outbox.waiting(db, CHANNEL) if "deadline passed" in r.body]
    assert len(told) == 1 and "the game waits" in told[0]
    assert waiting is not None
    await step(clocked, CHANNEL, seed=3)  # they answer at last: the clock starts again
    assert [i.kind for i in await pending(clocked)][-1] == "deadline"


async def test_after_a_long_downtime_the_overdue_deadline_is_applied_without_reminders(
    clocked, clock
):
    await open_clocked_game(clocked, "deadline 4h", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    clock.advance(48 * HOUR)  # the bot was down for two days
    await Scheduler(clocked).run_due()
    assert await reminders_to(clocked, user_id(CHANNEL, seat)) == []  # overtaken
    assert await caused(clocked) == [(seat, "deadline passed (ai)")]
    async with clocked.db.reading() as db:
        outcomes = await items.outcomes(db, game.id)
    assert [o for _, _, o in outcomes] == [
        "overtaken by a later reminder or the deadline",
        "overtaken by a later reminder or the deadline",
        "timed out: ai",
    ]


async def test_without_a_deadline_a_long_downtime_sends_one_reminder(clocked, clock):
    await open_clocked_game(clocked, "", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    assert [i.kind for i in await pending(clocked)] == ["reminder"] * 3  # 24 h, 48 h, 72 h
    clock.advance(80 * HOUR)
    await Scheduler(clocked).run_due()
    assert len(await reminders_to(clocked, user_id(CHANNEL, seat))) == 1
    assert await caused(clocked) == []  # nothing is played without a deadline


async def test_a_reminder_waits_for_the_end_of_quiet_hours(clocked, clock):
    await open_clocked_game(clocked, "deadline 24h", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    user = user_id(CHANNEL, seat)
    # the game began at 12:00 UTC: the halfway reminder falls at midnight UTC, 01:00 Paris
    quiet = QuietHours.parse("22:00-08:00", "Europe/Paris")
    async with clocked.db.transaction() as db:
        await items.set_reminder_prefs(db, user, items.ReminderPrefs(quiet=quiet.to_text()))
    scheduler = Scheduler(clocked)
    clock.advance(12 * HOUR)
    await scheduler.run_due()
    assert await reminders_to(clocked, user) == []
    [first, *_] = await pending(clocked)
    woke = datetime.fromtimestamp(first.at, UTC)
    assert (woke.hour, woke.minute) == (7, 0)  # 08:00 in Paris
    clock.advance(first.at - clock.now())
    await scheduler.run_due()
    assert len(await reminders_to(clocked, user)) == 1


async def test_a_player_may_turn_reminders_off(clocked, clock):
    await open_clocked_game(clocked, "deadline 4h", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    async with clocked.db.transaction() as db:
        await items.set_reminder_prefs(db, user_id(CHANNEL, seat), items.ReminderPrefs(off=True))
    clock.advance(3.5 * HOUR)
    await Scheduler(clocked).run_due()
    assert await reminders_to(clocked, user_id(CHANNEL, seat)) == []


async def test_the_real_clock_time_limit_ends_the_game_by_itself(clocked, clock):
    await open_clocked_game(clocked, "time_limit 2026-12-05", players=2)
    for _ in range(2):
        await step(clocked, CHANNEL, seed=3)  # the colours
    kinds = [i.kind for i in await pending(clocked)]
    assert kinds.count("time_limit") == 2  # a day before, and the moment itself
    scheduler = Scheduler(clocked)
    clock.advance(3 * 24 * HOUR)
    await scheduler.run_due()
    async with clocked.db.reading() as db:
        posts = [r.body for r in await outbox.waiting(db, CHANNEL)]
    assert any("time limit of game #1 ends <t:" in p for p in posts)
    clock.advance(2 * 24 * HOUR)
    await scheduler.run_due()
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    assert game.state.final_turns is not None  # one more turn each, then the scores decide
    assert [cause for _, cause in await caused(clocked)] == ["the time limit"]


async def test_the_scheduler_task_sleeps_until_the_next_item_and_wakes_on_a_change(clocked, clock):
    await open_clocked_game(clocked, "deadline 2h", players=2)
    scheduler = await clocked.keep_time()
    game = await clocked.game_in(CHANNEL)
    assert game is not None
    clock.advance(1.5 * HOUR)
    for _ in range(3000):  # up to 30 s of the machine's time: a busy one is slow
        await asyncio.sleep(0.01)
        if scheduler.handled:
            break
    assert scheduler.handled == 1 and await caused(clocked) == []  # the reminder only
    clock.advance(HOUR)
    for _ in range(3000):
        await asyncio.sleep(0.01)
        if await caused(clocked):
            break
    assert len(await caused(clocked)) >= 1


async def test_the_host_changes_the_clock_and_the_waiting_decision_gets_it(clocked, clock):
    await open_clocked_game(clocked, "", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.state is not None
    assert [i.kind for i in await pending(clocked)] == ["reminder"] * 3  # no deadline
    clock.advance(HOUR)
    guest = await clocked.submit(HERE, caller(CHANNEL, 1), "settings deadline 2h")
    assert guest.error and "only the host" in guest.ephemeral.text
    changed = await clocked.submit(HERE, caller(CHANNEL, 0), "settings deadline 2h timeout pass")
    assert not changed.error
    assert (
        "changed the clock" in changed.public.text and "(was: no deadline)" in changed.public.text
    )
    due = await pending(clocked)
    assert [i.kind for i in due] == ["reminder", "deadline"]  # halfway; an hour before is past
    assert due[-1].at == game_start(due) + 2 * HOUR  # counted from when the decision began
    clock.advance(HOUR + 1)
    await Scheduler(clocked).run_due()
    assert [cause for _, cause in await caused(clocked)][:1] == ["deadline passed (pass)"]


def game_start(due: list[items.DueItem]) -> float:
    """When the decision began: its halfway reminder is an hour after it (a 2 h clock)."""
    return due[0].at - HOUR


async def test_a_bad_setting_changes_nothing(clocked):
    await open_clocked_game(clocked, "deadline 4h", players=2)
    before = await pending(clocked)
    for words in (
        "settings",
        "settings deadline soon",
        "settings timeout nap",
        "settings standin genius",
        "settings remind 2",
    ):
        refused = await clocked.submit(HERE, caller(CHANNEL, 0), words)
        assert refused.error, words
    assert await pending(clocked) == before


async def awaited_seat(service: GameService) -> int:
    game = await service.game_in(CHANNEL)
    assert game is not None and game.state is not None
    seat = to_act(game.state)
    assert seat is not None
    return seat


async def test_away_stops_a_players_clocks_until_they_are_back(clocked, clock):
    await open_clocked_game(clocked, "deadline 4h", players=2)
    seat = await awaited_seat(clocked)
    gone = await clocked.submit(HERE, caller(CHANNEL, seat), "away until 2026-12-04")
    assert not gone.error and [n.channel for n in gone.elsewhere] == [CHANNEL]
    assert f"**P{seat}** is away until <t:" in gone.elsewhere[0].message.text
    scheduler = Scheduler(clocked)
    clock.advance(10 * HOUR)  # far past the deadline, while away
    await scheduler.run_due()
    assert await caused(clocked) == []
    back = datetime(2026, 12, 4, tzinfo=UTC).timestamp()
    clock.advance(back + 3.9 * HOUR - clock.now())  # the whole clock runs again after it
    await scheduler.run_due()
    assert await caused(clocked) == []
    clock.advance(0.2 * HOUR)
    await scheduler.run_due()
    assert await caused(clocked) == [(seat, "deadline passed (ai)")]


async def test_a_game_allows_only_so_many_days_away(clocked, clock):
    await open_clocked_game(clocked, "deadline 4h", players=2)
    seat = await awaited_seat(clocked)
    await clocked.submit(HERE, caller(CHANNEL, seat), "away until 2027-02-01")
    scheduler = Scheduler(clocked)
    clock.advance(14 * 24 * HOUR + 4.1 * HOUR)  # the game's 14 days, then the clock
    await scheduler.run_due()
    assert await caused(clocked) == [(seat, "deadline passed (ai)")]


async def test_away_with_the_computer_standing_in_plays_at_once(clocked, clock):
    await open_clocked_game(clocked, "", players=2)  # no deadline at all
    seat = await awaited_seat(clocked)
    replies = await clocked.submit(HERE, caller(CHANNEL, seat), "away until 2026-12-10 standin ai")
    assert not replies.error
    scheduler = Scheduler(clocked)
    for _ in range(40):  # the other seat plays; the computer answers for the absent one
        await scheduler.run_due()
        if await awaited_seat(clocked) != seat:
            await step(clocked, CHANNEL, seed=3)
    causes = await caused(clocked)
    assert len(causes) >= 2 and set(causes) == {(seat, "away (the computer stands in)")}
    await clocked.submit(HERE, caller(CHANNEL, seat), "away off")
    before = len(await caused(clocked))
    for _ in range(5):
        await scheduler.run_due()
        if await awaited_seat(clocked) != seat:
            await step(clocked, CHANNEL, seed=3)
    assert len(await caused(clocked)) == before  # back: nobody plays for them


async def test_the_computer_stands_in_at_the_level_the_game_chose(clocked, clock, monkeypatch):
    levels: list[str] = []
    real = ai_seats.choose_action

    def recording(state, seat, level):
        levels.append(level)
        return real(state, seat, "normal")

    monkeypatch.setattr(ai_seats, "choose_action", recording)
    await open_clocked_game(clocked, "deadline 4h standin easy", players=2)
    game = await clocked.game_in(CHANNEL)
    assert game is not None and game.settings.timing.stand_in == "easy"
    seat = await awaited_seat(clocked)
    clock.advance(4.1 * HOUR)
    await Scheduler(clocked).run_due()
    assert (seat, "deadline passed (ai)") in await caused(clocked)
    assert levels and set(levels) == {"easy"}
    levels.clear()
    changed = await clocked.submit(HERE, caller(CHANNEL, 0), "settings standin normal")
    assert not changed.error and "then the computer plays at normal (was:" in changed.public.text
    seat = await awaited_seat(clocked)
    replies = await clocked.submit(HERE, caller(CHANNEL, seat), "away until 2026-12-10 standin ai")
    assert not replies.error
    await Scheduler(clocked).run_due()
    assert (seat, "away (the computer stands in)") in await caused(clocked)
    assert levels and set(levels) == {"normal"}
    changed = await clocked.submit(HERE, caller(CHANNEL, 0), "settings standin hard")
    now, _, was = changed.public.text.partition("(was: ")
    assert now.endswith("then the computer plays ") and "plays at normal" in was  # hard: unsaid


async def test_the_inactivity_rule_makes_a_sleeping_player_concede(clocked, clock):
    await open_clocked_game(clocked, "deadline 1h inactivity", players=3)
    scheduler = Scheduler(clocked)
    sleeper = None
    for _ in range(MOST_ACTIONS):
        game = await clocked.game_in(CHANNEL)
        assert game is not None and game.state is not None
        if sleeper is not None and sleeper not in game.state.living_seats():
            break  # they conceded the game
        seat = to_act(game.state)
        if sleeper is None and game.state.turn.number >= 1:
            sleeper = seat
        if seat != sleeper:
            await step(clocked, CHANNEL, seed=5, fighting=True)
            continue
        clock.advance(2 * HOUR)
        await scheduler.run_due()
    else:
        raise AssertionError("the sleeping player never conceded")
    log = await caused(clocked)
    async with (
        clocked.db.reading() as db,
        db.execute(
            "SELECT action FROM actions WHERE cause IS NOT NULL ORDER BY n DESC LIMIT 1"
        ) as cursor,
    ):
        last = (await cursor.fetchone())[0]
    assert "Withdraw" in last or "Concede" in last
    assert {seat for seat, _ in log} == {sleeper} and len(log) >= 3
    async with clocked.db.reading() as db:
        posts = [r.body for r in await outbox.waiting(db, CHANNEL)]
    assert any("by the inactivity rule (errata 20.4)" in p for p in posts)


def quiet_at(moment: float) -> bool:
    """Whether ``moment`` falls in 22:00-08:00 UTC."""
    hour = datetime.fromtimestamp(moment, UTC).hour
    return hour >= 22 or hour < 8


async def test_a_paused_four_player_game_goes_to_its_end_and_never_wakes_the_sleeper(
    clocked, clock
):
    await open_clocked_game(clocked, "deadline 5h timeout pause")
    lazy = user_id(CHANNEL, LAZY)
    async with clocked.db.transaction() as db:
        quiet = QuietHours.parse("22:00-08:00", "UTC").to_text()
        await items.set_reminder_prefs(db, lazy, items.ReminderPrefs(quiet=quiet))
    scheduler = Scheduler(clocked)
    pauses = 0
    for _ in range(MOST_ACTIONS):
        game = await clocked.game_in(CHANNEL)
        if game is None or game.state is None:
            break
        if to_act(game.state) != LAZY:
            await step(clocked, CHANNEL, seed=3, fighting=True)
            continue
        due = [i for i in await pending(clocked) if i.kind != "time_limit"]
        if not due:  # paused: the player (or a substitute) answers at last
            await step(clocked, CHANNEL, seed=3, fighting=True)
            continue
        clock.advance(max(0.0, due[0].at - clock.now()))  # each item at its moment
        await scheduler.run_due()
        if due[0].kind == "deadline":
            pauses += 1
    else:
        raise AssertionError("the game did not end")
    assert pauses >= 3 and await caused(clocked) == []  # the game waited; nobody played for them
    async with clocked.db.reading() as db:
        async with db.execute(
            "SELECT kind, done_at, outcome FROM due WHERE game = 1 AND done_at IS NOT NULL"
        ) as cursor:
            done = [(str(r[0]), float(r[1]), str(r[2])) async for r in cursor]
        notices = [r.body for r in await outbox.waiting(db, CHANNEL) if "the game waits" in r.body]
    sent = [at for kind, at, outcome in done if outcome == "reminded by DM"]
    assert sent and not any(quiet_at(at) for at in sent)  # never in their night
    assert len([o for k, _, o in done if k == "deadline"]) == pauses == len(notices)


async def test_at_start_up_only_the_games_waiting_for_an_ai_seat_are_advanced(db_target, clock):
    """A restart advances the games whose clock waits for an AI seat, and those with an AI
    seat and no clock yet (stored before clocks); a game with an AI seat that waits for a
    human is not among them (loading every game with an AI seat made a start-up with
    thousands of them take a minute)."""
    paused = await GameService.open(db_target, seeds=lambda: 7, ai_limit=0, wall_clock=clock)
    try:
        for channel, computer in [(61, True), (62, False), (63, True)]:
            place = Place(channel)
            for text in ["new players 2", "addai", "start"]:
                assert not (await paused.submit(place, caller(channel, 0), text)).error
            for _ in range(4):
                game = await paused.game_in(channel)
                assert game is not None and game.state is not None
                seat = to_act(game.state)
                assert seat is not None
                if game.is_ai(seat) == computer:
                    break
                if game.is_ai(seat):
                    await paused.advance(place, limit=1)
                else:
                    await step(paused, channel, seed=3)
            assert game.is_ai(seat) == computer
        async with paused.db.transaction() as db:
            await items.drop_clock(db, 3)  # game 3 as stored before clocks
        before = {c: (await paused.game_in(c)).n for c in (61, 62, 63)}  # type: ignore[union-attr]
    finally:
        await paused.close()
    service = await GameService.open(db_target, seeds=lambda: 7, wall_clock=clock)
    try:
        async with service.db.reading() as db:
            assert await rows.active_games_waiting_for_ai(db) == [(61, None), (63, None)]
        assert await Scheduler(service).advance_ai_games() == 2
        await service.ai.idle()
        after = {c: (await service.game_in(c)).n for c in (61, 62, 63)}  # type: ignore[union-attr]
    finally:
        await service.close()
    assert after[61] > before[61] and after[62] == before[62] and after[63] > before[63]
