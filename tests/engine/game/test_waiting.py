"""What the game waits for (``deciding_seat``, ``waiting_words``) and the refusals that say
it: an action out of its phase, a battle action with no battle being fought, a decision
that is someone else's."""

from __future__ import annotations

import pytest

from engine.battle.position import Side
from engine.errors import IllegalEngagement, NotYourTurn, WrongPhase
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import to_act
from engine.game.waiting import deciding_seat, waiting_words
from tests.engine.game.helpers import act, pos

MOVING = "Bk01@41:Titan,Troll Rd01@40:Titan,Ogre | turn=Bk phase=move roll=4"
ENGAGED = "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre | turn=Bk phase=engage"


def test_the_mover_is_told_his_own_decision():
    state = pos(MOVING)
    expected = "the game waits for you to move legions (roll 4), then end the movement"
    assert waiting_words(state, 0) == expected
    assert waiting_words(state, 1) == (
        "the game waits for Black to move legions (roll 4), then end the movement"
    )


def test_a_battle_action_without_a_battle_says_so_and_what_the_game_waits_for():
    state = pos(MOVING)
    with pytest.raises(WrongPhase) as refused:
        act(state, 0, b.Strike("D4", "C3"))
    assert str(refused.value) == (
        "there is no battle being fought now, so you cannot strike; the game waits for you "
        "to move legions (roll 4), then end the movement"
    )


def test_an_action_out_of_its_phase_says_what_the_game_waits_for():
    state = pos(MOVING)
    with pytest.raises(WrongPhase) as refused:
        act(state, 0, a.EndTurn())
    assert str(refused.value) == (
        "you can end your turn only in the muster phase; the game waits for you to move "
        "legions (roll 4), then end the movement"
    )


def test_an_engagement_and_a_battle_wait_for_the_side_to_decide():
    state, _ = act(pos(ENGAGED), 0, a.Engage(41))
    assert deciding_seat(state) == to_act(state) == 1
    assert waiting_words(state, 0) == "the game waits for Red to answer as the defender in 41"
    with pytest.raises(NotYourTurn) as refused:
        act(state, 0, a.Flee())
    assert str(refused.value) == (
        "the defender decides now, not you; the game waits for Red to answer as the defender in 41"
    )
    with pytest.raises(WrongPhase, match="no battle being fought now, so you cannot maneuver"):
        act(state, 1, b.Maneuver("Ogre", "D4"))
    state, _ = act(state, 1, a.NoMoreProposals())
    state, _ = act(state, 0, a.Fight())
    assert deciding_seat(state) == to_act(state)
    side = Side.ATTACKER if to_act(state) == 0 else Side.DEFENDER
    other = 1 - to_act(state)
    assert waiting_words(state, to_act(state)) == (
        f"the game waits for you to concede or decline, before anyone enters (the {side.value} "
        "in the battle in 41)"
    )
    with pytest.raises(NotYourTurn, match=r"^it is not your decision now; the game waits for "):
        act(state, other, b.EndManeuver())


def test_negotiating_without_an_engagement_points_to_the_next_one():
    state = pos(ENGAGED)
    with pytest.raises(IllegalEngagement) as refused:
        act(state, 0, a.Fight())
    assert str(refused.value) == (
        "you can fight only while an engagement is negotiated; the game waits for you to "
        "choose the next engagement"
    )


def test_a_game_over_waits_for_nobody():
    over = pos("Bk01@41:Titan Rd01@600:Titan | winners=Bk")
    assert deciding_seat(over) is None and waiting_words(over, 0) == "the game is over"


def test_proposals_and_the_battle_refuse_with_what_to_do_instead():
    state, _ = act(pos(ENGAGED), 0, a.Engage(41))
    with pytest.raises(IllegalEngagement) as refused:
        act(state, 1, a.Accept(2))
    assert str(refused.value) == "your opponent made no proposal #2 (they have made none yet)"
    with pytest.raises(IllegalEngagement) as refused:
        act(state, 1, a.Fight())
    assert str(refused.value) == (
        "you can fight once your opponent has declared no more proposals (RULES §5.4); until "
        "then propose, accept, concede or declare no more proposals yourself"
    )
    state, _ = act(state, 1, a.NoMoreProposals())
    state, _ = act(state, 0, a.Fight())
    while state.engagement.battle.step.value.endswith("may concede"):
        state, _ = act(state, to_act(state), a.Decline())
    mover = to_act(state)
    side = state.engagement.battle.decider.value
    with pytest.raises(WrongPhase) as refused:
        act(state, mover, b.Strike("D4", "C3"))
    assert str(refused.value) == (
        "you can strike only in a strike or counterstrike phase (RULES §8.4); the battle "
        f"waits for the {side} to maneuver, then end the maneuver phase"
    )
    with pytest.raises(NotYourTurn) as refused:
        act(state, 1 - mover, b.EndManeuver())
    name = state.player(mover).name
    assert str(refused.value) == (
        f"it is not your decision now; the game waits for {name} to maneuver, then end the "
        f"maneuver phase (the {side} in the battle in 41)"
    )
