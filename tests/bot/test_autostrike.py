"""``autostrike off|forced|all``: a player's forced battle actions (RULES §9.1, §9.4), or
all their strike-phase decisions (§9, §10), are made for them at once, logged as theirs
with the cause, and nothing else is (the service, the command, a game woken in another
channel, a restart, a database stored before the modes)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace

import pytest

from bot.context import Place
from bot.handlers.autostrike import AUTOSTRIKE, LEVEL, deciding_person
from bot.replies import Replies
from bot.schedule.decisions import decision_of
from bot.schedule.runner import AUTOSTRIKE_HINT, CHOOSING_HINT, reminder_text
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import autostrike as prefs
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage.backends import Target
from bot.storage.database import Database
from bot.storage.games import STRIKES, ActionRow
from bot.storage.migrations import MIGRATIONS
from bot.storage.record import Game, read_action, state_at
from engine.ai.player import choose_action
from engine.game import actions as a
from engine.game.forced import STRIKE_PHASE_ACTIONS, forced_action, strike_decision
from engine.game.legal import to_act
from engine.game.state import GameState
from tests.bot import test_schedule as schedule
from tests.bot.agent import caller, open_game, step, user_id
from tests.bot.test_schedule import clock, clocked
from tests.engine.battle.helpers import battle_game

__all__ = ["clock", "clocked"]

CHANNEL, ELSEWHERE = 31, 32
SEED = 4
ALL_SEED = 6
"""A game of agents whose battles give P0 ten strike-phase decisions, one a choice."""
STEPS = 3000


@dataclass(frozen=True)
class Forced:
    """A person's forced action the game waits for."""

    seat: int
    action: a.Action


def striking_person(game: Game) -> int | None:
    """The seat of the person whose strike-phase decision the game waits for, if it waits
    for one."""
    seat = deciding_person(game)
    return seat if seat is not None and strike_decision(game.playing(), seat) else None


def forced_turn(game: Game) -> Forced | None:
    """The forced battle action of the person the game waits for, if they have one."""
    seat = striking_person(game)
    if seat is None:
        return None
    action = forced_action(game.playing(), seat)
    return Forced(seat, action) if action is not None else None


async def made(service: GameService, game: Game, cause: str = AUTOSTRIKE) -> list[ActionRow]:
    """The actions of ``game`` made for a player by their choice ``cause``."""
    async with service.db.reading() as db:
        return [r for r in await rows.actions(db, game.id) if r.cause == cause]


def like(pattern: str) -> re.Pattern[str]:
    """A SQL LIKE ``pattern`` (``%`` only) as a regular expression."""
    return re.compile("^" + ".*".join(map(re.escape, pattern.split("%"))) + "$")


async def until_forced(service: GameService, channel: int = CHANNEL) -> Game:
    """Play the agents on until the game waits for a person's forced battle action."""
    return await until(service, channel, lambda game: forced_turn(game) is not None)


async def until(service: GameService, channel: int, waits: Callable[[Game], bool]) -> Game:
    """Play the agents on until the game ``waits`` as asked."""
    for _ in range(STEPS):
        game = await service.game_in(channel)
        assert game is not None, "the game ended first"
        if waits(game):
            return game
        await step(service, channel, SEED, fighting=True)
    raise AssertionError("the game never waited so")


def test_the_clock_keys_of_strikes_and_only_theirs_match_the_sweeps_pattern() -> None:
    """A start-up finds the games waiting for strikes by their clock's key (RULES §9.1)."""
    strikes = like(STRIKES)
    for text, striking in [
        ("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2", True),
        ("Plains t2 defender counterstrike: Bk01 Ogre@C3* | Rd01 Troll@C2", True),
        ("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2", False),
    ]:
        decided = decision_of(battle_game(text))
        assert decided is not None
        assert bool(strikes.match(decided.key)) is striking, decided.key


