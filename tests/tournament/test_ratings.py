"""Ratings with openskill's Plackett-Luce model: places as ranks, ties shared, a rebuild
from scratch equal to the ratings applied one game at a time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.tournament.places import result_of, ruled_result
from bot.tournament.ratings import Rating, leaderboard, rate, rebuild
from tests.tournament.builders import game
from tests.tournament.games import ai_game, mutual_game


def test_a_rating_follows_openskill_with_places_as_ranks():
    ratings = rate({}, game("ABC"))
    model = PlackettLuce()
    [[a], [b], [c]] = model.rate(
        [[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3]
    )
    assert (ratings["A"].mu, ratings["A"].sigma) == (a.mu, a.sigma)
    assert (ratings["B"].mu, ratings["B"].sigma) == (b.mu, b.sigma)
    assert (ratings["C"].mu, ratings["C"].sigma) == (c.mu, c.sigma)
    assert ratings["A"].ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert ratings["A"].ordinal > ratings["B"].ordinal > ratings["C"].ordinal
    assert all(r.games == 1 for r in ratings.values())


def test_players_who_share_a_place_share_a_rank():
    ratings = rate({}, ruled_result({"A": 1, "B": 1, "C": 3}))
    assert ratings["A"] == ratings["B"]
    assert ratings["A"].mu > ratings["C"].mu


def test_a_real_mutual_rates_its_two_players_alike():
    played = mutual_game()
    ratings = rate({}, result_of(played.state, played.log))
    assert ratings["Black"] == ratings["Red"]
    assert ratings["Black"].mu == pytest.approx(Rating().mu)


def test_rating_copies_the_mapping():
    before = {"A": Rating(30.0, 5.0, 4)}
    after = rate(before, game("BA"))
    assert before == {"A": Rating(30.0, 5.0, 4)}
    assert after["A"].games == 5 and after["A"].mu < 30.0 and after["B"].games == 1


def real_results():
    results = []
    for players, seed in ((3, 0), (4, 5), (3, 1)):
        played = ai_game(players, seed)
        results.append(
            result_of(played.state, played.log, players=["ann", "bob", "cy", "dee"][:players])
        )
    return results


def test_rebuilt_ratings_equal_the_ratings_applied_one_by_one():
    results = [*real_results(), game("ABC"), ruled_result({"ann": 1, "A": 1, "cy": 3})]
    ratings: dict[str, Rating] = {}
    for result in results:
        ratings = rate(ratings, result)
    rebuilt = rebuild(results)
    assert rebuilt == ratings  # exactly equal floats
    assert rebuilt["ann"].games == 4 and rebuilt["dee"].games == 1


def test_the_leaderboard_orders_by_ordinal_and_shares_equal_ranks():
    ratings = rebuild([game("ABC"), game("ABD"), ruled_result({"E": 1, "F": 1})])
    rows = leaderboard(ratings)
    ordinals = [r.ordinal for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    assert rows[0].player == "A" and rows[0].games == 2
    tied = [r for r in rows if r.player in "EF"]
    assert tied[0].rank == tied[1].rank and tied[0].ordinal == tied[1].ordinal
    assert [r.player for r in leaderboard(ratings, min_games=2)] == ["A", "B"]


orders = st.lists(
    st.permutations("ABCDEF").flatmap(lambda p: st.integers(2, 6).map(lambda n: "".join(p[:n]))),
    max_size=8,
)


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(orders)
def test_rebuild_is_the_fold_of_rate(games):
    results = [game(order) for order in games]
    folded: dict[str, Rating] = {}
    for result in results:
        folded = rate(folded, result)
    assert rebuild(results) == folded
    assert sum(r.games for r in folded.values()) == sum(len(o) for o in games)
