"""Player ratings from game results with openskill's Weng-Lin Plackett-Luce model.

Every player is a team of one and his rank is his place, so players who share a place
share a rank (a mutual, RULES §12.5, is a tie). A rating is shown as openskill's
ordinal, mu − 3σ: low for a newcomer, rising as his games make the rating surer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.tournament.places import GameResult

MODEL = PlackettLuce()
"""The model with openskill's defaults: mu 25, sigma 25/3."""


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate and the games it rests on."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """openskill's display value, mu − 3σ."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


@dataclass(frozen=True)
class LeaderRow:
    """One line of the leaderboard; equal ordinals share a rank."""

    rank: int
    player: str
    ordinal: float
    mu: float
    sigma: float
    games: int


def rate(ratings: Mapping[str, Rating], result: GameResult) -> dict[str, Rating]:
    """``ratings`` after ``result`` (a player without a rating starts at the model's
    prior); the mapping is copied, not changed."""
    players = result.players
    before = [ratings.get(p, Rating()) for p in players]
    teams = [
        [MODEL.rating(mu=r.mu, sigma=r.sigma, name=p)] for p, r in zip(players, before, strict=True)
    ]
    ranks = [float(result.of(p).place) for p in players]
    rated = MODEL.rate(teams, ranks=ranks)
    after = dict(ratings)
    for player, old, (new,) in zip(players, before, rated, strict=True):
        after[player] = Rating(float(new.mu), float(new.sigma), old.games + 1)
    return after


def rebuild(results_in_order: Iterable[GameResult]) -> dict[str, Rating]:
    """Every rating from scratch, applying the results in the order they finished."""
    ratings: dict[str, Rating] = {}
    for result in results_in_order:
        ratings = rate(ratings, result)
    return ratings


def leaderboard(ratings: Mapping[str, Rating], *, min_games: int = 0) -> tuple[LeaderRow, ...]:
    """The rated players with at least ``min_games`` games, by ordinal (highest first),
    then more games, then name."""
    shown = [(p, r) for p, r in ratings.items() if r.games >= min_games]
    shown.sort(key=lambda item: (-item[1].ordinal, -item[1].games, item[0]))
    rows: list[LeaderRow] = []
    for index, (player, rating) in enumerate(shown):
        tied = rows and rows[-1].ordinal == rating.ordinal
        rank = rows[-1].rank if tied else index + 1
        rows.append(LeaderRow(rank, player, rating.ordinal, rating.mu, rating.sigma, rating.games))
    return tuple(rows)
