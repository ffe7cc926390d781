"""Organiser tools on seats: hand a seat to a substitute, remove a player, abort a game.

Transport-agnostic like the service: they take the service, the channel and the
organiser, and return :class:`~bot.replies.Replies`. A replacement changes only who
sits in the seat (the player's name in the game stays), under the channel's lock.
Player names are safe as they are (:mod:`bot.names`); an organiser's display name is
escaped.
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Caller, Place
from bot.names import display
from bot.narration.describe import own_legions_text
from bot.replies import Message, Replies
from bot.service import GameService
from bot.storage import SeatRow
from bot.storage import games as rows
from bot.storage.record import Game
from engine.errors import IllegalAction, TitanError
from engine.game import actions as a


def _seat_of(game: Game | None, user: int) -> tuple[Game, int]:
    if game is None:
        raise IllegalAction("there is no game in this channel")
    seat = game.seat_of(user)
    if seat is None:
        raise IllegalAction(f"<@{user}> has no seat in game #{game.id}")
    return game, seat


async def replace_player(
    service: GameService, place: Place, organiser: Caller, old: int, new: int
) -> Replies:
    """Give ``old``'s seat to ``new``; the newcomer is pinged and sent the seat's legions."""
    try:
        async with service.lock(place.channel):
            game, seat = _seat_of(await service.game_in(place.channel), old)
            if game.seat_of(new) is not None:
                raise IllegalAction(f"<@{new}> has a seat in game #{game.id} already")
            seats = [SeatRow(s.seat, new if s.seat == seat else s.user, s.name) for s in game.seats]
            async with service.db.transaction() as db:
                await rows.set_seats(db, game.id, seats)
            service.forget(place.channel)
    except TitanError as exc:
        return Replies.refusal(str(exc))
    name = game.name_of(seat)
    text = (
        f"Organiser **{display(organiser.name)}** handed **{name}**'s seat over from <@{old}>: "
        f"you play **{name}** from now on."
    )
    private = {new: Message(own_legions_text(game.state, seat))} if game.state else {}
    return Replies(public=Message(text, mention=(new,)), private=private)


async def remove_player(
    service: GameService, place: Place, organiser: Caller, user: int
) -> Replies:
    """Take ``user`` out: they leave the lobby, or withdraw from the game (RULES §12.4)."""
    try:
        game, seat = _seat_of(await service.game_in(place.channel), user)
    except TitanError as exc:
        return Replies.refusal(str(exc))
    player = Caller(user, game.name_of(seat))
    if game.state is None:
        replies = await service.submit(place, player, "leave")
    else:
        replies = await service.act(place, player, a.Withdraw())
    if replies.public is None:
        return replies
    head = f"Organiser **{display(organiser.name)}** removed **{player.name}** from the game.\n"
    return replace(replies, public=replace(replies.public, text=head + replies.public.text))


async def abort_game(service: GameService, place: Place, organiser: Caller) -> Replies:
    """Cancel the channel's game, started or not."""
    return await service.submit(place, replace(organiser, organiser=True), "cancel")
