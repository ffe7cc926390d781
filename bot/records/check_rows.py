"""``check-db`` beyond the game log: every row of every other table read as the bot reads
it, and checked against what it refers to.

Each table is read whole, its columns as stored (SQLite keeps whatever a bad write put in
a column, whatever its declared type). A row is named with its key (``clocks of game
#3``, ``outbox row 12``) and what is wrong with it, in plain words; a table that cannot be
read at all is one problem. Ratings are checked against a rebuild from the rated results.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.competition.codec import result_from_json
from bot.competition.settings import TournamentSettings
from bot.outbox.damage import body_problem
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.storage.outbox import KINDS, LANES
from bot.tournament.ratings import rebuild
from engine.errors import TitanError

UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError, TitanError)
"""What reading a damaged value raises."""

DUE_KINDS = ("deadline", "reminder", "time_limit")
TOURNAMENT_STATUSES = (store.SIGNUP, store.CLOSED, store.OVER)
TABLE_STATUSES = (store.OPENING, store.PLAYING, store.DONE)
_LEASE = re.compile(r"(outbox|ai):-?\d+|tables")
_CLOSE = 1e-9
"""How near a stored rating must be to the rebuilt one (floating point, stored and read)."""


@dataclass
class Known:
    """What the other tables refer to, read first: each game's status and seated users."""

    statuses: dict[int, str] = field(default_factory=dict)
    seats: dict[int, dict[int, int]] = field(default_factory=dict)
    """game → seat number → user id."""
    tournaments: set[int] = field(default_factory=set)
    entrants: dict[int, set[int]] = field(default_factory=dict)
    outbox: set[int] = field(default_factory=set)
    results: dict[int, str] = field(default_factory=dict)
    """game → the stored ending of its result (unreadable results left out)."""
    table_games: set[int] = field(default_factory=set)
    """The games played at a tournament's table."""

    def adjudicated(self, game: int) -> bool:
        """Whether ``game`` may have been ended by an organiser's ruling: a table's game
        with a result (its log then does not end it)."""
        return game in self.table_games and game in self.results


@dataclass(frozen=True)
class RowProblem:
    """One damaged row, in plain words, and the game and tournament it belongs to."""

    text: str
    game: int | None = None
    tournament: int | None = None
    ratings_of: int | None = None
    """The server (0: the terminal) whose ratings the row is, or is rated into."""
    played: bool = True
    """Whether playing the game reads the row (an outbox row is only its news, which the
    deliverer skips when damaged: :mod:`bot.outbox.damage`)."""

    def __str__(self) -> str:
        return self.text


Problems = list[RowProblem]
Check = Callable[[Connection, Known, Problems], Any]


async def check_rows(db: Connection) -> tuple[Problems, Known]:
    """The problems of every table but the game log's own (seats, actions, snapshots:
    :func:`bot.records.verify.verify`), one line each; and what the rows refer to."""
    problems: Problems = []
    known = Known()
    checks: tuple[tuple[str, Check], ...] = (
        ("games", _games),
        ("seats", _seats),
        ("users", _users),
        ("outbox", _outbox),
        ("places", _places),
        ("clocks", _clocks),
        ("due", _due),
        ("lapses", _lapses),
        ("tournaments", _tournaments),
        ("entrants", _entrants),
        ("tables", _tables),
        ("results", _results),
        ("ratings", _ratings),
        ("tournament_log", _tournament_log),
        ("leases", _leases),
        ("secret_readers", _secret_readers),
    )
    for table, check in checks:
        try:
            await check(db, known, problems)
        except (sqlite3.DatabaseError, asyncpg.PostgresError, *UNREADABLE) as exc:
            problems.append(RowProblem(f"{table}: its rows cannot be read ({exc})"))
    return problems, known


async def _all(db: Connection, sql: str) -> list[tuple[Any, ...]]:
    async with db.execute(sql) as cursor:
        return [tuple(row) async for row in cursor]


# --- values as stored -------------------------------------------------------------------------
def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return (_integer(value) or isinstance(value, float)) and math.isfinite(value)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _decimal(value: Any) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdecimal()


def _wrong(
    values: Iterable[tuple[str, Any, Callable[[Any], bool], str]],
) -> list[str]:
    """What is wrong with named values: (column, value, test, what it should be); a
    value of None passes when the column may be empty (its test says so)."""
    return [
        f"its {name} {value!r} is not {what}" for name, value, ok, what in values if not ok(value)
    ]


