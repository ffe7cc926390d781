"""Places in a finished game (RULES §12.5, §12.6, §14 C10): real games between computer
players, a real mutual, and constructed results."""

from __future__ import annotations

import pytest

from bot.tournament.errors import TournamentError
from bot.tournament.places import Ending, GameResult, Place, result_of, ruled_result
from engine.dice import Dice
from engine.game.events import GameOver, PlayerEliminated
from engine.game.notation import parse_position
from tests.tournament.games import ai_game, mutual_game


def eliminations(log):
    """Seat → index of the action that eliminated it, read straight from the log."""
    return {
        e.seat: i for i, events in enumerate(log) for e in events if isinstance(e, PlayerEliminated)
    }


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (3, 1), (4, 5)])
def test_rule_12_5_a_real_game_ranks_the_survivor_first_and_later_eliminations_higher(
    players, seed
):
    game = ai_game(players, seed)
    result = result_of(game.state, game.log)
    out = eliminations(game.log)
    (winner,) = game.state.result.winners
    assert result.ending is Ending.LAST_TITAN
    assert result.places[winner].place == 1 and result.places[winner].won
    assert sorted(out) == sorted(set(range(players)) - {winner})
    for a in out:
        for b in out:
            mine, theirs = result.places[a].place, result.places[b].place
            if out[a] > out[b]:
                assert mine < theirs
            elif out[a] == out[b]:
                assert mine == theirs
    assert {p.place for p in result.places} <= set(range(1, players + 1))


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 5)])
def test_a_titan_kill_is_an_elimination_by_the_seat_of_a_lost_titan(players, seed):
    game = ai_game(players, seed)
    result = result_of(game.state, game.log)
    events = [e for action in game.log for e in action if isinstance(e, PlayerEliminated)]
    for seat, line in enumerate(result.places):
        assert line.titan_kills == sum(1 for e in events if e.by == seat)
        assert line.score == game.state.player(seat).score
    assert sum(p.titan_kills for p in result.places) == players - 1


def test_players_name_the_seats():
    game = ai_game(3, 0)
    result = result_of(game.state, game.log, players=["ann", "bob", "cy"])
    assert result.players == ("ann", "bob", "cy")
    with pytest.raises(TournamentError, match="2 names for a game of 3 seats"):
        result_of(game.state, game.log, players=["ann", "bob"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rule_12_6_a_time_limit_ranks_the_survivors_by_score(seed):
    game = ai_game(4, seed, expire_after=250)
    result = result_of(game.state, game.log)
    assert result.ending is Ending.TIME_LIMIT
    living = [p for p in game.state.players if not p.eliminated]
    for p in living:
        higher = sum(1 for q in living if q.score > p.score)
        assert result.places[p.seat].place == higher + 1
    for p in game.state.players:
        if p.eliminated:
            assert result.places[p.seat].place > len(living)
    assert [seat for seat, p in enumerate(result.places) if p.won] == list(
        game.state.result.winners
    )


def test_c10_a_mutual_shares_first_and_gives_both_a_titan_kill():
    game = mutual_game()
    result = result_of(game.state, game.log)
    assert result.ending is Ending.MUTUAL and result.rolloff is None
    assert [(p.player, p.place, p.won, p.titan_kills) for p in result.places] == [
        ("Black", 1, True, 1),
        ("Red", 1, True, 1),
    ]


@pytest.mark.parametrize("seed", range(6))
def test_a_mutual_settled_by_the_roll_off_of_the_final_attacker(seed):
    game = mutual_game()
    result = result_of(game.state, game.log, rolloff=Dice(seed))
    settled = result.rolloff
    assert settled is not None and settled.attacker == "Black" and settled.defender == "Red"
    rolls, after = Dice(seed).roll(9, 6)
    assert settled.rolls == rolls and settled.dice == after
    hits = sum(1 for r in rolls if r in (4, 5, 6))
    first = "Black" if hits >= 5 else "Red"
    assert {p.player: p.place for p in result.places} == {
        first: 1,
        ("Red" if first == "Black" else "Black"): 2,
    }
    assert all(p.titan_kills == 1 for p in result.places)


def test_the_roll_off_seeds_cover_both_outcomes():
    """The seeds of the test above see the attacker win and lose."""
    game = mutual_game()
    winners = {result_of(game.state, game.log, rolloff=Dice(s)).rolloff.winner for s in range(6)}
    assert winners == {"Black", "Red"}


def test_an_unfinished_game_has_no_result():
    state = parse_position("Bk01@41:Titan,Troll Rd01@41:Titan,Ogre | turn=Bk phase=engage")
    with pytest.raises(TournamentError, match="not over"):
        result_of(state, [])


def test_players_eliminated_by_the_same_action_share_a_place():
    """Constructed from a real 3-player game: the last action eliminates both losers."""
    game = ai_game(3, 0)
    (winner,) = game.state.result.winners
    losers = [s for s in range(3) if s != winner]
    log = [
        events for events in game.log if not any(isinstance(e, PlayerEliminated) for e in events)
    ]
    log.append(
        [PlayerEliminated(s, winner, "Titan lost") for s in losers] + [GameOver((winner,), "x")]
    )
    result = result_of(game.state, log)
    assert sorted(p.place for p in result.places) == [1, 2, 2]
    assert result.places[winner].titan_kills == 2


def test_a_ruling_places_the_players_as_the_organiser_says():
    result = ruled_result({"ann": 2, "bob": 1, "cy": 2}, titan_kills={"bob": 1}, scores={"cy": 40})
    assert result.ending is Ending.RULING
    assert [(p.player, p.place, p.won, p.titan_kills, p.score) for p in result.places] == [
        ("ann", 2, False, 0, 0),
        ("bob", 1, True, 1, 0),
        ("cy", 2, False, 0, 40),
    ]


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ({"ann": 1, "bob": 1, "cy": 2}, "cy cannot be placed 2 with 2 players ahead"),
        ({"ann": 2, "bob": 3}, "ann cannot be placed 2 with 0 players ahead"),
        ({"ann": 1, "bob": 3, "cy": 3}, "bob cannot be placed 3 with 1 player ahead$"),
        ({"ann": 1}, "at least two players"),
    ],
)
def test_a_ruling_must_be_a_ranking(places, message):
    with pytest.raises(TournamentError, match=message):
        ruled_result(places)


def test_a_ruling_names_only_its_players():
    with pytest.raises(TournamentError, match="dan did not play"):
        ruled_result({"ann": 1, "bob": 2}, titan_kills={"dan": 1})


def test_a_player_plays_once_in_a_game():
    with pytest.raises(TournamentError, match="ann appear more than once"):
        GameResult((Place("ann", 1), Place("ann", 2)), Ending.RULING)


def test_last_place_is_the_worst_place_shared_or_not():
    result = ruled_result({"a": 1, "b": 2, "c": 3, "d": 3})
    assert [result.is_last(p) for p in "abcd"] == [False, False, True, True]
