"""``autostrike on|off``: a player's forced battle actions (RULES §9.1, §9.4) are made for
them at once, logged as theirs with the cause, and nothing else is (the service, the
command, a game woken in another channel, a restart)."""

from __future__ import annotations

import json
import re

from bot.context import Place
from bot.handlers.forced import AUTOSTRIKE, forced_turn
from bot.schedule.decisions import decision_of
from bot.schedule.runner import AUTOSTRIKE_HINT
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import autostrike as prefs
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage.games import STRIKES, ActionRow
from bot.storage.record import Game, read_action, state_at
from engine.game.forced import forced_action
from engine.game.legal import to_act
from tests.bot import test_schedule as schedule
from tests.bot.agent import caller, open_game, step, user_id
from tests.bot.test_schedule import clock, clocked
from tests.engine.battle.helpers import battle_game

__all__ = ["clock", "clocked"]

CHANNEL, ELSEWHERE = 31, 32
SEED = 4
STEPS = 3000


async def made(service: GameService, game: Game) -> list[ActionRow]:
    async with service.db.reading() as db:
        return [r for r in await rows.actions(db, game.id) if r.cause == AUTOSTRIKE]


async def until_forced(service: GameService, channel: int = CHANNEL) -> Game:
    """Play the agents on until the game waits for a person's forced battle action."""
    for _ in range(STEPS):
        game = await service.game_in(channel)
        assert game is not None, "the game ended first"
        if forced_turn(game) is not None:
            return game
        await step(service, channel, SEED, fighting=True)
    raise AssertionError("no forced action came")


def test_the_clock_keys_of_strikes_and_only_theirs_match_the_sweeps_pattern() -> None:
    """A start-up finds the games waiting for strikes by their clock's key (RULES §9.1)."""
    like = re.compile("^" + ".*".join(map(re.escape, STRIKES.split("%"))) + "$")
    for text, striking in [
        ("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2", True),
        ("Plains t2 defender counterstrike: Bk01 Ogre@C3* | Rd01 Troll@C2", True),
        ("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2", False),
    ]:
        decided = decision_of(battle_game(text))
        assert decided is not None
        assert bool(like.match(decided.key)) is striking, decided.key


async def test_the_command_says_what_it_does_and_refuses_other_words(db_target) -> None:
    service = await GameService.open(db_target, seeds=lambda: 3)
    try:
        who = caller(CHANNEL, 0)
        on = await service.submit(Place(ELSEWHERE), who, "autostrike on")
        assert on.ephemeral is not None and "Autostrike is on" in on.ephemeral.text
        assert "RULES §9.1" in on.ephemeral.text and on.public is None
        wrong = await service.submit(Place(ELSEWHERE), who, "autostrike sometimes")
        assert wrong.error and wrong.ephemeral is not None
        assert "on or off" in wrong.ephemeral.text
        async with service.db.reading() as db:
            assert await prefs.autostrikers(db, [who.user]) == {who.user}
        off = await service.submit(Place(ELSEWHERE), who, "autostrike off")
        assert off.ephemeral is not None and "Autostrike is off" in off.ephemeral.text
        async with service.db.reading() as db:
            assert await prefs.autostrikers(db, [who.user]) == frozenset()
        told = await service.submit(Place(ELSEWHERE), who, "help autostrike")
        assert told.ephemeral is not None and "autostrike on|off" in told.ephemeral.text
    finally:
        await service.close()


async def test_only_forced_actions_are_made_and_the_game_never_waits_for_them(db_target):
    """Both players turned it on: every action made for them was forced when it was made
    (the log replayed), and the game never waits for a forced action of theirs."""
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        await open_game(service, CHANNEL, 2)
        for seat in (0, 1):
            await service.submit(Place(ELSEWHERE), caller(CHANNEL, seat), "autostrike on")
        game = await service.game_in(CHANNEL)
        assert game is not None
        for _ in range(STEPS):
            game = await service.game_in(CHANNEL)
            if game is None:
                break
            assert forced_turn(game) is None
            if len(await made(service, game)) >= 6:
                break
            await step(service, CHANNEL, SEED, fighting=True)
        assert game is not None
        entries = await made(service, game)
        assert len(entries) >= 6
        async with service.db.reading() as db:
            for entry in entries:
                before = await state_at(db, game.row, entry.n - 1)
                assert before is not None
                assert forced_action(before, entry.seat) == read_action(entry)
    finally:
        await service.close()


async def test_turning_it_on_elsewhere_makes_the_strike_waiting_now(db_target):
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        await open_game(service, CHANNEL, 2)
        game = await until_forced(service)
        forced = forced_turn(game)
        assert forced is not None
        who = caller(CHANNEL, forced.seat)
        await service.submit(Place(ELSEWHERE), who, "autostrike on")
        await service.ai.idle()
        entries = await made(service, game)
        assert entries and entries[0].n == game.n + 1 and entries[0].seat == forced.seat
        assert read_action(entries[0]) == forced.action
    finally:
        await service.close()


async def test_a_restart_makes_the_forced_strike_it_finds_waiting(db_target):
    """The preference stored while nothing played the AI seats (as when a process stops
    between a command and the slice after it): the start-up's sweep makes the strike."""
    paused = await GameService.open(db_target, seeds=lambda: SEED, ai_limit=0)
    try:
        await open_game(paused, CHANNEL, 2)
        game = await until_forced(paused)
        forced = forced_turn(game)
        assert forced is not None
        await paused.submit(Place(ELSEWHERE), caller(CHANNEL, forced.seat), "autostrike on")
        assert (await paused.game_in(CHANNEL)).n == game.n  # type: ignore[union-attr]
    finally:
        await paused.close()
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        async with service.db.reading() as db:
            assert await rows.active_games_waiting_for_ai(db) == [(CHANNEL, None)]
            other = user_id(CHANNEL, 1 - forced.seat)
            assert await rows.active_games_waiting_for_ai(db, other) == []
        assert await Scheduler(service).advance_ai_games() == 1
        await service.ai.idle()
        entries = await made(service, game)
        assert entries and entries[0].n == game.n + 1
    finally:
        await service.close()


async def reminders_to(service: GameService, user: int) -> list[str]:
    async with service.db.reading() as db:
        found = await outbox.waiting(db, schedule.CHANNEL)
    return [json.loads(r.body)["text"] for r in found if r.kind == "dm" and r.recipient == user]


async def test_a_reminder_of_strikes_that_leave_no_choice_tells_of_autostrike(clocked, clock):
    """Where the need is met: the player waited for has strikes of one target each."""
    await schedule.open_clocked_game(clocked, "deadline 4h timeout ai", players=2)
    game = await clocked.game_in(schedule.CHANNEL)
    assert game is not None and game.state is not None
    first = user_id(schedule.CHANNEL, to_act(game.state))  # type: ignore[arg-type]
    clock.advance(2 * schedule.HOUR + 1)
    await Scheduler(clocked).run_due()
    [colour] = await reminders_to(clocked, first)
    assert "waits for you" in colour and AUTOSTRIKE_HINT not in colour
    game = await until_forced(clocked, schedule.CHANNEL)
    forced = forced_turn(game)
    assert forced is not None
    user = user_id(schedule.CHANNEL, forced.seat)
    before = await reminders_to(clocked, user)
    clock.advance(2 * schedule.HOUR + 1)
    await Scheduler(clocked).run_due()
    [struck] = (await reminders_to(clocked, user))[len(before) :]
    assert "strike" in struck and struck.endswith(AUTOSTRIKE_HINT)
