"""How standings are shown: short heads an organiser reads, each explained in the legend,
the marks of who advances (decided or not) explained only where they appear, and a text
that fits one Discord message however many play."""

from __future__ import annotations

import pytest

from bot.tournament.heads import (
    MARKS,
    OPPONENTS,
    heads,
    legend,
    shown_marks,
    standings_text,
    text_lines,
)
from bot.tournament.places import ruled_result
from bot.tournament.scoring import Scheme
from bot.tournament.standings import LABELS, Advance, HeatGame, StandingOptions, standings
from tests.tournament.builders import heat
from tests.tournament.test_standings import THREE_HEATS

NAMES = {p: f"Player {p}" for p in "ABCDEFGHIJKLM"}


@pytest.mark.parametrize("scheme", list(Scheme))
def test_every_head_is_short_and_explained_by_the_legend(scheme):
    shown = heads(scheme)
    notes = [n.text for n in legend(scheme, frozenset())]
    assert all(len(h.head) <= 5 for h in shown)
    assert not any(h.head.startswith("o") for h in shown)  # no o1st … oTK
    for group in ("", OPPONENTS):
        names = [h.head for h in shown if h.group == group]
        assert len(names) == len(set(names))
    for head in {h.head for h in shown}:
        assert any(head in note.split(":")[0].split() for note in notes), head
    assert any(note.startswith(f"{OPPONENTS}:") for note in notes)
    assert [h.index for h in shown] == sorted(h.index for h in shown)  # ranked left to right
    assert all(LABELS[scheme][h.index].startswith("o") == bool(h.group) for h in shown)


def test_a_scheme_led_by_wins_does_not_show_its_firsts_twice():
    table = standings(THREE_HEATS, Scheme.WBC_POINTS)
    own = [h.head for h in heads(Scheme.WBC_POINTS) if not h.group]
    assert own == ["Wins", "Pts", "2nd", "3rd", "4th", "TK"]
    assert all(r.own.wins == r.own.firsts for r in table.rows)  # the column left out
    assert next(h.head for h in heads(Scheme.WBC_CLASSIC) if not h.group) == "1st"


def test_the_text_groups_the_opponents_figures_under_one_label():
    table = standings(THREE_HEATS, Scheme.WBC_POINTS, StandingOptions(advance=4))
    groups, head, *rows = text_lines(table, NAMES, 40)
    cells = head.split()
    assert cells == ["#", "Player", *(h.head for h in heads(Scheme.WBC_POINTS))]
    label = groups.index(OPPONENTS)
    assert groups[: groups.index("-")].strip() == ""  # nothing over the player's own
    assert head.index("TK") + 2 <= groups.index("-") < label  # begins past his own TK
    assert len(groups) == len(head)  # and spans the opponents' to the last
    assert len(rows) == 13


def test_marks_and_their_legend_appear_only_where_rows_carry_them():
    decided = standings(THREE_HEATS, Scheme.WBC_POINTS, StandingOptions(advance=4))
    assert shown_marks(decided) == {Advance.YES}
    text = standings_text(decided, NAMES)
    assert "`*` advances" in text and "`~`" not in text
    ranks = [line.split()[0] for line in text_lines(decided, NAMES, 40)[2:]]
    assert ranks[:5] == ["1*", "2*", "3*", "4*", "5"]
    coming = StandingOptions(advance=4, to_come=frozenset({(3, "A")}))
    mid = standings(THREE_HEATS[:-1], Scheme.WBC_POINTS, coming)
    marks = {r.advance for r in mid.rows}
    assert Advance.IF_NOW in marks
    text = standings_text(mid, NAMES)
    assert f"`{MARKS[Advance.IF_NOW]}` would advance if the heats ended now" in text
    for row, line in zip(mid.rows, text_lines(mid, NAMES, 40)[2:], strict=True):
        assert line.split()[0] == f"{row.rank}{MARKS.get(row.advance, '')}"
    nobody = standings(THREE_HEATS, Scheme.WBC_POINTS)
    assert "advance" not in standings_text(nobody, NAMES)


def test_a_big_table_is_cut_to_fit_one_message_its_legend_kept():
    players = [f"Entrant number {i:03d} of many" for i in range(120)]
    games = [
        HeatGame(1, ruled_result({p: place for place, p in enumerate(table, start=1)}))
        for table in (players[i : i + 4] for i in range(0, 120, 4))
    ]
    table = standings(games, Scheme.WBC_POINTS, StandingOptions(advance=8))
    rows = []
    for budget in (1900, 1200):
        text = standings_text(table, {}, budget=budget)
        assert len(text) <= budget
        shown = text.split("```")[1].strip().splitlines()[2:]
        assert f"… and {120 - len(shown)} more" in text
        assert len(text) + len(shown[-1]) + 1 > budget  # one row more would not fit
        for note in legend(Scheme.WBC_POINTS, {Advance.YES}):
            assert note.text in text
        rows.append(len(shown))
    assert rows[0] > rows[1] > 0


def test_a_small_table_is_shown_whole():
    table = standings(heat(1, "ABC"), Scheme.WINS, StandingOptions(advance=1))
    text = standings_text(table, {})
    assert "more" not in text and len(text.split("```")[1].strip().splitlines()) == 2 + 3
