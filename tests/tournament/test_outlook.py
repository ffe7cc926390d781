"""Who advances, and when it is decided: while results are still to come a player is
marked as advancing only when none of them can push him out of the top places; the rest
of the top would advance if the heats ended now. Checked by hand on small heats and, for
any tournament cut anywhere, against how it really ends."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.places import ruled_result
from bot.tournament.scoring import Scheme
from bot.tournament.standings import Advance, HeatGame, StandingOptions, standings
from tests.tournament.builders import heat

#: Heat 1 of seven: table 1 (A 1st … D 4th) is over, table 2 (E, F, G) still plays.
FIRST_TABLE = heat(1, "ABCD")
SECOND_TABLE = frozenset({(1, "E"), (1, "F"), (1, "G")})
NEXT_HEATS = frozenset((h, p) for h in (2, 3) for p in "ABCDEFG")


def outlook(table) -> dict[str, Advance]:
    return {r.player: r.advance for r in table.rows}


def test_mid_heat_the_only_finished_table_would_advance_but_does_not_yet():
    options = StandingOptions(advance=2, to_come=SECOND_TABLE)
    table = standings(FIRST_TABLE, Scheme.WBC_POINTS, options)
    assert not any(r.advancing for r in table.rows)
    assert outlook(table) == {
        "A": Advance.IF_NOW,
        "B": Advance.IF_NOW,
        "C": Advance.NO,
        "D": Advance.NO,
    }


def test_once_the_heat_is_over_the_top_advance():
    games = [*FIRST_TABLE, *heat(1, "EFG")]
    table = standings(games, Scheme.WBC_POINTS, StandingOptions(advance=4))
    assert [r.advance for r in table.rows] == [Advance.YES] * 4 + [Advance.NO] * 3
    assert [r.player for r in table.rows if r.advancing] == list(table.order[:4])


def test_a_win_no_three_rivals_can_match_is_decided_before_the_heat_ends():
    # Only E, F and G may still win a game: three rivals at most can reach A's one win.
    table = standings(FIRST_TABLE, Scheme.WINS, StandingOptions(advance=4, to_come=SECOND_TABLE))
    assert outlook(table)["A"] is Advance.YES
    assert {outlook(table)[p] for p in "BCD"} == {Advance.IF_NOW}
    # With two heats still to seat everybody may still reach it.
    later = StandingOptions(advance=4, to_come=SECOND_TABLE | NEXT_HEATS)
    assert outlook(standings(FIRST_TABLE, Scheme.WINS, later))["A"] is Advance.IF_NOW


def test_a_rival_at_his_cap_or_an_eliminator_cannot_catch_up():
    to_come = SECOND_TABLE | frozenset((2, p) for p in "ABCDEFG")
    capped = StandingOptions(advance=4, to_come=to_come, max_games=1)
    # B, C and D have played their one counted game: only E, F, G may reach a win.
    assert outlook(standings(FIRST_TABLE, Scheme.WBC_POINTS, capped))["A"] is Advance.YES
    uncapped = StandingOptions(advance=4, to_come=to_come)
    assert outlook(standings(FIRST_TABLE, Scheme.WBC_POINTS, uncapped))["A"] is Advance.IF_NOW
    # B, C and D play heat 2 as eliminators: their games there give them nothing.
    eliminators = frozenset((2, p) for p in "BCD")
    playing_on = StandingOptions(advance=4, to_come=to_come, eliminators=eliminators)
    assert outlook(standings(FIRST_TABLE, Scheme.WBC_POINTS, playing_on))["A"] is Advance.YES


def test_a_mean_place_is_never_decided_early():
    options = StandingOptions(advance=4, to_come=SECOND_TABLE)
    table = standings(FIRST_TABLE, Scheme.AVERAGE_PLACE, options)
    assert {outlook(table)[p] for p in "ABCD"} == {Advance.IF_NOW}


def test_a_final_stage_does_not_move_who_advanced_from_the_heats():
    heats = heat(1, "ABCD", "EFGH")
    options = StandingOptions(advance=3, heats=1)
    advanced = [r.player for r in standings(heats, Scheme.AVERAGE_PLACE, options).rows][:3]
    assert sorted(advanced[:2]) == ["A", "E"]  # the two winners; B or F third
    final = heat(2, "".join(advanced))  # the third advancer finishes last of the final
    table = standings([*heats, *final], Scheme.AVERAGE_PLACE, options)
    assert set(table.order[:3]) != set(advanced)  # his mean place fell below the other 2nd
    assert {r.player for r in table.rows if r.advancing} == set(advanced)
    assert not any(r.advance is Advance.IF_NOW for r in table.rows)


# --- soundness: whatever the results still to come, a decided player advances -------------
NAMES = "ABCDEFGHIJ"


@st.composite
def heats(draw):
    """Up to five heats; in each, some players seated at tables of 2-5 (once a heat),
    placed with ties and Titan kills."""
    games = []
    for number in range(1, draw(st.integers(1, 5)) + 1):
        players = draw(st.permutations(NAMES))[: draw(st.integers(2, len(NAMES)))]
        start = 0
        while len(players) - start >= 2:
            size = min(draw(st.integers(2, 5)), len(players) - start)
            seated = players[start : start + size]
            start += size
            places = sorted(draw(st.lists(st.integers(1, size), min_size=size, max_size=size)))
            ranked = [1 + sum(1 for q in places if q < p) for p in places]
            kills = {p: draw(st.integers(0, 1)) for p in seated}
            result = ruled_result(dict(zip(seated, ranked, strict=True)), titan_kills=kills)
            games.append(HeatGame(number, result))
    return games


@settings(deadline=None, max_examples=300)  # timing varies with the machine's load
@given(
    heats(),
    st.sampled_from(list(Scheme)),
    st.integers(1, 6),
    st.integers(0, 4),
    st.sampled_from([None, None, 2, 3]),
    st.integers(0, 50),
)
def test_no_result_to_come_unmakes_a_decided_place(games, scheme, advance, left, cap, seed):
    """The last ``left`` games are still to come (late in a tournament places are safe
    most often)."""
    played, coming = games[: max(len(games) - left, 0)], games[max(len(games) - left, 0) :]
    to_come = frozenset((g.heat, p) for g in coming for p in g.result.players)
    options = StandingOptions(max_games=cap, advance=advance)
    now = standings(played, scheme, StandingOptions(cap, advance=advance, to_come=to_come), seed)
    end = standings(games, scheme, options, seed)
    top = set(end.order[:advance])
    for row in now.rows:
        if row.advancing:
            assert row.player in top, (row.player, end.order)
        expected = row.rank <= advance
        assert (row.advance is not Advance.NO) == expected
    assert sum(r.advancing for r in end.rows) == min(advance, len(end.rows))
    if not coming:
        assert all(r.advance is not Advance.IF_NOW for r in now.rows)
