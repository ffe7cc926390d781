"""Leaving the game in words: a withdrawal is told as one (RULES §12.1, §12.4)."""

from __future__ import annotations

from bot.narration.narrate import Names, narrate
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.events import TITAN_LOST, WITHDREW, PlayerEliminated
from tests.engine.game.helpers import pos

STATE = pos("Bk01@100:Titan,Ogre Rd01@600:Titan Gd01@300:Titan | turn=Bk")


def test_a_withdrawal_reads_as_one():
    names = Names(STATE)
    assert narrate([PlayerEliminated(0, None, WITHDREW)], names) == [
        "Black withdrew from the game."
    ]
    assert narrate([PlayerEliminated(2, 1, WITHDREW)], names) == ["Red withdrew from the game."]
    assert narrate([PlayerEliminated(2, 1, TITAN_LOST)], names) == [
        "Red is out of the game by Gold (Titan lost)."
    ]


def test_withdrawing_on_ones_turn_is_told_as_a_withdrawal():
    after, events = apply(STATE, 0, a.Withdraw())
    lines = narrate(events, Names(STATE, after))
    assert "Black withdrew from the game." in lines
    assert not any("Titan lost" in line for line in lines)
