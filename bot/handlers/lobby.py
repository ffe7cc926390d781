"""The lobby: open a game in a channel, join, leave, add seats (AI seats too), start, cancel.

Seats are numbered in joining order; they become the engine's seats at the start, when
the seed is drawn and stored with the initial snapshot. A lobby left without a human
seat closes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.context import Context
from bot.handlers.play import replies_after
from bot.names import clean, display, player_name, same_name
from bot.replies import Message, Replies
from bot.storage import SeatRow, Status
from bot.storage import games as rows
from bot.storage.record import MAX_PLAYERS, MIN_PLAYERS, Game, Settings, encode_state, initial_state
from bot.syntax import Args
from bot.syntax import words as w
from bot.syntax.words import number
from engine.errors import IllegalAction, InvalidNotation

LobbyHandler = Callable[[Context, Game | None, Args], Awaitable[Replies]]


def _open_lobby(game: Game | None) -> Game:
    if game is None:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    if game.row.status is not Status.LOBBY:
        raise IllegalAction("the game has started already")
    return game


def _require_host(ctx: Context, game: Game) -> None:
    if not (ctx.caller.organiser or game.settings.host == ctx.caller.user):
        host = next((s.name for s in game.seats if s.user == game.settings.host), "the host")
        raise IllegalAction(f"only the host ({host}) or an organiser may do that")


def _check_name(game: Game, name: str) -> str:
    """``name`` as a player name (:func:`bot.names.player_name`) that reads unlike every
    seated player's; raises :class:`InvalidNotation` or :class:`IllegalAction`."""
    name = player_name(name)
    twin = next((s.name for s in game.seats if same_name(s.name, name)), None)
    if twin is not None:
        alike = "" if twin == name else f" ({twin!r} reads the same)"
        raise IllegalAction(f"the name {name!r} is taken{alike}: join with another, `join NAME`")
    return name


def _free_name(game: Game, stem: str, first: int = 1) -> str:
    """The first of ``stem first``, ``stem first+1``, … that reads unlike every seated
    player's name (a default name, never refused as taken)."""
    return next(
        name
        for k in range(first, first + MAX_PLAYERS + 1)
        if not any(same_name(s.name, name := f"{stem} {k}") for s in game.seats)
    )


