"""Forming a heat's tables: as even as the range of players per game allows, the top
players apart, and as few old opponents together as the ranking leaves room for.

Entrants come ranked, best first. With ``t`` tables they are cut into tiers of ``t``
(ranks 1…t, t+1…2t, …) and every tier is spread one player per table, so the best ``t``
players sit at different tables and each table gets one player of every tier. Within a
tier, the players go to the tables where they meet the fewest opponents of earlier heats
(counted by meetings: a pair that met twice costs two), tier by tier from the top; equal
choices are settled by a seeded draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.tournament.assignment import cheapest_assignment
from bot.tournament.chance import shuffled
from bot.tournament.errors import TournamentError
from engine.dice import Dice
from engine.words import plural

MIN_PLAYERS, MAX_PLAYERS = 2, 6
"""A game of TITAN seats two to six players (RULES §1.6)."""

Meetings = Counter[frozenset[str]]


@dataclass(frozen=True)
class Seating:
    """A heat's tables, each listing its players best first, the tables ordered by their
    best player; ``repeats``: pairs seated together who met before; ``draws``: the
    indices drawn to settle equal choices; ``dice``: the generator after them."""

    tables: tuple[tuple[str, ...], ...]
    repeats: int
    draws: tuple[int, ...]
    dice: Dice

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(t) for t in self.tables)


def table_sizes(entrants: int, min_players: int, max_players: int) -> tuple[int, ...]:
    """The sizes of the fewest tables that seat ``entrants`` with every size within
    ``min_players``…``max_players`` and no two differing by more than one, larger first
    (13 at 3–4: 4, 3, 3, 3). Raises :class:`TournamentError` when there are none."""
    if not MIN_PLAYERS <= min_players <= max_players <= MAX_PLAYERS:
        raise TournamentError(
            f"tables of {min_players} to {max_players} players: a game of TITAN seats "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}, and the least may not exceed the most"
        )
    if entrants < min_players:
        raise TournamentError(
            f"{plural(entrants, 'entrant')} cannot fill a table of at least {min_players} players"
        )
    tables = -(-entrants // max_players)
    small, extra = divmod(entrants, tables)
    if small < min_players:
        raise TournamentError(
            f"{plural(entrants, 'entrant')} cannot be seated at tables of {min_players} to "
            f"{max_players}: at most {(tables - 1) * max_players} fit at {_tables(tables - 1)}, "
            f"and {_tables(tables)} need at least {tables * min_players}"
        )
    return (small + 1,) * extra + (small,) * (tables - extra)


def _tables(count: int) -> str:
    return "1 table" if count == 1 else f"{count} tables"


def meetings(tables: Iterable[Iterable[str]]) -> Meetings:
    """How often each pair of players sat at the same table, from earlier tables."""
    met: Meetings = Counter()
    for table in tables:
        met.update(frozenset(pair) for pair in combinations(sorted(set(table)), 2))
    return met


def seat_heat(
    entrants: Sequence[str],
    min_players: int,
    max_players: int,
    history: Iterable[Iterable[str]] = (),
    seed: int = 0,
) -> Seating:
    """Tables for ``entrants`` (ranked best first) given the ``history`` of earlier tables
    (each the players of one game). Raises :class:`TournamentError` for a repeated entrant
    or an impossible table size (:func:`table_sizes`)."""
    doubled = sorted(n for n, k in Counter(entrants).items() if k > 1)
    if doubled:
        raise TournamentError(f"{', '.join(doubled)} entered more than once")
    count = len(table_sizes(len(entrants), min_players, max_players))
    met = meetings(history)
    tables: list[list[str]] = [[] for _ in range(count)]
    dice, draws = Dice(seed), list[int]()
    for start in range(0, len(entrants), count):
        tier = entrants[start : start + count]
        order, drawn, dice = shuffled(range(count), dice)
        draws += drawn
        cost = [[_cost(player, tables[j], met) for j in order] for player in tier]
        for player, column in zip(tier, cheapest_assignment(cost), strict=True):
            tables[order[column]].append(player)
    rank = {player: i for i, player in enumerate(entrants)}
    seated = sorted((tuple(t) for t in tables), key=lambda t: rank[t[0]])
    repeats = sum(1 for t in seated for pair in combinations(t, 2) if met[frozenset(pair)])
    return Seating(tuple(seated), repeats, tuple(draws), dice)


def _cost(player: str, table: list[str], met: Meetings) -> int:
    return sum(met[frozenset((player, other))] for other in table)
