"""A player's own choices, in any channel, at any time: ``dms on|off`` (private news by
direct message), ``reminders on|off`` and ``quiet HH:MM-HH:MM [ZONE]|off`` (when the
bot may remind them that a game waits; see :mod:`bot.schedule`), ``autostrike
off|forced|all`` (which of their strike-phase decisions are made for them, see
:mod:`bot.handlers.autostrike`) and ``fighton on|off`` (whether their chances to concede
outright are answered "fight on" at once); time away is :mod:`bot.handlers.away`.

With DMs off, the news of what others did to one's legions is not sent; ``legions``
shows them at any time, and one's own commands answer with one's own news as before.
Turning them on again also forgets an earlier refusal (the player may have opened them).
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.dialect import timestamp
from bot.replies import Replies
from bot.schedule.quiet import QuietHours
from bot.storage import autostrike as autostrike_rows
from bot.storage import dms as dm_rows
from bot.storage import due
from bot.storage.connection import Connection
from bot.storage.record import Game
from bot.syntax import Args
from engine.errors import InvalidNotation

MOST_AWAY = 90 * 86400
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
        await dm_rows.set_dms_off(db, ctx.caller.user, off)
        if not off:
            await dm_rows.reopen_dms(db, ctx.caller.user)
    if off:
        return Replies.answer(
            "Direct messages are off: I will not send you private news. Your own commands "
            "still answer with your news, and `legions` shows your legions at any time."
        )
    return Replies.answer("Direct messages are on: I send you what others do to your legions.")


async def reminders(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Turn the caller's reminders (that a game waits for them) on or off."""
    word = args.take("on or off").lower()
    args.finish()
    if word not in CHOICES:
        raise InvalidNotation(f"reminders: on or off, not {word!r}")
    async with ctx.db.transaction() as db:
        prefs = await due.reminder_prefs(db, ctx.caller.user)
        await due.set_reminder_prefs(db, ctx.caller.user, replace(prefs, off=CHOICES[word]))
    if CHOICES[word]:
        return Replies.answer(
            "Reminders are off: I will not remind you that a game waits for you (deadlines "
            "still pass)."
        )
    return Replies.answer("Reminders are on: I remind you when a game has waited for you.")


async def quiet(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The caller's quiet hours (``22:00-08:00 Europe/Paris``), or none (``off``)."""
    span = args.take("the hours, like 22:00-08:00, or off")
    zone = args.take("the time zone") if args.peek() is not None else "UTC"
    args.finish()
    hours = None if span.lower() == "off" else QuietHours.parse(span, zone)
    async with ctx.db.transaction() as db:
        prefs = await due.reminder_prefs(db, ctx.caller.user)
        text = hours.to_text() if hours is not None else None
        await due.set_reminder_prefs(db, ctx.caller.user, replace(prefs, quiet=text))
    if hours is None:
        return Replies.answer("No quiet hours: a reminder may come at any time of day.")
    return Replies.answer(
        f"Quiet hours {hours.start:%H:%M}–{hours.end:%H:%M} ({hours.zone}): a reminder due "
        "then waits for their end."
    )


AUTOSTRIKE_WORDS: dict[str, autostrike_rows.Mode] = {
    **{mode: mode for mode in autostrike_rows.MODES},
    "on": "forced",  # the command's first form: on|off
}
"""The words of ``autostrike`` and the mode each turns on."""


async def autostrike(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Set which of the caller's strike-phase decisions are made for them (any channel,
    any time): none, the forced ones, or all."""
    word = args.take("off, forced or all").lower()
    args.finish()
    mode = AUTOSTRIKE_WORDS.get(word)
    if mode is None:
        raise InvalidNotation(f"autostrike: off, forced or all, not {word!r}")
    async with ctx.db.transaction() as db:
        await autostrike_rows.set_autostrike(db, ctx.caller.user, mode)
    if mode == "forced":
        return Replies.answer(
            "Autostrike forced: in a battle, when every strike left to you has one target (it "
            "must be made, RULES §9.1), I make it for you at once, and so with carried-over "
            "hits only one character can take (§9.4). A choice (two targets, a rangestrike, "
            "conceding) still waits for you; `autostrike all` makes those too."
        )
    if mode == "all":
        return Replies.answer(
            "Autostrike all: in a battle, I make every decision of your strike phases for you "
            "at once, as the computer at level hard would: whom each character strikes, "
            "rangestrikes, where carried-over hits go, when the phase ends (RULES §9, §10). "
            "Your maneuvers, summons, reinforcements and concessions still wait for you "
            "(`fighton on` answers your chances to concede); `autostrike forced` makes only "
            "the strikes that leave no choice."
        )
    return Replies.answer("Autostrike is off: you make every strike yourself.")


async def fighton(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Set whether the caller's chances to concede outright in battle are answered "fight
    on" at once (any channel, any time; RULES §5.8)."""
    word = args.take("on or off").lower()
    args.finish()
    if word not in CHOICES:
        raise InvalidNotation(f"fighton: on or off, not {word!r}")
    on = not CHOICES[word]
    async with ctx.db.transaction() as db:
        await autostrike_rows.set_fighton(db, ctx.caller.user, on)
    if on:
        return Replies.answer(
            "Fight on: when a battle gives you a chance to concede outright and nothing else "
            "(as it begins, before drift damage, before the counterstrikes, at the end check; "
            'RULES §5.8), I answer "fight on" for you at once. You may still concede at '
            "any decision of yours in a battle (`concede`)."
        )
    return Replies.answer(
        "Fight on is off: each chance to concede in a battle waits for your answer."
    )


async def choices_text(db: Connection, user: int, now: float) -> str:
    """The caller's own choices in one line (shown under ``mygames``): DMs, reminders and
    quiet hours, autostrike, fighton, and time away."""
    closed_at, dms_off = await dm_rows.dm_status(db, user)
    refused = closed_at is not None
    dms_word = "off" if dms_off else "closed (Discord refused them)" if refused else "on"
    prefs = await due.reminder_prefs(db, user)
    hours = QuietHours.stored(prefs.quiet)
    remind = "off" if prefs.off else "on"
    if not prefs.off and hours is not None:
        remind += f", quiet {hours.start:%H:%M}–{hours.end:%H:%M} ({hours.zone})"
    chosen = (await autostrike_rows.autoplay_of(db, (user,))).get(user, autostrike_rows.Autoplay())
    fight_on = "on" if chosen.fight_on else "off"
    parts = [
        f"DMs {dms_word}",
        f"reminders {remind}",
        f"autostrike {chosen.strikes}",
        f"fighton {fight_on}",
    ]
    away = await due.away(db, user, now)
    if away is not None:
        who = "the computer plays for you" if away.standin else None
        who = who or (f"<@{away.standin_user}> stands in" if away.standin_user else None)
        parts.append(f"away until {timestamp(away.until, 'f')}" + (f" ({who})" if who else ""))
    return f"Your choices: {' · '.join(parts)}."
