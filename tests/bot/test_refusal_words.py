"""Refusals say what to do instead, in the player's words: a battle command with no battle
being fought, a command out of its phase, out of turn."""

from __future__ import annotations

import re

from bot.context import Place
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import caller, open_game

CHANNEL = 41
HERE = Place(CHANNEL)


async def refused(service, seat: int, text: str) -> str:
    replies = await service.submit(HERE, caller(CHANNEL, seat), text)
    assert replies.error and replies.ephemeral is not None, text
    return replies.ephemeral.text


async def to_the_movement(service) -> tuple[int, int]:
    """Colours chosen, the first split made and the roll: the mover and his roll."""
    await open_game(service, CHANNEL, 2)
    for _ in range(20):
        game = await service.game_in(CHANNEL)
        state = game.state
        if state.phase.value == "move":
            return state.active, state.turn.roll
        seat = to_act(state)
        legal = legal_actions(state, seat)
        kinds = (a.ChooseColour, a.Split, a.Roll)
        action = next(x for kind in kinds for x in legal if isinstance(x, kind))
        assert not (await service.act(HERE, caller(CHANNEL, seat), action)).error
    raise AssertionError("no movement phase")


async def test_a_battle_command_outside_a_battle_says_there_is_none_and_what_the_game_waits_for(
    service,
):
    mover, roll = await to_the_movement(service)
    waits = f"the game waits for you to move legions (roll {roll}), then end the movement"
    assert await refused(service, mover, "strike D4 C3") == (
        f"there is no battle being fought now, so you cannot strike; {waits}"
    )
    assert await refused(service, mover, "maneuver Ogre D4") == (
        f"there is no battle being fought now, so you cannot maneuver; {waits}"
    )
    assert await refused(service, mover, "split Bk01 Ogre Ogre") == (
        f"you can split only in the split phase; {waits}"
    )
    assert await refused(service, mover, "muster Bk01 Ogre") == (
        f"you can muster only in the muster phase; {waits}"
    )
    other = await refused(service, 1 - mover, "strike D4 C3")
    assert re.fullmatch(
        rf"it is not your turn: waiting for P{mover} to move \(rolled {roll}; .*", other
    )
