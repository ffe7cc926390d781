"""Handing a seat over to a substitute, as a change of the channel's game: only who sits
in the seat changes (the player's name in the game stays); the host's powers follow the
seat. Transport-agnostic: the organiser's tools of Discord and the tournament's
``replace`` both run it through :meth:`bot.service.GameService.change`."""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.handlers.secrets import refuse_reader
from bot.names import display
from bot.narration.describe import own_legions_text
from bot.replies import Message, Replies
from bot.storage import games as rows
from bot.storage.record import Game
from engine.errors import IllegalAction


async def hand_over(ctx: Context, game: Game | None, old: int, new: int, organiser: str) -> Replies:
    """Give ``old``'s seat in ``game`` to ``new`` (stored in ``ctx.db``); the newcomer is
    pinged and sent the seat's legions. Raises :class:`IllegalAction` when ``old`` has no
    seat or ``new`` has one already. The caller drops the service's cached game."""
    if game is None:
        raise IllegalAction("there is no game in this channel")
    seat = game.seat_of(old)
    if seat is None:
        raise IllegalAction(f"<@{old}> has no seat in game #{game.id}")
    if game.seat_of(new) is not None:
        raise IllegalAction(f"<@{new}> has a seat in game #{game.id} already")
    # only the seat's user changes: the other seats keep theirs and their AI levels
    seats = [replace(s, user=new, level=None) if s.seat == seat else s for s in game.seats]
    hosting = game.settings.host == old
    async with ctx.db.transaction() as db:
        await refuse_reader(db, game.id, new)
        await rows.set_seats(db, game.id, seats)
        if hosting:  # the host's powers follow the seat
            settings = replace(game.settings, host=new).to_json()
            await rows.update_game(db, game.id, game.row.status, settings=settings)
    name = game.name_of(seat)
    text = (
        f"Organiser **{display(organiser)}** handed **{name}**'s seat over from "
        f"<@{old}>: you play **{name}** from now on" + (", and host the game." if hosting else ".")
    )
    private = {new: Message(own_legions_text(game.state, seat))} if game.state else {}
    return Replies(public=Message(text, mention=(new,)), private=private)
