"""Loading a stored log: any torn or missing action row is named precisely, never
replayed past; a trusted snapshot that cannot be decoded falls back to an earlier one."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage import ActionRow, GameRow, SeatRow, Status
from bot.storage.eventlog import events_to_json
from bot.storage.record import (
    DamagedLog,
    Settings,
    Stored,
    build_game,
    encode_state,
    initial_state,
)
from engine.game.actions import action_to_json
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.agent import SKIP

LENGTH = 30
ROW = GameRow(1, 5, None, Status.ACTIVE, Settings(host=1).to_json(), 11, "then", "then")
SEATS = (SeatRow(0, 1, "Ann"), SeatRow(1, 2, "Bob"))


@cache
def logged_game() -> tuple[tuple[ActionRow, ...], tuple[GameState, ...]]:
    """A game of ``LENGTH`` random legal actions as log rows, and every state on the way."""
    rng = random.Random(5)
    state = initial_state(ROW, SEATS)[0]
    states, log = [state], []
    for n in range(1, LENGTH + 1):
        seat = to_act(state)
        assert seat is not None
        action = rng.choice([x for x in legal_actions(state, seat) if not isinstance(x, SKIP)])
        state, events = apply(state, seat, action)
        text = json.dumps(action_to_json(action))
        log.append(ActionRow(n, seat, text, events_to_json(events), ""))
        states.append(state)
    return tuple(log), tuple(states)


def damage_of(stored: Stored) -> DamagedLog:
    with pytest.raises(DamagedLog) as raised:
        build_game(stored)
    return raised.value


def test_an_intact_log_loads_from_the_seed_or_any_snapshot():
    log, states = logged_game()
    assert build_game(Stored(ROW, SEATS, None, log)).state == states[-1]
    for n in (0, 7, LENGTH):
        snapshot = (n, encode_state(states[n]))
        game = build_game(Stored(ROW, SEATS, snapshot, log[n:]))
        assert game.state == states[-1] and game.n == LENGTH


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_torn_action_row_is_named_whatever_the_cut(data):
    log, _ = logged_game()
    k = data.draw(st.integers(1, LENGTH), label="row")
    column = data.draw(st.sampled_from(["action", "events"]), label="column")
    text = getattr(log[k - 1], column)
    cut = data.draw(st.integers(0, len(text) - 1), label="cut")
    torn = list(log)
    torn[k - 1] = replace(log[k - 1], **{column: text[:cut]})
    damage = damage_of(Stored(ROW, SEATS, None, tuple(torn)))
    assert (damage.n, damage.reason) == (k, f"action {k} cannot be read")


@settings(max_examples=40, deadline=None)
@given(missing=st.sets(st.integers(1, LENGTH - 1), min_size=1, max_size=5))
def test_a_gap_is_named_at_its_first_missing_action(missing):
    log, _ = logged_game()
    kept = tuple(entry for entry in log if entry.n not in missing)
    damage = damage_of(Stored(ROW, SEATS, None, kept))
    first = min(missing)
    assert (damage.n, damage.reason) == (first, f"action {first} is missing")


def test_a_gap_found_by_the_database_is_named_before_any_replay():
    log, _ = logged_game()
    damage = damage_of(Stored(ROW, SEATS, None, log, missing=(3, 4)))
    assert damage.reason == "action 3 is missing"


def test_unreadable_settings_or_seed_are_damage():
    log, _ = logged_game()
    broken = replace(ROW, settings={})
    assert damage_of(Stored(broken, SEATS, None, log)).reason == "its settings cannot be read"
    unseeded = replace(ROW, seed=None)
    damage = damage_of(Stored(unseeded, SEATS, None, log))
    assert damage.reason == "the game cannot be set up from its seed"