class Chooser:
    """A player giving their battle choices in a channel without a game, and what is
    stored of them."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.who = caller(CHANNEL, 0)

    async def say(self, words: str) -> Replies:
        return await self.service.submit(Place(ELSEWHERE), self.who, words)

    async def stored(self) -> prefs.Autoplay:
        async with self.service.db.reading() as db:
            chosen = await prefs.autoplay_of(db, [self.who.user])
        return chosen.get(self.who.user, prefs.Autoplay())


@asynccontextmanager
async def choosing(db_target: Target) -> AsyncIterator[Chooser]:
    """A player with every choice off, on a service of its own."""
    service = await GameService.open(db_target, seeds=lambda: 3)
    try:
        yield Chooser(service)
    finally:
        await service.close()


async def test_the_command_says_what_it_does_and_refuses_other_words(db_target) -> None:
    async with choosing(db_target) as me:
        forced = await me.say("autostrike forced")
        assert forced.ephemeral is not None and "Autostrike forced" in forced.ephemeral.text
        assert "RULES §9.1" in forced.ephemeral.text and forced.public is None
        assert await me.stored() == prefs.Autoplay("forced")
        wrong = await me.say("autostrike sometimes")
        assert wrong.error and wrong.ephemeral is not None
        assert "off, forced or all" in wrong.ephemeral.text
        assert await me.stored() == prefs.Autoplay("forced")
        every = await me.say("autostrike all")
        assert every.ephemeral is not None and "Autostrike all" in every.ephemeral.text
        assert "level hard" in every.ephemeral.text and "maneuvers" in every.ephemeral.text
        assert await me.stored() == prefs.Autoplay("all")
        off = await me.say("autostrike off")
        assert off.ephemeral is not None and "Autostrike is off" in off.ephemeral.text
        assert await me.stored() == prefs.Autoplay()
        on = await me.say("autostrike on")  # the first form
        assert on.ephemeral is not None and "Autostrike forced" in on.ephemeral.text
        assert await me.stored() == prefs.Autoplay("forced")
        told = await me.say("help autostrike")
        assert told.ephemeral is not None
        assert "autostrike off|forced|all" in told.ephemeral.text


async def test_only_forced_actions_are_made_and_the_game_never_waits_for_them(db_target):
    """Both players turned it on: every action made for them was forced when it was made
    (the log replayed), and the game never waits for a forced action of theirs."""
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        await open_game(service, CHANNEL, 2)
        for seat in (0, 1):
            await service.submit(Place(ELSEWHERE), caller(CHANNEL, seat), "autostrike forced")
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


@dataclass(frozen=True)
class PlayedOut:
    """A game played out: each action made for P0 with the state it was made in, and the
    news posted in its channel, in order."""

    made: list[tuple[ActionRow, GameState]]
    news: list[str]


async def played_out(
    db_target,
    seed: int,
    commands: Sequence[str],
    waits_for: Callable[[Game], int | None],
    cause: str,
) -> PlayedOut:
    """A game of agents in which P0 gave ``commands`` (P1 none), played to its end: it
    never waited for a decision of P0's of the kind ``waits_for`` finds (the seat it waits
    for, or None) and did wait for P1's."""
    service = await GameService.open(db_target, seeds=lambda: seed)
    try:
        await open_game(service, CHANNEL, 2)
        for command in commands:
            assert not (await service.submit(Place(ELSEWHERE), caller(CHANNEL, 0), command)).error
        waited_for_p1 = False
        game = last = None
        for _ in range(STEPS):
            game = await service.game_in(CHANNEL)
            if game is None:  # over
                break
            last = game
            assert waits_for(game) != 0
            waited_for_p1 = waited_for_p1 or waits_for(game) == 1
            await step(service, CHANNEL, seed, fighting=True)
        assert game is None and last is not None and waited_for_p1
        entries = await made(service, last, cause)
        async with service.db.reading() as db:
            states = [await state_at(db, last.row, entry.n - 1) for entry in entries]
            posted = [r for r in await outbox.waiting(db, CHANNEL) if r.kind == "post"]
        assert all(entry.seat == 0 for entry in entries)
        pairs = [(entry, state) for entry, state in zip(entries, states, strict=True) if state]
        return PlayedOut(pairs, [json.loads(r.body)["text"] for r in posted])
    finally:
        await service.close()