def _or_none(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or test(value)


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], bool]:
    return lambda value: value in choices


def _name(choices: tuple[str, ...]) -> str:
    return "one of " + ", ".join(choices)


def _say(
    problems: Problems,
    what: str,
    found: Iterable[str],
    *,
    game: Any = None,
    tournament: Any = None,
    ratings_of: Any = None,
    played: bool = True,
) -> None:
    """Each of ``found``, the problems of the row ``what`` (of ``game``, ``tournament``,
    the ratings of server ``ratings_of``)."""
    game = game if _integer(game) else None
    tournament = tournament if _integer(tournament) else None
    ratings_of = ratings_of if _integer(ratings_of) else None
    problems.extend(
        RowProblem(f"{what}: {text}", game, tournament, ratings_of, played) for text in found
    )


# --- the tables -------------------------------------------------------------------------------
async def _games(db: Connection, known: Known, problems: Problems) -> None:
    """The games' own columns (their log is the per-game check's); the known statuses."""
    statuses = tuple(s.value for s in rows.Status)
    sql = "SELECT id, status, channel, guild, seed_text, salt, pledge FROM games ORDER BY id"
    for game, status, channel, guild, seed, salt, pledge in await _all(db, sql):
        known.statuses[game] = status
        wrong = _wrong(
            (
                ("status", status, _one_of(statuses), _name(statuses)),
                ("channel", channel, _integer, "a channel id"),
                ("seed", seed, _or_none(_decimal), "a number in decimal"),
                ("salt", salt, _or_none(_text), "text"),
                ("pledge", pledge, _or_none(_json), "JSON"),
            )
        )
        if not wrong and pledge is not None:
            wrong = _unpledged(json.loads(pledge), (game, guild, channel, seed, salt))
        _say(problems, f"game #{game}", wrong, game=game)


def _unpledged(pledged: Any, stored: tuple[Any, ...]) -> list[str]:
    """Where the game's row differs from what its start's commitment bound (its number,
    server, channel, seed and salt; the seats may change hands since, and the per-game
    check replays the settings)."""
    if not isinstance(pledged, dict):
        return ["its pledge is not a JSON object"]
    game, guild, channel, seed, salt = stored
    expected = {
        "game": game,
        "guild": None if guild is None else str(guild),
        "channel": str(channel),
        "seed": seed,
        "salt": salt,
    }
    return [
        f"its {key} {value!r} is not the {pledged.get(key)!r} its pledge committed to"
        for key, value in expected.items()
        if pledged.get(key) != value
    ]


async def _seats(db: Connection, known: Known, problems: Problems) -> None:
    """Who sits where (their numbering is the per-game check's)."""
    for game, seat, user in await _all(db, "SELECT game, seat, user FROM seats"):
        known.seats.setdefault(game, {})[seat] = user


async def _users(db: Connection, known: Known, problems: Problems) -> None:
    sql = "SELECT id, away_from, away_until, standin, standin_user, quiet FROM users ORDER BY id"
    for user, away_from, away_until, standin, standin_user, quiet in await _all(db, sql):
        _say(
            problems,
            f"user {user}",
            _wrong(
                (
                    ("away_from", away_from, _or_none(_number), "a time"),
                    ("away_until", away_until, _or_none(_number), "a time"),
                    ("standin", standin, _or_none(_one_of(("ai",))), "ai"),
                    ("standin_user", standin_user, _or_none(_integer), "a user id"),
                    ("quiet", quiet, _or_none(_text), "text"),
                )
            ),
        )


async def _outbox(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT id, game, channel, kind, lane, recipient, body, reply_to, version, attempts,"
        " batch FROM outbox ORDER BY id"
    )
    found = await _all(db, sql)
    known.outbox = {row[0] for row in found}
    for id_, game, channel, kind, lane, recipient, body, reply_to, version, tries, batch in found:
        wrong = _wrong(
            (
                ("game", game, _or_none(_integer), "a game id"),
                ("channel", channel, _integer, "a channel id"),
                ("kind", kind, _one_of(KINDS), _name(KINDS)),
                ("lane", lane, _one_of(LANES), _name(LANES)),
                ("recipient", recipient, _or_none(_integer), "a user id"),
                ("body", body, _text, "text"),
                ("version", version, _or_none(_integer), "an action count"),
                ("attempts", tries, _integer, "a count"),
                ("batch", batch, _or_none(_integer), "a row id"),
            )
        )
        if _integer(game) and game not in known.statuses:
            wrong.append(f"it refers to game #{game}, which does not exist")
        if kind == "dm" and recipient is None:
            wrong.append("it is a DM without a recipient")
        if _text(body) and (unread := body_problem(body)) is not None:
            wrong.append(unread)
        if reply_to is not None and not _json(reply_to):
            wrong.append(f"its reply_to {reply_to!r} cannot be read")
        if _integer(batch) and batch not in known.outbox:
            wrong.append(f"it was sent with row {batch}, which does not exist")
        _say(problems, f"outbox row {id_}", wrong, game=game, played=False)


