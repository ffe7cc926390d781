"""``choices [KIND [WORD…]]``: one step of the caller's decision, for the caller alone.

The answer reaches the caller alone (RULES §1.7): the legions that may move and the lands
they reach, the characters a split takes off, the recruits and recruiters a muster may
show, the donors of a summon, a defender's right to flee (:mod:`bot.offers.steps`). It
writes the step in words and carries its choices (buttons and menus on Discord; in the
terminal, the commands listed: :mod:`bot.console`).
"""

from __future__ import annotations

from bot.context import Context
from bot.legality import legal
from bot.narration.describe import waiting_for
from bot.offers import KINDS, Offers, step
from bot.offers.board import current_kind
from bot.replies import Message, Replies
from bot.storage.record import Game
from bot.syntax import Args
from engine.errors import IllegalAction, InvalidNotation, NotYourTurn

MAX_TEXT = 1900


async def choices(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The caller's choices of one kind (default: the decision the game waits for)."""
    words = list(args.until(()))
    if game is None:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    state = game.playing()
    seat = ctx.caller.seat_in(game)
    if seat is None:
        raise IllegalAction("you are not playing in this game (you may watch: `status`)")
    waiting, task = waiting_for(state)
    if waiting != seat:
        if waiting is None:
            raise NotYourTurn("the game is over: `status` shows how it ended")
        raise NotYourTurn(
            f"it is not your turn: the game waits for {game.name_of(waiting)} to {task}"
        )
    name = words.pop(0).lower() if words else current_kind(state, seat)
    if name is None:
        raise IllegalAction("nothing of yours needs choosing step by step now (`legal` lists all)")
    if name not in KINDS:
        kinds = ", ".join(KINDS)
        raise InvalidNotation(f"choices: {name!r} is not a kind of decision ({kinds})")
    if not any(isinstance(x, KINDS[name].actions) for x in legal(state, seat)):
        raise NotYourTurn(
            f"`choices {name}` has nothing for you now: the game waits for you to {task}"
        )
    found = step(state, seat, name, words)
    text = found.text
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    offers = Offers.of(game.id, game.n, found.choices)
    return Replies(ephemeral=Message(text, found.picture, offers=offers))
