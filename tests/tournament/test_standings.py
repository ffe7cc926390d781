"""Standings under each scheme, the classic chain level by level, the cap on games,
eliminators and advancing players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.heads import OPPONENTS, text_lines
from bot.tournament.places import result_of, ruled_result
from bot.tournament.scoring import Scheme, counted_place, tally
from bot.tournament.standings import (
    CHAIN_LABELS,
    LABELS,
    HeatGame,
    StandingOptions,
    standings,
)
from engine.dice import Dice
from tests.tournament.builders import game, heat
from tests.tournament.games import ai_game

# --- a 3-heat tournament of 13 entrants (tables of 4, 3, 3, 3) ---------------------------------
THREE_HEATS = [
    *heat(1, "ABCD", "EFG", "HIJ", "KLM"),
    *heat(2, "EHAM", "FBK", "CIL", "DGJ"),
    *heat(3, "EAJC", "HBD", "IFM", "KGL"),
]

#: Worked by hand: heat points per player (a last place is no 3rd or 4th).
POINTS = {
    "A": 1000 + 10 + 100,  # 1st, 3rd of four, 2nd
    "B": 300,
    "C": 10 + 1000 + 0,  # 3rd of four, 1st, 4th of four (last)
    "D": 0 + 1000 + 0,  # 4th of four (last), 1st, 3rd of three (last)
    "E": 3000,
    "F": 100 + 1000 + 100,
    "G": 0 + 100 + 100,
    "H": 1000 + 100 + 1000,
    "I": 100 + 100 + 1000,
    "J": 0 + 0 + 10,  # last, last, 3rd of four
    "K": 1000 + 0 + 1000,
    "L": 100,
    "M": 0,
}
#: F and I are level on wins, points, firsts … Titan kills; opponents' firsts split them:
#: F met E (3), G, B, K (2), I (1), M; I met H (2), J, C (1), L, F (1), M.
EXPECTED = "EHKFIACDBGLJM"


@pytest.mark.parametrize("scheme", [Scheme.WBC_POINTS, Scheme.WBC_CLASSIC])
def test_a_three_heat_tournament_of_thirteen(scheme):
    table = standings(THREE_HEATS, scheme, StandingOptions(advance=4), seed=1)
    assert "".join(table.order) == EXPECTED
    assert [r.rank for r in table.rows] == list(range(1, 14))
    assert [r.player for r in table.rows if r.advancing] == list("EHKF")
    assert all(r.rolls == () for r in table.rows)
    assert {r.player: r.own.points for r in table.rows} == POINTS
    f, i = table.row("F"), table.row("I")
    first_opp = LABELS[scheme].index("o1st")
    assert f.key[:first_opp] == i.key[:first_opp]
    assert (f.key[first_opp], i.key[first_opp]) == (6, 4)


def test_the_wbc_points_key_is_wins_then_points_then_the_chain():
    table = standings(THREE_HEATS, Scheme.WBC_POINTS)
    a = table.row("A")
    # A: 1st, 3rd, 2nd; met B, C, D / E, H, M / E, J, C.
    opp_firsts = 0 + 1 + 1 + 3 + 2 + 0 + 3 + 0 + 1
    assert a.key[:7] == (1, 1110, 1, 1, 1, 0, 0)
    assert a.key[7] == opp_firsts


def test_the_text_table_has_a_line_per_player_and_marks_the_advancing():
    table = standings(THREE_HEATS, Scheme.WBC_POINTS, StandingOptions(advance=2))
    lines = text_lines(table, {}, 40)
    assert lines[0].split() == ["-----", OPPONENTS, "-----"]
    assert lines[1].split()[:4] == ["#", "Player", "Wins", "Pts"]
    assert [line.split()[0] for line in lines[2:5]] == ["1*", "2*", "3"]
    assert lines[2].split()[1:4] == ["E", "3", "3000"]
    assert len(lines) == 2 + 13


# --- the classic chain, one level at a time ---------------------------------------------------
#: Per level: games where X and Y are level on every earlier figure and X is ahead at this
#: one, and the two values there (X's, Y's).
LEVELS = {
    "1st": (["XP", "PY"], 1, 0),
    "2nd": (["PXQ", "PQRY"], 1, 0),
    "3rd": (["PQXR", "PQRSY"], 1, 0),
    "4th": (["PQRXS", "PQRSY"], 1, 0),
    "TK": ([("PQX", {"X": 1}), "PQY"], 1, 0),
    "o1st": (["PQX", "RSY", "PUV"], 2, 1),
    "o2nd": (["PQX", "RSY", "UQV"], 2, 1),
    "o3rd": (["PQX", "RSY", "UVQW"], 1, 0),
    "o4th": (["PQX", "RSY", "UVWQZ"], 1, 0),
    "oTK": (["PQX", "RSY", ("UVQ", {"Q": 1})], 1, 0),
}


#: Levels a scheme's leading figures already split: wins are firsts, heat points are places.
DECIDED_EARLIER = {Scheme.WINS: {"1st"}, Scheme.WBC_POINTS: {"1st", "2nd", "3rd", "4th"}}


def chain_games(orders):
    built = []
    for order in orders:
        order, kills = order if isinstance(order, tuple) else (order, None)
        built.append(HeatGame(1, game(order, kills)))
    return built


@pytest.mark.parametrize("level", CHAIN_LABELS)
def test_a_tie_is_broken_at_each_level_of_the_classic_chain(level):
    orders, x_value, y_value = LEVELS[level]
    for scheme in (Scheme.WBC_CLASSIC, Scheme.WINS, Scheme.WBC_POINTS):
        table = standings(chain_games(orders), scheme, seed=7)
        x, y = table.row("X"), table.row("Y")
        at = LABELS[scheme].index(level)
        if level not in DECIDED_EARLIER.get(scheme, ()):
            assert x.key[:at] == y.key[:at], scheme
            assert (x.key[at], y.key[at]) == (x_value, y_value), scheme
        assert table.order.index("X") < table.order.index("Y"), scheme
        assert x.key != y.key


def test_level_on_the_whole_chain_a_roll_decides():
    orders = ["XP", "YQ"]  # X and Y roll first: P and Q, level too, stand below them
    for seed in range(20):
        table = standings(chain_games(orders), Scheme.WBC_CLASSIC, seed=seed)
        x, y = table.row("X"), table.row("Y")
        assert x.key == y.key
        # Tied players roll in name order: X then Y, a d6 each, again while level.
        dice, x_rolls, y_rolls = Dice(seed), [], []
        while True:
            (xr, yr), dice = dice.roll(2, 6)
            x_rolls.append(xr)
            y_rolls.append(yr)
            if xr != yr:
                break
        assert (x.rolls, y.rolls) == (tuple(x_rolls), tuple(y_rolls))
        assert (table.order.index("X") < table.order.index("Y")) == (xr > yr)


def test_the_roll_off_seeds_include_a_reroll():
    rerolled = [
        s
        for s in range(20)
        if len(standings(chain_games(["XP", "YQ"]), Scheme.WBC_CLASSIC, seed=s).row("X").rolls) > 1
    ]
    assert rerolled


# --- counted places ------------------------------------------------------------------------
def test_a_last_place_is_never_a_third_or_fourth():
    assert counted_place(game("ABC"), "C") is None
    assert counted_place(game("ABCD"), "D") is None
    assert counted_place(game("ABCD"), "C") == 3
    assert counted_place(game("ABCDE"), "D") == 4
    assert counted_place(game("AB"), "B") == 2  # a last 2nd is still a 2nd
    shared_last = ruled_result({"A": 1, "B": 2, "C": 3, "D": 3})
    assert counted_place(shared_last, "C") is None
    assert tally("C", [game("ABC"), game("ABCD")]).chain == tally("C", [game("ABCD")]).chain
    assert tally("C", [game("ABC")]).points == 0
    assert tally("C", [game("ABCD")]).thirds == 1


def test_a_mutual_gives_both_a_win_and_a_first():
    shared = ruled_result({"A": 1, "B": 1, "C": 3})
    for player in "AB":
        assert tally(player, [shared]).wins == 1 and tally(player, [shared]).points == 1000
    assert tally("C", [shared]).thirds == 0


# --- options -------------------------------------------------------------------------------
def test_only_the_first_games_count_under_a_cap():
    games = [*heat(1, "XAB"), *heat(2, "AXB"), *heat(3, "ABX")]
    capped = standings(games, Scheme.WBC_POINTS, StandingOptions(max_games=2))
    assert capped.row("X").own.games == 2 and capped.row("X").own.points == 1100
    # A's counted games are heats 1 and 2: his opponents there are X and B, twice each.
    x, b = capped.row("X").own, capped.row("B").own
    assert capped.row("A").opponents.firsts == 2 * (x.firsts + b.firsts)


def test_an_eliminator_places_his_opponents_but_has_no_standing_from_that_heat():
    games = [*heat(1, "ZAB"), *heat(2, "ZBA", "CD")]
    options = StandingOptions(eliminators=frozenset({(1, "Z"), (2, "Z")}))
    table = standings(games, Scheme.WBC_CLASSIC, options)
    assert table.row("Z") is None
    assert table.row("A").own.seconds == 1 and table.row("A").own.thirds == 0
    assert table.row("B").own.seconds == 1
    partly = standings(
        games, Scheme.WBC_CLASSIC, StandingOptions(eliminators=frozenset({(1, "Z")}))
    )
    assert partly.row("Z").own.games == 1 and partly.row("Z").own.firsts == 1
    # A's opponents: Z (one counted first) twice, B (no firsts) twice.
    assert partly.row("A").opponents.firsts == 2


def test_average_place_prefers_the_lower_mean_then_more_games_then_the_chain():
    games = [*heat(1, "AB", "CD"), *heat(2, "AC", "BD"), *heat(3, "CA")]
    table = standings(games, Scheme.AVERAGE_PLACE)
    # A: 1, 1, 2 and C: 1, 2, 1 (both 4/3 over three); B: 2, 1; D: 2, 2. A and C are
    # level on the chain up to opponents' firsts: A met B, C, C (1 + 2 + 2), C met D, A, A.
    assert table.order == ("A", "C", "B", "D")
    assert table.row("A").opponents.firsts == 5 and table.row("C").opponents.firsts == 4


def test_average_place_counts_games_before_the_chain():
    games = [*heat(1, "QXYZ", "XPY"), *heat(2, "XYQZ", "YPZ"), *heat(3, "ZPX")]
    # X: 2, 1, 1, 3 (7/4); P: 2, 2, 2 and Q: 1, 3 (both 2); Y: 3, 3, 2, 1; Z: 4, 4, 3, 1.
    assert standings(games, Scheme.AVERAGE_PLACE).order == ("X", "P", "Q", "Y", "Z")
    # The chain alone puts Q's first ahead of P's three seconds.
    classic = standings(games, Scheme.WBC_CLASSIC).order
    assert classic.index("Q") < classic.index("P")


def test_standings_are_deterministic_for_a_seed():
    games = chain_games(["PQX", "RSY", "TUW"])
    assert standings(games, Scheme.WINS, seed=3) == standings(games, Scheme.WINS, seed=3)


# --- properties ----------------------------------------------------------------------------
NAMES = list("ABCDEFGH")


@st.composite
def tournaments(draw):
    count = draw(st.integers(1, 8))
    games = []
    for number in range(count):
        players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
        places = sorted(
            draw(st.lists(st.integers(1, 6), min_size=len(players), max_size=len(players)))
        )
        # Competition ranking from any non-decreasing sequence.
        ranked = [1 + sum(1 for q in places if q < p) for p in places]
        kills = {p: draw(st.integers(0, 2)) for p in players}
        result = ruled_result(dict(zip(players, ranked, strict=True)), titan_kills=kills)
        games.append(HeatGame(1 + number // 3, result))
    return games


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(tournaments(), st.sampled_from(list(Scheme)), st.integers(0, 1000), st.integers(0, 9))
def test_standings_rank_every_player_once_in_key_order(games, scheme, seed, advance):
    table = standings(games, scheme, StandingOptions(advance=advance), seed=seed)
    players = {p for g in games for p in g.result.players}
    assert sorted(table.order) == sorted(players)
    assert [r.rank for r in table.rows] == list(range(1, len(players) + 1))
    assert sum(r.advancing for r in table.rows) == min(advance, len(players))
    for above, below in zip(table.rows, table.rows[1:], strict=False):
        assert above.key >= below.key
        if above.key > below.key:
            continue
        assert above.rolls and below.rolls  # level rows were rolled apart
    for row in table.rows:
        level = [r for r in table.rows if r.key == row.key]
        assert bool(row.rolls) == (len(level) > 1)
        assert row.own.games == sum(1 for g in games if row.player in g.result.players)


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(tournaments(), st.integers(1, 3))
def test_a_cap_counts_at_most_that_many_games(games, cap):
    table = standings(games, Scheme.WBC_POINTS, StandingOptions(max_games=cap))
    assert all(r.own.games <= cap for r in table.rows)


def test_standings_of_real_games_between_computer_players():
    seats = {(0, 1): "ABC", (1, 1): "DEF", (2, 2): "ADE", (3, 2): "BCF"}
    games = []
    for (seed, number), names in seats.items():
        played = ai_game(3, seed)
        games.append(
            (
                played,
                names,
                HeatGame(number, result_of(played.state, played.log, players=list(names))),
            )
        )
    table = standings([g for _, _, g in games], Scheme.WINS, seed=2)
    for player in "ABCDEF":
        won = sum(
            1
            for played, names, _ in games
            if player in names and names.index(player) in played.state.result.winners
        )
        assert table.row(player).own.wins == won
        assert table.row(player).own.games == 2
    wins = [r.own.wins for r in table.rows]
    assert wins == sorted(wins, reverse=True)
