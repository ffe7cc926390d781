"""What one player's games are worth under a tournament's scheme.

The schemes follow the WBC's TITAN tournaments: heat points (1st 1,000, 2nd 100, 3rd 10,
4th 1) and the classic tie-break chain of firsts, seconds, thirds, fourths and Titan
kills. Finishing last never counts as a 3rd or a 4th: a 3rd in a three-player game, or a
4th in a four-player game, counts nothing, for the chain and for the points alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bot.tournament.places import GameResult


class Scheme(StrEnum):
    """How standings are ordered (chosen per tournament)."""

    WBC_POINTS = "wbc_points"
    """Most wins, then heat points, then the classic chain."""
    WBC_CLASSIC = "wbc_classic"
    """The classic chain alone."""
    WINS = "wins"
    """Most wins, then the classic chain."""
    AVERAGE_PLACE = "average_place"
    """Lowest mean place, then most games, then the classic chain."""


PLACE_POINTS = {1: 1000, 2: 100, 3: 10, 4: 1}
"""Heat points per counted place (a 5th or 6th is worth nothing)."""


def counted_place(result: GameResult, player: str) -> int | None:
    """The place of ``player`` that counts as a 1st, 2nd, 3rd or 4th, or None: a 5th or
    6th, or a 3rd or 4th that is also the game's last place (shared or not)."""
    place = result.of(player).place
    if place > 4 or (place >= 3 and result.is_last(player)):
        return None
    return place


@dataclass(frozen=True)
class Tally:
    """A player's own figures over his counted games."""

    games: int = 0
    wins: int = 0
    firsts: int = 0
    seconds: int = 0
    thirds: int = 0
    fourths: int = 0
    titan_kills: int = 0
    points: int = 0
    place_sum: int = 0

    @property
    def chain(self) -> tuple[int, int, int, int, int]:
        """Firsts, seconds, thirds, fourths, Titan kills: the classic chain's own part."""
        return (self.firsts, self.seconds, self.thirds, self.fourths, self.titan_kills)


def tally(player: str, games: Iterable[GameResult]) -> Tally:
    """The figures of ``player`` over ``games`` (all of which he played)."""
    counts = {1: 0, 2: 0, 3: 0, 4: 0}
    played = wins = kills = points = place_sum = 0
    for result in games:
        line = result.of(player)
        played += 1
        wins += line.won
        kills += line.titan_kills
        place_sum += line.place
        counted = counted_place(result, player)
        if counted is not None:
            counts[counted] += 1
            points += PLACE_POINTS[counted]
    return Tally(
        games=played,
        wins=wins,
        firsts=counts[1],
        seconds=counts[2],
        thirds=counts[3],
        fourths=counts[4],
        titan_kills=kills,
        points=points,
        place_sum=place_sum,
    )
