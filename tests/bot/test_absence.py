"""An absent player as the others see them: the status says since when they are absent,
their reminders say what waits, and coming back clears it (issue 21)."""

from __future__ import annotations

import json

from bot.narration.awaited import awaited
from bot.schedule.scheduler import Scheduler
from bot.storage import due as items
from bot.storage import outbox
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import caller, command_for, user_id
from tests.bot.test_schedule import CHANNEL, HERE, HOUR, clock, clocked, open_clocked_game

__all__ = ["clock", "clocked"]


async def test_the_status_shows_an_absent_player_until_they_are_back(clocked, clock):
    await open_clocked_game(clocked, "deadline 4h timeout ai", players=2)
    game = await clocked.game_in(CHANNEL)
    absent = to_act(game.state)
    name = game.name_of(absent)
    clock.advance(5 * HOUR)
    await Scheduler(clocked).run_due()
    status = (await clocked.submit(HERE, caller(CHANNEL, 1 - absent), "status")).ephemeral.text
    assert f"💤 **{name}** is absent: 1 deadline missed in a row, since <t:" in status
    # Back: the next time the game waits for them, they answer themselves.
    for _ in range(400):
        game = await clocked.game_in(CHANNEL)
        seat = to_act(game.state)
        action = legal_actions(game.state, seat)[0]
        text = command_for(game.state, seat, action)
        assert not (await clocked.submit(HERE, caller(CHANNEL, seat), text)).error
        if seat == absent:
            break
    async with clocked.db.reading() as db:
        assert await items.absence(db, game.id, absent) is None
    status = (await clocked.submit(HERE, caller(CHANNEL, absent), "status")).ephemeral.text
    assert "absent" not in status


async def test_a_reminder_says_what_waits_and_names_the_channel_once(clocked, clock):
    await open_clocked_game(clocked, "deadline 4h timeout ai", players=2)
    game = await clocked.game_in(CHANNEL)
    seat = to_act(game.state)
    clock.advance(2 * HOUR + 1)  # halfway
    await Scheduler(clocked).run_due()
    async with clocked.db.reading() as db:
        rows = [r for r in await outbox.waiting(db, CHANNEL) if r.kind == "dm"]
    [reminder] = [json.loads(r.body)["text"] for r in rows if r.recipient == user_id(CHANNEL, seat)]
    what = awaited(game.state, seat)
    assert what == "your choice of colour"
    assert reminder.startswith(f"⏰ Game #{game.id} waits for {what} — the deadline is <t:")
    assert "<#" not in reminder  # the DM itself begins with the channel's link
