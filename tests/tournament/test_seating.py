"""Seating a heat: even tables, top players apart, few repeat opponents."""

from __future__ import annotations

import itertools
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.assignment import cheapest_assignment
from bot.tournament.chance import shuffled
from bot.tournament.errors import TournamentError
from bot.tournament.scoring import Scheme
from bot.tournament.seating import meetings, seat_heat, table_sizes
from bot.tournament.standings import standings
from engine.dice import Dice
from tests.tournament.test_standings import THREE_HEATS

LETTERS = string.ascii_uppercase


@pytest.mark.parametrize(
    ("entrants", "low", "high", "sizes"),
    [
        (13, 3, 4, (4, 3, 3, 3)),
        (12, 3, 4, (4, 4, 4)),
        (9, 3, 4, (3, 3, 3)),
        (10, 3, 4, (4, 3, 3)),
        (7, 3, 4, (4, 3)),
        (6, 3, 4, (3, 3)),
        (3, 3, 4, (3,)),
        (17, 4, 6, (6, 6, 5)),
        (8, 2, 2, (2, 2, 2, 2)),
    ],
)
def test_tables_are_as_few_and_even_as_the_range_allows(entrants, low, high, sizes):
    assert table_sizes(entrants, low, high) == sizes


@pytest.mark.parametrize(
    ("entrants", "low", "high", "message"),
    [
        (
            5,
            3,
            4,
            "5 entrants cannot be seated at tables of 3 to 4: "
            "at most 4 fit at 1 table, and 2 tables need at least 6",
        ),
        (11, 4, 5, "11 entrants cannot be seated at tables of 4 to 5"),
        (2, 3, 4, "2 entrants cannot fill a table of at least 3"),
        (1, 2, 4, "^1 entrant cannot fill a table of at least 2 players$"),
        (12, 4, 3, "the least may not exceed the most"),
        (12, 3, 7, "seats 2 to 6"),
    ],
)
def test_an_impossible_seating_is_refused_with_its_reason(entrants, low, high, message):
    with pytest.raises(TournamentError, match=message):
        table_sizes(entrants, low, high)


def test_thirteen_entrants_sit_at_four_tables_one_per_tier():
    entrants = list(LETTERS[:13])
    seating = seat_heat(entrants, 3, 4, seed=5)
    assert sorted(seating.sizes, reverse=True) == [4, 3, 3, 3]
    for table, top in zip(seating.tables, "ABCD", strict=True):
        assert table[0] == top
    for tier in ("ABCD", "EFGH", "IJKL"):
        assert all(sum(p in tier for p in t) == 1 for t in seating.tables)
    assert sum("M" in t for t in seating.tables) == 1 and seating.repeats == 0


def test_an_entrant_is_seated_once():
    with pytest.raises(TournamentError, match="B entered more than once"):
        seat_heat(["A", "B", "C", "B"], 2, 2)


def test_the_seed_settles_equal_choices_and_the_draws_are_returned():
    entrants = list(LETTERS[:12])
    seatings = {seat_heat(entrants, 3, 4, seed=s).tables for s in range(8)}
    assert len(seatings) > 1
    again = seat_heat(entrants, 3, 4, seed=3)
    assert again == seat_heat(entrants, 3, 4, seed=3)
    assert again.dice.rolled == len(again.draws) and again.dice.seed == 3


def test_later_heats_seat_by_the_standings_apart_and_away_from_old_opponents():
    """Heat 3 of the thirteen-entrant tournament, seated by the standings after heat 2."""
    first_two = THREE_HEATS[:8]
    ranked = standings(first_two, Scheme.WBC_POINTS, seed=1).order
    history = [g.result.players for g in first_two]
    seating = seat_heat(ranked, 3, 4, history, seed=9)
    assert [t[0] for t in seating.tables] == list(ranked[:4])
    for tier in range(3):
        players = ranked[tier * 4 : tier * 4 + 4]
        assert all(sum(p in players for p in t) == 1 for t in seating.tables)
    met = meetings(history)
    # The plain spread (rank r at table r mod 4) as a yardstick: ours is no worse.
    plain = [ranked[i::4] for i in range(4)]
    plain_repeats = sum(
        1 for t in plain for pair in itertools.combinations(t, 2) if met[frozenset(pair)]
    )
    assert seating.repeats <= plain_repeats
    counted = sum(
        1 for t in seating.tables for pair in itertools.combinations(t, 2) if met[frozenset(pair)]
    )
    assert counted == seating.repeats


def test_sixteen_entrants_meet_no_old_opponent_in_their_second_heat():
    entrants = list(LETTERS[:16])
    first = seat_heat(entrants, 4, 4, seed=1)
    assert first.repeats == 0
    second = seat_heat(entrants, 4, 4, first.tables, seed=2)
    assert second.repeats == 0
    met = meetings(first.tables)
    assert all(not met[frozenset(p)] for t in second.tables for p in itertools.combinations(t, 2))


def test_meetings_count_every_pair_of_each_table():
    met = meetings([("A", "B", "C"), ("B", "A")])
    assert met == {frozenset("AB"): 2, frozenset("AC"): 1, frozenset("BC"): 1}


# --- properties ----------------------------------------------------------------------------
@st.composite
def heats(draw):
    low = draw(st.integers(2, 6))
    high = draw(st.integers(low, 6))
    tables = draw(st.integers(1, 6))
    count = draw(st.integers(tables * low, tables * high))
    entrants = list(LETTERS[:count]) if count <= 26 else [f"p{i}" for i in range(count)]
    history = draw(
        st.lists(st.lists(st.sampled_from(entrants), min_size=2, max_size=6), max_size=8)
    )
    return entrants, low, high, history, draw(st.integers(0, 10_000))


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(heats())
def test_every_entrant_is_seated_once_at_even_tables_with_the_top_apart(heat):
    entrants, low, high, history, seed = heat
    seating = seat_heat(entrants, low, high, history, seed)
    seated = [p for t in seating.tables for p in t]
    assert sorted(seated) == sorted(entrants)
    assert all(low <= size <= high for size in seating.sizes)
    assert max(seating.sizes) - min(seating.sizes) <= 1
    count = len(seating.tables)
    assert {t[0] for t in seating.tables} == set(entrants[:count])
    for start in range(0, len(entrants), count):
        tier = set(entrants[start : start + count])
        assert all(sum(p in tier for p in t) <= 1 for t in seating.tables)


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(
    st.integers(1, 5).flatmap(
        lambda rows: st.lists(
            st.lists(st.integers(0, 9), min_size=rows + 1, max_size=rows + 1),
            min_size=rows,
            max_size=rows,
        )
    )
)
def test_the_cheapest_assignment_is_cheapest(cost):
    chosen = cheapest_assignment(cost)
    assert len(set(chosen)) == len(cost)
    columns = range(len(cost[0]))
    best = min(
        sum(row[j] for row, j in zip(cost, pick, strict=True))
        for pick in itertools.permutations(columns, len(cost))
    )
    assert sum(row[j] for row, j in zip(cost, chosen, strict=True)) == best


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(st.lists(st.integers(), max_size=12), st.integers(0, 1000))
def test_a_shuffle_is_a_seeded_permutation(items, seed):
    order, drawn, after = shuffled(items, Dice(seed))
    assert sorted(order) == sorted(items)
    assert after.rolled == len(drawn) == max(len(items) - 1, 0)
    assert shuffled(items, Dice(seed)) == (order, drawn, after)
