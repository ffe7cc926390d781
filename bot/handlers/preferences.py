"""``dms on|off``: a player's own choice of private news by direct message.

With DMs off, the news of what others did to one's legions is not sent; ``legions``
shows them at any time, and one's own commands answer with one's own news as before.
Turning them on again also forgets an earlier refusal (the player may have opened them).
"""

from __future__ import annotations

from bot.context import Context
from bot.replies import Replies
from bot.storage import games as rows
from bot.storage.record import Game
from bot.syntax import Args
from engine.errors import InvalidNotation

CHOICES = {"on": False, "off": True}
"""The word → whether DMs are turned off."""


async def dms(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Turn the caller's DMs of private news on or off (any channel, any time)."""
    word = args.take("on or off").lower()
    args.finish()
    if word not in CHOICES:
        raise InvalidNotation(f"dms: on or off, not {word!r}")
    off = CHOICES[word]
    async with ctx.db.transaction() as db:
        await rows.set_dms_off(db, ctx.caller.user, off)
        if not off:
            await rows.reopen_dms(db, ctx.caller.user)
    if off:
        return Replies.answer(
            "Direct messages are off: I will not send you private news. Your own commands "
            "still answer with your news, and `legions` shows your legions at any time."
        )
    return Replies.answer("Direct messages are on: I send you what others do to your legions.")