async def test_all_makes_every_strike_decision_as_hard_would_and_the_rest_waits(db_target):
    """P0 has it at ``all``, P1 off: every action made for P0 is a strike-phase decision,
    the one ``hard`` chooses (or the forced one) in the state it was made in, some of them
    choices; the game never waits for P0's strikes, and waits for P1's."""
    played = await played_out(db_target, ALL_SEED, ["autostrike all"], striking_person, AUTOSTRIKE)
    made_for_p0 = played.made
    chose = 0
    for entry, before in made_for_p0:
        assert strike_decision(before, 0)
        action = read_action(entry)
        assert isinstance(action, STRIKE_PHASE_ACTIONS)
        forced = forced_action(before, 0)
        chose += forced is None
        assert action == (forced or choose_action(before, 0, LEVEL))
    assert len(made_for_p0) >= 8 and chose >= 1


async def test_turning_it_on_elsewhere_makes_the_strike_waiting_now(db_target):
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        await open_game(service, CHANNEL, 2)
        game = await until_forced(service)
        forced = forced_turn(game)
        assert forced is not None
        who = caller(CHANNEL, forced.seat)
        await service.submit(Place(ELSEWHERE), who, "autostrike forced")
        await service.ai.idle()
        entries = await made(service, game)
        assert entries and entries[0].n == game.n + 1 and entries[0].seat == forced.seat
        assert read_action(entries[0]) == forced.action
    finally:
        await service.close()


@asynccontextmanager
async def restarted(
    db_target: Target, waits_for: Callable[[Game], int | None], words: str
) -> AsyncIterator[tuple[GameService, Game, int]]:
    """The person ``waits_for`` names says ``words`` in another channel while nothing plays
    the AI seats (as when a process stops between a command and the slice after it); a
    start-up's sweep then finds that game, and only it, waiting for the computer (not for
    its other player) and plays on: the new service, the game as it stood, the seat."""
    paused = await GameService.open(db_target, seeds=lambda: SEED, ai_limit=0)
    try:
        await open_game(paused, CHANNEL, 2)
        game = await until(paused, CHANNEL, lambda g: waits_for(g) is not None)
        seat = waits_for(game)
        assert seat is not None
        await paused.submit(Place(ELSEWHERE), caller(CHANNEL, seat), words)
        assert (await paused.game_in(CHANNEL)).n == game.n  # type: ignore[union-attr]
    finally:
        await paused.close()
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        async with service.db.reading() as db:
            assert await rows.active_games_waiting_for_ai(db) == [(CHANNEL, None)]
            other = user_id(CHANNEL, 1 - seat)
            assert await rows.active_games_waiting_for_ai(db, other) == []
        assert await Scheduler(service).advance_ai_games() == 1
        await service.ai.idle()
        yield service, game, seat
    finally:
        await service.close()


async def test_a_restart_makes_the_forced_strike_it_finds_waiting(db_target):
    """The preference stored while nothing played the AI seats: the start-up's sweep makes
    the strike."""
    async with restarted(db_target, forced_seat, "autostrike all") as (service, game, _):
        entries = await made(service, game)
        assert entries and entries[0].n == game.n + 1


async def reminders_to(service: GameService, user: int) -> list[str]:
    async with service.db.reading() as db:
        found = await outbox.waiting(db, schedule.CHANNEL)
    return [json.loads(r.body)["text"] for r in found if r.kind == "dm" and r.recipient == user]


async def next_reminder(
    clocked: GameService, clock, waits_for: Callable[[Game], int | None]
) -> tuple[list[str], str]:
    """Play the agents on until the game waits for a person's decision of the kind
    ``waits_for`` finds (the seat), then let half the 4-hour deadline pass: that person's
    reminders before, and the one that came."""
    game = await until(clocked, schedule.CHANNEL, lambda g: waits_for(g) is not None)
    seat = waits_for(game)
    assert seat is not None
    user = user_id(schedule.CHANNEL, seat)
    before = await reminders_to(clocked, user)
    clock.advance(2 * schedule.HOUR + 1)
    await Scheduler(clocked).run_due()
    [told] = (await reminders_to(clocked, user))[len(before) :]
    return before, told


