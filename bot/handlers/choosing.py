"""``choices [KIND]``: the caller's own choices for the decision the game waits for.

The answer reaches the caller alone (RULES §1.7): the recruits and recruiters a muster may
show, the donors of a summon, a defender's right to flee. It lists the commands in words
and carries them as :class:`~bot.offers.Offers` (a menu on Discord), least revealing first.
"""

from __future__ import annotations

from bot.context import Context
from bot.offers import ASKS, MAX_OFFERS, Offers, private_offers
from bot.replies import Message, Replies
from bot.storage.record import Game
from bot.syntax import Args
from engine.errors import IllegalAction, InvalidNotation, NotYourTurn
from engine.game.legal import to_act

MAX_TEXT = 1900


async def choices(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The caller's choices of one kind (default: all a menu can give)."""
    word = args.peek()
    kind = args.take("kind").lower() if word is not None else "all"
    args.finish()
    if kind not in ASKS:
        kinds = ", ".join(ASKS)
        raise InvalidNotation(f"choices: {kind!r} is not a kind of decision ({kinds})")
    if game is None:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    state = game.playing()
    seat = ctx.caller.seat_in(game)
    if seat is None:
        raise IllegalAction("you are not playing in this game (you may watch: `status`)")
    waiting = to_act(state)
    if waiting != seat:
        who = game.name_of(waiting) if waiting is not None else "nobody: the game is over"
        raise NotYourTurn(f"the game is not waiting for you but for {who}")
    found = private_offers(state, seat, kind)
    if not found:
        return Replies.answer("You have nothing of that kind to choose now (`legal` lists all).")
    shown = found[:MAX_OFFERS]
    lines = ["Your choices (only you see them):"]
    lines += [f"`{offer.command}` — {offer.label}" for offer in shown]
    if len(found) > len(shown):
        lines.append(f"… and {len(found) - len(shown)} more: give them as commands (`legal`).")
    text = "\n".join(lines)
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    return Replies(ephemeral=Message(text, offers=Offers(game.id, game.n, tuple(shown))))
