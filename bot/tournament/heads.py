"""How a standings table is shown: the columns under heads an organiser reads at a
glance, the marks of who advances, and the legend that explains both. The text answer
(:func:`standings_text`) and the picture (:mod:`bot.competition.boards`) are built from
these alone, so they show the same columns, marks and legend.

The columns are the key's figures in the order they are compared, so "left to right" is
the ranking; a 1st is a win, so where a scheme leads with wins its own 1sts (always the
same number) are not shown twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction

from bot.tournament.scoring import Scheme
from bot.tournament.standings import LABELS, Advance, Figure, Standings

OPPONENTS = "Opponents'"
"""The group of the opponents' figures."""

MARKS: dict[Advance, str] = {Advance.YES: "*", Advance.IF_NOW: "~"}
"""The text form's mark of each outlook, after the rank."""


@dataclass(frozen=True)
class Head:
    """A shown column: the figure at ``index`` of the key, under ``head``, within
    ``group`` (a label spanning its columns; "" for none)."""

    index: int
    head: str
    group: str = ""


_OWN = {
    "wins": "Wins",
    "points": "Pts",
    "avg": "Avg",
    "games": "Games",
    "1st": "1st",
    "2nd": "2nd",
    "3rd": "3rd",
    "4th": "4th",
    "TK": "TK",
}

_MEANING = {
    "Wins": "Wins: games won (1st places)",
    "Pts": "Pts: heat points, 1000 a 1st, 100 a 2nd, 10 a 3rd, 1 a 4th",
    "Avg": "Avg: mean place, lower is better",
    "Games": "Games: games counted",
    "1st": "1st 2nd 3rd 4th: games finished so (a last place is never a 3rd or 4th)",
    "TK": "TK: Titans killed",
}

_OUTLOOK = {
    Advance.YES: "advances: no result still to come can change it",
    Advance.IF_NOW: "would advance if the heats ended now (results to come may change it)",
}


@dataclass(frozen=True)
class Note:
    """A line of the legend; ``mark``: the outlook whose mark it explains, if any."""

    text: str
    mark: Advance | None = None


def heads(scheme: Scheme) -> tuple[Head, ...]:
    """The shown columns of ``scheme``'s key, in its order."""
    labels = LABELS[scheme]
    shown = []
    for index, label in enumerate(labels):
        if label == "1st" and "wins" in labels:
            continue  # the same count as the wins
        if label.startswith("o"):
            shown.append(Head(index, _OWN[label[1:]], OPPONENTS))
        else:
            shown.append(Head(index, _OWN[label]))
    return tuple(shown)


def legend(scheme: Scheme, marks: AbstractSet[Advance]) -> tuple[Note, ...]:
    """The legend under a table of ``scheme`` whose rows carry ``marks``: each mark, each
    head, then how the table is ranked."""
    notes = [Note(_OUTLOOK[m], m) for m in (Advance.YES, Advance.IF_NOW) if m in marks]
    own = [h.head for h in heads(scheme) if not h.group]
    if "2nd" in own and "1st" not in own:
        own.insert(own.index("2nd"), "1st")  # the places are explained together
    notes += [Note(_MEANING[h]) for h in own if h in _MEANING]
    notes.append(Note(f"{OPPONENTS}: the same counts summed over the opponents met, game by game"))
    notes.append(Note("Ranked by the columns left to right; a roll settles a tie left over"))
    return tuple(notes)


def shown_marks(table: Standings) -> frozenset[Advance]:
    """The outlooks the rows of ``table`` carry (none for a row that does not advance)."""
    return frozenset(r.advance for r in table.rows if r.advance in MARKS)


def figure(value: Figure) -> str:
    """A figure as shown: a count, or a mean place to two decimals (the key holds it
    negated, so that higher sorts first)."""
    if isinstance(value, Fraction):
        return f"{-float(value):.2f}"
    return str(value)


def _cells(table: Standings, names: Mapping[str, str], limit: int) -> list[list[str]]:
    shown = heads(table.scheme)
    digits = len(str(len(table.rows)))
    return [
        [
            f"{r.rank:>{digits}}{MARKS.get(r.advance, '')}",
            names.get(r.player, r.player)[:20],
            *(figure(r.key[h.index]) for h in shown),
        ]
        for r in table.rows[:limit]
    ]


def text_lines(table: Standings, names: Mapping[str, str], limit: int) -> list[str]:
    """The table as fixed-width lines: the groups' line (when a scheme has groups), the
    heads, then the first ``limit`` rows."""
    shown = heads(table.scheme)
    head = ["#", "Player", *(h.head for h in shown)]
    body = _cells(table, names, limit)
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in (0, 1) else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    lines = [fmt(head), *(fmt(line) for line in body)]
    groups = _group_line(shown, widths)
    return [groups, *lines] if groups else lines


def _group_line(shown: tuple[Head, ...], widths: list[int]) -> str:
    """Each group's label centred over its columns, ``-`` filling the span."""
    starts = [sum(widths[:i]) + 2 * i for i in range(len(widths))]
    line = ""
    for i, head in enumerate(shown):
        if not head.group or (i > 0 and shown[i - 1].group == head.group):
            continue
        last = i
        while last + 1 < len(shown) and shown[last + 1].group == head.group:
            last += 1
        begin, end = starts[i + 2], starts[last + 2] + widths[last + 2]
        line = line.ljust(begin) + f" {head.group} ".center(end - begin, "-")
    return line.rstrip()


def standings_text(
    table: Standings, names: Mapping[str, str], *, budget: int = 1800, limit: int = 40
) -> str:
    """The table in a code block, then its legend, in at most ``budget`` characters: rows
    beyond what fits (or beyond ``limit``) are counted, not shown."""
    notes = [
        f"`{MARKS[n.mark]}` {n.text}" if n.mark is not None else n.text
        for n in legend(table.scheme, shown_marks(table))
    ]
    tail = "\n".join(notes)
    shown = min(limit, len(table.rows))
    while True:
        lines = text_lines(table, names, shown)
        more = len(table.rows) - shown
        text = "```\n" + "\n".join(lines) + "\n```"
        if more:
            text += f"\n… and {more} more"
        text += "\n" + tail
        if len(text) <= budget or shown == 0:
            return text
        shown -= 1
