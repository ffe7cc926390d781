"""Time away: ``away until DATE [standin ai|@user]``, or ``away off``.

While a player is away their clocks stop (up to the days each game's clock allows), or
the computer plays for them, or a user they name does (:mod:`bot.schedule.standins`).
Every active game of theirs is told who is away until when, and who stands in — never why.
"""

from __future__ import annotations

from bot.context import Context
from bot.replies import Message, Notice, Replies
from bot.schedule.options import parse_moment
from bot.schedule.planner import STANDIN_AI
from bot.schedule.standins import standin_applies
from bot.storage import Status, due, listing, readers
from bot.storage.record import MOST_AWAY_DAYS, Game, load_game
from bot.syntax import Args
from bot.syntax.words import user as user_word
from engine.errors import InvalidNotation
from engine.words import plural

MOST_AWAY = MOST_AWAY_DAYS * 86400


async def away(ctx: Context, game: Game | None, args: Args) -> Replies:
    """``away until 2026-12-20 [standin ai|@user]``, or ``away off`` (back)."""
    now = ctx.now()
    word = args.take("until DATE, or off").lower()
    if word in ("off", "back"):
        args.finish()
        return await _back(ctx)
    if word != "until":
        raise InvalidNotation(f"away: until DATE, or off; not {word!r}")
    until = parse_moment(args.take("the date you are back"), now)
    standin, standin_user = None, None
    if args.keyword("standin") is not None:
        chosen = args.take("ai or @someone")
        if chosen.lower() == STANDIN_AI:
            standin = STANDIN_AI
        else:
            standin_user = user_word(chosen)
            if standin_user == ctx.caller.user:
                raise InvalidNotation("away: your stand-in is someone else (or ai)")
    args.finish()
    if until - now > MOST_AWAY:
        raise InvalidNotation("away: at most 90 days; an organiser can give your seats away")
    me = ctx.caller.user
    async with ctx.db.transaction() as db:
        await due.set_away(db, me, due.Away(now, until, standin, standin_user))
        if standin is not None:  # the computer takes over the decisions waiting for them
            for game_id, seat, decision in await due.awaiting(db, me):
                await due.add(db, game_id, due.DEADLINE, now, seat, decision)
        games = await _active_games(ctx, me)
    read = await _read_by(ctx, standin_user, games)
    back = f"<t:{int(until)}:f>"
    notices: list[Notice] = []
    shared: list[str] = []
    exported: list[str] = []
    for each in games:
        name = each.name_of(each.seat_of(me) or 0)
        line = f"🏖 **{name}** is away until {back}"
        if standin is not None:
            line += ": the computer plays for them."
        elif standin_applies(each, standin_user, read.get(each.id, ())):
            line += f": <@{standin_user}> stands in for them."
        else:
            line += _clocks(each, now, until, standin_user is not None)
            if standin_user is not None:
                where = exported if each.id in read else shared
                where.append(f"game #{each.id} (<#{each.row.channel}>)")
        notices.append(Notice(each.row.channel, each.id, Message(line)))
    return Replies(
        ephemeral=Message(_answer(back, standin, standin_user, shared, exported)),
        private=_standin_told(me, ctx.caller.name, back, standin_user, games, read),
        elsewhere=tuple(notices),
    )


def _clocks(game: Game, now: float, until: float, said: bool) -> str:
    """What a player's time away does to ``game``'s clocks, where nobody stands in (how
    a line of news ends; ``said``: say it even when they simply stop)."""
    days = game.settings.timing.away_days
    if days == 0:
        return ": their clocks run on (this game allows no time away)."
    if until - now > days * 86400:
        return f": their clocks stop for {plural(days, 'day')} at most (as this game allows)."
    return ": their clocks stop." if said else "."


async def _back(ctx: Context) -> Replies:
    me = ctx.caller.user
    async with ctx.db.transaction() as db:
        was = await due.away(db, me, ctx.now())
        await due.set_away(db, me, None)
        games = await _active_games(ctx, me) if was is not None else []
    notices = tuple(
        Notice(g.row.channel, g.id, Message(f"👋 **{g.name_of(g.seat_of(me) or 0)}** is back."))
        for g in games
    )
    return Replies(ephemeral=Message("Welcome back: your clocks run again."), elsewhere=notices)


async def _active_games(ctx: Context, user: int) -> list[Game]:
    """The games being played with ``user`` in a seat, in every channel and server."""
    found = []
    async with ctx.db.reading() as db:
        for row in await listing.games_of(db, user):
            if row.status is Status.ACTIVE:
                found.append(await load_game(db, row))
    return found


def _answer(
    back: str,
    standin: str | None,
    standin_user: int | None,
    shared: list[str],
    exported: list[str],
) -> str:
    if standin is not None:
        doing = "the computer plays for you until then"
    elif standin_user is not None:
        doing = f"<@{standin_user}> plays for you until then"
    else:
        doing = "your clocks stop until then (as long as each game allows)"
    text = f"You are away until {back}: {doing}."
    if shared:
        text += (
            f"\n<@{standin_user}> plays in {', '.join(shared)} too, so cannot stand in "
            "there: your clocks stop in those games instead."
        )
    if exported:
        text += (
            f"\n<@{standin_user}> exported {', '.join(exported)} while it was being played "
            "(the export holds its dice's seed), so cannot stand in there: your clocks stop "
            "there instead."
        )
    return text


async def _read_by(
    ctx: Context, standin: int | None, games: list[Game]
) -> dict[int, frozenset[int]]:
    """game → {``standin``} for the games whose secrets the stand-in has read."""
    if standin is None:
        return {}
    async with ctx.db.reading() as db:
        read = await readers.read_by(db, standin, [g.id for g in games])
    return {game: frozenset({standin}) for game in read}


def _standin_told(
    me: int,
    name: str,
    back: str,
    standin_user: int | None,
    games: list[Game],
    read: dict[int, frozenset[int]],
) -> dict[int, Message]:
    """The named stand-in's notice of the games they now play for ``me``."""
    theirs = [g for g in games if standin_applies(g, standin_user, read.get(g.id, ()))]
    if standin_user is None or not theirs:
        return {}
    where = ", ".join(f"game #{g.id} (<#{g.row.channel}>)" for g in theirs)
    return {
        standin_user: Message(
            f"🏖 **{name}** is away until {back} and named you their stand-in in {where}: "
            "your commands there play their seat, and you get their private news until "
            "they are back."
        )
    }
