"""AI seats: ``addai``, AI decisions after each command, merged replies, fallbacks."""

from __future__ import annotations

import asyncio

import pytest

import bot.ai_runner as runner_module
from bot.ai_runner import RETRY_AFTER
from bot.console import LOCAL_CHANNEL, Console
from bot.context import Caller, Place
from bot.demo import open_ai_game, play_ai_game
from bot.handlers import ai_seats
from bot.handlers.ai_seats import merge
from bot.outbox.codec import message_from_json
from bot.outbox.joining import clip
from bot.replies import Message, Picture, PictureKind, Replies
from bot.schedule.clock import ManualClock
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import Status, outbox
from bot.storage import games as rows
from bot.storage.record import Game, full_replay, initial_state, load_game, replay_rows
from engine.characters import STARTING_LEGION
from engine.game import actions as a
from engine.game.legal import to_act
from tests.bot.agent import caller, play, step
from tests.engine.game.helpers import assert_conserved, wiped_out

CHANNEL = 5
HUMAN = caller(CHANNEL, 0)
TIMEOUT = 600.0
"""Seconds a game of computers may take to play itself out (a busy machine)."""


async def submit(service: GameService, text: str, who: Caller = HUMAN) -> Replies:
    return await service.submit(Place(CHANNEL), who, text)


async def open_with_ai(service: GameService, players: int = 2) -> Replies:
    """The human opens the game, AI seats fill it, the human starts it."""
    for text in [f"new players {players}", *["addai"] * (players - 1)]:
        assert not (await submit(service, text)).error
    return await submit(service, "start")


def check_legions(game: Game) -> None:
    """Counters conserved; legions of 1–7 (the starting 8 before the first split)."""
    state = game.state
    assert state is not None
    assert_conserved(state)
    for legion in state.legions.values():
        if legion.height == 8:
            assert sorted(legion.characters) == sorted(STARTING_LEGION)
        else:
            assert 1 <= legion.height <= 7 or wiped_out(state, legion), legion


async def test_addai_seats_ai_players_that_the_lobby_lists(service):
    assert not (await submit(service, "new players 3")).error
    added = await submit(service, "addai")
    assert added.public is not None
    assert added.public.text == "**Bot 1** (AI, normal) takes seat 2 of 3."
    assert "taken" in (await submit(service, "addai bot 1")).ephemeral.text
    stranger = Caller(99, "Stranger")
    assert "only the host" in (await submit(service, "addai", stranger)).ephemeral.text
    assert not (await submit(service, "addai Deep Thought")).error
    assert "full" in (await submit(service, "addai")).ephemeral.text
    status = (await submit(service, "status")).ephemeral.text
    assert "2. Bot 1 (AI, normal)" in status and "3. Deep Thought (AI, normal)" in status
    game = await service.game_in(CHANNEL)
    assert [s.user for s in game.seats] == [HUMAN.user, -1, -2]
    left = await submit(service, "leave")
    assert "closed" in left.public.text and await service.game_in(CHANNEL) is None


async def test_a_human_and_an_ai_play_a_whole_game(service):
    started = await open_with_ai(service)
    assert "Game #1 begins: P0, Bot 1." in started.public.text
    assert started.public.mention == (HUMAN.user,)  # the AI chose first if it had to
    game = await service.game_in(CHANNEL)
    assert to_act(game.state) == 0
    pings: set[int] = set()
    original = service.submit

    async def watched(place, who, text):
        replies = await original(place, who, text)
        pings.update(replies.public.mention if replies.public else ())
        assert all(user > 0 for user in replies.private)
        return replies

    service.submit = watched  # type: ignore[method-assign]
    assert await play(service, CHANNEL, seed=2, limit=3_000, fighting=True) < 3_000
    assert pings <= {HUMAN.user}
    async with service.db.reading() as db:
        row = await rows.game(db, game.id)
        final = await load_game(db, row)
        assert final.state == await full_replay(db, row)
        seats = {entry.seat for entry in await rows.actions(db, game.id)}
    assert row.status is Status.OVER and final.state.result is not None
    assert seats == {0, 1}


