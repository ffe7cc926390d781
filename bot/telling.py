"""What a stored change tells, queued in its own transaction: the channel's news with the
board's choices of the decision the game now waits for, the DMs (copied to stand-ins), the
caller's answer; the decision's clock planned; a game that ended forgotten by the clock,
its tournament told, its record sealed.
"""

from __future__ import annotations

from dataclasses import replace

from bot.competition.results import game_ended
from bot.context import Caller, Place
from bot.handlers.autostrike import made_at_once
from bot.narration.heading import WAITING
from bot.offers import Offers, public_offers
from bot.offers.board import lobby_offers
from bot.offers.model import Choices
from bot.outbox.writer import Told, write
from bot.ports import GameHost
from bot.records.seal import record_digest, sealed
from bot.replies import PictureKind, Replies
from bot.schedule.planner import plan
from bot.schedule.standins import with_standin_copies
from bot.storage import due, readers
from bot.storage import games as rows
from bot.storage.connection import WorkUnit
from bot.storage.record import Game, load_open_game
from engine.game.legal import to_act


async def told(
    host: GameHost,
    unit: WorkUnit,
    place: Place,
    caller: Caller,
    replies: Replies,
    reply_to: str | None,
    before: Game | None,
) -> Replies:
    """Queue in the outbox what ``replies`` tell, the board's choices on the news (the
    decision the game now waits for); the replies, marked stored."""
    channel = place.channel
    now = host.games.kept(channel)
    if now is not None and now.row.revision != await rows.revision(unit.connection, now.id):
        now = None  # changed by the unit in a way the cached game does not show
    if now is None:
        now = await load_open_game(unit, channel)
    if now is not None:
        host.games.remember(channel, now)
    if now is not None:
        by_timeout = caller.cause is not None
        actor = caller.seat_in(now) if not caller.on_behalf and now.state is not None else None
        await plan(unit.connection, now, host.wall_clock.now(), by_timeout=by_timeout, actor=actor)
    elif before is not None:  # over or cancelled: nothing of it falls due any more
        await due.forget(unit.connection, before.id)
        ended = await game_ended(unit.connection, before.id)
        replies = replace(replies, elsewhere=(*replies.elsewhere, *ended))
        replies = sealed(replies, await record_digest(unit.connection, before.id))
    if replies.public is not None and now is not None and now.state is not None:
        made = await made_at_once(unit.connection, now)
        offers = Offers.of(now.id, now.n, _board(now, made))
        replies = replace(replies, public=replace(replies.public, offers=offers))
        if made is not None:  # nothing for them to do: they are not called for it
            replies = _made_at_once(replies, now.user_of(made))
    elif replies.public is not None and now is not None and replies.public.offers is None:
        seated = lobby_offers(len(now.seats), now.settings.players)
        offers = Offers.of(now.id, now.n, seated)
        replies = replace(replies, public=replace(replies.public, offers=offers))
    game = now if now is not None else before
    if replies.private and game is not None and game.state is not None:
        standins = await due.standins_of(unit.connection, replies.private, host.wall_clock.now())
        read = await readers.readers(unit.connection, game.id) if standins else frozenset()
        replies = with_standin_copies(replies, game, standins, read)
    version = now.n if now is not None and now.state is not None else None
    if version is None and before is not None and _final_card(replies):
        version = await rows.action_count(unit.connection, before.id)  # drawn at its end
    told = Told(place, caller, game.id if game else None, version, reply_to)
    count = await write(unit.connection, told, replies)
    return replace(replies, stored=count > 0)


def _board(game: Game, made: int | None) -> Choices:
    """The board's choices on the channel's news: none while the game waits for a
    computer's seat, or for a decision a person's choices make (``made``, the seat; see
    :mod:`bot.handlers.autostrike`): nobody may click for it, it is made at once."""
    assert game.state is not None
    seat = to_act(game.state)
    if seat is not None and (game.is_ai(seat) or seat == made):
        return Choices()
    return public_offers(game.state)


def _made_at_once(replies: Replies, user: int) -> Replies:
    """``replies`` whose news hands ``user`` a decision their choices make at once: it
    neither pings them nor says the game waits for them (the decision's own news, a
    moment later, says what the game waits for then)."""
    public = replies.public
    if public is None:
        return replies
    lines = public.text.split("\n")
    if len(lines) > 1 and lines[-1].startswith(WAITING):
        lines = lines[:-1]
    mention = tuple(u for u in public.mention if u != user)
    return replace(replies, public=replace(public, text="\n".join(lines), mention=mention))


def _final_card(replies: Replies) -> bool:
    """Whether the channel's news is a game's end with its final card to draw."""
    shown = replies.public.picture if replies.public is not None else None
    return shown is not None and shown.kind is PictureKind.FINAL
