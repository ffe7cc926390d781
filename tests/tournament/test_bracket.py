"""Two-player single elimination: standard seeding, byes to the top seeds, a run to the
winner."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.bracket import Match, draw_bracket, seed_positions
from bot.tournament.errors import TournamentError

LETTERS = string.ascii_uppercase


def test_standard_seed_positions():
    assert seed_positions(2) == (1, 2)
    assert seed_positions(4) == (1, 4, 2, 3)
    assert seed_positions(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(TournamentError, match="power of two"):
        seed_positions(6)


def play_out(bracket, better):
    """Run the bracket to its end, the winner of each game chosen by ``better``."""
    while bracket.winner is None:
        bracket = bracket.advance(better(m) for m in bracket.pairings())
    return bracket


def test_a_bracket_of_eight_runs_to_its_winner():
    entrants = list("ABCDEFGH")
    bracket = draw_bracket(entrants, seeds=8, seed=4)
    assert bracket.rounds[0] == tuple("AHDEBGCF")
    assert bracket.pairings() == (
        Match(1, "A", "H"),
        Match(1, "D", "E"),
        Match(1, "B", "G"),
        Match(1, "C", "F"),
    )
    # The later letter wins every game: an upset bracket.
    done = play_out(bracket, lambda m: max(m.first, m.second))
    assert done.rounds[1:] == (tuple("HEGF"), ("H", "G"), ("H",))
    assert done.winner == "H" and done.pairings() == ()
    with pytest.raises(TournamentError, match="decided: H won"):
        done.advance([])


def test_the_top_seeds_meet_only_in_the_final_and_semis_when_favourites_win():
    entrants = list(LETTERS[:16])
    done = play_out(draw_bracket(entrants, seeds=4, seed=1), lambda m: min(m.first, m.second))
    assert set(done.rounds[2]) == set("ABCD")  # the semi-finalists
    assert done.rounds[3] == ("A", "B")  # the final
    assert done.winner == "A"


def test_byes_go_to_the_top_seeds():
    bracket = draw_bracket(list("ABCDEF"), seeds=0, seed=2)
    assert bracket.size == 8
    first = bracket.pairings()
    assert len(first) == 2 and not {"A", "B"} & {p for m in first for p in (m.first, m.second)}
    after = bracket.advance([first[0].first, first[1].second])
    assert len(after.rounds[1]) == 4 and {"A", "B"} <= set(after.rounds[1])


def test_the_unseeded_are_drawn_by_the_seed():
    entrants = list(LETTERS[:16])
    draws = {draw_bracket(entrants, seeds=4, seed=s).rounds[0] for s in range(6)}
    assert len(draws) > 1
    for slots in draws:
        assert [slots[i] for i in (0, 8, 12, 4)] == list("ABCD")
    again = draw_bracket(entrants, seeds=4, seed=3)
    assert again == draw_bracket(entrants, seeds=4, seed=3)
    assert again.dice.rolled == len(again.draws) == 11


def test_a_round_needs_one_winner_per_game():
    bracket = draw_bracket(list("ABCD"), seeds=4)
    with pytest.raises(TournamentError, match="A against D needs exactly one winner"):
        bracket.advance(["B"])
    with pytest.raises(TournamentError, match="needs exactly one winner"):
        bracket.advance(["A", "D", "B"])
    with pytest.raises(TournamentError, match="Z played no game"):
        bracket.advance(["A", "B", "Z"])


@pytest.mark.parametrize(("entrants", "message"), [(["A"], "at least two"), (["A", "A"], "twice")])
def test_a_bracket_needs_distinct_entrants(entrants, message):
    with pytest.raises(TournamentError, match=message):
        draw_bracket(entrants, seeds=0)


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(st.integers(2, 40), st.integers(0, 40), st.integers(0, 1000))
def test_every_entrant_once_byes_to_the_top_and_favourites_reach_the_right_round(n, seeds, seed):
    entrants = [f"p{i:02d}" for i in range(n)]  # ranked: p00 best
    bracket = draw_bracket(entrants, seeds=seeds, seed=seed)
    size = bracket.size
    assert size >= n > size // 2 or size == 2
    slots = bracket.rounds[0]
    assert sorted(p for p in slots if p is not None) == entrants
    with_bye = {
        a or b for a, b in zip(slots[::2], slots[1::2], strict=True) if a is None or b is None
    }
    assert with_bye == set(entrants[: size - n])
    seeded = min(n, max(seeds, size - n))
    for i in range(seeded):
        assert slots[seed_positions(size).index(i + 1)] == entrants[i]
    done = play_out(bracket, lambda m: min(m.first, m.second))
    assert done.winner == "p00"
    rounds = len(done.rounds) - 1
    if seeded >= 2:
        assert set(done.rounds[rounds - 1]) == {"p00", "p01"}
    if seeded >= 4 and rounds >= 2:
        assert set(done.rounds[rounds - 2]) == set(entrants[:4])