def _json(text: Any) -> bool:
    try:
        json.loads(text)
    except UNREADABLE:
        return False
    return True


async def _places(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT channel, lane, target, live, text, unopened, files FROM places"
        " ORDER BY channel, lane"
    )
    for channel, lane, target, live, text, unopened, files in await _all(db, sql):
        _say(
            problems,
            f"the {lane} place of channel {channel}",
            _wrong(
                (
                    ("lane", lane, _one_of(LANES), _name(LANES)),
                    ("target", target, _integer, "a channel or message id"),
                    ("live", live, _or_none(_integer), "a message id"),
                    ("text", text, _or_none(_text), "text"),
                    ("unopened", unopened, _or_none(_text), "text"),
                    ("files", files, _or_none(_text), "text"),
                )
            ),
        )


def _seat_of(known: Known, game: Any, seat: Any) -> list[str]:
    """What is wrong with a row's reference to ``game``'s ``seat`` (None: no seat)."""
    if not _integer(game) or game not in known.statuses:
        return [f"it refers to game #{game}, which does not exist"]
    if seat is not None and _integer(seat) and seat not in known.seats.get(game, {}):
        return [f"it refers to seat {seat}, which game #{game} does not have"]
    return []


async def _clocks(db: Connection, known: Known, problems: Problems) -> None:
    sql = "SELECT game, seat, decision, since, deadline FROM clocks ORDER BY game"
    for game, seat, decision, since, deadline in await _all(db, sql):
        wrong = _wrong(
            (
                ("seat", seat, _integer, "a seat number"),
                ("decision", decision, _text, "a decision"),
                ("since", since, _number, "a time"),
                ("deadline", deadline, _or_none(_number), "a time"),
            )
        )
        wrong += _seat_of(known, game, seat)
        if known.statuses.get(game) in ("over", "cancelled"):
            wrong.append(f"game #{game} is {known.statuses[game]}, but its clock still runs")
        _say(problems, f"the clock of game #{game}", wrong, game=game)


async def _due(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT id, game, kind, seat, decision, at, done_at, outcome, claimed_by, claimed_until"
        " FROM due ORDER BY id"
    )
    for id_, game, kind, seat, decision, at, done_at, outcome, by, until in await _all(db, sql):
        wrong = _wrong(
            (
                ("kind", kind, _one_of(DUE_KINDS), _name(DUE_KINDS)),
                ("seat", seat, _or_none(_integer), "a seat number"),
                ("decision", decision, _or_none(_text), "a decision"),
                ("at", at, _number, "a time"),
                ("done_at", done_at, _or_none(_number), "a time"),
                ("outcome", outcome, _or_none(_text), "text"),
                ("claimed_by", by, _or_none(_text), "a process"),
                ("claimed_until", until, _or_none(_number), "a time"),
            )
        )
        wrong += _seat_of(known, game, seat)
        _say(problems, f"due item {id_}", wrong, game=game)


async def _lapses(db: Connection, known: Known, problems: Problems) -> None:
    sql = "SELECT game, seat, count, since, covers FROM lapses ORDER BY game, seat"
    for game, seat, count, since, covers in await _all(db, sql):
        wrong = _wrong(
            (
                ("seat", seat, _integer, "a seat number"),
                ("count", count, lambda v: _integer(v) and v >= 0, "a count"),
                ("since", since, _or_none(_number), "a time"),
                ("covers", covers, _or_none(_integer), "a turn number"),
            )
        )
        wrong += _seat_of(known, game, seat)
        _say(problems, f"the lapses of seat {seat} of game #{game}", wrong, game=game)


