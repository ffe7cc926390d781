"""Every click and command counts once: versions compared under the game's lock, no pings
for what changes nobody's turn."""

from __future__ import annotations

import asyncio
import random

from bot.context import Place, Version
from bot.storage import games as rows
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from engine.game.state import Phase
from tests.bot.agent import caller, open_game, pick

CHANNEL = 8
HERE = Place(CHANNEL)


async def to_movement(service):
    """A two-player game in the first player's movement phase, where he may end it."""
    await open_game(service, CHANNEL, 2)
    rng = random.Random(4)
    while True:
        game = await service.game_in(CHANNEL)
        state = game.state
        seat = to_act(state)
        legal = legal_actions(state, seat)
        if state.phase is Phase.MOVE and a.EndMovement() in legal:
            return game
        first = [x for x in legal if isinstance(x, a.Roll | a.Move)]
        action = first[0] if first else pick(legal, rng)
        assert not (await service.act(HERE, caller(CHANNEL, seat), action)).error


async def logged(service, game_id: int) -> int:
    async with service.db.reading() as db:
        return await rows.action_count(db, game_id)


async def test_two_clicks_on_one_done_button_end_one_phase(service):
    game = await to_movement(service)
    seat = to_act(game.state)
    expect = Version(game.id, game.n)
    who = caller(CHANNEL, seat)
    first, second = await asyncio.gather(
        service.submit(HERE, who, "done", expect=expect),
        service.submit(HERE, who, "done", expect=expect),
    )
    assert sorted([first.error, second.error]) == [False, True]
    refused = first if first.error else second
    assert refused.ephemeral.text == (
        "this choice is out of date: the game has moved on since it was offered (the newest "
        "message offers what it waits for now; `status` says it)"
    )
    assert refused.public is None
    assert await logged(service, game.id) == game.n + 1
    after = await service.game_in(CHANNEL)
    assert after.state.phase in (Phase.ENGAGE, Phase.MUSTER)  # the muster phase not skipped


async def test_a_choice_for_another_game_or_version_changes_nothing(service):
    game = await to_movement(service)
    who = caller(CHANNEL, to_act(game.state))
    for expect in (Version(game.id, game.n - 1), Version(game.id + 1, game.n)):
        replies = await service.submit(HERE, who, "done", expect=expect)
        assert replies.error and "out of date" in replies.ephemeral.text
    assert await logged(service, game.id) == game.n
    assert not (await service.submit(HERE, who, "done", expect=Version(game.id, game.n))).error


async def test_a_withdrawal_out_of_turn_pings_nobody(service):
    game = await to_movement(service)
    other = 1 - to_act(game.state)
    replies = await service.submit(HERE, caller(CHANNEL, other), "withdraw confirm")
    assert not replies.error
    assert replies.public is not None and replies.public.mention == ()
    assert "withdraw" in replies.public.text.lower()


async def test_a_second_withdrawal_changes_nothing_and_pings_nobody(service):
    game = await to_movement(service)
    other = caller(CHANNEL, 1 - to_act(game.state))
    first = await service.submit(HERE, other, "withdraw confirm")
    assert not first.error and first.public.mention == ()
    second = await service.submit(HERE, other, "withdraw")
    assert second.error and second.public is None and not second.private
    assert "already" in second.ephemeral.text
    assert await logged(service, game.id) == game.n + 1