def forced_seat(game: Game) -> int | None:
    """The seat of the person whose forced battle action the game waits for, if any."""
    forced = forced_turn(game)
    return forced.seat if forced is not None else None


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
    _, struck = await next_reminder(clocked, clock, forced_seat)
    assert "strike" in struck and struck.endswith(AUTOSTRIKE_HINT)


async def test_a_reminder_of_a_strike_phase_with_choices_tells_of_autostrike_all(clocked, clock):
    await schedule.open_clocked_game(clocked, "deadline 4h timeout ai", players=2)

    def choosing(game: Game) -> int | None:
        return striking_person(game) if forced_turn(game) is None else None

    before, told = await next_reminder(clocked, clock, choosing)
    assert not any(CHOOSING_HINT in text for text in before)
    assert "strike" in told and told.endswith(CHOOSING_HINT) and AUTOSTRIKE_HINT not in told


async def test_those_who_turned_it_on_before_the_modes_keep_the_forced_strikes(tmp_path):
    """Migration 18: ``autostrike`` 1 (on, which made the forced decisions) becomes
    ``forced``, 0 becomes ``off``; the column takes the three modes and no other word."""
    path = tmp_path / "games.sqlite3"
    older = await Database.open(path, migrations=MIGRATIONS[:17])
    try:
        async with older.transaction() as db:
            for user, on in ((11, 1), (12, 0)):
                await db.execute("INSERT INTO users (id, autostrike) VALUES (?, ?)", (user, on))
    finally:
        await older.close()
    now = await Database.open(path)
    try:
        async with now.transaction() as db:
            assert await prefs.autostrike_modes(db, [11, 12, 13]) == {11: "forced"}
            await prefs.set_autostrike(db, 12, "all")
            await prefs.set_autostrike(db, 13, "forced")
            assert await prefs.autostrike_modes(db, [11, 12, 13]) == {
                11: "forced", 12: "all", 13: "forced"
            }  # fmt: skip
        with pytest.raises(sqlite3.IntegrityError):
            async with now.transaction() as db:
                await db.execute("UPDATE users SET autostrike = 'on' WHERE id = 11")
    finally:
        await now.close()


async def test_a_game_that_allows_only_forced_strikes_makes_no_choice_for_an_all(db_target):
    """The game's settings (a tournament's ``autostrike forced``) cap a player at ``all``:
    only forced decisions are made for them, a choice waits for them (its reminder does
    not offer ``autostrike all``), and ``status`` says so."""
    service = await GameService.open(db_target, seeds=lambda: ALL_SEED)
    try:
        await open_game(service, CHANNEL, 2)
        game = await service.game_in(CHANNEL)
        assert game is not None
        capped = replace(game.settings, autostrike="forced")
        async with service.db.transaction() as db:
            await rows.update_game(db, game.id, game.row.status, settings=capped.to_json())
        service.forget()
        await service.submit(Place(ELSEWHERE), caller(CHANNEL, 0), "autostrike all")
        status = await service.submit(Place(CHANNEL), caller(CHANNEL, 1), "status")
        assert status.ephemeral is not None
        assert "autostrike makes only the strikes that leave no choice" in status.ephemeral.text
        chose = False
        last = None
        for _ in range(STEPS):
            game = await service.game_in(CHANNEL)
            if game is None:
                break
            last = game
            if striking_person(game) == 0 and forced_turn(game) is None:  # a choice
                chose = True
                place = Place(CHANNEL)
                assert CHOOSING_HINT not in reminder_text(game, place, None, 0)  # not here
                settings = replace(game.settings, autostrike="all").to_json()
                free = replace(game, row=replace(game.row, settings=settings))
                assert reminder_text(free, place, None, 0).endswith(CHOOSING_HINT)
            await step(service, CHANNEL, ALL_SEED, fighting=True)
        assert last is not None and chose  # P0 had choices to make, and made them
        entries = await made(service, last)
        assert entries
        async with service.db.reading() as db:
            for entry in entries:
                before = await state_at(db, last.row, entry.n - 1)
                assert before is not None and forced_action(before, 0) == read_action(entry)
    finally:
        await service.close()