async def _tournaments(db: Connection, known: Known, problems: Problems) -> None:
    sql = "SELECT id, name, status, settings, seed, channel FROM tournaments ORDER BY id"
    for id_, name, status, settings, seed, channel in await _all(db, sql):
        known.tournaments.add(id_)
        wrong = _wrong(
            (
                ("name", name, _text, "a name"),
                ("status", status, _one_of(TOURNAMENT_STATUSES), _name(TOURNAMENT_STATUSES)),
                ("seed", seed, _integer, "a number"),
                ("channel", channel, _integer, "a channel id"),
            )
        )
        try:
            TournamentSettings.from_json(json.loads(settings))
        except UNREADABLE as exc:
            wrong.append(f"its settings cannot be read ({exc})")
        _say(problems, f"tournament #{id_}", wrong, tournament=id_)


async def _entrants(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT tournament, user, name, joined, eliminator_from FROM entrants"
        " ORDER BY tournament, joined"
    )
    for tournament, user, name, joined, eliminator in await _all(db, sql):
        known.entrants.setdefault(tournament, set()).add(user)
        wrong = _wrong(
            (
                ("user", user, _integer, "a user id"),
                ("name", name, _text, "a name"),
                ("joined", joined, lambda v: _integer(v) and v >= 1, "a sign-up number"),
                ("eliminator_from", eliminator, _or_none(_integer), "a heat"),
            )
        )
        if tournament not in known.tournaments:
            wrong.append(f"it refers to tournament #{tournament}, which does not exist")
        _say(problems, f"entrant {user} of tournament #{tournament}", wrong, tournament=tournament)


async def _tables(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT tournament, heat, number, players, status, channel, game, paused_at FROM tables"
        " ORDER BY tournament, heat, number"
    )
    for tournament, heat, number, players, status, channel, game, paused in await _all(db, sql):
        wrong = _wrong(
            (
                ("status", status, _one_of(TABLE_STATUSES), _name(TABLE_STATUSES)),
                ("channel", channel, _or_none(_integer), "a channel id"),
                ("game", game, _or_none(_integer), "a game id"),
                ("paused_at", paused, _or_none(_number), "a time"),
            )
        )
        seated = _players(players)
        if seated is None:
            wrong.append(f"its players {players!r} cannot be read")
        elif tournament in known.tournaments:
            strangers = sorted(set(seated) - known.entrants.get(tournament, set()))
            if strangers:
                wrong.append(f"it seats {', '.join(map(str, strangers))}, who did not enter")
        if tournament not in known.tournaments:
            wrong.append(f"it refers to tournament #{tournament}, which does not exist")
        if game is not None:
            known.table_games.add(game)
        if game is not None and game not in known.statuses:
            wrong.append(f"it refers to game #{game}, which does not exist")
        if status in (store.PLAYING, store.DONE) and game is None and len(seated or ()) > 1:
            wrong.append(f"it is {status} but has no game")
        what = f"table {heat}.{number} of tournament #{tournament}"
        _say(problems, what, wrong, game=game, tournament=tournament)


def _players(text: Any) -> list[int] | None:
    try:
        found = json.loads(text)
    except UNREADABLE:
        return None
    if not isinstance(found, list) or not all(_integer(p) for p in found):
        return None
    return found


async def _results(db: Connection, known: Known, problems: Problems) -> None:
    sql = (
        "SELECT game, tournament, heat, finished_at, rated, result, coalesce(guild, 0)"
        " FROM results ORDER BY game"
    )
    for game, tournament, heat, finished_at, rated, result, guild in await _all(db, sql):
        wrong = _wrong(
            (
                ("heat", heat, _or_none(_integer), "a heat"),
                ("finished_at", finished_at, _text, "a time"),
                ("rated", rated, _one_of_numbers(0, 1), "0 or 1"),
            )
        )
        status = known.statuses.get(game)
        if status is None:
            wrong.append(f"it refers to game #{game}, which does not exist")
        elif status != rows.Status.OVER.value:
            wrong.append(f"game #{game} has a result but is stored as {status}")
        if tournament is not None and tournament not in known.tournaments:
            wrong.append(f"it refers to tournament #{tournament}, which does not exist")
        try:
            read = result_from_json(json.loads(result))
        except UNREADABLE as exc:
            wrong.append(f"it cannot be read ({exc})")
        else:
            known.results[game] = read.ending.value
            seated = {str(user) for user in known.seats.get(game, {}).values()}
            if status is not None and set(read.players) != seated:
                wrong.append(f"its players are not those seated at game #{game}")
        what = f"the result of game #{game}"
        rated_into = guild if rated == 1 else None
        _say(problems, what, wrong, game=game, tournament=tournament, ratings_of=rated_into)