async def test_an_all_ai_game_through_the_service_keeps_the_invariants(db_target):
    seen: list[Game] = []

    def observe(game: Game) -> None:
        check_legions(game)
        seen.append(game)

    service = await GameService.open(db_target, seeds=lambda: 4, ai_limit=0, on_ai_action=observe)
    try:
        game_id = await open_ai_game(service, Place(CHANNEL), 3)
        limited = await play_ai_game(service, Place(CHANNEL), max_turns=14)
        async with service.db.reading() as db:
            row = await rows.game(db, game_id)
            loaded = await load_game(db, row)
    finally:
        await service.close()
    assert loaded.state == seen[-1].state
    assert loaded.n == seen[-1].n == len(seen) + limited  # + the time limit's declaration
    assert loaded.state.result is not None and row.status is Status.OVER


async def test_after_a_slice_of_one_the_ai_seats_go_on_by_themselves_to_the_human(db_target):
    """A command's answer carries its first slice (one AI action here); the AI seats go on
    in the background, and the news that reaches the human last pings only them."""
    service = await GameService.open(db_target, seeds=lambda: 8, ai_limit=1)
    try:
        await open_with_ai(service, players=3)
        await service.ai.idle()
        game = await service.game_in(CHANNEL)
        while to_act(game.state) == 0:
            _, _, replies = await step(service, CHANNEL, seed=1)
            game = await service.game_in(CHANNEL)
        assert replies.public is not None and replies.public.mention == ()  # one AI action
        await asyncio.wait_for(service.ai.idle(), TIMEOUT)
        game = await service.game_in(CHANNEL)
        async with service.db.reading() as db:
            posts = [r for r in await outbox.waiting(db, CHANNEL) if r.kind == "post"]
    finally:
        await service.close()
    assert to_act(game.state) == 0
    assert message_from_json(posts[-1].body).message.mention == (HUMAN.user,)


async def test_the_news_offers_the_board_only_when_a_person_is_to_act(db_target):
    """While the game waits for a computer's seat its news carries no buttons (nobody may
    click for it); the news that hands the decision to the human carries the board."""
    service = await GameService.open(db_target, seeds=lambda: 8, ai_limit=1)
    try:
        await open_with_ai(service, players=3)
        await service.ai.idle()
        for _ in range(12):  # the human's actions, each followed by the computers'
            game = await service.game_in(CHANNEL)
            if to_act(game.state) == 0:
                await step(service, CHANNEL, seed=1)
            await asyncio.wait_for(service.ai.idle(), TIMEOUT)
        async with service.db.reading() as db:
            posts = [r for r in await outbox.waiting(db, CHANNEL) if r.kind == "post"]
            row = await rows.game(db, game.id)
            seats = await rows.seats(db, game.id)
            log = await rows.actions(db, game.id)
    finally:
        await service.close()
    start = initial_state(row, seats)[0]
    seen = {True: 0, False: 0}
    for post in posts:
        if post.version is None or post.version == 0:
            continue
        state = replay_rows(start, log[: post.version])
        seat = to_act(state)
        offers = message_from_json(post.body).message.offers
        offered = offers is not None and bool(offers.items or offers.menus)
        computer = seat is not None and game.is_ai(seat)
        assert offered is not computer, (post.version, seat)
        seen[computer] += 1
    assert seen[True] > 0 and seen[False] > 0  # both kinds of news were told


async def test_a_game_of_computers_alone_plays_itself_to_its_end(db_target):
    """After ``start`` nobody types anything: slice after slice (of 5 actions here) the
    game goes on by itself past the 1,000 actions that once stopped it, to its end, with
    its result stored."""
    played: list[Game] = []
    service = await GameService.open(
        db_target, seeds=lambda: 5, ai_limit=5, on_ai_action=played.append
    )
    try:
        game_id = await open_ai_game(service, Place(CHANNEL), 2)
        assert service.ai.busy(CHANNEL) and len(played) <= 5  # the start is answered at once
        await asyncio.wait_for(service.ai.idle(), TIMEOUT)
        async with service.db.reading() as db:
            row = await rows.game(db, game_id)
            async with db.execute("SELECT game FROM results WHERE game = ?", (game_id,)) as cur:
                result = await cur.fetchone()
    finally:
        await service.close()
    assert row.status is Status.OVER and result is not None
    assert len(played) > 1000 and played[-1].state.result is not None


