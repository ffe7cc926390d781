"""The tournament commands: ``tournament create|join|leave|add|close|heat|standings``, the
organiser's desk (:mod:`bot.competition.desk`: ``status|remind|extend|force|pause|
resume|eliminator``), and ``ratings``.

Organisers (Manage Server or the server's organiser role on Discord; the terminal's
user) create, fill, close and seat a tournament; anyone may join while sign-up is open,
and see the standings and the ratings. A tournament is named within its server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.competition import desk
from bot.competition.advancing import advance
from bot.competition.archive import archive
from bot.competition.boards import ratings_picture, standings_picture
from bot.competition.common import held
from bot.competition.ranking import (
    MAX_TEXT,
    player_record,
    progress,
    rankable,
    ranked_entrants,
    ratings_text,
    server_ratings,
    standings_text,
    tournament_standings,
)
from bot.competition.reliability import reliability, reliability_text
from bot.competition.settings import BRACKET, TournamentSettings, read_settings
from bot.context import Context
from bot.names import clean
from bot.replies import Message, Replies
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.storage.games import ai_user
from bot.storage.punctuality import answers, games_played
from bot.storage.record import Game
from bot.syntax import Args
from bot.syntax.words import number, user
from bot.tournament.errors import TournamentError
from bot.tournament.ratings import leaderboard
from bot.tournament.seating import seat_heat
from engine.errors import IllegalAction, InvalidNotation
from engine.words import plural

Handler = Callable[[Context, Args], Awaitable[Replies]]
MOST_AI_ENTRANTS = 64
BY_THE_SERVICE = ("adjudicate", "replace")
"""Subcommands the service runs itself, under a table's lock (bot/competition/tabletools.py)."""


async def tournament(ctx: Context, game: Game | None, args: Args) -> Replies:
    """``tournament SUBCOMMAND NAME …``."""
    sub = args.take("the subcommand (create, join, heat, status, advance…)").lower()
    handler = SUBCOMMANDS.get(sub)
    if handler is None:
        known = ", ".join((*SUBCOMMANDS, *BY_THE_SERVICE))
        raise InvalidNotation(f"tournament: {known}; not {sub!r}")
    async with ctx.seating:  # one tournament change at a time, across channels
        return await handler(ctx, args)


READING = frozenset({"standings", "status", "archive"})
"""The subcommands that only tell (answered at once, with files where they have some)."""


def is_reading(words: tuple[str, ...]) -> bool:
    """Whether ``tournament WORDS`` only reads."""
    return bool(words) and words[0].lower() in READING


def _organiser(ctx: Context, what: str) -> None:
    if not ctx.caller.organiser:
        raise IllegalAction(f"only an organiser may {what} (Manage Server, or the organiser role)")


async def _named(db: Connection, ctx: Context, name: str) -> store.TournamentRow:
    found = await store.named(db, ctx.place.guild, name)
    if found is None:
        raise IllegalAction(f"there is no tournament {name!r} here: see `tournament create`")
    return found


async def create(ctx: Context, args: Args) -> Replies:
    _organiser(ctx, "create a tournament")
    name = args.take("the tournament's name").strip()
    if not 1 <= len(name) <= 40 or any(not (c.isalnum() or c in " -_'") for c in name):
        raise InvalidNotation("a tournament's name: 1 to 40 letters, digits, spaces or -_'")
    settings = read_settings(args, ctx.timing, ctx.now())
    args.finish()
    seed = ctx.seeds()
    async with ctx.db.transaction() as db:
        if await store.named(db, ctx.place.guild, name) is not None:
            raise IllegalAction(f"there is a tournament {name!r} here already")
        await store.create(db, ctx.place.guild, name, settings.to_json(), seed, ctx.place.channel)
    text = (
        f"🏆 Tournament **{name}** is open for sign-up: {settings.describe()}. "
        f"Join with `tournament join {name}`."
    )
    return Replies(public=Message(text))


async def join(ctx: Context, args: Args) -> Replies:
    """Sign the caller up, keyed by their user id: a name like another entrant's is told
    apart where it is shown (``Ann 2``), never mistaken for theirs."""
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.transaction() as db:
        found = await held(db, ctx.place.guild, name)
        if found.status != store.SIGNUP:
            raise IllegalAction(f"sign-up for {found.name} is closed")
        if not await store.add_entrant(db, found.id, ctx.caller.user, _clean(ctx.caller.name)):
            raise IllegalAction(f"you are signed up for {found.name} already")
        entrants = await store.entrants(db, found.id)
    shown = next(e.name for e in entrants if e.user == ctx.caller.user)
    return Replies(public=Message(f"**{shown}** joined {found.name} ({len(entrants)})."))


