"""A stored tournament's standings and its ranking of entrants for the next heat, and the
ratings of a server, computed by the pure rules from the stored results."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.competition.boards import shown_name
from bot.competition.codec import result_from_json
from bot.competition.settings import BRACKET, TournamentSettings
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.tournament import heads
from bot.tournament.ratings import Rating, leaderboard, rebuild
from bot.tournament.standings import HeatGame, StandingOptions, Standings, standings

MAX_TEXT = 1900
"""The most a message showing standings holds (Discord takes 2,000 characters)."""


async def tournament_standings(db: Connection, tournament: store.TournamentRow) -> Standings:
    """The standings from the stored results. Who advances is decided only where no result
    still to come can change it (:class:`~bot.tournament.standings.StandingOptions`): the
    games of the tables still playing and of the heats not seated yet are still to come.
    A bracket's standings mark nobody: its matches, not its standings, decide."""
    settings = TournamentSettings.from_json(tournament.settings)
    games = [
        HeatGame(r.heat or 1, result_from_json(r.result))
        for r in await store.results_of_tournament(db, tournament.id)
    ]
    entrants = await store.entrants(db, tournament.id)
    eliminators = frozenset(
        (heat, str(e.user))
        for e in entrants
        if e.eliminator_from is not None
        for heat in range(e.eliminator_from, settings.heats + 2)
    )
    bracket = settings.format == BRACKET
    options = StandingOptions(
        settings.max_games,
        eliminators,
        0 if bracket else settings.advance,
        to_come=frozenset() if bracket else await _to_come(db, tournament, settings, entrants),
        heats=None if bracket else settings.heats,
    )
    return standings(games, settings.scheme, options, seed=tournament.seed)


async def _to_come(
    db: Connection,
    tournament: store.TournamentRow,
    settings: TournamentSettings,
    entrants: list[store.EntrantRow],
) -> frozenset[tuple[int, str]]:
    """(heat, player) of every game of the heats still to come: at a table not over yet,
    or at any table of a heat not seated yet (each entrant plays once a heat)."""
    tables = [t for t in await store.tables(db, tournament.id) if t.heat <= settings.heats]
    playing = {(t.heat, str(u)) for t in tables if t.status != store.DONE for u in t.players}
    seated = max((t.heat for t in tables), default=0)
    unseated = {
        (heat, str(e.user)) for heat in range(seated + 1, settings.heats + 1) for e in entrants
    }
    return frozenset(playing | unseated)


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


def progress(settings: TournamentSettings, tables: list[store.TableRow]) -> str:
    """Where a heats tournament stands, for the standings' heading: ``heat 2 of 3 under
    way, 1 of 4 tables over``, ``after heat 1 of 3``, ``the heats are over``."""
    heats = [t for t in tables if t.heat <= settings.heats]
    if settings.format == BRACKET or not heats:
        return ""
    last = max(t.heat for t in heats)
    current = [t for t in heats if t.heat == last]
    over = sum(t.status == store.DONE for t in current)
    if over < len(current):
        return f"heat {last} of {settings.heats} under way, {over} of {len(current)} tables over"
    if last < settings.heats:
        return f"after heat {last} of {settings.heats}"
    return "the heats are over"


def standings_text(table: Standings, names: dict[str, str], budget: int = MAX_TEXT) -> str:
    """The standings in a code block, then their legend (:func:`heads.standings_text`),
    in at most ``budget`` characters; players named as in the picture (a mention, which a
    code block does not show as one, as ``user …1234``)."""
    shown = {player: shown_name(player, names) for player in table.order}
    return heads.standings_text(table, shown, budget=budget)


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