async def test_a_status_is_answered_between_two_slices_while_the_computers_play(db_target):
    halfway = asyncio.Event()

    def observe(game: Game) -> None:
        if game.n >= 60:
            halfway.set()

    service = await GameService.open(db_target, seeds=lambda: 5, ai_limit=3, on_ai_action=observe)
    try:
        await open_ai_game(service, Place(CHANNEL), 2)
        await asyncio.wait_for(halfway.wait(), TIMEOUT)
        asked = service.submit(Place(CHANNEL), Caller(77, "Watcher"), "status")
        status = await asyncio.wait_for(asked, TIMEOUT)
        game = await service.game_in(CHANNEL)
        assert game is not None and service.ai.busy(CHANNEL)  # the computers play on
        assert not status.error and f"Game #{game.id}" in status.ephemeral.text
    finally:
        await service.close()


async def test_a_game_of_computers_stopped_halfway_goes_on_after_a_restart(db_target):
    halfway = asyncio.Event()

    def observe(game: Game) -> None:
        if game.n >= 40:
            halfway.set()

    first = await GameService.open(db_target, seeds=lambda: 4, ai_limit=5, on_ai_action=observe)
    try:
        game_id = await open_ai_game(first, Place(CHANNEL), 2)
        await asyncio.wait_for(halfway.wait(), TIMEOUT)
    finally:
        await first.close()  # its runner stops in the middle of the game
    again = await GameService.open(db_target, seeds=lambda: 4, ai_limit=5)
    try:
        async with again.db.reading() as db:
            row = await rows.game(db, game_id)
        assert row.status is Status.ACTIVE
        await again.keep_time()  # the start-up lets the game go on (on a shared database
        # at once, or once a lease the stopped process left has run out)
        row = await asyncio.wait_for(ended(again, game_id), TIMEOUT)
    finally:
        await again.close()
    assert row.status is Status.OVER


async def ended(service: GameService, game_id: int) -> rows.GameRow:
    """The game's row once it is over (looked at each time its computers are done)."""
    while True:
        await service.ai.idle()
        async with service.db.reading() as db:
            row = await rows.game(db, game_id)
        assert row is not None
        if row.status is Status.OVER:
            return row
        await asyncio.sleep(0.5)  # until the scheduler's next look


async def test_a_slice_that_fails_is_tried_again_when_the_scheduler_says(db_target, monkeypatch):
    clock = ManualClock()
    over = asyncio.Event()
    broken = True
    original = runner_module.ai_play

    async def flaky(ctx, game, seat, action):
        if broken and game.n >= 20:
            raise RuntimeError("the database hiccups")
        return await original(ctx, game, seat, action)

    def observe(game: Game) -> None:
        if game.state.result is not None:
            over.set()

    monkeypatch.setattr(runner_module, "ai_play", flaky)
    service = await GameService.open(
        db_target, seeds=lambda: 4, ai_limit=5, wall_clock=clock, on_ai_action=observe
    )
    try:
        await service.keep_time()
        await open_ai_game(service, Place(CHANNEL), 2)
        await asyncio.wait_for(service.ai.idle(), TIMEOUT)
        game = await service.game_in(CHANNEL)
        assert game.n == 20 and ai_seats.waiting_ai(game) is not None  # it failed, logged
        assert service.ai.next_retry() == clock.now() + RETRY_AFTER
        broken = False
        clock.advance(RETRY_AFTER)  # the scheduler wakes and tries it again
        await asyncio.wait_for(over.wait(), TIMEOUT)
        assert service.ai.next_retry() is None
    finally:
        await service.close()


@pytest.mark.parametrize("failure", ["raises", "withdraws"])
async def test_an_ai_that_fails_plays_the_first_legal_action(service, monkeypatch, failure):
    def broken(state, seat):
        if failure == "raises":
            raise RuntimeError("the AI is broken")
        return a.Withdraw()

    monkeypatch.setattr(ai_seats, "choose_action", broken)
    await open_with_ai(service, players=3)
    await play(service, CHANNEL, seed=2, limit=40)
    game = await service.game_in(CHANNEL)
    assert game is None or to_act(game.state) == 0  # never stuck on an AI
    async with service.db.reading() as db:
        log = await rows.actions(db, 1)
    ai_actions = [entry.action for entry in log if entry.seat > 0]
    assert len(ai_actions) > 40 and not any("Withdraw" in x for x in ai_actions)


