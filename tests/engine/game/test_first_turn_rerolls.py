"""First-turn rerolls of a 2 or 5, a start rule of the 2-player event
(``Options.first_turn_rerolls``): the mulligan of RULES §4.3 becomes any 2 or 5, as often
as it comes up, and no other number."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game.events import MovementRolled
from engine.game.legal import legal_actions
from engine.game.state import Options
from tests.engine.game.helpers import ANGEL_HALF, TITAN_HALF, act, pos

T = ",".join(TITAN_HALF)
A = ",".join(ANGEL_HALF)
#: Black's first move after a 2 (the position's dice, ``Dice(0)``, roll 2, 2, 2, 6, ...).
FIRST_MOVE = f"Bk01@100:{T} Bk02@100:{A} Rd01@400:Titan | turn=Bk phase=move roll=2 first=yes"
REROLLS = Options(first_turn_rerolls=True)


def test_first_turn_rerolls_a_2_or_5_again_and_again():
    state = pos(FIRST_MOVE, options=REROLLS)
    rolled = []
    while a.Mulligan() in legal_actions(state, 0):
        state, events = act(state, 0, a.Mulligan())
        assert events == [MovementRolled(0, state.turn.roll, mulligan=True)]
        rolled.append(state.turn.roll)
    assert rolled == [2, 2, 2, 6]  # Dice(0): rerolled four times, until a 6
    with pytest.raises(IllegalAction, match=r"only a 2 or a 5 may be rerolled.*not a 6"):
        act(state, 0, a.Mulligan())


@pytest.mark.parametrize("roll", [1, 3, 4, 6])
def test_first_turn_rerolls_no_other_number_even_before_any_reroll(roll):
    state = pos(FIRST_MOVE.replace("roll=2", f"roll={roll}"), options=REROLLS)
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match=rf"only a 2 or a 5 .* not a {roll} "):
        act(state, 0, a.Mulligan())


def test_first_turn_rerolls_a_5_after_earlier_rerolls():
    state = pos(FIRST_MOVE.replace("roll=2", "roll=5 mulligan=yes"), options=REROLLS)
    assert a.Mulligan() in legal_actions(state, 0)
    state, _ = act(state, 0, a.Mulligan())
    assert state.turn.roll == 2 and a.Mulligan() in legal_actions(state, 0)


def test_first_turn_rerolls_only_before_any_move_stands():
    state = pos(FIRST_MOVE, options=REROLLS)
    state, _ = act(state, 0, a.Move("Bk01", 4))
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="take back every move"):
        act(state, 0, a.Mulligan())
    state, _ = act(state, 0, a.TakeBack("Bk01"))
    assert a.Mulligan() in legal_actions(state, 0)
    state, _ = act(state, 0, a.Mulligan())
    assert state.turn.roll == 2


def test_first_turn_rerolls_not_after_the_first_turn():
    later = "Bk01@100:Titan,Ogre Bk02@200:Angel,Troll Rd01@400:Titan | turn=Bk phase=move roll=2"
    state = pos(later, options=REROLLS)
    assert not state.turn.first_turn and a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="first turn only"):
        act(state, 0, a.Mulligan())


def test_without_first_turn_rerolls_the_mulligan_is_once_and_any_number():
    state = pos(FIRST_MOVE.replace("roll=2", "roll=3"))
    assert a.Mulligan() in legal_actions(state, 0)
    state, _ = act(state, 0, a.Mulligan())
    assert state.turn.roll == 2 and state.turn.mulligan_used
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="once, on your first turn"):
        act(state, 0, a.Mulligan())


def test_rerolls_follow_the_game_dice():
    state = pos(FIRST_MOVE.replace("roll=2", "roll=5"), options=REROLLS, dice=Dice(31))
    state, events = act(state, 0, *[a.Mulligan()] * 4)  # Dice(31) rolls 5, 2, 2, 3
    assert [e.roll for e in events] == [5, 2, 2, 3] and state.dice.rolled == 4
    assert a.Mulligan() not in legal_actions(state, 0)