async def leave(ctx: Context, args: Args) -> Replies:
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.transaction() as db:
        found = await held(db, ctx.place.guild, name)
        if found.status != store.SIGNUP:
            raise IllegalAction(f"sign-up for {found.name} is closed: an organiser can help")
        if not await store.remove_entrant(db, found.id, ctx.caller.user):
            raise IllegalAction(f"you are not signed up for {found.name}")
    return Replies(public=Message(f"**{_clean(ctx.caller.name)}** left {found.name}."))


async def add(ctx: Context, args: Args) -> Replies:
    """``tournament add NAME @user …`` or ``tournament add NAME ai N`` (computer players)."""
    _organiser(ctx, "add entrants")
    name = args.take("the tournament's name")
    added: list[tuple[int, str]] = []
    if (args.peek() or "").lower() == "ai":
        args.take("ai")
        count = number(args.take("how many"), "computer players", least=1, most=MOST_AI_ENTRANTS)
        added = [(ai_user(i), f"AI {i}") for i in range(1, count + 1)]
    else:
        while args.peek() is not None:
            who = user(args.take("@user"))
            added.append((who, f"<@{who}>"))
    args.finish()
    if not added:
        raise InvalidNotation("tournament add: name the entrants (mention them), or `ai N`")
    async with ctx.db.transaction() as db:
        found = await held(db, ctx.place.guild, name)
        if found.status != store.SIGNUP:
            raise IllegalAction(f"sign-up for {found.name} is closed")
        new = [n for u, n in added if await store.add_entrant(db, found.id, u, n)]
        count = len(await store.entrants(db, found.id))
    return Replies(
        public=Message(f"{plural(len(new), 'entrant')} added to {found.name} ({count} in all).")
    )


async def close(ctx: Context, args: Args) -> Replies:
    _organiser(ctx, "close sign-up")
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.transaction() as db:
        found = await held(db, ctx.place.guild, name)
        if found.status != store.SIGNUP:
            raise IllegalAction(f"sign-up for {found.name} is closed already")
        entrants = await store.entrants(db, found.id)
        settings = TournamentSettings.from_json(found.settings)
        if len(entrants) < settings.min_players:
            raise IllegalAction(f"{found.name} needs at least {settings.min_players} entrants")
        await store.set_status(db, found.id, store.CLOSED)
    return Replies(
        public=Message(
            f"Sign-up for **{found.name}** is closed: {plural(len(entrants), 'entrant')}. "
            f"An organiser seats the first heat with `tournament heat {found.name}`."
        )
    )


async def heat(ctx: Context, args: Args) -> Replies:
    """Seat the next heat: tables as even as possible, the best players apart, repeat
    opponents few; the tables then open one by one (:mod:`bot.competition.tables`)."""
    _organiser(ctx, "seat a heat")
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.transaction() as db:
        found = await held(db, ctx.place.guild, name)
        settings = TournamentSettings.from_json(found.settings)
        if found.status == store.SIGNUP:
            raise IllegalAction(f"close sign-up first: `tournament close {found.name}`")
        if found.status == store.OVER:
            raise IllegalAction(f"{found.name} is over")
        if settings.format == BRACKET:
            raise IllegalAction("a bracket is seated round by round with `tournament advance`")
        tables = await store.tables(db, found.id)
        if any(t.status != store.DONE for t in tables):
            raise IllegalAction("the heat under way is not over yet: see `tournament status`")
        number_ = max((t.heat for t in tables), default=0) + 1
        if number_ > settings.heats:
            raise IllegalAction(
                f"{found.name} has played its {plural(settings.heats, 'heat')}: "
                f"`tournament advance {found.name}` seats those who advance"
            )
        ranked = await ranked_entrants(db, found)
        history = [tuple(str(u) for u in t.players) for t in tables]
        try:
            seating = seat_heat(
                [str(e.user) for e in ranked],
                settings.min_players,
                settings.max_players,
                history,
                seed=found.seed + number_,
            )
        except TournamentError as exc:
            raise IllegalAction(str(exc)) from exc
        seated = [tuple(int(p) for p in table) for table in seating.tables]
        await store.add_tables(db, found.id, number_, seated)
        await store.log(
            db, found.id, f"heat {number_} seated: {seating.sizes}, draws {list(seating.draws)}"
        )
    names = {e.user: e.name for e in ranked}
    lines = [
        f"Heat {number_} of **{found.name}**: {plural(len(seated), 'table')} "
        f"({'-'.join(map(str, seating.sizes))}), opening now."
    ]
    lines += [
        f"Table {i}: " + ", ".join(names.get(u, str(u)) for u in table)
        for i, table in enumerate(seated, start=1)
    ]
    if seating.repeats:
        meet = "meets" if seating.repeats == 1 else "meet"
        pairs = plural(seating.repeats, "pair")
        lines.append(f"({pairs} {meet} again: no seating avoided it.)")
    return Replies(public=Message("\n".join(lines)))