def test_merged_replies_keep_one_waiting_line_the_last_ping_and_legions():
    board = Picture(PictureKind.MASTERBOARD, None)  # type: ignore[arg-type]
    first = Replies(public=Message("Ann moves.\nWaiting for **Hal** to move."), private={})
    chain = [
        Replies(
            public=Message("Hal moves.\nWaiting for **Hal** to fight.", board),
            private={7: Message("Hal attacks you.\nYour legions:\nRd01: Titan, Ogre")},
        ),
        Replies(
            public=Message("Hal wins.\nWaiting for **Ann** to muster.", mention=(7,)),
            private={7: Message("Your legions:\nRd01: Titan")},
        ),
    ]
    merged = merge(first, chain)
    assert merged.public.text == "Ann moves.\nHal moves.\nHal wins.\nWaiting for **Ann** to muster."
    assert merged.public.mention == (7,) and merged.public.picture is board
    assert merged.private[7].text == "Hal attacks you.\nYour legions:\nRd01: Titan"
    assert merge(first, []) is first


def test_clip_keeps_the_start_and_the_end():
    lines = [f"line {n}" for n in range(1000)]
    text = clip(lines, 300)
    assert len(text) <= 300 and text.startswith("line 0\n") and text.endswith("line 999")
    assert "more lines (`history` shows them)" in text


async def test_a_resumed_local_game_lets_the_waiting_ai_seats_play(db_target):
    said: list[str] = []
    paused = await GameService.open(db_target, seeds=lambda: 8, ai_limit=0)
    try:
        console = Console(paused, write=said.append)
        await console.setup(["Ann"], ["Hal", "Deep"])
        game = await paused.game_in(LOCAL_CHANNEL)
        if not game.is_ai(to_act(game.state)):
            await console.handle("colour Red")
        game = await paused.game_in(LOCAL_CHANNEL)
        assert game.is_ai(to_act(game.state))  # left waiting, as after a crash
    finally:
        await paused.close()
    said.clear()
    service = await GameService.open(db_target, seeds=lambda: 8)
    try:
        await Console(service, write=said.append).setup(["Ann"], ["Hal", "Deep"])
        game = await service.game_in(LOCAL_CHANNEL)
    finally:
        await service.close()
    assert "Resuming game #1." in said and game.name_of(to_act(game.state)) == "Ann"
    assert "Hal takes " in "\n".join(said) or "Deep takes " in "\n".join(said)


async def test_one_process_at_a_time_plays_a_game_s_computers(pg_migrated):
    """Two processes on one PostgreSQL database: the one that set the computers going
    plays them (it holds their lease); the other leaves them alone, even asked for the
    game's status, and takes them over once the first has stopped."""
    halfway = asyncio.Event()
    elsewhere: list[Game] = []

    def observe(game: Game) -> None:
        if game.n >= 40:
            halfway.set()

    first = await GameService.open(pg_migrated, seeds=lambda: 4, ai_limit=5, on_ai_action=observe)
    second = await GameService.open(
        pg_migrated, seeds=lambda: 4, ai_limit=5, on_ai_action=elsewhere.append
    )
    try:
        try:
            game_id = await open_ai_game(first, Place(CHANNEL), 2)
            await asyncio.wait_for(halfway.wait(), TIMEOUT)
            # The first stays between two slices while the second looks: on a busy machine
            # the second's first query may take so long that the game (some 270 actions)
            # is over before it looks, and its lease let go with it.
            async with first.lock(CHANNEL):
                assert await Scheduler(second).advance_ai_games() == 0  # the first plays them
                watcher = Caller(77, "Watcher")
                assert not (await second.submit(Place(CHANNEL), watcher, "status")).error
                assert elsewhere == [] and first.ai.busy(CHANNEL)
        finally:
            await first.close()  # its lease goes with it
        assert await Scheduler(second).advance_ai_games() == 1
        await asyncio.wait_for(second.ai.idle(), TIMEOUT)
        async with second.db.reading() as db:
            row = await rows.game(db, game_id)
    finally:
        await second.close()
    assert elsewhere and row.status is Status.OVER
