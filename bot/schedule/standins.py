"""Named stand-ins: while a player is away, the user they named plays their seat.

The stand-in acts with their own commands in the game's channel (see
:meth:`bot.context.Caller.seat_in`) and so must know what the seat knows: every private
message for the away player is copied to them, headed by whom it is for. Nobody who
holds a seat of their own in the game stands in there (they would know two seats), nor
anyone who has read the game's secrets (an organiser's export: :mod:`bot.handlers.secrets`);
in that game the away player's clocks stop instead.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import replace

from bot.replies import Replies
from bot.storage.record import Game


def standin_applies(game: Game, standin: int | None, read: Container[int] = ()) -> bool:
    """Whether ``standin`` may play for an away player of ``game`` (``read``: who has read
    the game's secrets)."""
    return standin is not None and game.seat_of(standin) is None and standin not in read


def with_standin_copies(
    replies: Replies, game: Game, standins: dict[int, int], read: Container[int] = ()
) -> Replies:
    """``replies`` with each away player's private news also sent to their stand-in
    (``standins``: away user → stand-in; ``read``: who has read the game's secrets)."""
    private = dict(replies.private)
    for user, message in replies.private.items():
        standin = standins.get(user)
        seat = game.seat_of(user)
        if seat is None or not standin_applies(game, standin, read):
            continue
        assert standin is not None
        head = f"🏖 For **{game.name_of(seat)}**, whom you stand in for in <#{game.row.channel}>:"
        earlier = private.get(standin)
        text = f"{head}\n{message.text}"
        if earlier is not None:
            text = f"{earlier.text}\n{text}"
        private[standin] = replace(message, text=text, mention=())
    return replace(replies, private=private)
