"""Actions, events and states through JSON; replay rebuilds a game (STYLE: replay)."""

from __future__ import annotations

import json

import pytest

from engine.battle.position import Side
from engine.codec import decode, encode
from engine.errors import InvalidNotation
from engine.game import actions as a
from engine.game.apply import apply, new_game, replay
from engine.game.events import event_to_json
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState, Options, Proposal
from engine.movement import MoveKind

EXAMPLES = [
    a.ChooseColour("Black", "Bk03"),
    a.Split("Bk01", "Bk02", ("Angel", "Centaur", "Gargoyle", "Ogre")),
    a.UndoSplit("Bk02"),
    a.Roll(),
    a.Mulligan(),
    a.Move("Bk01", 135, MoveKind.TITAN_TELEPORT, 3, "Titan"),
    a.TakeBack("Bk01"),
    a.EndMovement(("Bk03",)),
    a.Engage(41),
    a.Flee(),
    a.Propose((Proposal(Side.DEFENDER, ("Troll",)), Proposal(None))),
    a.Accept(2),
    a.Concede(),
    a.NoMoreProposals(),
    a.Fight(),
    a.Summon("Bk02", "Angel"),
    a.Reinforce("Troll", ("Ogre", "Ogre")),
    a.Acquire("Archangel"),
    a.Decline(),
    a.Muster("Bk01", "Warlock", ("Titan",)),
    a.EndTurn(),
    a.Withdraw(),
    a.Reveal("Bk01"),
    a.Reveal("Bk01", ("Ogre", "Ogre", "Troll")),
    a.ExpireTimeLimit(),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda x: type(x).__name__)
def test_actions_round_trip_through_json(action):
    text = json.dumps(a.action_to_json(action))
    assert a.action_from_json(json.loads(text)) == action


def test_every_game_action_type_has_an_example():
    game_types = {n for n, cls in a.ACTION_TYPES.items() if cls.__module__ == a.__name__}
    assert game_types <= {type(x).__name__ for x in EXAMPLES}


def test_unknown_action_json_is_invalid_notation():
    with pytest.raises(InvalidNotation, match="unknown action"):
        a.action_from_json({"type": "Teleport", "legion": "Bk01"})


def played(turns: int = 30, seed: int = 5):
    """A game played by always taking the last legal action but Withdraw."""
    names = ["Ann", "Bob", "Cy"]
    state, events = new_game(names, seed, Options(record_keeping=True))
    log = []
    while state.turn.number < turns and state.result is None:
        seat = to_act(state)
        assert seat is not None
        action = [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw)][-1]
        state, more = apply(state, seat, action)
        events += more
        log.append((seat, action))
    return names, seed, log, state, events


def test_replay_rebuilds_the_same_state_and_json_keeps_it():
    names, seed, log, state, events = played()
    assert replay(names, seed, log, Options(record_keeping=True)) == state
    assert decode(GameState, json.loads(json.dumps(encode(state)))) == state
    assert all(json.dumps(event_to_json(e)) for e in events)


def test_apply_never_changes_its_input():
    _, _, _, state, _ = played(turns=8)
    copy = decode(GameState, encode(state))
    seat = to_act(state)
    for action in legal_actions(state, seat):
        apply(state, seat, action)
    assert state == copy