async def standings(ctx: Context, args: Args) -> Replies:
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.reading() as db:
        found = await _named(db, ctx, name)
        table = await tournament_standings(db, found)
        names = {str(e.user): e.name for e in await store.entrants(db, found.id)}
        tables = await store.tables(db, found.id)
    if not table.rows:
        return Replies.answer(f"No game of {found.name} has finished yet.")
    settings = TournamentSettings.from_json(found.settings)
    where = progress(settings, tables)
    head = f"**{found.name}** standings ({settings.scheme.value})" + (
        f" — {where}:" if where else ":"
    )
    picture = await standings_picture(found.name, table, names, where)
    files = (picture,) if picture is not None else ()
    text = standings_text(table, names, budget=MAX_TEXT - len(head) - 1)
    return Replies(ephemeral=Message(f"{head}\n{text}", attachments=files))


async def ratings(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The server's leaderboard (``ratings``)."""
    args.finish()
    async with ctx.db.reading() as db:
        rated = await server_ratings(db, ctx.place.guild)
        names = await rankable(db, [int(p) for p in rated])
    text = f"Ratings (mu − 3σ, openskill):\n{ratings_text(rated, names)}"
    if not rated:
        return Replies.answer(text)
    picture = await ratings_picture(rated, names)
    files = (picture,) if picture is not None else ()
    return Replies(ephemeral=Message(text, attachments=files))


async def rating(ctx: Context, game: Game | None, args: Args) -> Replies:
    """One player's rating, record and reliability in this server (``rating [@user]``)."""
    who = user(args.take("@user")) if args.peek() is not None else ctx.caller.user
    args.finish()
    guild = ctx.place.guild
    async with ctx.db.reading() as db:
        rated = await server_ratings(db, guild)
        record = await player_record(db, guild, who)
        kept = reliability(await games_played(db, guild, who), await answers(db, guild, who))
    mine = rated.get(str(who))
    yours = who == ctx.caller.user
    whose = "Your" if yours else f"<@{who}>'s"
    punctual = reliability_text(kept, "you" if yours else "them")
    if mine is None or not record.games:
        return Replies.answer(f"{whose} record: no rated game finished here yet.\n{punctual}")
    board = [r.player for r in leaderboard(rated)]
    places = ", ".join(f"{n} × {_nth(p)}" for p, n in sorted(record.places.items()))
    return Replies.answer(
        f"{whose} rating: {mine.ordinal:.2f} (μ {mine.mu:.2f}, σ {mine.sigma:.2f}), "
        f"#{board.index(str(who)) + 1} of {len(board)} here.\n"
        f"{plural(record.games, 'rated game')}: {places}; "
        f"{plural(record.titan_kills, 'Titan')} slain.\n{punctual}"
    )


def _nth(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _clean(name: str) -> str:
    return clean(name) or "player"


SUBCOMMANDS: dict[str, Handler] = {
    "create": create,
    "join": join,
    "leave": leave,
    "add": add,
    "close": close,
    "heat": heat,
    "advance": advance,
    "standings": standings,
    "status": desk.status,
    "remind": desk.remind,
    "extend": desk.extend,
    "force": desk.force,
    "pause": desk.pause,
    "resume": desk.resume,
    "eliminator": desk.eliminator,
    "archive": archive,
}
