"""A stored tournament's standings and its ranking of entrants for the next heat, and the
ratings of a server, computed by the pure rules from the stored results."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from bot.competition.codec import result_from_json
from bot.competition.settings import TournamentSettings
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.tournament.ratings import Rating, leaderboard, rebuild
from bot.tournament.standings import (
    LABELS,
    HeatGame,
    StandingOptions,
    Standings,
    standings,
)


async def tournament_standings(db: Connection, tournament: store.TournamentRow) -> Standings:
    settings = TournamentSettings.from_json(tournament.settings)
    games = [
        HeatGame(r.heat or 1, result_from_json(r.result))
        for r in await store.results_of_tournament(db, tournament.id)
    ]
    eliminators = frozenset(
        (heat, str(e.user))
        for e in await store.entrants(db, tournament.id)
        if e.eliminator_from is not None
        for heat in range(e.eliminator_from, settings.heats + 2)
    )
    options = StandingOptions(settings.max_games, eliminators, settings.advance)
    return standings(games, settings.scheme, options, seed=tournament.seed)


async def ranked_entrants(
    db: Connection, tournament: store.TournamentRow
) -> list[store.EntrantRow]:
    """The entrants best first: by current standing, then rating, then sign-up order."""
    table = await tournament_standings(db, tournament)
    entrants = await store.entrants(db, tournament.id)
    rated = await store.ratings(db, tournament.guild, [e.user for e in entrants])
    unranked = len(table.rows) + 1

    def key(entrant: store.EntrantRow) -> tuple[int, float, int]:
        row = table.row(str(entrant.user))
        mu, sigma, games = rated.get(entrant.user, (Rating().mu, Rating().sigma, 0))
        ordinal = Rating(mu, sigma, games).ordinal
        return (row.rank if row else unranked, -ordinal, entrant.joined)

    return sorted(entrants, key=key)


def standings_text(table: Standings, names: dict[str, str], limit: int = 40) -> str:
    """A fixed-width table in a code block; ``*`` marks an advancing player."""
    labels = LABELS[table.scheme]
    head = ["#", "player", *labels]
    body = [
        [
            f"{r.rank}{'*' if r.advancing else ''}",
            names.get(r.player, r.player)[:20],
            *(figure(v) for v in r.key),
        ]
        for r in table.rows[:limit]
    ]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = [_row(line, widths) for line in [head, *body]]
    more = f"\n… and {len(table.rows) - limit} more" if len(table.rows) > limit else ""
    return "```\n" + "\n".join(lines) + "\n```" + more


def _row(cells: list[str], widths: list[int]) -> str:
    shown = [
        c.ljust(w) if i == 1 else c.rjust(w)
        for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    ]
    return "  ".join(shown).rstrip()


def figure(value: int | Fraction) -> str:
    """A standing's figure as shown: a count, or an average place to two decimals (its
    key holds the average negated, so that higher sorts first)."""
    if isinstance(value, Fraction):
        return f"{-float(value):.2f}"
    return str(value)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's rated games in a server: how many, each place how often, Titans slain."""

    games: int
    places: dict[int, int]
    titan_kills: int


async def player_record(db: Connection, guild: int | None, user: int) -> PlayerRecord:
    places: Counter[int] = Counter()
    kills = 0
    for stored in await store.rated_results(db, guild):
        result = result_from_json(stored.result)
        if str(user) in result.players:
            line = result.of(str(user))
            places[line.place] += 1
            kills += line.titan_kills
    return PlayerRecord(sum(places.values()), dict(places), kills)


async def rankable(db: Connection, users: list[int]) -> dict[str, str]:
    """A name for each user: the one they last played under."""
    return {str(u): name for u, name in (await store.names_of(db, users)).items()}


async def server_ratings(db: Connection, guild: int | None) -> dict[str, Rating]:
    stored = await store.ratings(db, guild)
    return {str(u): Rating(mu, sigma, games) for u, (mu, sigma, games) in stored.items()}


async def rebuilt_ratings(db: Connection, guild: int | None) -> dict[str, Rating]:
    """The server's ratings from scratch, from its rated results in the order they ended."""
    results = [result_from_json(r.result) for r in await store.rated_results(db, guild)]
    return rebuild(results)


def ratings_text(ratings: dict[str, Rating], names: dict[str, str], limit: int = 20) -> str:
    rows = leaderboard(ratings)[:limit]
    if not rows:
        return "No rated game has finished here yet."
    lines = [
        f"{r.rank:>3}. {names.get(r.player, r.player)[:24]:<24} {r.ordinal:6.2f}  "
        f"({r.games} game{'s' if r.games != 1 else ''})"
        for r in rows
    ]
    return "```\n" + "\n".join(lines) + "\n```"
