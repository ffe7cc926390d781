"""The organiser's tools that change a table's game: ``tournament adjudicate`` and
``tournament replace``.

They run through the service rather than in the tournament command's own transaction:
each change of a table's game is made under that table's channel lock, with what it
tells (the table's channel, the tournament's channel) in the same transaction
(:meth:`~bot.service.GameHost.change`); the organiser is answered where they asked.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.competition.common import named, organiser, playing_table
from bot.competition.results import ordinal, record_ruling
from bot.context import Caller, Context, Place
from bot.handlers.handover import hand_over
from bot.handlers.secrets import refuse_reader
from bot.names import display
from bot.ports import GameHost
from bot.records.proof import reveal_line, scheme_of
from bot.replies import Message, Notice, Replies
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game
from bot.syntax import Args
from bot.syntax.words import user
from bot.tournament.errors import TournamentError
from bot.tournament.places import GameResult, result_of, ruled_result
from engine.errors import IllegalAction, InvalidNotation
from engine.game.state import Result

Tool = Callable[["GameHost", Place, Caller, Args], Awaitable[Replies]]
_PLACED = re.compile(r"(.+)=(\d{1,2})")
SCORE, RULING = "score", "ruling"


async def adjudicate(service: GameHost, place: Place, caller: Caller, args: Args) -> Replies:
    """``tournament adjudicate NAME HEAT.TABLE score REASON…`` — the game ends now, ranked
    as a time limit ranks it (RULES §12.6: the players still in by score, ties sharing,
    the eliminated below); ``… ruling @a=1 @b=2 … REASON…`` — the organiser's places
    for every seat. The result counts (stored, rated); the reason is logged and told."""
    args.take("adjudicate")
    organiser(caller, "adjudicate a table")
    name = args.take("the tournament's name")
    where = args.take("the table, like 2.3")
    how = args.take("score or ruling").lower()
    if how not in (SCORE, RULING):
        raise InvalidNotation(f"adjudicate by `score` or by `ruling`, not {how!r}")
    places: dict[int, int] = {}
    while how == RULING and (word := args.peek()) is not None and _PLACED.fullmatch(word):
        found = _PLACED.fullmatch(args.take("@user=PLACE"))
        assert found is not None
        places[user(found.group(1))] = int(found.group(2))
    reason = " ".join(args.until(()))
    if not reason:
        raise InvalidNotation("adjudicate: say why (the reason is logged and told)")
    async with service.db.reading() as db:
        tournament = await named(db, place.guild, name)
        table = await playing_table(db, tournament, where)
    assert table.channel is not None
    by = display(caller.name)

    async def work(ctx: Context, game: Game | None) -> Replies:
        if game is None or game.id != table.game or game.state is None:
            raise IllegalAction(f"table {table.label}'s game is not being played")
        result = await _ruled(ctx, game, places) if how == RULING else await _scored(ctx, game)
        async with ctx.db.transaction() as db:
            told = await record_ruling(db, game, result, reason, by)
        service.forget(ctx.place.channel)
        kind = "by score" if how == SCORE else "a ruling"
        ranked = ", ".join(
            f"{ordinal(p.place)} {game.name_of(game.seat_of(int(p.player)) or 0)}"
            for p in sorted(result.places, key=lambda p: p.place)
        )
        lines = [f"⚖️ Organiser **{by}** adjudicated this game ({kind}): {ranked}."]
        lines.append(f"Reason: {reason}")
        revealed = reveal_line(
            game.row.seed, game.row.salt, scheme_of(game.row.pledge, game.row.salt)
        )
        if revealed is not None:  # the game is over: its dice may be checked
            lines.append(revealed)
        return Replies(public=Message("\n".join(lines)), elsewhere=told)

    replies = await service.change(Place(table.channel, place.guild), caller, work)
    if replies.error:
        return replies
    return Replies.answer(f"Table {table.label} of {tournament.name} is adjudicated.")


async def _scored(ctx: Context, game: Game) -> GameResult:
    """The game as a time limit ending now would rank it (RULES §12.6)."""
    assert game.state is not None
    async with ctx.db.reading() as db:
        events = [events_from_text(entry.events) for entry in await rows.actions(db, game.id)]
    ended = replace(game.state, result=Result((), "time limit"))
    players = [str(game.user_of(s.seat)) for s in game.seats]
    return result_of(ended, events, players=players)


async def _ruled(ctx: Context, game: Game, places: dict[int, int]) -> GameResult:
    """The organiser's places, one for every seat."""
    assert game.state is not None
    seated = {game.user_of(s.seat) for s in game.seats}
    if set(places) != seated:
        missing = " ".join(f"<@{u}>" for u in sorted(seated - set(places)))
        strays = " ".join(f"<@{u}>" for u in sorted(set(places) - seated))
        raise IllegalAction(
            "a ruling places every player of the table"
            + (f"; missing: {missing}" if missing else "")
            + (f"; not at the table: {strays}" if strays else "")
        )
    ordered = {str(game.user_of(s.seat)): places[game.user_of(s.seat)] for s in game.seats}
    scores = {str(game.user_of(p.seat)): p.score for p in game.state.players}
    try:
        return ruled_result(ordered, scores=scores)
    except TournamentError as exc:
        raise IllegalAction(str(exc)) from exc