def _one_of_numbers(*choices: int) -> Callable[[Any], bool]:
    return lambda value: _integer(value) and value in choices


async def _ratings(db: Connection, known: Known, problems: Problems) -> None:
    """Each server's stored ratings against a rebuild from its rated results."""
    stored: dict[int, dict[str, tuple[Any, Any, Any]]] = {}
    for guild, user, mu, sigma, games in await _all(
        db, "SELECT guild, user, mu, sigma, games FROM ratings ORDER BY guild, user"
    ):
        stored.setdefault(guild, {})[str(user)] = (mu, sigma, games)
        _say(
            problems,
            _rating_of(guild, user),
            ratings_of=guild,
            found=_wrong(
                (
                    ("mu", mu, _number, "a number"),
                    ("sigma", sigma, _number, "a number"),
                    ("games", games, lambda v: _integer(v) and v >= 0, "a count"),
                )
            ),
        )
    guilds = {guild or 0 for guild in await store.rated_guilds(db)} | set(stored)
    for guild in sorted(guilds):
        try:
            results = [
                result_from_json(r.result) for r in await store.rated_results(db, guild or None)
            ]
        except UNREADABLE:
            problems.append(
                RowProblem(
                    f"the ratings of {_server(guild)}: a rated result cannot be read",
                    ratings_of=guild,
                )
            )
            continue
        rebuilt = rebuild(results)
        here = stored.get(guild, {})
        for player in sorted(set(rebuilt) | set(here), key=str):
            rating = rebuilt.get(player)
            value = here.get(player)
            if value is None:
                text = f"it is missing (rebuilt: {rating})"
            elif rating is None:
                text = "no rated result gives it"
            elif not _near(value, (rating.mu, rating.sigma, rating.games)):
                text = (
                    f"it is {value}, but the results give "
                    f"{(rating.mu, rating.sigma, rating.games)} (`titanbot ratings --rebuild`)"
                )
            else:
                continue
            problems.append(RowProblem(f"{_rating_of(guild, player)}: {text}", ratings_of=guild))


def _near(stored: tuple[Any, Any, Any], rebuilt: tuple[float, float, int]) -> bool:
    if not all(_number(v) for v in stored):
        return False  # named already
    mu, sigma, games = stored
    return (
        math.isclose(mu, rebuilt[0], abs_tol=_CLOSE)
        and math.isclose(sigma, rebuilt[1], abs_tol=_CLOSE)
        and games == rebuilt[2]
    )


def _server(guild: Any) -> str:
    return "the terminal" if not guild else f"server {guild}"


def _rating_of(guild: Any, user: Any) -> str:
    return f"the rating of {user} on {_server(guild)}"


async def _tournament_log(db: Connection, known: Known, problems: Problems) -> None:
    sql = "SELECT id, tournament, at, text FROM tournament_log ORDER BY id"
    for id_, tournament, at, text in await _all(db, sql):
        wrong = _wrong((("at", at, _text, "a time"), ("text", text, _text, "text")))
        if tournament not in known.tournaments:
            wrong.append(f"it refers to tournament #{tournament}, which does not exist")
        _say(problems, f"tournament log entry {id_}", wrong, tournament=tournament)


async def _leases(db: Connection, known: Known, problems: Problems) -> None:
    for name, holder, until in await _all(db, "SELECT name, holder, until FROM leases"):
        _say(
            problems,
            f"the lease {name!r}",
            _wrong(
                (
                    ("name", name, lambda v: _text(v) and bool(_LEASE.fullmatch(v)), "a lease"),
                    ("holder", holder, _text, "a process"),
                    ("until", until, _number, "a time"),
                )
            ),
        )


async def _secret_readers(db: Connection, known: Known, problems: Problems) -> None:
    """Who read a game's secrets while it was played: a game that exists, a user, a time."""
    sql = "SELECT game, user, at FROM secret_readers ORDER BY game, user"
    for game, user, at in await _all(db, sql):
        wrong = _wrong((("user", user, _integer, "a user id"), ("at", at, _text, "a time")))
        if game not in known.statuses:
            wrong.append(f"it refers to game #{game}, which does not exist")
        _say(problems, f"the secrets' reader {user} of game #{game}", wrong, game=game)
