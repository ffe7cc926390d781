"""Forced battle decisions (RULES §9.1, §9.4): what ``autostrike`` makes for a player; and
the concession windows (§5.8) that ``fighton`` answers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battle.state import Battle, BattleStep, PendingCarry
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.forced import concession_window, forced_action, strike_decision
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState, Stage
from tests.engine.battle.helpers import battle_game, current, fight, loaded

STRIKE = "Plains t2 defender strike: Bk01 "


def _waiting(state: GameState) -> int:
    seat = to_act(state)
    assert seat is not None
    return seat


@pytest.mark.parametrize(
    ("legions", "forced"),
    [
        ("Ogre@C3 | Rd01 Troll@C2", b.Strike("C3", "C2")),
        # two strikers, one target each: neither order nor carry-over can matter
        ("Ogre@C3 Ogre@A1 | Rd01 Troll@C2 Troll@A2", b.Strike("C3", "C2")),
        # a rangestriker out of range or sight has nothing to decide either
        ("Ogre@C3 Gorgon@A3 | Rd01 Troll@C2 Troll@F1", b.Strike("C3", "C2")),
    ],
)
def test_a_strike_phase_of_single_targets_is_forced(legions: str, forced: b.Strike) -> None:
    state = battle_game(STRIKE + legions)
    seat = _waiting(state)
    assert forced_action(state, seat) == forced
    assert forced in legal_actions(state, seat)
    assert forced_action(state, 1 - seat) is None  # the other side waits


@pytest.mark.parametrize(
    "legions",
    [
        "Ogre@C3 | Rd01 Troll@C2 Troll@C4",  # which of two enemies to strike
        "Ogre@C3 Gorgon@A3 | Rd01 Troll@C2 Troll@A1",  # whether to rangestrike (§10)
    ],
)
def test_a_choice_left_is_not_forced(legions: str) -> None:
    state = battle_game(STRIKE + legions)
    assert forced_action(state, _waiting(state)) is None


def test_counterstrikes_on_one_enemy_are_forced_after_the_strike_phase() -> None:
    state = battle_game(
        STRIKE + "Ogre@C3 | Rd01 Troll@C2 Troll@C4:7", dice=loaded(*[6] * 6, *[1] * 16)
    )
    state, _ = fight(state, b.Strike("C3", "C4"))  # slain: the Troll in C4 still strikes back
    seat = _waiting(state)
    assert forced_action(state, seat) == b.Strike("C2", "C3")
    state, _ = fight(state, b.Strike("C2", "C3"))
    assert forced_action(state, _waiting(state)) == b.Strike("C4", "C3")


def test_carried_hits_with_one_taker_are_forced() -> None:
    state = battle_game(STRIKE + "Ogre@C3 | Rd01 Troll@C2:7 Troll@C4 Troll@B2")
    one = replace(current(state), carry=PendingCarry("C3", 5, ("C4",)))
    two = replace(current(state), carry=PendingCarry("C3", 5, ("C4", "B2")))
    assert forced_action(_with(state, one), 1) == b.CarryOver("C4")
    assert forced_action(_with(state, two), 1) is None


def test_nothing_is_forced_out_of_battle_or_while_a_concession_is_answered() -> None:
    state = battle_game(STRIKE + "Ogre@C3 | Rd01 Troll@C2")
    seat = _waiting(state)
    state, _ = fight(state, a.Concede())
    assert current(state).concession is not None
    assert forced_action(state, _waiting(state)) is None
    state, _ = fight(state, b.AcceptConcession())
    assert state.engagement is not None and state.engagement.stage is Stage.AFTERMATH
    assert forced_action(state, seat) is None and forced_action(state, 1 - seat) is None


@pytest.mark.parametrize(
    "legions",
    [
        "Ogre@C3 | Rd01 Troll@C2",  # forced
        "Ogre@C3 | Rd01 Troll@C2 Troll@C4",  # two targets
        "Ogre@C3 Gorgon@A3 | Rd01 Troll@C2 Troll@A1",  # a rangestrike to decide (§10)
    ],
)
def test_a_strike_phase_is_its_sides_strike_decision_forced_or_not(legions: str) -> None:
    state = battle_game(STRIKE + legions)
    seat = _waiting(state)
    assert strike_decision(state, seat) and not strike_decision(state, 1 - seat)


def test_carried_hits_are_a_strike_decision_a_maneuver_or_a_concession_none() -> None:
    state = battle_game(STRIKE + "Ogre@C3 | Rd01 Troll@C2:7 Troll@C4 Troll@B2")
    two = replace(current(state), carry=PendingCarry("C3", 5, ("C4", "B2")))
    assert strike_decision(_with(state, two), 1)
    maneuver = battle_game("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2")
    assert not any(strike_decision(maneuver, seat) for seat in (0, 1))
    conceding, _ = fight(state, a.Concede())
    assert not any(strike_decision(conceding, seat) for seat in (0, 1))


def test_the_battle_begins_with_each_side_s_window_to_concede_attacker_first() -> None:
    state = battle_game("Plains t1 attacker-may-concede: Bk01 Ogre@C3 | Rd01 Troll@C2")
    for step in (BattleStep.OPEN_ATTACKER, BattleStep.OPEN_DEFENDER):
        seat = _waiting(state)
        assert current(state).step is step
        assert concession_window(state, seat) and not concession_window(state, 1 - seat)
        assert {a.Concede(), a.Decline()} <= set(legal_actions(state, seat))
        assert forced_action(state, seat) is None and not strike_decision(state, seat)
        state, _ = fight(state, a.Decline())  # fighting on
    assert current(state).step is BattleStep.MANEUVER
    assert not any(concession_window(state, seat) for seat in (0, 1))


def test_drift_damage_that_slays_opens_the_other_side_s_window() -> None:
    state = battle_game("Tundra t2 defender maneuver: Bk01 Ogre@A1:5 | Rd01 Centaur@B2")
    defender = _waiting(state)
    state, _ = fight(state, b.EndManeuver())
    assert current(state).step is BattleStep.DRIFT
    assert concession_window(state, 1 - defender) and not concession_window(state, defender)
    state, _ = fight(state, a.Decline())
    assert current(state).step is BattleStep.STRIKE
    assert not any(concession_window(state, seat) for seat in (0, 1))


def test_no_window_in_a_strike_phase_a_maneuver_or_a_concession_to_answer() -> None:
    striking = battle_game(STRIKE + "Ogre@C3 | Rd01 Troll@C2")
    maneuver = battle_game("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2")
    conceding, _ = fight(maneuver, a.Concede())  # an attempt, to be answered
    assert current(conceding).concession is not None
    for state in (striking, maneuver, conceding):
        assert not any(concession_window(state, seat) for seat in (0, 1))


def _with(state: GameState, battle: Battle) -> GameState:
    assert state.engagement is not None
    return replace(state, engagement=replace(state.engagement, battle=battle))
