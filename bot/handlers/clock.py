"""``settings …``: the host or an organiser changes a game's clock after its creation;
``force``: an organiser ends the wait for the decision the game waits for now.

``settings deadline 12h timeout pass standin normal remind 0.5,0.9 before 2h`` — any of
them, in any order (``standin``: the level the computer plays at for a late or away player).
The change is announced in the channel (who changed what, from what) and logged; the
decision the game waits for keeps its start and gets the new deadline and reminders (a
deadline already past falls due at once).

``force`` brings the decision's deadline to now: it passes at once and does what the
game's clock says (the computer plays, the least is played, or the game waits for a
replacement), counting as a missed deadline, as it would have later (:func:`end_wait`,
also the tournament desk's ``tournament force``).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.context import Context
from bot.names import display
from bot.replies import Message, Replies
from bot.schedule import options as clock
from bot.schedule.planner import replan
from bot.schedule.timing import parse_duration
from bot.storage import due
from bot.storage import games as rows
from bot.storage import tournaments as tables
from bot.storage.connection import Connection
from bot.storage.record import Game, Timing
from bot.syntax import Args
from engine.errors import IllegalAction

log = logging.getLogger(__name__)

KEYS = ("deadline", "timeout", "standin", "remind", "before")


def _fractions(text: str) -> tuple[float, ...]:
    try:
        found = tuple(float(x) for x in text.split(",") if x)
    except ValueError:
        found = ()
    if not found or not all(0 < f < 1 for f in found):
        raise IllegalAction(
            f"remind takes fractions of the deadline between 0 and 1, like 0.5,0.9; not {text!r}"
        )
    return found


def changed_timing(timing: Timing, args: Args) -> Timing:
    """``timing`` with the settings ``args`` name."""
    seen = False
    while (word := args.keyword(*KEYS)) is not None:
        seen = True
        value = args.take(f"the {word}")
        if word == "deadline":
            timing = clock.with_deadline(timing, value)
        elif word == "timeout":
            timing = clock.with_policy(timing, value)
        elif word == "standin":
            timing = clock.with_stand_in(timing, value)
        elif word == "remind":
            timing = replace(timing, remind_at=_fractions(value))
        else:
            timing = replace(timing, remind_before=parse_duration(value, "the warning") or 0)
    args.finish()
    if not seen:
        raise IllegalAction(
            "settings: name what to change: `settings deadline 24h`, `settings timeout pass`, "
            "`settings standin normal`, `settings remind 0.5,0.9` or `settings before 2h`"
        )
    return timing


async def settings(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Change the channel's game's clock (the host, or an organiser)."""
    if game is None or not game.row.status.is_open:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    if ctx.caller.user != game.settings.host and not ctx.caller.organiser:
        raise IllegalAction("only the host or an organiser may change the game's clock")
    before = game.settings.timing
    timing = changed_timing(before, args)
    if timing == before:
        return Replies.answer(f"The clock stays as it is: {clock.describe(before)}.")
    settings = replace(game.settings, timing=timing)
    updated = replace(game, row=replace(game.row, settings=settings.to_json()))
    async with ctx.db.transaction() as db:
        await rows.update_game(db, game.id, game.row.status, settings=settings.to_json())
        await replan(db, updated, ctx.now())
    log.info("game %s: %s changed the clock to %s", game.id, ctx.caller.user, timing)
    text = (
        f"**{display(ctx.caller.name)}** changed the clock of game #{game.id}: "
        f"{clock.describe(timing)} (was: {clock.describe(before)})."
    )
    return Replies(public=Message(text))


async def force(ctx: Context, game: Game | None, args: Args) -> Replies:
    """End the wait for the decision the channel's game waits for, as its deadline would
    (an organiser)."""
    args.finish()
    if game is None or game.state is None:
        raise IllegalAction("there is no game under way in this channel")
    if not ctx.caller.organiser:
        raise IllegalAction("only an organiser may end a player's wait")
    async with ctx.db.transaction() as db:
        text = await end_wait(db, game, ctx.now(), display(ctx.caller.name))
    return Replies(public=Message(text))


async def end_wait(db: Connection, game: Game, now: float, organiser: str) -> str:
    """Bring the deadline of the decision ``game`` waits for to ``now`` (inside the
    caller's transaction); the words that tell the game so. Raises :class:`IllegalAction`
    when the decision has no deadline, or the game is a tournament's paused table (its
    deadlines wait for the organiser's ``tournament resume``)."""
    if await tables.paused_since(db, game.id) is not None:
        raise IllegalAction("this table is paused: resume it first (`tournament resume`)")
    found = await due.clock(db, game.id)
    if found is None or found.deadline is None:
        raise IllegalAction(
            "the game waits for no deadline: there is none to end (`settings deadline 24h`)"
        )
    await due.bring_forward(db, game.id, found.decision, min(now, found.deadline))
    who = game.name_of(found.seat)
    then = clock.after_deadline(game.settings.timing)
    return (
        f"⏩ Organiser **{organiser}** ended the wait for **{who}**: their deadline passes "
        f"now ({then})."
    )