async def replace_entrant(service: GameHost, place: Place, caller: Caller, args: Args) -> Replies:
    """``tournament replace NAME @old @new``: ``new`` takes ``old``'s place among the
    entrants, at the tables still to open, and in the seat of their table's game under
    way. The results ``old`` has played keep their name.

    What is read first only finds the table (and refuses early); the decision is taken
    again with the tournament's row held, in the transaction that makes the change, so
    of concurrent replacements (or a sign-up) bringing in one newcomer one wins and the
    others are refused."""
    args.take("replace")
    organiser(caller, "replace a player")
    name = args.take("the tournament's name")
    old, new = user(args.take("@old")), user(args.take("@new"))
    args.finish()
    async with service.db.reading() as db:
        tournament = await named(db, place.guild, name)
        _check_replacement(tournament, await store.entrants(db, tournament.id), old, new)
        tables = await store.tables(db, tournament.id)
    by = display(caller.name)
    text = f"Organiser **{by}** replaced <@{old}> with <@{new}> in **{tournament.name}**."
    playing = next(
        (t for t in tables if t.status == store.PLAYING and old in t.players and t.channel),
        None,
    )

    async def entrant(ctx: Context, game: Game | None) -> None:
        async with ctx.db.transaction() as db:
            await store.hold(db, tournament.id)
            held = await store.by_id(db, tournament.id)
            assert held is not None
            _check_replacement(held, await store.entrants(db, held.id), old, new)
            now = await store.tables(db, held.id)
            if game is not None:
                await refuse_reader(db, game.id, new)
            elif any(t.status == store.PLAYING and old in t.players and t.channel for t in now):
                raise IllegalAction(f"<@{old}>'s table opened meanwhile: try again")
            await store.replace_entrant(db, held.id, old, new, f"<@{new}>")
            for table in now:
                if old in table.players and table.status != store.DONE:
                    players = tuple(new if u == old else u for u in table.players)
                    await store.set_players(db, held.id, table.heat, table.number, players)
            await store.log(db, held.id, f"<@{old}> replaced by <@{new}> ({by})")

    if playing is None:
        return await service.change(
            place, caller, lambda ctx, game: _only_entrant(ctx, entrant, text)
        )
    assert playing.channel is not None

    async def work(ctx: Context, game: Game | None) -> Replies:
        if game is None or game.id != playing.game:
            raise IllegalAction(f"table {playing.label}'s game is not being played")
        await entrant(ctx, game)  # decided first: a refusal changes nothing
        replies = await hand_over(ctx, game, old, new, caller.name)
        service.forget(ctx.place.channel)
        notice = Notice(tournament.channel, game.id, Message(f"{text} (table {playing.label})"))
        return replace(replies, elsewhere=(notice,))

    replies = await service.change(Place(playing.channel, place.guild), caller, work)
    if replies.error:
        return replies
    return Replies.answer(f"<@{new}> now plays <@{old}>'s seat at table {playing.label}.")


def _check_replacement(
    tournament: store.TournamentRow, entrants: list[store.EntrantRow], old: int, new: int
) -> None:
    """Refuse a replacement the tournament's entrants rule out."""
    users = {e.user for e in entrants}
    if tournament.status == store.OVER:
        raise IllegalAction(f"{tournament.name} is over")
    if old not in users:
        raise IllegalAction(f"<@{old}> is not an entrant of {tournament.name}")
    if new in users:
        raise IllegalAction(f"<@{new}> is an entrant of {tournament.name} already")


async def _only_entrant(
    ctx: Context, entrant: Callable[[Context, Game | None], Awaitable[None]], text: str
) -> Replies:
    await entrant(ctx, None)
    return Replies(public=Message(text))


TABLE_TOOLS: dict[str, Tool] = {"adjudicate": adjudicate, "replace": replace_entrant}
"""The ``tournament`` subcommands run by the service itself (see the module)."""