async def new(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Open a game (the caller is the host and takes the first seat)."""
    if game is not None:
        raise IllegalAction("a game is open in this channel already: `join` it or `cancel` it")
    players = MAX_PLAYERS
    record_keeping = time_limit = False
    while (word := args.keyword("players", "record_keeping", "time_limit")) is not None:
        if word == "players":
            players = number(args.take("the number of players"), "number of players")
        record_keeping |= word == "record_keeping"
        time_limit |= word == "time_limit"
    args.finish()
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(f"TITAN is for 2 to 6 players, not {players} (RULES §1.6)")
    settings = Settings(ctx.caller.user, players, record_keeping, time_limit)
    name = clean(ctx.caller.name) or "Player 1"
    async with ctx.db.transaction() as db:
        game_id = await rows.create_game(db, ctx.place.channel, ctx.place.guild, settings.to_json())
        await rows.set_seats(db, game_id, [SeatRow(0, ctx.caller.user, name)])
    text = (
        f"**{name}** opened game #{game_id} of TITAN for up to {players} players "
        f"(record keeping {'on' if record_keeping else 'off'}, "
        f"{'with' if time_limit else 'no'} time limit). Type `join` to take a seat; "
        "the host starts with `start`."
    )
    return Replies(public=Message(text))


async def _save_seats(ctx: Context, game: Game, seats: list[SeatRow], settings: Settings) -> None:
    seats = [replace(s, seat=i) for i, s in enumerate(seats)]
    async with ctx.db.transaction() as db:
        await rows.set_seats(db, game.id, seats)
        await rows.update_game(db, game.id, Status.LOBBY, settings=settings.to_json())


async def join(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Take a seat (``join NAME`` picks the name shown in the game)."""
    lobby = _open_lobby(game)
    words = args.until(())
    seat = len(lobby.seats) + 1
    name = " ".join(words) or clean(ctx.caller.name) or _free_name(lobby, "Player", seat)
    return await _seat(ctx, lobby, ctx.caller.user, name)


async def add(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host seats another user: ``add <@id> NAME``."""
    lobby = _open_lobby(game)
    _require_host(ctx, lobby)
    try:
        user = w.user(args.take("the user to add"))
    except InvalidNotation as exc:
        raise InvalidNotation(f"add: {exc}") from None
    name = " ".join(args.until(())) or _free_name(lobby, "Player", len(lobby.seats) + 1)
    return await _seat(ctx, lobby, user, name)


async def add_ai(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host seats an AI player: ``addai [NAME]`` (it plays through ``choose_action``)."""
    lobby = _open_lobby(game)
    _require_host(ctx, lobby)
    taken = {s.user for s in lobby.seats}
    user = next(rows.ai_user(k) for k in range(1, MAX_PLAYERS + 2) if rows.ai_user(k) not in taken)
    return await _seat(ctx, lobby, user, " ".join(args.until(())) or _free_name(lobby, "Bot"))


async def _seat(ctx: Context, lobby: Game, user: int, name: str) -> Replies:
    if lobby.seat_of(user) is not None:
        raise IllegalAction("that user has a seat already")
    settings = lobby.settings
    if len(lobby.seats) >= settings.players:
        raise IllegalAction(f"the game is full ({settings.players} players)")
    name = _check_name(lobby, name)
    seat = SeatRow(len(lobby.seats), user, name)
    seats = [*lobby.seats, seat]
    await _save_seats(ctx, lobby, seats, settings)
    who = f"**{name}** (AI)" if seat.is_ai else f"**{name}**"
    return Replies(public=Message(f"{who} takes seat {len(seats)} of {settings.players}."))


async def leave(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Give up a seat before the start; the host's role passes on, an empty lobby closes."""
    args.finish()
    lobby = _open_lobby(game)
    seat = lobby.seat_of(ctx.caller.user)
    if seat is None:
        raise IllegalAction("you have no seat in this game")
    seats = [s for s in lobby.seats if s.seat != seat]
    name = lobby.name_of(seat)
    humans = [s for s in seats if not s.is_ai]
    if not humans:
        async with ctx.db.transaction() as db:
            await rows.update_game(db, lobby.id, Status.CANCELLED)
        return Replies(public=Message(f"**{name}** left; the game without players is closed."))
    settings = lobby.settings
    if settings.host == ctx.caller.user:
        settings = replace(settings, host=humans[0].user)
    await _save_seats(ctx, lobby, seats, settings)
    host = next(s.name for s in seats if s.user == settings.host)
    return Replies(public=Message(f"**{name}** left the game. The host is {host}."))


async def start(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Draw the seed, create the engine's game and store its first snapshot."""
    args.finish()
    lobby = _open_lobby(game)
    _require_host(ctx, lobby)
    if len(lobby.seats) < MIN_PLAYERS:
        raise IllegalAction("a game needs at least 2 players: others type `join`")
    seed = ctx.seeds()
    row = replace(lobby.row, status=Status.ACTIVE, seed=seed)
    state, events = initial_state(row, lobby.seats)
    async with ctx.db.transaction() as db:
        await rows.update_game(db, lobby.id, Status.ACTIVE, seed=seed)
        await rows.save_snapshot(db, lobby.id, 0, encode_state(state))
    started = Game(row, lobby.seats, state, 0)
    replies = replies_after(started, None, None, None, events)
    assert replies.public is not None
    head = f"Game #{lobby.id} begins: " + ", ".join(s.name for s in lobby.seats) + "."
    return replace(replies, public=replace(replies.public, text=f"{head}\n{replies.public.text}"))


async def cancel(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host (or an organiser) cancels the channel's game, started or not."""
    args.finish()
    if game is None:
        raise IllegalAction("there is no game in this channel")
    _require_host(ctx, game)
    async with ctx.db.transaction() as db:
        await rows.update_game(db, game.id, Status.CANCELLED)
    who = display(ctx.caller.name, "the host")
    return Replies(public=Message(f"Game #{game.id} was cancelled by {who}."))


LOBBY: dict[str, LobbyHandler] = {
    "new": new,
    "join": join,
    "add": add,
    "addai": add_ai,
    "leave": leave,
    "start": start,
    "cancel": cancel,
}
