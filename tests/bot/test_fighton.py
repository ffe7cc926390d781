"""``fighton on|off``: a player's chances to concede outright and nothing else in a battle
(RULES §5.8: as it begins, before drift damage, before the counterstrikes, at the end
check) are answered "fight on" at once, logged as theirs with the cause, and nothing else
is; the other player's wait for them (the service, the command, a restart, a reminder,
the clock's keys the start-up looks for)."""

from __future__ import annotations

import sqlite3

import pytest

from bot.handlers.autostrike import FIGHTON, deciding_person
from bot.schedule.decisions import decision_of
from bot.schedule.runner import FIGHTON_HINT
from bot.storage import autostrike as prefs
from bot.storage.database import Database
from bot.storage.games import WINDOWS
from bot.storage.migrations import MIGRATIONS
from bot.storage.record import Game, read_action
from engine.battle.state import BattleStep
from engine.game import actions as a
from engine.game.forced import concession_window
from tests.bot import test_schedule as schedule
from tests.bot.test_autostrike import (
    choosing,
    like,
    made,
    next_reminder,
    played_out,
    restarted,
)
from tests.bot.test_schedule import clock, clocked
from tests.engine.battle.helpers import battle_game, current

__all__ = ["clock", "clocked"]

SEED = 4
WINDOWS_SEED = 2
"""A game of agents in which P0 has four windows: both openings, before counterstrikes."""
STEPS = 3000


def window_of(game: Game) -> int | None:
    """The seat of the person whose concession window the game waits for, if any."""
    seat = deciding_person(game)
    return seat if seat is not None and concession_window(game.playing(), seat) else None


def test_the_clock_keys_of_windows_and_only_theirs_match_the_sweeps_patterns() -> None:
    """A start-up finds the games waiting at a window by their clock's key (RULES §5.8)."""
    patterns = [like(window) for window in WINDOWS]
    for text, window in [
        ("Plains t1 attacker-may-concede: Bk01 Ogre@C3 | Rd01 Troll@C2", True),
        ("Plains t1 defender-may-concede: Bk01 Ogre@C3 | Rd01 Troll@C2", True),
        ("Plains t2 defender slew-all: Bk01 Ogre@C3 | Rd01 Troll@C2:6", True),
        ("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2", False),
        ("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2", False),
    ]:
        decided = decision_of(battle_game(text))
        assert decided is not None
        assert any(p.match(decided.key) for p in patterns) is window, decided.key


async def test_the_command_says_what_it_does_and_refuses_other_words(db_target) -> None:
    async with choosing(db_target) as me:
        on = await me.say("fighton on")
        assert on.ephemeral is not None and on.public is None
        assert "Fight on:" in on.ephemeral.text and "RULES §5.8" in on.ephemeral.text
        assert await me.stored() == prefs.Autoplay(fight_on=True)
        wrong = await me.say("fighton sometimes")
        assert wrong.error and wrong.ephemeral is not None
        assert "on or off" in wrong.ephemeral.text
        assert not (await me.say("autostrike all")).error
        assert await me.stored() == prefs.Autoplay("all", fight_on=True)
        off = await me.say("fighton off")
        assert off.ephemeral is not None and "Fight on is off" in off.ephemeral.text
        assert await me.stored() == prefs.Autoplay("all")
        told = await me.say("help fighton")
        assert told.ephemeral is not None and "fighton on|off" in told.ephemeral.text


async def test_every_window_of_its_player_is_answered_and_the_others_wait(db_target):
    """P0 turned it on, P1 did not: the game never waits for P0 at a window and does for
    P1; every action made for P0 is fighting on, in a window of P0's when it was made."""
    played = await played_out(db_target, WINDOWS_SEED, ["fighton on"], window_of, FIGHTON)
    made_for_p0 = played.made
    for entry, before in made_for_p0:
        assert concession_window(before, 0) and read_action(entry) == a.Decline()
    steps = {current(before).step for _, before in made_for_p0}
    assert len(made_for_p0) >= 4
    assert {BattleStep.OPEN_ATTACKER, BattleStep.OPEN_DEFENDER, BattleStep.SLEW_ALL} <= steps


MADE_AT_ONCE = ("strike", "place", "fight")
"""How the tasks of a strike phase, a carry and a window begin after "Waiting for **P0** to"
(:func:`bot.narration.describe.waiting_for`)."""


async def test_no_news_says_the_game_waits_for_a_decision_made_at_once(db_target):
    """P0 has ``autostrike all`` and ``fighton on``: no news posted in the channel says the
    game waits for P0 to strike, place hits or fight on; it says so of P1."""
    played = await played_out(
        db_target, WINDOWS_SEED, ["autostrike all", "fighton on"], window_of, FIGHTON
    )
    prompts = [line for text in played.news for line in text.split("\n") if "Waiting for" in line]
    assert any(line.startswith("Waiting for **P1** to strike") for line in prompts)
    assert any(line.startswith("Waiting for **P0** to maneuver") for line in prompts)
    told = [line for line in prompts if line.startswith("Waiting for **P0** to ")]
    assert not [line for line in told if line.split(" to ", 1)[1].startswith(MADE_AT_ONCE)]


async def test_a_restart_answers_the_window_it_finds_waiting(db_target):
    """The preference stored while nothing played the AI seats: the start-up's sweep
    fights on."""
    async with restarted(db_target, window_of, "fighton on") as (service, game, seat):
        [entry, *_] = await made(service, game, FIGHTON)
        assert entry.n == game.n + 1 and entry.seat == seat


async def test_a_reminder_of_a_window_tells_of_fighton(clocked, clock):
    await schedule.open_clocked_game(clocked, "deadline 4h timeout ai", players=2)
    before, told = await next_reminder(clocked, clock, window_of)
    assert not any(FIGHTON_HINT in text for text in before)
    assert "concede" in told and told.endswith(FIGHTON_HINT), told


async def test_migration_19_gives_everyone_fighton_off_and_takes_only_0_or_1(tmp_path):
    path = tmp_path / "games.sqlite3"
    older = await Database.open(path, migrations=MIGRATIONS[:18])
    try:
        async with older.transaction() as db:
            await db.execute("INSERT INTO users (id, autostrike) VALUES (11, 'all')")
    finally:
        await older.close()
    now = await Database.open(path)
    try:
        async with now.transaction() as db:
            assert await prefs.autoplay_of(db, [11, 12]) == {11: prefs.Autoplay("all")}
            await prefs.set_fighton(db, 12, True)
            assert await prefs.autoplay_of(db, [11, 12]) == {
                11: prefs.Autoplay("all"),
                12: prefs.Autoplay(fight_on=True),
            }
        with pytest.raises(sqlite3.IntegrityError):
            async with now.transaction() as db:
                await db.execute("UPDATE users SET fighton = 2 WHERE id = 11")
    finally:
        await now.close()
