"""Opposite towers, a start rule of the 2-player event (``Options.opposite_towers``):
the pair and who takes which by two d6 rolls, only with 2 players; RULES §1.6 otherwise."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.game.apply import new_game
from engine.game.events import TowersAssigned
from engine.game.setup import OPPOSITE_PAIRS
from engine.game.state import Options, Phase
from engine.masterboard import TOWERS
from tests.engine.game.helpers import colours_chosen

OPPOSITE = Options(opposite_towers=True)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**63))
def test_opposite_towers_are_always_an_opposite_pair_by_the_two_rolls(seed):
    state, events = new_game(["Ann", "Bob"], seed, OPPOSITE)
    towers = tuple(p.tower for p in state.players)
    (pair,), (side,) = events[0].rolls
    low, high = OPPOSITE_PAIRS[(pair - 1) // 2]
    assert towers == ((low, high) if side <= 3 else (high, low))
    assert abs(towers[0] - towers[1]) == 300
    assert events == [TowersAssigned(towers, ((pair,), (side,)), opposite=True)]
    assert state.dice.rolled == 2


def test_opposite_towers_each_pair_and_each_side_come_up():
    seen = {new_game(["Ann", "Bob"], s, OPPOSITE)[0].players[0].tower
            for s in range(60)}  # fmt: skip
    assert seen == set(TOWERS)


def test_opposite_pairs_are_the_towers_three_apart():
    assert [t for pair in OPPOSITE_PAIRS for t in pair] == [100, 400, 200, 500, 300, 600]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_opposite_towers_refused_with_other_than_two_players(players):
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(IllegalAction, match=f"exactly 2 players, not {players}"):
        new_game(names, 1, OPPOSITE)


@pytest.mark.parametrize("seed", range(8))
def test_without_opposite_towers_the_ordinary_rolls_are_unchanged(seed):
    state, events = new_game(["Ann", "Bob"], seed, Options())
    assert (state, events) == new_game(["Ann", "Bob"], seed)
    assert not events[0].opposite


@pytest.mark.parametrize("seed", range(6))
def test_opposite_towers_colours_ascending_then_the_higher_tower_moves_first(seed):
    state, _ = new_game(["Ann", "Bob"], seed, OPPOSITE)
    lower = min(state.players, key=lambda p: p.tower)
    assert state.phase is Phase.COLOURS and state.active == lower.seat
    state = colours_chosen(2, seed, OPPOSITE)
    higher = max(state.players, key=lambda p: p.tower)
    assert state.phase is Phase.SPLIT and state.active == higher.seat
