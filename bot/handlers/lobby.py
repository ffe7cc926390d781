"""The lobby: open a game in a channel, join, leave, invite, add AI seats, start, cancel.

Seats are numbered in joining order; they become the engine's seats at the start, when
the seed is drawn and stored with the initial snapshot. A lobby left without a human
seat closes. Nobody is seated by someone else: the host's ``add`` is an invitation that
only the invited user can accept (``invitation accept``, or ``join``); the invitation
names them without pinging them. AI seats need no consent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.competition.verbs import tournament
from bot.context import Context
from bot.handlers.away import away
from bot.handlers.clock import force, settings
from bot.handlers.play import replies_after
from bot.names import clean, display, player_name, same_name
from bot.offers import Offer, Offers, Style
from bot.records.proof import game_commitment, reveal_line, scheme_of, start_line, starting_pledge
from bot.replies import Message, Replies
from bot.schedule import options as clock
from bot.storage import GameRow, SeatRow, Status, due, listing
from bot.storage import games as rows
from bot.storage.record import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Game,
    Invitation,
    Settings,
    encode_state,
    initial_state,
)
from bot.syntax import Args
from bot.syntax import words as w
from bot.syntax.words import number, shown
from engine.ai.levels import Level, level_of
from engine.errors import IllegalAction, InvalidNotation
from engine.version import ENGINE_VERSION
from engine.words import plural

LobbyHandler = Callable[[Context, Game | None, Args], Awaitable[Replies]]


#: What each lobby command can do instead once the game has started.
_AFTER_THE_START = {
    "join": "its seats are taken; watch it with `status`, or open a new game in another channel",
    "add": "nobody can be invited now (an organiser may give a seat to someone else)",
    "invitation": "its invitations lapsed at the start; watch it with `status`",
    "addai": "no seat can be added now",
    "leave": "to leave it now, `withdraw` (you concede the whole game, RULES §12.4)",
    "start": "`status` shows where it stands",
}


def _open_lobby(game: Game | None, doing: str) -> Game:
    """The channel's game while it is a lobby; else a refusal saying what ``doing`` (a
    lobby command's verb) can do instead."""
    if game is None:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    if game.row.status is not Status.LOBBY:
        raise IllegalAction(f"game #{game.id} has started already: {_AFTER_THE_START[doing]}")
    return game


def _seated_already(ctx: Context, lobby: Game, user: int) -> IllegalAction:
    """The refusal of a seat to ``user``, who holds one: said to the caller about
    themselves, what they may do now."""
    seat = lobby.seat_of(user)
    assert seat is not None
    if user != ctx.caller.user:
        return IllegalAction(f"**{lobby.name_of(seat)}** has a seat in this game already")
    name = lobby.name_of(seat)
    if lobby.host == user:
        return IllegalAction(
            f"you have a seat already (as {name}), and you host the game: `start` it once "
            "the players are seated, or `leave` it"
        )
    return IllegalAction(
        f"you have a seat already (as {name}): wait for the host to `start` the game, or `leave` it"
    )


def _require_host(ctx: Context, game: Game) -> None:
    """Host powers follow the seat: only a host still seated (or an organiser) has them."""
    host = game.host
    if ctx.caller.organiser or (host is not None and host == ctx.caller.user):
        return
    seat = game.seat_of(host) if host is not None else None
    if seat is None:
        raise IllegalAction("only an organiser may do that: the game has no host any more")
    raise IllegalAction(f"only the host ({game.name_of(seat)}) or an organiser may do that")


_JOIN_ANOTHER = "join with another, `join NAME`"


def _check_name(
    game: Game, name: str, user: int | None = None, instead: str = _JOIN_ANOTHER
) -> str:
    """``name`` as a player name (:func:`bot.names.player_name`) that reads unlike every
    seated player's and every name an invitation holds for another user; raises
    :class:`InvalidNotation` or :class:`IllegalAction` (saying ``instead``, what to do
    instead)."""
    name = player_name(name)
    twin = next((taken for taken in _taken(game, user) if same_name(taken, name)), None)
    if twin is not None:
        alike = "" if twin == name else f" ({twin!r} reads the same)"
        raise IllegalAction(f"the name {name!r} is taken{alike}: {instead}")
    return name


def _taken(game: Game, user: int | None = None) -> list[str]:
    """The names of the seats and of the invitations to users other than ``user``."""
    held = [i.name for i in game.settings.invited if i.user != user]
    return [*(s.name for s in game.seats), *held]


def _free_name(game: Game, stem: str, first: int = 1) -> str:
    """The first of ``stem first``, ``stem first+1``, … that reads unlike every name taken
    (a default name, never refused as taken)."""
    taken = _taken(game)
    return next(
        name
        for k in range(first, first + MAX_PLAYERS + 1)
        if not any(same_name(other, name := f"{stem} {k}") for other in taken)
    )


