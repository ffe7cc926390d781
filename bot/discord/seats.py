"""Organiser tools: hand a seat to a substitute, remove a player, abort or export a game.

Transport-agnostic like the service: they take the service, the channel and the
organiser, and return :class:`~bot.replies.Replies`. A replacement changes only who
sits in the seat (the player's name in the game stays), under the channel's lock.
Player names are safe as they are (:mod:`bot.names`); an organiser's display name is
escaped.
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Caller, Context, Place
from bot.handlers.handover import hand_over
from bot.names import display
from bot.replies import Replies
from bot.service import GameService
from bot.storage.record import Game
from engine.errors import IllegalAction, TitanError
from engine.game import actions as a


async def _open_game(service: GameService, channel: int) -> Game:
    """The channel's open game; refused in words when there is none (or it is damaged)."""
    game = await service.game_in(channel)
    if game is None:
        notice = await service.damage_notice_in(channel)
        raise IllegalAction(notice or "there is no game in this channel")
    return game


def _seat_of(game: Game, user: int) -> tuple[Game, int]:
    seat = game.seat_of(user)
    if seat is None:
        raise IllegalAction(f"<@{user}> has no seat in game #{game.id}")
    return game, seat


async def replace_player(
    service: GameService,
    place: Place,
    organiser: Caller,
    old: int,
    new: int,
    reply_to: str | None = None,
) -> Replies:
    """Give ``old``'s seat to ``new``; the newcomer is pinged and sent the seat's legions,
    and takes over the host's powers if ``old`` held them."""

    async def work(ctx: Context, game: Game | None) -> Replies:
        replies = await hand_over(ctx, game, old, new, organiser.name)
        service.forget(place.channel)
        return replies

    return await service.change(place, organiser, work, reply_to=reply_to)


async def remove_player(
    service: GameService,
    place: Place,
    organiser: Caller,
    user: int,
    reply_to: str | None = None,
) -> Replies:
    """Take ``user`` out: they leave the lobby, or withdraw from the game (RULES §12.4)."""
    try:
        game, seat = _seat_of(await _open_game(service, place.channel), user)
    except TitanError as exc:
        return Replies.refusal(str(exc))
    player = Caller(user, game.name_of(seat), on_behalf=True)
    head = f"Organiser **{display(organiser.name)}** removed **{player.name}** from the game."
    if game.state is None:
        return await service.submit(place, player, "leave", reply_to=reply_to, note=head)
    return await service.act(place, player, a.Withdraw(), reply_to=reply_to, note=head)


async def abort_game(
    service: GameService,
    place: Place,
    organiser: Caller,
    game: int | None = None,
    reply_to: str | None = None,
) -> Replies:
    """Cancel the channel's game, started or not, or its damaged one (``game``: a damaged
    game's number, when a fresh game is open meanwhile)."""
    text = "cancel" if game is None else f"cancel {game}"
    return await service.submit(place, replace(organiser, organiser=True), text, reply_to=reply_to)


async def export_game(
    service: GameService, place: Place, organiser: Caller, game: int | None = None
) -> Replies:
    """The channel's game (or its game number ``game``) as a JSON file, for the organiser
    alone; refused while the game is played and the organiser holds a seat in it."""
    text = "export" if game is None else f"export {game}"
    return await service.submit(place, replace(organiser, organiser=True), text)
