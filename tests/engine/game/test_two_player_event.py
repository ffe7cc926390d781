"""The 2-player event's start rules together (``TWO_PLAYER_EVENT``): the notation, JSON
(old encodings without the options included), replay, and the computer player."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.ai import choose_action
from engine.ai.match import RandomPlayer, play
from engine.codec import decode, encode
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game.apply import apply, new_game, replay
from engine.game.events import TowersAssigned, event_to_json
from engine.game.legal import legal_actions, to_act
from engine.game.notation import format_position, parse_position
from engine.game.state import TWO_PLAYER_EVENT, GameState, Options
from tests.engine.game.helpers import ANGEL_HALF, TITAN_HALF, colours_chosen, pos

T = ",".join(TITAN_HALF)
A = ",".join(ANGEL_HALF)
#: Black's first move after a 2 (the position's dice, ``Dice(0)``, roll 2, 2, 2, 6, ...).
FIRST_MOVE = f"Bk01@100:{T} Bk02@100:{A} Rd01@400:Titan | turn=Bk phase=move roll=2 first=yes"
REROLLS = Options(first_turn_rerolls=True)
NO_TOWER = Options(first_turn_teleport_no_tower=True)


def test_two_player_event_turns_on_all_three_rules():
    rules = ("opposite_towers", "first_turn_rerolls", "first_turn_teleport_no_tower")
    assert all(getattr(TWO_PLAYER_EVENT, name) for name in rules)
    assert not any(getattr(Options(), name) for name in rules)
    assert replace(TWO_PLAYER_EVENT, **dict.fromkeys(rules, False)) == Options()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_event_rules_need_two_players(players):
    with pytest.raises(IllegalAction, match=f"exactly 2 players, not {players}"):
        new_game([f"P{i}" for i in range(players)], 1, TWO_PLAYER_EVENT)


def test_the_options_are_written_in_the_notation():
    state = pos(FIRST_MOVE, options=TWO_PLAYER_EVENT)
    text = format_position(state)
    assert "options=opposite_towers,first_turn_rerolls,first_turn_teleport_no_tower" in text
    assert parse_position(text).options == TWO_PLAYER_EVENT


@pytest.mark.parametrize("options", [Options(), REROLLS, NO_TOWER, TWO_PLAYER_EVENT])
def test_options_round_trip_through_json(options):
    assert decode(Options, json.loads(json.dumps(encode(options)))) == options


def test_options_encoded_before_the_event_rules_still_decode():
    old = {"record_keeping": True, "time_limit": False, "take_backs_per_phase": 50}
    assert decode(Options, old) == Options(record_keeping=True)
    state = colours_chosen(2, seed=3)
    data = encode(state)
    data["options"] = old
    assert decode(GameState, data) == replace(state, options=Options(record_keeping=True))


def test_towers_assigned_encoded_before_the_event_rules_still_decodes():
    old = {"towers": [600, 100], "rolls": [[6, 1]]}
    assert decode(TowersAssigned, old) == TowersAssigned((600, 100), ((6, 1),))


def event_game(seed: int, turns: int = 16):
    """A 2-player event game played by random players; its log, state and events."""
    names = ["Ann", "Bob"]
    state, events = new_game(names, seed, TWO_PLAYER_EVENT)
    players = [RandomPlayer(seed * 2 + i) for i in range(2)]
    log = []
    while state.turn.number < turns and state.result is None:
        seat = to_act(state)
        assert seat is not None
        action = players[seat](state, seat)
        state, more = apply(state, seat, action)
        events += more
        log.append((seat, action))
    return names, log, state, events


@pytest.mark.parametrize("seed", range(4))
def test_event_games_replay_and_round_trip(seed):
    names, log, state, events = event_game(seed)
    assert replay(names, seed, log, TWO_PLAYER_EVENT) == state
    assert decode(GameState, json.loads(json.dumps(encode(state)))) == state
    assert all(json.dumps(event_to_json(e)) for e in events)
    logged = [(s, a.action_from_json(json.loads(json.dumps(a.action_to_json(x))))) for s, x in log]
    assert replay(names, seed, logged, TWO_PLAYER_EVENT) == state


def test_the_computer_player_plays_the_event_rules():
    """Its mulligan rule still holds: every action it takes is legal, rerolls included."""
    taken: list[a.Action] = []

    def observe(before: GameState, seat: int, action: a.Action, after: GameState) -> None:
        assert action in legal_actions(before, seat), action
        taken.append(action)

    for seed in range(3):
        play([choose_action, choose_action], seed, max_turns=12, options=TWO_PLAYER_EVENT,
             observe=observe)  # fmt: skip
    assert any(isinstance(x, a.Mulligan) for x in taken)