async def _check_open_games(ctx: Context, doing: str, *, server: bool = False) -> None:
    """Refuse when the caller sits in as many open games as the operator allows (organisers
    are exempt), or, with ``server``, when their server holds as many. Call it holding
    ``ctx.seating``, up to the seat being stored."""
    limits = ctx.limits
    most_mine, most_here = limits.open_games_per_user, limits.open_games_per_server
    guild = ctx.place.guild if server else None
    async with ctx.db.reading() as db:
        if most_mine is not None and not ctx.caller.organiser:
            mine = await listing.count_open_games_of(db, ctx.caller.user)
            if mine >= most_mine:
                raise IllegalAction(
                    f"you have a seat in {plural(mine, 'open game')}, the most this bot "
                    f"allows ({most_mine}): finish or leave one before {doing} another"
                )
        if most_here is not None and guild is not None:
            here = await listing.count_open_games_in(db, guild)
            if here >= most_here:
                raise IllegalAction(
                    f"this server has {plural(here, 'open game')}, the most this bot allows "
                    f"({most_here}): finish or cancel one before {doing} another"
                )


async def new(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Open a game (the caller is the host and takes the first seat)."""
    if game is not None:
        raise IllegalAction(_open_already(ctx, game))
    players = MAX_PLAYERS
    record_keeping = time_limit = False
    timing = ctx.timing
    rated = True
    keywords = (
        "players",
        "record_keeping",
        "time_limit",
        "deadline",
        "timeout",
        "standin",
        "inactivity",
        "unrated",
    )
    while (word := args.keyword(*keywords)) is not None:
        if word == "players":
            players = number(args.take("the number of players"), "number of players")
        elif word == "deadline":
            timing = clock.with_deadline(timing, args.take("the deadline (like `24h`)"))
        elif word == "timeout":
            timing = clock.with_policy(timing, args.take("what a passed deadline does"))
        elif word == "standin":
            timing = clock.with_stand_in(timing, args.take("the computer's level"))
        elif word == "inactivity":
            timing = replace(timing, inactivity=True)
        elif word == "time_limit" and clock.looks_like_date(args.peek()):
            ends = clock.parse_moment(args.take("the date"), ctx.now())
            timing = replace(timing, expires_at=ends)
        elif word == "time_limit" and (args.peek() or "").lower() == "agreed":
            args.take("agreed")  # ended when the players agree (`expire`)
        record_keeping |= word == "record_keeping"
        time_limit |= word == "time_limit"
        rated &= word != "unrated"
    args.finish()
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(f"TITAN is for 2 to 6 players, not {players} (RULES §1.6)")
    settings = Settings(
        ctx.caller.user, players, record_keeping, time_limit, timing=timing, rated=rated
    )
    name = clean(ctx.caller.name) or "Player 1"
    async with ctx.seating:
        await _check_open_games(ctx, "opening", server=True)
        async with ctx.db.transaction() as db:
            game_id = await rows.create_game(
                db, ctx.place.channel, ctx.place.guild, settings.to_json()
            )
            await rows.set_seats(db, game_id, [SeatRow(0, ctx.caller.user, name)])
    text = (
        f"**{name}** opened game #{game_id} of TITAN for up to {players} players "
        f"(record keeping {'on' if record_keeping else 'off'}, "
        f"{'with' if time_limit else 'no'} time limit, {clock.describe(timing)}"
        f"{', unrated' if not rated else ''}). "
        "Take a seat with `join`; "
        "the host starts the game with `start`."
    )
    return Replies(public=Message(text))


def _open_already(ctx: Context, game: Game) -> str:
    """Why ``new`` is refused where a game is open, and what to do instead."""
    if game.row.status is not Status.LOBBY:
        return (
            f"game #{game.id} is being played in this channel: `status` shows where it "
            "stands; open a new game in another channel"
        )
    here = f"game #{game.id} is open in this channel already"
    if game.seat_of(ctx.caller.user) is None:
        return f"{here}: `join` it, or open a new game in another channel"
    if game.host == ctx.caller.user:
        return f"{here}, and you host it: `start` it once the players are seated, or `cancel` it"
    return f"{here}, and you have a seat in it: wait for the host to `start` it"


async def _save_seats(ctx: Context, game: Game, seats: list[SeatRow], settings: Settings) -> None:
    seats = [replace(s, seat=i) for i, s in enumerate(seats)]
    async with ctx.db.transaction() as db:
        await rows.set_seats(db, game.id, seats)
        await rows.update_game(db, game.id, Status.LOBBY, settings=settings.to_json())


async def join(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Take a seat (``join NAME`` picks the name shown in the game; an invited user's
    default is the name of the invitation)."""
    if game is not None and game.state is not None and game.seat_of(ctx.caller.user) is not None:
        raise IllegalAction(
            f"you play in game #{game.id} already: `status` shows what it waits for"
        )
    lobby = _open_lobby(game, "join")
    words = args.until(())
    invited = lobby.settings.invitation(ctx.caller.user)
    seat = len(lobby.seats) + 1
    default = clean(ctx.caller.name) or _free_name(lobby, "Player", seat)
    name = " ".join(words) or (invited.name if invited is not None else default)
    async with ctx.seating:
        if lobby.seat_of(ctx.caller.user) is None:
            await _check_open_games(ctx, "joining")
        return await _seat(ctx, lobby, ctx.caller.user, name)


async def add(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host invites another user to a seat: ``add <@id> [NAME]``. They are seated only
    when they accept; the invitation names them without pinging them."""
    lobby = _open_lobby(game, "add")
    _require_host(ctx, lobby)
    try:
        user = w.user(args.take("the user to invite"))
    except InvalidNotation as exc:
        raise InvalidNotation(f"add: {exc}") from None
    default = _free_name(lobby, "Player", len(lobby.seats) + 1)
    instead = "invite them under another, `add USER NAME`"
    name = _check_name(lobby, " ".join(args.until(())) or default, user, instead)
    if lobby.seat_of(user) is not None:
        raise _seated_already(ctx, lobby, user)
    settings = lobby.settings
    if len(lobby.seats) >= settings.players:
        raise IllegalAction(_full(settings))
    invited = (*settings.without_invitation(user).invited, Invitation(user, name))
    await _save_seats(ctx, lobby, list(lobby.seats), replace(settings, invited=invited))
    text = (
        f"**{display(ctx.caller.name)}** invites <@{user}> to play as **{name}**. Only they can "
        "take the seat: the buttons below, or `join`."
    )
    choices = (
        Offer("Accept the seat", "invitation accept"),
        Offer("Refuse", "invitation refuse", Style.DANGER),
    )
    return Replies(public=Message(text, offers=Offers(lobby.id, lobby.n, choices)))


async def invitation(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The invited user accepts (takes the seat) or refuses an invitation."""
    answer = args.take("accept or refuse").lower()
    args.finish()
    if answer not in ("accept", "refuse"):
        raise InvalidNotation(f"invitation: accept or refuse, not {answer!r}")
    lobby = _open_lobby(game, "invitation")
    invited = lobby.settings.invitation(ctx.caller.user)
    if invited is None:
        raise IllegalAction("there is no invitation for you in this game (`join` takes a seat)")
    if answer == "accept":
        async with ctx.seating:
            await _check_open_games(ctx, "joining")
            return await _seat(ctx, lobby, ctx.caller.user, invited.name)
    settings = lobby.settings.without_invitation(ctx.caller.user)
    await _save_seats(ctx, lobby, list(lobby.seats), settings)
    return Replies(public=Message(f"**{invited.name}** declines the invitation."))


async def add_ai(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host seats an AI player: ``addai [NAME] [level easy|normal|hard]`` (it plays
    through ``choose_action`` at that level, :mod:`engine.ai.levels`)."""
    lobby = _open_lobby(game, "addai")
    _require_host(ctx, lobby)
    taken = {s.user for s in lobby.seats}
    user = next(rows.ai_user(k) for k in range(1, MAX_PLAYERS + 2) if rows.ai_user(k) not in taken)
    name = " ".join(args.until(("level",))) or _free_name(lobby, "Bot")
    level: Level | None = None
    if args.keyword("level"):
        word = args.take("a level (easy, normal or hard)")
        level = level_of(word)
        if level is None:
            raise IllegalAction(f"there is no level {shown(word)}: easy, normal or hard")
    args.finish()
    instead = "name it another way, `addai NAME`"
    return await _seat(ctx, lobby, user, name, instead, level=level)


async def _seat(
    ctx: Context,
    lobby: Game,
    user: int,
    name: str,
    instead: str = _JOIN_ANOTHER,
    *,
    level: Level | None = None,
) -> Replies:
    if lobby.seat_of(user) is not None:
        raise _seated_already(ctx, lobby, user)
    settings = lobby.settings
    if len(lobby.seats) >= settings.players:
        raise IllegalAction(_full(settings))
    name = _check_name(lobby, name, user, instead)
    seat = SeatRow(len(lobby.seats), user, name, level)
    seats = [*lobby.seats, seat]
    await _save_seats(ctx, lobby, seats, settings.without_invitation(user))
    who = f"**{name}** ({_ai_words(seat)})" if seat.is_ai else f"**{name}**"
    return Replies(public=Message(f"{who} takes seat {len(seats)} of {settings.players}."))


def _ai_words(seat: SeatRow) -> str:
    """``AI`` and the level it plays at: ``AI, hard``."""
    return f"AI, {seat.ai_level}"


def _full(settings: Settings) -> str:
    return (
        f"the game is full ({settings.players} players): watch it with `status`, or open "
        "a new game in another channel"
    )


async def leave(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Give up a seat before the start; the host's role passes on, an empty lobby closes."""
    args.finish()
    if game is not None and game.seat_of(ctx.caller.user) is None:
        raise IllegalAction("you have no seat in this game: there is nothing to leave")
    lobby = _open_lobby(game, "leave")
    seat = lobby.seat_of(ctx.caller.user)
    if seat is None:
        raise IllegalAction("you have no seat in this game: there is nothing to leave")
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
    lobby = _open_lobby(game, "start")
    _require_host(ctx, lobby)
    if len(lobby.seats) < MIN_PLAYERS:
        raise IllegalAction(
            "a game needs at least 2 players: others take a seat with `join`, or seat a "
            "computer player with `addai`"
        )
    seed, salt = ctx.seeds(), ctx.salts()
    settings = replace(lobby.settings, invited=())  # invitations not taken lapse
    where = (lobby.row.guild, lobby.row.channel)
    pledged = starting_pledge(
        lobby.id, where, rows.now(), lobby.seats, settings, (seed, salt, ENGINE_VERSION)
    )
    row = replace(
        lobby.row,
        status=Status.ACTIVE,
        seed=seed,
        salt=salt,
        settings=settings.to_json(),
        pledge=pledged,
    )
    state, events = initial_state(row, lobby.seats)
    async with ctx.db.transaction() as db:
        await rows.update_game(
            db, lobby.id, Status.ACTIVE, seed=seed, salt=salt, settings=row.settings, pledge=pledged
        )
        await rows.save_snapshot(db, lobby.id, 0, encode_state(state))
    started = Game(row, lobby.seats, state, 0)
    replies = replies_after(started, None, None, None, events)
    assert replies.public is not None
    head = f"Game #{lobby.id} begins: " + ", ".join(s.name for s in lobby.seats) + "."
    head += f"\n{start_line(game_commitment(pledged), ENGINE_VERSION)}"
    return replace(replies, public=replace(replies.public, text=f"{head}\n{replies.public.text}"))


async def cancel(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The host (or an organiser) cancels the channel's game, started or not.

    Without an open game it cancels the channel's damaged game; ``cancel GAME`` names a
    damaged game (a fresh game may be open meanwhile: a damaged one leaves its channel).
    The record of a cancelled game stays, for an export.
    """
    word = args.peek()
    wanted = number(args.take("game").lstrip("#"), "game number") if word is not None else None
    args.finish()
    if game is None or wanted not in (None, game.id):
        return await _cancel_damaged(ctx, wanted)
    _require_host(ctx, game)
    async with ctx.db.transaction() as db:
        await rows.update_game(db, game.id, Status.CANCELLED)
    who = display(ctx.caller.name, "the host")
    return Replies(public=Message(_ended(f"Game #{game.id} was cancelled by {who}.", game.row)))


def _ended(text: str, row: GameRow) -> str:
    """``text`` and, for a game that had started, its dice's seed and salt revealed."""
    revealed = reveal_line(row.seed, row.salt, scheme_of(row.pledge, row.salt))
    return text if revealed is None else f"{text}\n{revealed}"


async def _cancel_damaged(ctx: Context, wanted: int | None) -> Replies:
    channel = ctx.place.channel
    async with ctx.db.reading() as db:
        if wanted is None:
            row = await rows.damaged_game(db, channel)
        else:
            row = await rows.game(db, wanted)
        seats = tuple(await rows.seats(db, row.id)) if row is not None else ()
    if wanted is None and row is None:
        raise IllegalAction("there is no game in this channel: there is nothing to cancel")
    if row is None or row.channel != channel or not row.status.is_open or row.damaged is None:
        raise IllegalAction(
            f"game #{wanted} is not a damaged game of this channel (`cancel` alone cancels "
            "the channel's game)"
        )
    _require_host(ctx, Game(row, seats))
    async with ctx.db.transaction() as db:
        await rows.update_game(db, row.id, Status.CANCELLED)
        await due.forget(db, row.id)  # its clock stops: nothing of it falls due any more
    said = f"Game #{row.id} (damaged: {row.damaged}) was cancelled by {display(ctx.caller.name)}."
    return Replies(public=Message(said))  # its record cannot be read back: no reveal


LOBBY: dict[str, LobbyHandler] = {
    "new": new,
    "join": join,
    "add": add,
    "invitation": invitation,
    "addai": add_ai,
    "leave": leave,
    "start": start,
    "cancel": cancel,
    "settings": settings,
    "force": force,
    "away": away,
    "tournament": tournament,
}
