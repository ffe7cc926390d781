"""Leaving the game in words: a withdrawal is told as one (RULES §12.1, §12.4)."""

from __future__ import annotations

from bot.context import Place
from bot.narration.narrate import Names, narrate
from bot.syntax import format_action
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.events import TITAN_LOST, WITHDREW, PlayerEliminated
from engine.game.legal import legal_actions, to_act
from engine.game.state import Phase
from tests.bot.agent import caller, open_game
from tests.engine.game.helpers import pos

CHANNEL = 6
HERE = Place(CHANNEL)

STATE = pos("Bk01@100:Titan,Ogre Rd01@600:Titan Gd01@300:Titan | turn=Bk")


def test_a_withdrawal_reads_as_one():
    names = Names(STATE)
    assert narrate([PlayerEliminated(0, None, WITHDREW)], names) == [
        "Black withdrew from the game."
    ]
    assert narrate([PlayerEliminated(2, 1, WITHDREW)], names) == ["Red withdrew from the game."]
    assert narrate([PlayerEliminated(2, 1, TITAN_LOST)], names) == [
        "Red is out of the game (Titan lost), eliminated by Gold."
    ]


def test_withdrawing_on_ones_turn_is_told_as_a_withdrawal():
    after, events = apply(STATE, 0, a.Withdraw())
    lines = narrate(events, Names(STATE, after))
    assert "Black withdrew from the game." in lines
    assert not any("Titan lost" in line for line in lines)


async def test_a_player_withdraws_while_the_colours_are_chosen_and_the_game_goes_on(service):
    """SoP: a player may withdraw instead of choosing; the others play on without him."""
    await open_game(service, CHANNEL, 3)
    game = await service.game_in(CHANNEL)
    waiting = to_act(game.state)
    leaving = next(s for s in range(3) if s != waiting)
    replies = await service.submit(HERE, caller(CHANNEL, leaving), "withdraw confirm")
    assert not replies.error, replies.ephemeral
    assert f"{game.name_of(leaving)} withdrew from the game." in replies.public.text
    while (game := await service.game_in(CHANNEL)).state.phase is Phase.COLOURS:
        seat = to_act(game.state)
        assert seat != leaving
        colour = next(x for x in legal_actions(game.state, seat) if isinstance(x, a.ChooseColour))
        assert not (await service.submit(HERE, caller(CHANNEL, seat), format_action(colour))).error
    assert game.state.phase is Phase.SPLIT and game.state.player(leaving).colour is None
    for question in ("status", "board", "legions"):
        assert not (await service.submit(HERE, caller(CHANNEL, leaving), question)).error
    refused = await service.submit(HERE, caller(CHANNEL, leaving), "withdraw")
    assert refused.error and "out of the game" in refused.ephemeral.text
