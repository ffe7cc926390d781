"""Game turns as players count them (RULES §1.6 step 4): ``game_turn`` and ``player_turns``.

A random legal playout (the agent of :mod:`tests.engine.game.test_random_games`:
withdrawals, eliminations and time limits included) checks them against the turns told
by the events: the n-th ``TurnStarted`` of a seat is that seat's game turn n.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.errors import TitanError
from engine.game import actions as a
from engine.game.apply import apply, new_game
from engine.game.events import PlayerEliminated, TurnStarted
from engine.game.game_turns import game_turn, player_turns
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState, Phase, Result
from tests.engine.game.helpers import colours_chosen
from tests.engine.game.test_random_games import Agent, options_for

GAMES = 40


def _end_turn(state: GameState) -> GameState:
    """Play the active player's turn through with the least the rules allow."""
    seat = state.active
    while state.active == seat and state.result is None:
        legal = [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw)]
        kinds = (a.Split, a.Roll, a.EndMovement, a.EndTurn, a.Move, a.Engage, a.Flee)
        action = next((x for kind in kinds for x in legal if isinstance(x, kind)), legal[0])
        state, _ = apply(state, to_act(state) or seat, action)
    return state


def test_three_players_play_game_turn_1_then_2():
    state = colours_chosen(3)
    assert (state.turn.number, game_turn(state)) == (1, 1)
    first = state.active
    seen = []
    for _ in range(6):
        seen.append((state.turn.number, state.active, game_turn(state)))
        state = _end_turn(state)
    assert [turn for _, _, turn in seen] == [1, 1, 1, 2, 2, 2]
    assert seen[3][1] == first  # game turn 2 starts again with the highest tower
    played = [(seat, turn) for _, seat, turn in seen]
    assert player_turns(state) == (*played, (state.active, 3))


def test_colours_come_before_game_turn_1():
    state, _ = new_game(["Ann", "Bob"], 1)
    assert state.phase is Phase.COLOURS
    assert (game_turn(state), player_turns(state)) == (0, ())


def test_an_eliminated_player_is_skipped_and_the_others_keep_their_count():
    """After Bob leaves in game turn 2, game turn 3 is everyone else's third turn."""
    state = colours_chosen(3)
    order = [state.active]
    for _ in range(4):  # game turn 1, and the first player's turn of game turn 2
        state = _end_turn(state)
        order.append(state.active)
    leaver = order[2]  # the last of the turn order, still to play game turn 2
    state, events = apply(state, leaver, a.Withdraw())  # queued until his turn
    assert not any(isinstance(e, PlayerEliminated) for e in events)
    state = _end_turn(state)  # the second player's turn; Bob's begins with his withdrawal
    assert state.player(leaver).eliminated
    assert state.active == order[0] and game_turn(state) == 3
    turns = player_turns(state)
    assert turns is not None and turns[-1] == (order[0], 3)
    assert [seat for seat, turn in turns if turn == 2] == [order[0], order[1], leaver]
    assert [seat for seat, turn in turns if turn == 3] == [order[0]]


def test_a_game_over_counts_the_last_turn_played():
    state = colours_chosen(2)
    state = _end_turn(_end_turn(state))  # game turn 1 done: game turn 2 begins
    assert game_turn(state) == 2
    elimination = replace(state, phase=Phase.OVER, result=Result((0,), "last Titan standing"))
    assert game_turn(elimination) == 2  # ended within the turn
    seat = state.active
    closed = state.with_player(replace(state.player(seat), turns_taken=2))
    on_time = replace(closed, phase=Phase.OVER, result=Result((0, 1), "time limit"))
    assert game_turn(on_time) == 2  # the turn closed before the game ended
    assert player_turns(on_time) == player_turns(elimination)


def test_a_position_without_a_history_has_no_player_turns():
    state = colours_chosen(2)
    state = replace(state, turn=replace(state.turn, number=40))
    assert player_turns(state) is None
    assert game_turn(state) == 1


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_count_game_turns_as_the_events_tell_them(seed):
    players = 2 + seed % 5
    state, _ = new_game([f"P{i}" for i in range(players)], seed, options_for(seed))
    agent, started, told = Agent(seed), Counter[int](), []
    for _ in range(8000):
        if state.result is not None:
            break
        seat = to_act(state)
        assert seat is not None
        seat, action = agent.choose(state, seat, legal_actions(state, seat))
        try:
            state, events = apply(state, seat, action)
        except TitanError:
            continue
        for event in events:
            if isinstance(event, TurnStarted):
                started[event.seat] += 1
                told.append((event.seat, started[event.seat]))
                assert event.number == len(told)
        if state.result is None:
            assert game_turn(state) == started[state.active]
        assert player_turns(state) == tuple(told)
    assert state.result is not None
    assert game_turn(state) == (told[-1][1] if told else 0)
